"""BR through simcord, from the members' side (issue 13, items 3 and 7): each camp reports its own part
on a phone form prefilled with its units; agreed reports are applied without the GM; differences go
to the GM, whose report decides; a template to download and upload back; the GM's form example works;
"Confirm the report" survives a restart."""

from __future__ import annotations

import json

import yaml

from bot.cogs.battle import load_report_text
from bot.i18n import t
from bot.services import aftermath, bookkeeping
from bot.services.actors import Actor
from tests.store.test_battle_flow import REPORT

from .conftest import domain_errors_only, make_bot, refused, shown, texts
from .test_background import cid_of
from .test_battle import to_battle
from .test_features import locales  # noqa: F401 - the fixture
from .test_turn_flows import cards


def controls(modal: dict) -> dict[str, dict]:
    """A modal's controls by custom id (inside their labels), with the label's text as ``label``."""
    out = {}
    for c in modal["components"]:
        inner = c.get("component") or (c.get("components") or [{}])[0]
        out[inner["custom_id"]] = {**inner, "label": c.get("label") or inner.get("label"),
                                   "description": c.get("description")}
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


FR_LOSSES = {"suchet": (2, 0, 0)}  # SP killed, in rout, under another order (BR), per unit key
AU_LOSSES = {"riesch": (3, 2, 0), "jaegers": (2, 0, 0)}
KINDS = ("killed", "rout", "other_order")


def buttons(message) -> list[str]:
    """The labels of a message's buttons (a sent message's components, or an interaction's raw rows)."""
    rows = getattr(message, "components", None) or []
    return [c["label"] if isinstance(c, dict) else c.label for row in rows
            for c in (row["components"] if isinstance(row, dict) else row.children)
            if (c.get("label") if isinstance(c, dict) else getattr(c, "label", None))]


async def through_form(member, form, *, lang: str = "en", losses: dict[str, tuple[int, ...]] | None = None,
                       **head) -> list:
    """A camp's form submitted: its first page as prefilled with ``head``, then each page of its losses
    (issue 23, item 1: number boxes, opened one after the other by a button) with ``losses`` and the rest
    as prefilled. Every interaction's result, the last the form's outcome."""
    results = [await member.submit_modal(form, filled(form.modal, **head))]
    boxes = {f"{unit}:{kind}": str(n) for unit, counts in (losses or {}).items() for kind, n in zip(KINDS, counts, strict=True)}
    while results[-1].response is not None:
        more = [label for label in buttons(results[-1].response) if label != t(lang, "report.reopen")]
        if not more:
            break
        page = await member.click(results[-1].response, label=more[0])
        results.append(page)
        mine = {k: v for k, v in boxes.items() if k in controls(page.modal)}
        results.append(await member.submit_modal(page, filled(page.modal, **mine)))
    return results


async def by_form(member, thread, *, lang: str = "en", losses: dict[str, tuple[int, ...]] | None = None,
                  **head):
    """/battle report on the camp's form (:func:`through_form`): the form's outcome."""
    form = await member.slash(thread, "battle report", battle="1")
    return (await through_form(member, form, lang=lang, losses=losses, **head))[-1]
AU_MORE = "fell:0:melee"  # picked in the form's select (issue 23, item 2): Mack fell in melee
FR_MORE = "took:hussars:jaegers:1"  # the hussars took the Jaegers in melee, on orders, taking their ground


