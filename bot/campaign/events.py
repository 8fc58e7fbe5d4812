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


@dataclass
class News:
    """What a resolution tells: the public lines and rolls, and each side's own lines (by side key)."""

    public: list[str] = field(default_factory=list)
    private: dict[str, list[str]] = field(default_factory=dict)
    rolls: list[Roll | BatchRoll] = field(default_factory=list)


def news(events: Iterable[Event]) -> News:
    """The events a channel posts: public rolls, public lines and each side's lines, in order (the
    position markers and other kinds of event are the log's alone)."""
    out = News()
    for e in events:
        if e.roll is not None and e.visibility == PUBLIC:
            out.rolls.append(e.roll)
        elif e.roll is None and e.kind is EventKind.EVENT and not (e.data and "position" in e.data):
            if e.visibility == PUBLIC:
                out.public.append(e.text)
            elif e.side is not None:
                out.private.setdefault(e.side, []).append(e.text)
    return out
