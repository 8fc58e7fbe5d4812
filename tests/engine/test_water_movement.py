"""MC-5.3 movement by water (bot/engine/movement.py): sea/lake and river modifiers, the modifiers
common to both, the bands, and the square lost to embarking and to landing.
"""

from __future__ import annotations

import re

import pytest

from bot.engine.dice import ScriptedDice
from bot.engine.errors import InvalidInput, RuleViolation
from bot.engine.model import Cell, Feature, Order, Reaction, Square, Terrain
from bot.engine.movement import (
    WaterRoute,
    check_land_path,
    check_water_path,
    declare_water_move,
    max_squares,
    river_route,
    sea_route,
    water_allowance,
    water_movement_check,
    water_route,
)

KEY = "t1/p2/force:f1/water"
SEA = WaterRoute("sea")
RIVER = WaterRoute("river")


def sq(name: str) -> Square:
    return Square.parse(name)


def _mods(check):
    return [(m.value, m.rule, m.reason) for m in check.modifiers]


# --- bands -----------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("face", "weather", "total", "squares"),
    [
        (1, -3, -2, 1),
        (2, 0, 2, 1),
        (3, 0, 3, 2),
        (5, 0, 5, 2),
        (6, 0, 6, 3),
        (6, 2, 8, 3),
        (6, 3, 9, 4),
    ],
)
def test_mc_5_3_water_totals_2_3_5_6_8_9_give_1_2_2_3_3_4_squares(make_force, face, weather, total, squares):
    roll = water_movement_check(make_force(), Cell(), SEA, weather=weather).roll(ScriptedDice([face]), KEY)
    assert (roll.total, roll.value) == (total, squares)
    assert water_allowance(roll, SEA) == squares


def test_mc_5_3_no_water_move_covers_more_than_four_squares(rules):
    assert max_squares(rules, by_water=True) == 4


# --- modifiers -------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("route", "expected"),
    [
        pytest.param(WaterRoute("sea", wind="contrary"), [(-3, "contrary wind")], id="contrary-wind"),
        pytest.param(WaterRoute("sea", wind="calm"), [(-2, "dead calm")], id="dead-calm"),
        pytest.param(WaterRoute("sea", wind="favourable"), [(1, "favourable wind")], id="favourable-wind"),
        pytest.param(WaterRoute("sea", wind="none"), [], id="no-wind"),
        pytest.param(WaterRoute("sea", reefs=True), [(-1, "reefs, islands or atolls along the route")], id="reefs"),
        pytest.param(WaterRoute("sea", small_boats=True), [(-2, "boats smaller than ships")], id="small-boats"),
        pytest.param(WaterRoute("sea", horse_barges=True), [(-1, "barges or rafts for the horses")], id="horse-barges"),
        pytest.param(
            WaterRoute("sea", small_boats=True, horse_barges=True),
            [(-2, "boats smaller than ships"), (-1, "barges or rafts for the horses")],
            id="a-further-minus-1-for-horse-barges-in-small-boats",
        ),
    ],
)
def test_mc_5_3_each_sea_or_lake_modifier_applies(make_force, route, expected):
    check = water_movement_check(make_force(), Cell(), route)
    assert [(v, r) for v, _, r in _mods(check)] == expected
    assert all(rule == "MC-5.3" for _, rule, _ in _mods(check))


@pytest.mark.parametrize(
    ("route", "expected"),
    [
        pytest.param(WaterRoute("river", rapids=True), [(-3, "waterfalls or rapids (portage)")], id="rapids"),
        pytest.param(WaterRoute("river", upstream=True), [(-2, "upstream")], id="upstream"),
        pytest.param(
            WaterRoute("river", bridge=True), [(-1, "a bridge in the starting square or the next three")], id="bridge"
        ),
        pytest.param(WaterRoute("river", horse_barges=True), [(-1, "barges or rafts for the horses")], id="horse-barges"),
        pytest.param(WaterRoute("river", downstream=True), [(1, "downstream")], id="downstream"),
    ],
)
def test_mc_5_3_each_river_modifier_applies(make_force, route, expected):
    check = water_movement_check(make_force(), Cell(), route)
    assert [(v, r) for v, _, r in _mods(check)] == expected


