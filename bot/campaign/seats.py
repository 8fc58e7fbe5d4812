"""Who plays each side: a member, the bot general (RU-26), or nobody.

A side is the bot general's when no member plays it, it is still in play, and either the GM put the
general on it (``/gm assign side general:bot``) or the campaign leaves unmanned sides to it
(``unmanned_sides: ai``) and the GM did not take it off. A member who takes the side back switches the
general off at once (a member's seat always wins), and so does the GM (``general:off``).

The GM's word per side is kept with the campaign's options under ``_generals`` (side key -> ``bot`` or
``off``): like every setting, it stays as it is when a resolution is undone.
"""

from __future__ import annotations

from collections.abc import Mapping
from enum import StrEnum
from typing import Any

from .settings import UnmannedSides
from .state import CampaignState

GENERALS = "_generals"
"""The campaign option holding the GM's word on the bot general, per side."""


class Seat(StrEnum):
    """The GM's word on a side's general."""

    BOT = "bot"
    OFF = "off"


def seats(options: Mapping[str, Any] | None) -> dict[str, Seat]:
    """The GM's word on each side's general, as stored (anything unreadable is ignored)."""
    raw = (options or {}).get(GENERALS) or {}
    return {str(k): Seat(v) for k, v in raw.items() if v in (Seat.BOT.value, Seat.OFF.value)} \
        if isinstance(raw, Mapping) else {}


def seating(options: Mapping[str, Any] | None, side: str, seat: Seat | None) -> dict[str, Any]:
    """``options`` with the GM's word on ``side``'s general set (None: back to the campaign's setting)."""
    now = {k: v.value for k, v in seats(options).items() if k != side}
    if seat is not None:
        now[side] = seat.value
    return {**(options or {}), GENERALS: now}


def general_plays(state: CampaignState, side: str) -> bool:
    """Whether the bot general plays ``side`` now (RU-26)."""
    sd = state.sides.get(side)
    if sd is None or sd.defeated or side in state.played_sides:
        return False
    word = seats(state.options).get(side)
    if word is not None:
        return word is Seat.BOT
    return state.settings.unmanned_sides is UnmannedSides.AI


def general_sides(state: CampaignState) -> tuple[str, ...]:
    """The sides the bot general plays now, in the scenario's order."""
    return tuple(k for k in state.sides if general_plays(state, k))

