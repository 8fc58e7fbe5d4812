"""The bot general's Force tests (RU-26 with MC-4): an order is changed only for what it brings, no test is
taken that is likelier to remove the Force than to pass, and a Confused Force that still moves rallies only
when the test more likely passes than not; its battle odds (RU-27) count what it cannot see in an enemy
Force its camp never fought."""

from __future__ import annotations

from dataclasses import replace
from fractions import Fraction

from bot.campaign.dice import turn_dice
from bot.campaign.events import Journal
from bot.campaign.general import decide, side_view
from bot.campaign.general.decide import Fields, GiveOrder, Move, arrive_chance, wanted_order, win_chance
from bot.campaign.general.decide import test_chances as force_test_chances
from bot.campaign.general.policy import policy
from bot.campaign.state import CampaignState
from bot.engine.model import Order, Reaction, Terrain
from bot.engine.phases import Phase

from .test_general_core import CTX, RULES, campaign


def tutorial(turn: int, **mack: object) -> CampaignState:
    """The tutorial in Phase 1 of ``turn`` without a battle yet (quiet for ``turn`` turns), France's Forces
    away in the corners of their territory, Mack (CV 1) moved and changed as given."""
    state = campaign("tutorial").evolve(turn=turn, phase=Phase.ORDERS)
    far = [replace(state.forces["soult"], square="A1"), replace(state.forces["lannes"], square="A9")]
    return state.with_forces([*far, replace(state.forces["mack"], **mack)])


def orders_of(state: CampaignState, side: str, force: str) -> list[GiveOrder]:
    _, dice = turn_dice(state, Journal(), CTX)
    made = decide(side_view(state, side), dice, RULES)
    return [d for d in made.items if isinstance(d, GiveOrder) and d.force == force]


def test_ru_26_a_confused_force_that_moves_does_not_rally_on_a_test_it_cannot_pass() -> None:
    # D5: open ground on the road in French territory, no enemy within 2 squares; a long stalemate (turn 12)
    state = tutorial(12, square="D5", order=Order.FORCED_MARCH, reaction=Reaction.CONFUSED)
    view = side_view(state, "au")
    mack = next(f for f in view.own if f.key == "mack")
    chances = force_test_chances(view, mack, RULES)
    # 1d6 + CV 1 - 1 Confused - 1 enemy territory: it cannot pass, and a third of the time it is lost (MC-4)
    assert chances.get("ok", 0) == 0 and chances["disaster"] == Fraction(1, 3)
    assert arrive_chance(view, mack, RULES) == 1  # Confused, it still moves (MC-2): nothing to rally for
    assert orders_of(state, "au", "mack") == []


def test_ru_26_a_confused_force_in_forced_march_does_not_rally_for_a_move_the_rally_cannot_speed() -> None:
    # L9: a Bavarian hill with a river; Hohenzollern (CV 2), Confused in Forced March, moves 1 square in 3 turns
    # (MC-5.1), as it would with no reaction (MC-2): a rally (1d6 + 2 - 1 Confused - 1 enemy territory) brings
    # its move nothing, and removes it or leaves it Unsteady 1 time in 3 (MC-4)
    state = campaign("danube1809").evolve(turn=12, phase=Phase.ORDERS)
    state = state.with_forces([replace(state.forces["hohenzollern"], square="L9", order=Order.FORCED_MARCH,
                                       reaction=Reaction.CONFUSED)])
    view = side_view(state, "au")
    corps = next(f for f in view.own if f.key == "hohenzollern")
    assert arrive_chance(view, corps, RULES) == arrive_chance(view, replace(corps, reaction=None), RULES) == 1 / 3
    chances = force_test_chances(view, corps, RULES)
    assert chances["disaster"] + chances["unsteady"] == Fraction(1, 3) and chances["ok"] == Fraction(1, 6)
    assert orders_of(state, "au", "hohenzollern") == []


def test_ru_26_a_force_that_cannot_move_takes_no_test_it_cannot_pass_either() -> None:
    # A4: forest in French territory; Werneck (CV 2) Unsteady can neither move (1d6 - 5) nor pass a Force test
    # (1d6 + 2 - 2 - 1), and a third of the time the test removes it: within what a long stalemate once risked
    state = tutorial(12, square="H5")
    state = state.with_forces([replace(state.forces["werneck"], square="A4", order=Order.EXPLORE,
                                       reaction=Reaction.UNSTEADY)])
    view = side_view(state, "au")
    werneck = next(f for f in view.own if f.key == "werneck")
    assert arrive_chance(view, werneck, RULES) == 0
    chances = force_test_chances(view, werneck, RULES)
    assert chances.get("ok", 0) == 0 and chances["disaster"] == Fraction(1, 3)
    assert orders_of(state, "au", "werneck") == []


