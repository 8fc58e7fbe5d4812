"""The bot's own bookkeeping: its settings (auto-resolve, what a deadline does, absences), language,
GM role, side channels, battle threads, and the deadline and reminder claims of the scheduler.

The bookkeeping proper is the campaign's book (:class:`bot.campaign.botsettings.Book`), a row of its own
(:class:`bot.store.models.BookRow`, issue 22 item 1): writing it never changes the campaign row, so the
campaign's write stamp stays and the read cache keeps the game; the write hands the book it committed to
the cache (its row's revision tells readers in other processes). Writes that check the campaign's
version (a reminder's claim, a deadline's) lock the campaign row first, the order every write takes its
locks in. The language and the GM role are columns of the campaign row (the GM role is the
game's: who may act as GM); ``join_approval`` stays in the game's options (the core's rule of joining
reads it). No rules here: permissions go through :func:`bot.campaign.authority.require_gm`, and every
write is one transaction.

The book keeps the deadline's campaign version (``deadline_version``), so that a deadline never
resolves a later phase than its own, and the reminders sent for it (``reminded``).
"""

from __future__ import annotations

import contextlib
import datetime as dt
import logging
from collections.abc import AsyncIterator, Callable, Mapping
from contextvars import ContextVar
from dataclasses import dataclass, field, replace
from typing import Any

from bot.campaign import botsettings, formdraft, turn
from bot.campaign.authority import is_gm, require_gm
from bot.campaign.botsettings import (  # noqa: F401 (BOT_CHOICES, JOIN_APPROVAL, LANGUAGES, id_setting_kind: read by the settings cog)
    BOT_CHOICES,
    BOT_DEFAULTS,
    DEADLINE_HOURS,
    DEADLINE_HOURS_SUGGESTED,
    JOIN_APPROVAL,
    LANGUAGES,
    SIDE_CHANNEL,
    Book,
    bot_setting_names,
    choice,
    deadline_hours,
    id_setting_kind,
    language,
    setting_id,
    setting_name,
    value_name,
)
from bot.campaign.formdraft import FormDraft
from bot.campaign.state import BattleStatus
from bot.engine.errors import InvalidInput
from bot.engine.text import Msg
from bot.store import bookkeeping as rows
from bot.store import readcache as store_cache
from bot.store.bookkeeping import PlayerInfo
from bot.store.db import Database
from bot.store.log import log_event
from bot.store.models import Campaign
from bot.store.readcache import PLAYERS

from . import readcache
from .actors import Actor
from .errors import NotFound
from .loading import get_campaign

_log = logging.getLogger("adc.bookkeeping")

@dataclass(frozen=True)
class Meta:
    """What the bot needs to know about a campaign to post and schedule."""

    campaign_id: int
    name: str
    guild_id: int
    channel_id: int
    gm_id: int
    gm_role_id: int | None
    language: str
    version: int
    status: str
    book: Book = field(default_factory=Book)
    rule_options: dict[str, Any] = field(default_factory=dict)
    join_approval: bool = False

    @property
    def gm(self) -> Actor:
        return Actor(self.gm_id, frozenset({self.gm_role_id} if self.gm_role_id else ()), "GM")

    def setting(self, name: str) -> Any:
        """A bot setting's value (``join_approval`` the game's, the others the book's)."""
        if name == JOIN_APPROVAL:
            return self.join_approval
        return self.book.settings.get(name)

    @property
    def deadline(self) -> dt.datetime | None:
        return self.book.deadline

    @property
    def deadline_set(self) -> dt.datetime | None:
        """When the current deadline was set (None for one set before this was kept)."""
        return self.book.deadline_set

    @property
    def deadline_version(self) -> int | None:
        return self.book.deadline_version

    @property
    def reminded(self) -> tuple[str, ...]:
        return self.book.reminded


def _meta(c: Campaign, book: Book) -> Meta:
    opts = c.options or {}
    return Meta(c.id or 0, c.name, c.guild_id, c.channel_id, c.gm_id, c.gm_role_id, c.language or "en", c.version,
                c.status, book, {k: v for k, v in opts.items() if not k.startswith("_")},
                botsettings.requires_approval(opts))


async def meta(db: Database, campaign_id: int) -> Meta:
    cr = await readcache.read(db, campaign_id)
    return _meta(cr.campaign, cr.book)


