"""MC-5.2 crossing jungle, desert and wasteland (bot/engine/attrition.py): 1D6 - 2 SP per unit,
the wounded check on the SP lost (MC-7.1) and, above 25% (RU-12), the deserter check (MC-7.2) on
the SP that remain.

Dice are consumed in this order: the loss die, one die per SP lost, one die per remaining SP.
"""

from __future__ import annotations

import pytest

from bot.engine.attrition import attrition_check, force_attrition, unit_attrition
from bot.engine.dice import ScriptedDice
from bot.engine.model import Cell, Quality, Square, Terrain, Territory

SQ = Square.parse("E5")
KEY = "t1/p2/force:f1/attrition/E5/unit:u1"


@pytest.mark.parametrize(("face", "lost"), [(1, 0), (2, 0), (3, 1), (4, 2), (5, 3), (6, 4)])
def test_mc_5_2_a_unit_loses_1d6_minus_2_sp_never_below_0(make_unit, face, lost):
    dice = ScriptedDice([face] + [6] * 4)
    result = unit_attrition(make_unit(sp=20), SQ, Territory.NEUTRAL, dice, KEY)
    assert result.lost == lost
    assert result.loss.total == lost
    assert result.loss.rule == "MC-5.2"


def test_mc_5_2_the_loss_roll_shows_the_minus_2_and_its_rule(make_unit):
    roll = attrition_check(make_unit(name="Chasseurs")).roll(ScriptedDice([1]), KEY)
    assert str(roll) == "Attrition (MC-5.2) for Chasseurs: 1d6 [1] -2 1D6 - 2 SP, never below 0 (MC-5.2) = 0 -> no loss"


def test_mc_5_2_a_unit_cannot_lose_more_sp_than_it_has(make_unit):
    dice = ScriptedDice([6, 1, 1])  # loses 4, but has only 2 SP; both wounded dice are dead
    result = unit_attrition(make_unit(sp=2), SQ, Territory.NEUTRAL, dice, KEY)
    assert result.lost == 2
    assert result.wounded is not None and len(result.wounded.dice) == 2
    assert result.deserters is None  # nobody is left to desert
    assert result.unit.sp == 0
    assert dice.remaining == 0


def test_mc_5_2_no_loss_means_no_follow_up_checks(make_unit):
    dice = ScriptedDice([2])
    result = unit_attrition(make_unit(sp=6), SQ, Territory.NEUTRAL, dice, KEY)
    assert (result.lost, result.wounded, result.deserters) == (0, None, None)
    assert result.rolls == (result.loss,)
    assert result.unit.sp == 6


def test_mc_5_2_the_sp_lost_take_the_wounded_check_and_those_wounded_return(make_unit):
    dice = ScriptedDice([5, 4, 3, 6])  # loses 3; neutral ground: 4 returns, 3 dead, 6 returns
    result = unit_attrition(make_unit(sp=20), SQ, Territory.NEUTRAL, dice, KEY)
    assert result.wounded is not None and result.wounded.rule == "MC-7.1"
    assert result.returned_wounded == 2
    assert result.unit.sp == 20 - 3 + 2


def test_mc_5_2_the_wounded_check_takes_the_territory_modifier_of_the_square(make_unit):
    dice = ScriptedDice([3, 4])  # loses 1; 4 - 1 in enemy territory = 3: dead
    result = unit_attrition(make_unit(sp=20), SQ, Territory.ENEMY, dice, KEY)
    assert [m.value for m in result.wounded.modifiers] == [-1]
    assert result.returned_wounded == 0
    assert result.unit.sp == 19


def test_mc_5_2_ru_12_losing_exactly_25_percent_brings_no_deserter_check(make_unit):
    dice = ScriptedDice([4, 1, 1])  # loses 2 of 8 SP: exactly 25%
    result = unit_attrition(make_unit(sp=8), SQ, Territory.NEUTRAL, dice, KEY)
    assert result.lost == 2
    assert result.deserters is None
    assert result.unit.sp == 6
    assert dice.remaining == 0


def test_mc_5_2_ru_12_losing_just_over_25_percent_sends_the_remaining_sp_to_the_deserter_check(make_unit):
    # loses 2 of 7 SP (28.6%); the 5 remaining SP take the deserter check
    dice = ScriptedDice([4, 1, 1, *(1, 2, 3, 4, 6)])
    unit = make_unit(sp=7, quality=Quality.AVERAGE)
    result = unit_attrition(unit, SQ, Territory.NEUTRAL, dice, KEY)
    assert result.deserters is not None
    assert result.deserters.rule == "MC-7.2"
    assert len(result.deserters.dice) == 5
    # average +1, not routed: 1 natural deserted, 2 -> 3 deserted, 3 -> 4 returns, 4 -> 5, 6 -> 7
    assert [m.value for m in result.deserters.modifiers] == [1]
    assert result.deserted == 2
    assert result.unit.sp == 7 - 2 + 0 - 2


