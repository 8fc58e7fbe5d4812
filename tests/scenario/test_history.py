"""The historical scenarios (assets/maps): every bundled scenario makes a campaign that plays a turn,
and the maps keep their geography: named places on land, rivers on river squares, the Po valley flat,
the Riviera on the sea, Lisbon on the Tagus behind its Lines, the Danube flowing east by Regensburg.
Squares come from the towns' latitude and longitude at each map's stated scale (its description)."""

from __future__ import annotations

from collections import Counter
from collections.abc import AsyncIterator

import pytest

from bot.engine.cc_model import Theatre
from bot.engine.glory import nation_of
from bot.engine.grid import CampaignMap
from bot.engine.model import Feature, PlaceKind, Square, Terrain
from bot.scenario import Scenario, bundled_scenarios, load_bundled
from bot.services import campaigns, resolution, views
from bot.services.actors import Actor
from bot.store.db import Database
from tests.databases import migrated_sqlite

BUNDLED = sorted(bundled_scenarios())
HISTORICAL = ["italy1796", "peninsula1810", "danube1809"]
GM = Actor(1001, name="Gina")
FLAT = {Terrain.OPEN, Terrain.CULTIVATED}


def at(name: str) -> Square:
    return Square.parse(name)


def places(s: Scenario) -> dict[str, list[Square]]:
    """Place name -> the squares that carry it (a river may be named on several)."""
    named: dict[str, list[Square]] = {}
    for sq, cell in s.map.cells.items():
        if cell.place:
            named.setdefault(cell.place.name, []).append(sq)
    return named


def square_of(s: Scenario, name: str) -> Square:
    (sq,) = places(s)[name]
    return sq


def terrain(s: Scenario, sq: Square) -> Terrain:
    return s.map.cell(sq).terrain


def neighbours(cmap: CampaignMap, sq: Square) -> list[Square]:
    return [Square(c, r) for c in range(sq.col - 1, sq.col + 2) for r in range(sq.row - 1, sq.row + 2)
            if (c, r) != (sq.col, sq.row) and 0 <= c < cmap.width and 0 <= r < cmap.height]


def on_the_coast(s: Scenario, sq: Square) -> bool:
    return not terrain(s, sq).is_water and any(terrain(s, n) is Terrain.SEA for n in neighbours(s.map, sq))


# --- every bundled scenario ------------------------------------------------------------------------


def test_the_historical_campaigns_are_bundled() -> None:
    assert set(HISTORICAL) <= set(BUNDLED)


@pytest.fixture
async def db(tmp_path) -> AsyncIterator[Database]:
    database = Database(migrated_sqlite(tmp_path / "history.db"))
    yield database
    await database.dispose()


@pytest.mark.parametrize("key", BUNDLED)
async def test_every_bundled_scenario_makes_a_campaign_that_plays_a_turn(db: Database, key: str) -> None:
    spec = load_bundled(key)
    created = await campaigns.create_campaign(db, guild_id=1, channel_id=2, gm=GM, name=spec.name[:60], scenario=key)
    assert created.sides == tuple((s.key, s.name) for s in spec.sides)
    for _ in range(12):  # weather, orders, movement... until turn 2 begins; nobody plays, the GM forces each phase
        st = await views.status(db, created.campaign_id, GM)
        if st.position.turn == 2:
            break
        await resolution.resolve_phase(db, created.campaign_id, GM, expected_version=st.version, forced=True)
    st = await views.status(db, created.campaign_id, GM)
    assert st.position.turn == 2, st.position
    assert [k for k, _, _ in st.sides] == [s.key for s in spec.sides]


@pytest.mark.parametrize("key", BUNDLED)
def test_named_places_stand_where_they_can(key: str) -> None:
    s = load_bundled(key)
    for sq, cell in s.map.cells.items():
        if not cell.place:
            continue
        kind, name = cell.place.kind, cell.place.name
        assert 1 <= len(name) <= 40, (sq, name)
        if kind in (PlaceKind.TOWN, PlaceKind.FORTRESS, PlaceKind.PASS):
            assert not cell.terrain.is_water, (sq, name)
        if kind is PlaceKind.RIVER:
            assert cell.has(Feature.RIVER), (sq, name)


