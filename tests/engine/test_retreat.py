"""MC-7.3 movement after the battle (bot/engine/aftermath.py) with RU-8 (surrender when no
retreat is possible) and RU-11 (adjacency), and MC-7.4 reactions after a defeat with RU-9.
"""

from __future__ import annotations

import pytest

from bot.engine.aftermath import (
    Retreating,
    both_defending,
    check_draw_separation,
    check_retreat,
    choose_retreats,
    post_battle_duty,
    reaction_after_defeat,
    retreat_options,
    retreat_squares,
)
from bot.engine.errors import RuleViolation
from bot.engine.model import Cell, Order, Outcome, Reaction, Square, Terrain

BATTLE = Square.parse("E5")


def names(squares):
    return sorted(s.name for s in squares)


def sq(name: str) -> Square:
    return Square.parse(name)


# --- which squares a Force may retreat to ------------------------------------------------------


def test_mc_7_3_a_beaten_force_may_move_one_square_in_any_direction(make_map):
    assert names(retreat_squares(make_map(), BATTLE, "austria", [])) == [
        "D4", "D5", "D6", "E4", "E6", "F4", "F5", "F6",
    ]


def test_ru_11_with_four_direction_adjacency_a_retreat_cannot_go_diagonally(make_map):
    assert names(retreat_squares(make_map(adjacency=4), BATTLE, "austria", [])) == ["D5", "E4", "E6", "F5"]


def test_mc_7_3_a_retreat_may_not_enter_a_square_holding_an_enemy_force(make_map):
    positions = [("france", sq("F5")), ("france", sq("E5")), ("france", sq("D4"))]
    assert names(retreat_squares(make_map(), BATTLE, "austria", positions)) == [
        "D5", "D6", "E4", "E6", "F4", "F6",
    ]


def test_mc_7_3_friendly_forces_do_not_block_a_retreat(make_map):
    positions = [("austria", sq(n)) for n in ("D4", "D5", "D6", "E4", "E6", "F4", "F5", "F6")]
    assert len(retreat_squares(make_map(), BATTLE, "austria", positions)) == 8


@pytest.mark.parametrize("water", [Terrain.SEA, Terrain.LAKE])
def test_ru_8_a_retreat_may_not_go_into_water(make_map, water):
    cmap = make_map(10, 10, {"F4": Cell(water), "F5": Cell(water), "F6": Cell(water)})
    assert names(retreat_squares(cmap, BATTLE, "austria", [])) == ["D4", "D5", "D6", "E4", "E6"]


def test_mc_7_3_a_retreat_from_the_map_edge_stays_on_the_map(make_map):
    assert names(retreat_squares(make_map(), sq("A1"), "austria", [])) == ["A2", "B1", "B2"]


def test_ru_8_a_force_with_no_free_land_square_around_it_surrenders(make_map):
    cmap = make_map(10, 10, {n: Cell(Terrain.SEA) for n in ("A2", "B2")})
    positions = [("france", sq("B1"))]
    assert retreat_squares(cmap, sq("A1"), "austria", positions) == ()
    with pytest.raises(RuleViolation) as info:
        check_retreat(cmap, sq("A1"), "austria", sq("A2"), positions)
    assert str(info.value) == "No square around A1 is free of the enemy and on land: the Force surrenders (RU-8)."


def test_ru_8_a_force_surrounded_by_enemies_surrenders(make_map):
    cmap = make_map(adjacency=4)
    positions = [("france", sq(n)) for n in ("D5", "E4", "E6", "F5")]
    assert retreat_squares(cmap, BATTLE, "austria", positions) == ()


def test_mc_7_3_a_legal_retreat_square_is_accepted(make_map):
    assert check_retreat(make_map(), BATTLE, "austria", sq("D4"), [("france", sq("F5"))]) == sq("D4")


@pytest.mark.parametrize("destination", ["F5", "G5", "E5"])
def test_mc_7_3_an_illegal_retreat_square_is_refused_naming_the_legal_ones(make_map, destination):
    cmap = make_map(10, 10, {"D4": Cell(Terrain.LAKE)})
    with pytest.raises(RuleViolation) as info:
        check_retreat(cmap, BATTLE, "austria", sq(destination), [("france", sq("F5"))])
    message = str(info.value)
    assert message.startswith(f"{destination} is not a legal retreat from E5 (MC-7.3, RU-8): choose one of ")
    assert sorted(message.split("choose one of ")[1].rstrip(".").split(", ")) == ["D5", "D6", "E4", "E6", "F4", "F6"]


