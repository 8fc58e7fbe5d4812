"""What a write service does around the campaign core (:mod:`bot.campaign`): lock and load the
campaign, give the core the context of its dice, and save what the core returns.

A write service reads::

    return await shell.write(db, campaign_id, lambda state, journal: core_function(state, ..., journal))

which is::

    async with db.transaction() as s:
        loaded = await shell.load(s, campaign_id)
        journal = await loaded.journal()
        state, result = core_function(loaded.state, ..., journal, shell.context(rules))
        saved = await shell.save(s, loaded, state, journal)
    shell.remember(db, saved)  # committed: the next read needs no load
    return result
"""

from __future__ import annotations

import asyncio
import contextlib
from collections.abc import AsyncIterator, Callable, Hashable
from dataclasses import dataclass, field
from typing import Any, TypeVar

from sqlmodel.ext.asyncio.session import AsyncSession

from bot.campaign.botsettings import Book
from bot.campaign.dice import Context
from bot.campaign.events import Event, Journal
from bot.campaign.state import CampaignState
from bot.engine.tables import RuleBook, default_rulebook
from bot.store import chain, readcache, repository
from bot.store.db import Database
from bot.store.models import Campaign
from bot.store.repository import Loaded

from . import loading
from .readcache import read

T = TypeVar("T")
Step = Callable[[CampaignState, Journal], tuple[CampaignState, T]]
"""A core command: the state and the journal in, the new state and the command's answer out."""


@dataclass
class _Job:
    step: Step[Any]
    cache: bool
    done: asyncio.Future[Any]
    offload: bool = False


@dataclass
class _Queue:
    """The writes waiting for one campaign in this process, and whether a task is draining them."""

    loop: asyncio.AbstractEventLoop | None = None
    jobs: list[_Job] = field(default_factory=list)
    draining: bool = False
    lock: asyncio.Lock = field(default_factory=asyncio.Lock)
    task: asyncio.Task[None] | None = None


BATCH = 64
"""At most this many queued writes share one transaction."""
_QUEUES: dict[tuple[int, str, int], _Queue] = {}


def _queue(db: Database, campaign_id: int) -> _Queue:
    loop = asyncio.get_running_loop()
    key = (id(loop), db.url, campaign_id)
    q = _QUEUES.get(key)
    if q is None or q.loop is not loop:  # a loop gone since (tests) may have left its id to this one
        q = _QUEUES[key] = _Queue(loop=loop)
    return q


def _forget(db: Database, campaign_id: int, q: _Queue) -> None:
    """Drop an idle queue, so that a process holds one only for the campaigns being written to."""
    key = (id(q.loop), db.url, campaign_id)
    if _QUEUES.get(key) is q and not q.jobs and not q.draining and not q.lock.locked():
        del _QUEUES[key]


@contextlib.asynccontextmanager
async def queued(db: Database, campaign_id: int) -> AsyncIterator[None]:
    """Hold the campaign's write queue in this process (for a write made outside :func:`write`, like a
    resolution): the next queued write then starts from what this one leaves in the read cache."""
    q = _queue(db, campaign_id)
    try:
        async with q.lock:
            yield
    finally:
        _forget(db, campaign_id, q)


async def load(s: AsyncSession, campaign_id: int, db: Database | None = None) -> Loaded:
    """The campaign's state, its row locked for the write (NotFound for no such campaign, as ever). With
    ``db``, the read cache's state when nothing was committed since it (the stamp of the locked row is
    the entry's): a write then reads one row, not the whole campaign, nor the roll chain's end."""
    return await load_locked(s, await loading.get_campaign(s, campaign_id, lock=True), db)


async def load_locked(s: AsyncSession, campaign: Campaign, db: Database | None = None) -> Loaded:
    """:func:`load` for the campaign row the transaction has already locked (and checked)."""
    if db is not None and (hit := readcache.for_write(db, campaign)) is not None:
        if hit.chain is not None:
            chain.seed(s, campaign.id or 0, hit.chain)
        return Loaded(hit.state, campaign, hit.ids or {}, s)
    return await repository.load(s, campaign)


def context(rules: RuleBook | None = None) -> Context:
    """The core's context: the rules, and the source of new turn seeds (looked up when a seed is
    drawn, so that the demo and the tests may replace it: :func:`.loading.use_seed_source`)."""
    return Context(lambda: loading.new_turn_seed(), rules or default_rulebook())


async def save(s: AsyncSession, loaded: Loaded, new: CampaignState, journal: Journal | None = None) -> Loaded:
    """Write ``new`` (the members' sides included) and the journal's events."""
    return await repository.save(s, loaded, new, journal.events if journal is not None else ())


