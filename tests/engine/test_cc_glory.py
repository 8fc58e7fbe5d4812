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
    PENDING_SPENDS,
    BattleState,
    GloryEntry,
    GloryLedger,
    SpendBattle,
    battle_glory,
    heroic_lost,
    nation_of,
    spend_anti_guerrilla,
    spend_battle,
    spend_heroic,
    spend_leadership,
    spend_ordenanza,
    spend_problem,
    spend_rally,
    spend_stragglers,
    stragglers_allowance,
    stragglers_limit,
)
from bot.engine.model import Outcome, Unit, UnitType
from bot.engine.phases import Phase
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


def test_ru_15_a_winner_behind_on_banners_gets_the_base_1():
    """RU-15: the half-difference is never negative."""
    assert award("won", 3, 5) == 1


def test_ru_15_a_draw_scores_each_side_as_a_loser():
    """RU-15: a draw gives each side 1 Glory if it won at least half the banners required."""
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
    assert led.balance == 2 and led.gained_in("b1") == 2
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


# --- RU-17: when and where a spend belongs -------------------------------------------------------

OURS = {u.id: "france" for u in (LINE, HUSSARS, BATTERY)} | {"a1": "austria"}


def battle(state: BattleState = BattleState.PENDING, *, bid: str = "b1", turn: int = 2, won: str | None = None,
           nations: dict[str, str] | None = None) -> SpendBattle:
    """A battle of France against Austria fought in turn ``turn``; reported with ``won`` the winner."""
    outcomes = {}
    if won:
        outcomes = {s: Outcome.WON if s == won else Outcome.LOST for s in ("france", "austria")}
    return SpendBattle(bid, turn, state, nations or {"france": "French", "austria": "Austrian"}, OURS, outcomes,
                       {"france": "France", "austria": "Austria"})


PHASE_3 = {"turn": 2, "phase": Phase.BATTLE}
PHASE_4 = {"turn": 2, "phase": Phase.AFTERMATH}
REPORTED = battle(BattleState.REPORTED, won="france")


@pytest.mark.parametrize("kind", sorted(PENDING_SPENDS))
def test_ru17_pending_spends_only_in_a_pending_battle_in_phase_3(kind):
    assert spend_problem(kind, "france", battle(), **PHASE_3) is None
    assert "already reported" in spend_problem(kind, "france", REPORTED, **PHASE_3)
    assert "already reported" in spend_problem(kind, "france", battle(BattleState.DONE), **PHASE_4)
    assert "in Phase 3" in spend_problem(kind, "france", battle(), turn=3, phase=Phase.BATTLE)
    assert "in Phase 3" in spend_problem(kind, "france", battle(), turn=2, phase=Phase.ORDERS)
    assert "does not fight battle b1" in spend_problem(kind, "prussia", battle(), **PHASE_3)


def test_ru17_heroic_only_for_the_winner_from_the_report_until_phase_4_ends():
    h = GloryKind.HEROIC
    assert spend_problem(h, "france", REPORTED, **PHASE_3) is None
    assert spend_problem(h, "france", REPORTED, **PHASE_4) is None
    assert "not reported yet" in spend_problem(h, "france", battle(), **PHASE_3)
    assert "until Phase 4 ends" in spend_problem(h, "france", battle(BattleState.DONE, won="france"), **PHASE_4)
    assert "until Phase 4 ends" in spend_problem(h, "france", REPORTED, turn=3, phase=Phase.BATTLE)
    assert "until Phase 4 ends" in spend_problem(h, "france", REPORTED, turn=2, phase=Phase.WILL_TO_FIGHT)
    assert spend_problem(h, "austria", REPORTED, **PHASE_3) == (
        "Only the winner may make a unit Heroic (CC-4): Austria did not win battle b1.")
    drawn = SpendBattle("b1", 2, BattleState.REPORTED, {"france": "", "austria": ""}, OURS,
                        {"france": Outcome.DRAW, "austria": Outcome.DRAW})
    assert "did not win" in spend_problem(h, "france", drawn, **PHASE_3)


