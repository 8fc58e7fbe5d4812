"""A quiet channel (issue 22, item 2): a turn with one battle posts at most 4 messages in the campaign's
channel outside the battle's thread, and at most 1 picture. One phase card per phase, edited in place as
sides finish (no "has finished acting" posts); the phase change and what it did are folded into the next
card; at the turn's end, the gazette alone, its dice behind a button."""

from __future__ import annotations

import json

from tests.store.test_battle_flow import REPORT

from .conftest import texts
from .test_turn_flows import bridge, cards


def posted(channel, since: int) -> list:
    """The bot's posts in the channel after its first ``since`` messages (threads are other channels, and
    Discord's own note that a thread was started is no post of the bot's)."""
    import discord

    return [m for m in list(channel.history())[since:] if m.type in (discord.MessageType.default,
                                                                      discord.MessageType.reply)]


async def play_turn_1(table) -> None:
    odds = await table.fr.slash(table.channel, "order give", force="lannes", order="forced_march")
    await table.fr.click(odds.response, label="Roll")
    await table.fr.slash(table.channel, "order done")
    await table.au.slash(table.channel, "order done")
    odds = await table.fr.slash(table.channel, "order move", force="lannes", path="E4")
    await table.fr.click(odds.response, label="Roll")
    await table.fr.slash(table.channel, "order done")
    await table.au.slash(table.channel, "order done")
    preview = await table.gm.slash(table.channel, "battle report", battle="1",
                                   file=("report.json", json.dumps(REPORT).encode()))
    await table.gm.click(preview.response, label="Confirm the report")
    (thread,) = table.channel.threads
    button = next(m for m in reversed(thread.history()) if m.components)
    await table.au.click(button, label="Roll my aftermath")
    await table.fr.click(button, label="Roll my aftermath")
    await table.au.slash(thread, "leader fate", leader="Mack", circumstance="melee")
    await table.fr.slash(thread, "trophy roll", battle="1", unit="hussars", target="jaegers")
    await table.au.slash(thread, "battle retreat", battle="1", square="F4")


async def test_a_turn_with_one_battle_posts_at_most_4_messages_and_1_picture_in_the_channel(table) -> None:
    await bridge(table)
    start = len(list(table.channel.history()))  # up to turn 1's Phase 1 card
    await play_turn_1(table)
    turn = posted(table.channel, start)
    summary = [(m.content or "")[:60] + " | " + " / ".join((e.title or "")[:40] for e in m.embeds) for m in turn]
    assert len(turn) <= 4, summary
    pictures = [a for m in turn for a in m.attachments]
    assert len(pictures) <= 1, summary
    assert "Turn 1 gazette" in texts(turn)
    assert "turn 2" in texts([cards(table.channel)[-1]]) and "Phase 1" in texts([cards(table.channel)[-1]])
    assert not any("has finished acting" in (m.content or "") for m in table.channel.history())
