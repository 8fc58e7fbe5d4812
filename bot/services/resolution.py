"""Resolve the current phase (MC-3) and start the next; undo the last resolution.

Resolution is atomic and idempotent: the caller passes the campaign version it saw; inside one
transaction, with the campaign row locked, a different version means somebody resolved (or undid)
first and the call is refused with :class:`AlreadyResolved`. The state before is kept as a
snapshot for undo. Phases that need nobody (the bot's phases, and battle phases without battles)
are resolved in the same step, up to the next phase that waits for people or the start of a turn.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from sqlmodel import delete, select
from sqlmodel.ext.asyncio.session import AsyncSession

from bot.campaign import turn
from bot.campaign.dice import Context
from bot.campaign.events import EventKind
from bot.engine.errors import RuleViolation
from bot.engine.phases import Phase, PhaseFacts, TurnPosition
from bot.engine.rolls import Roll
from bot.engine.tables import RuleBook, default_rulebook
from bot.engine.text import Msg
from bot.store import repository
from bot.store.db import Database
from bot.store.dump import PHASE_STATE, restore_campaign_fields, restore_tables, snapshot_state, table_name
from bot.store.models import BattleRow, Campaign, LogEntry, SideRow, Snapshot, TurnSeed

from . import faults, loading
from .actors import Actor, require_gm
from .errors import AlreadyResolved, NotFound
from .loading import get_campaign
from .logbook import log_event

SNAPSHOTS_KEPT = 20


@dataclass
class Resolution:
    """What a resolution did, for the channel."""

    campaign_id: int
    before: TurnPosition
    after: TurnPosition
    version: int
    events: list[str] = field(default_factory=list)
    """The public lines: what every side may see (:mod:`.sight`)."""
    private: dict[str, list[str]] = field(default_factory=dict)
    """Each side's own lines, by side key: what only it (or only some sides) may see."""
    rolls: list[Roll] = field(default_factory=list)
    battles: list[int] = field(default_factory=list)
    turn_ended: bool = False


async def phase_facts(s: AsyncSession, campaign: Campaign, state: Any = None) -> PhaseFacts:
    """What the current phase still waits for."""
    return turn.phase_facts((await repository.load(s, campaign)).state)


async def resolve_phase(db: Database, campaign_id: int, actor: Actor, *, expected_version: int,
                        forced: bool = False, rules: RuleBook | None = None) -> Resolution:
    """GM (or the deadline, with ``actor`` the GM): resolve the current phase and start the next."""
    ctx = Context(lambda: loading.new_turn_seed(), rules or default_rulebook())
    async with db.transaction() as s:
        campaign = await get_campaign(s, campaign_id, lock=True)
        require_gm(campaign, actor)
        if campaign.status != "active":
            raise RuleViolation("The campaign {name!r} has ended.", name=campaign.name)
        if campaign.version != expected_version:
            raise AlreadyResolved(
                "This phase was already resolved (or undone) by someone else: the campaign is now at {turnposition}.",
                turnposition=TurnPosition(campaign.turn, Phase(campaign.phase)))
        loaded = await repository.load(s, campaign)
        journal = await loaded.journal()
        done = turn.resolve(loaded.state, journal, ctx, forced=forced)  # refuses first if the phase cannot end
        s.add(Snapshot(campaign_id=campaign.id, version=campaign.version, turn=campaign.turn, phase=campaign.phase,
                       state=await snapshot_state(s, campaign)))
        campaign.version += 1
        if faults.armed("resolution"):
            await repository.save(s, loaded, done.state, journal.events[:1])
            await s.flush()  # push the half-done work to the database, uncommitted, before the crash test
            faults.checkpoint("resolution")
        await repository.save(s, loaded, done.state, journal.events)
        clear_deadline(campaign)
        s.add(campaign)
        await _trim_snapshots(s, campaign_id)
    result = Resolution(campaign_id, done.before, done.after, campaign.version, battles=list(done.battles),
                        turn_ended=done.turn_ended)
    for e in journal.events:
        if e.roll is not None and e.visibility == "public":
            result.rolls.append(e.roll)
        elif e.roll is None and e.kind is EventKind.EVENT and not (e.data and "position" in e.data):
            if e.visibility == "public":
                result.events.append(e.text)
            elif e.side is not None:
                result.private.setdefault(e.side, []).append(e.text)
    return result


def clear_deadline(campaign: Campaign) -> None:
    """A phase's deadline and its reminders end with the phase."""
    campaign.deadline = None
    if "_reminded" in campaign.options:
        campaign.options = {k: v for k, v in campaign.options.items() if k != "_reminded"}


async def _trim_snapshots(s: AsyncSession, campaign_id: int) -> None:
    ids = (await s.exec(select(Snapshot.id).where(Snapshot.campaign_id == campaign_id)
                        .order_by(Snapshot.id.desc()).offset(SNAPSHOTS_KEPT))).all()  # type: ignore[union-attr]
    if ids:
        await s.exec(delete(Snapshot).where(Snapshot.id.in_(ids)))  # type: ignore[union-attr,call-overload]


# --- undo -----------------------------------------------------------------------------------


