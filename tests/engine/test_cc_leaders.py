"""CC-1 leader casualty fate and CC-2 leader replacement and leadership quality."""

from __future__ import annotations

from fractions import Fraction

import pytest
from hypothesis import given
from hypothesis import strategies as st

from bot.engine.cc_model import Circumstance, Commander, Presence
from bot.engine.dice import ScriptedDice, SeededDice
from bot.engine.errors import InvalidInput
from bot.engine.leaders import (
    Replacement,
    apply_fate,
    designation_for,
    fate_checks,
    fate_odds,
    next_battle_command,
    recovered_status,
    replacement,
    replacement_for,
    roll_leader_fate,
    status_after_turns,
)
from bot.engine.model import Leader, LeaderStatus, Unit, UnitType
from bot.engine.rolls import Roll

S = LeaderStatus
NEY = Leader("Ney", 2)


# --- CC-1: every row of both tables ----------------------------------------------------------


@pytest.mark.parametrize("circumstance", list(Circumstance))
@pytest.mark.parametrize(("face", "status"), [(1, S.SLAIN), (2, S.MORTAL_WOUND)])
def test_cc1_first_roll_of_1_is_slain_and_2_mortal_wound_without_a_second_roll(circumstance, face, status):
    dice = ScriptedDice([face])
    fate = roll_leader_fate(NEY, circumstance, dice, "t1/p4/leader:ney/fate")
    assert fate.status is status
    assert fate.second is None
    assert dice.keys == [("t1/p4/leader:ney/fate/first", 1, 6)]


@pytest.mark.parametrize("first", [3, 4, 5, 6])
@pytest.mark.parametrize(
    ("second", "status"),
    [(1, S.CAPTURED), (2, S.CAPTURED), (3, S.CRIPPLED), (4, S.SERIOUS_WOUND), (5, S.MODERATE_WOUND), (6, S.LIGHT_WOUND)],
)
def test_cc1_melee_vs_infantry_or_cavalry_3_to_6_rolls_again_on_the_melee_column(first, second, status):
    dice = ScriptedDice([first, second])
    fate = roll_leader_fate(NEY, Circumstance.MELEE, dice, "k")
    assert fate.status is status
    assert fate.first.result == "roll_again"
    assert fate.second is not None and fate.second.dice == (second,)
    assert dice.keys == [("k/first", 1, 6), ("k/second", 1, 6)]


@pytest.mark.parametrize("first", [3, 4, 5, 6])
@pytest.mark.parametrize(
    ("second", "status"),
    [(1, S.CRIPPLED), (2, S.SERIOUS_WOUND), (3, S.MODERATE_WOUND), (4, S.MODERATE_WOUND), (5, S.LIGHT_WOUND), (6, S.LIGHT_WOUND)],
)
def test_cc1_other_circumstances_3_to_6_rolls_again_on_the_other_column(first, second, status):
    fate = roll_leader_fate("Ney", "other", ScriptedDice([first, second]), "k")
    assert fate.status is status
    assert fate.circumstance is Circumstance.OTHER


def test_cc1_fate_record_names_the_rule_the_table_and_the_leader():
    fate = roll_leader_fate(NEY, Circumstance.MELEE, ScriptedDice([4, 1]), "k")
    assert str(fate) == (
        "Leader casualty fate (melee vs infantry or cavalry) (CC-1) for Ney: 1d6 [4] = 4 -> roll again / "
        "Leader casualty fate (melee vs infantry or cavalry), second roll (CC-1) for Ney: 1d6 [1] = 1 -> Captured"
    )
    assert fate.label == "Captured"
    assert [r.key for r in fate.rolls] == ["k/first", "k/second"]


def test_cc1_fate_rolls_survive_to_dict_and_from_dict():
    fate = roll_leader_fate(NEY, Circumstance.OTHER, ScriptedDice([5, 3]), "t2/p4/leader:ney/fate")
    for roll in fate.rolls:
        assert Roll.from_dict(roll.to_dict()) == roll


def test_cc1_unknown_circumstance_is_refused_with_the_choices():
    with pytest.raises(InvalidInput) as err:
        roll_leader_fate(NEY, "cannonball", ScriptedDice([1]), "k")
    assert str(err.value) == "Unknown circumstance (how the leader fell) 'cannonball': use one of melee, other."


