"""The campaign repository: ``load`` a campaign's rows into one :class:`CampaignState`, ``save`` a
new state back, writing only what changed, and append its events to the log.

Why tables behind a repository, not one JSON document per campaign: the rows are indexed where
readers need them (the log, battles, declarations by turn), PostgreSQL and SQLite keep them the same
way, exports and undo snapshots keep their format, and a write touches only the rows it changes
(found by identity, since the state is immutable: an unchanged Force is the very object that was
loaded). Writes go out as a few bulk statements, whatever the number of Forces.
"""

from __future__ import annotations

import asyncio
import dataclasses
import datetime as dt
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from sqlalchemy import delete, insert, update
from sqlmodel import SQLModel, select
from sqlmodel.ext.asyncio.session import AsyncSession

from bot.campaign import plain
from bot.campaign.events import Event, EventKind, Journal
from bot.campaign.seats import GENERALS
from bot.campaign.settings import Settings
from bot.campaign.state import (
    Battle,
    BattleStatus,
    CampaignState,
    CampaignStatus,
    Declaration,
    DeclarationKind,
    ForceState,
    ForceStatus,
    GloryEntry,
    JoinRequest,
    LeaderEvent,
    LeaderKind,
    LeaderState,
    Recruit,
    SideState,
    SupplyPurchase,
    TurnSeed,
    UnitState,
)
from bot.engine.field_commander import PurchaseKind
from bot.engine.grid import CampaignMap
from bot.engine.model import Cell, Climate, Feature, LeaderStatus, Order, Quality, Reaction, Square, Terrain, UnitType
from bot.engine.phases import Phase
from bot.engine.reports import report_data
from bot.engine.tables import NO_TABLES, default_rulebook, read_scenario_tables
from bot.engine.text import Msg
from bot.i18n import names as local_names

from . import chain
from .bookkeeping import PlayerInfo, join_requests, player_infos, write_join_requests, write_players
from .models import (
    BattleRow,
    Campaign,
    ForceRow,
    LeaderRow,
    LogEntry,
    MapSquare,
    SideRow,
    UnitRow,
    place_from_row,
)
from .models import Declaration as DeclarationRow
from .models import (
    GloryEntry as GloryRow,
)
from .models import (
    LeaderEvent as LeaderEventRow,
)
from .models import (
    TurnSeed as TurnSeedRow,
)
from .stamp import stamp

_MAPS: dict[int, CampaignMap] = {}
MAP_PARTITION = 1_000
"""Map squares read per partition (each a few ms of decoding on the event loop)."""


class CampaignNotFound(LookupError):
    pass


# --- the map (immutable once created, so cached per campaign) -----------------------------------


async def load_map(session: AsyncSession, campaign: Campaign) -> CampaignMap:
    assert campaign.id is not None
    cached = _MAPS.get(campaign.id)
    if cached is not None and cached.width == campaign.map_width and cached.height == campaign.map_height \
            and cached.adjacency == campaign.adjacency:
        return cached
    # Plain column tuples, not ORM objects, in partitions: a 100x100 map is 10,000 rows, and other
    # members' commands run between partitions.
    stmt = select(MapSquare.col, MapSquare.row, MapSquare.terrain, MapSquare.features, MapSquare.territory,
                  MapSquare.stronghold, MapSquare.capital, MapSquare.river_flow, MapSquare.place,
                  MapSquare.place_kind).where(MapSquare.campaign_id == campaign.id)
    cells: dict[Square, Cell] = {}
    result = await session.stream(stmt.execution_options(yield_per=MAP_PARTITION))
    async for rows in result.partitions():
        for col_, row, terrain, features, territory, stronghold, capital, river_flow, place, place_kind in rows:
            cells[Square(col_, row)] = Cell(Terrain(terrain), frozenset(Feature(f) for f in features), territory,
                                            stronghold, capital, river_flow, place_from_row(place, place_kind))
    cmap = CampaignMap(campaign.map_width, campaign.map_height, cells, campaign.adjacency)
    _MAPS[campaign.id] = cmap
    return cmap


def remember_map(campaign_id: int, cmap: CampaignMap) -> None:
    """The map of a campaign just created from it (maps never change once created)."""
    _MAPS[campaign_id] = cmap


def forget_map(campaign_id: int) -> None:
    _MAPS.pop(campaign_id, None)


