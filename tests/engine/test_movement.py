"""MC-5 Phase 2 on land (bot/engine/movement.py): the MC-5.1 movement roll with its extension,
initiative (RU-4) and the resolution of declared moves (RU-11, RU-13, MC-2, MC-6).

Forces start on neutral open ground with a leader of CV 0 unless a test says otherwise, so a
scripted face plus the modifiers listed is the whole total.
"""

from __future__ import annotations

import re

import pytest

from bot.engine.dice import ScriptedDice
from bot.engine.errors import EngineError, InvalidInput, RuleViolation
from bot.engine.model import Cell, Feature, Order, Reaction, Square, Terrain
from bot.engine.movement import (
    Contact,
    declare_land_move,
    max_squares,
    movement_check,
    resolve_movement,
    roll_initiative,
)

KEY = "t1/p2/force:f1/movement"


def sq(name: str) -> Square:
    return Square.parse(name)


# --- MC-5.1 bands ----------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("face", "order", "territory", "total", "squares"),
    [
        (1, Order.EXPLORE, None, 1, 0),
        (2, Order.EXPLORE, None, 2, 0),
        (3, Order.EXPLORE, None, 3, 1),
        (5, Order.EXPLORE, None, 5, 1),
        (6, Order.EXPLORE, None, 6, 2),
        (6, Order.FORCED_MARCH, None, 8, 2),
        (6, Order.FORCED_MARCH, "france", 9, 3),
    ],
)
def test_mc_5_1_movement_totals_2_3_5_6_8_9_give_0_1_1_2_2_3_squares(make_force, face, order, territory, total, squares):
    roll = movement_check(make_force(order=order), Cell(territory=territory)).roll(ScriptedDice([face]), KEY)
    assert (roll.total, roll.value) == (total, squares)


def test_mc_5_1_a_total_below_zero_still_means_the_force_cannot_move(make_force):
    force = make_force(reaction=Reaction.ROUTED)
    roll = movement_check(force, Cell(Terrain.MOUNTAIN, territory="austria")).roll(ScriptedDice([1]), KEY)
    assert roll.total == 1 - 3 - 1 - 2
    assert (roll.result, roll.value, roll.label) == ("stay", 0, "cannot move this turn")


def test_mc_5_1_no_land_move_covers_more_than_three_squares(rules):
    assert max_squares(rules) == 3


# --- MC-5.1 modifiers ------------------------------------------------------------------------

BASE_MODIFIERS = [
    pytest.param(Cell(Terrain.MOUNTAIN), {}, [(-3, "MC-5.1", "starts in mountains")], id="mountain"),
    pytest.param(Cell(Terrain.FOREST), {}, [(-2, "MC-5.1", "starts in forest")], id="forest"),
    pytest.param(Cell(features=frozenset({Feature.RIVER})), {}, [(-1, "MC-5.1", "a river crosses the square")], id="river"),
    pytest.param(Cell(Terrain.SWAMP), {}, [(-1, "MC-5.1", "starts in swamp")], id="swamp"),
    pytest.param(Cell(territory="austria"), {}, [(-1, "MC-5.1", "starts in enemy territory")], id="enemy-territory"),
    pytest.param(Cell(), {"reaction": Reaction.UNSTEADY}, [(-2, "MC-5.1", "Force is Unsteady or Routed")], id="unsteady"),
    pytest.param(Cell(), {"reaction": Reaction.ROUTED}, [(-2, "MC-5.1", "Force is Unsteady or Routed")], id="routed"),
    pytest.param(Cell(), {"order": Order.FORCED_MARCH}, [(2, "MC-5.1", "Forced March order")], id="forced-march-ru-2"),
    pytest.param(Cell(territory="france"), {}, [(1, "MC-5.1", "starts in friendly territory")], id="friendly-territory"),
    pytest.param(Cell(), {"reaction": Reaction.CONFUSED}, [], id="confused-moves-normally"),
    pytest.param(Cell(Terrain.JUNGLE), {}, [], id="jungle-has-no-movement-modifier"),
]

