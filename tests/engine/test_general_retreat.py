"""MC-6.2 General Retreat, the tabletop order (bot/engine/battle.py): the extra Command-test
modifiers by the hour of the battle, and the General's test result 0.
"""

from __future__ import annotations

import pytest

from bot.engine.battle import general_retreat_modifiers, general_retreat_result
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


def test_mc_6_2_result_0_when_withdrawing_brings_confusion_and_the_retreat_stands_again():
    result = general_retreat_result(0, withdrawing=True, passed=True)
    assert result.confusion
    assert result.order_stands
    assert "MC-6.2" in result.text


def test_mc_6_2_result_0_when_ordering_a_retreat_brings_confusion_and_no_retreat():
    result = general_retreat_result(0, withdrawing=False, passed=True)
    assert result.confusion
    assert not result.order_stands
    assert "MC-6.2" in result.text


@pytest.mark.parametrize(
    ("withdrawing", "passed", "stands", "text"),
    [
        (False, True, True, "General Retreat ordered"),
        (True, True, False, "General Retreat withdrawn"),
        (False, False, False, "the order is not carried: nothing changes"),
        (True, False, True, "the order is not carried: nothing changes"),
    ],
)
def test_mc_6_2_a_passed_test_carries_the_order_and_a_failed_one_changes_nothing(withdrawing, passed, stands, text):
    result = general_retreat_result(3, withdrawing=withdrawing, passed=passed)
    assert (result.confusion, result.order_stands, result.text) == (False, stands, text)
