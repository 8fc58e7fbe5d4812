"""CC-3 trophy capture and the C&C battle die."""

from __future__ import annotations

from fractions import Fraction

import pytest
from hypothesis import given
from hypothesis import strategies as st

from bot.engine.cc_model import BattleDieFace
from bot.engine.dice import ScriptedDice, SeededDice
from bot.engine.errors import InvalidInput, RuleViolation
from bot.engine.model import Unit, UnitType
from bot.engine.rolls import BatchRoll, Roll
from bot.engine.trophies import (
    battle_die_check,
    battle_die_odds,
    roll_battle_dice,
    roll_trophy,
    trophy_check,
    trophy_eligibility,
    trophy_odds,
)

F = BattleDieFace
INF, CAV, ART = UnitType.INFANTRY, UnitType.CAVALRY, UnitType.ARTILLERY
LINE = Unit("u1", "1st Line", 4, INF)
HUSSARS = Unit("u2", "2nd Hussars", 3, CAV)
BATTERY = Unit("u3", "Horse Battery", 2, ART)
GRENZ = Unit("a1", "Grenzers", 4, INF)
UHLANS = Unit("a2", "Uhlans", 3, CAV)
JAGER = Unit("a3", "Jäger", 3, INF, flag=False)
GUNS = Unit("a4", "Foot Battery", 2, ART)


# --- the battle die -------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("face", "symbol"),
    [(1, F.INFANTRY), (2, F.INFANTRY), (3, F.CAVALRY), (4, F.ARTILLERY), (5, F.FLAG), (6, F.SABRE)],
)
def test_cc3_battle_die_faces_1_2_infantry_3_cavalry_4_artillery_5_flag_6_sabre(face, symbol):
    roll = battle_die_check().roll(ScriptedDice([face]), "k")
    assert roll.result == symbol.value


def test_cc3_battle_die_odds_infantry_twice_the_others():
    assert battle_die_odds() == {
        F.INFANTRY: Fraction(1, 3), F.CAVALRY: Fraction(1, 6), F.ARTILLERY: Fraction(1, 6),
        F.FLAG: Fraction(1, 6), F.SABRE: Fraction(1, 6),
    }


def test_cc3_battle_dice_roll_as_one_record_with_a_tally_per_symbol():
    roll = roll_battle_dice(6, ScriptedDice([1, 2, 3, 4, 5, 6]), "t1/p3/cc")
    assert dict(roll.counts) == {"infantry": 2, "cavalry": 1, "artillery": 1, "flag": 1, "sabre": 1}
    assert BatchRoll.from_dict(roll.to_dict()) == roll


def test_cc3_a_negative_number_of_battle_dice_is_refused():
    with pytest.raises(InvalidInput, match=r"Cannot roll -1 battle dice"):
        roll_battle_dice(-1, ScriptedDice([]), "k")


# --- eligibility ----------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("captor", "victim", "eligible"),
    [
        (LINE, GRENZ, True),
        (LINE, UHLANS, False),
        (HUSSARS, GRENZ, True),
        (HUSSARS, UHLANS, True),
        (HUSSARS, GUNS, False),
        (LINE, GUNS, False),
        (BATTERY, GRENZ, False),
    ],
)
def test_cc3_infantry_takes_infantry_flags_cavalry_infantry_or_cavalry_flags(captor, victim, eligible):
    assert trophy_eligibility(captor, victim, ordered=True, took_ground=True).eligible is eligible


def test_cc3_infantry_may_not_take_a_cavalry_flag_message():
    e = trophy_eligibility(LINE, UHLANS, ordered=True, took_ground=True)
    assert e.reasons == (
        "1st Line is infantry and may take only infantry flags, not the flag of Uhlans (cavalry) (CC-3).",
    )


def test_cc3_ruling_artillery_never_captures():
    e = trophy_eligibility(BATTERY, GRENZ, ordered=True, took_ground=True)
    assert e.reasons == ("Horse Battery is artillery: artillery never takes a trophy (CC-3).",)


def test_cc3_a_unit_without_a_flag_gives_none():
    e = trophy_eligibility(LINE, JAGER, ordered=True, took_ground=True)
    assert e.reasons == ("Jäger carries no flag: there is no trophy to take (CC-3).",)


def test_cc3_captor_must_be_ordered_and_take_ground_every_reason_given():
    e = trophy_eligibility(HUSSARS, GRENZ, ordered=False, took_ground=False)
    assert not e.eligible
    assert e.reasons == (
        "2nd Hussars was not ordered: only an ordered unit that takes ground may take a trophy (CC-3).",
        "2nd Hussars did not take ground: only an ordered unit that takes ground may take a trophy (CC-3).",
    )


def test_cc3_roll_is_refused_when_not_eligible():
    dice = ScriptedDice([5, 5])
    with pytest.raises(RuleViolation) as err:
        roll_trophy(LINE, JAGER, dice, "k", ordered=True, took_ground=False)
    assert str(err.value) == (
        "Jäger carries no flag: there is no trophy to take (CC-3). "
        "1st Line did not take ground: only an ordered unit that takes ground may take a trophy (CC-3)."
    )
    assert dice.remaining == 2  # nothing rolled


# --- the capture roll -----------------------------------------------------------------------


