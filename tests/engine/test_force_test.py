"""MC-4 Phase 1: the Force test (bot/engine/force_test.py), with RU-3 for reactions.

The leader's Command Value is 0 unless a test says otherwise, so the total is the scripted face
plus the modifiers listed.
"""

from __future__ import annotations

from fractions import Fraction

import pytest

from bot.engine.dice import ScriptedDice
from bot.engine.errors import RuleViolation
from bot.engine.force_test import force_test, force_test_check
from bot.engine.model import Cell, Order, Reaction, Terrain

KEY = "t1/p1/force:f1/force_test"


@pytest.mark.parametrize(
    ("cv", "face", "total", "result"),
    [
        (-3, 1, -2, "disaster"),
        (0, 1, 1, "disaster"),
        (0, 2, 2, "unsteady"),
        (0, 3, 3, "confused"),
        (0, 4, 4, "defend"),
        (0, 5, 5, "defend"),
        (0, 6, 6, "ok"),
        (4, 6, 10, "ok"),
    ],
)
def test_mc_4_force_test_totals_fall_in_the_bands_of_the_table(make_force, cv, face, total, result):
    roll = force_test_check(make_force(cv=cv), Cell()).roll(ScriptedDice([face]), KEY)
    assert (roll.total, roll.result) == (total, result)


def test_mc_4_the_leaders_command_value_is_added_as_a_labelled_modifier(make_force):
    check = force_test_check(make_force(cv=3, leader="Ney"), Cell())
    assert [(m.value, m.rule, m.reason) for m in check.modifiers] == [(3, "MC-4", "Ney's Command Value")]


@pytest.mark.parametrize(
    ("reaction", "cell", "value", "reason"),
    [
        (Reaction.ROUTED, Cell(), -3, "Force is Routed"),
        (Reaction.UNSTEADY, Cell(), -2, "Force is Unsteady"),
        (Reaction.CONFUSED, Cell(), -1, "Force is Confused"),
        (None, Cell(Terrain.MOUNTAIN), -3, "in a mountain square"),
        (None, Cell(territory="austria"), -1, "in enemy territory"),
        (None, Cell(territory="france"), 2, "in friendly territory"),
    ],
)
def test_mc_4_each_modifier_applies_with_its_value_and_rule_id(make_force, reaction, cell, value, reason):
    check = force_test_check(make_force(reaction=reaction), cell)
    extra = [m for m in check.modifiers if "Command Value" not in m.reason]
    assert [(m.value, m.rule, m.reason) for m in extra] == [(value, "MC-4", reason)]
    assert check.roll(ScriptedDice([4]), KEY).total == 4 + value


def test_mc_4_a_forest_on_neutral_ground_adds_no_modifier(make_force):
    check = force_test_check(make_force(cv=0), Cell(Terrain.FOREST))
    assert check.modifier_total == 0


def test_mc_4_modifiers_add_up_for_a_routed_force_in_enemy_mountains(make_force):
    check = force_test_check(make_force(cv=5, reaction=Reaction.ROUTED), Cell(Terrain.MOUNTAIN, territory="austria"))
    assert check.modifier_total == 5 - 3 - 3 - 1
    assert check.roll(ScriptedDice([6]), KEY).total == 4


def test_mc_4_allied_ground_counts_as_friendly_territory(make_force):
    check = force_test_check(make_force(), Cell(territory="bavaria"), allies=frozenset({"bavaria"}))
    assert [m.value for m in check.modifiers if "territory" in m.reason] == [2]


def test_mc_4_the_exact_odds_of_a_cv_2_force_in_friendly_territory(make_force):
    odds = force_test_check(make_force(cv=2), Cell(territory="france")).odds()
    # totals 5..10: 5 is Defend, 6 or more is OK
    assert odds == {
        "disaster": 0, "unsteady": 0, "confused": 0, "defend": Fraction(1, 6), "ok": Fraction(5, 6),
    }


# --- what the result does --------------------------------------------------------------------


def test_mc_4_ok_gives_the_new_order(make_force):
    result = force_test(make_force(), Cell(), Order.FORCED_MARCH, ScriptedDice([6]), KEY)
    assert result.force.order is Order.FORCED_MARCH
    assert not result.removed and not result.will_to_fight