# --- load ----------------------------------------------------------------------------------------


@dataclass
class Loaded:
    """A campaign as loaded in one transaction: its state, its (locked) row, and the row ids that
    ``save`` needs to write the state back."""

    state: CampaignState
    campaign: Campaign
    ids: dict[str, dict[Any, int]] = field(default_factory=dict)
    session: AsyncSession | None = None
    members: tuple[PlayerInfo, ...] | None = None
    """The player rows as loaded (sides, absences, pings); None: not loaded."""

    async def journal(self) -> Journal:
        """A journal for events applied to this state, its roll chain starting at the last roll logged."""
        assert self.session is not None
        return Journal(await chain.end(self.session, self.campaign))


def _cols(model: type[SQLModel], *skip: str) -> list[Any]:
    return [getattr(model, name) for name in model.model_fields if name not in ("campaign_id", *skip)]


async def _rows(s: AsyncSession, model: type[SQLModel], cid: int, *where: Any, skip: tuple[str, ...] = ()) -> Sequence[Any]:
    stmt = select(*_cols(model, *skip)).where(model.campaign_id == cid, *where).order_by(model.id)  # type: ignore[attr-defined]
    return (await s.exec(stmt)).all()  # type: ignore[call-overload]


async def get_campaign_row(s: AsyncSession, campaign_id: int, *, lock: bool = False) -> Campaign:
    stmt = select(Campaign).where(Campaign.id == campaign_id)
    if lock:
        stmt = stmt.with_for_update()
    campaign = (await s.exec(stmt)).first()
    if campaign is None:
        raise CampaignNotFound(campaign_id)
    return campaign


BATCH = 500
"""Rows per statement of a save (a few ms of the driver's work on the event loop each)."""
OFF_LOOP_ROWS = 2_000
"""From this many rows of Forces and units, a load builds its state, and a save finds what changed, in
a worker thread (issue 24 item 6, issue 26 item 4: 5,000 units are tens of ms of pure CPU, hundreds on a
loaded machine); smaller campaigns stay on the loop, where a thread's hand-off would cost more."""


@dataclass(frozen=True)
class _Read:
    """A campaign's rows as read, before they are built into its state (plain tuples: no session)."""

    sides: Sequence[Any]
    units: Sequence[Any]
    forces: Sequence[Any]
    leaders: Sequence[Any]
    declarations: Sequence[Any]
    battles: Sequence[Any]
    glory: Sequence[Any]
    events: Sequence[Any]
    seeds: Sequence[Any]
    players: Sequence[Any]
    requests: Sequence[Any]


async def load(s: AsyncSession, campaign: Campaign | int, *, lock: bool = False) -> Loaded:
    """The campaign's state, in the session's transaction (``lock``: with its row locked, as every
    write starts). The rows are read on the event loop (the session's); building the state from them,
    pure CPU, runs in a worker thread for a large campaign (:data:`OFF_LOOP_ROWS`)."""
    if not isinstance(campaign, Campaign):
        campaign = await get_campaign_row(s, campaign, lock=lock)
    cid = campaign.id
    assert cid is not None
    read = _Read(
        sides=await _rows(s, SideRow, cid),
        units=await _rows(s, UnitRow, cid),
        forces=await _rows(s, ForceRow, cid),
        leaders=await _rows(s, LeaderRow, cid),
        declarations=await _rows(s, DeclarationRow, cid, DeclarationRow.turn == campaign.turn, skip=("created_at",)),
        battles=await _rows(s, BattleRow, cid),
        glory=await _rows(s, GloryRow, cid, skip=("created_at",)),
        events=await _rows(s, LeaderEventRow, cid, skip=("created_at",)),
        seeds=await _rows(s, TurnSeedRow, cid),
        players=await player_infos(s, cid),  # with their absences and pings: the read cache keeps them too
        requests=[JoinRequest(r.member_id, r.side_key, r.name) for r in await join_requests(s, cid)],
    )
    cmap = await load_map(s, campaign)
    fields = _CampaignFields.of(campaign)
    if len(read.units) + len(read.forces) >= OFF_LOOP_ROWS:
        state, ids = await asyncio.to_thread(_build, fields, read, cmap)
    else:
        state, ids = _build(fields, read, cmap)
    local_names.remember(cid, state.names)  # said in each reader's language (issue 23)
    return Loaded(state, campaign, ids, s, tuple(read.players))


