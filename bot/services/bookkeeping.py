"""The bot's own bookkeeping: its settings (auto-resolve, what a deadline does, absences), language,
GM role, side channels, battle threads, and the deadline and reminder claims of the scheduler.

Kept to plain reads and small locked writes of columns that already exist (``campaign.language``,
``gm_role_id``, ``deadline``, ``options``; ``side.channel_id``; ``battle.thread_id``). No rules
here: permissions go through :func:`bot.campaign.authority.require_gm`, and every write is one
transaction that locks the campaign row first, like the services' own.

Bot settings live in ``campaign.options["_bot"]``; the deadline bookkeeping in
``options["_reminded"]`` (reset by :func:`bot.services.gm.set_deadline`) and
``options["_bot"]["deadline_version"]``: the campaign version the deadline was set for, so a
deadline never resolves a later phase than its own.
"""

from __future__ import annotations

import datetime as dt
import logging
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from bot.campaign import botsettings, turn
from bot.campaign.authority import is_gm, require_gm
from bot.campaign.botsettings import (  # noqa: F401 (BOT_CHOICES, JOIN_APPROVAL, LANGUAGES, id_setting_kind: read by the settings cog)
    BOT_CHOICES,
    BOT_DEFAULTS,
    DEADLINE_HOURS,
    DEADLINE_HOURS_SUGGESTED,
    JOIN_APPROVAL,
    LANGUAGES,
    SIDE_CHANNEL,
    bot_setting_names,
    choice,
    deadline_hours,
    id_setting_kind,
    language,
    setting_id,
    setting_name,
    value_name,
)
from bot.engine.errors import InvalidInput
from bot.engine.text import Msg
from bot.store import bookkeeping as rows
from bot.store.db import Database
from bot.store.log import log_event
from bot.store.models import Campaign

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
    deadline: dt.datetime | None
    bot: dict[str, Any] = field(default_factory=dict)
    reminded: tuple[str, ...] = ()
    rule_options: dict[str, Any] = field(default_factory=dict)

    @property
    def gm(self) -> Actor:
        return Actor(self.gm_id, frozenset({self.gm_role_id} if self.gm_role_id else ()), "GM")

    def setting(self, name: str) -> Any:
        return self.bot.get(name, BOT_DEFAULTS.get(name))

    @property
    def deadline_set(self) -> dt.datetime | None:
        """When the current deadline was set (None for one set before this was kept)."""
        v = self.bot.get(botsettings.DEADLINE_SET)
        try:
            return dt.datetime.fromisoformat(v) if isinstance(v, str) else None
        except ValueError:
            return None

    @property
    def deadline_version(self) -> int | None:
        v = self.bot.get("deadline_version")
        return int(v) if isinstance(v, int) else None


def _meta(c: Campaign) -> Meta:
    opts = c.options or {}
    return Meta(c.id or 0, c.name, c.guild_id, c.channel_id, c.gm_id, c.gm_role_id, c.language or "en", c.version,
                c.status, c.deadline, dict(opts.get("_bot") or {}), tuple(opts.get("_reminded") or ()),
                {k: v for k, v in opts.items() if not k.startswith("_")})


async def meta(db: Database, campaign_id: int) -> Meta:
    return _meta((await readcache.read(db, campaign_id)).campaign)


async def require_gm_of(db: Database, campaign_id: int, actor: Actor) -> Meta:
    """The campaign's meta, or the services' refusal when ``actor`` is not its GM."""
    cr = await readcache.read(db, campaign_id)
    require_gm(cr.state, actor)
    return _meta(cr.campaign)


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
    for c in found:
        try:
            out.append(_meta(c))
        except Exception as exc:  # malformed settings (options._bot = 5): this campaign only
            failed(c.id or 0, exc)
    return out


async def change_bot_setting(db: Database, campaign_id: int, gm: Actor, name: str, value: str) -> Any:
    """GM: change a bot setting (auto_resolve, at_deadline, away, language, gm_role, channel:SIDE).

    A role or channel is checked here as far as the database can (:func:`setting_id`); that it is one of
    the campaign's own server is for the caller, who can ask Discord (the settings command does)."""
    async with db.transaction() as s:
        campaign = await get_campaign(s, campaign_id, lock=True)
        require_gm(campaign, gm)
        shown: Any
        if name in BOT_CHOICES or name == DEADLINE_HOURS:
            shown = choice(name, value) if name in BOT_CHOICES else deadline_hours(value)
            campaign.options = botsettings.storing(campaign.options, name, shown)
        elif name == "language":
            campaign.language = shown = language(value)
        elif name == "gm_role":
            campaign.gm_role_id = shown = setting_id(name, value, guild_id=campaign.guild_id)
        elif name.startswith(SIDE_CHANNEL):
            key = name[len(SIDE_CHANNEL):]
            if key not in await rows.side_keys(s, campaign_id):
                raise NotFound("There is no side {key!r} in this campaign.", key=key)
            shown = setting_id(name, value, guild_id=campaign.guild_id)
            await rows.set_side_channel(s, campaign_id, key, shown)
        else:
            raise InvalidInput("Unknown setting {name!r}.", name=name)
        s.add(campaign)
        said = value_name("none") if shown is None else f"<@&{shown}>" if name == "gm_role" \
            else f"<#{shown}>" if name.startswith(SIDE_CHANNEL) else value_name(shown)
        await log_event(s, campaign, Msg("The GM set {name} to {value}.", name=setting_name(name), value=said),
                        kind="gm")  # named in the reader's words (issue 23), not `deadline_hours`
        return shown


