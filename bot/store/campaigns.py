"""Campaign rows: one by id (locked for a write) or by its channel, a new campaign with its scenario's
rows, and the counts the bot's limits and ``/about`` read."""

from __future__ import annotations

import asyncio
import datetime as dt
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

import sqlalchemy as sa
from sqlmodel import func, insert, select
from sqlmodel.ext.asyncio.session import AsyncSession

from .models import Campaign, ForceRow, LeaderRow, MapSquare, SideRow, UnitRow, place_row

if TYPE_CHECKING:
    from bot.scenario import Scenario

POPULATE_BATCH = 500
"""Rows per INSERT when a campaign is created (each batch is a few ms on the event loop)."""


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


async def insert_campaign(s: AsyncSession, campaign: Campaign, spec: Scenario) -> Campaign:
    """Insert a new campaign row (given its id) and its scenario's rows: sides, map, Forces, leaders, units."""
    s.add(campaign)
    await s.flush()
    await _populate(s, campaign, spec)
    return campaign


def _camp(spec: Scenario, side: str) -> str:
    """A side's camp as stored: empty for a side that is its own camp (RU-19)."""
    camp = spec.camp_of(side)
    return "" if camp == side else camp


async def _populate(s: AsyncSession, campaign: Campaign, spec: Scenario) -> None:
    """The scenario's rows, inserted in batches of plain values: the largest legal scenario has about
    13,000 rows, and building as many ORM objects would hold the event loop for over a second. The
    values are built in a worker thread (pure CPU: tens of ms for the largest, issue 24 item 6)."""
    assert campaign.id is not None
    batches = await asyncio.to_thread(scenario_rows, campaign.id, spec)
    for model, rows in batches:
        for start in range(0, len(rows), POPULATE_BATCH):
            await s.exec(insert(model), params=rows[start:start + POPULATE_BATCH])  # type: ignore[call-overload]
            await asyncio.sleep(0)  # let other members' commands in between batches


def scenario_rows(cid: int, spec: Scenario) -> list[tuple[type[Any], list[dict[str, Any]]]]:
    """A new campaign's rows from its scenario, table by table, as plain values: pure."""
    from bot.campaign.new import recruits

    from .repository import recruit_rows
    capitals: dict[str | None, str] = {}
    for sq, c in spec.map.cells.items():
        if c.capital:
            capitals.setdefault(c.stronghold, str(sq))
    batches: list[tuple[type[Any], list[dict[str, Any]]]] = [
        (SideRow, [dict(campaign_id=cid, key=side.key, name=side.name, colour=side.colour, nation=side.nation,
                        capital=capitals.get(side.key), supply=spec.supply.get(side.key, 0),
                        supply_income=spec.supply.get(side.key, 0),
                        camp=_camp(spec, side.key), recruits=recruit_rows(recruits(spec, side.key)))
                   for side in spec.sides]),
        (MapSquare, [dict(campaign_id=cid, col=sq.col, row=sq.row, terrain=cell.terrain.value,
                          features=sorted(f.value for f in cell.features), territory=cell.territory,
                          stronghold=cell.stronghold, capital=cell.capital, river_flow=cell.river_flow,
                          **place_row(cell.place))
                     for sq, cell in spec.map.cells.items()]),
        (ForceRow, [dict(campaign_id=cid, side_key=f.side, key=f.key, name=f.name, square=str(f.square),
                         order=f.order.value, scouts=f.scouts, state="pending" if f.arrives_turn is not None else "active",
                         arrives_turn=f.arrives_turn, small_boats=f.small_boats, horse_rafts=f.horse_rafts)
                    for f in spec.forces]),
        (LeaderRow, [dict(campaign_id=cid, force_key=f.key, key=f"{f.key}-leader", name=f.leader.name, cv=f.leader.cv)
                     for f in spec.forces]),
        (UnitRow, [dict(campaign_id=cid, force_key=f.key, key=u.key, name=u.name, sp=u.sp, original_sp=u.sp,
                        type=u.type.value, quality=u.quality.value, mercenary=u.mercenary, flag=u.flag)
                   for f in spec.forces for u in f.units]),
    ]
    return batches
