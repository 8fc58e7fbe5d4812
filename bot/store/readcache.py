"""What read commands need from a campaign, kept per process and checked against the database on every read.

A campaign's :class:`~bot.campaign.state.CampaignState` is loaded once (:func:`bot.store.repository.load`)
and shared by every read until the campaign changes:

- Every read asks the database for the campaign's *stamp* (creation time, ``version`` and the write
  token every write transaction leaves, see :mod:`bot.store.stamp`): one indexed single-row query on a
  connection kept for it (no ORM, no pool checkout, no BEGIN), so another bot process's write is seen
  by the very next read on this one.
- An unchanged stamp serves the cached :class:`CampaignRead`; a changed one loads the campaign again,
  in one snapshot (SQLite's read transaction; REPEATABLE READ on PostgreSQL), campaign row first.
- The state holds what the read commands show (the current turn's declarations, every battle, the
  Glory ledger, the players...); what it does not hold (log pages) is loaded as a *part* the first
  time a reader asks for it, in a transaction that checks the stamp again first.
- Views derived from the state may be memoised on the entry (:meth:`CampaignRead.memo`): they are
  frozen dataclasses and tuples, shared by every reader with the same standing.
- A write path may hand the state it has just committed to the cache (:func:`remember`), so that the
  next read in this process needs no load at all.

The state is immutable, so readers cannot change what they share. The campaign row kept with it (its
name, channel, language) is a detached copy: never change it, never add it to a session. Write paths
load their own state inside their own locked transaction.

The bot's bookkeeping (:class:`~bot.campaign.botsettings.Book`: deadline, reminders, cards, settings)
is kept with the entry too, by its own row's revision, which the stamp query reads alongside: a
bookkeeping write changes that revision only, so the next read fetches the book (one small query) and
keeps the state (issue 22, item 1).

The cache holds at most :data:`MAX_CAMPAIGNS` campaigns (least recently read dropped first), one
stamp each, and at most :data:`MAX_PARTS` parts and :data:`MAX_MEMO` memoised views per campaign.
"""

from __future__ import annotations

import asyncio
import contextlib
import copy
import datetime as dt
import logging
import weakref
from collections import OrderedDict
from collections.abc import Awaitable, Callable, Hashable, Mapping
from typing import Any, ClassVar, TypeVar

from sqlalchemy import event
from sqlalchemy.util.concurrency import await_, in_greenlet
from sqlmodel import select
from sqlmodel.ext.asyncio.session import AsyncSession

from bot.campaign import authority
from bot.campaign.authority import Acting, Standing
from bot.campaign.botsettings import Book
from bot.campaign.sight import Reader
from bot.campaign.state import CampaignState

from . import repository
from .bookkeeping import read_book
from .campaigns import get_campaign
from .db import Database
from .models import BookRow, Campaign
from .repository import CampaignNotFound

T = TypeVar("T")
log = logging.getLogger("adc.readcache")

MAX_CAMPAIGNS = 256
MAX_PARTS = 32
MAX_MEMO = 64

Stamp = tuple[dt.datetime, int, str | None]
"""(created_at, version, write token): changes with every committed write to the campaign."""

Loader = Callable[[AsyncSession, CampaignState], Awaitable[Any]]
"""Loads one part of a campaign, given the session (in the entry's snapshot) and its state."""


def stamp_of(campaign: Campaign) -> Stamp:
    return (_utc(campaign.created_at), campaign.version, campaign.write_token)


def _utc(value: Any) -> dt.datetime:
    if isinstance(value, str):  # SQLite hands the driver's text over as it is
        value = dt.datetime.fromisoformat(value)
    return value.replace(tzinfo=dt.UTC) if value.tzinfo is None else value.astimezone(dt.UTC)