@dataclass(frozen=True)
class _CampaignFields:
    """The campaign row's columns a state is built from, copied on the loop (the ORM object stays there)."""

    id: int
    name: str
    turn: int
    phase: int
    status: str
    options: dict[str, Any]
    climate: str
    theatre: Any
    start_date: Any
    sight: int
    gm_id: int
    gm_role_id: int | None
    weather: Any
    holdings: dict[str, Any]
    last_turn: int | None
    tables: Any
    names: dict[Any, Any]

    @classmethod
    def of(cls, c: Campaign) -> _CampaignFields:
        assert c.id is not None
        return cls(c.id, c.name, c.turn, c.phase, c.status, dict(c.options or {}), c.climate, c.theatre, c.start_date,
                   c.sight, c.gm_id, c.gm_role_id, c.weather, dict(c.holdings or {}), c.last_turn, c.tables,
                   dict(c.names or {}))


def _build(campaign: _CampaignFields, read: _Read, cmap: CampaignMap) -> tuple[CampaignState, dict[str, dict[Any, int]]]:
    """The state and the row ids from a campaign's rows: pure, so it may run in a worker thread."""
    ids: dict[str, dict[Any, int]] = {k: {} for k in ("side", "force", "unit", "leader", "declaration", "battle",
                                                      "seed")}
    sides: dict[str, SideState] = {}
    for r in read.sides:
        ids["side"][r.key] = r.id
        sides[r.key] = SideState(r.key, r.name, r.colour, r.nation, r.capital, r.battles_won, r.battles_lost,
                                 r.strongholds_taken, r.strongholds_lost, r.holds_enemy_capital, r.lost_capital,
                                 r.supply, r.movement_modifier, r.done, r.must_test, r.defeated, dict(r.last_seen or {}),
                                 r.camp or "", r.supply_income, _purchases(r.supply_purchases),
                                 recruits_from_rows(r.recruits))
    units: dict[str, list[UnitState]] = {}
    for r in read.units:
        ids["unit"][r.key] = r.id
        units.setdefault(r.force_key, []).append(
            UnitState(r.key, r.name, r.sp, r.original_sp, UnitType(r.type), Quality(r.quality), r.mercenary, r.flag,
                      r.heroic))
    forces: dict[str, ForceState] = {}
    for r in read.forces:
        ids["force"][r.key] = r.id
        forces[r.key] = ForceState(r.key, r.side_key, r.name, r.square, Order(r.order),
                                   Reaction(r.reaction) if r.reaction else None, r.scouts, ForceStatus(r.state),
                                   r.arrives_turn, r.wtf_marker, tuple(units.get(r.key, ())), r.small_boats,
                                   r.horse_rafts)
    leaders: dict[str, LeaderState] = {}
    for r in read.leaders:
        ids["leader"][r.key] = r.id
        leaders[r.key] = LeaderState(r.key, r.name, r.cv, LeaderStatus(r.status), LeaderKind(r.kind),
                                     UnitType(r.designation) if r.designation else None, r.force_key)
    declarations = []
    for r in read.declarations:
        ids["declaration"][(r.turn, r.phase, r.force_key)] = r.id
        kind = DeclarationKind(r.kind)
        declarations.append(Declaration(r.turn, Phase(r.phase), r.force_key, r.side_key, kind,
                                        plain.payload_from(kind, r.payload)))
    battles: dict[int, Battle] = {}
    for r in read.battles:
        ids["battle"][r.number] = r.id
        battles[r.number] = Battle(r.number, r.turn, r.square, tuple(r.force_keys), tuple(r.side_keys),
                                   BattleStatus(r.state), plain.report_from(r.report, r.number),
                                   plain.scouting_from(r.scouting), plain.aftermath_from(r.aftermath, r.number))
    glory = tuple(GloryEntry(r.side_key, r.turn, r.amount, r.reason, r.kind, r.rule, r.battle, r.subject)
                  for r in read.glory)
    events = tuple(LeaderEvent(r.leader_key, r.turn, LeaderStatus(r.status), r.reason) for r in read.events)
    seeds: dict[int, TurnSeed] = {}
    for r in read.seeds:
        ids["seed"][r.turn] = r.id
        seeds[r.turn] = TurnSeed(r.turn, r.seed_hex, r.sha256, r.revealed, r.chain_head, r.reseeded_after)
    players = {p.member_id: p.side for p in read.players}
    requests = {r.member: r for r in read.requests}
    options = campaign.options
    state = CampaignState(
        id=campaign.id, name=campaign.name, turn=campaign.turn, phase=Phase(campaign.phase),
        status=CampaignStatus(campaign.status), settings=Settings.from_options(options),
        climate=Climate(campaign.climate), theatre=campaign.theatre, start_date=campaign.start_date,
        map=cmap, sight=campaign.sight, gm_id=campaign.gm_id, gm_role_id=campaign.gm_role_id,
        weather=campaign.weather, holdings=campaign.holdings, sides=sides, forces=forces,
        leaders=leaders, declarations=tuple(declarations), battles=battles, glory=glory, leader_events=events,
        seeds=seeds, players=players, requests=requests, options=options, last_turn=campaign.last_turn,
        tables=read_scenario_tables(campaign.tables, default_rulebook()) if campaign.tables else NO_TABLES,
        names={str(k): dict(v) for k, v in campaign.names.items() if isinstance(v, dict)},
    )
    return state, ids


