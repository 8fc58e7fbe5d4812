"""Bundled scenarios (assets/maps): each one parses, fits the upload limit, takes valid campaign
options and puts every Force on land. The Italy 1796 map is checked for its size, its strongholds and
capitals, its orders of battle and the geography a player expects (sea in the south-west, the Alps in
the west and north, the Po flowing east, Mantua in the east)."""

from __future__ import annotations

from collections import Counter

import pytest
import yaml

from bot.campaign.lifecycle import check_options
from bot.engine.model import Feature, Square, Terrain
from bot.engine.tables import default_rulebook
from bot.scenario import MAX_BYTES, Scenario, bundled_scenarios, load_bundled

BUNDLED = sorted(bundled_scenarios())


def test_the_bundled_scenarios_include_the_tutorial_and_the_historical_campaigns() -> None:
    assert {"tutorial", "italy1796", "peninsula1810", "danube1809"} <= set(BUNDLED)


@pytest.mark.parametrize("key", BUNDLED)
def test_bundled_scenario_parses(key: str) -> None:
    s = load_bundled(key)
    assert s.key == key and s.name and s.forces


@pytest.mark.parametrize("key", BUNDLED)
def test_bundled_scenario_fits_the_upload_limit(key: str) -> None:
    assert bundled_scenarios()[key].stat().st_size <= MAX_BYTES


@pytest.mark.parametrize("key", BUNDLED)
def test_bundled_scenario_text_is_kept_whole(key: str) -> None:
    # The parser silently keeps the first 2,000 characters of a description and 40 of a nation.
    data = yaml.safe_load(bundled_scenarios()[key].read_text(encoding="utf-8"))
    assert len(data.get("description", "")) <= 2000
    assert all(len(side.get("nation", "")) <= 40 for side in data["sides"])


@pytest.mark.parametrize("key", BUNDLED)
def test_bundled_scenario_options_are_campaign_options(key: str) -> None:
    s = load_bundled(key)
    rules = default_rulebook()
    assert set(check_options(dict(s.options), rules)) == set(rules.mc.options)


@pytest.mark.parametrize("key", BUNDLED)
def test_bundled_scenario_forces_start_on_land_inside_the_map(key: str) -> None:
    s = load_bundled(key)
    for f in s.forces:
        assert s.map.contains(f.square), f.key
        assert not s.map.cell(f.square).terrain.is_water, f.key


@pytest.mark.parametrize("key", BUNDLED)
def test_bundled_scenario_every_side_has_forces_and_at_most_one_capital(key: str) -> None:
    s = load_bundled(key)
    for side in s.sides:
        assert any(f.side == side.key and f.arrives_turn is None for f in s.forces), side.key
        capitals = [sq for sq, c in s.map.cells.items() if c.capital and c.stronghold == side.key]
        assert len(capitals) <= 1, side.key


def hostile(s: Scenario, side: str, owner: str | None) -> bool:
    """Whether ``owner`` (a territory's or a stronghold's side) is of another camp than ``side`` (RU-19)."""
    return owner is not None and s.camp_of(owner) != s.camp_of(side)


@pytest.mark.parametrize("key", BUNDLED)
def test_no_force_starts_or_arrives_on_a_stronghold_of_the_enemy_mc_9(key: str) -> None:
    """A Force on an enemy stronghold takes it at the first count (after Phase 2, or after its arrival):
    its owner would have to test its Will to Fight (MC-9) before anyone had given an order."""
    s = load_bundled(key)
    on_enemy = [f"{f.key} at {f.square}" for f in s.forces if hostile(s, f.side, s.map.cell(f.square).stronghold)]
    assert on_enemy == []


# Capitals history puts in an ally's territory, and the words of the description that say why.
ALLIED_CAPITALS = {"danube1809": ({"fr"}, "Donauwörth (capital, the imperial headquarters)")}


@pytest.mark.parametrize("key", BUNDLED)
def test_every_capital_lies_in_its_own_sides_territory_or_the_description_says_why(key: str) -> None:
    s = load_bundled(key)
    sides, why = ALLIED_CAPITALS.get(key, (set(), ""))
    elsewhere = {cell.stronghold for cell in s.map.cells.values() if cell.capital and cell.territory != cell.stronghold}
    assert elsewhere == sides
    for sq, cell in s.map.cells.items():
        if cell.capital:
            assert cell.stronghold is not None and not hostile(s, cell.stronghold, cell.territory), (sq, cell.territory)
    assert why in " ".join(s.description.split())


