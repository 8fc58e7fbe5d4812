"""What happened: the events a rule's application returns, which the log stores as they are.

An event is a text (a :class:`~bot.engine.text.Msg`, rendered per reader) or a roll record, with who
may read it (``public``, ``side:KEY``, ``battle:N`` or ``gm``) and the turn and phase it happened in.
The repository appends them to the log (rolls chained, docs/dice.md); the channel shows them.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from enum import StrEnum
from typing import Any

from bot.engine.phases import Phase
from bot.engine.rolls import BatchRoll, Roll
from bot.engine.verify import GENESIS, record_hash

PUBLIC = "public"


class EventKind(StrEnum):
    EVENT = "event"
    ROLL = "roll"
    GM = "gm"
    UNDO = "undo"
    SEED = "seed"


def side_visibility(side: str) -> str:
    return f"side:{side}"


def battle_visibility(number: int) -> str:
    """What only a battle's camps (and the GM) read: its aftermath, fate, trophy and Stragglers dice."""
    return f"battle:{number}"


@dataclass(frozen=True, slots=True)
class Event:
    turn: int
    phase: Phase
    text: str
    kind: EventKind = EventKind.EVENT
    visibility: str = PUBLIC
    data: Mapping[str, Any] | None = None
    roll: Roll | BatchRoll | None = None

    @property
    def side(self) -> str | None:
        return self.visibility.removeprefix("side:") if self.visibility.startswith("side:") else None


@dataclass(frozen=True)
class Outcome:
    """What applying a command did: the new state and the events, in order."""

    state: Any
    events: tuple[Event, ...] = field(default_factory=tuple)


class Journal:
    """Collects the events of one application, stamped with the state's turn and phase as they go.

    Rolls are chained here (docs/dice.md): each roll record carries ``prev``, the hash of the roll
    record before it; ``chain_end`` starts at the campaign's last logged roll."""

    def __init__(self, chain_end: str = GENESIS) -> None:
        self.events: list[Event] = []
        self.chain_end = chain_end

    def say(self, state: Any, text: str, *, visibility: str = PUBLIC, kind: EventKind = EventKind.EVENT,
            data: Mapping[str, Any] | None = None) -> None:
        self.events.append(Event(state.turn, state.phase, text, kind, visibility, data))

    def roll(self, state: Any, record: Roll | BatchRoll, *, visibility: str = PUBLIC) -> None:
        data = {**record.to_dict(), "prev": self.chain_end}
        self.chain_end = record_hash(data)
        self.events.append(Event(state.turn, state.phase, str(record), EventKind.ROLL, visibility, data, record))

    def extend(self, events: Iterable[Event]) -> None:
        self.events.extend(events)
