"""What a write service does around the campaign core (:mod:`bot.campaign`): lock and load the
campaign, give the core the context of its dice, and save what the core returns.

A write service reads::

    async with db.transaction() as s:
        loaded = await shell.load(s, campaign_id)
        journal = await loaded.journal()
        state, result = core_function(loaded.state, ..., journal, shell.context(rules))
        saved = await shell.save(s, loaded, state, journal)
    shell.remember(db, saved)  # committed: the next read needs no load
    return result
"""

from __future__ import annotations

from sqlmodel import col, delete, select
from sqlmodel.ext.asyncio.session import AsyncSession

from bot.campaign.dice import Context
from bot.campaign.events import Journal
from bot.campaign.state import CampaignState
from bot.engine.tables import RuleBook, default_rulebook
from bot.store import repository
from bot.store.db import Database
from bot.store.models import Player
from bot.store.repository import Loaded

from . import loading, readcache


async def load(s: AsyncSession, campaign_id: int) -> Loaded:
    """The campaign's state, its row locked for the write (NotFound for no such campaign, as ever)."""
    campaign = await loading.get_campaign(s, campaign_id, lock=True)
    return await repository.load(s, campaign)


def context(rules: RuleBook | None = None) -> Context:
    """The core's context: the rules, and the source of new turn seeds (looked up when a seed is
    drawn, so that the demo and the tests may replace it: :func:`.loading.use_seed_source`)."""
    return Context(lambda: loading.new_turn_seed(), rules or default_rulebook())


async def save(s: AsyncSession, loaded: Loaded, new: CampaignState, journal: Journal | None = None) -> Loaded:
    """Write ``new`` and the journal's events. The members' sides (``state.players``) are written
    here: the repository does not write them (yet)."""
    await _save_players(s, loaded, new)
    return await repository.save(s, loaded, new, journal.events if journal is not None else ())


def remember(db: Database, saved: Loaded) -> None:
    """After the transaction that saved ``saved`` has committed: the read cache may serve its state."""
    readcache.remember(db, saved.campaign, saved.state)


async def _save_players(s: AsyncSession, loaded: Loaded, new: CampaignState) -> None:
    old = loaded.state
    if new.players is old.players or dict(new.players) == dict(old.players):
        return
    cid = old.id
    gone = [m for m in old.players if m not in new.players]
    if gone:
        await s.exec(delete(Player).where(Player.campaign_id == cid, col(Player.member_id).in_(gone)))  # type: ignore[call-overload]
    changed = {m: side for m, side in new.players.items() if old.players.get(m) != side}
    rows = {p.member_id: p for p in (await s.exec(select(Player).where(
        Player.campaign_id == cid, col(Player.member_id).in_(list(changed))))).all()}
    for member, side in changed.items():
        row = rows.get(member)
        if row is None:
            row = Player(campaign_id=cid, side_key=side, member_id=member)
        else:
            row.side_key = side
        s.add(row)
