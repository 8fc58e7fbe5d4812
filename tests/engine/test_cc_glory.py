"""CC-4 Glory: the award, the ledger and every way to spend it, with its limits."""

from __future__ import annotations

import dataclasses

import pytest
from hypothesis import given
from hypothesis import strategies as st

from bot.engine.cc_model import GloryKind, Theatre
from bot.engine.cc_tables import default_cc_tables
from bot.engine.dice import ScriptedDice
from bot.engine.errors import InvalidInput, RuleViolation
from bot.engine.glory import (
    GloryEntry,
    GloryLedger,
    battle_glory,
    heroic_lost,
    spend_anti_guerrilla,
    spend_heroic,
    spend_leadership,
    spend_ordenanza,
    spend_rally,
    spend_stragglers,
    stragglers_limit,
)
from bot.engine.model import Outcome, Unit, UnitType
from bot.engine.rolls import BatchRoll

LINE = Unit("u1", "1st Line", 4, UnitType.INFANTRY)
HUSSARS = Unit("u2", "2nd Hussars", 3, UnitType.CAVALRY)
BATTERY = Unit("u3", "Horse Battery", 2, UnitType.ARTILLERY)


def award(outcome: str, won: int, enemy: int, required: int = 7, **kw: int) -> int:
    return battle_glory("fr", outcome, battle_id="b1", banners_required=required, banners_won=won, enemy_banners=enemy, **kw).total


def ledger_after(battle: str = "b1", outcome: str = "won", won: int = 7, enemy: int = 4, *, start: int = 0) -> GloryLedger:
    led = GloryLedger("france")
    if start:
        led = led.record(battle_glory("france", "won", battle_id="b0", banners_required=start, banners_won=start, enemy_banners=0))
    return led.record(battle_glory("france", outcome, battle_id=battle, banners_required=7, banners_won=won, enemy_banners=enemy))


def rich(points: int) -> GloryLedger:
    """A ledger holding exactly ``points`` Glory, all from an earlier battle."""
    return GloryLedger("france", (GloryEntry(points, GloryKind.AWARD, "earlier battles", "CC-4", "b0"),))


# --- the award -------------------------------------------------------------------------------


def test_cc4_worked_example_7_banners_won_7_to_4_winner_2_loser_1():
    assert award("won", 7, 4) == 2
    assert award("lost", 4, 7) == 1


def test_cc4_worked_example_7_banners_won_7_to_3_winner_3_loser_0():
    assert award("won", 7, 3) == 3
    assert award("lost", 3, 7) == 0


@pytest.mark.parametrize(("required", "won", "glory"), [(8, 4, 1), (8, 3, 0), (6, 3, 1), (5, 3, 1), (5, 2, 0), (1, 0, 0)])
def test_cc4_loser_needs_at_least_half_the_banners_required(required, won, glory):
    assert award("lost", won, required, required) == glory


@pytest.mark.parametrize(("won", "enemy", "glory"), [(7, 0, 4), (7, 1, 4), (7, 2, 3), (7, 5, 2), (7, 6, 1)])
def test_cc4_winner_gets_1_plus_half_the_banner_difference_rounded_down(won, enemy, glory):
    assert award("won", won, enemy) == glory


def test_cc4_each_enemy_leader_and_trophy_captured_adds_one():
    a = battle_glory("fr", Outcome.LOST, battle_id="b1", banners_required=7, banners_won=3, enemy_banners=7,
                     leaders_captured=1, trophies=2)
    assert a.total == 3
    assert [str(e) for e in a.entries] == [
        "+1 1 enemy leader captured (CC-4) [battle b1]",
        "+2 2 trophies captured (CC-4) [battle b1]",
    ]


def test_cc4_award_entries_say_why():
    a = battle_glory("fr", "won", battle_id="b1", banners_required=7, banners_won=7, enemy_banners=4)
    assert [str(e) for e in a.entries] == [
        "+2 won the battle 7 banners to 4: 1 + 3/2 rounded down (CC-4) [battle b1]",
    ]
    b = battle_glory("au", "lost", battle_id="b1", banners_required=7, banners_won=4, enemy_banners=7)
    assert [str(e) for e in b.entries] == [
        "+1 lost the battle with 4 of the 7 banners required (at least half) (CC-4) [battle b1]",
    ]


