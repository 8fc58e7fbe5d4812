"""Place names (``map.places``, issue 15) go with the campaign: created from a scenario, saved and loaded
again from the database (SQLite and PostgreSQL), exported and imported; the codec checks them."""

from __future__ import annotations

import copy

import pytest
import yaml

from bot.campaign import codec
from bot.engine.errors import InvalidInput
from bot.engine.model import Place, PlaceKind, Square
from bot.scenario import load_bundled
from bot.services import campaigns, exchange
from bot.store import repository
from bot.store.db import Database
from tests.scenario.conftest import minimal

from .conftest import GM

PLACES = {"A1": "Paris", "B2": {"name": "Po", "kind": "river"}, "C2": {"name": "Mantua", "kind": "fortress"},
          "B3": {"name": "Colle di Tenda", "kind": "pass"}, "D1": {"name": "Ligurian Sea", "kind": "region"}}
EXPECTED = {Square.parse("A1"): Place("Paris", PlaceKind.TOWN), Square.parse("B2"): Place("Po", PlaceKind.RIVER),
            Square.parse("C2"): Place("Mantua", PlaceKind.FORTRESS),
            Square.parse("B3"): Place("Colle di Tenda", PlaceKind.PASS),
            Square.parse("D1"): Place("Ligurian Sea", PlaceKind.REGION)}


def scenario_text() -> str:
    data = minimal()
    data["map"]["places"] = PLACES
    return yaml.safe_dump(data, allow_unicode=True)


async def created(db: Database, channel: int = 2) -> int:
    c = await campaigns.create_campaign(db, guild_id=1, channel_id=channel, gm=GM, name="Places",
                                        scenario_text=scenario_text())
    return c.campaign_id


async def loaded_map(db: Database, cid: int):
    repository.forget_map(cid)  # from the rows, not the map kept at creation
    async with db.sessions() as s:
        return (await repository.load(s, cid)).state.map


async def test_a_campaign_keeps_its_places_through_save_and_load(db: Database) -> None:
    cid = await created(db)
    cmap = await loaded_map(db, cid)
    assert dict(cmap.places()) == EXPECTED
    assert cmap.cell(Square.parse("A1")).stronghold == "fr"  # the rest of the square is still there
    async with db.transaction() as s:  # a save of the loaded state leaves them as they are
        loaded = await repository.load(s, cid, lock=True)
        await repository.save(s, loaded, loaded.state.evolve(turn=loaded.state.turn))
    assert dict((await loaded_map(db, cid)).places()) == EXPECTED


async def test_a_bundled_scenario_loads_with_the_places_it_has(db: Database) -> None:
    c = await campaigns.create_campaign(db, guild_id=1, channel_id=3, gm=GM, name="Ulm", scenario="tutorial")
    cmap = await loaded_map(db, c.campaign_id)
    assert cmap == load_bundled("tutorial").map  # places or none, and everything else, as the scenario has it


async def test_export_and_import_keep_the_places(db: Database) -> None:
    cid = await created(db)
    exported = await exchange.export_campaign(db, cid, GM)
    cells = {c["square"]: c["place"] for c in exported["state"]["map"]["cells"]}
    assert cells["B2"] == {"name": "Po", "kind": "river"} and cells["A1"] == {"name": "Paris", "kind": "town"}
    assert cells["C1"] is None  # a square stored for its terrain, without a place: written as null
    done = await exchange.import_campaign(db, exchange.export_bytes(exported), guild_id=10, channel_id=99, gm=GM)
    assert dict((await loaded_map(db, done.campaign_id)).places()) == EXPECTED
    again = await exchange.export_campaign(db, done.campaign_id, GM)
    assert again["state"]["map"] == exported["state"]["map"]


async def test_the_codec_checks_places(db: Database) -> None:
    cid = await created(db)
    async with db.sessions() as s:
        state = (await repository.load(s, cid)).state
    doc = codec.encode(state)
    assert codec.decode(doc).map == state.map
    i = next(i for i, c in enumerate(doc["map"]["cells"]) if c["square"] == "B2")

    def refused(place: object) -> str:
        broken = copy.deepcopy(doc)
        broken["map"]["cells"][i]["place"] = place
        with pytest.raises(InvalidInput) as exc:
            codec.decode(broken)
        return str(exc.value)

    at = f"map.cells[{i}].place"
    assert refused({"name": "Po", "kind": "lake"}).startswith(f"{at}.kind: 'lake': not one of town, fortress")
    too_long = refused({"name": "x" * 41, "kind": "town"})
    assert too_long.startswith(f"{at}.name: 'xxx") and too_long.endswith("': a name is 1 to 40 characters")
    assert refused({"name": " ", "kind": "town"}) == f"{at}.name: ' ': a name is 1 to 40 characters"
    assert refused({"name": "Po"}) == f"{at}.kind: missing"
    assert refused({"name": "Po", "kind": "river", "size": 1}) == f"{at}: unknown field(s) size"
    assert refused("Po") == f"{at}: expected an object, got str"
    # A document written before places (no "place" in its cells) names none.
    old = copy.deepcopy(doc)
    for c in old["map"]["cells"]:
        del c["place"]
    assert list(codec.decode(old).map.places()) == []


async def test_migration_0010_adds_empty_places_to_an_old_map_and_goes_back(empty_db_url: str) -> None:
    from sqlalchemy import text

    from bot.store.migrate import downgrade, upgrade

    database = Database(empty_db_url)
    try:
        await downgrade(database.engine, "base")
        await upgrade(database.engine, "0009")
        async with database.engine.begin() as conn:  # a campaign and a square made under the old schema
            await conn.execute(text(
                "INSERT INTO campaign (id, guild_id, channel_id, name, scenario, gm_id, options, language, climate,"
                " start_date, turn, phase, version, status, holdings, map_width, map_height, adjacency, sight,"
                " created_at) VALUES (1, 1, 2, 'Old', 'tutorial', 3, '{}', 'en', 'temperate', '1805-10-07', 1, 1, 0,"
                " 'active', '{}', 12, 9, 8, 2, '2026-01-01 00:00:00+00:00')"))
            await conn.execute(text(
                "INSERT INTO map_square (campaign_id, col, row, terrain, features, capital)"
                " VALUES (1, 0, 0, 'hill', '[]', false)"))
        await upgrade(database.engine, "0010")
        async with database.engine.connect() as conn:
            rows = (await conn.execute(text("SELECT terrain, place, place_kind FROM map_square"))).all()
        assert [tuple(r) for r in rows] == [("hill", None, None)]
        await downgrade(database.engine, "0009")
        async with database.engine.connect() as conn:
            assert [tuple(r) for r in (await conn.execute(text("SELECT terrain FROM map_square"))).all()] == [("hill",)]
    finally:
        await database.dispose()
