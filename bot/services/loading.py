"""Read a campaign's rows into engine values, and lock a campaign for a write."""

from __future__ import annotations

import secrets
from collections import defaultdict
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from sqlalchemy import event
from sqlalchemy.orm import Session
from sqlmodel import col, func, select
from sqlmodel.ext.asyncio.session import AsyncSession

from bot.engine import dice as _dice
from bot.engine.dice import SeededDice, seed_commitment
from bot.engine.grid import CampaignMap
from bot.engine.model import (
    Cell,
    Feature,
    Force,
    Leader,
    LeaderStatus,
    Order,
    Quality,
    Reaction,
    Square,
    Terrain,
    Unit,
    UnitType,
)
from bot.engine.text import Msg
from bot.store.models import Campaign, ForceRow, LeaderRow, MapSquare, SideRow, TurnSeed, UnitRow

from .errors import NotFound

_MAPS: dict[int, CampaignMap] = {}
MAP_PARTITION = 1_000
"""Map squares read per partition (each a few ms of decoding on the event loop)."""

# Where turn seeds come from: secrets by default; the offline demo makes them reproducible.
new_turn_seed: Callable[[], bytes] = _dice.new_turn_seed


def use_seed_source(source: Callable[[], bytes] | None) -> None:
    """Replace the source of turn seeds (``None`` restores the secret one). Demo and tests only."""
    global new_turn_seed
    new_turn_seed = source or _dice.new_turn_seed


async def get_campaign(session: AsyncSession, campaign_id: int, *, lock: bool = False) -> Campaign:
    """The campaign row; ``lock`` takes the row lock every write action starts with (PostgreSQL;
    SQLite transactions are already exclusive with BEGIN IMMEDIATE)."""
    stmt = select(Campaign).where(Campaign.id == campaign_id)
    if lock:
        stmt = stmt.with_for_update()
    campaign = (await session.exec(stmt)).first()
    if campaign is None:
        raise NotFound("There is no campaign #{campaign_id}.", campaign_id=campaign_id)
    return campaign


# --- the write stamp --------------------------------------------------------------------------
#
# ``Campaign.version`` only moves on a resolution or an undo (a GM's Resolve button and the deadline
# bookkeeping carry it), but orders, moves, joins, GM edits and every other write change what readers
# see too. So every transaction that changes a campaign's rows (through the ORM) also leaves a fresh
# random token in the campaign's own row, ``options["_rev"]`` (``_`` keys are bookkeeping, never rule
# options), in the same commit: the read cache (:mod:`.readcache`) keys a campaign's rows by
# (created_at, version, token), which another process's write changes as surely as this one's.
# Writes lock the campaign row first (``get_campaign(lock=True)``), so the token costs no extra lock.
# Bulk UPDATE/DELETE statements are not seen here: the two that exist (resolution, undo) also bump
# ``version``. A campaign created in the transaction needs no token (no reader can have cached it).

WRITE_STAMP = "_rev"
_TOKEN = "adc_write_token"
_CREATED = "adc_created_campaigns"


@event.listens_for(Session, "before_flush")
def _stamp_write(session: Session, _context: Any, _instances: Any) -> None:
    ids: set[int] = set()
    for obj in (*session.new, *session.deleted, *session.dirty):
        cid = obj.id if isinstance(obj, Campaign) else getattr(obj, "campaign_id", None)
        if isinstance(cid, int) and cid not in ids and (obj in session.new or obj in session.deleted
                                                         or session.is_modified(obj)):
            ids.add(cid)
    ids -= session.info.get(_CREATED, set())
    if not ids:
        return
    token = session.info.setdefault(_TOKEN, secrets.token_hex(8))
    for cid in ids:
        campaign = session.get(Campaign, cid)  # the locked row, from the identity map
        if campaign is not None and campaign not in session.deleted \
                and (campaign.options or {}).get(WRITE_STAMP) != token:  # again after an undo restores the options
            campaign.options = {**(campaign.options or {}), WRITE_STAMP: token}


@event.listens_for(Session, "after_flush")
def _note_created(session: Session, _context: Any) -> None:
    created = {o.id for o in session.new if isinstance(o, Campaign) and o.id is not None}
    if created:
        session.info.setdefault(_CREATED, set()).update(created)


@event.listens_for(Session, "after_transaction_end")
def _forget_stamp(session: Session, transaction: Any) -> None:
    if transaction.parent is None:
        session.info.pop(_TOKEN, None)
        session.info.pop(_CREATED, None)


async def campaign_in_channel(session: AsyncSession, channel_id: int) -> Campaign:
    c = (
        await session.exec(select(Campaign).where(Campaign.channel_id == channel_id, Campaign.status == "active"))
    ).first()
    if c is None:
        raise NotFound("There is no campaign in this channel: a GM can start one with /campaign create.")
    return c