def test_cc4_ruling_winner_behind_on_banners_gets_the_base_1():
    assert award("won", 3, 5) == 1


def test_cc4_ruling_a_draw_scores_each_side_as_a_loser():
    assert award("draw", 4, 4) == 1
    assert award("draw", 3, 3) == 0


def test_cc4_award_refuses_impossible_banners():
    with pytest.raises(InvalidInput, match="fr cannot have won 8 Victory Banners when 7 win the battle"):
        award("won", 8, 2)
    with pytest.raises(InvalidInput, match="must be a whole number, 0 or more; got -1"):
        award("lost", -1, 7)


@given(st.integers(1, 12).flatmap(lambda r: st.tuples(st.just(r), st.integers(0, r), st.integers(0, r))),
       st.sampled_from(list(Outcome)), st.integers(0, 3), st.integers(0, 3))
def test_cc4_award_is_never_negative_and_the_winner_always_gains(banners, outcome, leaders, trophies):
    required, won, enemy = banners
    a = battle_glory("fr", outcome, battle_id="b", banners_required=required, banners_won=won, enemy_banners=enemy,
                     leaders_captured=leaders, trophies=trophies)
    assert a.total >= leaders + trophies
    if outcome is Outcome.WON:
        assert a.total >= 1 + leaders + trophies
    assert all(e.amount > 0 for e in a.entries)


# --- the ledger ------------------------------------------------------------------------------


def test_cc4_ledger_balance_adds_up_immutable_entries():
    led = ledger_after()
    assert led.balance == 2 and led.latest_battle == "b1" and led.gained_in("b1") == 2
    with pytest.raises(dataclasses.FrozenInstanceError):
        led.entries[0].amount = 5  # type: ignore[misc]
    assert led.lines()[-1] == "Balance: 2 Glory"
    assert GloryLedger.from_dict(led.to_dict()) == led


def test_cc4_ledger_refuses_an_award_for_another_side():
    a = battle_glory("austria", "lost", battle_id="b1", banners_required=7, banners_won=4, enemy_banners=7)
    with pytest.raises(InvalidInput, match="This Glory award is for 'austria', not for 'france'"):
        GloryLedger("france").record(a)


def test_cc4_ledger_entries_keep_gains_positive_and_spends_negative():
    with pytest.raises(InvalidInput, match="a spend removes them; got \\+1 for rally"):
        GloryEntry(1, GloryKind.RALLY, "x", "CC-4")
    with pytest.raises(InvalidInput, match="non-zero"):
        GloryEntry(0, GloryKind.AWARD, "x", "CC-4")
    with pytest.raises(InvalidInput, match="france's Glory ledger goes below 0"):
        GloryLedger("france", (GloryEntry(-1, GloryKind.RALLY, "x", "CC-4"),))


# --- Heroic unit -------------------------------------------------------------------------------


def test_cc4_heroic_winner_spends_glory_gained_in_that_battle_right_after_it():
    spent = spend_heroic(ledger_after(), LINE, battle_id="b1", outcome="won")
    assert spent.ledger.balance == 1
    assert spent.entry == GloryEntry(
        -1, GloryKind.HEROIC, "1st Line made Heroic: battles as Grenadiers until it loses a block", "CC-4", "b1", "u1"
    )
    cav = spend_heroic(ledger_after(), HUSSARS, battle_id="b1", outcome=Outcome.WON)
    assert "battles as Cuirassiers" in cav.text


def test_cc4_heroic_refused_to_the_loser():
    with pytest.raises(RuleViolation) as err:
        spend_heroic(ledger_after(outcome="lost", won=4, enemy=7), LINE, battle_id="b1", outcome="lost")
    assert str(err.value) == "Only the winner may make a unit Heroic (CC-4): france did not win battle 'b1'."


def test_cc4_heroic_refused_to_artillery():
    with pytest.raises(RuleViolation) as err:
        spend_heroic(ledger_after(), BATTERY, battle_id="b1", outcome="won")
    assert str(err.value) == "Horse Battery is artillery: only cavalry or infantry units may be Heroic (CC-4)."


def test_cc4_heroic_refused_to_a_unit_that_did_not_survive():
    with pytest.raises(RuleViolation, match="1st Line did not survive the battle: only a surviving unit"):
        spend_heroic(ledger_after(), LINE.with_sp(0), battle_id="b1", outcome="won")


