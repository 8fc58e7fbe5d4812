"""Read a campaign's rows into engine values, and lock a campaign for a write."""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Callable
from dataclasses import dataclass, field

from sqlmodel import col, func, select
from sqlmodel.ext.asyncio.session import AsyncSession

from bot.engine import dice as _dice
from bot.engine.dice import SeededDice, seed_commitment
from bot.engine.grid import CampaignMap
from bot.engine.model import (
    Force,
    Leader,
    LeaderStatus,
    Order,
    Quality,
    Reaction,
    Square,
    Unit,
    UnitType,
)
from bot.engine.text import Msg
from bot.store.models import Campaign, ForceRow, LeaderRow, SideRow, TurnSeed, UnitRow
from bot.store.repository import forget_map, load_map, remember_map  # noqa: F401 (re-exported)
from bot.store.stamp import WRITE_STAMP  # noqa: F401 (re-exported)

from .errors import NotFound

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


async def campaign_in_channel(session: AsyncSession, channel_id: int) -> Campaign:
    c = (
        await session.exec(select(Campaign).where(Campaign.channel_id == channel_id, Campaign.status == "active"))
    ).first()
    if c is None:
        raise NotFound("There is no campaign in this channel: a GM can start one with /campaign create.")
    return c


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
