"""What each reader may see (fog of war is applied here, when views are built).

A side's view never holds another side's orders, rolls before resolution, or Forces out of its
sight (``campaign.sight`` squares from any of its own Forces). The GM sees everything. Who sees
what is decided in :mod:`.sight`.
"""

from __future__ import annotations

import datetime as dt
from dataclasses import dataclass, field

from sqlmodel import col, select
from sqlmodel.ext.asyncio.session import AsyncSession

from bot.engine.phases import Phase, PhaseFacts, TurnPosition, pending
from bot.engine.seasons import season_of, turn_date
from bot.engine.tables import RuleBook, default_rulebook
from bot.engine.text import Msg
from bot.store.db import Database
from bot.store.models import BattleRow, Declaration, LogEntry

from . import readcache
from .actors import Actor, Standing, standing
from .errors import NotFound
from .loading import State, get_campaign
from .logbook import battle_visibility, entry_text
from .readcache import CampaignRead
from .resolution import phase_facts
from .sight import facts_for, visible_force_keys


@dataclass(frozen=True)
class UnitView:
    key: str
    name: str
    sp: int
    original_sp: int
    type: str
    quality: str
    mercenary: bool
    flag: bool
    heroic: bool


@dataclass(frozen=True)
class ForceView:
    key: str
    name: str
    side: str
    square: str
    own: bool
    """Full detail (the reader's side, or the GM)."""
    sp: int | None = None
    order: str | None = None
    reaction: str | None = None
    scouts: int | None = None
    leader: str | None = None
    leader_cv: int | None = None
    leader_status: str | None = None
    units: tuple[UnitView, ...] = ()
    todo: str = ""


@dataclass(frozen=True)
class Waiting:
    who: str
    what: str


@dataclass(frozen=True)
class StatusView:
    campaign_id: int
    name: str
    position: TurnPosition
    date: dt.date
    season: str
    weather: str | None
    deadline: dt.datetime | None
    version: int
    status: str
    waiting: tuple[Waiting, ...]
    sides: tuple[tuple[str, str, str], ...]
    """(key, name, colour)."""
    reader_side: str | None
    gm: bool
    forces: tuple[ForceView, ...] = field(default=())


def force_view(state: State, key: str, *, own: bool, todo: str = "") -> ForceView:
    row = state.forces[key]
    if not own:
        return ForceView(row.key, row.name, row.side_key, row.square or "", False)
    leader = state.leaders.get(key)
    units = tuple(
        UnitView(u.key, u.name, u.sp, u.original_sp, u.type, u.quality, u.mercenary, u.flag, u.heroic)
        for u in state.units.get(key, [])
    )
    return ForceView(
        row.key, row.name, row.side_key, row.square or "", True, sum(u.sp for u in units), row.order, row.reaction,
        row.scouts, leader.name if leader else None, leader.cv if leader else None, leader.status if leader else None,
        units, todo,
    )


async def _facts(s: AsyncSession, state: State) -> PhaseFacts:
    return await phase_facts(s, state.campaign, state)


async def _declarations(s: AsyncSession, state: State) -> tuple[Declaration, ...]:
    c = state.campaign
    return tuple((await s.exec(select(Declaration).where(
        Declaration.campaign_id == c.id, Declaration.turn == c.turn, Declaration.phase == c.phase))).all())


async def status(db: Database, campaign_id: int, actor: Actor, *, rules: RuleBook | None = None) -> StatusView:
    rules = rules or default_rulebook()
    cr = await readcache.read(db, campaign_id, {"facts": _facts})
    st = cr.standing(actor)
    return cr.memo(("status", st.gm, st.side), lambda: _status(cr, st, rules), pin=rules)


def _status(cr: CampaignRead, st: Standing, rules: RuleBook) -> StatusView:
    campaign, state = cr.campaign, cr.state
    waiting = tuple(
        Waiting("GM" if p.who == "gm" else state.sides[p.who].name if p.who in state.sides else p.who, p.what)
        for p in pending(Phase(campaign.phase), facts_for(state, st, cr.parts["facts"]))
    )
    visible = visible_force_keys(state, st)
    forces = tuple(
        force_view(state, k, own=st.gm or state.forces[k].side_key == st.side)
        for k in sorted(visible, key=lambda k: (state.forces[k].side_key, state.forces[k].name))
    )
    date = turn_date(campaign.start_date, campaign.turn, rules=rules)
    return StatusView(
        campaign_id=campaign.id or 0, name=campaign.name, position=TurnPosition(campaign.turn, Phase(campaign.phase)),
        date=date, season=season_of(date, rules=rules).value, weather=campaign.weather, deadline=campaign.deadline,
        version=campaign.version, status=campaign.status, waiting=waiting,
        sides=tuple((k, sd.name, sd.colour) for k, sd in state.sides.items()), reader_side=st.side, gm=st.gm,
        forces=forces,
    )