def test_cc1_leader_casualty_needs_a_name():
    with pytest.raises(InvalidInput, match="needs the leader's name"):
        roll_leader_fate(" ", Circumstance.MELEE, ScriptedDice([1]), "k")


# --- CC-1 exact odds -------------------------------------------------------------------------


def test_cc1_exact_odds_melee_enumerate_both_dice():
    sixth, again = Fraction(1, 6), Fraction(4, 6)
    assert fate_odds(Circumstance.MELEE) == {
        S.SLAIN: sixth,
        S.MORTAL_WOUND: sixth,
        S.CAPTURED: again * Fraction(2, 6),
        S.CRIPPLED: again * sixth,
        S.SERIOUS_WOUND: again * sixth,
        S.MODERATE_WOUND: again * sixth,
        S.LIGHT_WOUND: again * sixth,
    }


def test_cc1_exact_odds_other_circumstances_enumerate_both_dice():
    sixth, again = Fraction(1, 6), Fraction(4, 6)
    odds = fate_odds("other")
    assert odds == {
        S.SLAIN: sixth,
        S.MORTAL_WOUND: sixth,
        S.CRIPPLED: again * sixth,
        S.SERIOUS_WOUND: again * sixth,
        S.MODERATE_WOUND: again * Fraction(2, 6),
        S.LIGHT_WOUND: again * Fraction(2, 6),
    }
    assert S.CAPTURED not in odds


@pytest.mark.parametrize("circumstance", list(Circumstance))
def test_cc1_odds_sum_to_one(circumstance):
    assert sum(fate_odds(circumstance).values()) == 1


@given(st.sampled_from(list(Circumstance)), st.integers(1, 6), st.integers(1, 6))
def test_cc1_any_two_faces_give_a_status_of_that_table(circumstance, first, second):
    fate = roll_leader_fate(NEY, circumstance, ScriptedDice([first, second]), "k")
    assert fate.status in fate_odds(circumstance)
    assert fate_odds(circumstance)[fate.status] > 0
    assert fate.status is not S.FIT
    assert (fate.second is None) == (first <= 2)


@given(st.sampled_from(list(Circumstance)))
def test_cc1_check_odds_of_each_roll_sum_to_one(circumstance):
    first, second = fate_checks(circumstance)
    assert sum(first.odds().values()) == 1
    assert sum(second.odds().values()) == 1


# --- CC-1 seeded golden sequences ------------------------------------------------------------


def test_cc1_golden_sequence_melee_seed_7():
    """Checked by hand against the melee table: (6, then 1) Captured; 1 Slain; 1 Slain;
    (4, then 5) Moderate; 2 Mortal; (6, then 2) Captured; 2 Mortal; (3, then 4) Serious."""
    dice = SeededDice.from_int(7)
    fates = [roll_leader_fate(NEY, Circumstance.MELEE, dice, f"t1/p4/leader:{i}/fate") for i in range(1, 9)]
    assert [tuple(r.dice[0] for r in f.rolls) for f in fates] == [
        (6, 1), (1,), (1,), (4, 5), (2,), (6, 2), (2,), (3, 4),
    ]
    assert [f.status for f in fates] == [
        S.CAPTURED, S.SLAIN, S.SLAIN, S.MODERATE_WOUND, S.MORTAL_WOUND, S.CAPTURED, S.MORTAL_WOUND, S.SERIOUS_WOUND,
    ]


def test_cc1_golden_sequence_other_circumstances_seed_7():
    """Same keys, same dice (keys name what is rolled); read on the other table: (6, 1) Crippled;
    (4, 5) Light; (6, 2) Serious; (3, 4) Moderate."""
    dice = SeededDice.from_int(7)
    fates = [roll_leader_fate(NEY, Circumstance.OTHER, dice, f"t1/p4/leader:{i}/fate") for i in range(1, 9)]
    assert [f.status for f in fates] == [
        S.CRIPPLED, S.SLAIN, S.SLAIN, S.LIGHT_WOUND, S.MORTAL_WOUND, S.SERIOUS_WOUND, S.MORTAL_WOUND, S.MODERATE_WOUND,
    ]


