"""FC: overwhelm check (FC-1), supply phase (FC-2), scouts as re-rolls (FC-3)."""

from __future__ import annotations

import contextlib

import pytest
from hypothesis import given
from hypothesis import strategies as st

from bot.engine.dice import ScriptedDice, SeededDice
from bot.engine.errors import InvalidInput, RuleViolation
from bot.engine.field_commander import (
    Purchase,
    PurchaseKind,
    SupplyPhase,
    UnitOffer,
    overwhelm_check,
    reroll_key,
    reroll_with_scout,
    supply_phase,
)
from bot.engine.model import Force, Leader, Square, Unit
from bot.engine.rolls import Band, BandTable, Check, Modifier, Roll

SQ = Square(0, 0)


def force(fid: str, side: str, *sps: int) -> Force:
    units = tuple(Unit(f"{fid}-{i}", f"{fid} unit {i}", sp) for i, sp in enumerate(sps))
    return Force(fid, fid, side, SQ, Leader(f"{fid} leader", 1), units)


# --- FC-1 overwhelm -------------------------------------------------------------------------


def test_fc1_three_times_the_sp_destroys_the_weaker_forces_without_battle():
    result = overwhelm_check([force("F1", "france", 5, 4), force("A1", "austria", 2), force("A2", "austria", 1)])
    assert result.overwhelmed
    assert (result.stronger, result.weaker, result.destroyed) == ("france", "austria", ("A1", "A2"))
    assert result.totals == (("france", 9), ("austria", 3))
    assert result.text == (
        "france has 9 SP against austria's 3, at least 3x: austria's Forces are destroyed without a battle (FC-1)."
    )


def test_fc1_less_than_three_times_is_fought():
    result = overwhelm_check([force("F1", "france", 8), force("A1", "austria", 3)])
    assert not result.overwhelmed and result.destroyed == ()
    assert result.text == "france has 8 SP against austria's 3, less than 3x: the battle is fought."


def test_fc1_equal_sides_are_not_overwhelmed():
    result = overwhelm_check([force("F1", "france", 4), force("A1", "austria", 4)])
    assert not result.overwhelmed and result.stronger is None


def test_fc1_needs_two_sides_with_some_sp():
    with pytest.raises(InvalidInput) as err:
        overwhelm_check([force("F1", "france", 4)])
    assert str(err.value) == "The overwhelm check (FC-1) compares at least two camps (RU-20); the Forces given belong to: france."
    with pytest.raises(InvalidInput, match="Neither side has any SP left"):
        overwhelm_check([force("F1", "france", 0), force("A1", "austria", 0)])


@given(st.integers(0, 60), st.integers(0, 60))
def test_fc1_overwhelmed_exactly_when_at_least_three_times(a, b):
    if a == b == 0:
        return
    result = overwhelm_check([force("F1", "france", a), force("A1", "austria", b)])
    strong, weak = max(a, b), min(a, b)
    assert result.overwhelmed is (a != b and strong >= 3 * weak)


# --- FC-2 supply ----------------------------------------------------------------------------


OFFERS = (UnitOffer("recruits", 3, 2), UnitOffer("guard", 6))


def test_fc2_supply_phase_adds_up_its_purchases():
    phase = supply_phase(
        "france", 10,
        [
            Purchase(PurchaseKind.REFIT, unit_id="u1"),
            Purchase(PurchaseKind.SCOUT, force_id="F1"),
            Purchase(PurchaseKind.FORCED_MARCH, force_id="F1", count=2),
            Purchase(PurchaseKind.UNIT, unit_id="recruits", reduced=True),
        ],
        reduced_units={"u1"},
        offers=OFFERS,
    )
    assert [line.cost for line in phase.lines] == [2, 2, 2, 2]
    assert (phase.spent, phase.left) == (8, 2)
    assert [line.text for line in phase.lines] == [
        "refit u1",
        "buy 1 scout for F1",
        "force-march 2 units of F1",
        "buy recruits reduced, at its combat value 2",
    ]


