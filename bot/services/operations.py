"""Operations: the records behind the error ids members are shown, the counts ``/about`` shows, and
the database's backups.

An unexpected error is logged with a short id, which the member reads; :func:`record_error` keeps
that id with its campaign, command, time and exception type (never the message), so the GM of that
campaign can look it up (:func:`find_error`). Records are bounded: each new one prunes those older
than :data:`KEEP_FOR` and all but the newest :data:`KEEP_AT_MOST`.
"""

from __future__ import annotations

import datetime as dt
import re
from dataclasses import dataclass
from pathlib import Path

from bot.campaign.authority import is_gm
from bot.store import campaigns, error_records
from bot.store.backup import backup_database
from bot.store.db import Database

from .actors import Actor
from .errors import NotFound

KEEP_FOR = dt.timedelta(days=30)
KEEP_AT_MOST = 10_000
_ID = re.compile(r"[0-9a-f]{4,16}")


@dataclass(frozen=True)
class ErrorInfo:
    error_id: str
    campaign_id: int
    campaign_name: str
    command: str
    kind: str
    at: dt.datetime


async def record_error(db: Database, error_id: str, *, command: str, kind: str, campaign_id: int | None = None,
                       guild_id: int | None = None, user_id: int | None = None,
                       now: dt.datetime | None = None) -> None:
    """Keep an error id with what failed where; prune the old records in the same transaction."""
    now = now or dt.datetime.now(dt.UTC)
    async with db.transaction() as s:
        await error_records.add_error(s, error_id=error_id[:16], campaign_id=campaign_id, guild_id=guild_id,
                                      user_id=user_id, command=command[:100], kind=kind[:100], at=now,
                                      keep_for=KEEP_FOR, keep_at_most=KEEP_AT_MOST)


async def find_error(db: Database, error_id: str, actor: Actor) -> ErrorInfo:
    """The record of ``error_id``, for the GM of the campaign it happened in (anyone else, and an
    id of no campaign, is told there is no such error: records never leak across campaigns)."""
    wanted = error_id.strip().strip("`").lower()
    missing = NotFound("There is no error {error_id!r} in a campaign you run (ids are kept for 30 days).",
                       error_id=error_id.strip()[:20])
    if not _ID.fullmatch(wanted):
        raise missing
    async with db.sessions() as s:
        row = await error_records.find_error(s, wanted)
        if row is None or row.campaign_id is None:
            raise missing
        campaign = await campaigns.get_campaign(s, row.campaign_id)
    if campaign is None or not is_gm(campaign, actor.member_id, actor.roles):
        raise missing
    return ErrorInfo(row.error_id, row.campaign_id, campaign.name, row.command, row.kind, row.created_at)


async def campaign_counts(db: Database, guild_id: int | None = None) -> tuple[int, int]:
    """(active campaigns, all campaigns) in the database, or in the server ``guild_id`` (what a member of
    it may be told: issue 24, item 7)."""
    async with db.sessions() as s:
        return await campaigns.campaign_counts(s, guild_id)


async def backup(database_url: str, data_dir: Path) -> Path | None:
    """Back up the database (SQLite, rotated, off the event loop); None for PostgreSQL, which is backed
    up with pg_dump (README, "Backups")."""
    return await backup_database(database_url, data_dir)
