"""BR through simcord, from the members' side (issue 13, items 3 and 7): each camp reports its own part
on a phone form prefilled with its units; agreed reports are applied without the GM; differences go
to the GM, whose report decides; a template to download and upload back; the GM's form example works;
"Confirm the report" survives a restart."""

from __future__ import annotations

import json

import yaml

from bot.cogs.battle import load_report_text
from bot.i18n import t
from tests.store.test_battle_flow import REPORT

from .conftest import domain_errors_only, make_bot, refused, shown, texts
from .test_battle import to_battle
from .test_features import locales  # noqa: F401 - the fixture
from .test_turn_flows import cards


def controls(modal: dict) -> dict[str, dict]:
    """A modal's controls by custom id (inside their labels), with the label's text as ``label``."""
    out = {}
    for c in modal["components"]:
        inner = c.get("component") or (c.get("components") or [{}])[0]
        out[inner["custom_id"]] = {**inner, "label": c.get("label") or inner.get("label")}
    return out


def filled(modal: dict, **changes: str) -> dict[str, str]:
    """What a member submits: the form as prefilled, with ``changes``."""
    values: dict[str, object] = {}
    for cid, c in controls(modal).items():
        if "options" in c and c.get("min_values") == 0:  # a select of any number: what it shows picked
            values[cid] = [o["value"] for o in c["options"] if o.get("default")]
        elif "options" in c:
            values[cid] = [next((o["value"] for o in c["options"] if o.get("default")), c["options"][0]["value"])]
        else:
            values[cid] = c.get("value") or ""
    selects = {cid for cid, c in controls(modal).items() if "options" in c}
    return {**values, **{k: [v] if k in selects and isinstance(v, str) else v for k, v in changes.items()}}


FR_LOSSES = "suchet: 2 0 0\nhussars: 0 0 0"
AU_LOSSES = "riesch: 3 2 0\njaegers: 2 0 0"
AU_MORE = "fell:0:melee"  # picked in the form's select (issue 23, item 2): Mack fell in melee
FR_MORE = "took:hussars:jaegers:1"  # the hussars took the Jaegers in melee, on orders, taking their ground


async def test_br_both_camps_report_agreeing_results_and_phase_4_begins_without_the_gm(table) -> None:
    await to_battle(table)
    (thread,) = table.channel.threads
    form = await table.fr.slash(thread, "battle report", battle="1")
    fields = controls(form.modal)
    assert fields["losses"]["value"].startswith("suchet: 0 0 0   # Suchet, 10 SP")  # unit keys and names shown
    assert "hussars: 0 0 0   # 10th Hussars, 4 SP" in fields["losses"]["value"]
    assert [o["value"] for o in fields["outcome"]["options"]] == ["won", "lost", "draw"]
    sent = await table.fr.submit_modal(form, filled(form.modal, outcome="won", banners="7/7", losses=FR_LOSSES,
                                                    more=FR_MORE))
    assert sent.response.ephemeral and "Waiting for: Austria" in shown(sent)
    assert "Battle 1: the report" not in texts(thread.history())  # fog of war: France's claim is not posted

    again = await table.fr.slash(thread, "battle report", battle="1")  # reopened: what France entered
    fields = controls(again.modal)
    assert "suchet: 2 0 0" in fields["losses"]["value"] and fields["banners"]["value"] == "7/7"
    assert next(o for o in fields["outcome"]["options"] if o.get("default"))["value"] == "won"
    assert [o["value"] for o in fields["more"]["options"] if o.get("default")] == [FR_MORE]

    form = await table.au.slash(thread, "battle report", battle="1")
    done = await table.au.submit_modal(form, filled(form.modal, outcome="lost", banners="4/7", losses=AU_LOSSES,
                                                    more=AU_MORE))
    assert "agrees: it is reported (BR)" in shown(done)
    said = texts(thread.history())
    assert "Battle 1: the report" in said and "Austria lost, France won" in said and "**France**: 2" in said
    card = cards(table.channel)[-1]
    assert "Phase 4" in texts([card])  # the GM did nothing
    domain_errors_only(table.env)


async def test_br_camps_that_differ_are_put_to_the_gm_whose_report_decides(table) -> None:
    await to_battle(table)
    (thread,) = table.channel.threads
    form = await table.fr.slash(thread, "battle report", battle="1")
    await table.fr.submit_modal(form, filled(form.modal, outcome="won", banners="7/7", losses=FR_LOSSES))
    form = await table.au.slash(thread, "battle report", battle="1")
    told = await table.au.submit_modal(form, filled(form.modal, outcome="won", banners="4/7", losses=AU_LOSSES))
    assert "the camps' reports differ: the GM decides (BR)" in shown(told)

    dm = texts(table.gm.user.dm_channel.history())
    assert "reports of battle 1 differ" in dm and "Austria: Austria won" in dm  # the GM is told what differs
    asked = thread.history()[-1]
    assert table.gm.id in {u.id for u in asked.mentions} and "Austria won" not in texts([asked])
    assert "Phase 3" in texts([cards(table.channel)[-1]])

    preview = await table.gm.slash(table.channel, "battle report", battle="1",
                                   file=("report.json", json.dumps(REPORT).encode()))
    assert "France won, Austria lost" in shown(preview)
    await table.gm.click(preview.response, label="Confirm the report")
    assert "Phase 4" in texts([cards(table.channel)[-1]])
    domain_errors_only(table.env)