@pytest.mark.parametrize(("captor", "victim"), [(LINE, GRENZ), (HUSSARS, GRENZ), (HUSSARS, UHLANS)])
def test_cc3_flag_and_flag_takes_the_trophy(captor, victim):
    result = roll_trophy(captor, victim, ScriptedDice([5, 5]), "k", ordered=True, took_ground=True)
    assert result.taken and result.symbols == (F.FLAG, F.FLAG)
    assert result.roll.label == "Flag + Flag: the trophy is taken"


@pytest.mark.parametrize("faces", [[5, 6], [6, 5]])
def test_cc3_flag_and_sabre_is_an_infantry_trophy_taken_by_cavalry(faces):
    result = roll_trophy(HUSSARS, GRENZ, ScriptedDice(faces), "k", ordered=True, took_ground=True)
    assert result.taken
    assert result.roll.label == "Flag + Sabre: cavalry takes the infantry trophy"


@pytest.mark.parametrize(("captor", "victim"), [(LINE, GRENZ), (HUSSARS, UHLANS)])
def test_cc3_flag_and_sabre_takes_nothing_otherwise(captor, victim):
    result = roll_trophy(captor, victim, ScriptedDice([5, 6]), "k", ordered=True, took_ground=True)
    assert not result.taken
    assert result.roll.label == "Flag + Sabre: no trophy"


@pytest.mark.parametrize("faces", [[1, 5], [3, 5], [4, 5], [6, 6], [1, 2]])
def test_cc3_other_pairs_take_nothing(faces):
    result = roll_trophy(HUSSARS, GRENZ, ScriptedDice(faces), "k", ordered=True, took_ground=True)
    assert not result.taken and result.roll.result == "none"


def test_cc3_trophy_record_counts_flags_and_survives_to_dict_and_from_dict():
    result = roll_trophy(HUSSARS, GRENZ, ScriptedDice([5, 6]), "t1/p4/trophy:a1", ordered=True, took_ground=True)
    assert str(result) == (
        "Trophy capture (CC-3) for 2nd Hussars against Grenzers: 2d6 [5+6] = 1 -> "
        "Flag + Sabre: cavalry takes the infantry trophy"
    )
    assert Roll.from_dict(result.roll.to_dict()) == result.roll


def test_cc3_trophy_roll_uses_two_dice_under_its_key():
    dice = ScriptedDice([1, 1])
    roll_trophy(LINE, GRENZ, dice, "t1/p4/trophy:a1", ordered=True, took_ground=True)
    assert dice.keys == [("t1/p4/trophy:a1", 2, 6)]


def test_cc3_exact_odds():
    assert trophy_odds(INF, INF) == {"taken": Fraction(1, 36), "none": Fraction(35, 36)}
    assert trophy_odds(CAV, CAV) == {"taken": Fraction(1, 36), "none": Fraction(35, 36)}
    assert trophy_odds("cavalry", "infantry") == {"taken": Fraction(3, 36), "none": Fraction(33, 36)}


@given(st.sampled_from(list(UnitType)), st.sampled_from(list(UnitType)))
def test_cc3_odds_sum_to_one_for_any_captor_and_flag(captor, flag_of):
    odds = trophy_odds(captor, flag_of)
    assert sum(odds.values()) == 1
    assert all(0 <= p <= 1 for p in odds.values())


@given(st.integers(1, 6), st.integers(1, 6), st.sampled_from([(LINE, GRENZ), (HUSSARS, GRENZ), (HUSSARS, UHLANS)]))
def test_cc3_taken_only_on_flag_flag_or_cavalry_flag_sabre(a, b, pair):
    captor, victim = pair
    result = roll_trophy(captor, victim, ScriptedDice([a, b]), "k", ordered=True, took_ground=True)
    symbols = sorted(result.symbols)
    expected = symbols == [F.FLAG, F.FLAG] or (
        symbols == sorted([F.FLAG, F.SABRE]) and captor.type is CAV and victim.type is INF
    )
    assert result.taken is expected
    assert result.roll.result in ("taken", "none")


def test_cc3_trophy_check_refuses_faces_off_the_die():
    with pytest.raises(InvalidInput, match=r"2 battle dice, faces 1 to 6; got \[5\]"):
        trophy_check(CAV, INF).resolve("k", [5])


def test_cc3_golden_sequence_cavalry_against_infantry_seed_7():
    """Checked by hand against the die (1-2 inf, 3 cav, 4 art, 5 flag, 6 sabre): only attempt 11
    (5, 5) is Flag + Flag; none of the others holds Flag + Flag or Flag + Sabre."""
    dice = SeededDice.from_int(7)
    rolls = [trophy_check(CAV, INF).roll(dice, f"t1/p4/trophy:{i}") for i in range(1, 13)]
    assert [r.dice for r in rolls] == [
        (6, 6), (4, 2), (2, 3), (1, 2), (3, 5), (3, 5), (6, 1), (2, 1), (6, 1), (5, 3), (5, 5), (4, 3),
    ]
    assert [r.result for r in rolls] == ["none"] * 10 + ["taken", "none"]


def test_cc3_golden_flag_sabre_counts_for_cavalry_on_infantry_only_seed_7():
    """Attempt 25 rolls (6, 5): Sabre + Flag, a trophy for cavalry against infantry only."""
    key = "t1/p4/trophy:25"
    cav = trophy_check(CAV, INF).roll(SeededDice.from_int(7), key)
    inf = trophy_check(INF, INF).roll(SeededDice.from_int(7), key)
    assert cav.dice == inf.dice == (6, 5)
    assert (cav.result, inf.result) == ("taken", "none")
