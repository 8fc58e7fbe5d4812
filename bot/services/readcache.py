"""The read commands' way in: a campaign's state as the read cache holds it (:mod:`bot.store.readcache`,
checked against the database on every read), or the services' refusal for a campaign that does not
exist. Write paths hand the state they committed to the cache through :func:`.shell.remember`."""

from __future__ import annotations

from collections.abc import Hashable, Mapping

from bot.store import readcache as _cache
from bot.store.db import Database
from bot.store.readcache import CampaignRead, Loader, ensure
from bot.store.repository import CampaignNotFound

from .errors import NotFound

__all__ = ["CampaignRead", "Loader", "ensure", "read"]


async def read(db: Database, campaign_id: int, parts: Mapping[Hashable, Loader] | None = None) -> CampaignRead:
    """The campaign as it is now, with ``parts`` loaded (NotFound if there is no such campaign)."""
    try:
        return await _cache.read(db, campaign_id, parts)
    except CampaignNotFound:
        raise NotFound("There is no campaign #{campaign_id}.", campaign_id=campaign_id) from None