def test_ru17_a_spend_without_a_battle_takes_the_one_battle_where_it_may_be_made():
    other = battle(bid="b2")
    assert spend_battle(GloryKind.RALLY, "france", [REPORTED, other], **PHASE_3) is other
    assert spend_battle(GloryKind.HEROIC, "france", [REPORTED, other], **PHASE_3) is REPORTED
    with pytest.raises(InvalidInput, match="Say which battle the Rally spend is for: b2, b3"):
        spend_battle(GloryKind.RALLY, "france", [other, battle(bid="b3")], **PHASE_3)
    with pytest.raises(RuleViolation) as err:
        spend_battle(GloryKind.RALLY, "france", [REPORTED], turn=2, phase=Phase.AFTERMATH, name="France")
    assert str(err.value) == ("Rally is spent by a side in a battle that is pending (Phase 3, before its report; "
                              "RU-17): France has none now.")
    with pytest.raises(RuleViolation, match="Heroic status is bought by the winner of a battle"):
        spend_battle(GloryKind.HEROIC, "austria", [REPORTED], **PHASE_4)


@pytest.mark.parametrize(("nation", "spanish", "portuguese"), [
    ("Spanish", True, False), ("spain", True, False), ("Anglo-Spanish", True, False), ("Española", True, False),
    ("Portuguese", False, True), ("Anglo-Portuguese", False, True), ("portoghese", False, True),
    ("French", False, False), ("", False, False), ("Hispanic", False, False),
])
def test_ru17_a_side_is_spanish_or_portuguese_by_a_word_of_its_nation(nation, spanish, portuguese):
    assert nation_of(Theatre.SPAIN, nation) is spanish
    assert nation_of(Theatre.PORTUGAL, nation) is portuguese
    assert nation_of(Theatre.OTHER, nation) is False


# --- Heroic unit -------------------------------------------------------------------------------


def test_cc4_heroic_winner_spends_glory_gained_in_that_battle_right_after_it():
    spent = spend_heroic(ledger_after(), LINE, battle=REPORTED, **PHASE_3)
    assert spent.ledger.balance == 1
    assert spent.entry == GloryEntry(
        -1, GloryKind.HEROIC, "1st Line made Heroic: battles as Grenadiers until it loses a block", "CC-4", "b1", "u1", 2
    )
    cav = spend_heroic(ledger_after(), HUSSARS, battle=REPORTED, **PHASE_4)
    assert "battles as Cuirassiers" in cav.text


def test_cc4_heroic_refused_to_the_loser():
    lost = battle(BattleState.REPORTED, won="austria")
    with pytest.raises(RuleViolation) as err:
        spend_heroic(ledger_after(outcome="lost", won=4, enemy=7), LINE, battle=lost, **PHASE_3)
    assert str(err.value) == "Only the winner may make a unit Heroic (CC-4): France did not win battle b1."


def test_cc4_heroic_refused_to_artillery():
    with pytest.raises(RuleViolation) as err:
        spend_heroic(ledger_after(), BATTERY, battle=REPORTED, **PHASE_3)
    assert str(err.value) == "Horse Battery is artillery: only these units may be Heroic: cavalry, infantry (CC-4)."


def test_cc4_heroic_refused_to_a_unit_that_did_not_survive():
    with pytest.raises(RuleViolation, match="1st Line did not survive the battle: only a surviving unit"):
        spend_heroic(ledger_after(), LINE.with_sp(0), battle=REPORTED, **PHASE_3)


def test_ru17_heroic_refused_to_a_unit_not_in_the_battle():
    with pytest.raises(RuleViolation) as err:
        spend_heroic(ledger_after(), Unit("u9", "Old Guard", 4), battle=REPORTED, **PHASE_3)
    assert str(err.value) == "Old Guard is not with France's Forces in battle b1 (RU-17)."


