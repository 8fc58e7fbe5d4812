"""The turn flows by itself (issue "The turn flows by itself"): each phase card mentions exactly the
members it waits for, a member can mute those pings, a side nobody plays is not awaited (MC-3), every
phase with nothing left to wait for resolves on its own, and no button is shown that would be refused.
The measure: in a turn with one battle, the GM's only actions are reporting it."""

from __future__ import annotations

import json

from tests.store.test_battle_flow import REPORT, SCENARIO

from .conftest import advance, domain_errors_only, shown, texts
from .test_battle import to_battle


def cards(channel, viewer=None) -> list:
    """The phase cards posted in the channel, in order (they carry the mute button)."""
    return [m for m in channel.history(viewer=viewer)
            if any(getattr(c, "label", None) == "Mute my pings" for row in m.components for c in row.children)]


def mentioned(message) -> set[int]:
    """The members a message pings (its allowed mentions are exactly those)."""
    return {u.id for u in message.mentions}


async def bridge(table, *, join_austria: bool = True) -> None:
    r = await table.gm.slash(table.channel, "campaign create", name="Bridge", scenario="bridge",
                             file=("bridge.yaml", SCENARIO.encode()))
    assert "Campaign Bridge begins" in shown(r)
    await table.fr.slash(table.channel, "campaign join", side="fr")
    if join_austria:
        await table.au.slash(table.channel, "campaign join", side="au")
    await advance(table)  # the GM starts the campaign: turn 1's weather, then its orders


async def test_in_a_turn_with_one_battle_the_gms_only_action_is_the_report(table) -> None:
    await bridge(table)  # from here on the GM does nothing but the report

    # Phase 1: each card mentions both players; both act, then say done.
    card = cards(table.channel)[-1]
    assert "Phase 1" in texts([card]) and mentioned(card) == {table.fr.id, table.au.id}
    odds = await table.fr.slash(table.channel, "order give", force="lannes", order="forced_march")
    await table.fr.click(odds.response, label="Roll")
    await table.fr.slash(table.channel, "order done")
    await table.au.slash(table.channel, "order done")  # the last one: Phase 1 resolves by itself

    card = cards(table.channel)[-1]
    assert "Phase 2" in texts([card]) and mentioned(card) == {table.fr.id, table.au.id}
    odds = await table.fr.slash(table.channel, "order move", force="lannes", path="E4")
    await table.fr.click(odds.response, label="Roll")
    await table.fr.slash(table.channel, "order done")
    await table.au.slash(table.channel, "order done")  # movement resolves: battle 1 at E4

    card = cards(table.channel)[-1]
    # Each camp scouts and reports its own result (MC-6.1, BR); the GM only where they differ (issue 22, item 4).
    assert "Phase 3" in texts([card]) and mentioned(card) == {table.fr.id, table.au.id}
    assert "scout battle 1 (MC-6.1), then report its camp's result (BR)" in texts([card])
    (thread,) = table.channel.threads

    # The GM's one action of the turn: the report (a command and its confirmation).
    preview = await table.gm.slash(table.channel, "battle report", battle="1",
                                   file=("report.json", json.dumps(REPORT).encode()))
    await table.gm.click(preview.response, label="Confirm the report")

    card = cards(table.channel)[-1]  # the last report ends Phase 3 by itself
    assert "Phase 4" in texts([card]) and mentioned(card) == {table.fr.id, table.au.id}
    button = next(m for m in reversed(thread.history()) if m.components)
    await table.au.click(button, label="Roll my aftermath")
    await table.fr.click(button, label="Roll my aftermath")
    await table.au.slash(thread, "leader fate", leader="Mack", circumstance="melee")
    await table.fr.slash(thread, "trophy roll", battle="1", unit="hussars", target="jaegers")
    await table.au.slash(thread, "battle retreat", battle="1", square="F4")  # the last: Phase 4 ends by itself

    channel = texts(table.channel.history())
    assert "Turn 1 gazette" in channel
    card = cards(table.channel)[-1]
    assert "turn 2" in texts([card]) and "Phase 1" in texts([card]) and mentioned(card) == {table.fr.id, table.au.id}
    status = await table.fr.slash(table.channel, "campaign status")
    assert "turn 2" in shown(status)
    domain_errors_only(table.env)