@pytest.mark.parametrize("key", BUNDLED)
def test_reinforcements_arrive_on_ground_of_their_own_camp_or_no_one(key: str) -> None:
    s = load_bundled(key)
    on_enemy = [f"{f.key} at {f.square}" for f in s.forces
                if f.arrives_turn is not None and hostile(s, f.side, s.map.cell(f.square).territory)]
    assert on_enemy == []


# The Forces history puts on the enemy's ground at the start, and the words of the scenario's
# description that say why (issue "Campaigns that end", item 7).
ON_ENEMY_GROUND = {
    "tutorial": (set(), ""),
    "italy1796": ({"massena", "serurier"}, "on Piedmontese ground"),
    "peninsula1810": ({"ney"}, "on Portuguese ground"),
    "danube1809": ({"charles", "hohenzollern", "rosenberg", "louis", "hiller", "jellacic", "kollowrat", "bellegarde"},
                   "invaded Bavaria"),
}


@pytest.mark.parametrize("key", BUNDLED)
def test_forces_that_start_on_enemy_ground_are_the_ones_the_description_explains(key: str) -> None:
    s = load_bundled(key)
    forces, why = ON_ENEMY_GROUND[key]
    assert {f.key for f in s.forces if f.arrives_turn is None
            and hostile(s, f.side, s.map.cell(f.square).territory)} == forces
    assert why in " ".join(s.description.split())


# --- Italy 1796 --------------------------------------------------------------------------------


@pytest.fixture(scope="module")
def italy() -> Scenario:
    return load_bundled("italy1796")


def at(name: str) -> Square:
    return Square.parse(name)


def test_italy_is_at_least_30_by_20(italy: Scenario) -> None:
    assert italy.map.width >= 30 and italy.map.height >= 20


def test_italy_is_bonapartes_1796_campaign(italy: Scenario) -> None:
    assert italy.climate.value == "mediterranean"
    assert italy.start_date.isoformat() == "1796-04-10"
    assert [s.key for s in italy.sides] == ["fr", "au", "pi"]
    assert "Lodi" in italy.description and "Montenotte" in italy.description
    assert set(italy.supply) == {"fr", "au", "pi"} and all(v > 0 for v in italy.supply.values())


def test_italy_every_side_has_strongholds_and_a_capital(italy: Scenario) -> None:
    forts = Counter(c.stronghold for c in italy.map.cells.values() if c.stronghold)
    capitals = {c.stronghold: sq.name for sq, c in italy.map.cells.items() if c.capital}
    assert all(forts[s.key] >= 2 for s in italy.sides), forts
    assert capitals == {"fr": "C26", "pi": "F11", "au": "R6"}  # Nice, Turin, Milan


@pytest.mark.parametrize(("square", "side"), [
    ("C26", "fr"), ("L19", "fr"),  # Nice, Savona-Vado
    ("F11", "pi"), ("E18", "pi"), ("I18", "pi"), ("M13", "pi"), ("O13", "pi"),  # Turin, Cuneo, Ceva, Alessandria, Tortona
    ("R6", "au"), ("R10", "au"), ("W10", "au"), ("AE10", "au"),  # Milan, Pavia, Pizzighettone, Mantua
])
def test_italy_strongholds(italy: Scenario, square: str, side: str) -> None:
    assert italy.map.cell(at(square)).stronghold == side


def test_italy_all_forces_on_land(italy: Scenario) -> None:
    for f in italy.forces:
        assert not italy.map.cell(f.square).terrain.is_water, (f.key, f.square)