def test_ru_26_a_confused_force_rallies_where_the_test_more_likely_passes() -> None:
    # H5: its own territory, the test is 1d6 + CV 1 - 1 Confused + 2: passed on 4 or more, never a disaster
    state = tutorial(2, square="H5", order=Order.FORCED_MARCH, reaction=Reaction.CONFUSED)
    view = side_view(state, "au")
    mack = next(f for f in view.own if f.key == "mack")
    assert force_test_chances(view, mack, RULES)["ok"] >= 1 / 2
    assert [d.order for d in orders_of(state, "au", "mack")] == [Order.FORCED_MARCH]


def test_ru_26_an_order_is_changed_only_for_what_it_brings() -> None:
    state = tutorial(1, square="H5", order=Order.FORCED_MARCH)
    view = side_view(state, "au")
    mack = next(f for f in view.own if f.key == "mack")
    here = view.map.parse("H5")
    # its group rolls Hold with no enemy within 2 squares: it keeps marching (no test)
    assert wanted_order(view, mack, here, Order.DEFEND, Order.FORCED_MARCH, 0, RULES) is Order.FORCED_MARCH
    # Advance far from the enemy: it keeps the faster order rather than test for Explore
    assert wanted_order(view, mack, here, Order.EXPLORE, Order.FORCED_MARCH, 0, RULES) is Order.FORCED_MARCH
    # an enemy beside it: Hold is worth a test, unless a stalemate is to be broken
    beside = state.with_forces([replace(state.forces["soult"], square="G5")])
    view = side_view(beside, "au")
    assert wanted_order(view, mack, here, Order.DEFEND, Order.FORCED_MARCH, 0, RULES) is Order.DEFEND
    assert wanted_order(view, mack, here, Order.DEFEND, Order.FORCED_MARCH, 1, RULES) is Order.FORCED_MARCH


def test_ru_26_ru_27_an_enemy_force_never_fought_is_taken_a_step_better_until_its_side_is_quiet() -> None:
    fresh = side_view(tutorial(1, square="H5"), "au")  # a battle-free turn 1: not quiet
    mack = next(f for f in fresh.own if f.key == "mack")
    assert win_chance(fresh, [mack], 10, False, unseen=True) < win_chance(fresh, [mack], 10, False)
    quiet = side_view(tutorial(12, square="H5"), "au")  # 12 turns without a battle: as even, to break it
    assert win_chance(quiet, [mack], 10, False, unseen=True) == win_chance(quiet, [mack], 10, False)


def test_danube_bohemias_corps_can_leave_the_cham_basin() -> None:
    """danube1809: Cham (W7) and Furth im Wald (X6) lie in the basin the road from Bohemia crosses (hills,
    not mountains), so a corps there can pass a Force test for Forced March and move on (MC-4, MC-5.1)."""
    state = campaign("danube1809")
    for sq in ("V7", "W7", "X6"):
        assert state.map.cell(state.map.parse(sq)).terrain is Terrain.HILL
    view = side_view(state, "au")
    kollowrat = next(f for f in view.own if f.key == "kollowrat")
    assert kollowrat.square == "W7"
    assert force_test_chances(view, kollowrat, RULES)["ok"] > 0
    assert arrive_chance(view, replace(kollowrat, order=Order.FORCED_MARCH), RULES) > 0


def test_ru_26_a_long_stalemate_lowers_the_odds_it_wants_even_while_strongholds_lie_open() -> None:
    fresh = Fields(side_view(tutorial(1, square="H5"), "au"))  # quiet for 1 turn
    stalemate = Fields(side_view(tutorial(7, square="H5"), "au"))  # 7 turns without a battle: two steps
    assert fresh.open_strongholds() and stalemate.open_strongholds()  # France's capital lies open at B5
    assert stalemate.need() == fresh.need() - policy().quiet_win


def test_ru_26_a_force_marches_where_it_moves_fastest_not_by_the_fewest_squares() -> None:
    # K7 to the French capital B5: the fewest squares cross J6 (cultivated, -1) and I5 (forest, -2); the open
    # ground of its own territory by J8, I8 and H7 is as many squares and faster in Forced March (MC-5.1)
    state = tutorial(1, square="K7", order=Order.FORCED_MARCH).evolve(phase=Phase.MOVEMENT)
    _, dice = turn_dice(state, Journal(), CTX)
    made = decide(side_view(state, "au"), dice, RULES)
    move = next(d for d in made.items if isinstance(d, Move) and d.force == "mack")
    assert [str(s) for s in move.path] == ["J8", "I8", "H7"]
    assert {state.map.cell(s).terrain for s in move.path} == {Terrain.OPEN}
    assert str(move.target) == "B5"


