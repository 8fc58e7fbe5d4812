"""The odds a player sees before /order give (MC-4) and /order move (MC-5.1) say why: the modifiers
with their rule IDs and the die each outcome needs, never a 0% row, a move's rows along the declared
path only, a red "Roll anyway" when the worst outcome is at least one chance in three, and a failed
move in plain words."""

from __future__ import annotations

import discord

from .conftest import advance, shown, start


def buttons(result) -> dict[str, int]:
    """The buttons of an answer: label -> style."""
    return {c["label"]: c["style"] for row in result.response.components for c in row.get("components", [])}


async def test_a_force_test_at_home_shows_its_modifiers_and_the_die_each_result_needs(table) -> None:
    await start(table)
    await advance(table)  # Phase 1
    odds = await table.fr.slash(table.channel, "order give", force="soult", order="forced_march")
    text = shown(odds)
    assert ("1d6 +2 Soult's Command Value (MC-4) +2 in friendly territory (MC-4): "
            "needs 2 or more for OK: the Force takes the new order") in text
    assert "**83.3%** OK: the Force takes the new order (die 2–6)" in text
    assert "**16.7%** the Force now holds the Defend order (die 1)" in text
    assert "**0.0%" not in text and "disaster" not in text and "⚠️" not in text  # no row that cannot happen
    assert buttons(odds) == {"Roll": discord.ButtonStyle.success.value, "Cancel": discord.ButtonStyle.secondary.value}


async def test_a_likely_disaster_asks_the_player_to_roll_anyway(table) -> None:
    await start(table)
    await advance(table)  # Phase 1
    await table.gm.slash(table.channel, "gm edit", force="soult", square="L4")  # Austrian mountains
    odds = await table.fr.slash(table.channel, "order give", force="soult", order="forced_march")
    text = shown(odds)
    assert ("1d6 +2 Soult's Command Value (MC-4) -3 in a mountain square (MC-4) -1 in enemy territory (MC-4): "
            "no roll is enough for OK: the Force takes the new order (it would need 8 on 1d6)") in text
    assert "**16.7%** the Force now holds the Defend order (die 6)" in text
    assert "**50.0%** disaster: control is lost" in text and "(die 1–3)" in text
    assert "**0.0%" not in text and "OK: the Force takes the new order (die" not in text
    assert "⚠️ 50.0% chance of the worst outcome: disaster" in text
    assert buttons(odds) == {"Roll anyway": discord.ButtonStyle.danger.value,
                             "Cancel": discord.ButtonStyle.secondary.value}
    rolled = await table.fr.click(odds.response, label="Roll anyway")
    assert "Force test (MC-4) for IV Corps" in shown(rolled) and rolled.response.ephemeral


async def test_a_one_square_move_shows_no_row_for_more_squares(table) -> None:
    await start(table)
    await advance(table)  # Phase 1: nothing to change
    await advance(table, label="Resolve anyway")  # Phase 2
    odds = await table.fr.slash(table.channel, "order move", force="soult", path="D4")
    text = shown(odds)
    assert ("1d6 +1 starts in friendly territory (MC-5.1): needs 2 or more for D4, the end of the path") in text
    assert "**83.3%** moves 1 square and reaches D4, the end of its path (die 2–6)" in text
    assert "**16.7%** does not move: it stays at C4 (die 1)" in text
    assert "squares" not in text and "square(s)" not in text and "**0.0%" not in text
    assert buttons(odds)["Roll"] == discord.ButtonStyle.success.value


async def test_a_move_that_cannot_happen_is_said_in_plain_words(table) -> None:
    await start(table)
    await advance(table)  # Phase 1
    await table.gm.slash(table.channel, "gm edit", force="soult", square="L4", reaction="unsteady")
    await advance(table, label="Resolve anyway")  # Phase 2
    odds = await table.fr.slash(table.channel, "order move", force="soult", path="L5")
    text = shown(odds)
    assert ("1d6 -3 starts in mountains (MC-5.1) -1 starts in enemy territory (MC-5.1) "
            "-2 Force is Unsteady or Routed (MC-5.1): no roll is enough for L5") in text
    assert "**100.0%** does not move: it stays at L4 (die 1–6)" in text
    assert "⚠️ 100.0% chance of the worst outcome: does not move: it stays at L4" in text
    assert "Roll" not in buttons(odds) and buttons(odds)["Roll anyway"] == discord.ButtonStyle.danger.value
    moved = await table.fr.click(odds.response, label="Roll anyway")
    assert "IV Corps does not move: it stays at L4 (path L5)" in shown(moved)
    assert "0 square" not in shown(moved) and " -." not in shown(moved)
    listed = await table.fr.slash(table.channel, "order list")
    assert "does not move: it stays at L4" in shown(listed)