async def test_br_both_camps_report_agreeing_results_and_phase_4_begins_without_the_gm(table) -> None:
    await to_battle(table)
    (thread,) = table.channel.threads
    form = await table.fr.slash(thread, "battle report", battle="1")
    fields = controls(form.modal)
    assert "losses" not in fields  # counts are number boxes on pages of their own (issue 23, item 1)
    assert [o["value"] for o in fields["outcome"]["options"]] == ["won", "lost", "draw"]
    steps = await through_form(table.fr, form, outcome="won", banners="7/7", losses=FR_LOSSES, more=FR_MORE)
    pages = [controls(r.modal) for r in steps if r.modal]
    assert len(pages) == 2  # six boxes, five a page: each unit's SP killed, in rout and under another order
    assert pages[0]["suchet:killed"]["label"] == "Suchet"  # the unit by name, the box by its words
    assert pages[0]["suchet:killed"]["description"] == "SP killed (of its 10 SP)"
    assert [o["value"] for o in pages[0]["suchet:killed"]["options"]] == [str(n) for n in range(11)]  # 0..its SP
    assert pages[1]["hussars:other_order"]["label"] == "10th Hussars"
    assert [o["value"] for o in pages[1]["hussars:other_order"]["options"]] == ["0", "1", "2", "3", "4"]
    sent = steps[-1]
    assert sent.response.ephemeral and "Waiting for: Austria" in shown(sent)
    assert "Battle 1: the report" not in texts(thread.history())  # fog of war: France's claim is not posted

    again = await table.fr.slash(thread, "battle report", battle="1")  # reopened: what France entered
    fields = controls(again.modal)
    assert fields["banners"]["value"] == "7/7"
    assert next(o for o in fields["outcome"]["options"] if o.get("default"))["value"] == "won"
    assert [o["value"] for o in fields["more"]["options"] if o.get("default")] == [FR_MORE]
    head = await table.fr.submit_modal(again, filled(again.modal))
    losses = await table.fr.click(head.response, label="Enter the losses (1/2)")
    killed = controls(losses.modal)["suchet:killed"]
    assert [o["value"] for o in killed["options"] if o.get("default")] == ["2"]

    done = await by_form(table.au, thread, outcome="lost", banners="4/7", losses=AU_LOSSES, more=AU_MORE)
    assert "agrees: it is reported (BR)" in shown(done)
    said = texts(thread.history())
    assert "Battle 1: the report" in said and "Austria lost, France won" in said and "**France**: 2" in said
    card = cards(table.channel)[-1]
    assert "Phase 4" in texts([card])  # the GM did nothing
    domain_errors_only(table.env)


async def test_br_a_count_past_a_units_strength_is_refused_naming_the_unit_and_the_box(table, locales) -> None:  # noqa: F811
    """Issue 23, item 1: the losses are numbers picked per unit and box; counts that add up past the
    unit's SP are refused naming the unit and the boxes in the reader's words, and the form reopens
    with what was entered."""
    await to_battle(table)
    (thread,) = table.channel.threads
    locales[table.fr.id] = "fr"
    form = await table.fr.slash(thread, "battle report", battle="1")
    steps = await through_form(table.fr, form, lang="fr", outcome="won", banners="7/7",
                               losses={"hussars": (3, 2, 0)})
    said = shown(steps[-1])
    assert refused(steps[-1]) and "10th Hussars" in said and "tués : 3, en déroute : 2" in said and "hussars" not in said, said
    again = await table.fr.click(steps[-1].response, label=t("fr", "report.reopen"))
    head = await table.fr.submit_modal(again, filled(again.modal))
    first = await table.fr.click(head.response, label=t("fr", "report.losses_button", page=1, pages=2))
    picked = {k: [o["value"] for o in c["options"] if o.get("default")] for k, c in controls(first.modal).items()}
    assert picked["hussars:killed"] == ["3"] and picked["hussars:rout"] == ["2"]  # as entered
    assert controls(first.modal)["hussars:rout"]["description"] == "PF partis en déroute (sur ses 4 PF)"
    domain_errors_only(table.env)


async def test_br_camps_that_differ_are_put_to_the_gm_whose_report_decides(table) -> None:
    await to_battle(table)
    (thread,) = table.channel.threads
    await by_form(table.fr, thread, outcome="won", banners="7/7", losses=FR_LOSSES)
    told = await by_form(table.au, thread, outcome="won", banners="4/7", losses=AU_LOSSES)
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
    bad = await table.au.submit_modal(form, filled(form.modal, outcome="lost", banners="x/7"))
    said = shown(bad)
    assert refused(bad) and "Bannières" in said and "sides[" not in said and "banners_required" not in said, said
    form = await table.au.slash(thread, "battle report", battle="1")
    done = await by_form(table.au, thread, lang="fr", outcome="lost", banners="4/7", losses=AU_LOSSES,
                         more=["fell:0:melee"])
    assert not refused(done)
    again = controls((await table.au.slash(thread, "battle report", battle="1")).modal)
    assert [o["value"] for o in again["more"]["options"] if o.get("default")] == ["fell:0:melee"]


