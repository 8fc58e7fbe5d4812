"""Resolve the current phase (MC-3) and start the next; undo the last resolution.

Resolution is atomic and idempotent: the caller passes the campaign version it saw; inside one
transaction, with the campaign row locked, a different version means somebody resolved (or undid)
first and the call is refused with :class:`AlreadyResolved`. The state before is kept as a
snapshot for undo. Phases that need nobody (the bot's phases, and battle phases without battles)
are resolved in the same step, up to the next phase that waits for people or the start of a turn.
"""

from __future__ import annotations

import asyncio
import datetime as dt
from dataclasses import dataclass, field

from bot.campaign import announce, turn
from bot.campaign.authority import require_gm
from bot.campaign.dice import Context
from bot.campaign.events import Journal, news
from bot.campaign.frames import Frame, end_of_turn
from bot.campaign.general import Acted, act_all
from bot.campaign.state import CampaignState
from bot.engine.errors import RuleViolation
from bot.engine.phases import Phase, TurnPosition
from bot.engine.rolls import BatchRoll, Roll
from bot.engine.tables import RuleBook
from bot.engine.text import Msg
from bot.store import frames, readcache, repository, snapshots
from bot.store import log as store_log
from bot.store.bookkeeping import change_book
from bot.store.db import Database
from bot.store.log import log_event
from bot.store.models import EncodedJSON, utcnow
from bot.store.seeds import revealed_turns
from bot.store.snapshots import snapshot_position

from . import faults, general, shell
from .actors import Actor
from .errors import AlreadyResolved, NotFound
from .loading import get_campaign

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
    rolls: list[Roll | BatchRoll] = field(default_factory=list)
    battles: list[int] = field(default_factory=list)
    turn_ended: bool = False
    ended: bool = False
    """The campaign ended with this resolution (RU-25): the turn it ended in is ``after.turn``."""
    plan: announce.Plan = field(default_factory=announce.Plan)
    """What to post, where and for whom (:mod:`bot.campaign.announce`)."""
    generals: tuple[Acted, ...] = ()
    """What the bot general did for each side it plays when the new phase opened (RU-26)."""


async def resolve_phase(db: Database, campaign_id: int, actor: Actor, *, expected_version: int,
                        forced: bool = False, rules: RuleBook | None = None,
                        now: dt.datetime | None = None) -> Resolution:
    """GM (or the deadline, with ``actor`` the GM): resolve the current phase and start the next, with its
    default deadline counted from ``now`` (the clock by default)."""
    ctx = shell.context(rules)
    async with shell.queued(db, campaign_id):
        async with db.transaction() as s:
            campaign = await get_campaign(s, campaign_id, lock=True)
            require_gm(campaign, actor)
            if campaign.status != "active":
                raise RuleViolation("The campaign {name!r} has ended.", name=campaign.name)
            if campaign.version != expected_version:
                raise AlreadyResolved(
                    "This phase was already resolved (or undone) by someone else: the campaign is now at "
                    "{turnposition}.", turnposition=TurnPosition(campaign.turn, Phase(campaign.phase)))
            loaded = await shell.load_locked(s, campaign, db)  # the read cache's state when nothing changed since
            journal = await loaded.journal()
            # The core's resolution and the undo snapshot's encoding in a worker thread (issue 26 item 4):
            # a 2,000-Force movement takes a few hundred ms, which the event loop must not wait for.
            done, after, acted, game, frame = await asyncio.to_thread(_resolve, loaded.state, journal, ctx, forced)
            snapshots.save_snapshot(s, campaign, loaded.state, game)  # from the state loaded, through the codec
            campaign.version += 1
            # RU-25: an ended campaign waits for nobody; a new campaign's Phase 0 waits for the GM
            book = await change_book(s, campaign_id, lambda b: b.next_phase(
                not done.ended and done.after.phase is not Phase.WEATHER, now=now or utcnow(), version=campaign.version),
                known=readcache.cached_book(db, campaign_id))  # one UPDATE while the cache's book is current
            if faults.armed("resolution"):
                await repository.save(s, loaded, done.state, journal.events[:1])
                await s.flush()  # push the half-done work to the database, uncommitted, before the crash test
                faults.checkpoint("resolution")
            saved = await repository.save(s, loaded, after, journal.events)  # the row's one UPDATE with it
            if frame is not None:  # the timelapse's frame of the turn just ended, in the same transaction
                await frames.save_frame(s, campaign_id, frame)
            await snapshots.trim_snapshots(s, campaign_id, keep=SNAPSHOTS_KEPT)
            end = shell.chain_end(s, saved)
        # Committed: the first read (or write) after it needs no load, nor a query for the book or the players.
        shell.remember(db, saved, end, book=book, started=loaded)
    told, plan = await asyncio.to_thread(lambda: (  # what to tell whom: pure, over every Force (off the loop)
        news(journal.events), announce.resolution(loaded.state, after, journal.events, battles=done.battles,
                                                  turn_ended=done.turn_ended, frame=frame, forced=forced)))
    return Resolution(campaign_id, done.before, done.after, campaign.version, told.public, told.private,
                      told.rolls, list(done.battles), done.turn_ended, done.ended, plan, acted)