def test_italy_orders_of_battle(italy: Scenario) -> None:
    leaders = {f.leader.name: f.leader.cv for f in italy.forces}
    assert leaders["Bonaparte"] == 4 and leaders["Masséna"] == 3
    assert {leaders[n] for n in ("Augereau", "Sérurier", "Laharpe", "Colli")} == {2}
    assert {leaders[n] for n in ("Beaulieu", "Argenteau", "Provera")} == {1}
    assert all(0 <= cv <= 4 for cv in leaders.values())
    units = [u for f in italy.forces for u in f.units]
    assert all(1 <= u.sp <= 12 for u in units)
    assert any(u.mercenary for u in units)
    assert any(not u.flag and u.type.value == "infantry" for u in units)  # light troops carry no colours
    assert {u.type.value for u in units} == {"infantry", "cavalry", "artillery"}
    sides_of = {f.key: f.side for f in italy.forces}
    assert sides_of["provera"] == "pi" and sides_of["beaulieu"] == "au" and sides_of["massena"] == "fr"


def test_italy_reinforcements_arrive_later(italy: Scenario) -> None:
    later = {f.key: (f.side, f.arrives_turn) for f in italy.forces if f.arrives_turn is not None}
    assert later == {"kilmaine": ("fr", 3), "tyrol": ("au", 5)}


def test_italy_sea_lies_in_the_south_west(italy: Scenario) -> None:
    sea = [sq for sq, c in italy.map.cells.items() if c.terrain is Terrain.SEA]
    assert sea and all(sq.row >= italy.map.height // 2 for sq in sea)  # no sea in the north
    assert sum(sq.col for sq in sea) / len(sea) < italy.map.width * 0.6


def test_italy_alps_in_the_west_and_north(italy: Scenario) -> None:
    cmap = italy.map
    west = [cmap.cell(Square(0, r)).terrain for r in range(cmap.height - 2)]
    north = [cmap.cell(Square(c, 0)).terrain for c in range(cmap.width)]
    assert west.count(Terrain.MOUNTAIN) >= len(west) * 0.8
    assert north.count(Terrain.MOUNTAIN) >= len(north) * 0.7


def test_italy_po_flows_east_across_the_middle(italy: Scenario) -> None:
    cmap = italy.map
    river = {sq: c.river_flow for sq, c in cmap.cells.items() if c.has(Feature.RIVER)}
    assert all(river.values()), "every river square has a flow"
    turin, pavia, cremona = at("F11"), at("R10"), at("Y10")
    for sq in (turin, pavia, cremona):
        assert "E" in (river.get(sq) or ""), sq  # NE, E or SE
    middle = [sq for sq in river if cmap.height // 3 <= sq.row <= 2 * cmap.height // 3]
    assert {sq.col for sq in middle} >= set(range(4, cmap.width)), "a river crosses the middle from west to east"


def test_italy_mantua_is_east_of_milan_east_of_turin(italy: Scenario) -> None:
    assert at("F11").col < at("R6").col < at("AE10").col


@pytest.mark.parametrize(("square", "features"), [
    ("U8", {Feature.RIVER, Feature.ROAD, Feature.BRIDGE}),  # Lodi on the Adda
    ("R10", {Feature.RIVER, Feature.ROAD, Feature.BRIDGE}),  # Pavia on the Ticino and the Po
    ("F11", {Feature.RIVER, Feature.ROAD, Feature.BRIDGE}),  # Turin on the Po
    ("T4", {Feature.RIVER, Feature.RAPIDS}),  # the Adda at Paderno
])
def test_italy_crossings(italy: Scenario, square: str, features: set[Feature]) -> None:
    assert features <= italy.map.cell(at(square)).features


def test_italy_territories(italy: Scenario) -> None:
    cmap = italy.map
    assert cmap.cell(at("J22")).territory == "fr"  # Albenga
    assert cmap.cell(at("I18")).territory == "pi"  # Ceva
    assert cmap.cell(at("R6")).territory == "au"  # Milan
    assert cmap.cell(at("P18")).territory is None  # Genoa, neutral
    assert cmap.cell(at("V11")).territory is None  # Piacenza (Parma), neutral
    owned = Counter(c.territory for c in cmap.cells.values() if c.territory)
    assert all(owned[s.key] >= 20 for s in italy.sides), owned


def test_italy_has_roads_tracks_and_reefs(italy: Scenario) -> None:
    feats = Counter(f for c in italy.map.cells.values() for f in c.features)
    assert feats[Feature.ROAD] >= 60 and feats[Feature.CARAVAN_TRACK] >= 20
    assert feats[Feature.REEFS] >= 1 and feats[Feature.BRIDGE] >= 10