def test_ru_12_the_threshold_compares_sp_lost_before_the_wounded_check(make_unit):
    # loses 2 of 7 SP and both come back wounded: the loss was still over 25%
    dice = ScriptedDice([4, 6, 6] + [6] * 5)
    result = unit_attrition(make_unit(sp=7), SQ, Territory.NEUTRAL, dice, KEY)
    assert result.returned_wounded == 2
    assert result.deserters is not None
    assert result.unit.sp == 7


def test_mc_5_2_attrition_keys_its_rolls_by_unit_and_follow_up(make_unit):
    dice = ScriptedDice([6] * 8)  # loses 4 of 7 SP; the 4 wounded return, the other 3 are checked
    unit_attrition(make_unit(sp=7), SQ, Territory.NEUTRAL, dice, KEY)
    assert dice.keys == [(f"{KEY}/loss", 1, 6), (f"{KEY}/wounded", 4, 6), (f"{KEY}/deserters", 3, 6)]


# --- a whole Force along its path -----------------------------------------------------------


def test_mc_5_2_every_unit_rolls_on_each_jungle_desert_or_wasteland_square_entered(make_force, make_unit, make_map):
    cmap = make_map(10, 10, {"D3": Cell(Terrain.DESERT), "E3": Cell(Terrain.OPEN), "F3": Cell(Terrain.JUNGLE)})
    force = make_force(square="C3", units=(make_unit("a", sp=10), make_unit("b", sp=10)))
    dice = ScriptedDice([1, 2, 2, 1])  # no loss anywhere
    travelled = [Square.parse(s) for s in ("D3", "E3", "F3")]
    result = force_attrition(force, cmap, travelled, dice, "t1/p2/force:f1/attrition")
    assert [(str(s.square), s.unit.id) for s in result.steps] == [("D3", "a"), ("D3", "b"), ("F3", "a"), ("F3", "b")]
    assert [k for k, _, _ in dice.keys] == [
        "t1/p2/force:f1/attrition/D3/unit:a/loss",
        "t1/p2/force:f1/attrition/D3/unit:b/loss",
        "t1/p2/force:f1/attrition/F3/unit:a/loss",
        "t1/p2/force:f1/attrition/F3/unit:b/loss",
    ]


@pytest.mark.parametrize("terrain", [Terrain.JUNGLE, Terrain.DESERT, Terrain.WASTELAND])
def test_mc_5_2_each_attrition_terrain_costs_sp(make_force, make_unit, make_map, terrain):
    cmap = make_map(10, 10, {"D3": Cell(terrain)})
    force = make_force(square="C3", units=(make_unit("a", sp=10),))
    result = force_attrition(force, cmap, [Square.parse("D3")], ScriptedDice([3, 1]), "k")
    assert result.force.sp == 9


@pytest.mark.parametrize("terrain", [t for t in Terrain if t not in (Terrain.JUNGLE, Terrain.DESERT, Terrain.WASTELAND)])
def test_mc_5_2_other_terrain_costs_nothing(make_force, make_map, terrain):
    cmap = make_map(10, 10, {"D3": Cell(terrain)})
    force = make_force(square="C3")
    dice = ScriptedDice([])
    result = force_attrition(force, cmap, [Square.parse("D3")], dice, "k")
    assert result.steps == ()
    assert result.force == force


def test_mc_5_2_a_unit_reduced_to_nothing_rolls_no_more(make_force, make_unit, make_map):
    cmap = make_map(10, 10, {"D3": Cell(Terrain.DESERT), "E3": Cell(Terrain.DESERT)})
    force = make_force(square="C3", units=(make_unit("a", sp=1),))
    dice = ScriptedDice([6, 1])  # loses its only SP on D3, dead
    result = force_attrition(force, cmap, [Square.parse("D3"), Square.parse("E3")], dice, "k")
    assert result.force.units[0].sp == 0
    assert len(result.steps) == 1
    assert dice.remaining == 0


def test_mc_5_2_losses_carry_from_one_square_to_the_next(make_force, make_unit, make_map):
    cmap = make_map(10, 10, {"D3": Cell(Terrain.JUNGLE), "E3": Cell(Terrain.JUNGLE)})
    force = make_force(square="C3", units=(make_unit("a", sp=20),))
    dice = ScriptedDice([4, 1, 1, 4, 1, 1])  # 2 dead on each square (10%, no deserters)
    result = force_attrition(force, cmap, [Square.parse("D3"), Square.parse("E3")], dice, "k")
    assert [s.unit.sp for s in result.steps] == [18, 16]
    assert result.force.sp == 16


def test_mc_5_2_the_wounded_check_uses_the_territory_of_the_crossed_square(make_force, make_unit, make_map):
    cmap = make_map(10, 10, {"D3": Cell(Terrain.DESERT, territory="france")})
    force = make_force(square="C3", side="france", units=(make_unit("a", sp=20),))
    result = force_attrition(force, cmap, [Square.parse("D3")], ScriptedDice([3, 3]), "k")
    assert [m.value for m in result.steps[0].wounded.modifiers] == [1]
    assert result.force.sp == 20  # 3 + 1 = 4: wounded, returns