async def test_br_the_template_downloads_with_the_units_and_is_accepted_back(table) -> None:
    await to_battle(table)
    (thread,) = table.channel.threads
    got = await table.au.slash(thread, "battle report", battle="1", template=True)
    assert got.response.ephemeral and "docs/battle-report.md" in shown(got)
    text = (await got.response.attachments[0].read()).decode()
    assert "riesch" in text and "# Riesch, 12 SP" in text and "- side: au" in text and "side: fr" not in text
    filled_in = text.replace("outcome: draw", "outcome: lost").replace("banners: 0", "banners: 4") \
        .replace("banners_required: 6", "banners_required: 7")
    back = await table.au.slash(thread, "battle report", battle="1", file=("report.yaml", filled_in.encode()))
    assert "Waiting for: France" in shown(back)
    untouched = await table.fr.slash(thread, "battle report", battle="1", template=True)
    body = (await untouched.response.attachments[0].read()).decode()
    assert "riesch" not in yaml.safe_dump(yaml.safe_load(body))  # nothing of Austria's claim (fog of war)
    gm = await table.gm.slash(table.channel, "battle report", battle="1", template=True)
    whole = (await gm.response.attachments[0].read()).decode()
    assert "side: fr" in whole and "side: au" in whole and "outcome: lost" not in whole  # the claims stay the camps'


async def test_br_the_gms_form_shows_the_units_and_its_own_example_validates(table) -> None:
    await to_battle(table)
    form = await table.gm.slash(table.channel, "battle report", battle="1")
    box = controls(form.modal)["report"]
    assert "# Suchet, 10 SP" in box["value"] and "# Riesch, 12 SP" in box["value"]
    assert box["placeholder"] == t("en", "report.modal_placeholder")
    load_report_text(box["placeholder"])  # YAML, not taken for JSON
    preview = await table.gm.submit_modal(form, {"report": box["placeholder"]})  # the example as given
    assert "France won, Austria lost" in shown(preview) and "missing" not in shown(preview)
    reopened = await table.gm.slash(table.channel, "battle report", battle="1")  # keeps the draft
    assert "outcome: won" in controls(reopened.modal)["report"]["value"]


async def test_br_confirm_the_report_works_after_a_restart_or_says_it_expired(table, tmp_path) -> None:
    await to_battle(table)
    preview = await table.gm.slash(table.channel, "battle report", battle="1",
                                   file=("report.json", json.dumps(REPORT).encode()))
    await table.env.restart_bot(make_bot(tmp_path))
    stale = await table.gm.slash(table.channel, "battle report", battle="1",
                                 file=("r.json", json.dumps({**REPORT, "lost_block": ["hussars"]}).encode()))
    expired = await table.gm.click(preview.response, label="Confirm the report")  # the draft changed since
    assert "has expired" in shown(expired)
    ok = await table.gm.click(stale.response, label="Confirm the report")  # after the restart, by the new bot
    assert "Battle 1 is reported" in shown(ok)
    assert "Phase 4" in texts([cards(table.channel)[-1]])
    domain_errors_only(table.env)


async def test_br_a_member_not_in_the_battle_is_refused(table) -> None:
    await to_battle(table)
    out = await table.outsider.slash(table.channel, "battle report", battle="1")
    assert refused(out, "not on a side")
    out = await table.outsider.slash(table.channel, "battle report", battle="1", template=True)
    assert refused(out)
    assert domain_errors_only(table.env) == 2


async def test_br_a_french_camp_reports_by_picking_and_is_refused_in_french(table, locales) -> None:  # noqa: F811
    """Issue 23, item 2: the form's closed sets are selects in the reader's words (the battle system by
    name, how a leader fell, who took whom); a refusal names the box and line in French, never a path."""
    await to_battle(table)
    (thread,) = table.channel.threads
    locales[table.au.id] = "fr"
    form = await table.au.slash(thread, "battle report", battle="1")
    fields = controls(form.modal)
    systems = [o["label"] for o in fields["system"]["options"]]
    assert "cc" not in systems and "Commands & Colors : Napoleonics" in systems
    picks = {o["value"]: o["label"] for o in fields["more"]["options"]}
    assert picks["fell:0:melee"] == "Mack est tombé en mêlée contre l'infanterie ou la cavalerie (CC-1)"
    assert any(label.startswith("Riesch a éliminé") for label in picks.values())
    bad = await table.au.submit_modal(form, filled(form.modal, outcome="lost", banners="4/7", losses="nobody: 1"))
    said = shown(bad)
    assert refused(bad) and said.count("Pertes, ligne 1") == 1 and "sides[" not in said and "units[" not in said
    form = await table.au.slash(thread, "battle report", battle="1")
    done = await table.au.submit_modal(form, filled(form.modal, outcome="lost", banners="4/7", losses=AU_LOSSES,
                                                    more=["fell:0:melee"]))
    assert not refused(done)
    again = controls((await table.au.slash(thread, "battle report", battle="1")).modal)
    assert [o["value"] for o in again["more"]["options"] if o.get("default")] == ["fell:0:melee"]
