"""The bot's own settings of a campaign, beside the rules' options: what a deadline does, whether
phases resolve by themselves, absences, whether joining needs the GM's approval, language, the GM
role and the side channels. Pure: the values a GM types, parsed and checked;
:mod:`bot.services.bookkeeping` stores them.

The campaign's bookkeeping is one typed value, :class:`Book` (its settings :class:`BotSettings`, one
default each), kept in a row of its own (:class:`bot.store.models.BookRow`, issue 22 item 1) so that a
bookkeeping write never evicts the game from the read cache. Only ``join_approval`` stays among the
game's options (``options["_bot"]``): the core's rule of joining reads it.
"""

from __future__ import annotations

import datetime as dt
import re
from collections.abc import Mapping
from dataclasses import dataclass, field, fields, replace
from enum import StrEnum
from typing import Any

from bot.campaign.formdraft import FormDraft
from bot.engine.errors import InvalidInput
from bot.engine.text import Msg

BOT_DEFAULTS: dict[str, Any] = {"auto_resolve": True, "at_deadline": "resolve", "away": "stretch",
                                "deadline_hours": 48, "join_approval": False}
BOT_CHOICES: dict[str, tuple[Any, ...]] = {
    "auto_resolve": (True, False),
    "at_deadline": ("resolve", "wait"),
    "away": ("stretch", "hold"),
    "join_approval": (False, True),
}
JOIN_APPROVAL = "join_approval"
"""On: ``/campaign join`` asks the GM, who approves or refuses (:func:`bot.campaign.lifecycle.join`)."""
DEADLINE_HOURS = "deadline_hours"
"""Each phase that waits for members gets a deadline this many hours after it starts (0: none), so that
reminders always go and the turn never waits for ever."""
MAX_DEADLINE_HOURS = 24 * 60
DEADLINE_HOURS_SUGGESTED = (0, 12, 24, 48, 72, 168)
LANGUAGES = ("en", "it", "es", "fr", "de")
OTHER_SETTINGS = ("language", "gm_role")
SIDE_CHANNEL = "channel:"
BOOK_SETTINGS = ("auto_resolve", "at_deadline", "away", "deadline_hours")
"""The bot settings kept in the campaign's book (:class:`BotSettings`); ``join_approval`` is the game's."""
DEADLINE_VERSION = "deadline_version"
DEADLINE_SET = "deadline_set"
"""When the current deadline was set (ISO time): a reminder is due only for a deadline set more than
that long before it (a 2-hour deadline gets no "24 h" reminder)."""

MIN_ID, MAX_ID = 10**14, 2**63 - 1
"""Discord ids (snowflakes) are 15 to 19 digits; the database keeps them as signed 64-bit integers."""
SETTING_NAMES: dict[str, Msg] = {
    "auto_resolve": Msg("Resolve by itself"), "at_deadline": Msg("At the deadline"), "away": Msg("Absences"),
    "deadline_hours": Msg("Deadline (hours)"), "join_approval": Msg("Joining approved by the GM"),
    "language": Msg("Language"), "gm_role": Msg("GM role"),
    "weather": Msg("Weather"), "random_events": Msg("Random events"), "movement_order": Msg("Movement order"),
    "movement_extension": Msg("Extended movement"), "mercenary_desertion": Msg("Mercenary desertion"),
    "adjacency": Msg("Adjacent squares"), "overwhelm": Msg("Overwhelm"), "supply": Msg("Supply points"),
    "scout_rerolls": Msg("Scout re-rolls"), "unmanned_sides": Msg("Sides nobody plays"), "battles": Msg("Battles"),
    "general": Msg("Bot general's temper"),
    "max_active_campaigns": Msg("Active campaigns per server"), "max_gm_campaigns": Msg("Active campaigns per GM"),
    "max_new_campaigns_per_day": Msg("New campaigns per day"), "max_import_bytes": Msg("Largest campaign export"),
    "max_scenario_bytes": Msg("Largest scenario file"),
}
"""Each setting's name as members read it (issue 23: not its identifier, ``deadline_hours``)."""
VALUE_NAMES: dict[str, Msg] = {
    "true": Msg("on"), "false": Msg("off"), "simultaneous": Msg("all at once"), "initiative": Msg("by initiative"),
    "check_all": Msg("all checked"), "lose_all": Msg("all desert"), "hold": Msg("hold their orders"),
    "wait": Msg("wait"), "ai": Msg("bot general"), "table": Msg("on the table"), "quick": Msg("quickly by the bot"),
    "ask": Msg("ask the camps"), "cautious": Msg("cautious"), "balanced": Msg("balanced"), "bold": Msg("bold"),
    "resolve": Msg("resolve"), "stretch": Msg("stretch the deadline"), "none": Msg("not set"),
}
"""The settings' values as members read them (numbers, languages and mentions are shown as they are)."""