# --- save ----------------------------------------------------------------------------------------


def _side_row(v: SideState) -> dict[str, Any]:
    return {"key": v.key, "name": v.name, "colour": v.colour, "nation": v.nation, "capital": v.capital,
            "battles_won": v.battles_won, "battles_lost": v.battles_lost, "strongholds_taken": v.strongholds_taken,
            "strongholds_lost": v.strongholds_lost, "holds_enemy_capital": v.holds_enemy_capital,
            "lost_capital": v.lost_capital, "supply": v.supply, "movement_modifier": v.movement_modifier,
            "done": v.done, "must_test": str(v.must_test), "defeated": v.defeated, "last_seen": dict(v.last_seen),
            "camp": v.camp, "supply_income": v.supply_income,
            "supply_purchases": [{"turn": p.turn, "kind": p.kind.value, "force": p.force, "unit": p.unit,
                                  "count": p.count, "reduced": p.reduced, "cost": p.cost} for p in v.purchases],
            "recruits": recruit_rows(v.recruits)}


def recruit_rows(pool: Sequence[Recruit]) -> list[dict[str, Any]]:
    """A side's recruit pool (RU-24) as stored."""
    return [{"key": r.unit.key, "name": r.unit.name, "sp": r.unit.sp, "type": r.unit.type.value,
             "quality": r.unit.quality.value, "mercenary": r.unit.mercenary, "flag": r.unit.flag, "cost": r.cost}
            for r in pool]


def recruits_from_rows(rows: Sequence[Mapping[str, Any]] | None) -> tuple[Recruit, ...]:
    """A side's recruit pool (RU-24) as stored, typed (written by :func:`recruit_rows` only)."""
    return tuple(Recruit(UnitState(str(r["key"]), str(r["name"]), int(r["sp"]), int(r["sp"]), UnitType(r["type"]),
                                   Quality(r["quality"]), bool(r["mercenary"]), bool(r["flag"])), int(r["cost"]))
                 for r in rows or ())


def _purchases(rows: Sequence[Mapping[str, Any]] | None) -> tuple[SupplyPurchase, ...]:
    """A side's FC-2 purchases as stored, typed."""
    return tuple(SupplyPurchase(int(p["turn"]), PurchaseKind(p["kind"]), str(p["force"]), str(p.get("unit", "")),
                                int(p.get("count", 1)), bool(p.get("reduced", False)), int(p.get("cost", 0)))
                 for p in rows or ())


def _force_row(v: ForceState) -> dict[str, Any]:
    return {"key": v.key, "side_key": v.side, "name": v.name, "square": v.square, "order": v.order.value,
            "reaction": v.reaction.value if v.reaction else None, "scouts": v.scouts, "state": v.status.value,
            "arrives_turn": v.arrives_turn, "wtf_marker": v.wtf_marker, "small_boats": v.small_boats,
            "horse_rafts": v.horse_rafts}


def _unit_row(force: str, v: UnitState) -> dict[str, Any]:
    return {"key": v.key, "force_key": force, "name": v.name, "sp": v.sp, "original_sp": v.original_sp,
            "type": v.type.value, "quality": v.quality.value, "mercenary": v.mercenary, "flag": v.flag,
            "heroic": v.heroic}