def test_fc2_a_new_or_destroyed_unit_costs_its_combat_value():
    assert supply_phase("france", 6, [Purchase(PurchaseKind.UNIT, unit_id="guard")], offers=OFFERS).left == 0


def test_fc2_cannot_overspend():
    with pytest.raises(RuleViolation) as err:
        supply_phase("france", 5, [Purchase(PurchaseKind.UNIT, unit_id="guard")], offers=OFFERS)
    assert str(err.value) == "Cannot buy guard at its combat value 6: it costs 6 supply points and france has 5 left of 5 (FC-2)."
    phase = supply_phase("france", 3, [Purchase(PurchaseKind.SCOUT)])
    with pytest.raises(RuleViolation, match="Cannot buy 1 scout: it costs 2 supply points and france has 1 left of 3"):
        phase.buy(Purchase(PurchaseKind.SCOUT))


def test_fc2_a_unit_bought_reduced_cannot_be_refitted_in_the_same_phase():
    phase = supply_phase("france", 10, [Purchase(PurchaseKind.UNIT, unit_id="recruits", reduced=True)], offers=OFFERS)
    with pytest.raises(RuleViolation) as err:
        phase.buy(Purchase(PurchaseKind.REFIT, unit_id="recruits"))
    assert str(err.value) == "recruits was bought reduced in this supply phase: it cannot be refitted until the next (FC-2)."


def test_fc2_only_a_reduced_unit_is_refitted_and_only_once():
    phase = SupplyPhase("france", 10, frozenset({"u1"}))
    with pytest.raises(RuleViolation, match="'u2' is not a reduced unit of france: only a reduced unit is refitted"):
        phase.buy(Purchase(PurchaseKind.REFIT, unit_id="u2"))
    once = phase.buy(Purchase(PurchaseKind.REFIT, unit_id="u1"))
    with pytest.raises(RuleViolation, match="u1 is already refitted in this supply phase"):
        once.buy(Purchase(PurchaseKind.REFIT, unit_id="u1"))
    assert phase.lines == ()  # a phase never changes: buy returns a new one


def test_fc2_units_must_be_on_offer_and_bought_once():
    phase = SupplyPhase("france", 20, offers=OFFERS)
    with pytest.raises(RuleViolation) as err:
        phase.buy(Purchase(PurchaseKind.UNIT, unit_id="cossacks"))
    assert str(err.value) == "'cossacks' is not a new or destroyed unit on offer (FC-2); on offer: recruits, guard."
    with pytest.raises(RuleViolation, match="guard cannot be bought on its reduced side"):
        phase.buy(Purchase(PurchaseKind.UNIT, unit_id="guard", reduced=True))
    bought = phase.buy(Purchase(PurchaseKind.UNIT, unit_id="guard"))
    with pytest.raises(RuleViolation, match="guard is already bought in this supply phase"):
        bought.buy(Purchase(PurchaseKind.UNIT, unit_id="guard"))


def test_fc2_forced_march_costs_1_per_unit_and_counts_must_be_positive():
    assert supply_phase("france", 5, [Purchase(PurchaseKind.FORCED_MARCH, count=5)]).left == 0
    with pytest.raises(InvalidInput, match="A purchase counts 1 or more, got 0"):
        supply_phase("france", 5, [Purchase(PurchaseKind.SCOUT, count=0)])
    with pytest.raises(InvalidInput, match="france has -1 supply points"):
        SupplyPhase("france", -1)


@given(st.integers(0, 12), st.lists(st.sampled_from([PurchaseKind.SCOUT, PurchaseKind.FORCED_MARCH]), max_size=8))
def test_fc2_never_spends_more_than_it_holds(points, kinds):
    phase = SupplyPhase("france", points)
    for kind in kinds:
        with contextlib.suppress(RuleViolation):
            phase = phase.buy(Purchase(kind))
        assert 0 <= phase.left <= points


