"""Who is acting. What they may do is the campaign core's to say (:mod:`bot.campaign.authority`)."""

from __future__ import annotations

from dataclasses import dataclass, field

from bot.campaign.authority import require_gm  # noqa: F401 (re-exported: bot.services.exchange)


@dataclass(frozen=True)
class Actor:
    """A Discord member (or the demo's scripted player), with the ids of their roles."""

    member_id: int
    roles: frozenset[int] = field(default_factory=frozenset)
    name: str = ""
