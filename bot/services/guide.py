"""``/help``: what a member can do now, from the campaign's state (:mod:`bot.campaign.guide`)."""

from __future__ import annotations

from bot.campaign import guide
from bot.store.db import Database

from . import readcache
from .actors import Actor


async def next_steps(db: Database, campaign_id: int, actor: Actor) -> tuple[guide.Step, ...]:
    cr = await readcache.read(db, campaign_id)
    reader = cr.reader(actor)
    return cr.memo(("guide", reader.gm, reader.side), lambda: guide.next_steps(cr.state, reader))