def test_cc1_apply_fate_sets_the_leader_status():
    fate = roll_leader_fate(NEY, Circumstance.MELEE, ScriptedDice([2]), "k")
    assert apply_fate(NEY, fate) == Leader("Ney", 2, S.MORTAL_WOUND)
    with pytest.raises(InvalidInput, match="rolled for 'Ney', not for 'Murat'"):
        apply_fate(Leader("Murat", 3), fate)


# --- CC-2 replacement --------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("status", "commander"),
    [
        (S.FIT, Commander.LEADER),
        (S.LIGHT_WOUND, Commander.LEADER),
        (S.SERIOUS_WOUND, Commander.LEADER),
        (S.MODERATE_WOUND, Commander.TEMPORARY_LEADER),
        (S.CRIPPLED, Commander.NEW_LEADER),
        (S.CAPTURED, Commander.NEW_LEADER),
        (S.MORTAL_WOUND, Commander.NEW_LEADER),
        (S.SLAIN, Commander.NEW_LEADER),
    ],
)
def test_cc2_who_takes_command(status, commander):
    assert replacement_for(status) is commander


@pytest.mark.parametrize("status", [S.FIT, S.LIGHT_WOUND])
def test_cc2_fit_and_light_wound_command_normally_at_the_next_battle(status):
    cmd = next_battle_command(status)
    assert cmd.presence is Presence.COMMANDS and cmd.leader_takes_field
    assert (cmd.command_range, cmd.contiguous_orders, cmd.movement, cmd.attaches_to) == (3, 3, None, None)
    assert not cmd.leaves_for_good and not cmd.returns_after_next_battle


def test_cc2_serious_wound_commands_from_a_carriage_with_movement_1_range_2_and_2_contiguous():
    cmd = next_battle_command(S.SERIOUS_WOUND)
    assert cmd.presence is Presence.CARRIAGE and cmd.commander is Commander.LEADER
    assert (cmd.movement, cmd.command_range, cmd.contiguous_orders) == (1, 2, 2)
    assert cmd.lines() == (
        "Serious wound: seriously wounded; commands from an open carriage until the end of the campaign (CC-2).",
        "Movement 1 for him and the unit he is attached to; no card may raise it.",
        "Command range 2; at most 2 units in contiguous hexes.",
    )


def test_cc2_moderate_wound_misses_the_next_battle_and_a_temporary_leader_of_its_type_stands_in():
    cmd = next_battle_command(S.MODERATE_WOUND, designated="cavalry")
    assert cmd.presence is Presence.MISSES and not cmd.leader_takes_field
    assert cmd.returns_after_next_battle and not cmd.leaves_for_good
    assert cmd.commander is Commander.TEMPORARY_LEADER
    assert (cmd.command_range, cmd.contiguous_orders, cmd.movement, cmd.attaches_to) == (2, 2, None, UnitType.CAVALRY)
    assert "A Temporary Leader (cavalry) commands; he attaches only to cavalry units." in cmd.lines()


@pytest.mark.parametrize("status", [S.SLAIN, S.MORTAL_WOUND, S.CAPTURED, S.CRIPPLED])
def test_cc2_slain_mortal_captured_crippled_leave_for_good_and_a_new_leader_takes_over(status):
    cmd = next_battle_command(status, designated=UnitType.ARTILLERY)
    assert cmd.leaves_for_good and not cmd.returns_after_next_battle
    assert cmd.commander is Commander.NEW_LEADER
    assert (cmd.command_range, cmd.contiguous_orders, cmd.attaches_to) == (2, 2, UnitType.ARTILLERY)
    assert cmd.rule == "CC-2"


def test_cc2_a_replacement_must_be_designated_infantry_cavalry_or_artillery():
    with pytest.raises(InvalidInput) as err:
        next_battle_command(S.SLAIN)
    assert str(err.value) == (
        "Slain: the leader is replaced by a New Leader, who must be designated infantry, cavalry or artillery (CC-2)."
    )
    with pytest.raises(InvalidInput, match="Unknown Temporary Leader type 'dragoons'"):
        next_battle_command(S.MODERATE_WOUND, designated="dragoons")


