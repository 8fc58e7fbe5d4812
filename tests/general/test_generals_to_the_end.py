"""Whole campaigns played to the end by bot generals (issue 25 item 3, RU-25, RU-26): every side of each
bundled scenario left to the general (``unmanned_sides: ai``), battles settled by the tests' stand-in for
the table (:func:`bot.demo.stand_in_report`, through the general's ``report_battle``), the GM only
resolving phases that wait for nobody. It fails on a phase the generals leave stuck, an exception, an
action the core refused a general, or a campaign not ended within 60 turns."""

from __future__ import annotations

import hashlib
import itertools
from collections.abc import Iterator
from pathlib import Path

import pytest

from bot.campaign.state import CampaignStatus
from bot.demo import stand_in_report
from bot.scenario import bundled_scenarios
from bot.services import campaigns, general, loading, resolution, views
from bot.services.actors import Actor
from bot.store.db import Database
from tests.databases import migrated_sqlite

TURNS = 60
"""RU-25 within this many turns, or the test fails."""


@pytest.fixture
def generals() -> Iterator[None]:
    counter = itertools.count(1)
    loading.use_seed_source(lambda: hashlib.sha256(f"generals/{next(counter)}".encode()).digest())
    general.use_reporter(lambda state, battle: stand_in_report(state, battle))
    yield
    general.use_reporter(None)
    loading.use_seed_source(None)


async def play_out(db: Database, cid: int, gm: Actor) -> list[str]:
    """Resolve phase after phase, never forcing one: the generals must leave nothing to wait for.
    Returns every refusal a general met."""
    refused: list[str] = []
    while True:
        sv = await views.status(db, cid, gm)
        if sv.status != "active" or sv.position.turn > TURNS:
            return refused
        assert not sv.waiting, f"stuck at {sv.position}: waiting for {sv.waiting}"
        res = await resolution.resolve_phase(db, cid, gm, expected_version=sv.version)
        refused += [r for a in res.generals for r in a.refused]


@pytest.mark.parametrize("scenario", sorted(bundled_scenarios()))
async def test_ru_26_generals_on_every_side_play_each_bundled_scenario_to_its_end(
        scenario: str, tmp_path: Path, generals: None) -> None:
    db = Database(migrated_sqlite(tmp_path / "generals.db"))
    try:
        gm = Actor(1, name="GM")
        cid = (await campaigns.create_campaign(db, guild_id=1, channel_id=1, gm=gm, name="Generals",
                                               scenario=scenario, options={"unmanned_sides": "ai"})).campaign_id
        refused = await play_out(db, cid, gm)
        state = await loading_state(db, cid)
        assert refused == []
        assert state.status is CampaignStatus.ENDED, f"{scenario}: still running after {TURNS} turns"
        print(f"{scenario}: ended in turn {state.turn}")
    finally:
        await db.dispose()


async def loading_state(db: Database, cid: int):  # type: ignore[no-untyped-def]
    from bot.services import shell
    return await shell.state(db, cid)