def _leader_row(v: LeaderState) -> dict[str, Any]:
    return {"key": v.key, "name": v.name, "cv": v.cv, "status": v.status.value, "kind": v.kind.value,
            "designation": v.designation.value if v.designation else None, "force_key": v.force}


def _declaration_row(v: Declaration) -> dict[str, Any]:
    return {"turn": v.turn, "phase": int(v.phase), "force_key": v.force, "side_key": v.side, "kind": v.kind.value,
            "payload": plain.payload_data(v.payload)}


def _battle_row(v: Battle) -> dict[str, Any]:
    return {"number": v.number, "turn": v.turn, "square": v.square, "force_keys": list(v.forces),
            "side_keys": list(v.sides), "state": v.status.value, "report": None if v.report is None else report_data(v.report),
            "scouting": plain.scouting_data(v.scouting), "aftermath": plain.aftermath_data(v.aftermath)}


def _seed_row(v: TurnSeed) -> dict[str, Any]:
    return {"turn": v.turn, "seed_hex": v.seed_hex, "sha256": v.sha256, "revealed": v.revealed,
            "chain_head": v.chain_head, "reseeded_after": v.reseeded_after}


class _Writes:
    """Inserts, updates (by primary key) and deletes of one table, sent as one statement each. The new
    rows' ids come back from the insert itself (``RETURNING``, on SQLite and PostgreSQL alike), so a
    save never reads a table's ids again (issue 26 item 1)."""

    def __init__(self, model: type[SQLModel], cid: int, key: Callable[[Mapping[str, Any]], Any]) -> None:
        self.model, self.cid, self.key = model, cid, key
        self.inserts: list[dict[str, Any]] = []
        self.updates: list[dict[str, Any]] = []
        self.deletes: list[int] = []
        self.gone: list[Any] = []
        self.added: dict[Any, int] = {}

    def diff(self, old: Mapping[Any, Any], new: Mapping[Any, Any], ids: Mapping[Any, int], row: Any) -> None:
        for k, v in new.items():
            was = old.get(k)
            if was is v:
                continue
            if k in ids:
                if was != v:
                    self.updates.append({"id": ids[k], **row(v)})
            else:
                self.inserts.append({"campaign_id": self.cid, **row(v)})
        self.gone = [k for k in old if k not in new and k in ids]
        self.deletes += [ids[k] for k in self.gone]

    async def send(self, s: AsyncSession) -> None:
        table = self.model.__table__  # type: ignore[attr-defined]
        if self.deletes:
            await s.exec(delete(table).where(table.c.id.in_(self.deletes)))  # type: ignore[call-overload]
        for start in range(0, len(self.updates), BATCH):  # in batches: the loop runs other work between them
            await s.exec(update(self.model), params=self.updates[start:start + BATCH])  # type: ignore[call-overload]
            if len(self.updates) > BATCH:
                await asyncio.sleep(0)
        if self.inserts:
            now = dt.datetime.now(dt.UTC)
            rows = [{"created_at": now, **r} if "created_at" in self.model.model_fields else r for r in self.inserts]
            stmt = insert(table).returning(table.c.id, sort_by_parameter_order=True)
            for start in range(0, len(rows), BATCH):
                part = rows[start:start + BATCH]
                result = await s.exec(stmt, params=part)  # type: ignore[call-overload]
                self.added.update({self.key(r): i for r, (i,) in zip(part, result.all(), strict=True)})
                if len(rows) > BATCH:
                    await asyncio.sleep(0)

    def ids(self, before: Mapping[Any, int]) -> dict[Any, int]:
        """The table's ids after this write (a new dict: the cache shares the old one)."""
        gone = set(self.gone)
        out = {k: i for k, i in before.items() if k not in gone} if gone else dict(before)
        out.update(self.added)
        return out


def _units(state: CampaignState) -> dict[str, UnitState]:
    return {u.key: u for f in state.forces.values() for u in f.units}


_KEYS: dict[str, Callable[[Mapping[str, Any]], Any]] = {
    "side": lambda r: r["key"], "force": lambda r: r["key"], "unit": lambda r: r["key"],
    "leader": lambda r: r["key"], "battle": lambda r: r["number"], "seed": lambda r: r["turn"],
    "declaration": lambda r: (r["turn"], r["phase"], r["force_key"]),
}
"""Each table's key in the state, from a row as written (what ``Loaded.ids`` maps to row ids)."""