@pytest.mark.parametrize("key", BUNDLED)
def test_bridges_stand_on_rivers_and_roads(key: str) -> None:
    s = load_bundled(key)
    for sq, cell in s.map.cells.items():
        if cell.has(Feature.BRIDGE):
            assert cell.has(Feature.RIVER) and cell.has(Feature.ROAD), sq


@pytest.mark.parametrize("key", HISTORICAL)
def test_historical_scenarios_state_their_sources_and_sizes(key: str) -> None:
    s = load_bundled(key)
    assert "Sources:" in s.description and "Chandler" in s.description
    assert 30 <= s.map.width <= 40 and 20 <= s.map.height <= 30
    assert len(places(s)) >= 40
    strongholds = Counter(c.stronghold for c in s.map.cells.values() if c.stronghold)
    assert all(strongholds[side.key] >= 1 for side in s.sides), strongholds
    units = [u for f in s.forces for u in f.units]
    assert all(1 <= u.sp <= 12 for u in units)
    assert {u.type.value for u in units} == {"infantry", "cavalry", "artillery"}


@pytest.mark.parametrize("key", HISTORICAL)
def test_historical_strongholds_carry_their_names(key: str) -> None:
    s = load_bundled(key)
    for sq, cell in s.map.cells.items():
        if cell.stronghold:
            assert cell.place and cell.place.kind in (PlaceKind.TOWN, PlaceKind.FORTRESS), sq


# --- Italy 1796 ------------------------------------------------------------------------------------


@pytest.fixture(scope="module")
def italy() -> Scenario:
    return load_bundled("italy1796")


ITALY_TOWNS = {
    "Genoa": "P18", "Savona": "L19", "Nice": "C26", "Montenotte": "L18", "Dego": "K18", "Millesimo": "J19",
    "Ceva": "I18", "Mondovì": "G18", "Cherasco": "G16", "Cuneo": "E18", "Turin": "F11", "Alessandria": "M13",
    "Tortona": "O13", "Valenza": "N11", "Pavia": "R10", "Piacenza": "V11", "Milan": "R6", "Lodi": "U8",
    "Cremona": "Y10", "Pizzighettone": "W10", "Mantua": "AE10", "Verona": "AF7", "Parma": "AA14",
}


@pytest.mark.parametrize(("town", "square"), sorted(ITALY_TOWNS.items()))
def test_italy_names_the_towns_of_the_campaign(italy: Scenario, town: str, square: str) -> None:
    assert square_of(italy, town) == at(square)


def test_italy_names_its_rivers_on_their_squares(italy: Scenario) -> None:
    named = places(italy)
    for river in ("Po", "Tanaro", "Bormida", "Scrivia", "Ticino", "Adda", "Oglio", "Mincio", "Adige", "Sesia", "Trebbia"):
        assert named.get(river), river
        assert all(italy.map.cell(sq).has(Feature.RIVER) for sq in named[river]), river


def test_italy_the_lombard_plain_and_the_po_valley_are_flat(italy: Scenario) -> None:
    for town in ("Milan", "Lodi", "Pavia", "Piacenza", "Cremona", "Pizzighettone", "Turin", "Alessandria", "Mantua"):
        assert terrain(italy, square_of(italy, town)) in FLAT, town
    # the Po from Pavia to Cremona, and the plain between Milan, Lodi and the Po
    po = [sq for sq, c in italy.map.cells.items() if c.has(Feature.RIVER) and at("R10").col <= sq.col <= at("Y10").col
          and 9 <= sq.row <= 10]
    assert len(po) >= 7
    assert all(terrain(italy, sq) in FLAT for sq in po), po
    for sq in ("R7", "R8", "R9", "S8", "T8", "T9", "U9", "V9", "W9", "X9"):
        assert terrain(italy, at(sq)) in FLAT, sq


