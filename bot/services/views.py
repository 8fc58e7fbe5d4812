"""What each reader may see: the read commands, served from the read cache (:mod:`.readcache`).

Each is load, call the core, return: fog of war and every view are decided in
:mod:`bot.campaign.views` (and :mod:`bot.campaign.sight`), from the campaign's state. A side's view
never holds another side's orders, rolls before resolution, or Forces out of its sight; the GM sees
everything.
"""

from __future__ import annotations

import datetime as dt
from collections.abc import Callable
from dataclasses import dataclass

from sqlmodel.ext.asyncio.session import AsyncSession

from bot.campaign import gazette as news
from bot.campaign import reminders
from bot.campaign import views as core
from bot.campaign.gazette import Gazette
from bot.campaign.state import CampaignState
from bot.campaign.views import ForceView, StatusView, UnitView, Waiting, force_view  # noqa: F401 (re-exported)
from bot.engine.rolls import RollRecord, record_from_dict
from bot.engine.tables import RuleBook, default_rulebook
from bot.store.db import Database
from bot.store.log import log_page

from . import readcache
from .actors import Actor
from .errors import NotFound
from .logbook import entry_text


async def status(db: Database, campaign_id: int, actor: Actor, *, rules: RuleBook | None = None) -> StatusView:
    """The campaign's status as ``actor`` sees it, with every Force in their sight."""
    return await _status(db, campaign_id, actor, rules, core.status)


async def status_card(db: Database, campaign_id: int, actor: Actor, *, rules: RuleBook | None = None) -> StatusView:
    """:func:`status` with only the Forces a member's status card shows (``/campaign status``), and how
    many of each side they see (:func:`bot.campaign.views.status_card`, issue 26 item 2)."""
    return await _status(db, campaign_id, actor, rules, core.status_card)


async def _status(db: Database, campaign_id: int, actor: Actor, rules: RuleBook | None,
                  build: Callable[..., StatusView]) -> StatusView:
    rules = rules or default_rulebook()
    cr = await readcache.read(db, campaign_id)
    reader = cr.reader(actor)
    campaign, deadline = cr.campaign, cr.book.deadline  # the deadline is the book's: it moves on its own
    return cr.memo((build.__name__, reader.gm, reader.side, deadline),
                   lambda: build(cr.state, reader, deadline=deadline, version=campaign.version, rules=rules),
                   pin=rules)


async def missing(db: Database, campaign_id: int, side: str) -> reminders.Missing:
    """What a side still has to do in this phase (its reminder; for its own players only)."""
    return reminders.missing((await readcache.read(db, campaign_id)).state, side)


async def did_not_act(db: Database, campaign_id: int) -> tuple[str, ...]:
    """The sides the phase still waits for at its deadline, and what the rules do for each (public)."""
    return reminders.did_not_act((await readcache.read(db, campaign_id)).state)


async def my_forces(db: Database, campaign_id: int, actor: Actor) -> tuple[ForceView, ...]:
    """The reader's side's Forces, with what each still has to do this phase."""
    cr = await readcache.read(db, campaign_id)
    side = cr.reader(actor).side
    if side is None:
        raise NotFound("You are not on a side in this campaign: use /campaign join first.")
    return cr.memo(("my_forces", side), lambda: core.side_forces(cr.state, side))


async def force_info(db: Database, campaign_id: int, actor: Actor, force: str) -> ForceView:
    cr = await readcache.read(db, campaign_id)
    reader = cr.reader(actor)
    visible = cr.memo(("visible", reader.gm, reader.side), lambda: core.visible_forces(cr.state, reader))
    view = core.force_info(cr.state, reader, force, visible=visible)
    if view is None:
        raise NotFound("No Force {force!r} is in your sight.", force=force)
    return view


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
"""First log pages up to this many lines are kept with the campaign's cached state, at most
:data:`LOG_PAGES` of them per campaign (the readers' visibilities and turns)."""
LOG_PAGES = 4


async def read_log(db: Database, campaign_id: int, actor: Actor, *, turn: int | None = None,
                   limit: int = 50, before_id: int | None = None) -> tuple[LogLine, ...]:
    """The log as the reader may see it: public entries, their side's private ones and the dice of the
    battles their side fought, everything for the GM (:func:`bot.campaign.views.log_visibilities`)."""

    def loader(visibility: frozenset[str] | None) -> readcache.Loader:
        async def page(s: AsyncSession, _state: CampaignState) -> tuple[LogLine, ...]:
            rows = await log_page(s, campaign_id, visibility=visibility, turn=turn, before_id=before_id, limit=limit)
            return tuple(
                LogLine(e.turn, e.phase, e.kind, entry_text(e), e.visibility != "public", e.undone, e.created_at)
                for e in rows
            )

        return page

    cr = await readcache.read(db, campaign_id)
    visibility = core.log_visibilities(cr.state, cr.reader(actor))
    if before_id is None and limit <= LOG_CACHED:
        key = ("log", visibility, turn, limit)
        if await readcache.ensure(db, cr, {key: loader(visibility)}, keep=LOG_PAGES) is None:
            # The campaign changed meanwhile: the log as it is now.
            cr = await readcache.read(db, campaign_id)
            visibility = core.log_visibilities(cr.state, cr.reader(actor))
            key = ("log", visibility, turn, limit)
            if await readcache.ensure(db, cr, {key: loader(visibility)}, keep=LOG_PAGES) is None:
                async with db.sessions() as s:
                    return await loader(visibility)(s, cr.state)
        return cr.parts[key]  # type: ignore[no-any-return]
    async with db.sessions() as s:  # an older page, or a long one
        return await loader(visibility)(s, cr.state)


async def gazette(db: Database, campaign_id: int, actor: Actor, turn: int, *,
                  rules: RuleBook | None = None) -> Gazette:
    """Turn ``turn`` in a few plain sentences, as the reader may be told it
    (:func:`bot.campaign.gazette.gazette`), from the state and the turn's log entries they may read."""
    cr = await readcache.read(db, campaign_id)
    reader = cr.reader(actor)
    visibility = core.log_visibilities(cr.state, reader)
    async with db.sessions() as s:
        rows = await log_page(s, campaign_id, visibility=visibility, turn=turn, limit=2000)
    entries = [(e.visibility, entry_text(e)) for e in rows if not e.undone and e.kind == "event"]
    return news.gazette(cr.state, reader, turn, entries, rules=rules or default_rulebook())


async def turn_rolls(db: Database, campaign_id: int, actor: Actor, turn: int) -> tuple[RollRecord, ...]:
    """The rolls of turn ``turn`` the reader may see (the log's visibilities, fog of war), in order, undone
    ones left out: what a gazette's "Dice of this turn" shows."""
    cr = await readcache.read(db, campaign_id)
    visibility = core.log_visibilities(cr.state, cr.reader(actor))
    async with db.sessions() as s:
        rows = await log_page(s, campaign_id, visibility=visibility, turn=turn, limit=2000)
    return tuple(record_from_dict(e.data) for e in rows if e.kind == "roll" and not e.undone and e.data)