def test_cc4_heroic_refused_twice_for_the_same_unit():
    with pytest.raises(RuleViolation, match="1st Line is already Heroic; it stays so until it loses a block"):
        spend_heroic(ledger_after(), LINE, battle_id="b1", outcome="won", already_heroic=True)


def test_cc4_heroic_only_right_after_the_battle():
    led = ledger_after("b1").record(
        battle_glory("france", "won", battle_id="b2", banners_required=7, banners_won=7, enemy_banners=6)
    )
    with pytest.raises(RuleViolation) as err:
        spend_heroic(led, LINE, battle_id="b1", outcome="won")
    assert str(err.value) == (
        "Heroic status is bought right after the battle, with Glory gained in it (CC-4): "
        "france's latest battle is 'b2', not 'b1'."
    )


def test_cc4_heroic_one_unit_per_battle():
    first = spend_heroic(ledger_after(won=7, enemy=0), LINE, battle_id="b1", outcome="won")
    with pytest.raises(RuleViolation) as err:
        spend_heroic(first.ledger, HUSSARS, battle_id="b1", outcome="won")
    assert str(err.value) == "france already made 1 unit Heroic after battle 'b1': at most 1 per battle (CC-4)."


def test_cc4_heroic_only_with_glory_gained_in_that_battle():
    cc = default_cc_tables()
    generous = dataclasses.replace(
        cc, glory=dataclasses.replace(cc.glory, spend=dataclasses.replace(cc.glory.spend, heroic_per_battle=3))
    )
    led = ledger_after(won=7, enemy=6, start=7)  # 4 Glory from b0, 1 from b1
    assert led.balance == 5 and led.gained_in("b1") == 1
    once = spend_heroic(led, LINE, battle_id="b1", outcome="won", tables=generous)
    with pytest.raises(RuleViolation) as err:
        spend_heroic(once.ledger, HUSSARS, battle_id="b1", outcome="won", tables=generous)
    assert str(err.value) == (
        "Heroic status is paid with Glory gained in the battle (CC-4): france has 0 Glory from battle 'b1' left "
        "and it costs 1."
    )


def test_cc4_heroic_status_is_lost_when_the_unit_loses_a_block():
    assert heroic_lost({"u1", "u2"}, ["u2", "u7"]) == frozenset({"u2"})


# --- Rally -----------------------------------------------------------------------------------


def test_cc4_rally_returns_one_block():
    result = spend_rally(rich(2), LINE.with_sp(2), original_sp=4)
    assert result.unit.sp == 3
    assert result.spent.ledger.balance == 1
    assert result.spent.text == "1st Line rallied to 3 blocks (not automatically ordered)"


def test_cc4_rally_never_above_original_strength():
    with pytest.raises(RuleViolation) as err:
        spend_rally(rich(2), LINE, original_sp=4)
    assert str(err.value) == "1st Line has 4 of its original 4 blocks: Rally never takes a unit above its original strength (CC-4)."


def test_cc4_rally_needs_a_unit_on_the_battlefield():
    with pytest.raises(RuleViolation, match="1st Line is eliminated: Rally returns a block to a unit still on the battlefield"):
        spend_rally(rich(2), LINE.with_sp(0), original_sp=4)


def test_cc4_spending_more_glory_than_held_is_refused():
    with pytest.raises(RuleViolation) as err:
        spend_rally(GloryLedger("france"), LINE.with_sp(2), original_sp=4)
    assert str(err.value) == "france has 0 Glory and Rally costs 1 (CC-4)."


# --- Leadership ------------------------------------------------------------------------------


def test_cc4_leadership_gives_an_ordered_unit_one_extra_die():
    spent = spend_leadership(rich(1), LINE, ordered=True)
    assert spent.text == "1st Line rolls 1 extra die if it battles this turn"
    assert spent.ledger.balance == 0


def test_cc4_leadership_refused_to_a_unit_not_ordered():
    with pytest.raises(RuleViolation, match="1st Line is not ordered: Leadership helps only an ordered unit"):
        spend_leadership(rich(1), LINE, ordered=False)


