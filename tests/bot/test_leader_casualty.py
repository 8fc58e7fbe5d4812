"""A battle with a leader casualty, through slash commands, to Phase 5: the fallen leader's fate
(CC-1), the New Leader who takes command (CC-2, RU-18), the roster and the brief that show him, and
a Phase 4 that ends (the replacement never blocks it)."""

from __future__ import annotations

import json

from tests.store.test_leader_fate import SCENARIO, report

from .conftest import advance, domain_errors_only, shown, texts


async def test_ru_18_a_leader_slain_in_melee_is_replaced_and_the_campaign_goes_on(table) -> None:
    scenario = SCENARIO.replace("FORCE", "oudinot")
    r = await table.gm.slash(table.channel, "campaign create", name="Crossroads", scenario="crossroads",
                             file=("crossroads.yaml", scenario.encode()))
    assert "Campaign Crossroads begins" in shown(r)
    await table.fr.slash(table.channel, "campaign join", side="fr")
    await table.au.slash(table.channel, "campaign join", side="au")
    await advance(table)  # weather
    odds = await table.fr.slash(table.channel, "order give", force="oudinot", order="forced_march")
    await table.fr.click(odds.response, label="Roll")
    await table.fr.slash(table.channel, "order done")
    await table.au.slash(table.channel, "order done")
    odds = await table.fr.slash(table.channel, "order move", force="oudinot", path="E4")
    await table.fr.click(odds.response, label="Roll")
    await table.fr.slash(table.channel, "order done")
    await table.au.slash(table.channel, "order done")
    (thread,) = table.channel.threads

    preview = await table.gm.slash(table.channel, "battle report", battle="1",
                                   file=("report.json", json.dumps(report()).encode()))
    assert "France lost, Austria won" in shown(preview) and "Soult fell (melee vs infantry or cavalry)" in shown(preview)
    await table.gm.click(preview.response, label="Confirm the report")
    # The last report ends Phase 3 by itself: Phase 4 begins.

    fate = await table.fr.slash(thread, "leader fate", leader="Soult", circumstance="melee")
    assert "Soult: Slain (CC-1)." in shown(fate)
    assert "New Leader (infantry) of IV Corps takes command of IV Corps, with Soult's Command Value (CC-2, RU-18)." \
        in shown(fate)
    roster = await table.fr.slash(table.channel, "leader roster")
    assert "New Leader (infantry) of IV Corps (IV Corps, CV 5): fit" in shown(roster)
    assert "A New Leader (infantry) commands" in shown(roster)
    brief = await table.fr.slash(thread, "battle brief", battle="1")
    assert "Leader New Leader (infantry) of IV Corps (CV 5), fit" in shown(brief)

    await advance(table, label="Resolve anyway")  # Phase 4 ends: the bot rolls France's and Austria's aftermath
    channel = texts(table.channel.history())
    assert "IV Corps is now Confused (MC-7.4)." in texts(thread.history())  # the battle's camps read it there
    assert "France tests its Will to Fight" in channel  # Phase 5 (MC-9), in the gazette
    log = shown(await table.gm.slash(table.channel, "campaign log", turn=1))
    assert "Phase 4 resolved." in log and "IV Corps is now Confused (MC-7.4)." in log
    assert "Turn 1 gazette" in channel
    assert domain_errors_only(table.env) == 0