async def test_a_side_nobody_joined_is_not_awaited(table) -> None:
    """MC-3, ``unmanned_sides: hold`` (the default): Austria has no player; France alone ends each phase."""
    await bridge(table, join_austria=False)
    card = cards(table.channel)[-1]
    assert mentioned(card) == {table.fr.id} and "Austria" not in texts([card]).split("Waiting")[-1]
    await table.fr.slash(table.channel, "order done")  # Phase 1 ends: nobody plays Austria
    assert "Phase 2" in texts([cards(table.channel)[-1]])

    r = await table.gm.slash(table.channel, "campaign settings", name="unmanned_sides", value="wait")
    assert "The GM set Sides nobody plays to **wait**." in shown(r)
    await table.fr.slash(table.channel, "order done")  # now Austria is awaited too: no resolution
    assert "Phase 2" in texts([cards(table.channel)[-1]])
    status = await table.fr.slash(table.channel, "campaign status")
    assert "Austria" in shown(status) and "Phase 2" in shown(status)


async def test_a_member_mutes_and_unmutes_the_pings_of_a_campaign(table) -> None:
    await bridge(table)
    card = cards(table.channel)[-1]
    muted = await table.au.click(card, label="Mute my pings")
    assert muted.response.ephemeral and "no longer be mentioned" in shown(muted)
    await table.fr.slash(table.channel, "order done")
    await table.au.slash(table.channel, "order done")
    card = cards(table.channel)[-1]
    assert "Phase 2" in texts([card]) and mentioned(card) == {table.fr.id}  # Austria still awaited, not pinged
    back = await table.au.click(card, label="Mute my pings")
    assert "mentioned on this campaign's phase cards" in shown(back) and "again" in shown(back)

    outsider = await table.outsider.click(card, label="Mute my pings")  # plays no side
    assert outsider.response.ephemeral and "not on a side" in shown(outsider)


async def test_in_phase_3_the_gm_is_told_what_blocks_and_offered_no_button_that_would_be_refused(table) -> None:
    await to_battle(table)  # V Corps marches into the Army of Mack: battle 1 at E4

    card = await table.gm.slash(table.channel, "gm advance")
    assert card.response.ephemeral and not card.response.components  # no "Resolve anyway" that cannot work
    assert "Battles cannot be resolved without their reports" in shown(card) and "report its camp's result" in shown(card)


async def test_each_phase_gets_the_default_deadline_so_reminders_always_go(table) -> None:
    await bridge(table)
    status = await table.fr.slash(table.channel, "campaign status")
    assert "<t:" in shown(status)  # Phase 1 has a deadline: 48 hours by default (deadline_hours)
    r = await table.gm.slash(table.channel, "campaign settings", name="deadline_hours", value="0")
    assert "The GM set Deadline (hours) to **0**." in shown(r)
    bad = await table.gm.slash(table.channel, "campaign settings", name="deadline_hours", value="two days")
    assert bad.response.ephemeral and "whole hours from 0" in shown(bad)
    await table.fr.slash(table.channel, "order done")
    await table.au.slash(table.channel, "order done")  # Phase 2 starts with no deadline now
    status = await table.fr.slash(table.channel, "campaign status")
    assert "Phase 2" in shown(status) and "<t:" not in shown(status)
    assert domain_errors_only(table.env) == 1  # the refused "two days"


async def test_after_the_report_a_unit_shows_the_sp_out_of_the_ranks_until_its_aftermath_is_rolled(table) -> None:
    """Issue 13, small things: a unit no longer looks whole between the report and its side's aftermath."""
    await to_battle(table)  # V Corps marches into the Army of Mack: battle 1 at E4
    preview = await table.gm.slash(table.channel, "battle report", battle="1",
                                   file=("report.json", json.dumps(REPORT).encode()))
    await table.gm.click(preview.response, label="Confirm the report")
    info = await table.au.slash(table.channel, "force info", force="mack")
    assert "Riesch: 12/12 SP" in shown(info) and "5 SP out of the ranks after the battle" in shown(info)  # 3 + 2
    (thread,) = table.channel.threads
    button = next(m for m in reversed(thread.history()) if m.components)
    await table.au.click(button, label="Roll my aftermath")
    info = await table.au.slash(table.channel, "force info", force="mack")
    assert "out of the ranks" not in shown(info)