EXTENSION_MODIFIERS = [
    pytest.param(Cell(Terrain.DESERT), [(-1, "MC-5.1", "starts in desert or wasteland")], id="desert"),
    pytest.param(Cell(Terrain.WASTELAND), [(-1, "MC-5.1", "starts in desert or wasteland")], id="wasteland"),
    pytest.param(Cell(Terrain.CULTIVATED), [(-1, "MC-5.1", "starts in cultivated land")], id="cultivated"),
    pytest.param(Cell(Terrain.HILL), [(-2, "MC-5.1", "starts in hills")], id="hill"),
    pytest.param(Cell(features=frozenset({Feature.ROAD})), [(1, "MC-5.1", "on a road or caravan track")], id="road"),
    pytest.param(
        Cell(features=frozenset({Feature.CARAVAN_TRACK})), [(1, "MC-5.1", "on a road or caravan track")], id="caravan-track"
    ),
    pytest.param(
        Cell(features=frozenset({Feature.ROAD, Feature.CARAVAN_TRACK})),
        [(1, "MC-5.1", "on a road or caravan track")],
        id="road-and-track-count-once",
    ),
]


def _mods(check):
    return [(m.value, m.rule, m.reason) for m in check.modifiers]


@pytest.mark.parametrize(("cell", "force_kwargs", "expected"), BASE_MODIFIERS)
@pytest.mark.parametrize("extension", [True, False], ids=["extension-on", "extension-off"])
def test_mc_5_1_each_base_modifier_applies_with_or_without_the_extension(make_force, cell, force_kwargs, expected, extension):
    check = movement_check(make_force(**force_kwargs), cell, extension=extension)
    assert _mods(check) == expected
    assert check.roll(ScriptedDice([4]), KEY).total == 4 + sum(v for v, _, _ in expected)


@pytest.mark.parametrize(("cell", "expected"), EXTENSION_MODIFIERS)
def test_mc_5_1_each_extension_modifier_applies_when_the_extension_is_on(make_force, cell, expected):
    assert _mods(movement_check(make_force(), cell)) == expected


@pytest.mark.parametrize(("cell", "expected"), EXTENSION_MODIFIERS)
def test_mc_5_1_extension_modifiers_vanish_when_the_extension_is_switched_off(make_force, cell, expected):
    assert _mods(movement_check(make_force(), cell, extension=False)) == []


@pytest.mark.parametrize("weather", [-2, -1, 1])
def test_mc_5_1_the_weather_modifier_of_mc_10_is_part_of_the_extension(make_force, weather):
    on = movement_check(make_force(), Cell(), weather=weather, weather_label="Rain")
    assert _mods(on) == [(weather, "MC-10", "weather: Rain")]
    assert _mods(movement_check(make_force(), Cell(), weather=weather, extension=False)) == []


def test_ru_2_the_maximum_speed_modifier_is_the_forced_march_order_of_mc_1(make_force):
    check = movement_check(make_force(order=Order.FORCED_MARCH), Cell())
    assert _mods(check) == [(2, "MC-5.1", "Forced March order")]
    assert _mods(movement_check(make_force(order=Order.EXPLORE), Cell())) == []


def test_mc_5_1_fair_weather_adds_no_modifier(make_force):
    assert _mods(movement_check(make_force(), Cell(), weather=0)) == []


def test_mc_5_1_all_modifiers_come_from_the_starting_square_and_add_up(make_force):
    cell = Cell(Terrain.HILL, frozenset({Feature.RIVER, Feature.ROAD}), territory="france")
    force = make_force(order=Order.FORCED_MARCH, reaction=Reaction.UNSTEADY)
    check = movement_check(force, cell, weather=-1)
    # river -1, friendly +1, unsteady -2, forced march +2, hill -2, road +1, weather -1
    assert check.modifier_total == -2
    assert check.roll(ScriptedDice([5]), KEY).value == 1


def test_mc_1_mc_5_1_a_force_with_the_defend_order_does_not_move_or_roll(make_force):
    force = make_force(name="II Corps", order=Order.DEFEND)
    with pytest.raises(RuleViolation) as info:
        movement_check(force, Cell())
    assert str(info.value) == (
        "II Corps holds the Defend order and does not move (MC-1, MC-5.1): "
        "change its order with a Force test in Phase 1 first."
    )