async def test_br_a_unit_past_24_sp_gets_a_number_box_and_a_bad_number_is_refused(table) -> None:
    """Issue 23, item 1: past Discord's 25 options a count is a short number box; what is not a number
    is refused naming the unit and the box."""
    from tests.store.test_battle_flow import SCENARIO

    await to_battle(table, SCENARIO.replace("{key: riesch, name: Riesch, sp: 12", "{key: riesch, name: Riesch, sp: 30"))
    (thread,) = table.channel.threads
    form = await table.au.slash(thread, "battle report", battle="1")
    steps = await through_form(table.au, form, outcome="lost", banners="4/7", losses={"riesch": ("three", 0, 0)})
    box = controls(next(r.modal for r in steps if r.modal))["riesch:killed"]
    assert "options" not in box and box["placeholder"] == "0-30"
    said = shown(steps[-1])
    assert refused(steps[-1]) and "Riesch" in said and "SP killed" in said and "'three'" in said, said
    form = await table.au.slash(thread, "battle report", battle="1")
    done = await through_form(table.au, form, outcome="lost", banners="4/7", losses={"riesch": (25, 2, 0)})
    assert "Waiting for: France" in shown(done[-1])


async def test_br_a_form_half_entered_survives_a_restart_and_the_report_has_every_loss(table, tmp_path) -> None:
    """Nothing lost on restart (issue 23, item 2): a member between two pages of the losses keeps what they
    entered (kept in the campaign's book, keyed by battle and member); the next-page button works for the
    new bot and opens the right page; the submitted report has the losses of every page, and the draft
    goes with it."""
    await to_battle(table)
    (thread,) = table.channel.threads
    form = await table.fr.slash(thread, "battle report", battle="1")
    head = await table.fr.submit_modal(form, filled(form.modal, outcome="won", banners="7/7", more=FR_MORE))
    first = await table.fr.click(head.response, label="Enter the losses (1/2)")
    between = await table.fr.submit_modal(first, filled(first.modal, **{"suchet:killed": "2", "hussars:rout": "1"}))
    assert "Enter the losses (2/2)" in buttons(between.response)
    await table.env.restart_bot(make_bot(tmp_path))  # the first bot's memory is gone
    again = await table.fr.slash(thread, "battle report", battle="1")  # a reopened form shows the draft
    assert controls(again.modal)["banners"]["value"] == "7/7"
    second = await table.fr.click(between.response, label="Enter the losses (2/2)")  # the new bot's button
    assert set(controls(second.modal)) == {"hussars:other_order"}  # the right page
    done = await table.fr.submit_modal(second, filled(second.modal, **{"hussars:other_order": "1"}))
    assert "Waiting for: Austria" in shown(done), shown(done)
    db = table.env.bot.db
    cid = await cid_of(table, table.channel)
    _, _, claim = await aftermath.stored_report(db, cid, Actor(table.fr.id), "1")
    losses = {u["unit"]: (u.get("killed", 0), u.get("rout", 0), u.get("other_order", 0))
              for u in claim["sides"][0]["units"]}
    assert losses["suchet"] == (2, 0, 0) and losses["hussars"] == (0, 1, 1), losses  # pages 1 and 2, both kept
    assert (await bookkeeping.book(db, cid)).drafts == {}  # submitted: the draft is gone

    form = await table.au.slash(thread, "battle report", battle="1")  # Austria half way through its form
    await table.au.submit_modal(form, filled(form.modal, outcome="lost", banners="4/7"))
    assert list((await bookkeeping.book(db, cid)).drafts) == [f"1:{table.au.id}"]
    preview = await table.gm.slash(table.channel, "battle report", battle="1",
                                   file=("report.json", json.dumps(REPORT).encode()))
    assert "Battle 1 is reported" in shown(await table.gm.click(preview.response, label="Confirm the report"))
    assert (await bookkeeping.book(db, cid)).drafts == {}  # the battle resolved: its drafts go with it
    domain_errors_only(table.env)