def test_italy_hills_and_mountains_where_they_are(italy: Scenario) -> None:
    hilly = {Terrain.HILL, Terrain.MOUNTAIN}
    assert terrain(italy, at("E21")) is Terrain.MOUNTAIN  # Col di Tenda, the Maritime Alps
    assert terrain(italy, at("T15")) is Terrain.MOUNTAIN  # the Apennines above Bobbio
    for sq in ("M18", "K20", "P16", "S16", "W17"):  # the Ligurian Alps and the Apennines south of the Po
        assert terrain(italy, at(sq)) in hilly, sq
    assert all(terrain(italy, Square(0, r)) is Terrain.MOUNTAIN for r in range(0, 24))  # the Alps in the west
    assert all(terrain(italy, Square(c, 0)) in hilly | {Terrain.LAKE} for c in range(italy.map.width))


def test_italy_genoa_and_savona_are_on_the_coast_road(italy: Scenario) -> None:
    for town in ("Genoa", "Savona", "Nice", "Voltri", "Albenga", "Loano", "Oneglia"):
        sq = square_of(italy, town)
        assert on_the_coast(italy, sq), town
        assert italy.map.cell(sq).has(Feature.ROAD), town


def test_italy_lakes(italy: Scenario) -> None:
    for lake, squares in {"Lago Maggiore": ("M1", "M2", "M3"), "Lake Como": ("Q2", "S2"), "Lake Garda": ("AC5", "AD5", "AC6")}.items():
        assert all(terrain(italy, at(sq)) is Terrain.LAKE for sq in squares), lake


@pytest.mark.parametrize("town", ["Turin", "Alessandria", "Tortona", "Valenza", "Pavia", "Piacenza", "Lodi",
                                  "Pizzighettone", "Mantua", "Verona", "Cuneo", "Ceva", "Cherasco"])
def test_italy_roads_cross_rivers_on_bridges(italy: Scenario, town: str) -> None:
    cell = italy.map.cell(square_of(italy, town))
    assert {Feature.RIVER, Feature.ROAD, Feature.BRIDGE} <= cell.features, town


def test_italy_allies_and_capitals(italy: Scenario) -> None:
    assert italy.camp_of("au") == italy.camp_of("pi") != italy.camp_of("fr")
    capitals = {c.stronghold: sq for sq, c in italy.map.cells.items() if c.capital}
    assert capitals == {"fr": square_of(italy, "Nice"), "pi": square_of(italy, "Turin"), "au": square_of(italy, "Milan")}


# --- Portugal 1810 ---------------------------------------------------------------------------------


@pytest.fixture(scope="module")
def peninsula() -> Scenario:
    return load_bundled("peninsula1810")


def test_peninsula_is_fought_in_portugal_with_the_nations_of_ru17(peninsula: Scenario) -> None:
    assert peninsula.theatre is Theatre.PORTUGAL
    assert peninsula.start_date.isoformat() == "1810-08-15"
    nation = {s.key: s.nation for s in peninsula.sides}
    assert [s.key for s in peninsula.sides] == ["fr", "gb", "pt", "es"]
    assert nation_of(Theatre.PORTUGAL, nation["pt"]) and nation_of(Theatre.PORTUGAL, nation["gb"])  # Ordenanza
    assert not nation_of(Theatre.PORTUGAL, nation["fr"]) and not nation_of(Theatre.PORTUGAL, nation["es"])
    assert nation_of(Theatre.SPAIN, nation["es"])
    assert peninsula.camp_of("gb") == peninsula.camp_of("pt") == peninsula.camp_of("es") != peninsula.camp_of("fr")