def test_cc4_heroic_refused_twice_for_the_same_unit():
    with pytest.raises(RuleViolation, match="1st Line is already Heroic; it stays so until it loses a block"):
        spend_heroic(ledger_after(), LINE, battle=REPORTED, already_heroic=True, **PHASE_3)


def test_ru17_heroic_for_an_earlier_battle_of_the_turn_after_a_later_one_is_reported():
    led = ledger_after("b1").record(
        battle_glory("france", "won", battle_id="b2", banners_required=7, banners_won=7, enemy_banners=6)
    )
    assert spend_heroic(led, LINE, battle=REPORTED, **PHASE_4).ledger.balance == 2


def test_cc4_heroic_one_unit_per_battle():
    first = spend_heroic(ledger_after(won=7, enemy=0), LINE, battle=REPORTED, **PHASE_3)
    with pytest.raises(RuleViolation) as err:
        spend_heroic(first.ledger, HUSSARS, battle=REPORTED, **PHASE_3)
    assert str(err.value) == "France already made 1 unit Heroic after battle 'b1': at most 1 per battle (CC-4)."


def test_cc4_heroic_only_with_glory_gained_in_that_battle():
    cc = default_cc_tables()
    generous = dataclasses.replace(
        cc, glory=dataclasses.replace(cc.glory, spend=dataclasses.replace(cc.glory.spend, heroic_per_battle=3))
    )
    led = ledger_after(won=7, enemy=6, start=7)  # 4 Glory from b0, 1 from b1
    assert led.balance == 5 and led.gained_in("b1") == 1
    once = spend_heroic(led, LINE, battle=REPORTED, tables=generous, **PHASE_3)
    with pytest.raises(RuleViolation) as err:
        spend_heroic(once.ledger, HUSSARS, battle=REPORTED, tables=generous, **PHASE_3)
    assert str(err.value) == (
        "Heroic status is paid with Glory gained in the battle (CC-4): France has 0 Glory from battle 'b1' left "
        "and it costs 1."
    )


def test_cc4_heroic_status_is_lost_when_the_unit_loses_a_block():
    assert heroic_lost({"u1", "u2"}, ["u2", "u7"]) == frozenset({"u2"})


# --- Rally -----------------------------------------------------------------------------------


def test_ru17_rally_debits_glory_and_leaves_the_unit_as_it_is():
    spent = spend_rally(rich(2), LINE.with_sp(2), battle=battle(), **PHASE_3)
    assert spent.ledger.balance == 1
    assert spent.text == "Rally: 1st Line takes 1 block back on the table, not automatically ordered (RU-17)"
    assert spent.entry.battle_id == "b1" and spent.entry.subject == "u1" and spent.entry.turn == 2
    assert not hasattr(spent, "unit")  # the campaign unit's SP change only through the battle report


def test_ru17_rally_refused_outside_a_pending_battle():
    with pytest.raises(RuleViolation, match=r"Rally is spent by a side in a battle that is pending, in Phase 3"):
        spend_rally(rich(2), LINE.with_sp(2), battle=battle(), turn=2, phase=Phase.ORDERS)
    with pytest.raises(RuleViolation, match="battle b1 is already reported"):
        spend_rally(rich(2), LINE.with_sp(2), battle=REPORTED, **PHASE_3)


def test_ru17_rally_for_a_unit_of_the_side_in_the_battle():
    with pytest.raises(RuleViolation, match="Old Guard is not with France's Forces in battle b1"):
        spend_rally(rich(2), Unit("u9", "Old Guard", 4), battle=battle(), **PHASE_3)


def test_cc4_spending_more_glory_than_held_is_refused():
    with pytest.raises(RuleViolation) as err:
        spend_rally(GloryLedger("france"), LINE.with_sp(2), battle=battle(), **PHASE_3)
    assert str(err.value) == "France has 0 Glory and Rally costs 1 (CC-4)."


# --- Leadership ------------------------------------------------------------------------------


