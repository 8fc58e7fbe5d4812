"""MC-6.2 General Retreat, the tabletop order (bot/engine/battle.py): the extra Command-test
modifiers by the hour of the battle, and what the battle brief tells the table of the General's test.
"""

from __future__ import annotations

import pytest

from bot.engine.battle import general_retreat_brief, general_retreat_modifiers
from bot.engine.errors import InvalidInput


@pytest.mark.parametrize(
    ("hour", "value", "reason"),
    [(1, -3, "first hour of the battle"), (2, -2, "second hour of the battle"), (3, -1, "third hour of the battle")],
)
def test_mc_6_2_giving_or_withdrawing_a_general_retreat_costs_3_2_1_in_the_first_three_hours(hour, value, reason):
    (mod,) = general_retreat_modifiers(hour)
    assert (mod.value, mod.rule, mod.reason) == (value, "MC-6.2", reason)


@pytest.mark.parametrize("hour", [4, 5, 12])
def test_mc_6_2_from_the_fourth_hour_there_is_no_extra_modifier(hour):
    assert general_retreat_modifiers(hour) == ()


@pytest.mark.parametrize("hour", [0, -1, True, 1.5])
def test_mc_6_2_the_hour_of_the_battle_is_a_whole_number_from_1(hour):
    with pytest.raises(InvalidInput, match="The battle's hour must be 1 or more"):
        general_retreat_modifiers(hour)


def test_mc_6_2_the_brief_tells_the_table_the_hours_modifiers_and_that_a_result_of_0_is_confusion():
    """The Command test is rolled at the table; the battle brief says what MC-6.2 asks of it."""
    text = general_retreat_brief()
    assert "-3 first hour of the battle" in text and "-1 third hour of the battle" in text
    assert "a result of 0 is confusion, and a withdrawn order stands again" in text