def test_cc4_leadership_refused_to_cavalry_with_dice_reduced_by_terrain():
    with pytest.raises(RuleViolation) as err:
        spend_leadership(rich(1), HUSSARS, ordered=True, terrain_reduces_dice=True)
    assert str(err.value) == "2nd Hussars is cavalry with its battle dice reduced by terrain: it may not use Leadership (CC-4)."
    assert spend_leadership(rich(1), LINE, ordered=True, terrain_reduces_dice=True).ledger.balance == 0


# --- Stragglers ------------------------------------------------------------------------------


@pytest.mark.parametrize(("balance", "limit"), [(0, 0), (1, 0), (2, 1), (3, 1), (5, 2), (10, 5)])
def test_cc4_stragglers_at_most_half_the_available_glory_rounded_down(balance, limit):
    assert stragglers_limit(balance) == limit


def test_cc4_stragglers_one_battle_die_per_point_with_its_effect():
    result = spend_stragglers(rich(10), 5, ScriptedDice([1, 3, 4, 5, 6]), "t1/p3/b1/stragglers", battle_id="b1")
    assert dict(result.blocks) == {UnitType.INFANTRY: 1, UnitType.CAVALRY: 1, UnitType.ARTILLERY: 1}
    assert (result.retreats, result.no_effect) == (1, 1)
    assert result.spent.ledger.balance == 5
    assert result.lines() == (
        "Remove 1 block from infantry units of your choice.",
        "Remove 1 block from cavalry units of your choice.",
        "Remove 1 block from artillery units of your choice.",
        "Retreat 1 unit of your choice one hex.",
        "1 die with no effect.",
    )
    assert BatchRoll.from_dict(result.roll.to_dict()) == result.roll


def test_cc4_stragglers_infantry_on_two_faces():
    result = spend_stragglers(rich(4), 2, ScriptedDice([1, 2]), "k")
    assert dict(result.blocks)[UnitType.INFANTRY] == 2


def test_cc4_stragglers_above_half_is_refused():
    with pytest.raises(RuleViolation) as err:
        spend_stragglers(rich(5), 3, ScriptedDice([1, 1, 1]), "k")
    assert str(err.value) == (
        "Stragglers may use at most half of the available Glory, rounded down (CC-4): france has 5, so at most 2; 3 asked."
    )


def test_cc4_stragglers_needs_at_least_one_point():
    with pytest.raises(InvalidInput, match="Stragglers needs at least 1 Glory point to spend; got 0"):
        spend_stragglers(rich(5), 0, ScriptedDice([]), "k")


@given(st.integers(0, 40))
def test_cc4_stragglers_limit_never_exceeds_half(balance):
    limit = stragglers_limit(balance)
    assert 0 <= 2 * limit <= balance


# --- Anti-Guerrilla and Ordenanza -------------------------------------------------------------


def test_cc4_anti_guerrilla_in_spain():
    spent = spend_anti_guerrilla(rich(1), theatre=Theatre.SPAIN)
    assert spent.entry.kind is GloryKind.ANTI_GUERRILLA and spent.ledger.balance == 0


def test_cc4_anti_guerrilla_refused_outside_spain():
    with pytest.raises(RuleViolation) as err:
        spend_anti_guerrilla(rich(1), theatre="portugal")
    assert str(err.value) == (
        "The Anti-Guerrilla patrol is for campaigns in Spain only (CC-4); this campaign is fought in 'portugal'."
    )


def test_cc4_ordenanza_in_portugal_for_the_allied_player():
    spent = spend_ordenanza(rich(1), theatre="portugal", allied=True, battle_id="b3")
    assert spent.entry.kind is GloryKind.ORDENANZA and spent.entry.battle_id == "b3"


def test_cc4_ordenanza_refused_outside_portugal_or_to_the_french():
    with pytest.raises(RuleViolation) as err:
        spend_ordenanza(rich(1), theatre="spain", allied=True)
    assert str(err.value) == "The Ordenanza is for campaigns in Portugal only (CC-4); this campaign is fought in 'spain'."
    with pytest.raises(RuleViolation, match="Only the allied player may call out the Ordenanza \\(CC-4\\), not france"):
        spend_ordenanza(rich(1), theatre="portugal", allied=False)
    with pytest.raises(InvalidInput, match="Unknown campaign theatre 'russia'"):
        spend_ordenanza(rich(1), theatre="russia", allied=True)
