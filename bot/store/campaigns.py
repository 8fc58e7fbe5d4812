"""Campaign rows: one by id (locked for a write) or by its channel, and the counts the bot's limits and
``/about`` read. A new campaign's rows are written by the repository (:func:`.importing.insert_new`, from
:func:`bot.campaign.new.from_scenario`'s state)."""

from __future__ import annotations

import datetime as dt
from dataclasses import dataclass

import sqlalchemy as sa
from sqlmodel import func, select
from sqlmodel.ext.asyncio.session import AsyncSession

from .models import Campaign


async def get_campaign(s: AsyncSession, campaign_id: int, *, lock: bool = False) -> Campaign | None:
    """The campaign row (None: no such campaign); ``lock`` takes the row lock every write starts with
    (PostgreSQL; SQLite's write transactions are already exclusive, BEGIN IMMEDIATE)."""
    stmt = select(Campaign).where(Campaign.id == campaign_id)
    if lock:
        stmt = stmt.with_for_update()
    return (await s.exec(stmt)).first()


async def campaign_in_channel(s: AsyncSession, channel_id: int) -> Campaign | None:
    """The active campaign bound to a channel, if any."""
    stmt = select(Campaign).where(Campaign.channel_id == channel_id, Campaign.status == "active")
    return (await s.exec(stmt)).first()


@dataclass(frozen=True)
class QuotaCounts:
    """What counts against the bot's limits (:mod:`bot.limits`)."""

    active_in_server: int
    """The server's active campaigns."""
    gm_active: int
    """The member's active campaigns as GM, in every server."""
    created_since: tuple[dt.datetime, ...]
    """When the member created (or imported) each campaign since the time asked, oldest first."""


async def quota_counts(s: AsyncSession, *, guild_id: int, member_id: int, since: dt.datetime) -> QuotaCounts:
    active = Campaign.status == "active"
    in_server = (await s.exec(select(func.count()).select_from(Campaign).where(active, Campaign.guild_id == guild_id))).one()
    as_gm = (await s.exec(select(func.count()).select_from(Campaign).where(active, Campaign.gm_id == member_id))).one()
    recent = (await s.exec(select(Campaign.created_at).where(Campaign.gm_id == member_id, Campaign.created_at > since)
                           .order_by(Campaign.created_at))).all()  # type: ignore[arg-type]
    return QuotaCounts(int(in_server), int(as_gm), tuple(recent))


async def serialise_new_campaigns(s: AsyncSession, *keys: int) -> None:
    """Make concurrent creations in one server or by one member wait for each other until the
    transaction ends (PostgreSQL: transaction-scoped advisory locks on the ``keys``, the guild and
    member ids, taken in order; SQLite's write transactions are already exclusive, BEGIN IMMEDIATE)."""
    conn = await s.connection()
    if conn.dialect.name != "postgresql":
        return
    for key in sorted(set(keys)):
        await conn.execute(sa.select(func.pg_advisory_xact_lock(sa.literal(key, sa.BigInteger))))


async def campaign_counts(s: AsyncSession, guild_id: int | None = None) -> tuple[int, int]:
    """(active campaigns, all campaigns) in the database, or in the server ``guild_id``."""
    here = (Campaign.guild_id == guild_id,) if guild_id is not None else ()
    total = (await s.exec(select(func.count()).select_from(Campaign).where(*here))).one()
    active = (await s.exec(select(func.count()).select_from(Campaign).where(Campaign.status == "active", *here))).one()
    return int(active), int(total)