async def require_gm_of(db: Database, campaign_id: int, actor: Actor) -> Meta:
    """The campaign's meta, or the services' refusal when ``actor`` is not its GM."""
    cr = await readcache.read(db, campaign_id)
    require_gm(cr.state, actor)
    return _meta(cr.campaign, cr.book)


async def is_gm_of(db: Database, campaign_id: int, actor: Actor) -> bool:
    """Whether ``actor`` is a GM of the campaign (its creator, or a member with its GM role)."""
    return is_gm((await readcache.read(db, campaign_id)).state, actor.member_id, actor.roles)


async def with_deadlines(db: Database, *, shards: tuple[int, frozenset[int]] | None = None,
                         on_error: Callable[[int, Exception], None] | None = None) -> list[Meta]:
    """Active campaigns that have a deadline (the scheduler's work list).

    ``shards`` = (shard count, shard ids): only the campaigns of guilds on those shards (a process
    that runs some of the shards). A campaign whose row or settings cannot be read is handed to
    ``on_error`` (logged when None) and left out: one bad campaign never fails the listing of all."""
    def failed(campaign_id: int, exc: Exception) -> None:
        if on_error is not None:
            on_error(campaign_id, exc)
        else:
            _log.error("event=campaign_unreadable campaign=%s kind=%s", campaign_id, type(exc).__name__, exc_info=exc)

    async with db.sessions() as s:
        found = await rows.campaigns_with_deadlines(s, shards=shards, failed=failed)
    out: list[Meta] = []
    for c, book in found:
        try:
            out.append(_meta(c, book))
        except Exception as exc:  # a malformed row (a book's settings = 5): this campaign only
            failed(c.id or 0, exc)
    return out


async def change_bot_setting(db: Database, campaign_id: int, gm: Actor, name: str, value: str) -> Any:
    """GM: change a bot setting (auto_resolve, at_deadline, away, language, gm_role, channel:SIDE).

    A role or channel is checked here as far as the database can (:func:`setting_id`); that it is one of
    the campaign's own server is for the caller, who can ask Discord (the settings command does)."""
    booked: Book | None = None
    async with db.transaction() as s:
        campaign = await get_campaign(s, campaign_id, lock=True)
        require_gm(campaign, gm)
        shown: Any
        if name == JOIN_APPROVAL:  # the game's: the core's rule of joining reads it
            campaign.options = botsettings.storing(campaign.options, name, shown := choice(name, value))
        elif name in BOT_CHOICES or name == DEADLINE_HOURS:
            shown = choice(name, value) if name in BOT_CHOICES else deadline_hours(value)
            booked = await rows.change_book(s, campaign_id, lambda b: replace(b, settings=b.settings.changed(name, shown)))
        elif name == "language":
            campaign.language = shown = language(value)
        elif name == "gm_role":
            campaign.gm_role_id = shown = setting_id(name, value, guild_id=campaign.guild_id)
        elif name.startswith(SIDE_CHANNEL):
            key = name[len(SIDE_CHANNEL):]
            if key not in await rows.side_keys(s, campaign_id):
                raise NotFound("There is no side {key!r} in this campaign.", key=key)
            shown = setting_id(name, value, guild_id=campaign.guild_id)
            booked = await rows.change_book(s, campaign_id, lambda b: replace(b, channels=_with(b.channels, key, shown)))
        else:
            raise InvalidInput("Unknown setting {name!r}.", name=name)
        if s.is_modified(campaign):  # the language, the GM role, join_approval: the campaign's own, logged
            s.add(campaign)
            said = value_name("none") if shown is None else f"<@&{shown}>" if name == "gm_role" else value_name(shown)
            await log_event(s, campaign, Msg("The GM set {name} to {value}.", name=setting_name(name), value=said),
                            kind="gm")  # named in the reader's words (issue 23), not `deadline_hours`
        # The book's settings and channels are not logged: a log row is the game's (its pages are read
        # with the state), and the change is announced in the channel (issue 22, item 1).
    if booked is not None:
        store_cache.remember_book(db, campaign_id, booked)
    return shown


def _with(ids: Mapping[Any, int], key: Any, value: int | None) -> dict[Any, int]:
    """``ids`` with ``key`` set to ``value`` (None: dropped)."""
    out = {k: v for k, v in ids.items() if k != key}
    if value is not None:
        out[key] = value
    return out


