"""What the scenario format carries, through the services and the database (issue 21, item 6): a Force's
boats and horse rafts (MC-5.3) and the scenario's own weather, calendar and random-events tables (RU-10)
are kept with the campaign, played, exported and imported, verified and saved back. SQLite and PostgreSQL."""

from __future__ import annotations

import datetime as dt
import hashlib
import json

import pytest
import yaml

from bot.engine.phases import Phase
from bot.engine.verify import verify_log
from bot.scenario import parse_scenario_text
from bot.services import campaigns, exchange, logbook, views
from bot.store import repository
from tests.campaign.test_scenario_tables import START, scenario, winter
from tests.store.test_campaign_flow import advance

from .conftest import FRENCH, GM


@pytest.fixture(autouse=True)
def fixed_seeds(monkeypatch: pytest.MonkeyPatch) -> None:
    counter = iter(range(1, 10_000))
    monkeypatch.setattr(
        "bot.services.loading.new_turn_seed", lambda: hashlib.sha256(f"tables-{next(counter)}".encode()).digest()
    )


def text() -> str:
    data = scenario(**winter())
    data["forces"][0] |= {"small_boats": True, "horse_rafts": True}
    return yaml.safe_dump(data, sort_keys=False)


async def fresh_state(db, cid: int):
    """The campaign as the database holds it (not the read cache's)."""
    async with db.sessions() as s:
        return (await repository.load(s, cid)).state


async def test_the_scenarios_tables_and_boats_are_kept_played_exported_and_saved(db) -> None:
    spec = parse_scenario_text(text())
    created = await campaigns.create_campaign(db, guild_id=10, channel_id=30, gm=GM, name="Moscow",
                                              scenario="moscow", scenario_text=text())
    cid = created.campaign_id
    await campaigns.join_side(db, cid, FRENCH, "fr")
    state = await fresh_state(db, cid)
    assert state.tables == spec.tables and not state.tables.empty
    assert (state.forces["soult"].small_boats, state.forces["soult"].horse_rafts) == (True, True)

    while (await views.status(db, cid, GM)).position.turn < 2:
        await advance(db, cid, forced=True)
    status = await views.status(db, cid, FRENCH)
    assert (status.date, status.season, status.weather) == (START + dt.timedelta(days=14), "winter", "Blizzard")  # its label

    log = json.loads(dict(await logbook.verifier_files(db, cid))[f"roll-log-{cid}.json"])
    report = verify_log(log)
    weather = [r for r in log["rolls"] if r.get("name", "").startswith("Weather") and r["key"].startswith("t1/")]
    assert report.ok and weather and weather[0]["result"] == "blizzard"

    exported = await exchange.export_campaign(db, cid, GM)
    assert exported["state"]["tables"]["calendar"]["turn_days"] == 14
    assert exported["state"]["forces"][0]["small_boats"] is True
    done = await exchange.import_campaign(db, exchange.export_bytes(exported), guild_id=10, channel_id=31, gm=GM)
    imported = await fresh_state(db, done.campaign_id)
    assert imported.tables == state.tables and imported.forces["soult"].small_boats
    again = await exchange.export_campaign(db, done.campaign_id, GM)
    assert again["state"]["tables"] == exported["state"]["tables"]

    _, raw = await exchange.save_scenario(db, cid, GM)
    saved = parse_scenario_text(raw, key="saved")
    assert saved.tables == spec.tables
    assert next(f for f in saved.forces if f.key == "soult").small_boats


async def test_a_campaign_created_before_plays_the_house_rules(db) -> None:
    created = await campaigns.create_campaign(db, guild_id=10, channel_id=32, gm=GM, name="Ulm",
                                              scenario="tutorial")
    state = await fresh_state(db, created.campaign_id)
    assert state.tables.empty
    assert (await views.status(db, created.campaign_id, GM)).position.phase is Phase.WEATHER
