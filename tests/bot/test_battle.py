"""A battle through slash commands: contact, its thread and brief, the report (file), the aftermath
rolled by a player's button, retreat, leader fate, trophy and Glory."""

from __future__ import annotations

import json

from tests.store.test_battle_flow import REPORT, SCENARIO

from .conftest import advance, shown, texts


async def to_battle(table, scenario: str = SCENARIO) -> None:
    r = await table.gm.slash(table.channel, "campaign create", name="Bridge", scenario="bridge",
                             file=("bridge.yaml", scenario.encode()))
    assert "Campaign Bridge begins" in shown(r)
    await table.fr.slash(table.channel, "campaign join", side="fr")
    await table.au.slash(table.channel, "campaign join", side="au")
    await advance(table)
    odds = await table.fr.slash(table.channel, "order give", force="lannes", order="forced_march")
    await table.fr.click(odds.response, label="Roll")
    await table.fr.slash(table.channel, "order done")
    await table.au.slash(table.channel, "order done")
    odds = await table.fr.slash(table.channel, "order move", force="lannes", path="E4")
    assert "**100.0%** moves 1 square(s)" in shown(odds) or "moves 1 square" in shown(odds)
    await table.fr.click(odds.response, label="Roll")
    await table.fr.slash(table.channel, "order done")
    await table.au.slash(table.channel, "order done")


async def test_a_battle_is_reported_and_its_aftermath_rolled(table) -> None:
    import pytest
    import simcord

    await to_battle(table)
    assert "Battle 1 at E4" in texts(table.channel.history())
    (thread,) = table.channel.threads
    brief = texts(thread.history(viewer=table.au))
    assert "Battle 1 at E4: brief" in brief and "Suchet: 10/10 SP" in brief and "Riesch: 12/12 SP" in brief
    with pytest.raises(simcord.SetupError):  # a private thread: the outsider cannot read the brief
        thread.history(viewer=table.outsider)

    scout = await table.au.slash(thread, "battle scout", battle="1")
    assert scout.ephemeral and "Scouting for battle 1" in shown(scout)

    preview = await table.gm.slash(table.channel, "battle report", battle="1",
                                   file=("report.json", json.dumps(REPORT).encode()))
    assert preview.ephemeral and "France won, Austria lost" in shown(preview)
    await table.gm.click(preview.response, label="Confirm the report")
    assert "Battle 1: the report" in texts(thread.history())
    assert "Glory after the battle (CC-4)" in texts(thread.history()) and "**France**: 2" in texts(thread.history())
    # Every battle is reported: Phase 3 ends by itself, Phase 4 begins.

    button = thread.history()[-1]
    rolled = await table.au.click(button, label="Roll my aftermath")
    assert not rolled.ephemeral
    assert "Wounded check (MC-7.1) for Riesch" in shown(rolled) and "Deserter check (MC-7.2)" in shown(rolled)
    again = await table.au.click(button, label="Roll my aftermath")
    assert "already rolled the aftermath" in shown(again) and again.response.ephemeral

    fate = await table.au.slash(thread, "leader fate", leader="Mack", circumstance="melee")
    assert "Leader" in shown(fate) or "CC-1" in shown(fate)
    trophy = await table.fr.slash(thread, "trophy roll", battle="1", unit="hussars", target="jaegers")
    assert "(CC-3)" in shown(trophy) and "10th Hussars tries for the flag of Jaegers" in shown(trophy)
    moved = await table.au.slash(thread, "battle retreat", battle="1", square="F4")
    assert "Army of Mack retreats from battle 1 to F4" in shown(moved)
    glory = await table.fr.slash(table.channel, "glory balance")
    assert "France:" in shown(glory) and "Glory" in shown(glory)

    await advance(table, label="Resolve anyway")  # France never rolled: the bot does (same keyed dice)
    channel = texts(table.channel.history())
    assert "Turn 1 gazette" in channel
    assert "the bot rolled France's aftermath" in texts(thread.history())  # the battle's camps read it there
    assert "the bot rolled France's aftermath" not in channel  # a quiet channel (issue 22)