def test_ru_26_the_forces_counted_for_a_strike_gather_for_that_strike() -> None:
    # Soult and Lannes (some 18 SP each, as far as Austria knows) at F3 and F7; Mack (22 SP) at H4 and Werneck
    # (14 SP) at H6 beat one of them together at its odds, neither alone: both gather beside the same one
    # (concentration), not each beside the enemy Force nearest to it
    state = tutorial(7, square="H4", order=Order.EXPLORE).evolve(phase=Phase.MOVEMENT)
    state = state.with_forces([replace(state.forces["werneck"], square="H6", order=Order.EXPLORE),
                               replace(state.forces["soult"], square="F3"), replace(state.forces["lannes"], square="F7")])
    _, dice = turn_dice(state, Journal(), CTX)
    made = decide(side_view(state, "au"), dice, RULES)
    targets = {d.force: d.target for d in made.items if isinstance(d, Move)}
    assert set(targets) == {"mack", "werneck"}
    beside = [{str(e) for e in ("F3", "F7") if state.map.distance(t, state.map.parse(e)) == 1} for t in targets.values()]
    assert beside == [{"F3"}, {"F3"}]


def test_ru_26_a_force_counted_for_no_strike_joins_the_gathering_when_nothing_else_lies_open() -> None:
    # Austria holds the French capital (B5), the one French stronghold: nothing else to take. Mack (22 SP, at H4)
    # strikes Soult (F3, some 18 SP) at its odds in a long stalemate; Werneck, 6 squares off at L9, is not
    # counted for that strike, and marches to join it rather than stand idle
    state = tutorial(7, square="H4", order=Order.EXPLORE).evolve(phase=Phase.MOVEMENT, holdings={"B5": "au"})
    state = state.with_forces([replace(state.forces["werneck"], square="L9", order=Order.EXPLORE),
                               replace(state.forces["soult"], square="F3")])
    _, dice = turn_dice(state, Journal(), CTX)
    moves = {d.force: d for d in decide(side_view(state, "au"), dice, RULES).items if isinstance(d, Move)}
    assert set(moves) == {"mack", "werneck"}
    assert len(moves["werneck"].path) == 3
    assert state.map.distance(moves["werneck"].target, state.map.parse("F3")) == 1


def test_ru_26_an_enemy_force_never_fought_is_priced_at_one_of_its_own_not_at_what_the_forces_it_beat_have_left(
) -> None:
    # danube1809: Jellačić (9 SP) beside Oudinot, never fought; Nansouty, beaten down to 4 SP in a battle, once
    # made every Force never fought look like 4 SP, and Jellačić struck Oudinot's 18 SP corps
    state = campaign("danube1809").evolve(turn=12, phase=Phase.MOVEMENT)
    state = state.with_forces([replace(state.forces["jellacic"], square="L15", order=Order.FORCED_MARCH)])
    view = side_view(state, "au")
    beaten = replace(view, known={"nansouty": 4})
    own = [f.sp for f in view.own]
    assert beaten.strength("oudinot") == view.strength("oudinot") == sum(own) // len(own)
    assert beaten.strength("nansouty") == 4
    _, dice = turn_dice(state, Journal(), CTX)
    made = decide(beaten, dice, RULES).items
    assert not [d for d in made if isinstance(d, Move) and d.force == "jellacic" and str(d.target) == "K15"]


def test_ru_26_an_enemy_force_never_fought_on_an_enemy_stronghold_is_taken_for_its_strongest_force() -> None:
    # danube1809, turn 12 (quiet: elsewhere its caution about an unseen enemy is off): three Austrian corps
    # beside Regensburg (R9), where Davout's 47 SP stand unseen. The general took him for an average Austrian
    # corps (20 SP) at even quality and generalship and struck at 58%: such first battles were lost 9 in 10
    state = campaign("danube1809").evolve(turn=12, phase=Phase.MOVEMENT)
    state = state.with_forces([replace(state.forces[k], square=sq, order=Order.FORCED_MARCH)
                               for k, sq in (("kollowrat", "S9"), ("bellegarde", "S10"), ("hohenzollern", "R10"))])
    view = side_view(state, "au")
    own = [f.sp for f in view.own]
    assert view.strength("davout", stronghold=True) == max(own) and view.strength("davout") == sum(own) // len(own)
    [r9] = [e for e in Fields(view, RULES).enemy() if str(e[0]) == "R9"]
    assert r9[1:] == (max(own), True, True)  # its strongest Force, a stronghold, never fought
    corps = [f for f in view.own if f.key in ("kollowrat", "bellegarde", "hohenzollern")]
    assert policy().quiet(view.quiet)  # the caution stands on a stronghold all the same
    assert win_chance(view, corps, 20, True, unseen=True) < win_chance(view, corps, 20, True, unseen=False)
    _, dice = turn_dice(state, Journal(), CTX)
    made = decide(view, dice, RULES).items
    assert not [d for d in made if isinstance(d, Move) and str(d.target) == "R9"]