class CampaignRead:
    """One campaign as of one stamp: its state (immutable, shared), its row (the bot's bookkeeping,
    read-only) and what readers derived from them."""

    __slots__ = ("_memo", "book", "campaign", "chain", "ids", "parts", "stamp", "state")

    def __init__(self, stamp: Stamp, campaign: Campaign, state: CampaignState,
                 ids: dict[str, dict[Any, int]] | None = None, chain: str | None = None,
                 book: Book | None = None) -> None:
        self.stamp = stamp
        self.campaign = campaign
        self.state = state
        self.book = book if book is not None else Book()
        """The bot's bookkeeping as of its revision (replaced, never changed, when that moves on)."""
        self.ids = ids
        """The row ids the repository saves by (:class:`bot.store.repository.Loaded`), never changed in place."""
        self.chain = chain
        """The hash of the campaign's last roll record as of this stamp (None: not known), so that a write
        starting from this entry needs no query for it (:mod:`.chain`)."""
        self.parts: dict[Hashable, Any] = {}
        self._memo: dict[Hashable, tuple[Any, ...]] = {}

    @property
    def players(self) -> Mapping[int, str]:
        """Side key of each member playing, by member id."""
        return self.state.players

    def standing(self, actor: Acting) -> Standing:
        return authority.standing(self.state, actor)

    def reader(self, actor: Acting) -> Reader:
        """The actor as fog of war knows them (:mod:`bot.campaign.sight`)."""
        st = self.standing(actor)
        return Reader(st.gm, st.side)

    def memo(self, key: Hashable, build: Callable[[], T], *, pin: object = None) -> T:
        """``build()``, once per key for this stamp. Only for immutable results. ``pin`` is an object
        the result depends on by identity (the rule book): kept alive with it and compared with ``is``."""
        hit = self._memo.get(key)
        if hit is not None and hit[0] is pin:
            return hit[1]  # type: ignore[no-any-return]
        value = build()
        _bounded_put(self._memo, key, (pin, value), MAX_MEMO)
        return value


    async def memo_off_loop(self, key: Hashable, build: Callable[[], T], *, pin: object = None) -> T:
        """:meth:`memo`, with ``build()`` (pure CPU: a 500-Force map's fog of war) run in a worker thread
        when it is not kept already (issue 24 item 6)."""
        hit = self._memo.get(key)
        if hit is not None and hit[0] is pin:
            return hit[1]  # type: ignore[no-any-return]
        value = await asyncio.to_thread(build)
        _bounded_put(self._memo, key, (pin, value), MAX_MEMO)
        return value


_CACHE: OrderedDict[tuple[str, int], CampaignRead] = OrderedDict()


def _bounded_put(d: dict[Hashable, Any], key: Hashable, value: Any, limit: int) -> None:
    d.pop(key, None)
    while len(d) >= limit:
        del d[next(iter(d))]
    d[key] = value


def clear() -> None:
    """Forget every cached campaign (tests)."""
    _CACHE.clear()


def cached_campaigns() -> int:
    return len(_CACHE)


async def read(db: Database, campaign_id: int, parts: Mapping[Hashable, Loader] | None = None) -> CampaignRead:
    """The campaign as it is now, with ``parts`` loaded (:class:`CampaignNotFound` if there is no such
    campaign)."""
    key = (db.url, campaign_id)
    entry = _CACHE.get(key)
    if entry is not None and (now := await _current(db, campaign_id)) is not None and now[0] == entry.stamp:
        _CACHE.move_to_end(key)
        if now[1] != entry.book.revision:  # bookkeeping only: the state stays
            async with db.sessions() as s:
                entry.book = await read_book(s, campaign_id)
        if not parts or await ensure(db, entry, parts) is entry:
            return entry
    async with db.sessions() as s:
        await _snapshot(db, s)
        campaign = await get_campaign(s, campaign_id)
        if campaign is None:
            _CACHE.pop(key, None)
            raise CampaignNotFound(campaign_id)
        entry = await _load(s, campaign)
        await _load_parts(s, entry, parts or {}, MAX_PARTS)
    _bounded_put(_CACHE, key, entry, MAX_CAMPAIGNS)
    return entry


async def ensure(db: Database, cr: CampaignRead, parts: Mapping[Hashable, Loader],
                 *, keep: int = MAX_PARTS) -> CampaignRead | None:
    """``cr`` with ``parts`` loaded too, or None if the campaign has changed since ``cr`` (read it again).
    At most ``keep`` parts of a kind (a key's first item) stay with the entry."""
    missing = {k: v for k, v in parts.items() if k not in cr.parts}
    if not missing:
        return cr
    async with db.sessions() as s:
        await _snapshot(db, s)
        campaign = await get_campaign(s, cr.campaign.id or 0)
        if campaign is None or stamp_of(campaign) != cr.stamp:
            return None
        await _load_parts(s, cr, missing, keep)
    return cr


async def _load_parts(s: AsyncSession, cr: CampaignRead, parts: Mapping[Hashable, Loader], keep: int) -> None:
    for key, loader in parts.items():
        value = await loader(s, cr.state)
        kind = key[0] if isinstance(key, tuple) and key else key
        same = [k for k in cr.parts if (k[0] if isinstance(k, tuple) and k else k) == kind]
        for old in same[: max(0, len(same) - keep + 1)]:
            del cr.parts[old]
        _bounded_put(cr.parts, key, value, MAX_PARTS)


