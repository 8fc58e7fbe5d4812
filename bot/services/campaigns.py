"""Campaign lifecycle: create from a scenario, join a side, GM assignments, settings, end (the rules of
all but the creation: :mod:`bot.campaign.lifecycle`)."""

from __future__ import annotations

import asyncio
import datetime as dt
import math
from dataclasses import dataclass, replace
from typing import Any

import sqlalchemy as sa
from sqlmodel import func, insert, select

from bot.campaign import lifecycle
from bot.campaign.lifecycle import check_options
from bot.campaign.state import SideState
from bot.engine.errors import InvalidInput
from bot.engine.phases import first_position
from bot.engine.tables import RuleBook, default_rulebook
from bot.engine.text import Msg
from bot.limits import DAY_HOURS, Limits
from bot.scenario import Scenario, load_bundled, parse_scenario_text
from bot.store.db import Database
from bot.store.models import Campaign, ForceRow, LeaderRow, MapSquare, SideRow, UnitRow, utcnow

from . import shell
from .actors import Actor
from .errors import ServiceError
from .loading import remember_map, turn_dice
from .logbook import log_event


@dataclass(frozen=True)
class Created:
    campaign_id: int
    name: str
    scenario: str
    sides: tuple[tuple[str, str], ...]
    seed_sha256: str


class LimitReached(ServiceError):
    """A server or a member reached one of the bot's limits (:mod:`bot.limits`); the message says
    which, and what to do or when to try again."""


@dataclass(frozen=True)
class Usage:
    """What counts against the limits now: a server's active campaigns, a member's active campaigns
    as GM (in every server), and the campaigns the member created or imported in the last 24 hours."""

    active_in_server: int
    gm_active: int
    new_today: int


def check_upload_size(size: int, limits: Limits | None, *, kind: str) -> None:
    """Refuse a ``kind`` ("scenario" or "import") upload of ``size`` bytes over the limit (none
    without ``limits``); ``kind="any"``: an upload not yet read, over both limits."""
    if kind not in ("scenario", "import", "any"):
        raise ValueError(f"unknown upload kind {kind!r}")
    if limits is None:
        return
    if kind == "any":
        kind = "import" if limits.max_import_bytes >= limits.max_scenario_bytes else "scenario"
    if kind == "scenario" and size > limits.max_scenario_bytes:
        raise LimitReached(Msg("The scenario file is {size:,} bytes: at most {limit:,} are accepted.", size=size,
                               limit=limits.max_scenario_bytes))
    if kind == "import" and size > limits.max_import_bytes:
        raise LimitReached(Msg("The campaign export is {size:,} bytes: at most {limit:,} can be imported.", size=size,
                               limit=limits.max_import_bytes))


async def _serialise_new_campaigns(s: Any, *keys: int) -> None:
    """Make concurrent creations in one server or by one member wait for each other, so their counts
    cannot both pass (PostgreSQL: transaction-scoped advisory locks on the guild and member ids,
    taken in order; SQLite's write transactions are already exclusive, BEGIN IMMEDIATE)."""
    conn = await s.connection()
    if conn.dialect.name != "postgresql":
        return
    for key in sorted(set(keys)):
        await conn.execute(sa.select(func.pg_advisory_xact_lock(sa.literal(key, sa.BigInteger))))


async def _counts(s: Any, guild_id: int, member_id: int, since: dt.datetime) -> tuple[int, int, list[dt.datetime]]:
    active = Campaign.status == "active"
    in_server = (await s.exec(select(func.count()).select_from(Campaign).where(active, Campaign.guild_id == guild_id))).one()
    as_gm = (await s.exec(select(func.count()).select_from(Campaign).where(active, Campaign.gm_id == member_id))).one()
    recent = (await s.exec(select(Campaign.created_at).where(Campaign.gm_id == member_id, Campaign.created_at > since)
                           .order_by(Campaign.created_at))).all()
    return int(in_server), int(as_gm), list(recent)