# --- declaring a land move -------------------------------------------------------------------


def test_a_declared_land_move_rolls_from_the_starting_square_and_records_its_allowance(make_force, make_map):
    cmap = make_map(10, 10, {"C3": Cell(Terrain.FOREST), "D3": Cell(Terrain.OPEN)})
    dice = ScriptedDice([6])
    move = declare_land_move(make_force(square="C3"), cmap, "C3 D3 E3", dice, KEY)
    assert move.roll.total == 4  # 6 - 2 for the forest it starts in
    assert move.allowance == 1
    assert move.path == (sq("D3"), sq("E3"))
    assert move.reach == (sq("D3"),)
    assert dice.keys == [(KEY, 1, 6)]


def test_a_land_path_longer_than_three_squares_is_refused(make_force, make_map):
    with pytest.raises(InvalidInput, match=r"The path names 4 squares: a land move covers at most 3 \(MC-5.1\)"):
        declare_land_move(make_force(square="C3"), make_map(), "D3 E3 F3 G3", ScriptedDice([6]), KEY)


def test_a_land_path_into_water_is_refused(make_force, make_map):
    cmap = make_map(10, 10, {"D3": Cell(Terrain.LAKE)})
    with pytest.raises(RuleViolation, match=r"D3 is lake: a Force cannot march into water; move by water \(MC-5.3\)"):
        declare_land_move(make_force(square="C3"), cmap, "D3", ScriptedDice([6]), KEY)


def test_a_land_path_with_a_gap_is_refused_before_rolling(make_force, make_map):
    dice = ScriptedDice([6])
    with pytest.raises(EngineError, match="The path has a gap between C3 and E3"):
        declare_land_move(make_force(square="C3"), make_map(), "E3", dice, KEY)
    assert dice.keys == []


def test_a_defend_force_asked_to_move_is_refused_before_rolling(make_force, make_map):
    dice = ScriptedDice([6])
    with pytest.raises(RuleViolation, match="holds the Defend order and does not move"):
        declare_land_move(make_force(order=Order.DEFEND), make_map(), "D3", dice, KEY)
    assert dice.keys == []


# --- RU-4 initiative --------------------------------------------------------------------------


def test_ru_4_initiative_adds_the_highest_cv_and_the_highest_total_moves_first():
    result = roll_initiative({"france": 2, "austria": 1}, ScriptedDice([5, 3]), "t1/p2/initiative")
    # sides roll in name order: austria 5 + 1 = 6, france 3 + 2 = 5
    assert result.order == ("austria", "france")
    assert [(r.subject, r.total) for r in result.rolls] == [("austria", 6), ("france", 5)]
    assert all(r.rule == "RU-4" for r in result.rolls)


def test_ru_4_tied_sides_re_roll_until_one_is_higher():
    dice = ScriptedDice([4, 3, 2, 2])
    result = roll_initiative({"france": 2, "austria": 1}, dice, "t1/p2/initiative")
    # round 1: austria 4 + 1 = 5, france 3 + 2 = 5, a tie; round 2: austria 2 + 1 = 3, france 2 + 2 = 4
    assert result.order == ("france", "austria")
    assert [k for k, _, _ in dice.keys] == [
        "t1/p2/initiative/round1/side:austria",
        "t1/p2/initiative/round1/side:france",
        "t1/p2/initiative/round2/side:austria",
        "t1/p2/initiative/round2/side:france",
    ]
    assert dice.remaining == 0


def test_ru_4_only_the_tied_sides_re_roll():
    dice = ScriptedDice([6, 2, 2, 1, 5])
    result = roll_initiative({"austria": 0, "france": 0, "russia": 0}, dice, "k")
    # round 1: austria 6, france 2, russia 2; round 2 between france and russia: 1 v 5
    assert result.order == ("austria", "russia", "france")
    assert len(result.rolls) == 5


def test_ru_4_initiative_needs_at_least_one_side():
    with pytest.raises(InvalidInput, match=re.escape("Initiative needs at least one side.")):
        roll_initiative({}, ScriptedDice([]), "k")