def test_cc4_leadership_gives_an_ordered_unit_one_extra_die():
    spent = spend_leadership(rich(1), LINE, ordered=True, battle=battle(), **PHASE_3)
    assert spent.text == "1st Line rolls 1 extra die if it battles this turn"
    assert spent.ledger.balance == 0


def test_cc4_leadership_refused_to_a_unit_not_ordered():
    with pytest.raises(RuleViolation, match="1st Line is not ordered: Leadership helps only an ordered unit"):
        spend_leadership(rich(1), LINE, ordered=False, battle=battle(), **PHASE_3)


def test_cc4_leadership_refused_to_cavalry_with_dice_reduced_by_terrain():
    with pytest.raises(RuleViolation) as err:
        spend_leadership(rich(1), HUSSARS, ordered=True, terrain_reduces_dice=True, battle=battle(), **PHASE_3)
    assert str(err.value) == "2nd Hussars is cavalry with its battle dice reduced by terrain: it may not use Leadership (CC-4)."
    assert spend_leadership(rich(1), LINE, ordered=True, terrain_reduces_dice=True, battle=battle(),
                            **PHASE_3).ledger.balance == 0


# --- Stragglers ------------------------------------------------------------------------------


@pytest.mark.parametrize(("balance", "limit"), [(0, 0), (1, 0), (2, 1), (3, 1), (5, 2), (10, 5)])
def test_cc4_stragglers_at_most_half_the_available_glory_rounded_down(balance, limit):
    assert stragglers_limit(balance) == limit


def test_cc4_stragglers_one_battle_die_per_point_with_its_effect():
    result = spend_stragglers(rich(10), 5, ScriptedDice([1, 3, 4, 5, 6]), "t1/p3/b1/stragglers", battle=battle(),
                              **PHASE_3)
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
    result = spend_stragglers(rich(4), 2, ScriptedDice([1, 2]), "k", battle=battle(), **PHASE_3)
    assert dict(result.blocks)[UnitType.INFANTRY] == 2


def test_cc4_stragglers_above_half_is_refused():
    with pytest.raises(RuleViolation) as err:
        spend_stragglers(rich(5), 3, ScriptedDice([1, 1, 1]), "k", battle=battle(), **PHASE_3)
    assert str(err.value) == (
        "Stragglers may use at most 2 Glory in battle b1: half, rounded down, of the 5 Glory France held when it "
        "began; 0 already spent on them, 3 more asked (CC-4, RU-17)."
    )


def test_ru17_stragglers_count_every_spend_for_the_battle_against_the_glory_held_when_it_began():
    four = rich(4)
    first = spend_stragglers(four, 2, ScriptedDice([6, 6]), "k0", battle=battle(), **PHASE_3)
    assert first.spent.ledger.balance == 2
    with pytest.raises(RuleViolation, match=r"at most 2 Glory in battle b1: .* of the 4 Glory France held when it "
                                            r"began; 2 already spent on them, 1 more asked"):
        spend_stragglers(first.spent.ledger, 1, ScriptedDice([6]), "k1", battle=battle(), **PHASE_3)
    # Another battle of the turn has its own allowance, from the same Glory held when the turn's battles began.
    other = battle(bid="b2")
    assert stragglers_allowance(first.spent.ledger, other).left == 2
    spend_stragglers(first.spent.ledger, 2, ScriptedDice([6, 6]), "k2", battle=other, **PHASE_3)


def test_ru17_glory_gained_or_spent_after_the_battle_began_does_not_change_its_stragglers_allowance():
    led = GloryLedger("france", (
        GloryEntry(3, GloryKind.AWARD, "battle b0", "CC-4", "b0", turn=1),
        GloryEntry(4, GloryKind.AWARD, "battle b2, reported first", "CC-4", "b2", turn=2),
        GloryEntry(-1, GloryKind.RALLY, "rally in b1", "CC-4", "b1", turn=2),
    ))
    allowed = stragglers_allowance(led, battle())
    assert (allowed.held, allowed.limit, allowed.spent, allowed.left) == (3, 1, 0, 1)
    assert led.held_before(2) == 3 and led.held_before(3) == 6