def _rows_of(state: CampaignState) -> int:
    """The rows of Forces and units a state holds (what decides :data:`OFF_LOOP_ROWS`)."""
    return len(state.forces) + sum(len(f.units) for f in state.forces.values())


def _diffs(cid: int, ids: Mapping[str, Mapping[Any, int]], old: CampaignState,
           new: CampaignState) -> dict[str, _Writes]:
    """What a save writes, table by table: the rows ``new`` adds, changes and drops over ``old``. Pure,
    so a large one runs in a worker thread (:data:`OFF_LOOP_ROWS`)."""
    writes: dict[str, _Writes] = {}

    def table(model: type[SQLModel], name: str, before: Mapping[Any, Any], after: Mapping[Any, Any], row: Any) -> None:
        if before is after:
            return
        w = _Writes(model, cid, _KEYS[name])
        w.diff(before, after, ids.get(name, {}), row)
        if w.inserts or w.updates or w.deletes:
            writes[name] = w

    table(SideRow, "side", old.sides, new.sides, _side_row)
    table(ForceRow, "force", old.forces, new.forces, _force_row)
    if old.forces is not new.forces:
        owner = {u.key: f.key for f in new.forces.values() for u in f.units}
        table(UnitRow, "unit", _units(old), _units(new), lambda u: _unit_row(owner[u.key], u))
    table(LeaderRow, "leader", old.leaders, new.leaders, _leader_row)
    if old.declarations is not new.declarations:
        table(DeclarationRow, "declaration", {(d.turn, int(d.phase), d.force): d for d in old.declarations},
              {(d.turn, int(d.phase), d.force): d for d in new.declarations}, _declaration_row)
    table(BattleRow, "battle", old.battles, new.battles, _battle_row)
    table(TurnSeedRow, "seed", old.seeds, new.seeds, _seed_row)
    return writes


async def save(s: AsyncSession, loaded: Loaded, new: CampaignState, events: Iterable[Event] = ()) -> Loaded:
    """Write ``new`` over the state ``loaded`` holds, and append ``events`` to the log. Returns what a
    further save in the same transaction starts from: its ids are those of ``loaded`` with the rows
    inserted (their ids from ``RETURNING``) and deleted, so nothing is read back."""
    old, campaign, cid = loaded.state, loaded.campaign, loaded.state.id
    if old.forces is not new.forces and _rows_of(new) >= OFF_LOOP_ROWS:
        writes = await asyncio.to_thread(_diffs, cid, loaded.ids, old, new)  # pure CPU: off the loop
    else:
        writes = _diffs(cid, loaded.ids, old, new)
    for w in writes.values():
        await w.send(s)
    ledgers = await _ledger(s, GloryRow, cid, old.glory, new.glory, lambda g: {
        "side_key": g.side, "turn": g.turn, "amount": g.amount, "kind": g.kind, "reason": str(g.reason)[:200],
        "rule": g.rule, "battle": g.battle, "subject": g.subject})
    ledgers |= await _ledger(s, LeaderEventRow, cid, old.leader_events, new.leader_events, lambda e: {
        "leader_key": e.leader, "turn": e.turn, "status": e.status.value, "reason": str(e.reason)[:200]})
    members = new.players is not old.players and dict(new.players) != dict(old.players)
    if members:
        await write_players(s, cid, old.players, new.players)
    if new.requests is not old.requests and dict(new.requests) != dict(old.requests):
        members = True
        await write_join_requests(s, cid, {m: (r.side, r.name) for m, r in old.requests.items()},
                                  {m: (r.side, r.name) for m, r in new.requests.items()})
    _campaign_fields(campaign, old, new)
    events = list(events)
    if writes or events or members or ledgers:
        stamp(s.sync_session, campaign)
    await write_events(s, campaign, events)
    s.add(campaign)
    await s.flush()  # the campaign row's one UPDATE (its fields and the write stamp together)
    ids = loaded.ids
    if any(w.inserts or w.deletes for w in writes.values()) or new.turn != old.turn:
        ids = {**ids, **{name: w.ids(ids.get(name, {})) for name, w in writes.items() if w.inserts or w.deletes}}
        if new.turn != old.turn:  # the state holds the current turn's declarations only
            ids["declaration"] = {k: i for k, i in ids.get("declaration", {}).items() if k[0] == new.turn}
    return Loaded(new, campaign, ids, s)