def test_ru_4_a_single_side_moves_first_without_rolling():
    dice = ScriptedDice([])
    assert roll_initiative({"france": 3}, dice, "k").order == ("france",)
    assert dice.keys == []


# --- RU-13 simultaneous resolution and RU-11 contact -------------------------------------------


def declare(force, cmap, path: str, squares: int):
    """Declare a move whose roll allows exactly ``squares`` squares (1D6 + weather, extension on)."""
    face, weather = {1: (3, 0), 2: (6, 0), 3: (6, 3)}[squares]
    move = declare_land_move(force, cmap, path, ScriptedDice([face]), f"t1/p2/force:{force.id}/movement", weather=weather)
    assert move.allowance == squares
    return move


def test_ru_13_a_force_stops_on_the_first_square_that_held_an_enemy_at_phase_start(make_force, make_map):
    cmap = make_map()
    french = make_force("fr", side="france", square="C3")
    austrians = make_force("au", side="austria", square="E3")
    out = resolve_movement([french, austrians], {"fr": declare(french, cmap, "D3 E3 F3", 3)})
    assert out.travelled["fr"] == (sq("D3"), sq("E3"))
    assert out.positions["fr"] == sq("E3")
    assert out.stopped_by_contact == {"fr"}
    assert out.battles == (Contact(sq("E3"), ("au", "fr"), ("austria", "france"), ("austria", "france")),)


def test_ru_13_a_force_stops_where_an_enemy_stood_even_if_that_enemy_moved_away(make_force, make_map):
    cmap = make_map()
    french = make_force("fr", side="france", square="C3")
    austrians = make_force("au", side="austria", square="E3")
    moves = {"fr": declare(french, cmap, "D3 E3 F3", 3), "au": declare(austrians, cmap, "E4 E5", 2)}
    out = resolve_movement([french, austrians], moves)
    assert out.positions == {"fr": sq("E3"), "au": sq("E5")}
    assert out.stopped_by_contact == {"fr"}
    assert out.battles == ()


def test_ru_13_forces_whose_paths_cross_without_sharing_a_square_do_not_meet(make_force, make_map):
    cmap = make_map()
    french = make_force("fr", side="france", square="C3")
    austrians = make_force("au", side="austria", square="D3")
    moves = {"fr": declare(french, cmap, "D4", 1), "au": declare(austrians, cmap, "C4", 1)}
    out = resolve_movement([french, austrians], moves)
    assert out.positions == {"fr": sq("D4"), "au": sq("C4")}
    assert out.battles == ()
    assert out.stopped_by_contact == frozenset()


def test_ru_13_a_force_passes_through_a_square_an_enemy_only_enters_during_the_phase(make_force, make_map):
    cmap = make_map()
    french = make_force("fr", side="france", square="C3")
    austrians = make_force("au", side="austria", square="E5")
    moves = {"fr": declare(french, cmap, "D3 E3 F3", 3), "au": declare(austrians, cmap, "E4 E3", 2)}
    out = resolve_movement([french, austrians], moves)
    assert out.positions == {"fr": sq("F3"), "au": sq("E3")}
    assert out.battles == ()


def test_ru_13_two_forces_ending_in_the_same_square_fight_mc_6(make_force, make_map):
    cmap = make_map()
    french = make_force("fr", side="france", square="C3")
    austrians = make_force("au", side="austria", square="G3")
    moves = {"fr": declare(french, cmap, "D3 E3", 2), "au": declare(austrians, cmap, "F3 E3", 2)}
    out = resolve_movement([french, austrians], moves)
    assert out.positions == {"fr": sq("E3"), "au": sq("E3")}
    assert out.battles == (Contact(sq("E3"), ("au", "fr"), ("austria", "france"), ("austria", "france")),)
    assert out.stopped_by_contact == frozenset()


def test_ru_13_a_force_moves_no_further_than_its_allowance(make_force, make_map):
    cmap = make_map()
    french = make_force("fr", square="C3")
    out = resolve_movement([french], {"fr": declare(french, cmap, "D3 E3 F3", 1)})
    assert out.positions["fr"] == sq("D3")
    assert out.travelled["fr"] == (sq("D3"),)