ANY_SIDE_CHANNEL = Msg("Private channel of a side")
"""The ``channel:SIDE`` settings, all of them."""


def setting_name(name: str, side: str | None = None) -> Msg | str:
    """A setting's name as members read it; a side's private channel names the side (its name)."""
    if name.startswith(SIDE_CHANNEL):
        return Msg("Private channel of {side}", side=side or name[len(SIDE_CHANNEL):])
    return SETTING_NAMES.get(name, name)


def value_name(value: Any) -> Msg | str:
    """A setting's value as members read it (``on``, ``all checked``)."""
    text = str(value).lower() if isinstance(value, bool) else str(value)
    return VALUE_NAMES.get(text, text)


_MENTION = {"role": re.compile(r"<@&(\d+)>|(\d+)"), "channel": re.compile(r"<#(\d+)>|(\d+)")}


def storing(options: Mapping[str, Any] | None, name: str, value: Any) -> dict[str, Any]:
    """``options`` with the game's bot setting ``name`` (``join_approval``) set to ``value`` (a new dict: the
    row sees the change)."""
    return {**(options or {}), "_bot": {**((options or {}).get("_bot") or {}), name: value}}


def bot_setting_names() -> tuple[str, ...]:
    return (*BOT_DEFAULTS, *OTHER_SETTINGS)


def choice(name: str, value: str) -> Any:
    """The value of the choice setting ``name`` (one of :data:`BOT_CHOICES`) the GM typed: ``on``,
    ``yes``, ``true`` and their opposites for a yes-or-no setting."""
    text = value.strip().lower()
    for option in BOT_CHOICES[name]:
        if str(option).lower() == text or (isinstance(option, bool) and text in (("on", "yes") if option else ("off", "no"))):
            return option
    allowed = ", ".join(str(c).lower() for c in BOT_CHOICES[name])
    raise InvalidInput("Setting {name!r} cannot be {value!r}: choose {allowed}.", name=name, value=value, allowed=allowed)


def deadline_hours(value: str) -> int:
    """The default phase deadline the GM typed: whole hours, 0 (none) to :data:`MAX_DEADLINE_HOURS`."""
    text = value.strip().lower().removesuffix("h").strip()
    if text in ("none", "off"):
        return 0
    if not text.isdigit() or int(text) > MAX_DEADLINE_HOURS:
        raise InvalidInput("Setting {name} is whole hours from 0 (no deadline) to {most}, not {value!r}.",
                           name=DEADLINE_HOURS, most=MAX_DEADLINE_HOURS, value=value)
    return int(text)


def requires_approval(options: Mapping[str, Any]) -> bool:
    """Whether joining a side waits for the GM's approval, by the campaign's stored options (the bot
    settings under ``options["_bot"]``; off unless set)."""
    bot = options.get("_bot")
    return isinstance(bot, Mapping) and bot.get(JOIN_APPROVAL) is True