@pytest.mark.parametrize("reaction", list(Reaction))
def test_ru_3_a_force_that_passes_with_6_or_more_sheds_its_reaction(make_force, reaction):
    force = make_force(reaction=reaction, cv=4)
    result = force_test(force, Cell(), Order.EXPLORE, ScriptedDice([6]), KEY)
    assert result.roll.result == "ok"
    assert result.force.reaction is None
    assert result.force.order is Order.EXPLORE


@pytest.mark.parametrize("face", [4, 5])
def test_mc_4_a_total_of_4_or_5_puts_the_force_on_the_defend_order(make_force, face):
    result = force_test(make_force(), Cell(), Order.FORCED_MARCH, ScriptedDice([face]), KEY)
    assert result.force.order is Order.DEFEND
    assert result.force.reaction is None


@pytest.mark.parametrize(
    ("held", "face", "after"),
    [
        (None, 3, Reaction.CONFUSED),
        (None, 2, Reaction.UNSTEADY),
        (Reaction.CONFUSED, 4, Reaction.CONFUSED),  # 4 - 1 = 3: Confused, as before
        (Reaction.CONFUSED, 3, Reaction.UNSTEADY),  # 3 - 1 = 2: Unsteady is worse, so it is taken
    ],
)
def test_mc_4_totals_2_and_3_give_unsteady_and_confused(make_force, held, face, after):
    force = make_force(reaction=held)
    result = force_test(force, Cell(), Order.FORCED_MARCH, ScriptedDice([face]), KEY)
    assert result.force.reaction is after
    assert result.force.order is Order.EXPLORE  # the new order is not taken


@pytest.mark.parametrize(
    ("held", "face"),
    [
        (Reaction.UNSTEADY, 4),  # 4 - 2 + cv 1 = 3: Confused would be an improvement
        (Reaction.ROUTED, 5),  # 5 - 3 + cv 1 = 3: Confused
        (Reaction.ROUTED, 4),  # 4 - 3 + cv 1 = 2: Unsteady
    ],
)
def test_ru_3_results_2_and_3_never_improve_a_worse_reaction(make_force, held, face):
    result = force_test(make_force(reaction=held, cv=1), Cell(), Order.EXPLORE, ScriptedDice([face]), KEY)
    assert result.roll.result in ("confused", "unsteady")
    assert result.force.reaction is held


def test_mc_4_a_disaster_removes_the_force_and_requires_a_will_to_fight_test(make_force):
    force = make_force(cv=1, reaction=Reaction.CONFUSED)
    result = force_test(force, Cell(territory="austria"), Order.FORCED_MARCH, ScriptedDice([2]), KEY)
    assert result.roll.total == 1
    assert result.roll.result == "disaster"
    assert result.removed
    assert result.will_to_fight
    assert result.force.reaction is Reaction.ROUTED
    assert "Will-to-Fight test this turn" in result.roll.label


def test_mc_4_a_force_that_keeps_its_order_and_shape_takes_no_test(make_force):
    dice = ScriptedDice([6])
    with pytest.raises(RuleViolation) as info:
        force_test(make_force(name="II Corps"), Cell(), Order.EXPLORE, dice, KEY)
    assert str(info.value) == (
        "II Corps already holds the Explore order and has no reaction to shed: no Force test is needed (MC-4)."
    )
    assert dice.keys == []  # nothing was rolled


def test_mc_4_a_force_keeping_its_order_may_test_to_shed_its_reaction(make_force):
    force = make_force(reaction=Reaction.CONFUSED, cv=1)
    result = force_test(force, Cell(), Order.EXPLORE, ScriptedDice([6]), KEY)
    assert result.force.reaction is None


def test_mc_4_a_force_keeping_its_order_takes_the_test_to_reconfigure(make_force):
    result = force_test(make_force(), Cell(), Order.EXPLORE, ScriptedDice([3]), KEY, reconfigure=True)
    assert result.roll.result == "confused"
    assert result.force.reaction is Reaction.CONFUSED


def test_mc_4_the_force_test_rolls_one_die_under_the_key_it_is_given(make_force):
    dice = ScriptedDice([5])
    force_test(make_force(), Cell(), Order.DEFEND, dice, KEY)
    assert dice.keys == [(KEY, 1, 6)]