CARD = "card"
"""The current phase card's message id in the campaign's channel, kept so that it is edited in place."""


async def card_message(db: Database, campaign_id: int) -> int | None:
    """The message id of the phase card now standing in the campaign's channel (None: none posted yet)."""
    value = (await meta(db, campaign_id)).bot.get(CARD)
    return value if isinstance(value, int) and not isinstance(value, bool) else None


async def set_card_message(db: Database, campaign_id: int, message_id: int | None) -> None:
    """Remember the phase card just posted (None: the card is done with)."""
    async with db.transaction() as s:
        campaign = await get_campaign(s, campaign_id, lock=True)
        campaign.options = botsettings.storing(campaign.options, CARD, message_id)
        s.add(campaign)


REQUESTS_CARD = "requests_card"
"""The message id of the campaign's card of requests to join (issue 24, item 3): one, edited in place."""


async def requests_card(db: Database, campaign_id: int) -> int | None:
    value = (await meta(db, campaign_id)).bot.get(REQUESTS_CARD)
    return value if isinstance(value, int) and not isinstance(value, bool) else None


async def set_requests_card(db: Database, campaign_id: int, message_id: int | None) -> None:
    """Remember the card of requests to join just posted (None: gone, every request answered)."""
    async with db.transaction() as s:
        campaign = await get_campaign(s, campaign_id, lock=True)
        campaign.options = botsettings.storing(campaign.options, REQUESTS_CARD, message_id)
        s.add(campaign)


async def note_deadline(db: Database, campaign_id: int) -> None:
    """Remember which campaign version the deadline just set belongs to."""
    async with db.transaction() as s:
        campaign = await get_campaign(s, campaign_id, lock=True)
        campaign.options = botsettings.storing(campaign.options, botsettings.DEADLINE_VERSION, campaign.version)
        s.add(campaign)


async def claim(db: Database, campaign_id: int, tags: tuple[str, ...], *, version: int) -> bool:
    """Mark ``tags`` done for this deadline; True only for the one caller (process) that marked them
    first, while the campaign is still at ``version``."""
    async with db.transaction() as s:
        campaign = await get_campaign(s, campaign_id, lock=True)
        done = list((campaign.options or {}).get("_reminded") or [])
        if campaign.version != version or campaign.deadline is None or all(tag in done for tag in tags):
            return False
        campaign.options = {**(campaign.options or {}), "_reminded": done + [t for t in tags if t not in done]}
        s.add(campaign)
        return True


async def clear_deadline(db: Database, campaign_id: int, *, resolved_from: int) -> bool:
    """Drop the deadline of a phase that has been resolved (the campaign moved past ``resolved_from``)."""
    async with db.transaction() as s:
        campaign = await get_campaign(s, campaign_id, lock=True)
        if campaign.version == resolved_from or campaign.deadline is None:
            return False
        dv = ((campaign.options or {}).get("_bot") or {}).get("deadline_version")
        if dv is not None and dv == campaign.version:
            return False  # a new deadline, set for the current phase
        campaign.deadline = None
        s.add(campaign)
        return True


@dataclass(frozen=True)
class PlayerInfo:
    member_id: int
    side: str
    away_until: dt.datetime | None
    pings: bool = True
    """Mentioned on phase cards and reminded (False: the member muted the campaign's pings)."""


async def players(db: Database, campaign_id: int) -> list[PlayerInfo]:
    async with db.sessions() as s:
        return [PlayerInfo(p.member_id, p.side_key, p.away_until, p.pings) for p in await rows.players(s, campaign_id)]


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
    async with db.sessions() as s:
        return await rows.side_channels(s, campaign_id)


async def battle_thread(db: Database, campaign_id: int, number: int) -> int | None:
    async with db.sessions() as s:
        return await rows.battle_thread(s, campaign_id, number)


async def set_battle_thread(db: Database, campaign_id: int, number: int, thread_id: int) -> None:
    async with db.transaction() as s:
        await get_campaign(s, campaign_id, lock=True)
        await rows.set_battle_thread(s, campaign_id, number, thread_id)
