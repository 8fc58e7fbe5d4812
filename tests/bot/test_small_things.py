"""Issue 13 item 10, the small things: a short deadline gets no "24 h" reminder; /roll cc is titled as
battle dice (not the trophy rule) and points at no source file."""

from __future__ import annotations

import pytest

from .conftest import advance, shown, start, texts

HOUR = 3600
pytestmark = pytest.mark.simcord(settle_timeout=20)


def dms(member) -> str:
    channel = member.user.dm_channel
    return texts(channel.history()) if channel is not None else ""


async def test_a_two_hour_deadline_sends_only_the_one_hour_reminder(table) -> None:
    await start(table)
    await advance(table)
    await table.gm.slash(table.channel, "gm deadline", hours=2.0)
    await table.env.advance_time(0.5 * HOUR)  # 1.5 h left: not 24 h before anything this deadline had
    assert "Reminder" not in dms(table.fr) and "Reminder" not in dms(table.au)
    await table.env.advance_time(0.75 * HOUR)  # 45 min left: the 1 h reminder, once
    assert dms(table.fr).count("Reminder for Ulm") == 1 and dms(table.au).count("Reminder for Ulm") == 1


async def test_a_long_deadline_still_gets_both_reminders(table) -> None:
    await start(table)
    await advance(table)
    await table.gm.slash(table.channel, "gm deadline", hours=30.0)
    await table.env.advance_time(7 * HOUR)  # 23 h left: the 24 h reminder
    assert dms(table.fr).count("Reminder for Ulm") == 1
    await table.env.advance_time(22.5 * HOUR)  # 30 min left: the 1 h reminder
    assert dms(table.fr).count("Reminder for Ulm") == 2


async def test_battle_dice_are_titled_as_battle_dice_and_name_no_source_file(table) -> None:
    r = await table.outsider.slash(table.channel, "roll cc", count=5)
    said = shown(r)
    assert not r.ephemeral and "Commands & Colors battle dice: 5" in said
    assert "CC-3" not in said and "Trophy" not in said and ".py" not in said and "Roll key" not in said
    assert "Seed " in said and "free roll" in said
    dice = await table.outsider.slash(table.channel, "roll dice", expression="2d6")
    assert ".py" not in shown(dice) and "Seed " in shown(dice)
