"""What one server and one member may create: bot-wide limits, set by the bot's host.

Read from the environment (``ADC_MAX_ACTIVE_CAMPAIGNS`` and so on, see :data:`ENV`) into
:class:`bot.settings.Settings`; a GM sees them, read-only, in ``/campaign settings``. The counts are
taken from the campaign table (:func:`bot.services.campaigns.check_new_campaign`): no table of
their own.
"""

from __future__ import annotations

import logging
import os
from collections.abc import Mapping
from dataclasses import dataclass, fields

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


NAMES: tuple[str, ...] = tuple(f.name for f in fields(Limits))
ENV: dict[str, str] = {name: f"ADC_{name.upper()}" for name in NAMES}


def size_text(n: int) -> str:
    """``2 MiB``, ``512 KiB`` or ``1,000 B``."""
    if n >= MIB and n % MIB == 0:
        return f"{n // MIB} MiB"
    if n >= KIB and n % KIB == 0:
        return f"{n // KIB} KiB"
    return f"{n:,} B"
