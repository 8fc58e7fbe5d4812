"""What the renderer draws: plain, frozen data, already filtered for the reader (fog of war).

The services build a :class:`MapSnapshot` from the campaign state and the reader's view; the
renderer never looks anything up and never decides what a reader may see.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from bot.engine.grid import CampaignMap
from bot.engine.model import Square

from .errors import InvalidSnapshot

_HEX = re.compile(r"^#[0-9a-fA-F]{6}$")


@dataclass(frozen=True, slots=True)
class SideStyle:
    """A side as the map shows it."""

    key: str
    name: str
    colour: str | None = None
    """``#rrggbb``; ``None`` picks the next colour of the colour-blind-safe default palette."""

    def __post_init__(self) -> None:
        if self.colour is not None and not _HEX.match(self.colour):
            raise InvalidSnapshot(f"Side {self.key!r} has colour {self.colour!r}: use #rrggbb, like #1f4e9c.")


@dataclass(frozen=True, slots=True)
class Counter:
    """A Force on the map, as far as the reader knows it."""

    key: str
    name: str
    side: str
    square: Square
    sp: int | None = None
    """Strength in SP; ``None`` when the reader does not know it (drawn as ``?``)."""
    order: str | None = None
    """The order (``forced_march``, ``explore``, ``defend`` or free text), if the reader may see it."""
    reaction: str | None = None
    """``confused``, ``unsteady``, ``routed`` (or free text), if any."""
    faded: bool = False
    """A "last seen" marker: where an enemy Force was last sighted, not where it is."""
    short: str | None = None
    """Label for the counter; by default the name is abbreviated to fit (``IV Corps`` -> ``IV``)."""


@dataclass(frozen=True, slots=True)
class Arrow:
    """A move made (or declared) this turn: from ``start`` through ``path``, the last square its end."""

    start: Square
    path: tuple[Square, ...]
    side: str


@dataclass(frozen=True, slots=True)
class BattleResult:
    """A reported battle's outcome, as public news: the side whose colour rings its mark (the winner), or
    ``None`` for a draw. A battle square without a result waits for its report."""

    square: Square
    winner: str | None = None


@dataclass(frozen=True, kw_only=True)
class MapSnapshot:
    """Everything one picture of the map shows. Build it with keywords."""

    campaign: str
    turn: int
    date: str
    season: str
    weather: str
    phase: str
    cmap: CampaignMap
    sides: tuple[SideStyle, ...]
    counters: tuple[Counter, ...] = ()
    moves: tuple[Arrow, ...] = ()
    battles: tuple[Square, ...] = ()
    results: tuple[BattleResult, ...] = ()
    """The outcomes of the reported ones among ``battles``: their marks are ringed in the winner's colour."""
    retreats: tuple[Arrow, ...] = ()
    """This turn's retreats (MC-7.3) the reader knows of, from the battle's square: dashed arrows."""
    title: str = ""
    """Heading of the picture; the campaign name when empty."""
    view: str = ""
    """Whose view this is, shown in the title band (``France``, ``GM``); nothing when empty."""
    visible: frozenset[Square] | None = None
    """The squares the reader sees (fog of war): the others are veiled, and an enemy Force there is at
    most a last-seen marker. ``None``: nothing is veiled (the GM; the public view, which shows no Force
    at all, only the map and the battles, which are public news, so a veil would tell nothing).
    """
    lang: str = "en"
    """The reader's language (``en``, ``it``, ``es``, ``fr``, ``de``): the legend, the title band and the
    text report are written in it (:mod:`bot.render.words`); names stay as they are."""

    def __post_init__(self) -> None:
        keys = [s.key for s in self.sides]
        if not keys:
            raise InvalidSnapshot("A snapshot needs at least one side.")
        if len(set(keys)) != len(keys):
            raise InvalidSnapshot(f"Side keys must differ, got {keys!r}.")
        allowed = ", ".join(keys)
        seen: set[str] = set()
        for c in self.counters:
            if c.key in seen:
                raise InvalidSnapshot(f"Two counters have the key {c.key!r}: each Force appears once.")
            seen.add(c.key)
            self._on_map(c.square, f"Counter {c.name!r}")
            if c.side not in keys:
                raise InvalidSnapshot(f"Counter {c.name!r} names side {c.side!r}: sides are {allowed}.")
            if c.sp is not None and c.sp < 0:
                raise InvalidSnapshot(f"Counter {c.name!r} has {c.sp} SP: strength is 0 or more.")
        self._check_arrows(self.moves, "move", keys, allowed)
        for sq in self.battles:
            self._on_map(sq, "A battle")
        for r in self.results:
            self._on_map(r.square, "A battle's result")
            if r.winner is not None and r.winner not in keys:
                raise InvalidSnapshot(f"The battle at {r.square} was won by {r.winner!r}: sides are {allowed}.")
        self._check_arrows(self.retreats, "retreat", keys, allowed)
        if self.visible is not None and not isinstance(self.visible, frozenset):
            raise InvalidSnapshot("visible is a frozenset of squares, or None for everything.")

    def _check_arrows(self, arrows: tuple[Arrow, ...], kind: str, keys: list[str], allowed: str) -> None:
        """Each arrow (a ``kind``: move or retreat) names a side of the map and a path on it."""
        for a in arrows:
            if a.side not in keys:
                raise InvalidSnapshot(f"A {kind} from {a.start} names side {a.side!r}: sides are {allowed}.")
            if not a.path:
                raise InvalidSnapshot(f"The {kind} from {a.start} has no path: name at least one square.")
            for sq in (a.start, *a.path):
                self._on_map(sq, f"The {kind} from {a.start}")

    def _on_map(self, sq: Square, what: str) -> None:
        if not self.cmap.contains(sq):
            last = Square(self.cmap.width - 1, self.cmap.height - 1)
            raise InvalidSnapshot(f"{what} is at {sq}, off the map: squares run from A1 to {last}.")

    def result(self, sq: Square) -> BattleResult | None:
        """The outcome of the battle at ``sq``, None while it is not reported."""
        return next((r for r in self.results if r.square == sq), None)

    def side(self, key: str) -> SideStyle:
        for s in self.sides:
            if s.key == key:
                return s
        raise InvalidSnapshot(f"Unknown side {key!r}: sides are {', '.join(s.key for s in self.sides)}.")