def language(value: str) -> str:
    shown = value.strip().lower()[:2]
    if shown not in LANGUAGES:
        raise InvalidInput("Language {value!r} is not offered: choose {languages}.", value=value,
                           languages=', '.join(LANGUAGES))
    return shown


def id_setting_kind(name: str) -> str | None:
    """"role" or "channel" for a setting that stores a Discord id (gm_role, channel:SIDE), else None."""
    if name == "gm_role":
        return "role"
    if name.startswith(SIDE_CHANNEL):
        return "channel"
    return None


def setting_id(name: str, value: str, *, guild_id: int) -> int | None:
    """The role or channel id the GM gave for the setting ``name`` (None for "none"), or a refusal that
    names the setting and says why: not a mention or id of that kind, not a Discord id, or the
    @everyone role (its id is the server's). Whether the id belongs to the campaign's server needs
    Discord: the cog checks that before it changes the setting."""
    kind = id_setting_kind(name)
    if kind is None:
        raise InvalidInput("Unknown setting {name!r}.", name=name)
    text = value.strip()
    if text.lower() in ("", "none", "off"):
        return None
    m = _MENTION[kind].fullmatch(text)
    if m is None:
        if kind == "role":
            raise InvalidInput("Setting {name}: {value!r} is not a role: mention it (@role), give its id, or say none.",
                               name=name, value=value)
        raise InvalidInput("Setting {name}: {value!r} is not a channel: mention it (#channel), give its id, or say none.",
                           name=name, value=value)
    digits = m.group(1) or m.group(2)
    if len(digits) > 19 or not MIN_ID <= int(digits) <= MAX_ID:
        raise InvalidInput("Setting {name}: {value!r} is not a Discord id (a number of 15 to 19 digits).", name=name,
                           value=value)
    ident = int(digits)
    if kind == "role" and ident == guild_id:
        raise InvalidInput("Setting {name} cannot be the @everyone role: every member would be a GM. "
                           "Choose a role of this server, or none.", name=name)
    return ident


def check_stored(bot: Mapping[str, Any], where: str, max_int: int) -> None:
    """Stored bot settings (an import's): known ones, allowed values; a refusal names the field."""
    for name, value in bot.items():
        if name == DEADLINE_HOURS:
            if isinstance(value, bool) or not isinstance(value, int) or not 0 <= value <= MAX_DEADLINE_HOURS:
                raise InvalidInput("{where}: expected whole hours from 0 to {most}", where=f"{where}.{name}",
                                   most=MAX_DEADLINE_HOURS)
        elif name == DEADLINE_SET:
            if not isinstance(value, str) or len(value) > 40:
                raise InvalidInput("{where}: not a bot setting with an allowed value", where=f"{where}.{name}")
        elif name == DEADLINE_VERSION:
            if isinstance(value, bool) or not isinstance(value, int) or abs(value) > max_int:
                raise InvalidInput("{where}: expected a whole number (at most {max_int:,} in size), got {value!r}",
                                   where=f"{where}.{name}", max_int=max_int, value=str(value)[:40])
        elif name not in BOT_CHOICES or value not in BOT_CHOICES[name] or type(value) is not type(BOT_CHOICES[name][0]):
            raise InvalidInput("{where}: not a bot setting with an allowed value", where=f"{where}.{name}")


# --- the book: the bot's bookkeeping of a campaign, typed ---------------------------------------------


class AtDeadline(StrEnum):
    """What a phase's deadline does: resolve the phase, or wait for the GM."""

    RESOLVE = "resolve"
    WAIT = "wait"


class Away(StrEnum):
    """What a member's declared absence does to a deadline: stretch it, or hold the phase."""

    STRETCH = "stretch"
    HOLD = "hold"