# --- FC-3 scouts ----------------------------------------------------------------------------


TABLE = BandTable((Band(None, 2, "stay", "cannot move"), Band(3, 5, "one", "1 square"), Band(6, None, "two", "2 squares")))
SUPPLY = Modifier(2, "FC-2", "supply spent on the roll")
FOREST = Modifier(-1, "MC-5.1", "starts in forest")
CHECK = Check("MC-5.1", "Movement roll", (FOREST, SUPPLY), TABLE, subject="I Corps")


@pytest.mark.parametrize(
    ("key", "next_key"),
    [("t1/p2/force:7/movement", "t1/p2/force:7/movement/reroll1"),
     ("t1/p2/force:7/movement/reroll1", "t1/p2/force:7/movement/reroll2"),
     ("t1/p2/force:7/movement/reroll9", "t1/p2/force:7/movement/reroll10")],
)
def test_fc3_reroll_key_is_the_original_key_plus_reroll_n(key, next_key):
    assert reroll_key(key) == next_key


def test_fc3_reroll_consumes_one_scout_and_takes_no_modifier_bought_with_supply():
    original = CHECK.roll(ScriptedDice([1]), "t1/p2/force:7/movement")
    assert original.total == 2
    dice = ScriptedDice([4])
    again = reroll_with_scout(CHECK, original, dice, scouts=2)
    assert dice.keys == [("t1/p2/force:7/movement/reroll1", 1, 6)]
    assert again.scouts_left == 1
    assert again.dropped == (SUPPLY,)
    assert again.reroll.modifiers == (FOREST,)
    assert (again.reroll.total, again.reroll.result) == (3, "one")
    assert again.rule == "FC-3"
    assert Roll.from_dict(again.reroll.to_dict()) == again.reroll


def test_fc3_caller_may_name_other_supply_bought_modifiers():
    bought = Modifier(1, "MC-5.1", "extra wagons")
    check = Check("MC-5.1", "Movement roll", (FOREST, bought), TABLE)
    original = check.roll(ScriptedDice([3]), "k")
    again = reroll_with_scout(check, original, ScriptedDice([3]), scouts=1, supply_modifiers=[bought])
    assert again.reroll.total == 2 and again.scouts_left == 0


def test_fc3_no_scout_no_reroll():
    original = CHECK.roll(ScriptedDice([1]), "k")
    with pytest.raises(RuleViolation) as err:
        reroll_with_scout(CHECK, original, ScriptedDice([6]), scouts=0)
    assert str(err.value) == "No scout left to spend for a re-roll (FC-3): 0 held."


def test_fc3_reroll_needs_the_rolls_own_check():
    other = Check("MC-4", "Force test", (), TABLE)
    original = other.roll(ScriptedDice([1]), "k")
    with pytest.raises(InvalidInput, match=r"This roll is a Force test \(MC-4\), not a Movement roll \(MC-5.1\)"):
        reroll_with_scout(CHECK, original, ScriptedDice([6]), scouts=1)


def test_fc3_golden_reroll_chain_seed_7():
    """Checked by hand: the original 1 (+2 supply -1 forest = 2, cannot move); re-roll 1 is a 3
    (-1 forest = 2, cannot move); re-roll 2 is a 2 (= 1, cannot move)."""
    dice = SeededDice.from_int(7)
    original = CHECK.roll(dice, "t1/p2/force:7/movement")
    first = reroll_with_scout(CHECK, original, dice, scouts=2)
    second = reroll_with_scout(CHECK, first.reroll, dice, scouts=first.scouts_left)
    assert [r.dice for r in (original, first.reroll, second.reroll)] == [(1,), (3,), (2,)]
    assert [r.total for r in (original, first.reroll, second.reroll)] == [2, 2, 1]
    assert [r.key for r in (first.reroll, second.reroll)] == [
        "t1/p2/force:7/movement/reroll1", "t1/p2/force:7/movement/reroll2",
    ]
    assert second.scouts_left == 0
