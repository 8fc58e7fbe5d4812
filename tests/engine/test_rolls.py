"""Rolls as data (bot/engine/rolls.py): checks, their exact odds, and the records they leave.

A record must name the rule ID, the faces, each modifier with its rule ID and the result
(RULES.md: "Use the ID ... in the text the bot shows players"); per-SP checks roll one die per
strength point (RU-1).
"""

from __future__ import annotations

import json
from fractions import Fraction

import pytest

from bot.engine.aftermath import deserter_check, wounded_check
from bot.engine.battle import exploration_check
from bot.engine.dice import ScriptedDice, SeededDice
from bot.engine.errors import InvalidInput
from bot.engine.force_test import force_test_check
from bot.engine.model import Cell, Order, Quality, Territory
from bot.engine.rolls import (
    Band,
    BandTable,
    BatchRoll,
    Check,
    Modifier,
    Roll,
    binomial,
    record_from_dict,
)

TWO_BANDS = BandTable((Band(None, 3, "low", "low"), Band(4, None, "high", "high")))


def test_a_modifier_reads_as_signed_value_reason_and_rule_id():
    assert str(Modifier(2, "MC-4", "in friendly territory")) == "+2 in friendly territory (MC-4)"
    assert str(Modifier(-3, "MC-5.1", "starts in mountains")) == "-3 starts in mountains (MC-5.1)"
    assert str(Modifier(0, "RU-4", "highest Command Value")) == "+0 highest Command Value (RU-4)"


@pytest.mark.parametrize(
    ("band", "span"),
    [
        (Band(None, 1, "disaster", "d"), "1 or less"),
        (Band(6, None, "ok", "ok"), "6 or more"),
        (Band(4, 5, "defend", "d"), "4-5"),
        (Band(3, 3, "confused", "c"), "3"),
    ],
)
def test_a_band_describes_its_span_like_the_rules_tables(band, span):
    assert band.span() == span


def test_a_force_test_record_is_one_line_naming_rule_faces_modifiers_and_result(make_force):
    force = make_force(name="II Corps", cv=2, leader="Davout")
    check = force_test_check(force, Cell(territory="france"))
    roll = check.roll(ScriptedDice([4]), "t1/p1/force:f1/force_test")
    line = str(roll)
    assert "\n" not in line
    assert line == (
        "Force test (MC-4) for II Corps: 1d6 [4] +2 Davout's Command Value (MC-4) "
        "+2 in friendly territory (MC-4) = 8 -> OK: the Force takes the new order"
    )


def test_a_doubled_exploration_record_shows_the_multiplier_after_the_modifiers(make_force):
    force = make_force(name="II Corps", order=Order.DEFEND)
    roll = exploration_check(force, Cell(territory="france")).roll(ScriptedDice([3]), "k")
    assert str(roll) == (
        "Exploration test (MC-6.1) for II Corps: (1d6 [3] +2 in friendly territory (MC-6.1)) x2 = 10 -> scouting score"
    )


def test_a_record_decided_by_a_natural_face_says_so():
    roll = deserter_check(Quality.ELITE, routed=False).roll(ScriptedDice([1]), "k")
    assert roll.natural
    assert str(roll) == "Deserter check (MC-7.2): 1d6 [1] +3 elite (MC-7.2) = 4 -> natural 1: deserted"


def test_a_per_sp_record_shows_the_sp_the_faces_the_modifiers_and_the_tally():
    batch = wounded_check(Territory.ENEMY, subject="1st Line").roll_many(ScriptedDice([1, 2, 3, 4, 5, 6]), "k", 6)
    assert str(batch) == (
        "Wounded check (MC-7.1) for 1st Line: 6 SP, d6 [1 2 3 4 5 6] -1 battle in enemy territory (MC-7.1)"
        " -> dead: 4; wounded, return: 2"
    )


def test_a_long_per_sp_record_shows_thirty_faces_and_counts_the_rest():
    batch = wounded_check(Territory.NEUTRAL).roll_many(ScriptedDice([4] * 45), "k", 45)
    line = str(batch)
    assert "... (15 more)" in line
    assert line.endswith("-> dead: 0; wounded, return: 45")


def test_a_roll_survives_a_json_round_trip(make_force):
    roll = exploration_check(make_force(order=Order.DEFEND), Cell(territory="austria")).roll(ScriptedDice([5]), "k1")
    data = json.loads(json.dumps(roll.to_dict()))
    assert data["kind"] == "roll"
    assert Roll.from_dict(data) == roll
    assert record_from_dict(data) == roll


def test_a_roll_carrying_a_table_value_survives_a_json_round_trip(make_force):
    from bot.engine.movement import movement_check

    roll = movement_check(make_force(order=Order.FORCED_MARCH), Cell()).roll(ScriptedDice([6]), "k")
    assert roll.value == 2
    assert Roll.from_dict(json.loads(json.dumps(roll.to_dict()))) == roll


