"""Disputes in two taps (issue 22, item 4; BR): when the camps' reports differ, the GM reads every
differing field by name, in the GM's language, with a "take France's / take Austria's" button per field
(working after a restart) and a form prefilled with the merged claims; a player's refused form reopens
with the member's own text and the faulty line named; Phase 3 calls the camps, not the GM."""

from __future__ import annotations

from .conftest import domain_errors_only, make_bot, shown, texts
from .test_battle import to_battle
from .test_battle_report import AU_LOSSES, FR_LOSSES, by_form, controls, filled
from .test_turn_flows import cards


def buttons(message) -> list[str]:
    """The labels of a message's buttons (a sent message's components, or an interaction's raw rows)."""
    rows = message.components
    return [c["label"] if isinstance(c, dict) else c.label for row in rows
            for c in (row["components"] if isinstance(row, dict) else row.children)
            if (c.get("label") if isinstance(c, dict) else getattr(c, "label", None))]


async def dispute(table, thread) -> None:
    """France: won 7/7, and Riesch eliminated in melee by its hussars; Austria: won 7/7, Riesch lost 5 SP."""
    await by_form(table.fr, thread, outcome="won", banners="7/7", losses=FR_LOSSES, more="took:hussars:riesch:0")
    told = await by_form(table.au, thread, outcome="won", banners="7/7", losses=AU_LOSSES)
    assert "the GM decides" in shown(told)


async def test_phase_3_calls_the_camps_and_the_gm_only_once_they_differ(table) -> None:
    await to_battle(table)
    card = cards(table.channel)[-1]
    assert "Phase 3" in texts([card])
    called = {u.id for u in card.mentions}
    assert {table.fr.id, table.au.id} <= called and table.gm.id not in called  # the camps report (BR)
    (thread,) = table.channel.threads
    await dispute(table, thread)
    asked = thread.history()[-1]
    assert table.gm.id in {u.id for u in asked.mentions}
    domain_errors_only(table.env)


async def test_the_gm_reads_every_difference_by_name_and_settles_it_in_taps_after_a_restart(table, tmp_path) -> None:
    await to_battle(table)
    (thread,) = table.channel.threads
    await dispute(table, thread)
    (dm,) = [m for m in table.gm.user.dm_channel.history() if buttons(m)]
    said = texts([dm])
    for field in ("Outcome", "Victory Banners", "Riesch"):  # every differing field, by name
        assert field in said, said
    assert "France: France won" in said and "Austria: Austria won" in said
    assert "'au'" not in said and "'fr'" not in said and "'riesch'" not in said  # names, not keys
    labels = buttons(dm)
    assert [label for label in labels if "Take" in label] == [
        "1. Take France's", "1. Take Austria's", "2. Take France's", "2. Take Austria's", "3. Take France's",
        "3. Take Austria's"]  # a row per field, its number in the list
    assert "Open the merged report" in labels

    await table.env.restart_bot(make_bot(tmp_path))  # the buttons are the campaign's, not the process's
    taps = [c.custom_id for row in dm.components for c in row.children if "Take France's" in (c.label or "")]
    for custom_id in taps:
        last = await table.gm.user.click(dm, custom_id=custom_id)
    assert "Confirm the report" in buttons(last.response)
    done = await table.gm.user.click(last.response, label="Confirm the report")
    assert "Battle 1 is reported" in shown(done)
    assert "Phase 4" in texts([cards(table.channel)[-1]])
    report = texts(thread.history())
    assert "Austria lost, France won" in report or "France won, Austria lost" in report
    domain_errors_only(table.env)


async def test_the_gms_form_is_prefilled_with_the_merged_claims_in_the_scenarios_order(table) -> None:
    await to_battle(table)
    (thread,) = table.channel.threads
    await dispute(table, thread)
    form = await table.gm.slash(table.channel, "battle report", battle="1")
    text = controls(form.modal)["report"]["value"]
    assert text.index("side: fr") < text.index("side: au")  # France first, as the scenario lists it
    assert "banners_required: 7" in text and "killed: 3" in text and "rout: 2" in text  # Austria's own losses
    assert "outcome: won" in text and "by: hussars" in text  # France's claims


async def test_a_refused_camp_form_reopens_with_the_members_own_text_and_names_the_box(table) -> None:
    await to_battle(table)
    (thread,) = table.channel.threads
    form = await table.fr.slash(thread, "battle report", battle="1")
    refusal = await table.fr.submit_modal(form, filled(form.modal, outcome="won", banners="7 of 7"))
    said = shown(refusal)
    assert "Victory Banners" in said and "'7 of 7'" in said, said  # refused on its own page, before the losses
    again = await table.fr.click(refusal.response, label="Reopen my report")
    fields = controls(again.modal)
    assert fields["banners"]["value"] == "7 of 7"
    assert next(o for o in fields["outcome"]["options"] if o.get("default"))["value"] == "won"
    domain_errors_only(table.env)