# --- who must move ---------------------------------------------------------------------------


def test_mc_7_3_the_winner_holds_the_field():
    assert not post_battle_duty(Outcome.WON).must_move


@pytest.mark.parametrize("stronghold", [False, True])
@pytest.mark.parametrize("defending", [False, True])
def test_mc_7_3_the_loser_always_moves_out_of_the_battle_square(stronghold, defending):
    duty = post_battle_duty(Outcome.LOST, holds_stronghold=stronghold, both_defending=defending)
    assert duty.must_move
    assert duty.rule == "MC-7.3"


def test_mc_7_3_after_a_draw_both_forces_leave_the_square():
    duty = post_battle_duty(Outcome.DRAW)
    assert duty.must_move
    assert duty.reason == "draw: both Forces leave for adjacent squares, one square apart"


def test_mc_7_3_after_a_draw_a_side_holding_its_stronghold_there_does_not_move():
    duty = post_battle_duty(Outcome.DRAW, holds_stronghold=True)
    assert not duty.must_move
    assert "stronghold" in duty.reason


def test_mc_7_3_after_a_draw_between_two_defending_forces_neither_moves():
    duty = post_battle_duty(Outcome.DRAW, both_defending=True)
    assert not duty.must_move
    assert "both Forces held the Defend order" in duty.reason


def test_mc_7_3_both_defending_needs_every_force_in_the_battle_on_defend(make_force):
    defending = make_force("a", order=Order.DEFEND)
    exploring = make_force("b", side="austria", order=Order.EXPLORE)
    assert both_defending({"a": defending, "b": make_force("c", side="austria", order=Order.DEFEND)})
    assert not both_defending({"a": defending, "b": exploring})
    assert not both_defending({})


@pytest.mark.parametrize(("a", "b"), [("D5", "F5"), ("D4", "F6"), ("E4", "E6")])
def test_mc_7_3_after_a_draw_forces_one_square_apart_are_separated(make_map, a, b):
    check_draw_separation(make_map(), sq(a), sq(b))


@pytest.mark.parametrize(("a", "b"), [("D5", "D4"), ("E4", "F5"), ("E4", "E4")])
def test_mc_7_3_after_a_draw_forces_still_in_touch_are_refused(make_map, a, b):
    with pytest.raises(RuleViolation) as info:
        check_draw_separation(make_map(), sq(a), sq(b))
    assert str(info.value) == f"After a draw the Forces must end one square apart (MC-7.3): {a} and {b} are too close."


def test_ru_11_with_four_direction_adjacency_diagonal_neighbours_are_already_separated(make_map):
    check_draw_separation(make_map(adjacency=4), sq("E4"), sq("F5"))


# --- retreats after a draw, and the ones the bot picks -------------------------------------------


def test_mc_7_3_after_a_draw_a_retreat_ends_apart_from_the_opposing_camps_retreats(make_map):
    assert names(retreat_options(make_map(), BATTLE, "austria", [], apart_from=[sq("D4")])) == [
        "D6", "E6", "F4", "F5", "F6",
    ]


def test_mc_7_3_with_no_square_apart_the_force_still_leaves_by_any_free_square(make_map):
    """A corner: every free square touches the enemy's retreat, yet RU-8 needs no free land at all."""
    assert names(retreat_options(make_map(), sq("A1"), "austria", [], apart_from=[sq("B1")])) == ["A2", "B1", "B2"]


def test_mc_7_3_a_chosen_square_next_to_an_opposing_retreat_is_refused_after_a_draw(make_map):
    with pytest.raises(RuleViolation, match=r"one square apart \(MC-7.3\): E4 and D4 are too close"):
        check_retreat(make_map(), BATTLE, "austria", sq("E4"), [], apart_from=[sq("D4")])
    assert check_retreat(make_map(), BATTLE, "austria", sq("F5"), [], apart_from=[sq("D4")]) == sq("F5")
    assert check_retreat(make_map(), sq("A1"), "austria", sq("A2"), [], apart_from=[sq("B1")]) == sq("A2")