def test_ru_13_a_force_that_rolled_no_movement_stays_put(make_force, make_map):
    french = make_force("fr", square="C3")
    move = declare_land_move(french, make_map(), "D3", ScriptedDice([2]), KEY)
    out = resolve_movement([french], {"fr": move})
    assert move.allowance == 0
    assert out.positions["fr"] == sq("C3")
    assert out.travelled["fr"] == ()


def test_friendly_forces_sharing_a_square_do_not_fight(make_force, make_map):
    cmap = make_map()
    first = make_force("a", side="france", square="C3")
    second = make_force("b", side="france", square="E3")
    out = resolve_movement([first, second], {"a": declare(first, cmap, "D3 E3", 2)})
    assert out.positions == {"a": sq("E3"), "b": sq("E3")}
    assert out.battles == ()


def test_mc_2_a_routed_force_contacted_by_an_enemy_is_removed_without_a_battle(make_force, make_map):
    cmap = make_map()
    french = make_force("fr", side="france", square="C3")
    routed = make_force("au", side="austria", square="D3", reaction=Reaction.ROUTED)
    out = resolve_movement([french, routed], {"fr": declare(french, cmap, "D3 E3", 2)})
    assert out.collapsed == ("au",)
    assert out.battles == ()
    assert "au" not in out.positions
    assert out.positions["fr"] == sq("D3")


def test_mc_2_a_routed_force_moving_into_an_enemy_collapses(make_force, make_map):
    cmap = make_map()
    routed = make_force("fr", side="france", square="C3", reaction=Reaction.ROUTED)
    austrians = make_force("au", side="austria", square="D3")
    move = declare_land_move(routed, cmap, "D3", ScriptedDice([6]), KEY)  # 6 - 2 = 4: one square
    out = resolve_movement([routed, austrians], {"fr": move})
    assert out.collapsed == ("fr",)
    assert out.battles == ()
    assert out.positions == {"au": sq("D3")}


def test_mc_6_a_routed_force_collapses_but_its_companions_still_fight(make_force, make_map):
    cmap = make_map()
    french = make_force("fr", side="france", square="C3")
    routed = make_force("au1", side="austria", square="D3", reaction=Reaction.ROUTED)
    steady = make_force("au2", side="austria", square="D3")
    out = resolve_movement([french, routed, steady], {"fr": declare(french, cmap, "D3", 1)})
    assert out.collapsed == ("au1",)
    assert out.battles == (Contact(sq("D3"), ("au2", "fr"), ("austria", "france"), ("austria", "france")),)


def test_ru_11_moving_by_initiative_a_force_stops_where_an_earlier_mover_now_stands(make_force, make_map):
    cmap = make_map()
    french = make_force("fr", side="france", square="C3")
    austrians = make_force("au", side="austria", square="E5")
    moves = {"fr": declare(french, cmap, "D3 E3 F3", 3), "au": declare(austrians, cmap, "E4 E3", 2)}
    out = resolve_movement([french, austrians], moves, side_order=["austria", "france"])
    assert out.positions == {"fr": sq("E3"), "au": sq("E3")}
    assert out.stopped_by_contact == {"fr"}
    assert out.battles == (Contact(sq("E3"), ("au", "fr"), ("austria", "france"), ("austria", "france")),)


def test_mc_5_ru_4_a_movement_order_must_list_every_side(make_force):
    forces = [make_force("fr", side="france"), make_force("au", side="austria", square="H8")]
    with pytest.raises(InvalidInput, match=re.escape("The movement order leaves out side(s) austria.")):
        resolve_movement(forces, {}, side_order=["france"])


def test_a_move_for_an_unknown_force_is_refused(make_force, make_map):
    french = make_force("fr", square="C3")
    move = declare(french, make_map(), "D3", 1)
    with pytest.raises(InvalidInput, match=re.escape("A move was declared for an unknown Force 'ghost'.")):
        resolve_movement([french], {"ghost": move})


def test_mc_5_simultaneous_movement_is_the_default_option(rules):
    assert rules.mc.options["movement_order"].default == "simultaneous"
    assert rules.mc.options["movement_order"].choices == ("simultaneous", "initiative")