async def load_map(session: AsyncSession, campaign: Campaign) -> CampaignMap:
    """The campaign's map (immutable once created, so cached per campaign)."""
    assert campaign.id is not None
    cached = _MAPS.get(campaign.id)
    if cached is not None and cached.width == campaign.map_width and cached.height == campaign.map_height:
        return cached
    # Plain column tuples, not ORM objects, in partitions: a 100x100 map is 10,000 rows, and other
    # members' commands run between partitions.
    stmt = select(MapSquare.col, MapSquare.row, MapSquare.terrain, MapSquare.features, MapSquare.territory,
                  MapSquare.stronghold, MapSquare.capital, MapSquare.river_flow).where(MapSquare.campaign_id == campaign.id)
    cells: dict[Square, Cell] = {}
    result = await session.stream(stmt.execution_options(yield_per=MAP_PARTITION))
    async for rows in result.partitions():
        for col_, row, terrain, features, territory, stronghold, capital, river_flow in rows:
            cells[Square(col_, row)] = Cell(Terrain(terrain), frozenset(Feature(f) for f in features), territory,
                                            stronghold, capital, river_flow)
    cmap = CampaignMap(campaign.map_width, campaign.map_height, cells, campaign.adjacency)
    _MAPS[campaign.id] = cmap
    return cmap


def remember_map(campaign_id: int, cmap: CampaignMap) -> None:
    """The map of a campaign just created from it (maps never change once created)."""
    _MAPS[campaign_id] = cmap


def forget_map(campaign_id: int) -> None:
    _MAPS.pop(campaign_id, None)


async def turn_dice(session: AsyncSession, campaign: Campaign, turn: int | None = None) -> SeededDice:
    """The dice of a turn, from its secret seed (created, and its hash logged, on first use)."""
    turn = campaign.turn if turn is None else turn
    row = (
        await session.exec(select(TurnSeed).where(TurnSeed.campaign_id == campaign.id, TurnSeed.turn == turn))
    ).first()
    if row is None:
        seed = new_turn_seed()
        row = TurnSeed(campaign_id=campaign.id, turn=turn, seed_hex=seed.hex(), sha256=seed_commitment(seed))
        session.add(row)
        await session.flush()
        from .logbook import log_event

        await log_event(
            session, campaign, Msg("Turn {turn} dice: SHA-256 of the turn seed is {sha256} (revealed when the turn ends).",
                                   turn=turn, sha256=row.sha256),
            kind="seed", data={"turn": turn, "seed_sha256": row.sha256},
        )
    return SeededDice(bytes.fromhex(row.seed_hex))


@dataclass
class State:
    """A campaign's Forces, units, leaders and sides, as rows and as engine values."""

    campaign: Campaign
    cmap: CampaignMap
    sides: dict[str, SideRow]
    forces: dict[str, ForceRow]
    units: dict[str, list[UnitRow]] = field(default_factory=dict)
    leaders: dict[str, LeaderRow] = field(default_factory=dict)
    """The leader in command of each Force, by Force key."""

    def force(self, key: str) -> Force:
        """The engine's view of a Force."""
        row = self.forces[key]
        leader = self.leaders.get(key)
        return Force(
            id=row.key,
            name=row.name,
            side=row.side_key,
            square=Square.parse(row.square) if row.square else Square(0, 0),
            leader=Leader(leader.name, leader.cv, LeaderStatus(leader.status)) if leader else Leader("(no leader)", 0),
            units=tuple(
                Unit(u.key, u.name, u.sp, UnitType(u.type), Quality(u.quality), u.mercenary, u.flag)
                for u in self.units.get(key, [])
            ),
            order=Order(row.order),
            reaction=Reaction(row.reaction) if row.reaction else None,
            scouts=row.scouts,
        )

    def active(self) -> list[ForceRow]:
        return [f for f in self.forces.values() if f.state == "active" and f.square]

    def find_force(self, text: str) -> ForceRow:
        """A Force by key or (case-insensitive) name, as a player types it."""
        t = text.strip()
        if t in self.forces:
            return self.forces[t]
        for f in self.forces.values():
            if f.name.lower() == t.lower():
                return f
        raise NotFound("There is no Force {text!r} in this campaign.", text=text)


async def load_state(session: AsyncSession, campaign: Campaign, *, force: str | None = None) -> State:
    """The campaign's state; with ``force`` (a key or a name), only that Force, for one player's action."""
    cid = campaign.id
    sides = {s.key: s for s in (await session.exec(select(SideRow).where(SideRow.campaign_id == cid))).all()}
    # Forces with their leaders in one query (an outer join on the Force key), then their units.
    forces: dict[str, ForceRow] = {}
    leaders: dict[str, LeaderRow] = {}
    stmt = (
        select(ForceRow, LeaderRow)
        .outerjoin(LeaderRow, (LeaderRow.campaign_id == ForceRow.campaign_id) & (LeaderRow.force_key == ForceRow.key))
        .where(ForceRow.campaign_id == cid)
    )
    if force is not None:
        text = force.strip()
        stmt = stmt.where((ForceRow.key == text) | (func.lower(ForceRow.name) == text.lower()))
    for row, leader in (await session.exec(stmt)).all():
        forces[row.key] = row
        if leader is not None:
            leaders[row.key] = leader
    units: dict[str, list[UnitRow]] = defaultdict(list)
    ustmt = select(UnitRow).where(UnitRow.campaign_id == cid)
    if force is not None:
        ustmt = ustmt.where(col(UnitRow.force_key).in_(list(forces)))
    for u in (await session.exec(ustmt.order_by(UnitRow.id))).all():
        units[u.force_key].append(u)
    return State(campaign, await load_map(session, campaign), sides, forces, dict(units), leaders)