def test_ru_8_the_bot_lets_beaten_forces_of_one_side_retreat_side_by_side(make_map):
    """Two beaten French Forces at A1, the enemy at B1: A2 and B2 are free, nobody surrenders."""
    movers = [Retreating("soult", "france", False), Retreating("davout", "france", False)]
    picks = choose_retreats(make_map(), sq("A1"), movers, [("austria", sq("B1")), ("austria", sq("A1"))])
    assert picks == {"soult": sq("A2"), "davout": sq("A2")}


def test_ru_8_the_bot_surrenders_only_a_force_with_no_free_land_around_it(make_map):
    cmap = make_map(10, 10, {"A2": Cell(Terrain.SEA)})
    movers = [Retreating("soult", "france", False)]
    assert choose_retreats(cmap, sq("A1"), movers, [("austria", sq("B1")), ("austria", sq("B2"))]) == {"soult": None}


def test_mc_7_3_after_a_draw_the_bot_keeps_opposing_camps_apart_and_friends_together(make_map):
    movers = [Retreating("soult", "france", True), Retreating("davout", "france", True),
              Retreating("mack", "austria", True)]
    picks = choose_retreats(make_map(), BATTLE, movers, [])
    cmap = make_map()
    assert cmap.distance(picks["soult"], picks["mack"]) >= 2 and cmap.distance(picks["davout"], picks["mack"]) >= 2
    assert picks["soult"] == picks["davout"] == sq("D4")  # friends stay together, first in map order


def test_mc_7_3_the_bot_leaves_room_apart_for_the_opposing_force_still_to_move(make_map):
    """Between water and the map edge the first Force's pick decides whether the second can end apart."""
    cmap = make_map(10, 10, {n: Cell(Terrain.LAKE) for n in ("A1", "C1", "A3", "B3", "C3")})
    assert names(retreat_squares(cmap, sq("B2"), "france", [])) == ["A2", "B1", "C2"]
    movers = [Retreating("soult", "france", True), Retreating("mack", "austria", True)]
    # B1, the first square, touches both others; A2 and C2 are two apart.
    assert choose_retreats(cmap, sq("B2"), movers, []) == {"soult": sq("A2"), "mack": sq("C2")}


def test_mc_7_3_the_bot_counts_retreats_already_chosen_by_players(make_map):
    movers = [Retreating("mack", "austria", True)]
    picks = choose_retreats(make_map(), BATTLE, movers, [], chosen=[("france", sq("D4"), True), ("france", sq("F6"), True)])
    assert picks == {"mack": sq("F4")}  # two from D4 and from F6; the first such in map order
    beaten = choose_retreats(make_map(), BATTLE, [Retreating("mack", "austria", False)], [],
                             chosen=[("austria", sq("D4"), False)])
    assert beaten == {"mack": sq("D4")}  # a beaten Force keeps no distance from its friends


def test_ru_20_beaten_forces_of_two_camps_do_not_share_a_square(make_map):
    movers = [Retreating("mack", "austria", False), Retreating("kutuzov", "russia", False)]
    picks = choose_retreats(make_map(), sq("A1"), movers, [("france", sq("A1"))])
    assert picks == {"mack": sq("B1"), "kutuzov": sq("A2")}


# --- MC-7.4 and RU-9 reactions after a defeat ---------------------------------------------------


@pytest.mark.parametrize(
    ("before", "after"),
    [
        pytest.param(None, Reaction.CONFUSED, id="any-order-becomes-confused-mc-7-4"),
        pytest.param(Reaction.CONFUSED, Reaction.UNSTEADY, id="confused-becomes-unsteady-mc-7-4"),
        pytest.param(Reaction.UNSTEADY, Reaction.ROUTED, id="unsteady-becomes-routed-ru-9"),
        pytest.param(Reaction.ROUTED, Reaction.ROUTED, id="routed-stays-routed-ru-9"),
    ],
)
def test_mc_7_4_ru_9_a_beaten_force_climbs_the_reaction_ladder(make_force, before, after):
    assert reaction_after_defeat(make_force(reaction=before)) is after


@pytest.mark.parametrize("order", list(Order))
def test_mc_7_4_a_beaten_force_without_a_reaction_becomes_confused_whatever_its_order(make_force, order):
    assert reaction_after_defeat(make_force(order=order)) is Reaction.CONFUSED