def remember(db: Database, saved: Loaded, chain_end: str | None = None, *, book: Book | None = None,
             started: Loaded | None = None) -> None:
    """After the transaction that saved ``saved`` has committed: the read cache may serve its state (and
    ``chain_end``, the roll chain's end it committed, taken with :func:`chain_end`; ``book``, the
    campaign's book as it left it). ``started``: what the transaction started from, when it wrote no
    player row but through the repository: the player rows (sides, absences, pings) are then the ones it
    loaded, or the cache's it started from, as long as the state's players are the same."""
    parts: dict[Hashable, Any] = {}
    carry: tuple[Hashable, ...] = ()
    if started is not None and (started.state.players is saved.state.players
                                or dict(started.state.players) == dict(saved.state.players)):
        if started.members is not None:  # loaded in this transaction
            parts[readcache.PLAYERS] = started.members
        else:  # the cache's entry, at the very stamp this transaction locked (readcache.for_write)
            carry = (readcache.PLAYERS,)
    readcache.remember(db, saved.campaign, repository.as_stored(saved.state), saved.ids, chain=chain_end, book=book,
                       parts=parts, carry=carry)


def chain_end(s: AsyncSession, saved: Loaded) -> str | None:
    """The roll chain's end as the transaction that saved ``saved`` leaves it (before it commits)."""
    return chain.known(s, saved.state.id)


async def write(db: Database, campaign_id: int, step: Step[T], *, cache: bool = True, offload: bool = False) -> T:
    """One user action: lock and load the campaign, apply ``step``, save, and (``cache``) hand the saved
    state to the read cache once committed. Returns the step's answer once committed. ``offload``: the step
    is long CPU work (the bot general deciding for its sides), run in a worker thread so that the event
    loop never waits for it (issue 25 item 4); the campaign's queue still runs one step at a time.

    Writes to one campaign queue in this process (issue 26 item 1): one task drains the queue, and the
    writes waiting when it starts a transaction share it (at most :data:`BATCH`): each step is applied
    to the state the step before it left, with its own journal chained to the one before (a step that
    refuses leaves nothing behind and gets its refusal), then one save and one commit for all, and
    the saved state goes to the read cache before the next transaction starts. So concurrent writers
    never load the whole campaign, and pay one commit between them. If that transaction fails, each of
    its writes is tried again alone, so that one write's failure is never another's."""
    q = _queue(db, campaign_id)
    job = _Job(step, cache, asyncio.get_running_loop().create_future(), offload)
    q.jobs.append(job)
    if not q.draining:
        q.draining = True
        q.task = asyncio.get_running_loop().create_task(_drain(db, campaign_id, q))
    return await job.done  # type: ignore[no-any-return]


async def _drain(db: Database, campaign_id: int, q: _Queue) -> None:
    try:
        while q.jobs:
            batch, q.jobs[:] = q.jobs[:BATCH], q.jobs[BATCH:]
            async with q.lock:
                try:
                    await _commit(db, campaign_id, batch)
                except Exception as exc:
                    if len(batch) == 1:
                        _settle(batch[0], exc)
                        continue
                    for job in batch:  # alone now: one write's failure is not the others'
                        if not job.done.done():
                            try:
                                await _commit(db, campaign_id, [job])
                            except Exception as alone:
                                _settle(job, alone)
    except BaseException as exc:  # cancelled with the loop: nobody waits for ever
        for job in q.jobs:
            _settle(job, exc if isinstance(exc, Exception) else asyncio.CancelledError())
        q.jobs.clear()
        raise
    finally:
        q.draining = False
        _forget(db, campaign_id, q)


def _settle(job: _Job, exc: BaseException | None = None, result: Any = None) -> None:
    if job.done.done():
        return
    if exc is not None:
        job.done.set_exception(exc)
    else:
        job.done.set_result(result)


async def _commit(db: Database, campaign_id: int, batch: list[_Job]) -> None:
    """One transaction for ``batch``: each step on the state the one before left, one save, one commit."""
    answers: list[tuple[_Job, Any]] = []
    async with db.transaction() as s:
        loaded = await load(s, campaign_id, db)
        first = await loaded.journal()
        state, end = loaded.state, first.chain_end
        events: list[Event] = []
        for job in batch:
            journal = Journal(end)
            try:
                if job.offload:
                    state, result = await asyncio.to_thread(job.step, state, journal)
                else:
                    state, result = job.step(state, journal)
            except Exception as exc:  # a refusal (or a defect) of this write alone: it leaves nothing
                if len(batch) == 1:
                    raise
                _settle(job, exc)
                continue
            events += journal.events
            end = journal.chain_end
            answers.append((job, result))
        saved = await repository.save(s, loaded, state, events)
        chain_known = chain_end(s, saved)
    if all(job.cache for job in batch):
        remember(db, saved, chain_known, started=loaded)  # steps change players through the state only
    for job, result in answers:
        _settle(job, result=result)


async def state(db: Database, campaign_id: int) -> CampaignState:
    """The campaign's state for a read, from the read cache (checked against the database)."""
    return (await read(db, campaign_id)).state
