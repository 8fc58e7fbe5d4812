"""The scheduler's work list and the error records, on SQLite and PostgreSQL: a campaign whose
settings cannot be read is left out of the deadline listing (not the whole listing); a process
lists only the campaigns of guilds on its shards; error records are found by the GM of their
campaign only, and pruned by age and count."""

from __future__ import annotations

import datetime as dt

import pytest
from sqlalchemy import text

from bot.services import bookkeeping, campaigns, gm, operations
from bot.services.actors import Actor
from bot.services.errors import NotFound
from bot.settings import shard_of

from .conftest import GM, OUTSIDER

GUILDS = {0: (1 << 22) * 200_000_000_000 + 7, 1: (1 << 22) * 200_000_000_001 + 7}  # snowflake-sized, shards 0 and 1 of 2


async def campaign_with_deadline(db, guild_id: int, channel_id: int) -> int:
    cid = (await campaigns.create_campaign(db, guild_id=guild_id, channel_id=channel_id, gm=GM, name=f"C{channel_id}",
                                           scenario="tutorial")).campaign_id
    await gm.set_deadline(db, cid, GM, 5.0)
    return cid


async def test_a_campaign_with_malformed_settings_is_left_out_of_the_deadline_listing_only(db) -> None:
    good = await campaign_with_deadline(db, GUILDS[0], 21)
    bad = await campaign_with_deadline(db, GUILDS[0], 22)
    async with db.engine.begin() as conn:
        await conn.execute(text("UPDATE campaign_book SET settings = :o WHERE campaign_id = :id"), {"o": '5', "id": bad})
    failed: list[tuple[int, str]] = []
    listed = await bookkeeping.with_deadlines(db, on_error=lambda cid, exc: failed.append((cid, type(exc).__name__)))
    assert [m.campaign_id for m in listed] == [good]
    assert failed == [(bad, "TypeError")]
    assert [m.campaign_id for m in await bookkeeping.with_deadlines(db)] == [good]  # logged when no one listens


async def test_a_process_lists_the_campaigns_of_its_own_shards(db) -> None:
    assert shard_of(GUILDS[0], 2) == 0 and shard_of(GUILDS[1], 2) == 1 and GUILDS[1] > 2**32
    on0 = await campaign_with_deadline(db, GUILDS[0], 31)
    on1 = await campaign_with_deadline(db, GUILDS[1], 32)
    assert [m.campaign_id for m in await bookkeeping.with_deadlines(db, shards=(2, frozenset({0})))] == [on0]
    assert [m.campaign_id for m in await bookkeeping.with_deadlines(db, shards=(2, frozenset({1})))] == [on1]
    assert [m.campaign_id for m in await bookkeeping.with_deadlines(db)] == [on0, on1]


async def test_error_records_are_for_the_gm_of_their_campaign_and_bounded(db, monkeypatch: pytest.MonkeyPatch) -> None:
    cid = await campaign_with_deadline(db, GUILDS[1], 41)
    now = dt.datetime.now(dt.UTC)
    await operations.record_error(db, "deadbeef", command="campaign status", kind="RuntimeError", campaign_id=cid,
                                  guild_id=GUILDS[1], user_id=GM.member_id, now=now)
    await operations.record_error(db, "0badf00d", command="about", kind="RuntimeError", now=now)  # no campaign
    found = await operations.find_error(db, " `DEADBEEF` ", GM)
    assert (found.campaign_id, found.campaign_name, found.command, found.kind) == (cid, "C41", "campaign status",
                                                                                   "RuntimeError")
    assert abs(found.at - now) < dt.timedelta(seconds=1) and found.at.tzinfo is not None
    for who, eid in ((OUTSIDER, "deadbeef"), (GM, "0badf00d"), (GM, "12345678"), (GM, "x; drop")):
        with pytest.raises(NotFound):
            await operations.find_error(db, eid, who)
    await bookkeeping.change_bot_setting(db, cid, GM, "gm_role", "777777777777777777")
    role_gm = Actor(5555, frozenset({777777777777777777}))
    assert (await operations.find_error(db, "deadbeef", role_gm)).campaign_id == cid  # the GM role too

    await operations.record_error(db, "01d0", command="x", kind="E", campaign_id=cid, now=now - dt.timedelta(days=31))
    assert (await operations.find_error(db, "01d0", GM)).command == "x"
    await operations.record_error(db, "ca11", command="y", kind="E", campaign_id=cid, now=now)
    with pytest.raises(NotFound):
        await operations.find_error(db, "01d0", GM)  # older than 30 days: pruned by the next record
    monkeypatch.setattr(operations, "KEEP_AT_MOST", 2)
    await operations.record_error(db, "ca12", command="z", kind="E", campaign_id=cid, now=now)
    with pytest.raises(NotFound):
        await operations.find_error(db, "deadbeef", GM)  # beyond the newest two: pruned
    assert [(await operations.find_error(db, e, GM)).command for e in ("ca11", "ca12")] == ["y", "z"]
    assert await operations.campaign_counts(db) == (1, 1)