def as_stored(state: CampaignState) -> CampaignState:
    """``state`` as a load would give it back after :func:`save`: the ledgers' reasons as the stored text
    (a Glory award's or a leader's reason may be a message, which the row keeps as its English text), so
    that a write may hand the state it saved to the read cache."""
    glory, events = state.glory, state.leader_events
    if any(type(g.reason) is not str or len(g.reason) > 200 for g in glory):  # a message is a str subclass
        glory = tuple(g if type(g.reason) is str and len(g.reason) <= 200
                      else dataclasses.replace(g, reason=str.__str__(g.reason)[:200]) for g in glory)
    if any(type(e.reason) is not str or len(e.reason) > 200 for e in events):
        events = tuple(e if type(e.reason) is str and len(e.reason) <= 200
                       else dataclasses.replace(e, reason=str.__str__(e.reason)[:200]) for e in events)
    if glory is state.glory and events is state.leader_events:
        return state
    return state.evolve(glory=glory, leader_events=events)


async def _ledger(s: AsyncSession, model: type[SQLModel], cid: int, old: Sequence[Any], new: Sequence[Any],
                  row: Any) -> bool:
    """Append-only ledgers: what ``new`` holds beyond ``old``; a ledger that does not extend the old one
    (an undo took entries back) is written again whole. Whether anything was written."""
    if new is old or (len(new) == len(old) and tuple(new) == tuple(old)):
        return False
    table = model.__table__  # type: ignore[attr-defined]
    start = len(old)
    if len(new) < len(old) or tuple(new[:len(old)]) != tuple(old):
        await s.exec(delete(table).where(table.c.campaign_id == cid))  # type: ignore[call-overload]
        start = 0
    if len(new) > start:
        now = dt.datetime.now(dt.UTC)
        await s.exec(insert(table), params=[{"campaign_id": cid, "created_at": now, **row(v)}  # type: ignore[call-overload]
                                            for v in new[start:]])
    return True


def _campaign_fields(campaign: Campaign, old: CampaignState, new: CampaignState) -> None:
    if new.turn != old.turn:
        campaign.turn = new.turn
    if new.phase is not old.phase:
        campaign.phase = int(new.phase)
    if new.weather != old.weather:
        campaign.weather = new.weather
    if new.holdings is not old.holdings and dict(new.holdings) != dict(old.holdings):
        campaign.holdings = dict(new.holdings)
    if new.status is not old.status:
        campaign.status = new.status.value
    if new.settings != old.settings:
        campaign.options = {**(campaign.options or {}), **new.settings.as_options()}
        campaign.adjacency = new.settings.adjacency
    if new.options.get(GENERALS) != (campaign.options or {}).get(GENERALS):  # the GM's word on the general (RU-26)
        campaign.options = {**(campaign.options or {}), GENERALS: new.options.get(GENERALS) or {}}


# --- the log ---------------------------------------------------------------------------------------


async def write_events(s: AsyncSession, campaign: Campaign, events: Iterable[Event]) -> int:
    """Append events to the log, each roll chained to the roll before it (docs/dice.md), in one
    statement. Returns how many were written."""
    rows: list[dict[str, Any]] = []
    now = dt.datetime.now(dt.UTC)
    for e in events:
        data = dict(e.data) if e.data else None
        if e.kind is EventKind.ROLL and e.roll is not None:
            if data is None or "prev" not in data:
                data = {**e.roll.to_dict(), "prev": await chain.end(s, campaign)}
            chain.extend(s, campaign, data)
        elif isinstance(e.text, Msg):
            data = {**(data or {}), "msg": e.text.to_json()}
        rows.append({"campaign_id": campaign.id, "turn": e.turn, "phase": int(e.phase), "kind": e.kind.value,
                     "visibility": e.visibility, "text": str(e.text), "data": data,
                     "roll_key": e.roll.key if e.roll is not None else None, "version": campaign.version,
                     "undone": False, "created_at": now})
    if rows:
        if any(isinstance(o, LogEntry) for o in s.new):
            await s.flush()  # entries logged before these stay before them
        await s.exec(insert(LogEntry.__table__), params=rows)  # type: ignore[attr-defined,call-overload]
    return len(rows)