def test_cc4_stragglers_needs_at_least_one_point():
    with pytest.raises(InvalidInput, match="Stragglers needs at least 1 Glory point to spend; got 0"):
        spend_stragglers(rich(5), 0, ScriptedDice([]), "k", battle=battle(), **PHASE_3)


@given(st.integers(0, 40))
def test_cc4_stragglers_limit_never_exceeds_half(balance):
    limit = stragglers_limit(balance)
    assert 0 <= 2 * limit <= balance


# --- Anti-Guerrilla and Ordenanza -------------------------------------------------------------

SPANISH = battle(nations={"france": "French", "austria": "Spanish"})
PORTUGUESE = battle(nations={"france": "French", "austria": "Anglo-Portuguese"})


def test_ru17_anti_guerrilla_in_spain_by_the_side_facing_the_spanish():
    spent = spend_anti_guerrilla(rich(1), theatre=Theatre.SPAIN, battle=SPANISH, **PHASE_3)
    assert spent.entry.kind is GloryKind.ANTI_GUERRILLA and spent.ledger.balance == 0
    with pytest.raises(RuleViolation) as err:
        spend_anti_guerrilla(GloryLedger("austria", rich(1).entries), theatre="spain", battle=SPANISH, **PHASE_3)
    assert str(err.value) == ("The Anti-Guerrilla patrol is spent by the side facing the Spanish (CC-4, RU-17): no enemy "
                              "of Austria in battle b1 is Spanish.")
    with pytest.raises(RuleViolation, match="facing the Spanish"):
        spend_anti_guerrilla(rich(1), theatre="spain", battle=battle(), **PHASE_3)


def test_cc4_anti_guerrilla_refused_outside_spain():
    with pytest.raises(RuleViolation) as err:
        spend_anti_guerrilla(rich(1), theatre="portugal", battle=SPANISH, **PHASE_3)
    assert str(err.value) == (
        "The Anti-Guerrilla patrol is for campaigns in Spain only (CC-4); this campaign is fought in 'portugal'."
    )


def test_ru17_anti_guerrilla_and_ordenanza_only_in_a_pending_battle():
    with pytest.raises(RuleViolation, match="already reported"):
        spend_anti_guerrilla(rich(1), theatre="spain", battle=REPORTED, **PHASE_3)
    with pytest.raises(RuleViolation, match="in Phase 3"):
        spend_ordenanza(rich(1), theatre="portugal", battle=PORTUGUESE, turn=2, phase=Phase.ORDERS)


def test_ru17_ordenanza_in_portugal_by_the_side_holding_portuguese_units():
    anglo = GloryLedger("austria", rich(1).entries)
    spent = spend_ordenanza(anglo, theatre="portugal", battle=PORTUGUESE, **PHASE_3)
    assert spent.entry.kind is GloryKind.ORDENANZA and spent.entry.battle_id == "b1"


def test_cc4_ordenanza_refused_outside_portugal_or_to_the_french():
    anglo = GloryLedger("austria", rich(1).entries)
    with pytest.raises(RuleViolation) as err:
        spend_ordenanza(anglo, theatre="spain", battle=PORTUGUESE, **PHASE_3)
    assert str(err.value) == "The Ordenanza is for campaigns in Portugal only (CC-4); this campaign is fought in 'spain'."
    with pytest.raises(RuleViolation) as err:
        spend_ordenanza(rich(1), theatre="portugal", battle=PORTUGUESE, **PHASE_3)
    assert str(err.value) == ("Only a side holding Portuguese units may call out the Ordenanza (CC-4, RU-17): France "
                              "holds none.")
    with pytest.raises(InvalidInput, match="Unknown campaign theatre 'russia'"):
        spend_ordenanza(anglo, theatre="russia", battle=PORTUGUESE, **PHASE_3)
