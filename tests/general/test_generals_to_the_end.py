"""The bot general through the services with a scripted battle reporter (:func:`bot.demo.stand_in_report`,
through the general's ``report_battle``): undo replays its choices, solo play with the GM seating it. Whole
campaigns played to their end with quick battles: :mod:`.test_whole_campaigns`."""

from __future__ import annotations

import hashlib
import itertools
from collections.abc import Iterator
from pathlib import Path

import pytest

from bot.campaign.seats import general_sides
from bot.campaign.state import CampaignState
from bot.demo import stand_in_report
from bot.services import campaigns, general, loading, logbook, resolution, shell, views
from bot.services.actors import Actor
from bot.store.db import Database
from tests.databases import migrated_sqlite


@pytest.fixture
def generals() -> Iterator[None]:
    counter = itertools.count(1)
    loading.use_seed_source(lambda: hashlib.sha256(f"generals/{next(counter)}".encode()).digest())
    general.use_reporter(lambda state, battle: stand_in_report(state, battle))
    yield
    general.use_reporter(None)
    loading.use_seed_source(None)


async def loading_state(db: Database, cid: int) -> CampaignState:
    return await shell.state(db, cid)


async def general_entries(db: Database, cid: int) -> list[str]:
    entries, _ = await logbook.full_record(db, cid)
    return [e.text for e in entries if "RU-26" in e.text]


async def test_ru_26_undo_then_resolving_again_gives_the_general_the_same_choices(tmp_path: Path,
                                                                                   generals: None) -> None:
    db = Database(migrated_sqlite(tmp_path / "undo.db"))
    try:
        gm = Actor(1, name="GM")
        cid = (await campaigns.create_campaign(db, guild_id=1, channel_id=1, gm=gm, name="Undo",
                                               scenario="italy1796", options={"unmanned_sides": "ai"})).campaign_id
        sv = await views.status(db, cid, gm)
        await resolution.resolve_phase(db, cid, gm, expected_version=sv.version)  # Phase 1 opens: the generals act
        sv = await views.status(db, cid, gm)
        first = await resolution.resolve_phase(db, cid, gm, expected_version=sv.version)  # Phase 2: they move
        assert first.generals and all(a.decisions for a in first.generals)
        before = await general_entries(db, cid)
        sv = await views.status(db, cid, gm)
        await resolution.undo(db, cid, gm, expected_version=sv.version)
        sv = await views.status(db, cid, gm)
        again = await resolution.resolve_phase(db, cid, gm, expected_version=sv.version)
        assert [a.decisions for a in again.generals] == [a.decisions for a in first.generals]
        after = await general_entries(db, cid)  # the log keeps the undone entries; the new ones repeat them
        redone = len(after) - len(before)
        assert redone > 0 and after[len(before):] == before[-redone:]
    finally:
        await db.dispose()


async def test_ru_26_solo_play_the_member_plays_one_side_and_the_gm_seats_the_general_on_the_other(
        tmp_path: Path, generals: None) -> None:
    db = Database(migrated_sqlite(tmp_path / "solo.db"))
    try:
        gm = Actor(1, name="GM")
        cid = (await campaigns.create_campaign(db, guild_id=1, channel_id=1, gm=gm, name="Solo",
                                               scenario="tutorial")).campaign_id
        await campaigns.join_side(db, cid, gm, "fr")
        assert await campaigns.seat_general(db, cid, gm, "au", True) == "Austria"
        sv = await views.status(db, cid, gm)
        res = await resolution.resolve_phase(db, cid, gm, expected_version=sv.version)
        assert [a.side for a in res.generals] == ["au"]
        sv = await views.status(db, cid, gm)
        assert [w.who for w in sv.waiting] == ["France"]  # the general has acted: only the member is awaited
        await campaigns.seat_general(db, cid, gm, "au", False)  # switched off mid-phase: Austria holds again
        state = await shell.state(db, cid)
        assert "au" not in general_sides(state)
    finally:
        await db.dispose()
