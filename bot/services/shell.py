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

from collections.abc import Callable
from typing import TypeVar

from sqlmodel.ext.asyncio.session import AsyncSession

from bot.campaign.dice import Context
from bot.campaign.events import Journal
from bot.campaign.state import CampaignState
from bot.engine.tables import RuleBook, default_rulebook
from bot.store import readcache, repository
from bot.store.db import Database
from bot.store.repository import Loaded

from . import loading
from .readcache import read

T = TypeVar("T")
Step = Callable[[CampaignState, Journal], tuple[CampaignState, T]]
"""A core command: the state and the journal in, the new state and the command's answer out."""


async def load(s: AsyncSession, campaign_id: int, db: Database | None = None) -> Loaded:
    """The campaign's state, its row locked for the write (NotFound for no such campaign, as ever). With
    ``db``, the read cache's state when nothing was committed since it (the stamp of the locked row is
    the entry's): a write then reads one row, not the whole campaign."""
    campaign = await loading.get_campaign(s, campaign_id, lock=True)
    if db is not None and (hit := readcache.for_write(db, campaign)) is not None:
        return Loaded(hit.state, campaign, hit.ids or {}, s)
    return await repository.load(s, campaign)


def context(rules: RuleBook | None = None) -> Context:
    """The core's context: the rules, and the source of new turn seeds (looked up when a seed is
    drawn, so that the demo and the tests may replace it: :func:`.loading.use_seed_source`)."""
    return Context(lambda: loading.new_turn_seed(), rules or default_rulebook())


async def save(s: AsyncSession, loaded: Loaded, new: CampaignState, journal: Journal | None = None) -> Loaded:
    """Write ``new`` (the members' sides included) and the journal's events."""
    return await repository.save(s, loaded, new, journal.events if journal is not None else ())


def remember(db: Database, saved: Loaded) -> None:
    """After the transaction that saved ``saved`` has committed: the read cache may serve its state."""
    readcache.remember(db, saved.campaign, saved.state, saved.ids)


async def write(db: Database, campaign_id: int, step: Step[T], *, cache: bool = True) -> T:
    """One user action: lock and load the campaign, apply ``step``, save, and (``cache``) hand the saved
    state to the read cache once committed. Returns the step's answer."""
    async with db.transaction() as s:
        loaded = await load(s, campaign_id, db)
        journal = await loaded.journal()
        state, result = step(loaded.state, journal)
        saved = await save(s, loaded, state, journal)
    if cache:
        remember(db, saved)
    return result


async def state(db: Database, campaign_id: int) -> CampaignState:
    """The campaign's state for a read, from the read cache (checked against the database)."""
    return (await read(db, campaign_id)).state
