"""Domain values of the map campaign: sides, Forces, units, leaders, orders, reactions, terrain.

Closed sets are enums (their values are the words used in YAML, the database and the bot);
aggregates are small frozen dataclasses. Changing a Force means building a new one
(``dataclasses.replace``), so a procedure can never alter its caller's state behind its back.
"""

from __future__ import annotations

import functools
from dataclasses import dataclass, field
from enum import Enum, StrEnum
from typing import TypeVar

from .drafts import draft_of
from .errors import InvalidInput


class Order(StrEnum):
    """MC-1: the orders a Force can hold."""

    FORCED_MARCH = "forced_march"
    EXPLORE = "explore"
    DEFEND = "defend"

    @property
    def label(self) -> str:
        return self.value.replace("_", " ").title()


class Reaction(StrEnum):
    """MC-2: states a Force falls into, mildest first (RU-9 ladder)."""

    CONFUSED = "confused"
    UNSTEADY = "unsteady"
    ROUTED = "routed"

    @property
    def severity(self) -> int:
        return _REACTION_ORDER.index(self) + 1

    @property
    def label(self) -> str:
        return self.value.title()


_REACTION_ORDER = [Reaction.CONFUSED, Reaction.UNSTEADY, Reaction.ROUTED]


def worse_reaction(a: Reaction | None, b: Reaction | None) -> Reaction | None:
    """The more severe of two reactions (RU-3: a result never improves a worse reaction)."""
    if a is None:
        return b
    if b is None:
        return a
    return a if a.severity >= b.severity else b


class Terrain(StrEnum):
    """MC-0: terrain types used by the rules."""

    OPEN = "open"
    CULTIVATED = "cultivated"
    FOREST = "forest"
    HILL = "hill"
    MOUNTAIN = "mountain"
    SWAMP = "swamp"
    DESERT = "desert"
    WASTELAND = "wasteland"
    JUNGLE = "jungle"
    SEA = "sea"
    LAKE = "lake"

    @property
    def is_water(self) -> bool:
        return self in (Terrain.SEA, Terrain.LAKE)

    @property
    def label(self) -> str:
        return self.value


class Feature(StrEnum):
    """MC-0: features a square may carry."""

    RIVER = "river"
    ROAD = "road"
    CARAVAN_TRACK = "caravan_track"
    BRIDGE = "bridge"
    RAPIDS = "rapids"
    REEFS = "reefs"


class Quality(StrEnum):
    """RU-7 quality ladder (with the FC letters C, P, L, V, E mapped onto it)."""

    RAW = "raw"
    AVERAGE = "average"
    VETERAN = "veteran"
    ELITE = "elite"


class UnitType(StrEnum):
    INFANTRY = "infantry"
    CAVALRY = "cavalry"
    ARTILLERY = "artillery"


class LeaderStatus(StrEnum):
    """A leader's standing over the campaign (CC-1, CC-2)."""

    FIT = "fit"
    LIGHT_WOUND = "light_wound"
    MODERATE_WOUND = "moderate_wound"
    SERIOUS_WOUND = "serious_wound"
    CRIPPLED = "crippled"
    CAPTURED = "captured"
    MORTAL_WOUND = "mortal_wound"
    SLAIN = "slain"


class Outcome(StrEnum):
    """A side's result in a battle."""

    WON = "won"
    LOST = "lost"
    DRAW = "draw"


class Climate(StrEnum):
    TEMPERATE = "temperate"
    MEDITERRANEAN = "mediterranean"
    CONTINENTAL = "continental"
    ARID = "arid"
    TROPICAL = "tropical"


class Season(StrEnum):
    SPRING = "spring"
    SUMMER = "summer"
    AUTUMN = "autumn"
    WINTER = "winter"


E = TypeVar("E", bound=Enum)