async def _snapshot(db: Database, s: AsyncSession) -> None:
    """Every query of this read transaction sees the same committed state (SQLite's read transactions
    already do; PostgreSQL's READ COMMITTED would give each query its own)."""
    if not db.sqlite:
        await s.connection(execution_options={"isolation_level": "REPEATABLE READ"})


async def _load(s: AsyncSession, campaign: Campaign) -> CampaignRead:
    loaded = await repository.load(s, campaign)
    entry = CampaignRead(stamp_of(campaign), campaign, loaded.state, loaded.ids, book=await read_book(s, campaign.id or 0))
    if loaded.members is not None:
        entry.parts[PLAYERS] = loaded.members
    return entry


def for_write(db: Database, campaign: Campaign) -> CampaignRead | None:
    """The cached campaign a write may start from instead of loading it: only when ``campaign``, the
    row the write has just locked, carries the very stamp of the entry (nothing was committed since),
    and the entry knows its row ids."""
    entry = _CACHE.get((db.url, campaign.id))
    if entry is None or entry.ids is None or entry.stamp != stamp_of(campaign):
        return None
    return entry


def cached_book(db: Database, campaign_id: int) -> Book | None:
    """The campaign's book as this process last read it (None: not cached): a write may start from it,
    at its revision (:func:`bot.store.bookkeeping.change_book`)."""
    entry = _CACHE.get((db.url, campaign_id))
    return None if entry is None else entry.book


def remember_book(db: Database, campaign_id: int, book: Book) -> None:
    """After a bookkeeping write has committed: ``book`` is the campaign's book as it now stands (its
    revision the write's), so the next read needs no query for it. Safe against races as
    :func:`remember` is: a read compares the revision in the database first."""
    entry = _CACHE.get((db.url, campaign_id))
    if entry is not None and book.revision >= entry.book.revision:
        entry.book = book


PLAYERS = "players"
"""The part that holds the campaign's player rows (sides, absences, pings: :mod:`bot.services.bookkeeping`).
Those rows change only with the state's players (a join, an assignment: the repository writes them), an
absence or a player's pings (written apart: their writes carry nothing over)."""


def remember(db: Database, campaign: Campaign, state: CampaignState,
             ids: dict[str, dict[Any, int]] | None = None, chain: str | None = None, *,
             book: Book | None = None, parts: Mapping[Hashable, Any] | None = None,
             carry: tuple[Hashable, ...] = ()) -> None:
    """After a write has committed: ``state`` is the campaign as it now stands in the database, and
    ``campaign`` its row as committed (its stamp the write's). The next read in this process is then
    served without a load.

    Only for a state that holds exactly what the transaction committed: the one the repository saved
    (:func:`bot.store.repository.save`), in a transaction that changed nothing else the state holds.
    ``book``: the campaign's book as that transaction left it (default: the cached one, checked by its
    revision on the next read); ``parts``: parts read in that transaction, after its writes; ``carry``:
    parts of the cached entry the transaction left as they were (its caller vouches for it).
    Safe against races: a read checks the stamp in the database first, so an entry remembered out of
    order, or for a write that did not commit, is simply loaded again."""
    if campaign.id is None or state.id != campaign.id:
        return
    row = Campaign.model_validate(copy.deepcopy(campaign.model_dump()))  # the caller's row may change again
    old = _CACHE.get((db.url, campaign.id))
    if book is None and old is not None:
        book = old.book  # its revision tells the next read whether it is still right
    entry = CampaignRead(stamp_of(row), row, state, ids, chain, book)
    if old is not None:
        entry.parts.update({k: old.parts[k] for k in carry if k in old.parts})
    entry.parts.update(parts or {})
    _bounded_put(_CACHE, (db.url, campaign.id), entry, MAX_CAMPAIGNS)


_STAMP_SQL = {
    "aiosqlite": "SELECT c.created_at, c.version, c.write_token, b.revision FROM campaign c "
                 "LEFT JOIN campaign_book b ON b.campaign_id = c.id WHERE c.id = ?",
    "asyncpg": "SELECT c.created_at, c.version, c.write_token, b.revision FROM campaign c "
               "LEFT JOIN campaign_book b ON b.campaign_id = c.id WHERE c.id = $1",
}