def test_a_natural_roll_keeps_its_natural_flag_through_json():
    roll = deserter_check(Quality.ELITE, routed=False).roll(ScriptedDice([1]), "k")
    assert Roll.from_dict(json.loads(json.dumps(roll.to_dict()))).natural


def test_a_per_sp_record_survives_a_json_round_trip():
    batch = deserter_check(Quality.VETERAN, routed=True, subject="Grenadiers").roll_many(
        ScriptedDice([1, 3, 6, 2, 2]), "t2/p4/unit:g/deserters/rout", 5
    )
    data = json.loads(json.dumps(batch.to_dict()))
    assert data["kind"] == "batch"
    assert BatchRoll.from_dict(data) == batch
    assert record_from_dict(data) == batch


@pytest.mark.parametrize("sp", [0, 1, 7, 40])
def test_ru_1_per_sp_counts_add_up_to_the_sp_rolled(sp):
    batch = wounded_check(Territory.FRIENDLY).roll_many(ScriptedDice([1, 2, 3, 4, 5, 6] * 7), "k", sp)
    assert len(batch.dice) == sp
    assert sum(n for _, n in batch.counts) == sp
    assert batch.count("dead") + batch.count("returns") == sp


class PlainFaces:
    """A dice source with only ``faces`` (no packed fast path), wrapping seeded dice."""

    def __init__(self, seed: int) -> None:
        self._dice = SeededDice.from_int(seed)

    def faces(self, key: str, count: int, sides: int = 6) -> tuple[int, ...]:
        return self._dice.faces(key, count, sides)


@pytest.mark.parametrize("sides", [6, 1000])
def test_per_sp_counts_are_the_same_from_packed_and_from_plain_faces(sides):
    bands = BandTable((Band(None, sides // 2, "low", "low"), Band(sides // 2 + 1, None, "high", "high")))
    check = Check("X-1", "split", (), bands, sides=sides)
    fast = check.roll_many(SeededDice.from_int(3), "t1/p4/unit:a/wounded", 2_000)
    plain = check.roll_many(PlainFaces(3), "t1/p4/unit:a/wounded", 2_000)
    assert fast == plain
    assert fast.count("low") == sum(1 for f in fast.dice if f <= sides // 2)


def test_a_per_sp_record_may_name_its_own_subject():
    batch = wounded_check(Territory.NEUTRAL, subject="check").roll_many(ScriptedDice([4]), "k", 1, subject="Grenadiers")
    assert batch.subject == "Grenadiers"
    assert str(batch).startswith("Wounded check (MC-7.1) for Grenadiers: 1 SP")


def test_ru_1_a_per_sp_roll_uses_one_die_per_sp_under_one_key():
    dice = ScriptedDice([6] * 9)
    wounded_check(Territory.NEUTRAL).roll_many(dice, "t1/p4/unit:a/wounded", 9)
    assert dice.keys == [("t1/p4/unit:a/wounded", 9, 6)]


def test_only_a_single_die_check_can_be_rolled_per_sp():
    check = Check("RU-10", "Random event", (), TWO_BANDS, dice=2)
    with pytest.raises(InvalidInput, match="Only single-die checks"):
        check.roll_many(ScriptedDice([1, 1]), "k", 1)


def test_a_negative_sp_count_cannot_be_rolled():
    with pytest.raises(InvalidInput, match="Cannot roll for -2 SP"):
        wounded_check(Territory.NEUTRAL).roll_many(ScriptedDice([]), "k", -2)


def test_odds_list_every_row_of_the_table_even_impossible_ones_and_sum_to_one():
    check = Check("X-1", "test", (Modifier(10, "X-1", "huge"),), TWO_BANDS)
    assert check.odds() == {"low": Fraction(0), "high": Fraction(1)}


def test_odds_count_natural_faces_before_modifiers():
    odds = deserter_check(Quality.ELITE, routed=False).odds()
    assert odds == {"deserted": Fraction(1, 6), "returns": Fraction(5, 6)}


def test_total_odds_of_two_dice_are_the_triangle():
    check = Check("RU-10", "two dice", (), TWO_BANDS, dice=2)
    odds = check.total_odds()
    assert odds[2] == odds[12] == Fraction(1, 36)
    assert odds[7] == Fraction(6, 36)
    assert sum(odds.values()) == 1


def test_results_by_face_reads_the_table_for_each_natural_face():
    assert wounded_check(Territory.ENEMY).results_by_face() == ("dead", "dead", "dead", "dead", "returns", "returns")


def test_binomial_gives_the_exact_chance_of_each_number_of_returns():
    dist = binomial(3, Fraction(1, 2))
    assert dist == [Fraction(1, 8), Fraction(3, 8), Fraction(3, 8), Fraction(1, 8)]
    assert sum(binomial(12, Fraction(5, 6))) == 1