async def my_forces(db: Database, campaign_id: int, actor: Actor) -> tuple[ForceView, ...]:
    """The reader's side's Forces, with what each still has to do this phase."""
    cr = await readcache.read(db, campaign_id, {"declarations": _declarations})
    st = cr.standing(actor)
    if st.side is None:
        raise NotFound("You are not on a side in this campaign: use /campaign join first.")
    return cr.memo(("my_forces", st.side), lambda: _my_forces(cr, st.side or ""))


def _my_forces(cr: CampaignRead, side: str) -> tuple[ForceView, ...]:
    state, phase = cr.state, Phase(cr.campaign.phase)
    declared = {d.force_key: d for d in cr.parts["declarations"] if d.side_key == side}
    return tuple(
        force_view(state, f.key, own=True, todo=_todo(phase, f.order, declared.get(f.key)))
        for f in state.active() if f.side_key == side
    )


def _todo(phase: Phase, order: str, declared: Declaration | None) -> str:
    if phase is Phase.ORDERS:
        return Msg("Force test taken") if declared else Msg("may change order (/order give)")
    if phase is Phase.MOVEMENT:
        if order == "defend":
            return Msg("holds the Defend order: does not move")
        if declared:
            return Msg("moves {n} square(s) along {path}", n=declared.payload.get("allowance", 0),
                       path=" ".join(declared.payload.get("path", [])))
        return Msg("may move (/order move)")
    return ""


async def force_info(db: Database, campaign_id: int, actor: Actor, force: str) -> ForceView:
    cr = await readcache.read(db, campaign_id)
    st = cr.standing(actor)
    state = cr.state
    try:
        row = state.find_force(force)
    except NotFound:
        row = None
    if row is None or row.key not in cr.memo(("visible", st.gm, st.side), lambda: frozenset(visible_force_keys(state, st))):
        raise NotFound("No Force {force!r} is in your sight.", force=force)
    return force_view(state, row.key, own=st.gm or row.side_key == st.side)


@dataclass(frozen=True)
class LogLine:
    turn: int
    phase: int
    kind: str
    text: str
    private: bool
    undone: bool
    created_at: dt.datetime


LOG_CACHED = 300
"""First log pages up to this many lines are kept with the campaign's cached rows, at most
:data:`LOG_PAGES` of them per campaign (the readers' visibilities and turns)."""
LOG_PAGES = 4


async def _fought(s: AsyncSession, campaign_id: int, side: str | None) -> frozenset[str]:
    """The log visibilities of the battles ``side`` fought (their dice are its camps' to read)."""
    if side is None:
        return frozenset()
    rows = (await s.exec(select(BattleRow.number, BattleRow.side_keys).where(BattleRow.campaign_id == campaign_id))).all()
    return frozenset(battle_visibility(number) for number, sides in rows if side in (sides or ()))


async def read_log(db: Database, campaign_id: int, actor: Actor, *, turn: int | None = None,
                   limit: int = 50, before_id: int | None = None) -> tuple[LogLine, ...]:
    """The log as the reader may see it: public entries, their side's private ones, everything for the GM."""
    cr = await readcache.read(db, campaign_id)
    st = cr.standing(actor)
    visibility = None if st.gm else frozenset(st.visibility)

    async def page(s: AsyncSession, _state: State) -> tuple[LogLine, ...]:
        stmt = select(LogEntry).where(LogEntry.campaign_id == campaign_id)
        if visibility is not None:
            stmt = stmt.where(col(LogEntry.visibility).in_(visibility | await _fought(s, campaign_id, st.side)))
        if turn is not None:
            stmt = stmt.where(LogEntry.turn == turn)
        if before_id is not None:
            stmt = stmt.where(col(LogEntry.id) < before_id)
        rows = (await s.exec(stmt.order_by(col(LogEntry.id).desc()).limit(limit))).all()
        return tuple(
            LogLine(e.turn, e.phase, e.kind, entry_text(e), e.visibility != "public", e.undone, e.created_at)
            for e in reversed(rows)
        )

    key = ("log", visibility, turn, limit)
    if before_id is None and limit <= LOG_CACHED:
        if await readcache.ensure(db, cr, {key: page}, keep=LOG_PAGES) is cr:
            return cr.parts[key]  # type: ignore[no-any-return]
        async with db.sessions() as s:  # the campaign changed meanwhile: the log as it is now
            st = await standing(s, await get_campaign(s, campaign_id), actor)
            visibility = None if st.gm else frozenset(st.visibility)
            return await page(s, cr.state)
    async with db.sessions() as s:  # an older page, or a long one
        return await page(s, cr.state)