async def _keeping_settings(s: AsyncSession, campaign_id: int, tables: dict[str, Any]) -> dict[str, Any]:
    """The snapshot's rows with the bot's settings that live in them as they are now: each side's
    channel and each battle's thread (bookkeeping, not game state; undo restores the game only)."""
    channels = {r.key: r.channel_id for r in (await s.exec(select(SideRow).where(SideRow.campaign_id == campaign_id))).all()}
    threads = {r.number: r.thread_id for r in (await s.exec(select(BattleRow).where(BattleRow.campaign_id == campaign_id))).all()}
    out = dict(tables)
    side, battle = table_name(SideRow), table_name(BattleRow)
    out[side] = [{**row, "channel_id": channels.get(row.get("key"), row.get("channel_id"))} for row in tables.get(side, [])]
    out[battle] = [{**row, "thread_id": threads.get(row.get("number"), row.get("thread_id"))} for row in tables.get(battle, [])]
    return out


@dataclass(frozen=True)
class Undone:
    campaign_id: int
    back_to: TurnPosition
    version: int
    entries_marked: int


@dataclass(frozen=True)
class UndoPreview:
    """What ``/gm undo`` can do, said before the GM tries."""

    back_to: TurnPosition | None
    """Where undoing the last resolution goes back to (None: nothing to undo)."""
    sealed_turn: int | None
    """The last resolution ended this turn and revealed its seed: it cannot be undone."""
    undoable: int
    """How many resolutions can be undone one after the other."""
    earliest: TurnPosition | None
    """The furthest back those undos can go."""


def _position(snap: Snapshot) -> TurnPosition:
    return TurnPosition(snap.state["campaign"]["turn"], Phase(snap.state["campaign"]["phase"]))


async def _undo_points(s: AsyncSession, campaign_id: int) -> tuple[list[Snapshot], set[int]]:
    snaps = list((await s.exec(select(Snapshot).where(Snapshot.campaign_id == campaign_id)
                               .order_by(Snapshot.id.desc()))).all())  # type: ignore[union-attr]
    revealed = set((await s.exec(select(TurnSeed.turn).where(TurnSeed.campaign_id == campaign_id,
                                                            TurnSeed.revealed == True))).all())  # noqa: E712
    return snaps, revealed


async def undo_preview(db: Database, campaign_id: int, actor: Actor) -> UndoPreview:
    """GM: how far back undo can go. A resolution that ended a turn revealed that turn's seed, so
    undoing it would replay the rest of the turn on dice everybody knows: it cannot be undone."""
    async with db.sessions() as s:
        require_gm(await get_campaign(s, campaign_id), actor)
        snaps, revealed = await _undo_points(s, campaign_id)
    undoable = 0
    for snap in snaps:
        if _position(snap).turn in revealed:
            break
        undoable += 1
    return UndoPreview(
        _position(snaps[0]) if snaps else None,
        _position(snaps[0]).turn if snaps and _position(snaps[0]).turn in revealed else None,
        undoable,
        _position(snaps[undoable - 1]) if undoable else None,
    )


async def undo(db: Database, campaign_id: int, actor: Actor, *, expected_version: int) -> Undone:
    """GM: revert the last phase resolution. The log keeps everything, marking what was undone; doing
    the same things again draws the same dice (the rolls are keyed, not counted). A resolution that
    revealed a turn's seed cannot be undone (:func:`undo_preview`)."""
    async with db.transaction() as s:
        campaign = await get_campaign(s, campaign_id, lock=True)
        require_gm(campaign, actor)
        if campaign.version != expected_version:
            raise AlreadyResolved("The campaign changed since you looked (someone resolved or undid a phase): look again.")
        snaps, revealed = await _undo_points(s, campaign_id)
        if not snaps:
            raise NotFound("There is no phase resolution to undo.")
        snap = snaps[0]
        if (sealed := _position(snap).turn) in revealed:
            raise RuleViolation(
                "The last resolution ended turn {turn} and revealed the dice of turn {turn}: undoing it would replay "
                "the rest of that turn on dice everybody knows. Correct the campaign with /gm edit instead.",
                turn=sealed)
        await restore_tables(s, campaign_id, await _keeping_settings(s, campaign_id, snap.state["tables"]), PHASE_STATE)
        # The game goes back; the settings stay as they are now: the options (rule options, RU-22, and the
        # bot's own under "_"), like the language and GM role, which the snapshot does not hold.
        restore_campaign_fields(campaign, {k: v for k, v in snap.state["campaign"].items() if k != "options"})
        entries = (await s.exec(select(LogEntry).where(LogEntry.campaign_id == campaign_id,
                                                       LogEntry.version > snap.version,
                                                       LogEntry.undone == False,  # noqa: E712
                                                       LogEntry.kind != "undo"))).all()
        for e in entries:
            e.undone = True
            s.add(e)
        await s.delete(snap)
        clear_deadline(campaign)
        campaign.version += 1
        s.add(campaign)
        back = TurnPosition(campaign.turn, Phase(campaign.phase))
        await log_event(s, campaign, Msg("The GM undid the last phase resolution: back to {back}. {entries} log entries are marked "
                                         "undone; repeated rolls give the same dice.", back=str(back), entries=len(entries)),
                        kind="undo")
        return Undone(campaign_id, back, campaign.version, len(entries))