def parse_enum(kind: type[E], value: object, what: str) -> E:
    """Read an enum from user text with a message listing what is allowed."""
    if isinstance(value, kind):
        return value
    text = str(value).strip().lower().replace(" ", "_").replace("-", "_")
    for member in kind:
        if member.value == text:
            return member
    allowed = ", ".join(m.value for m in kind)
    raise InvalidInput("Unknown {what} {value!r}: use one of {allowed}.", what=what, value=value, allowed=allowed)


@dataclass(frozen=True, slots=True)
class Side:
    id: str
    name: str


@dataclass(frozen=True, slots=True)
class Leader:
    name: str
    cv: int
    """Command Value, added to the Force test (MC-4)."""
    status: LeaderStatus = LeaderStatus.FIT

    def __post_init__(self) -> None:
        if not -3 <= self.cv <= 10:
            raise InvalidInput("Leader {name!r} has a Command Value of {cv!r}: use -3 to 10.", name=self.name, cv=self.cv)


@dataclass(frozen=True, slots=True)
class Unit:
    id: str
    name: str
    sp: int
    type: UnitType = UnitType.INFANTRY
    quality: Quality = Quality.AVERAGE
    mercenary: bool = False
    flag: bool = True
    """Carries an Eagle/Colour/Standard/Guidon that can be taken as a trophy (CC-3)."""

    def __post_init__(self) -> None:
        if isinstance(self.sp, bool) or not isinstance(self.sp, int):
            raise InvalidInput("Unit {name!r}: strength must be a whole number of SP, got {sp!r}.", name=self.name, sp=self.sp)
        if self.sp < 0:
            raise InvalidInput("Unit {name!r} cannot have {sp} SP: strength is 0 or more.", name=self.name, sp=self.sp)

    def with_sp(self, sp: int) -> Unit:
        if type(sp) is not int or sp < 0:
            return Unit(self.id, self.name, sp, self.type, self.quality, self.mercenary, self.flag)  # refuses it
        # The same unit as a draft made a Unit (bot/engine/drafts.py): the frozen dataclass's __init__
        # (object.__setattr__ per field, then the checks above again) is twice the cost on the aftermath's
        # hot path (issue 26).
        unit = _UnitDraft()
        unit.id = self.id
        unit.name = self.name
        unit.sp = sp
        unit.type = self.type
        unit.quality = self.quality
        unit.mercenary = self.mercenary
        unit.flag = self.flag
        unit.__class__ = Unit
        return unit


_UnitDraft = draft_of(Unit)


@dataclass(frozen=True, slots=True)
class Force:
    """A group of units under one leader, moving on the map as one counter."""

    id: str
    name: str
    side: str
    square: Square
    leader: Leader
    units: tuple[Unit, ...] = ()
    order: Order = Order.EXPLORE
    reaction: Reaction | None = None
    scouts: int = 0

    def __post_init__(self) -> None:
        if self.scouts < 0:
            raise InvalidInput("Force {name!r} cannot have {scouts} scouts.", name=self.name, scouts=self.scouts)

    @property
    def sp(self) -> int:
        return sum(u.sp for u in self.units)


SQUARE_LETTERS = 3
"""At most this many column letters in a square name (``ZZ`` is column 702, the widest map)."""
SQUARE_DIGITS = 4
"""At most this many row digits in a square name."""
_LETTERS = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz"


