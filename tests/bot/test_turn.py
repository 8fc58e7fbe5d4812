"""A GM and two players play a full turn through slash commands only."""

from __future__ import annotations

from .conftest import advance, shown, start, texts


async def test_a_full_turn_from_create_to_the_turn_gazette(table) -> None:
    await start(table)
    await advance(table)  # Phase 0: the weather
    assert "Phase 1: Orders" in texts(table.channel.history()[-1:])
    card = await table.gm.slash(table.channel, "gm advance")  # says what is still missing
    assert "is still waiting" in shown(card) and "**France**: give orders, then mark done" in shown(card)

    odds = await table.fr.slash(table.channel, "order give", force="soult", order="forced_march")
    assert odds.ephemeral and "Odds: Force test (MC-4)" in shown(odds)
    rolled = await table.fr.click(odds.response, label="Roll")
    assert "Force test (MC-4) for IV Corps" in shown(rolled) and "Soult's Command Value (MC-4)" in shown(rolled)
    assert rolled.response.ephemeral
    await table.fr.slash(table.channel, "order done")
    await table.au.slash(table.channel, "order done")  # everyone is done: auto-resolve
    assert "Phase 2: Movement" in texts(table.channel.history()[-1:])

    odds = await table.fr.slash(table.channel, "order move", force="soult", path="D4 E4")
    assert "Movement roll (MC-5.1)" in shown(odds)
    assert "moves 2 squares and reaches E4, the end of its path (die 3–6)" in shown(odds)
    moved = await table.fr.click(odds.response, label="Roll")
    assert "Movement roll (MC-5.1) for IV Corps" in shown(moved) and "Forced March order (MC-5.1)" in shown(moved)
    await table.fr.slash(table.channel, "order done")
    await table.au.slash(table.channel, "order done")

    channel = texts(table.channel.history())
    assert "Turn 1 gazette" in channel
    last = texts(table.channel.history()[-1:])  # the gazette, with turn 2's card: its weather rolled by itself
    assert "turn 2" in last and "Phase 1: Orders" in last
    assert "Weather (house rule RU-10)" in channel.split("Turn 1 gazette")[0]
    status = await table.fr.slash(table.channel, "campaign status")
    assert "turn 2" in shown(status) and status.ephemeral