async def check_new_campaign(s: Any, *, guild_id: int, member_id: int, limits: Limits | None,
                             now: dt.datetime | None = None) -> None:
    """Refuse a new campaign (created or imported) in ``guild_id`` by ``member_id`` over the bot's
    limits. Call it inside the transaction that inserts the campaign, before the insert: it holds the
    server's and the member's lock until that transaction ends. No ``limits``: no check (the demo,
    the benchmarks and the tests; the bot passes ``bot.settings.limits``)."""
    if limits is None:
        return
    await _serialise_new_campaigns(s, guild_id, member_id)
    now = now or utcnow()
    in_server, as_gm, recent = await _counts(s, guild_id, member_id, now - dt.timedelta(hours=DAY_HOURS))
    if in_server >= limits.max_active_campaigns:
        raise LimitReached(Msg("This server already runs {count} active campaigns, the most allowed ({limit}): a GM "
                               "must end one (/campaign end) before another can start.", count=in_server,
                               limit=limits.max_active_campaigns))
    if as_gm >= limits.max_gm_campaigns:
        raise LimitReached(Msg("You already run {count} active campaigns as their GM, the most allowed ({limit}): "
                               "end one (/campaign end) before you start another.", count=as_gm,
                               limit=limits.max_gm_campaigns))
    if len(recent) >= limits.max_new_campaigns_per_day:
        # Once the oldest ones leave the 24-hour window, fewer than the limit are left in it.
        frees = recent[len(recent) - limits.max_new_campaigns_per_day] + dt.timedelta(hours=DAY_HOURS)
        retry = math.ceil(frees.timestamp())
        raise LimitReached(Msg("You have created or imported {count} campaigns in the last 24 hours, the most allowed "
                               "({limit}): you can start another <t:{retry}:R> (<t:{retry}:f>).", count=len(recent),
                               limit=limits.max_new_campaigns_per_day, retry=retry))


async def usage(db: Database, *, guild_id: int, member_id: int, now: dt.datetime | None = None) -> Usage:
    """What counts against the limits now (shown with them in /campaign settings)."""
    now = now or utcnow()
    async with db.sessions() as s:
        in_server, as_gm, recent = await _counts(s, guild_id, member_id, now - dt.timedelta(hours=DAY_HOURS))
    return Usage(in_server, as_gm, len(recent))


POPULATE_BATCH = 500
"""Rows per INSERT when a campaign is created (each batch is a few ms on the event loop)."""


async def create_campaign(
    db: Database,
    *,
    guild_id: int,
    channel_id: int,
    gm: Actor,
    name: str,
    scenario: str | None = None,
    scenario_text: str | bytes | None = None,
    spec: Scenario | None = None,
    options: dict[str, Any] | None = None,
    rules: RuleBook | None = None,
    limits: Limits | None = None,
    now: dt.datetime | None = None,
) -> Created:
    """A new campaign bound to a channel, from a bundled scenario or an uploaded YAML (or ``spec``,
    the scenario the caller already parsed off the event loop).

    ``limits`` (the bot passes ``bot.settings.limits``) refuses a scenario over the size limit and
    a campaign over the server's or the member's limits (:func:`check_new_campaign`); ``now`` is
    the creation time (default: the clock)."""
    rules = rules or default_rulebook()
    name = name.strip()
    if not 1 <= len(name) <= 100:
        raise InvalidInput("A campaign name is 1 to 100 characters.")
    now = now or utcnow()
    if spec is None and scenario_text is not None:
        size = len(scenario_text.encode("utf-8") if isinstance(scenario_text, str) else scenario_text)
        check_upload_size(size, limits, kind="scenario")
        spec = parse_scenario_text(scenario_text, key=scenario or "uploaded")
    elif spec is None and scenario:
        spec = load_bundled(scenario)
    elif spec is None:
        raise InvalidInput("Choose a bundled scenario or upload a scenario file.")
    # The map's adjacency (RU-11) is the default; the scenario's or the GM's options may override it.
    opts = check_options({"adjacency": spec.map.adjacency, **spec.options, **(options or {})}, rules)
    async with db.transaction() as s:
        await check_new_campaign(s, guild_id=guild_id, member_id=gm.member_id, limits=limits, now=now)
        existing = (
            await s.exec(select(Campaign).where(Campaign.channel_id == channel_id, Campaign.status == "active"))
        ).first()
        if existing is not None:
            raise InvalidInput(
                "This channel already runs the campaign {name!r}: end it first, or use another channel.", name=existing.name
            )
        pos = first_position(opts)
        campaign = Campaign(
            guild_id=guild_id, channel_id=channel_id, name=name, scenario=spec.key, gm_id=gm.member_id,
            options=opts, climate=spec.climate.value, theatre=spec.theatre.value, start_date=spec.start_date,
            turn=pos.turn, phase=int(pos.phase),
            map_width=spec.map.width, map_height=spec.map.height,
            adjacency=int(opts.get("adjacency", spec.map.adjacency)), sight=spec.sight, created_at=now,
        )
        s.add(campaign)
        await s.flush()
        await _populate(s, campaign, spec)
        await log_event(s, campaign, Msg("Campaign {name!r} created from scenario {scenario!r} by the GM.", name=name,
                                         scenario=spec.name))
        await turn_dice(s, campaign)  # creates turn 1's seed and logs its hash
        seed_hash = await _seed_hash(s, campaign)
        created = Created(campaign.id or 0, name, spec.name, tuple((sd.key, sd.name) for sd in spec.sides), seed_hash)
        adjacency = campaign.adjacency
    # Committed: the map just written is the scenario's, so nobody needs to read it back.
    remember_map(created.campaign_id, replace(spec.map, adjacency=adjacency))
    return created