def test_cc2_a_leader_commanding_himself_is_not_designated():
    with pytest.raises(InvalidInput) as err:
        next_battle_command(S.SERIOUS_WOUND, designated="infantry")
    assert str(err.value) == (
        "Serious wound: the leader commands himself; only a New or Temporary Leader is designated infantry, "
        "cavalry or artillery (CC-2), so drop 'infantry'."
    )


@pytest.mark.parametrize(
    ("before", "after"),
    [
        (S.LIGHT_WOUND, S.FIT),
        (S.MODERATE_WOUND, S.FIT),
        (S.SERIOUS_WOUND, S.SERIOUS_WOUND),
        (S.SLAIN, S.SLAIN),
        (S.CAPTURED, S.CAPTURED),
        (S.FIT, S.FIT),
    ],
)
def test_cc2_status_once_the_next_battle_is_behind(before, after):
    assert recovered_status(before) is after


# --- RU-18 leader fate over time -----------------------------------------------------------------


def test_ru_18_a_new_leader_in_command_commands_as_a_new_leader_of_his_designated_type():
    cmd = next_battle_command(S.FIT, designated="infantry", kind=Commander.NEW_LEADER)
    assert cmd.commander is Commander.NEW_LEADER and cmd.leader_takes_field
    assert (cmd.command_range, cmd.contiguous_orders, cmd.attaches_to) == (2, 2, UnitType.INFANTRY)
    assert "A New Leader (infantry) commands; he attaches only to infantry units." in cmd.lines()
    with pytest.raises(InvalidInput, match="must be designated"):
        next_battle_command(S.FIT, kind=Commander.NEW_LEADER)


def test_ru_18_a_new_leader_who_falls_in_turn_is_replaced_like_any_leader():
    assert next_battle_command(S.SLAIN, designated="cavalry", kind=Commander.NEW_LEADER).commander is Commander.NEW_LEADER
    moderate = next_battle_command(S.MODERATE_WOUND, designated="cavalry", kind=Commander.NEW_LEADER)
    assert moderate.commander is Commander.TEMPORARY_LEADER


UNITS = (Unit("a", "Legrand", 6), Unit("b", "Margaron", 8, UnitType.CAVALRY), Unit("c", "Guns", 8, UnitType.ARTILLERY))


def test_ru_18_a_replacement_is_designated_by_the_forces_strongest_unit_the_first_on_a_tie():
    assert designation_for(UNITS) is UnitType.CAVALRY
    assert designation_for(UNITS[2:] + UNITS[:2]) is UnitType.ARTILLERY
    assert designation_for(()) is UnitType.INFANTRY


@pytest.mark.parametrize(("status", "commander"), [(S.SLAIN, Commander.NEW_LEADER), (S.CAPTURED, Commander.NEW_LEADER),
                                                   (S.MODERATE_WOUND, Commander.TEMPORARY_LEADER)])
def test_ru_18_a_replacement_keeps_the_replaced_leaders_command_value(status, commander):
    assert replacement(status, UNITS, cv=4) == Replacement(commander, UnitType.CAVALRY, 4)
    assert replacement(status, UNITS, cv=4, designated="artillery").designated is UnitType.ARTILLERY  # the player's choice
    assert replacement(status, UNITS, cv=4).temporary is (commander is Commander.TEMPORARY_LEADER)


@pytest.mark.parametrize("status", [S.FIT, S.LIGHT_WOUND, S.SERIOUS_WOUND])
def test_ru_18_nobody_replaces_a_leader_who_keeps_command_whatever_was_designated(status):
    assert replacement(status, UNITS, cv=4, designated="artillery") is None


@pytest.mark.parametrize(
    ("status", "turns", "after"),
    [
        (S.MODERATE_WOUND, 1, S.MODERATE_WOUND),
        (S.MODERATE_WOUND, 2, S.MODERATE_WOUND),
        (S.MODERATE_WOUND, 3, S.FIT),
        (S.LIGHT_WOUND, 3, S.FIT),
        (S.SERIOUS_WOUND, 30, S.SERIOUS_WOUND),
        (S.SLAIN, 30, S.SLAIN),
    ],
)
def test_ru_18_a_moderate_wound_heals_after_3_turns_without_a_battle(status, turns, after):
    assert status_after_turns(status, wounded_turn=5, turn=5 + turns) is after