Change = Callable[[Book], Book]
_BATCH: ContextVar[tuple[int, list[Change]] | None] = ContextVar("adc_book_batch", default=None)


@contextlib.asynccontextmanager
async def batched(db: Database, campaign_id: int) -> AsyncIterator[None]:
    """The campaign's book writes of the block (the cards and threads one publishing posts) kept in one
    transaction at its end, the reads in it seeing them: a resolving click makes one bookkeeping write,
    not one per post (issue 22, item 1)."""
    pending: list[Change] = []
    token = _BATCH.set((campaign_id, pending))
    try:
        yield
    finally:
        _BATCH.reset(token)
        if pending:
            await change(db, campaign_id, lambda b: _applied(b, pending))


def _applied(book: Book, edits: list[Change]) -> Book:
    for edit in edits:
        book = edit(book)
    return book


async def change(db: Database, campaign_id: int, edit: Change) -> Book:
    """One bookkeeping write, from the cache's book when it is still current (one UPDATE), handed back
    to the cache once committed. No lock on the campaign row: the book row's (or its revision) is enough."""
    batch = _BATCH.get()
    if batch is not None and batch[0] == campaign_id:
        now = await book(db, campaign_id)
        batch[1].append(edit)
        return edit(now)
    async with db.transaction() as s:
        new = await rows.change_book(s, campaign_id, edit, known=store_cache.cached_book(db, campaign_id))
    store_cache.remember_book(db, campaign_id, new)
    return new


async def book(db: Database, campaign_id: int) -> Book:
    """The campaign's book as it stands (with the block's writes, in :func:`batched`)."""
    now = (await readcache.read(db, campaign_id)).book
    batch = _BATCH.get()
    return _applied(now, batch[1]) if batch is not None and batch[0] == campaign_id else now


async def card_message(db: Database, campaign_id: int) -> int | None:
    """The message id of the phase card now standing in the campaign's channel (None: none posted yet)."""
    return (await book(db, campaign_id)).card


async def set_card_message(db: Database, campaign_id: int, message_id: int | None) -> None:
    """Remember the phase card just posted (None: the card is done with)."""
    await change(db, campaign_id, lambda b: replace(b, card=message_id))


async def requests_card(db: Database, campaign_id: int) -> int | None:
    """The message id of the campaign's card of requests to join (issue 24, item 3): one, edited in place."""
    return (await book(db, campaign_id)).requests_card


async def set_requests_card(db: Database, campaign_id: int, message_id: int | None) -> None:
    """Remember the card of requests to join just posted (None: gone, every request answered)."""
    await change(db, campaign_id, lambda b: replace(b, requests_card=message_id))


async def note_deadline(db: Database, campaign_id: int) -> None:
    """Remember which campaign version the deadline just set belongs to."""
    async with db.transaction() as s:
        campaign = await get_campaign(s, campaign_id, lock=True)
        new = await rows.change_book(s, campaign_id, lambda b: replace(b, deadline_version=campaign.version))
    store_cache.remember_book(db, campaign_id, new)


async def claim(db: Database, campaign_id: int, tags: tuple[str, ...], *, version: int) -> bool:
    """Mark ``tags`` done for this deadline; True only for the one caller (process) that marked them
    first, while the campaign is still at ``version``."""
    async with db.transaction() as s:
        campaign = await get_campaign(s, campaign_id, lock=True)
        now = await rows.read_book(s, campaign_id)
        done = now.reminded
        if campaign.version != version or now.deadline is None or all(tag in done for tag in tags):
            return False
        new = await rows.change_book(s, campaign_id, lambda b: replace(
            b, reminded=(*done, *(t for t in tags if t not in done))))
    store_cache.remember_book(db, campaign_id, new)
    return True


async def clear_deadline(db: Database, campaign_id: int, *, resolved_from: int) -> bool:
    """Drop the deadline of a phase that has been resolved (the campaign moved past ``resolved_from``)."""
    async with db.transaction() as s:
        campaign = await get_campaign(s, campaign_id, lock=True)
        now = await rows.read_book(s, campaign_id)
        if campaign.version == resolved_from or now.deadline is None:
            return False
        if now.deadline_version is not None and now.deadline_version == campaign.version:
            return False  # a new deadline, set for the current phase
        new = await rows.change_book(s, campaign_id, lambda b: b.with_deadline(None))
    store_cache.remember_book(db, campaign_id, new)
    return True