def test_peninsula_capitals_and_strongholds(peninsula: Scenario) -> None:
    cells = peninsula.map.cells
    capitals = {c.stronghold: sq for sq, c in cells.items() if c.capital}
    assert capitals == {"fr": square_of(peninsula, "Salamanca"), "gb": square_of(peninsula, "São Julião da Barra"),
                        "pt": square_of(peninsula, "Lisbon"), "es": square_of(peninsula, "Badajoz")}
    held = {"fr": ["Ciudad Rodrigo"], "gb": ["Torres Vedras", "Sobral (Monte Agraço)", "Alhandra"],
            "pt": ["Almeida", "Abrantes", "Peniche", "Elvas", "Coimbra", "Porto"], "es": ["Olivenza", "Albuquerque"]}
    for side, towns in held.items():
        for town in towns:
            assert peninsula.map.cell(square_of(peninsula, town)).stronghold == side, town


def test_peninsula_geography(peninsula: Scenario) -> None:
    p = peninsula
    for town in ("Lisbon", "Porto", "Peniche", "Figueira da Foz", "São Julião da Barra"):
        assert on_the_coast(p, square_of(p, town)), town
    named = places(p)
    for town in ("Coimbra", "Almeida", "Ciudad Rodrigo", "Celorico", "Viseu", "Santarém", "Abrantes", "Torres Vedras",
                 "Badajoz", "Elvas", "Salamanca", "Guarda", "Leiria"):
        assert not terrain(p, square_of(p, town)).is_water, town
    # the Atlantic in the west, Spain's plateau in the east
    assert all(terrain(p, Square(0, r)) is Terrain.SEA for r in range(p.map.height) if r != 20)  # but Peniche's cape
    assert terrain(p, square_of(p, "Serra da Estrela")) is Terrain.MOUNTAIN
    assert terrain(p, square_of(p, "Bussaco ridge")) is Terrain.HILL
    for river in ("Tagus", "Mondego", "Douro", "Côa", "Zêzere", "Guadiana"):
        assert named.get(river), river
    for town in ("Coimbra", "Abrantes", "Porto", "Ciudad Rodrigo", "Badajoz"):
        assert {Feature.RIVER, Feature.ROAD, Feature.BRIDGE} <= p.map.cell(square_of(p, town)).features, town
    # Coimbra lies south-west of Almeida, Lisbon south-west of Coimbra, Salamanca east of Ciudad Rodrigo
    almeida, coimbra, lisbon = square_of(p, "Almeida"), square_of(p, "Coimbra"), square_of(p, "Lisbon")
    assert lisbon.col < coimbra.col < almeida.col and almeida.row < coimbra.row < lisbon.row
    assert square_of(p, "Salamanca").col > square_of(p, "Ciudad Rodrigo").col > almeida.col


def test_peninsula_territories(peninsula: Scenario) -> None:
    cell = lambda town: peninsula.map.cell(square_of(peninsula, town))  # noqa: E731
    assert cell("Coimbra").territory == "pt" and cell("Almeida").territory == "pt"
    assert cell("Lisbon").territory == "pt"  # Portugal's capital, inside the Lines
    assert cell("Sintra").territory == cell("Torres Vedras").territory == "gb"  # the army's base inside the Lines
    assert cell("Ciudad Rodrigo").territory == "fr" and cell("Salamanca").territory == "fr"
    assert cell("Badajoz").territory == "es"


def test_peninsula_forces(peninsula: Scenario) -> None:
    forces = {f.key: f for f in peninsula.forces}
    assert forces["almeida"].square == square_of(peninsula, "Almeida") and forces["almeida"].side == "pt"
    assert forces["massena"].square == square_of(peninsula, "Ciudad Rodrigo")
    assert forces["wellington"].square == square_of(peninsula, "Celorico")
    assert forces["wellington"].leader.cv == 4 and forces["massena"].leader.cv == 3
    sides = Counter(f.side for f in peninsula.forces if f.arrives_turn is None)
    assert all(sides[s.key] >= 2 for s in peninsula.sides), sides


# --- Bavaria 1809 ----------------------------------------------------------------------------------