@dataclass(frozen=True, slots=True, order=True)
class Square:
    """A map square, named like a spreadsheet cell (``D4``, ``AA12``); col and row from 0."""

    col: int
    row: int

    def __post_init__(self) -> None:
        if self.col < 0 or self.row < 0:
            raise InvalidInput("Square ({col}, {row}) is off the map.", col=self.col, row=self.row)

    @classmethod
    def parse(cls, text: str) -> Square:
        """``D4`` -> Square(3, 3). Only ASCII letters then ASCII digits, at most
        :data:`SQUARE_LETTERS` and :data:`SQUARE_DIGITS` of them: a superscript or fullwidth digit,
        a letter of another script or a row of thousands of digits is not a square name. Names parsed
        before come from a bounded cache (squares are immutable; issue 26 item 2)."""
        if cls is Square and type(text) is str and len(text) <= SQUARE_LETTERS + SQUARE_DIGITS:
            return _parse_square(text)
        return cls._parse(text)

    @classmethod
    def _parse(cls, text: str) -> Square:
        raw = str(text).strip()
        shown = raw if len(raw) <= 12 else raw[:12] + "…"
        letters = raw[: len(raw) - len(raw.lstrip(_LETTERS))] if raw.isascii() else ""
        digits = raw[len(letters) :]
        if len(raw) > SQUARE_LETTERS + SQUARE_DIGITS or len(letters) > SQUARE_LETTERS or len(digits) > SQUARE_DIGITS:
            raise InvalidInput("{text!r} is not a square name: at most {letters} letters then {digits} digits, like D4 "
                               "or AA12.", text=shown, letters=SQUARE_LETTERS, digits=SQUARE_DIGITS)
        if not raw.isascii() and raw[:1].isalpha() and not raw[:1].isascii():
            raise InvalidInput("{text!r} is not a square name: columns are letters A to Z.", text=shown)
        if not letters or not digits or not digits.isascii() or not digits.isdigit() or int(digits) < 1:
            raise InvalidInput(
                "{text!r} is not a square name: use column letters then a row number, like D4 or AA12.", text=shown
            )
        col = 0
        for ch in letters.upper():
            col = col * 26 + (ord(ch) - ord("A") + 1)
        return cls(col - 1, int(digits) - 1)

    @property
    def name(self) -> str:
        n = self.col + 1
        letters = ""
        while n:
            n, rem = divmod(n - 1, 26)
            letters = chr(ord("A") + rem) + letters
        return f"{letters}{self.row + 1}"

    def __str__(self) -> str:
        return self.name


class PlaceKind(StrEnum):
    """What a named place on the map is, for the map to draw its name (a town's name beside a dot, a
    river's along the water...). It changes no rule: strongholds and capitals are the map's own fields."""

    TOWN = "town"
    FORTRESS = "fortress"
    RIVER = "river"
    PASS = "pass"
    REGION = "region"


PLACE_NAME_MAX = 40
"""Characters of a place name, at most."""


@dataclass(frozen=True, slots=True)
class Place:
    """A name the scenario gives one square (``Genoa``, the river ``Po``), and what it names."""

    name: str
    kind: PlaceKind = PlaceKind.TOWN


@dataclass(frozen=True, slots=True)
class Cell:
    """What the scenario says about one square (MC-0)."""

    terrain: Terrain = Terrain.OPEN
    features: frozenset[Feature] = field(default_factory=frozenset)
    territory: str | None = None
    """The side whose territory this is, if any."""
    stronghold: str | None = None
    """The side whose stronghold (caposaldo) stands here, if any."""
    capital: bool = False
    river_flow: str | None = None
    """Compass direction the river flows towards (N, NE, ... W), for up/downstream (MC-5.3)."""
    place: Place | None = None
    """The place the scenario names on this square, if any (drawn on the map; no rule reads it)."""

    def has(self, feature: Feature) -> bool:
        return feature in self.features


class Territory(StrEnum):
    """Whose ground a square is, seen from one side (MC-4, MC-5.1, MC-7.1)."""

    FRIENDLY = "friendly"
    ENEMY = "enemy"
    NEUTRAL = "neutral"


def territory_for(cell: Cell, side: str, allies: frozenset[str] = frozenset()) -> Territory:
    """Whether ``cell`` is friendly, enemy or neutral ground for ``side``."""
    if cell.territory is None:
        return Territory.NEUTRAL
    if cell.territory == side or cell.territory in allies:
        return Territory.FRIENDLY
    return Territory.ENEMY


@functools.lru_cache(maxsize=65_536)
def _parse_square(text: str) -> Square:
    """:meth:`Square.parse` of a short name, remembered (a refusal is not: it raises every time)."""
    return Square._parse(text)