def _resolve(state: CampaignState, journal: Journal, ctx: Context, forced: bool
             ) -> tuple[turn.Resolved, CampaignState, tuple[Acted, ...], EncodedJSON, Frame | None]:
    """The core's resolution (refused first if the phase cannot end), what the bot general then did for the
    sides it plays as the new phase opened (RU-26), the snapshot of the state before it (its JSON), and
    the timelapse's frame of a turn that ended: pure CPU, all of it run in a worker thread."""
    done = turn.resolve(state, journal, ctx, forced=forced)
    after, acted = act_all(done.state, journal, ctx, report_battle=general.reporter())
    frame = end_of_turn(state, done.state, ctx.rules) if done.turn_ended else None
    return done, after, acted, snapshots.encoded_game(state), frame


# --- undo -----------------------------------------------------------------------------------


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


async def undo_preview(db: Database, campaign_id: int, actor: Actor) -> UndoPreview:
    """GM: how far back undo can go. A resolution that ended a turn revealed that turn's seed, so
    undoing it would replay the rest of the turn on dice everybody knows: it cannot be undone."""
    async with db.sessions() as s:
        require_gm(await get_campaign(s, campaign_id), actor)
        points = [snapshot_position(snap) for snap in await snapshots.list_snapshots(s, campaign_id)]
        revealed = await revealed_turns(s, campaign_id)
    undoable = 0
    for point in points:
        if point.turn in revealed:
            break
        undoable += 1
    return UndoPreview(
        points[0] if points else None,
        points[0].turn if points and points[0].turn in revealed else None,
        undoable,
        points[undoable - 1] if undoable else None,
    )


async def undo(db: Database, campaign_id: int, actor: Actor, *, expected_version: int) -> Undone:
    """GM: revert the last phase resolution. The log keeps everything, marking what was undone; doing
    the same things again draws the same dice (the rolls are keyed, not counted). A resolution that
    revealed a turn's seed cannot be undone (:func:`undo_preview`). The snapshot's game is decoded
    through the codec over the state as it is now (members, seeds and settings stay) and saved as any
    write is; the log's marks are not in the state, so the read cache is left to load the campaign again."""
    async with shell.queued(db, campaign_id), db.transaction() as s:
        campaign = await get_campaign(s, campaign_id, lock=True)
        require_gm(campaign, actor)
        if campaign.version != expected_version:
            raise AlreadyResolved("The campaign changed since you looked (someone resolved or undid a phase): look again.")
        snaps = await snapshots.list_snapshots(s, campaign_id)
        if not snaps:
            raise NotFound("There is no phase resolution to undo.")
        snap = snaps[0]
        if (sealed := snapshot_position(snap).turn) in await revealed_turns(s, campaign_id):
            raise RuleViolation(
                "The last resolution ended turn {turn} and revealed the dice of turn {turn}: undoing it would replay "
                "the rest of that turn on dice everybody knows. Correct the campaign with /gm edit instead.",
                turn=sealed)
        undone_version = snap.version
        loaded = await shell.load_locked(s, campaign, db)
        restored = snapshots.game_of(snap, loaded.state)
        first = await store_log.first_after(s, campaign_id, undone_version)  # the chain goes back to its prev
        await change_book(s, campaign_id, lambda b: b.with_deadline(None))  # the phase's deadline ends with it
        campaign.version += 1
        if restored is None:  # a snapshot of the campaign's rows, kept before the codec did it
            await snapshots.restore_snapshot(s, campaign, snap)  # the game goes back; the settings stay
        else:
            await repository.save(s, loaded, restored)  # the game goes back; the settings stay as they are now
            await s.delete(snap)
        marked = await store_log.mark_undone(s, campaign_id, after_version=undone_version)
        s.add(campaign)
        back = TurnPosition(campaign.turn, Phase(campaign.phase))
        said = Msg("The GM undid the last phase resolution: back to {back}. {entries} log entries are marked "
                   "undone; repeated rolls give the same dice.", back=str(back), entries=marked)
        if first is not None and isinstance((first.data or {}).get("prev"), str):  # rolls undone: chained (issue 24)
            await store_log.log_undo(s, campaign, said, after=first.data["prev"])
        else:
            await log_event(s, campaign, said, kind="undo")
        return Undone(campaign_id, back, campaign.version, marked)
