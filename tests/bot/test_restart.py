"""A restart in the middle of a phase: a new bot on the same database file carries on, and the
buttons the old one posted still work (their state is in their custom ids and the database)."""

from __future__ import annotations

from .conftest import advance, make_bot, shown, start, texts


async def test_a_new_bot_on_the_same_database_carries_on_mid_phase(table, tmp_path) -> None:
    await start(table)
    await advance(table)
    odds = await table.fr.slash(table.channel, "order give", force="soult", order="defend")
    prompt = await table.gm.slash(table.channel, "gm advance")  # a GM card shown before the restart

    await table.env.restart_bot(make_bot(tmp_path))

    rolled = await table.fr.click(odds.response, label="Roll")  # the old prompt, handled by the new bot
    assert "Force test (MC-4) for IV Corps" in shown(rolled)
    status = await table.au.slash(table.channel, "campaign status")
    assert "Phase 1: Orders" in shown(status)
    resolved = await table.gm.click(prompt.response, label="Resolve anyway")
    assert "Phase 2: Movement" in texts(table.channel.history()[-1:]), shown(resolved)


async def test_a_stale_or_double_clicked_confirmation_is_told_it_is_already_resolved(table) -> None:
    await start(table)
    first = await table.gm.slash(table.channel, "gm advance")
    second = await table.gm.slash(table.channel, "gm advance")  # same version: a double click
    await table.gm.click(first.response, label="Resolve")
    again = await table.gm.click(second.response, label="Resolve")
    assert "already resolved" in shown(again) and again.followups[0].ephemeral
    cards = [m for m in table.channel.history() if "Phase 1: Orders" in texts([m])]
    assert len(cards) == 1  # resolved and published once
