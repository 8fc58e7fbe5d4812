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


async def solo(db: Database) -> tuple[int, Actor]:
    """A tutorial campaign whose GM plays France."""
    gm = Actor(1, name="GM")
    cid = (await campaigns.create_campaign(db, guild_id=1, channel_id=1, gm=gm, name="Solo",
                                           scenario="tutorial")).campaign_id
    await campaigns.join_side(db, cid, gm, "fr")
    return cid, gm


async def test_ru_26_solo_play_the_member_plays_one_side_and_the_gm_seats_the_general_on_the_other(
        tmp_path: Path, generals: None) -> None:
    db = Database(migrated_sqlite(tmp_path / "solo.db"))
    try:
        cid, gm = await solo(db)
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


async def _general_has_acted(db: Database, unmanned: str) -> tuple[int, Actor]:
    """A tutorial campaign: the GM plays France, the general Austria, and has acted in Phase 1."""
    cid, gm = await solo(db)
    await campaigns.change_setting(db, cid, gm, "unmanned_sides", unmanned)
    await campaigns.seat_general(db, cid, gm, "au", True)
    sv = await views.status(db, cid, gm)
    await resolution.resolve_phase(db, cid, gm, expected_version=sv.version)
    assert [w.who for w in (await views.status(db, cid, gm)).waiting] == ["France"]
    return cid, gm


@pytest.mark.parametrize("taken_back", ["general_off", "member_joins"])
async def test_ru_26_a_side_taken_from_the_general_mid_phase_is_awaited_again(
        tmp_path: Path, generals: None, taken_back: str) -> None:
    """Issue 25: a campaign whose general is switched off mid-phase simply awaits that side again (with
    ``unmanned_sides: wait``; a member who joins it is awaited whatever the setting)."""
    db = Database(migrated_sqlite(tmp_path / "back.db"))
    try:
        cid, gm = await _general_has_acted(db, "wait" if taken_back == "general_off" else "hold")
        if taken_back == "general_off":
            await campaigns.seat_general(db, cid, gm, "au", False)
        else:
            await campaigns.join_side(db, cid, Actor(2, name="Karl"), "au")
        assert "au" not in general_sides(await shell.state(db, cid))
        assert sorted(w.who for w in (await views.status(db, cid, gm)).waiting) == ["Austria", "France"]
    finally:
        await db.dispose()


async def test_ru_26_a_side_taken_from_the_general_to_hold_is_not_awaited(tmp_path: Path, generals: None) -> None:
    """Switched off with ``unmanned_sides: hold``, the side holds: the phase waits only for the members."""
    db = Database(migrated_sqlite(tmp_path / "hold.db"))
    try:
        cid, gm = await _general_has_acted(db, "hold")
        await campaigns.seat_general(db, cid, gm, "au", False)
        assert [w.who for w in (await views.status(db, cid, gm)).waiting] == ["France"]
    finally:
        await db.dispose()


async def test_ru_26_the_general_seated_mid_phase_decides_off_the_event_loop(
        tmp_path: Path, generals: None, monkeypatch: pytest.MonkeyPatch) -> None:
    """Issue 25 item 4: the general's decisions never hold up the bot's event loop, whether it acts as a
    phase opens (the resolution's worker thread) or at once when the GM seats it or sets ``ai``."""
    import threading

    from bot.campaign import general as core_general
    from bot.services import campaigns as campaign_services
    from bot.services import general as general_services
    threads: list[int] = []

    def recorded(*args, **kwargs):  # type: ignore[no-untyped-def]
        threads.append(threading.get_ident())
        return core_general.act_all(*args, **kwargs)
    monkeypatch.setattr(campaign_services, "act_all", recorded)
    monkeypatch.setattr(general_services, "act_all", recorded)
    db = Database(migrated_sqlite(tmp_path / "thread.db"))
    try:
        cid, gm = await solo(db)
        await campaigns.seat_general(db, cid, gm, "au", True)
        await campaigns.change_setting(db, cid, gm, "unmanned_sides", "ai")
        await general.run(db, cid)
        assert len(threads) == 3 and threading.get_ident() not in threads
    finally:
        await db.dispose()