def test_mc_5_3_river_conditions_do_not_count_at_sea(make_force):
    route = WaterRoute("sea", rapids=True, upstream=True, bridge=True)
    assert _mods(water_movement_check(make_force(), Cell(), route)) == []


def test_mc_5_3_sea_conditions_do_not_count_on_a_river(make_force):
    route = WaterRoute("river", wind="contrary", reefs=True, small_boats=True)
    assert _mods(water_movement_check(make_force(), Cell(), route)) == []


@pytest.mark.parametrize("route", [SEA, RIVER], ids=["sea", "river"])
@pytest.mark.parametrize(
    ("cell", "force_kwargs", "value", "reason"),
    [
        pytest.param(Cell(territory="austria"), {}, -1, "starts in enemy territory", id="enemy-territory"),
        pytest.param(Cell(territory="france"), {}, 1, "starts in friendly territory", id="friendly-territory"),
        pytest.param(Cell(), {"reaction": Reaction.UNSTEADY}, -2, "Force is Unsteady or Routed", id="unsteady"),
        pytest.param(Cell(), {"reaction": Reaction.ROUTED}, -2, "Force is Unsteady or Routed", id="routed"),
        pytest.param(Cell(), {"order": Order.FORCED_MARCH}, 2, "Forced March order", id="forced-march"),
    ],
)
def test_mc_5_3_each_modifier_common_to_sea_and_river_applies(make_force, route, cell, force_kwargs, value, reason):
    check = water_movement_check(make_force(**force_kwargs), cell, route)
    assert _mods(check) == [(value, "MC-5.3", reason)]
    assert check.roll(ScriptedDice([4]), KEY).total == 4 + value


@pytest.mark.parametrize("route", [SEA, RIVER], ids=["sea", "river"])
@pytest.mark.parametrize("weather", [-2, 1])
def test_mc_5_3_weather_counts_on_sea_and_river_alike(make_force, route, weather):
    check = water_movement_check(make_force(), Cell(), route, weather=weather, weather_label="Storm")
    assert _mods(check) == [(weather, "MC-10", "weather: Storm")]


def test_mc_5_3_a_defend_force_does_not_sail(make_force):
    with pytest.raises(RuleViolation, match="holds the Defend order and does not move"):
        water_movement_check(make_force(order=Order.DEFEND), Cell(), SEA)


# --- embarking and landing -------------------------------------------------------------------


@pytest.mark.parametrize(
    ("face", "weather", "embarking", "landing", "squares"),
    [
        pytest.param(2, 0, True, False, 1, id="total-2-embarking-keeps-its-one-square"),
        pytest.param(2, 0, True, True, 1, id="total-2-embarking-and-landing-keeps-its-one-square"),
        pytest.param(3, 0, False, False, 2, id="total-3-plain-move"),
        pytest.param(3, 0, True, False, 1, id="total-3-embarking-loses-a-square"),
        pytest.param(3, 0, False, True, 1, id="total-3-landing-loses-a-square"),
        pytest.param(3, 0, True, True, 1, id="total-3-both-never-below-one-square"),
        pytest.param(6, 0, True, True, 1, id="total-6-both-lose-two-squares"),
        pytest.param(6, 0, False, True, 2, id="total-6-landing"),
        pytest.param(6, 3, True, True, 2, id="total-9-both"),
    ],
)
def test_mc_5_3_embarking_and_landing_each_cost_a_square_from_a_total_of_3(make_force, face, weather, embarking, landing, squares):
    route = WaterRoute("sea", embarking=embarking, landing=landing)
    roll = water_movement_check(make_force(), Cell(), route, weather=weather).roll(ScriptedDice([face]), KEY)
    assert water_allowance(roll, route) == squares


# --- routes read off the map -----------------------------------------------------------------


