"""The campaign's rule settings, typed (RU-22): one field per option, one default each.

The defaults and the allowed values are the rules' own (``rules/map_campaign.yaml``, ``options``);
a scenario may set its defaults and the GM changes them with ``/campaign settings``.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, fields
from enum import StrEnum
from typing import Any

from bot.engine.errors import InvalidInput
from bot.engine.tables import RuleBook, default_rulebook


class MovementOrder(StrEnum):
    SIMULTANEOUS = "simultaneous"
    """RU-13: every side moves at once."""
    INITIATIVE = "initiative"
    """RU-4: sides move one after the other by initiative."""


class MercenaryDesertion(StrEnum):
    """RU-6: on a lost battle, mercenary SP all take the deserter check, or all desert."""

    CHECK_ALL = "check_all"
    LOSE_ALL = "lose_all"


class UnmannedSides(StrEnum):
    """MC-3 in play by post: a side no member plays."""

    HOLD = "hold"
    """Not awaited: its Forces hold their orders, and the bot rolls what it would roll."""
    WAIT = "wait"
    """Every phase waits for it, as for any side (until the GM assigns a member or forces the phase)."""
    AI = "ai"
    """The bot general plays it (RU-26): it acts in every phase as a member would (:mod:`.general`)."""


class Personality(StrEnum):
    """How the bot general plays (RU-26): which row of its orders table it reads (``rules/general.yaml``)."""

    CAUTIOUS = "cautious"
    BALANCED = "balanced"
    BOLD = "bold"


class BattleMode(StrEnum):
    """RU-27: how a battle is settled."""

    TABLE = "table"
    """On the table, and reported back (BR)."""
    QUICK = "quick"
    """Every battle resolved quickly by the bot as Phase 4 begins (RU-27)."""
    ASK = "ask"
    """The battle's thread offers "Resolve quickly": taken when every human camp agrees, or by the GM."""


@dataclass(frozen=True, slots=True)
class Settings:
    weather: bool = True
    """MC-3: Phase 0 weather roll."""
    random_events: bool = True
    """MC-3: Phase 8 random events."""
    movement_order: MovementOrder = MovementOrder.SIMULTANEOUS
    movement_extension: bool = True
    """MC-5.1 extension: terrain, road and weather movement modifiers."""
    mercenary_desertion: MercenaryDesertion = MercenaryDesertion.CHECK_ALL
    adjacency: int = 8
    """RU-11: squares adjacent in 8 or 4 directions."""
    overwhelm: bool = False
    """FC-1: the overwhelm check before each battle."""
    supply: bool = False
    """FC-2: supply points credited each turn and spent."""
    scout_rerolls: bool = False
    """FC-3: a scout spent to re-roll a Force's die."""
    unmanned_sides: UnmannedSides = UnmannedSides.HOLD
    """MC-3: whether a phase waits for a side nobody plays (``ai``: the bot general plays it, RU-26)."""
    battles: BattleMode = BattleMode.TABLE
    """RU-27: battles on the table, quick battles, or quick when the camps agree (or the GM decides)."""
    general: Personality = Personality.BALANCED
    """RU-26: the bot general's personality."""

    @classmethod
    def from_options(cls, options: Mapping[str, Any], rules: RuleBook | None = None) -> Settings:
        """The settings stored in a campaign's options (the bot's own ``_`` keys ignored); an option
        not stored takes the rules' default. A value the rules do not allow is refused, naming it."""
        specs = (rules or default_rulebook()).mc.options
        values: dict[str, Any] = {}
        for f in fields(cls):
            spec = specs.get(f.name)
            value = options.get(f.name, spec.default if spec is not None else None)
            if value is None:
                continue
            if spec is not None and not any(type(value) is type(c) and value == c for c in spec.choices):
                raise InvalidInput("Option {name} cannot be {value!r}: use one of {choices}.", name=f.name,
                                   value=value, choices=", ".join(str(c) for c in spec.choices))
            values[f.name] = _typed(f.name, value)
        return cls(**values)

    def as_options(self) -> dict[str, Any]:
        """As stored in the campaign's options (plain JSON values)."""
        return {f.name: _plain(getattr(self, f.name)) for f in fields(self)}


def _typed(name: str, value: Any) -> Any:
    if name == "movement_order":
        return MovementOrder(value)
    if name == "mercenary_desertion":
        return MercenaryDesertion(value)
    if name == "unmanned_sides":
        return UnmannedSides(value)
    if name == "battles":
        return BattleMode(value)
    if name == "general":
        return Personality(value)
    return value


def _plain(value: Any) -> Any:
    return value.value if isinstance(value, StrEnum) else value
