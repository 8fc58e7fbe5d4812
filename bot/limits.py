"""What one server and one member may create: bot-wide limits, set by the bot's host.

Read from the environment (``ADC_MAX_ACTIVE_CAMPAIGNS`` and so on, see :data:`ENV`) into
:class:`bot.settings.Settings`; a GM sees them, read-only, in ``/campaign settings``. The counts are
taken from the campaign table (:func:`bot.services.campaigns.check_new_campaign`): no table of
their own.
"""

from __future__ import annotations

import datetime as dt
import logging
import math
import os
from collections.abc import Mapping
from dataclasses import dataclass, fields
from typing import Protocol

from bot.campaign.errors import ServiceError
from bot.engine.text import Msg

log = logging.getLogger(__name__)

KIB = 1024
MIB = 1024 * KIB
DAY_HOURS = 24


@dataclass(frozen=True)
class Limits:
    max_active_campaigns: int = 25
    """Active campaigns in one server."""
    max_gm_campaigns: int = 5
    """Active campaigns one member runs as their GM, in all servers."""
    max_new_campaigns_per_day: int = 10
    """Campaigns one member created or imported in the last 24 hours (ended ones count too)."""
    max_import_bytes: int = 2 * MIB
    """The largest campaign export that can be imported."""
    max_scenario_bytes: int = 512 * KIB
    """The largest scenario (YAML) that can be uploaded."""

    @classmethod
    def from_env(cls, environ: Mapping[str, str] | None = None) -> Limits:
        """The defaults, overridden by each ``ADC_MAX_...`` variable that is a whole number of 1 or
        more (another value is ignored, with a warning: a typo must not lift a limit)."""
        env = os.environ if environ is None else environ
        values: dict[str, int] = {}
        for name, var in ENV.items():
            text = env.get(var, "").strip().replace("_", "")
            if not text:
                continue
            if text.isdigit() and int(text) >= 1:
                values[name] = int(text)
            else:
                log.warning("event=bad_limit variable=%s value=%r kept=%s", var, env.get(var), getattr(cls(), name))
        return cls(**values)

    def items(self) -> list[tuple[str, int]]:
        """(setting name, value) in the order ``/campaign settings`` shows them."""
        return [(f.name, getattr(self, f.name)) for f in fields(self)]


class QuotaCounts(Protocol):
    """What counts against the limits (:func:`bot.store.campaigns.quota_counts` reads it)."""

    @property
    def active_in_server(self) -> int: ...
    @property
    def gm_active(self) -> int: ...
    @property
    def created_since(self) -> tuple[dt.datetime, ...]: ...


NAMES: tuple[str, ...] = tuple(f.name for f in fields(Limits))
ENV: dict[str, str] = {name: f"ADC_{name.upper()}" for name in NAMES}


def size_text(n: int) -> str:
    """``2 MiB``, ``512 KiB`` or ``1,000 B``."""
    if n >= MIB and n % MIB == 0:
        return f"{n // MIB} MiB"
    if n >= KIB and n % KIB == 0:
        return f"{n // KIB} KiB"
    return f"{n:,} B"


class LimitReached(ServiceError):
    """A server or a member reached one of the bot's limits; the message says which, and what to do or
    when to try again."""


@dataclass(frozen=True)
class Usage:
    """What counts against the limits now: a server's active campaigns, a member's active campaigns
    as GM (in every server), and the campaigns the member created or imported in the last 24 hours."""

    active_in_server: int
    gm_active: int
    new_today: int


def check_upload_size(size: int, limits: Limits | None, *, kind: str) -> None:
    """Refuse a ``kind`` ("scenario" or "import") upload of ``size`` bytes over the limit (none
    without ``limits``); ``kind="any"``: an upload not yet read, over both limits."""
    if kind not in ("scenario", "import", "any"):
        raise ValueError(f"unknown upload kind {kind!r}")
    if limits is None:
        return
    if kind == "any":
        kind = "import" if limits.max_import_bytes >= limits.max_scenario_bytes else "scenario"
    if kind == "scenario" and size > limits.max_scenario_bytes:
        raise LimitReached(Msg("The scenario file is {size:,} bytes: at most {limit:,} are accepted.", size=size,
                               limit=limits.max_scenario_bytes))
    if kind == "import" and size > limits.max_import_bytes:
        raise LimitReached(Msg("The campaign export is {size:,} bytes: at most {limit:,} can be imported.", size=size,
                               limit=limits.max_import_bytes))


def refuse_over(counts: QuotaCounts, limits: Limits, now: dt.datetime) -> None:
    """Refuse a new campaign once ``counts`` (a server's and a member's, as of ``now``) reach ``limits``."""
    in_server, as_gm, recent = counts.active_in_server, counts.gm_active, counts.created_since
    if in_server >= limits.max_active_campaigns:
        raise LimitReached(Msg("This server already runs {count} active campaigns, the most allowed ({limit}): a GM "
                               "must end one (/campaign end) before another can start.", count=in_server,
                               limit=limits.max_active_campaigns))
    if as_gm >= limits.max_gm_campaigns:
        raise LimitReached(Msg("You already run {count} active campaigns as their GM, the most allowed ({limit}): "
                               "end one (/campaign end) before you start another.", count=as_gm,
                               limit=limits.max_gm_campaigns))
    if len(recent) >= limits.max_new_campaigns_per_day:
        # Once the oldest ones leave the 24-hour window, fewer than the limit are left in it.
        frees = recent[len(recent) - limits.max_new_campaigns_per_day] + dt.timedelta(hours=DAY_HOURS)
        retry = math.ceil(frees.timestamp())
        raise LimitReached(Msg("You have created or imported {count} campaigns in the last 24 hours, the most allowed "
                               "({limit}): you can start another <t:{retry}:R> (<t:{retry}:f>).", count=len(recent),
                               limit=limits.max_new_campaigns_per_day, retry=retry))