def river_map(make_map, flow="S", extra=None):
    cells = {f"C{r}": Cell(Terrain.OPEN, frozenset({Feature.RIVER}), river_flow=flow) for r in range(1, 10)}
    cells.update(extra or {})
    return make_map(10, 10, cells)


def test_mc_5_3_moving_with_the_flow_is_downstream(make_map):
    route = river_route(river_map(make_map), sq("C3"), [sq("C4"), sq("C5")])
    assert (route.downstream, route.upstream) == (True, False)


def test_mc_5_3_moving_against_the_flow_is_upstream(make_map):
    route = river_route(river_map(make_map), sq("C5"), [sq("C4"), sq("C3")])
    assert (route.downstream, route.upstream) == (False, True)


def test_mc_5_3_a_diagonal_flow_is_read_both_ways(make_map):
    cmap = make_map(10, 10, {"C3": Cell(features=frozenset({Feature.RIVER}), river_flow="NE")})
    assert river_route(cmap, sq("C3"), [sq("D2")]).downstream
    assert river_route(cmap, sq("C3"), [sq("B4")]).upstream


def test_mc_5_3_a_river_without_a_flow_is_neither_up_nor_downstream(make_map):
    route = river_route(river_map(make_map, flow=None), sq("C3"), [sq("C4")])
    assert not route.upstream and not route.downstream


def test_mc_5_3_rapids_anywhere_on_the_route_force_a_portage(make_map):
    cmap = river_map(make_map, extra={"C6": Cell(features=frozenset({Feature.RIVER, Feature.RAPIDS}))})
    assert river_route(cmap, sq("C3"), [sq("C4"), sq("C5"), sq("C6")]).rapids
    assert not river_route(cmap, sq("C3"), [sq("C4"), sq("C5")]).rapids


@pytest.mark.parametrize(("bridge", "counts"), [("C3", True), ("C6", True), ("C7", False)])
def test_mc_5_3_a_bridge_counts_in_the_starting_square_or_the_next_three(make_map, bridge, counts):
    cmap = river_map(make_map, extra={bridge: Cell(features=frozenset({Feature.RIVER, Feature.BRIDGE}))})
    route = river_route(cmap, sq("C3"), [sq("C4"), sq("C5"), sq("C6"), sq("C7")])
    assert route.bridge is counts


def test_mc_5_3_reefs_anywhere_along_a_sea_route_count(make_map):
    cmap = make_map(10, 10, {"E5": Cell(Terrain.SEA, frozenset({Feature.REEFS}))})
    assert sea_route(cmap, sq("C5"), [sq("D5"), sq("E5")], wind="favourable").reefs
    assert not sea_route(cmap, sq("C5"), [sq("D5")]).reefs


def test_a_river_route_needs_at_least_one_square(make_map):
    with pytest.raises(InvalidInput, match=re.escape("A river move needs at least one square.")):
        river_route(make_map(), sq("C3"), [])


def test_a_water_route_is_by_sea_or_by_river():
    with pytest.raises(InvalidInput, match=re.escape("Water movement is by 'sea' (or lake) or 'river', not 'canal'.")):
        WaterRoute("canal")  # type: ignore[arg-type]


def test_a_river_move_cannot_be_both_upstream_and_downstream():
    with pytest.raises(InvalidInput, match="both upstream and downstream"):
        WaterRoute("river", upstream=True, downstream=True)


def test_a_declared_water_move_records_the_allowance_after_embarking(make_force, make_map):
    cmap = make_map(10, 10, {f"{c}5": Cell(Terrain.SEA) for c in "DEFGH"})
    force = make_force(square="C5")
    route = sea_route(cmap, force.square, [sq("D5")], wind="favourable", embarking=True)
    move = declare_water_move(force, cmap, [sq("D5"), sq("E5"), sq("F5")], route, ScriptedDice([5]), KEY)
    assert move.roll.total == 6  # 5 + 1 favourable wind
    assert move.allowance == 2  # three squares, one lost to embarking
    assert move.by_water
    assert move.reach == (sq("D5"), sq("E5"))