@pytest.fixture(scope="module")
def danube() -> Scenario:
    return load_bundled("danube1809")


def test_danube_sides_and_allies(danube: Scenario) -> None:
    assert [s.key for s in danube.sides] == ["fr", "ba", "wu", "au"]
    assert danube.camp_of("fr") == danube.camp_of("ba") == danube.camp_of("wu") != danube.camp_of("au")
    assert danube.theatre is Theatre.OTHER and danube.climate.value == "continental"
    capitals = {c.stronghold: sq for sq, c in danube.map.cells.items() if c.capital}
    assert capitals == {"fr": square_of(danube, "Donauwörth"), "ba": square_of(danube, "Munich"),
                        "wu": square_of(danube, "Heidenheim"), "au": square_of(danube, "Braunau")}
    for town, side in {"Regensburg": "fr", "Ingolstadt": "ba", "Landshut": "ba", "Augsburg": "ba", "Passau": "ba",
                       "Schärding": "au", "Pilsen": "au"}.items():
        assert danube.map.cell(square_of(danube, town)).stronghold == side, town


def test_danube_geography(danube: Scenario) -> None:
    d = danube
    for town in ("Ulm", "Donauwörth", "Neuburg", "Ingolstadt", "Regensburg", "Straubing", "Passau"):
        cell = d.map.cell(square_of(d, town))
        assert cell.has(Feature.RIVER) and "E" in (cell.river_flow or ""), town
        assert not cell.terrain.is_water, town
    for town in ("Landshut", "Munich", "Moosburg", "Freising"):  # on the Isar
        assert d.map.cell(square_of(d, town)).has(Feature.RIVER), town
    assert {Feature.RIVER, Feature.ROAD, Feature.BRIDGE} <= d.map.cell(square_of(d, "Regensburg")).features
    ulm, regensburg, passau = square_of(d, "Ulm"), square_of(d, "Regensburg"), square_of(d, "Passau")
    assert ulm.col < square_of(d, "Ingolstadt").col < regensburg.col < passau.col
    assert regensburg.row < square_of(d, "Landshut").row < square_of(d, "Munich").row  # Landshut south of Regensburg
    eckmuhl, abensberg = square_of(d, "Eckmühl"), square_of(d, "Abensberg")
    assert abensberg.col < eckmuhl.col and abs(eckmuhl.row - regensburg.row) <= 3
    assert terrain(d, square_of(d, "Bavarian Forest")) is Terrain.MOUNTAIN
    assert terrain(d, square_of(d, "Munich")) in FLAT and terrain(d, square_of(d, "Regensburg")) in FLAT
    assert not any(c.terrain is Terrain.SEA for c in d.map.cells.values())


def test_danube_forces(danube: Scenario) -> None:
    forces = {f.key: f for f in danube.forces}
    assert forces["davout"].square == square_of(danube, "Regensburg")
    assert forces["napoleon"].square == square_of(danube, "Donauwörth") and forces["napoleon"].leader.cv == 5
    assert forces["lefebvre"].side == "ba" and forces["vandamme"].side == "wu"
    # 15 April, before the Five Days: the Austrians across the Inn, not yet over the Isar nor in Munich
    assert danube.start_date.isoformat() == "1809-04-15"
    assert forces["jellacic"].square == square_of(danube, "Hohenlinden")  # Jellačić entered Munich on 16 April
    assert forces["deroy"].square == square_of(danube, "Landshut") and forces["deroy"].side == "ba"  # forced on the 16th
    assert forces["louis"].square == square_of(danube, "Vilsbiburg")
    assert forces["rosenberg"].square == square_of(danube, "Dingolfing")
    assert danube.map.cell(square_of(danube, "Braunau")).territory == "au"  # the Innviertel, Austrian 1779-1810
    later = {f.key: (f.side, f.arrives_turn) for f in danube.forces if f.arrives_turn is not None}
    assert later == {"guard": ("fr", 3), "landwehr": ("au", 4)}