async def _players(s: Any, state: Any) -> tuple[PlayerInfo, ...]:
    return await rows.player_infos(s, state.id)


async def players(db: Database, campaign_id: int) -> list[PlayerInfo]:
    """The members playing, with their absences and pings: a part of the read cache, kept across the writes
    that leave the player rows as they were (:data:`bot.store.readcache.PLAYERS`)."""
    cr = await readcache.read(db, campaign_id, {PLAYERS: _players})
    return list(cr.parts[PLAYERS])


@dataclass(frozen=True)
class Awaited:
    """Who the current phase waits for (:func:`bot.campaign.turn.waiting_for`): its sides' players, and
    the GM in Phase 3 (the reports)."""

    sides: tuple[str, ...]
    gm: bool
    players: tuple[PlayerInfo, ...]

    def to_ping(self, gm_id: int) -> tuple[int, ...]:
        """The members to mention: the players who keep their pings, and the GM when the phase waits for him."""
        return tuple(dict.fromkeys([*(p.member_id for p in self.players if p.pings), *([gm_id] if self.gm else [])]))


async def awaited(db: Database, campaign_id: int) -> Awaited:
    who = turn.waiting_for((await readcache.read(db, campaign_id)).state)
    sides = tuple(w for w in who if w != "gm")
    return Awaited(sides, "gm" in who, tuple(p for p in await players(db, campaign_id) if p.side in sides))


async def set_pings(db: Database, campaign_id: int, actor: Actor, on: bool) -> None:
    """A player mutes (or unmutes) their mentions and reminders for the campaign."""
    async with db.transaction() as s:
        await get_campaign(s, campaign_id)
        if not await rows.set_pings(s, campaign_id, actor.member_id, on):
            raise NotFound("You are not on a side in this campaign: use /campaign join first.")


async def side_channels(db: Database, campaign_id: int) -> dict[str, int]:
    """Each side's own channel, for the sides that have one."""
    return dict((await book(db, campaign_id)).channels)


async def battle_thread(db: Database, campaign_id: int, number: int) -> int | None:
    """The thread of a battle, if it has one."""
    return (await book(db, campaign_id)).threads.get(number)


async def set_battle_thread(db: Database, campaign_id: int, number: int, thread_id: int) -> None:
    """Keep the thread of a battle (nothing for a battle the campaign does not have)."""
    if number in (await readcache.read(db, campaign_id)).state.battles:
        await change(db, campaign_id, lambda b: replace(b, threads=_with(b.threads, number, thread_id)))


# --- report forms half entered (issue 23, item 2: nothing lost on restart) ------------------------------


def _open_battles(state: Any) -> list[int]:
    return [n for n, b in state.battles.items() if b.status == BattleStatus.PENDING]


async def form_draft(db: Database, campaign_id: int, battle: int, member: int) -> FormDraft | None:
    """What the member entered so far in their report form of ``battle`` (None: nothing kept)."""
    return (await book(db, campaign_id)).drafts.get(formdraft.key(battle, member))


async def keep_form_draft(db: Database, campaign_id: int, battle: int, member: int, draft: FormDraft) -> None:
    """Keep the member's report form as entered so far (one per member per battle; checked at the edge),
    and drop the drafts of battles no longer awaiting a report."""
    draft.checked()
    still = _open_battles((await readcache.read(db, campaign_id)).state)
    if battle not in still:
        return
    at = formdraft.key(battle, member)
    await change(db, campaign_id, lambda b: replace(b, drafts=formdraft.kept(
        {**{k: d for k, d in b.drafts.items() if k != at}, at: draft}, still)))


async def drop_form_drafts(db: Database, campaign_id: int, battle: int, member: int | None = None) -> None:
    """The member's draft of ``battle`` submitted (None: the battle resolved, every member's), and any of a
    battle no longer awaiting a report."""
    still = _open_battles((await readcache.read(db, campaign_id)).state)

    def edit(b: Book) -> Book:
        gone = [formdraft.key(battle, member)] if member is not None else \
            [k for k in b.drafts if formdraft.battle_of(k) == battle]
        return replace(b, drafts=formdraft.kept({k: d for k, d in b.drafts.items() if k not in gone}, still))

    if (await book(db, campaign_id)).drafts:
        await change(db, campaign_id, edit)
