"""Fog of war in Phase 4 replies (issue 12): a side's aftermath dice and its retreat square are told in
the battle's private thread, never in the campaign's public channel where the other sides and
outsiders read them; typed there, the reply is the caller's alone and the thread keeps the story."""

from __future__ import annotations

import json

from tests.store.test_battle_flow import REPORT

from .conftest import shown, texts
from .test_battle import to_battle


async def _to_aftermath(table):
    await to_battle(table)
    (thread,) = table.channel.threads
    preview = await table.gm.slash(table.channel, "battle report", battle="1",
                                   file=("report.json", json.dumps(REPORT).encode()))
    await table.gm.click(preview.response, label="Confirm the report")
    # The last report ends Phase 3 by itself: Phase 4 begins.
    return thread


async def test_aftermath_typed_in_the_public_channel_is_the_callers_alone_and_goes_to_the_thread(table) -> None:
    thread = await _to_aftermath(table)
    rolled = await table.au.slash(table.channel, "battle aftermath", battle="1")
    assert rolled.ephemeral
    assert "Wounded check (MC-7.1) for Riesch" in shown(rolled)
    public = texts(table.channel.history(viewer=table.outsider))
    assert "Wounded check (MC-7.1)" not in public and "Riesch" not in public
    assert "Wounded check (MC-7.1) for Riesch" in texts(thread.history(viewer=table.au))


async def test_a_retreat_typed_in_the_public_channel_does_not_tell_the_square_to_all(table) -> None:
    thread = await _to_aftermath(table)
    moved = await table.au.slash(table.channel, "battle retreat", battle="1", square="F4")
    assert moved.ephemeral and "F4" in shown(moved)
    assert "F4" not in texts(table.channel.history(viewer=table.outsider))
    assert "retreats from battle 1 to F4" in texts(thread.history(viewer=table.au))


async def test_in_the_battles_private_thread_the_camps_read_the_rolls(table) -> None:
    thread = await _to_aftermath(table)
    rolled = await table.au.slash(thread, "battle aftermath", battle="1")
    assert not rolled.ephemeral and "Wounded check (MC-7.1) for Riesch" in shown(rolled)