async def current_stamp(db: Database, campaign_id: int) -> Stamp | None:
    """The campaign's stamp in the database now (None if there is no such campaign): what changes with
    every committed write to its game (never with its bookkeeping)."""
    now = await _current(db, campaign_id)
    return None if now is None else now[0]


async def _current(db: Database, campaign_id: int) -> tuple[Stamp, int] | None:
    """The campaign's stamp in the database now (None if there is no such campaign).

    One query, outside any transaction (so it sees the latest commit), on a connection the cache keeps
    for it (:class:`_StampConnection`): through a session, or even a pooled SQLAlchemy Connection, the
    pool's checkout (with its ping on PostgreSQL), the BEGIN and the ROLLBACK cost more than the query
    (SQLite: 1.1 ms through a session, 0.3 ms on a pooled connection's driver, 0.12 ms on its own)."""
    driver = db.engine.dialect.driver
    if driver not in _STAMP_SQL:
        return await _pooled_stamp(db, campaign_id)
    held = await _StampConnection.of(db)
    try:
        async with held.lock:
            row = await _fetch_stamp(driver, held.driver, campaign_id)
    except Exception:  # a broken connection (the server restarted...): drop it, ask through the pool
        log.warning("event=stamp_connection_dropped", exc_info=True)
        held.discard(db)
        return await _pooled_stamp(db, campaign_id)
    return None if row is None else ((_utc(row[0]), row[1], row[2]), row[3] or 0)


async def _fetch_stamp(driver: str, connection: Any, campaign_id: int) -> Any:
    sql = _STAMP_SQL[driver]
    if driver == "aiosqlite":
        rows = list(await connection.execute_fetchall(sql, (campaign_id,)))
        return rows[0] if rows else None
    return await connection.fetchrow(sql, campaign_id)


async def _pooled_stamp(db: Database, campaign_id: int) -> tuple[Stamp, int] | None:
    async with db.engine.connect() as conn:
        stmt = (select(Campaign.created_at, Campaign.version, Campaign.write_token, BookRow.revision)
                .outerjoin(BookRow, BookRow.campaign_id == Campaign.id).where(Campaign.id == campaign_id))
        found = (await conn.execute(stmt)).first()
    return None if found is None else ((_utc(found[0]), found[1], found[2]), found[3] or 0)


class _StampConnection:
    """The connection the stamp queries of one :class:`Database` use, in one event loop: taken from the
    engine's pool once (so it is set up like the others), detached from it, and closed when the engine
    is disposed. Queries on it are serialised (asyncpg runs one at a time); each is a few tenths of a
    millisecond."""

    _held: ClassVar[weakref.WeakKeyDictionary[Database, _StampConnection]] = weakref.WeakKeyDictionary()

    def __init__(self, loop: asyncio.AbstractEventLoop, raw: Any, driver: Any) -> None:
        self.loop = loop
        self.raw = raw
        self.driver = driver
        self.lock = asyncio.Lock()

    @classmethod
    async def of(cls, db: Database) -> _StampConnection:
        loop = asyncio.get_running_loop()
        held = cls._held.get(db)
        if held is not None and held.loop is loop:
            return held
        if held is not None:  # another event loop's (tests): of no use here
            held.discard(db)
        raw = await db.engine.raw_connection()
        held = cls(loop, raw, raw.driver_connection)
        raw.detach()  # ours now: the pool neither lends nor resets it
        cls._held[db] = held
        engine = db.engine.sync_engine
        if not event.contains(engine, "engine_disposed", _StampConnection._on_dispose):
            event.listen(engine, "engine_disposed", _StampConnection._on_dispose)
        return held

    @staticmethod
    def _on_dispose(engine: Any) -> None:
        for db, held in list(_StampConnection._held.items()):
            if db.engine.sync_engine is engine:
                held.close(db)

    def close(self, db: Database) -> None:
        """Close the connection (from ``Database.dispose``, which runs this in SQLAlchemy's greenlet)."""
        self._held.pop(db, None)
        try:
            running = asyncio.get_running_loop()
        except RuntimeError:
            running = None
        if running is self.loop and in_greenlet():
            try:
                await_(self.driver.close())
                return
            except Exception:
                log.debug("event=stamp_connection_close_failed", exc_info=True)
        self._abort()

    def discard(self, db: Database) -> None:
        self._held.pop(db, None)
        self._abort()

    def _abort(self) -> None:
        with contextlib.suppress(Exception):
            if hasattr(self.driver, "terminate"):  # asyncpg
                self.driver.terminate()
            else:  # aiosqlite: its (daemon) thread closes the connection and ends
                self.driver.stop()