def test_a_water_path_longer_than_four_squares_is_refused(make_force, make_map):
    force = make_force(square="A5")
    path = [sq(f"{c}5") for c in "BCDEF"]
    with pytest.raises(InvalidInput, match=r"The path names 5 squares: a move by water covers at most 4 \(MC-5.3\)."):
        declare_water_move(force, make_map(), path, SEA, ScriptedDice([6]), KEY)


# --- what a water path may be (MC-5.3; issue 21, item 3) -------------------------------------
#
#   A B C D E F
# 1 . . S S . .      the sea: C1, D1, C2, D2
# 2 . . S S . .
# 3 . r r r . .      a river: B3, C3, D3 (flowing east)


def coast_map(make_map):
    river = frozenset({Feature.RIVER})
    cells = {s: Cell(Terrain.SEA) for s in ("C1", "D1", "C2", "D2")}
    cells |= {s: Cell(Terrain.OPEN, river, river_flow="E") for s in ("B3", "C3", "D3")}
    return make_map(6, 3, cells)


def path(text: str) -> list[Square]:
    return [sq(s) for s in text.split()]


@pytest.mark.parametrize(("start", "steps"), [
    pytest.param("B1", "C1 D1", id="embarks-and-stays-afloat"),
    pytest.param("B1", "C1 D1 E1", id="embarks-sails-and-lands-on-its-last-square"),
    pytest.param("C1", "D1 D2", id="afloat-sails-on"),
    pytest.param("C1", "B1", id="afloat-lands-at-once"),
    pytest.param("B3", "C3 D3", id="along-the-river"),
    pytest.param("D3", "C3 B3", id="up-the-river"),
])
def test_mc_5_3_a_water_path_follows_the_water_or_the_river(make_map, start, steps):
    check_water_path(coast_map(make_map), sq(start), path(steps))


@pytest.mark.parametrize(("start", "steps", "refusal"), [
    pytest.param("B3", "C3 D3 E3", "E3 has no river", id="a-river-move-leaves-the-river"),
    pytest.param("A2", "B3 C3", "A2 has no river", id="a-river-move-starts-off-the-river"),
    pytest.param("A1", "B1 B2", "A1 has no river", id="a-river-move-over-dry-land"),
    pytest.param("B1", "C1 D1 E1 F1", "E1 is open", id="a-sea-path-through-a-land-square"),
    pytest.param("A1", "B1 C1", "B1 is open", id="embarks-from-a-square-not-beside-the-water"),
    pytest.param("C1", "B1 A1", "B1 is open", id="afloat-lands-then-marches-on"),
    pytest.param("B3", "C3 C2", "C3 is open", id="down-the-river-into-the-sea"),
])
def test_mc_5_3_a_water_path_off_the_water_is_refused_naming_the_square(make_map, start, steps, refusal):
    with pytest.raises(RuleViolation, match=re.escape(refusal)) as exc:
        check_water_path(coast_map(make_map), sq(start), path(steps))
    assert "MC-5.3" in str(exc.value)


def test_mc_5_3_a_force_afloat_does_not_march_ashore(make_map):
    """MC-5.3's landing rule: a Force at sea lands by a move by water (one square shorter), not by a
    march."""
    with pytest.raises(RuleViolation, match=re.escape("C1 is sea")) as exc:
        check_land_path(coast_map(make_map), sq("C1"), path("B1"))
    assert "MC-5.3" in str(exc.value)
    check_land_path(coast_map(make_map), sq("B1"), path("A1"))  # from land, a march is a march


def test_mc_5_3_a_force_afloat_lands_by_a_sea_move(make_map):
    cmap = coast_map(make_map)
    route = water_route(cmap, sq("C1"), path("B1"))
    assert (route.body, route.embarking, route.landing) == ("sea", False, True)
    assert water_route(cmap, sq("C1"), path("D1")).body == "sea"


def test_a_declared_water_move_checks_its_path(make_force, make_map):
    force = make_force(square="B3")
    with pytest.raises(RuleViolation, match="E3 has no river"):
        declare_water_move(force, coast_map(make_map), path("C3 D3 E3"), RIVER, ScriptedDice([6]), KEY)
