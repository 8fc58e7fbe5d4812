"""RU-27 Quick battle for members: "Resolve quickly" (``battles: ask``), one write (:func:`.shell.write`)."""

from __future__ import annotations

from bot.campaign import quick as core
from bot.engine.tables import RuleBook
from bot.store.db import Database

from . import shell
from .actors import Actor

Agreement = core.Agreement


async def resolve_quickly(db: Database, campaign_id: int, actor: Actor, battle: int | str,
                          *, rules: RuleBook | None = None) -> Agreement:
    """A player's camp agrees to resolve a pending battle quickly (resolved once every human camp has), or the
    GM resolves it at once (RU-27); its report is applied as a table battle's (BR)."""
    return await shell.write(db, campaign_id, lambda state, journal: core.agree_by(
        state, actor, battle, journal, shell.context(rules)))