async def _seed_hash(s: Any, campaign: Campaign) -> str:
    from bot.store.models import TurnSeed

    row = (await s.exec(select(TurnSeed).where(TurnSeed.campaign_id == campaign.id, TurnSeed.turn == campaign.turn))).one()
    return row.sha256


def _camp(spec: Scenario, side: str) -> str:
    """A side's camp as stored: empty for a side that is its own camp (RU-19)."""
    camp = spec.camp_of(side)
    return "" if camp == side else camp


async def _populate(s: Any, campaign: Campaign, spec: Scenario) -> None:
    """The scenario's rows, inserted in batches of plain values: the largest legal scenario has about
    13,000 rows, and building as many ORM objects would hold the event loop for over a second."""
    cid = campaign.id
    capitals: dict[str | None, str] = {}
    for sq, c in spec.map.cells.items():
        if c.capital:
            capitals.setdefault(c.stronghold, str(sq))
    batches: list[tuple[type[Any], list[dict[str, Any]]]] = [
        (SideRow, [dict(campaign_id=cid, key=side.key, name=side.name, colour=side.colour, nation=side.nation,
                        capital=capitals.get(side.key), supply=spec.supply.get(side.key, 0),
                        supply_income=spec.supply.get(side.key, 0),
                        camp=_camp(spec, side.key)) for side in spec.sides]),
        (MapSquare, [dict(campaign_id=cid, col=sq.col, row=sq.row, terrain=cell.terrain.value,
                          features=sorted(f.value for f in cell.features), territory=cell.territory,
                          stronghold=cell.stronghold, capital=cell.capital, river_flow=cell.river_flow)
                     for sq, cell in spec.map.cells.items()]),
        (ForceRow, [dict(campaign_id=cid, side_key=f.side, key=f.key, name=f.name, square=str(f.square),
                         order=f.order.value, scouts=f.scouts, state="pending" if f.arrives_turn is not None else "active",
                         arrives_turn=f.arrives_turn) for f in spec.forces]),
        (LeaderRow, [dict(campaign_id=cid, force_key=f.key, key=f"{f.key}-leader", name=f.leader.name, cv=f.leader.cv)
                     for f in spec.forces]),
        (UnitRow, [dict(campaign_id=cid, force_key=f.key, key=u.key, name=u.name, sp=u.sp, original_sp=u.sp,
                        type=u.type.value, quality=u.quality.value, mercenary=u.mercenary, flag=u.flag)
                   for f in spec.forces for u in f.units]),
    ]
    for model, rows in batches:
        for start in range(0, len(rows), POPULATE_BATCH):
            await s.exec(insert(model), params=rows[start:start + POPULATE_BATCH])
            await asyncio.sleep(0)  # let other members' commands in between batches


async def join_side(db: Database, campaign_id: int, actor: Actor, side: str) -> SideState:
    """Join a side. A member plays one side per campaign."""
    async with db.transaction() as s:
        loaded = await shell.load(s, campaign_id)
        journal = await loaded.journal()
        state, row = lifecycle.join_side(loaded.state, actor, actor.name, side, journal)
        saved = await shell.save(s, loaded, state, journal)
    shell.remember(db, saved)
    return row


async def assign(db: Database, campaign_id: int, gm: Actor, member_id: int, side: str, *,
                 member_name: str = "") -> SideState:
    """GM: put a member on a side (moving them if they played another)."""
    async with db.transaction() as s:
        loaded = await shell.load(s, campaign_id)
        journal = await loaded.journal()
        state, row = lifecycle.assign(loaded.state, gm, member_id, side, journal, member_name=member_name)
        saved = await shell.save(s, loaded, state, journal)
    shell.remember(db, saved)
    return row


async def change_setting(db: Database, campaign_id: int, gm: Actor, name: str, value: Any,
                         *, rules: RuleBook | None = None) -> dict[str, Any]:
    """GM: change one campaign option (validated against the rules' choices)."""
    async with db.transaction() as s:
        loaded = await shell.load(s, campaign_id)
        journal = await loaded.journal()
        state, merged = lifecycle.change_setting(loaded.state, gm, name, value, journal, rules or default_rulebook())
        saved = await shell.save(s, loaded, state, journal)
    shell.remember(db, saved)
    return merged


async def end_campaign(db: Database, campaign_id: int, gm: Actor) -> None:
    """GM: archive the campaign (kept, never deleted)."""
    async with db.transaction() as s:
        loaded = await shell.load(s, campaign_id)
        journal = await loaded.journal()
        state = lifecycle.end_campaign(loaded.state, gm, journal)
        saved = await shell.save(s, loaded, state, journal)
    shell.remember(db, saved)