@dataclass(frozen=True)
class BotSettings:
    """The bot's own settings of a campaign, one default each (:data:`BOT_DEFAULTS`)."""

    auto_resolve: bool = True
    at_deadline: AtDeadline = AtDeadline.RESOLVE
    away: Away = Away.STRETCH
    deadline_hours: int = 48

    def get(self, name: str) -> Any:
        return getattr(self, name)

    def changed(self, name: str, value: Any) -> BotSettings:
        """These settings with ``name`` set to ``value`` (as :func:`choice` or :func:`deadline_hours` read it)."""
        return replace(self, **{name: _typed(name, value)})

    def as_data(self) -> dict[str, Any]:
        """The settings as stored and exported: plain JSON values."""
        return {f.name: (v.value if isinstance(v := getattr(self, f.name), StrEnum) else v) for f in fields(self)}


def _typed(name: str, value: Any) -> Any:
    if name == "at_deadline":
        return AtDeadline(value)
    if name == "away":
        return Away(value)
    return value


def bot_settings(data: Mapping[str, Any] | None) -> BotSettings:
    """The stored settings (a row's or an old export's ``_bot``), typed; a value the bot never writes
    (an older row's, a hand edit) leaves that setting at its default. Imports check theirs strictly
    first (:func:`check_stored`)."""
    given: dict[str, Any] = {}
    for name in BOOK_SETTINGS:
        value = (data or {}).get(name)
        if name == DEADLINE_HOURS:
            if isinstance(value, int) and not isinstance(value, bool) and 0 <= value <= MAX_DEADLINE_HOURS:
                given[name] = value
        elif value in BOT_CHOICES[name] and type(value) is type(BOT_CHOICES[name][0]):
            given[name] = _typed(name, value)
    return BotSettings(**given)


@dataclass(frozen=True)
class Book:
    """The bot's bookkeeping of a campaign, as its row (:class:`bot.store.models.BookRow`) holds it: not
    the game (never in the state, never undone), and written without touching the game's rows."""

    settings: BotSettings = BotSettings()
    deadline: dt.datetime | None = None
    deadline_set: dt.datetime | None = None
    """When the current deadline was set (None for one set before this was kept)."""
    deadline_version: int | None = None
    """The campaign version the deadline was set for: a deadline never resolves a later phase than its own."""
    reminded: tuple[str, ...] = ()
    card: int | None = None
    requests_card: int | None = None
    map_card: str | None = None
    channels: Mapping[str, int] = field(default_factory=dict)
    threads: Mapping[int, int] = field(default_factory=dict)
    drafts: Mapping[str, FormDraft] = field(default_factory=dict)
    """Members' report forms half entered (issue 23, item 2): battle:member -> what they entered so far
    (:mod:`bot.campaign.formdraft`), kept across restarts until submitted or the battle is resolved."""
    revision: int = 0
    """The row's own revision (0: no row yet), bumped by every bookkeeping write."""

    def with_deadline(self, deadline: dt.datetime | None, *, now: dt.datetime | None = None,
                      version: int | None = None) -> Book:
        """A new deadline (None: none), set ``now`` for the campaign ``version``; its reminders start over."""
        if deadline is None:
            return replace(self, deadline=None, reminded=())
        return replace(self, deadline=deadline, deadline_set=now or self.deadline_set,
                       deadline_version=version if version is not None else self.deadline_version, reminded=())

    def next_phase(self, phase_waits: bool, *, now: dt.datetime, version: int) -> Book:
        """The book as a phase resolution leaves it: the phase's deadline and its reminders end with the
        phase; the phase just entered (``version``) gets the default deadline (``deadline_hours``), so
        that its reminders go and it never waits for ever, unless it waits for nobody (``phase_waits``
        false: a new turn's weather, the GM's; an ended campaign)."""
        hours = self.settings.deadline_hours
        if not phase_waits or not hours:
            return self.with_deadline(None)
        return self.with_deadline(now + dt.timedelta(hours=hours), now=now, version=version)

    def exported(self) -> dict[str, Any]:
        """What an export carries of the book (issue 24, item 8): the settings. Message, channel and thread
        ids are this server's, and the deadline goes with the campaign's bookkeeping (``deadline``)."""
        return self.settings.as_data()
