"""Scenarios: the YAML a campaign starts from (map, sides, Forces, schedule, options).

Parsing is pure: text in, a validated :class:`Scenario` out, or an :class:`InvalidInput` naming
the field, the square and what is allowed. Uploaded files are read with ``yaml.safe_load`` (no tags,
no objects, no aliases; :mod:`bot.engine.uploads`), and everything a few KB could multiply into
seconds of work or megabytes of memory is bounded by :data:`LIMITS`, checked before that work:
a refusal names the limit. The work is CPU-bound: the bot runs it off the event loop.
"""

from __future__ import annotations

import datetime as dt
import re
import unicodedata
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from functools import cached_property
from pathlib import Path
from typing import Any

import yaml

from bot.engine.camps import Camps
from bot.engine.cc_model import Theatre
from bot.engine.errors import InvalidInput
from bot.engine.grid import COMPASS, CampaignMap
from bot.engine.model import (
    PLACE_NAME_MAX,
    Cell,
    Climate,
    Feature,
    Order,
    Place,
    PlaceKind,
    Quality,
    Square,
    Terrain,
    UnitType,
)
from bot.engine.tables import (
    HOUSE_TABLES,
    NO_TABLES,
    OPTION_NAMES,
    ScenarioTables,
    TableProblem,
    default_rulebook,
    read_scenario_tables,
)
from bot.engine.text import Msg
from bot.engine.uploads import MAX_DEPTH, UploadProblem, bad_character, bad_character_msg, load_yaml


@dataclass(frozen=True)
class ScenarioLimits:
    """The most a scenario may hold (docs/scenario-format.md, "Limits"). Each is checked before the
    work it bounds (a list's length before its items are read, a range's size before it is
    expanded), and its refusal names it. Sized so that the largest legal scenario is parsed in about
    a second and its campaign created without holding up the bot (``bench/upload.py``)."""

    file_bytes: int = 512 * 1024
    """The file, in bytes."""
    map_side: int = 100
    """Squares across and down (``map.width``, ``map.height``)."""
    squares_per_field: int = 10_000
    """Squares one field names, ranges expanded (``map.roads``, ``map.terrain.forest``, one river...)."""
    squares_total: int = 40_000
    """Squares all the fields name together, ranges expanded (``rows`` not counted)."""
    legend: int = 64
    """Entries of ``map.legend``."""
    sides: int = 8
    forces: int = 500
    """Forces in all: at the start and reinforcements."""
    units_per_force: int = 50
    units: int = 5_000
    """Units in all."""
    name: int = 100
    """Characters of a name (the scenario's, a side's, a Force's, a leader's, a unit's)."""
    nation: int = 40
    place: int = PLACE_NAME_MAX
    """Characters of a place's name (``map.places``)."""
    key: int = 32
    turns: int = 1000
    """The latest turn a scenario names (a reinforcement's, ``last_turn``)."""
    description: int = 4_000
    depth: int = MAX_DEPTH
    """Levels of lists and mappings (bot/engine/uploads.py)."""
    nodes: int = 150_000
    """Values in the file (texts, numbers, lists, mappings; keys not counted): the largest legal scenario
    (bench/upload.py) holds about 70,000, and 512 KB of short items could hold 260,000."""


LIMITS = ScenarioLimits()
START_DATE_RANGE = (dt.date(1600, 1, 1), dt.date(2100, 12, 31))
"""The first and last start date allowed: a campaign may then run for hundreds of thousands of turns
before its calendar could leave the years Python counts (1 to 9999)."""
MAX_BYTES = LIMITS.file_bytes
KEY_RE = re.compile(r"^[a-z0-9][a-z0-9_-]{0,31}$")
COLOUR_RE = re.compile(r"^#[0-9a-fA-F]{6}$")
SCENARIO_DIR = Path(__file__).resolve().parent.parent / "assets" / "maps"


_OPEN = Cell()

TOP_FIELDS = ("name", "description", "climate", "theatre", "start_date", "last_turn", "map", "sides", "alliances",
              "forces", "reinforcements", "supply", "options", *HOUSE_TABLES)
MAP_FIELDS = ("width", "height", "adjacency", "sight", "legend", "rows", "terrain", "rivers", "roads", "tracks",
              "bridges", "rapids", "reefs", "territories", "strongholds", "capitals", "places")
SIDE_FIELDS = ("key", "name", "colour", "nation")
FORCE_FIELDS = ("key", "name", "side", "square", "order", "scouts", "leader", "units", "small_boats", "horse_rafts")
UNIT_FIELDS = ("key", "name", "sp", "type", "quality", "mercenary", "flag")
RECRUIT_FIELDS = (*UNIT_FIELDS, "cost")
RECRUITS = "recruits"
"""The key of ``supply`` that holds each side's recruit pool (RU-24); every other key is a side's income."""
"""The fields of each part of the format (docs/scenario-format.md): any other is refused, naming it."""

DEFAULT_LEGEND = {
    ".": "open", "c": "cultivated", "f": "forest", "h": "hill", "m": "mountain", "s": "swamp",
    "d": "desert", "w": "wasteland", "j": "jungle", "~": "lake", "S": "sea",
}


@dataclass(frozen=True)
class SideSpec:
    key: str
    name: str
    colour: str
    nation: str


@dataclass(frozen=True)
class UnitSpec:
    key: str
    name: str
    sp: int
    type: UnitType
    quality: Quality
    mercenary: bool
    flag: bool


@dataclass(frozen=True)
class RecruitSpec:
    """A new unit a side may buy with supply points (FC-2, RU-24), from its pool in ``supply.recruits``."""

    unit: UnitSpec
    cost: int
    """Its price in supply points: its combat value (its SP) unless the scenario says otherwise."""


@dataclass(frozen=True)
class LeaderSpec:
    name: str
    cv: int


@dataclass(frozen=True)
class ForceSpec:
    key: str
    name: str
    side: str
    square: Square
    leader: LeaderSpec
    units: tuple[UnitSpec, ...]
    order: Order = Order.EXPLORE
    scouts: int = 0
    arrives_turn: int | None = None
    """Set for a scheduled reinforcement: the turn it arrives (MC-10, RU-10)."""
    small_boats: bool = False
    """The Force travels by water in boats smaller than ships (MC-5.3: the scenario states it for the Force)."""
    horse_rafts: bool = False
    """The Force carries its horses on barges or rafts when it travels by water (MC-5.3)."""


@dataclass(frozen=True)
class Scenario:
    key: str
    name: str
    description: str
    climate: Climate
    start_date: dt.date
    map: CampaignMap
    sight: int
    sides: tuple[SideSpec, ...]
    forces: tuple[ForceSpec, ...]
    supply: Mapping[str, int] = field(default_factory=dict)
    options: Mapping[str, Any] = field(default_factory=dict)
    theatre: Theatre = Theatre.OTHER
    """Where the campaign is fought, for the Glory spends of one country (CC-4, RU-17): spain, portugal, other."""
    alliances: tuple[tuple[str, ...], ...] = ()
    """The scenario's alliances (RU-19), each as its side keys in the order the file gives them."""
    last_turn: int | None = None
    """The campaign's last turn (RU-25): once it is over, the campaign ends; None: it runs until one camp is left."""
    tables: ScenarioTables = NO_TABLES
    """The scenario's own weather, calendar and random-events tables, in place of the house rules' (RU-10)."""
    recruits: Mapping[str, tuple[RecruitSpec, ...]] = field(default_factory=dict)
    """Each side's pool of new units (``supply.recruits``, FC-2, RU-24): the only new units it may buy."""

    def side(self, key: str) -> SideSpec:
        for s in self.sides:
            if s.key == key:
                return s
        raise KeyError(key)

    @cached_property
    def camps(self) -> Camps:
        """Side key -> camp key for every side (RU-19, RU-20): an allied side's camp is its alliance's
        side keys, sorted, joined by ``+`` (``au+pi``); a side in no alliance is its own camp, keyed by
        its own key. What the engine's procedures take as ``camps=``."""
        return Camps.from_alliances(self.alliances, [s.key for s in self.sides])

    def camp_of(self, side: str) -> str:
        """The camp key of ``side`` (:attr:`camps`); ``KeyError`` for a key that is not a side."""
        return self.camps[side]


def _text(what: str, params: Mapping[str, object]) -> str:
    return what if isinstance(what, Msg) and not params else Msg(what, **params)  # i18n: passes a template on


class _At:
    """A location in the scenario, for messages: ``forces[2].units[0].sp``."""

    def __init__(self, path: str = "") -> None:
        self.path = path

    def __truediv__(self, part: object) -> _At:
        p = f"[{part}]" if isinstance(part, int) else str(_clip(str(part)))
        return _At(f"{self.path}{p}" if isinstance(part, int) or not self.path else f"{self.path}.{p}")

    def fail(self, what: str, /, **params: object) -> InvalidInput:
        """The error at this location; ``what`` is a template filled with ``params`` (or a Msg)."""
        return InvalidInput("Scenario field {field}: {what}", field=self.path or "(top)", what=_text(what, params))


def _map(v: Any, at: _At) -> dict[str, Any]:
    if not isinstance(v, dict):
        raise at.fail("expected a mapping, got {name}", name=type(v).__name__)
    return v


def _fields(d: Mapping[Any, Any], at: _At, allowed: Iterable[str]) -> None:
    """Refuse a field the format does not have (a typo would otherwise change nothing, silently)."""
    known = sorted(allowed)
    if extra := sorted(set(map(str, d)) - set(known)):
        raise at.fail("unknown field(s) {extra}; allowed: {allowed}", extra=', '.join(map(_clip, extra)),
                      allowed=', '.join(known))


def _list(v: Any, at: _At) -> list[Any]:
    if not isinstance(v, list):
        raise at.fail("expected a list, got {name}", name=type(v).__name__)
    return v


def fold_name(text: str) -> str:
    """How names are compared (a side's, a Force's, a unit's, a leader's): without invisible (Unicode
    format, category Cf, such as U+200B) characters, surrounding whitespace or case: "FRANCE " with a
    zero-width space and "France" are the same name; a name that folds to "" has nothing a reader can see."""
    return "".join(ch for ch in text if unicodedata.category(ch) != "Cf").strip().casefold()


NAME_LANGUAGES = ("en", "it", "es", "fr", "de")
"""The languages a scenario may name its title, sides, Forces and places in (issue 23, item 4)."""


class LocalName(str):
    """A name as the scenario gives it (English, or its first language), remembering its names in other
    languages (``{en: Austria, fr: Autriche, de: Österreich}``)."""

    said: Mapping[str, str]

    def __new__(cls, name: str, said: Mapping[str, str]) -> LocalName:
        self = super().__new__(cls, name)
        self.said = dict(said)
        return self


def _name(v: Any, at: _At, *, max_len: int = LIMITS.name) -> str:
    """A name: text, or a mapping of languages to text (``{en: Austria, fr: Autriche}``), each checked as
    a name is; the English one (or else the first) is the name the campaign keeps and compares."""
    if not isinstance(v, dict):
        return _str(v, at, max_len=max_len)
    if not v:
        raise at.fail("expected a name, or names by language (en: Austria, fr: Autriche)")
    said: dict[str, str] = {}
    for lang, text in v.items():
        if lang not in NAME_LANGUAGES:
            raise (at / str(lang)).fail("{lang!r} is not a language of the bot: {languages}", lang=_clip(lang),
                                        languages=", ".join(NAME_LANGUAGES))
        said[lang] = _str(text, at / lang, max_len=max_len)
    return LocalName(said.get("en") or next(iter(said.values())), said)


def names_of(scenario: Scenario) -> dict[str, dict[str, str]]:
    """The scenario's names in other languages, by what they name: ``title``, ``side:KEY``, ``force:KEY``,
    ``place:SQUARE`` -> language -> name (only names given in several languages)."""
    out: dict[str, dict[str, str]] = {}

    def add(slot: str, name: str) -> None:
        if isinstance(name, LocalName) and name.said:
            out[slot] = dict(name.said)

    add("title", scenario.name)
    for s in scenario.sides:
        add(f"side:{s.key}", s.name)
    for f in scenario.forces:
        add(f"force:{f.key}", f.name)
    for sq, place in scenario.map.places():
        add(f"place:{sq}", place.name)
    return out


def _str(v: Any, at: _At, *, max_len: int = LIMITS.name) -> str:
    if not isinstance(v, str) or not v.strip():
        raise at.fail("expected text, got {v!r}", v=_clip(v))
    if not fold_name(v):
        raise at.fail("{v!r} has no visible character: invisible (format) characters and spaces only", v=_clip(v))
    if len(v) > max_len:
        raise at.fail("at most {max_len} characters, got {n_v}", max_len=max_len, n_v=len(v))
    if (char := bad_character(v)) is not None:
        raise at.fail(bad_character_msg(char))  # i18n: passes a template on
    return v.strip()


def _clip(v: Any) -> Any:
    """A value short enough to quote in a message."""
    if isinstance(v, str):
        return v if len(v) <= 40 else v[:40] + "…"
    return v if v is None or isinstance(v, int | float | dt.date) else type(v).__name__


def _int(v: Any, at: _At, low: int, high: int) -> int:
    if isinstance(v, bool) or not isinstance(v, int):
        raise at.fail("expected a whole number, got {v!r}", v=_clip(v))
    if not low <= v <= high:
        raise at.fail("{v} is out of range: {low} to {high}", v=v, low=low, high=high)
    return v


def _bool(v: Any, at: _At) -> bool:
    if not isinstance(v, bool):
        raise at.fail("expected true or false, got {v!r}", v=_clip(v))
    return v


def _enum(kind: Any, v: Any, at: _At) -> Any:
    try:
        return kind(str(v).strip().lower())
    except ValueError:
        raise at.fail("unknown value {v!r}; allowed: {values}", v=_clip(v), values=', '.join(m.value for m in kind)) from None


def _key(v: Any, at: _At) -> str:
    s = _str(v, at, max_len=LIMITS.key)
    if not KEY_RE.match(s):
        raise at.fail("{s!r} is not a key: lowercase letters, digits, '-' and '_', up to 32", s=s)
    return s


def _square(cmap_w: int, cmap_h: int, v: Any, at: _At) -> Square:
    if not isinstance(v, str | int):
        raise at.fail("expected a square like D4, got {name}", name=type(v).__name__)
    try:
        sq = Square.parse(str(v))
    except InvalidInput as exc:
        raise at.fail(exc.text) from None  # i18n: passes a template on
    if sq.col >= cmap_w or sq.row >= cmap_h:
        raise at.fail("square {sq} is outside the {cmap_w}x{cmap_h} map", sq=sq, cmap_w=cmap_w, cmap_h=cmap_h)
    return sq


class _Budget:
    """Squares the fields may still name, ranges expanded (:attr:`ScenarioLimits.squares_total`)."""

    def __init__(self) -> None:
        self.left = LIMITS.squares_total


def _squares(w: int, h: int, v: Any, at: _At, budget: _Budget) -> list[Square]:
    """A list of squares and ranges (``A1:D8``), counted against the field's and the scenario's
    budgets before a range is expanded."""
    items = v if isinstance(v, list) else [v]
    field_left = LIMITS.squares_per_field
    out: list[Square] = []
    for i, item in enumerate(items):
        if isinstance(item, str) and ":" in item:
            a, b = (_square(w, h, p, at / i) for p in item.split(":", 1))
            n = (abs(a.col - b.col) + 1) * (abs(a.row - b.row) + 1)
        else:
            a = b = _square(w, h, item, at / i)
            n = 1
        if n > field_left:
            raise (at / i).fail("this field names more than {limit:,} squares (ranges counted square by square)",
                                limit=LIMITS.squares_per_field)
        if n > budget.left:
            raise (at / i).fail("the map's fields name more than {limit:,} squares in all (ranges counted square by "
                                "square)", limit=LIMITS.squares_total)
        field_left -= n
        budget.left -= n
        out += [
            Square(c, r)
            for r in range(min(a.row, b.row), max(a.row, b.row) + 1)
            for c in range(min(a.col, b.col), max(a.col, b.col) + 1)
        ]
    return out


def parse_scenario_text(text: str | bytes, *, key: str = "uploaded") -> Scenario:
    """Parse an uploaded or bundled scenario; every problem names its field. CPU-bound (up to about a
    second for the largest legal scenario): the bot calls it off the event loop."""
    return parse_scenario(read_yaml_text(text), key=key)


class _Precheck:
    """The limits a file's size could multiply, counted while its YAML events stream by (issue 24,
    item 6): the first one exceeded refuses the file there, before the document is built or parsed, so
    a refusal costs a fraction of a full parse (a 514 KB scenario over the unit cap was parsed whole
    first). Each refusal names its field and limit, as the full parse's does."""

    __slots__ = ("forces", "items", "nodes", "units")

    def __init__(self) -> None:
        self.nodes = self.forces = self.units = 0
        self.items: dict[tuple[Any, ...], int] = {}
        """Items seen so far of each list or mapping counted one by one (by its path)."""

    def __call__(self, parent: tuple[Any, ...], part: Any, event: Any) -> None:
        self.nodes += 1
        if self.nodes > LIMITS.nodes:
            raise _at(parent, part).fail("the file holds more than {limit:,} values (texts, numbers, lists, "
                                         "mappings)", limit=LIMITS.nodes)
        depth = len(parent)
        if depth == 0:
            if part == "description" and isinstance(event, yaml.ScalarEvent) and len(event.value) > LIMITS.description:
                raise _at(parent, part).fail("at most {limit:,} characters, got {n_description:,}",
                                             limit=LIMITS.description, n_description=len(event.value))
            return
        head = parent[0]
        if depth == 1:
            if head in ("forces", "reinforcements") and isinstance(part, int):
                self.forces += 1
                if self.forces > LIMITS.forces:
                    raise _at(parent).fail("at most {limit:,} Forces in all (at the start and reinforcements)",
                                           limit=LIMITS.forces)
            elif head == "sides" and isinstance(part, int) and part >= LIMITS.sides:
                raise _at(parent).fail("at most {limit} sides", limit=LIMITS.sides)
            elif head == "map" and part in ("width", "height") and isinstance(event, yaml.ScalarEvent):
                value = event.value
                if event.implicit[0] and value.isdigit():  # else the full parse says what is wrong
                    _int(int(value), _at(parent, part), 2, LIMITS.map_side)
        elif parent == ("map", "legend"):
            if self._count(parent) > LIMITS.legend:
                raise _at(parent).fail("at most {limit} entries", limit=LIMITS.legend)
        elif not isinstance(part, int):  # below, lists' items: in a mapping the full parse refuses the mapping
            return
        elif ((head == "forces" and depth == 3 and parent[2] == "units")
              or (head == "reinforcements" and depth == 4 and parent[2:] == ("force", "units"))):
            if self._count(parent) > LIMITS.units_per_force:
                raise _at(parent).fail("at most {limit} units in a Force", limit=LIMITS.units_per_force)
            self._unit(parent)
        elif head == "supply" and depth == 3 and parent[1] == RECRUITS:
            self._unit(parent)

    def _count(self, parent: tuple[Any, ...]) -> int:
        n = self.items[parent] = self.items.get(parent, 0) + 1
        return n

    def _unit(self, parent: tuple[Any, ...]) -> None:
        self.units += 1
        if self.units > LIMITS.units:
            raise _at(parent).fail("at most {limit:,} units in all", limit=LIMITS.units)


def _at(parent: tuple[Any, ...], part: Any = None) -> _At:
    at = _At()
    for p in (*parent, part) if part is not None else parent:
        at = at / p
    return at


def read_yaml_text(text: str | bytes) -> Any:
    """A scenario file (or a painted map's small YAML) as plain data: its size, encoding and YAML
    checked, each refusal naming the field and line; the limits a file's size could multiply checked
    as its YAML is read, before the document is built (:class:`_Precheck`)."""
    if len(text) > LIMITS.file_bytes:
        raise InvalidInput("The scenario file is {n_text:,} bytes: at most {max_bytes:,} are accepted.", n_text=len(text), max_bytes=LIMITS.file_bytes)
    if isinstance(text, bytes):
        try:
            text = text.decode("utf-8")
        except UnicodeDecodeError:
            raise InvalidInput("The scenario file is not UTF-8 text.") from None
    try:
        return load_yaml(text, _Precheck)
    except UploadProblem as p:
        if p.line:
            raise InvalidInput("Scenario field {field} (line {line}): {what}", field=p.field or "(top)", line=p.line,
                               what=p.what) from None
        raise InvalidInput("Scenario field {field}: {what}", field=p.field or "(top)", what=p.what) from None
    except yaml.YAMLError as exc:
        where = getattr(exc, "problem_mark", None)
        line = f" (line {where.line + 1})" if where else ""
        raise InvalidInput("The scenario is not valid YAML{line}: {value}", line=line,
                           value=getattr(exc, "problem", None) or exc) from None


def parse_scenario(data: Any, *, key: str = "uploaded") -> Scenario:
    top = _At()
    d = _map(data, top)
    _fields(d, top, TOP_FIELDS)
    name = _name(d.get("name"), top / "name")
    climate = _enum(Climate, d.get("climate", "temperate"), top / "climate")
    theatre = _enum(Theatre, d.get("theatre", "other"), top / "theatre")
    start = d.get("start_date")
    if isinstance(start, str):
        try:
            start = dt.date.fromisoformat(start)
        except ValueError:
            raise (top / "start_date").fail("{start!r} is not a date like 1805-09-25", start=start) from None
    if not isinstance(start, dt.date):
        raise (top / "start_date").fail("expected a date like 1805-09-25")
    if isinstance(start, dt.datetime):
        start = start.date()
    first, last = START_DATE_RANGE
    if not first <= start <= last:
        raise (top / "start_date").fail("{start} is not allowed: a start date from {first} to {last}", start=start,
                                        first=first, last=last)

    last_turn = _int(d["last_turn"], top / "last_turn", 1, LIMITS.turns) if d.get("last_turn") is not None else None

    budget = _Budget()
    cmap, sight = _parse_map(d.get("map"), top / "map", budget)
    w, h = cmap.width, cmap.height

    sides: list[SideSpec] = []
    side_list = _list(d.get("sides"), top / "sides")
    if len(side_list) > LIMITS.sides:
        raise (top / "sides").fail("at most {limit} sides", limit=LIMITS.sides)
    for i, s in enumerate(side_list):
        at = top / "sides" / i
        s = _map(s, at)
        _fields(s, at, SIDE_FIELDS)
        colour = _str(s.get("colour", "#808080"), at / "colour", max_len=7)
        if not COLOUR_RE.match(colour):
            raise (at / "colour").fail("{colour!r} is not a colour like #1f4e9c", colour=colour)
        sides.append(SideSpec(_key(s.get("key"), at / "key"), _name(s.get("name"), at / "name"), colour,
                              _str(s["nation"], at / "nation", max_len=LIMITS.nation) if s.get("nation") else ""))
    if len(sides) < 2:
        raise (top / "sides").fail("a campaign needs at least two sides")
    side_keys = [s.key for s in sides]
    if len(set(side_keys)) != len(side_keys):
        raise (top / "sides").fail("side keys must differ: {side_keys}", side_keys=side_keys)
    _check_names([(top / "sides" / i / "name", s.key, s.name) for i, s in enumerate(sides)], "side")
    alliances = _parse_alliances(d.get("alliances", []), top / "alliances", side_keys)

    _check_side_refs(cmap, side_keys, top / "map")

    forces: list[ForceSpec] = []
    where: list[_At] = []
    starting = _list(d.get("forces"), top / "forces")
    later = _list(d.get("reinforcements", []), top / "reinforcements")
    for what, given in (("forces", len(starting)), ("reinforcements", len(starting) + len(later))):
        if given > LIMITS.forces:
            raise (top / what).fail("at most {limit:,} Forces in all (at the start and reinforcements), got {n:,}",
                                    limit=LIMITS.forces, n=given)
    units = _Units()
    for i, f in enumerate(starting):
        forces.append(_parse_force(f, top / "forces" / i, w, h, side_keys, None, units))
        where.append(top / "forces" / i)
    for i, r in enumerate(later):
        at = top / "reinforcements" / i
        r = _map(r, at)
        _fields(r, at, ("turn", "force"))
        turn = _int(r.get("turn"), at / "turn", 2, LIMITS.turns)
        forces.append(_parse_force(r.get("force"), at / "force", w, h, side_keys, turn, units))
        where.append(at / "force")
    _check_unique(forces, where)
    for f, at in zip(forces, where, strict=True):
        if cmap.cell(f.square).terrain.is_water:
            raise (at / "square").fail("{square} is water: Forces start on land", square=f.square)
    # RU-19: enemies share a square only in a battle, which starts from movement; a campaign cannot start in one.
    camps, first = Camps.from_alliances(alliances, side_keys), {}
    for f, at in zip(forces, where, strict=True):
        if f.arrives_turn is not None:
            continue
        other = first.setdefault(f.square, f)
        if camps.hostile(other.side, f.side):
            raise (at / "square").fail("{square} already holds {other}, an enemy Force: enemies start in different "
                                       "squares", square=f.square, other=other.name)

    supply = {}
    recruits: dict[str, tuple[RecruitSpec, ...]] = {}
    for k, v in _map(d.get("supply", {}), top / "supply").items():
        if k == RECRUITS:
            recruits = _parse_recruits(v, top / "supply" / RECRUITS, side_keys, units)
            continue
        if k not in side_keys:
            raise (top / "supply" / str(k)).fail("unknown side {k!r}; sides: {side_keys}", k=k, side_keys=', '.join(side_keys))
        supply[k] = _int(v, top / "supply" / str(k), 0, 1000)
    taken = {u.key for f in forces for u in f.units}
    for side, pool in recruits.items():
        for i, r in enumerate(pool):
            if r.unit.key in taken:
                raise (top / "supply" / RECRUITS / side / i / "key").fail("two units have the key {key!r}",
                                                                          key=r.unit.key)
            taken.add(r.unit.key)
    options = _map(d.get("options", {}), top / "options")
    _fields(options, top / "options", OPTION_NAMES)  # their values are checked when a campaign is created
    description = d.get("description", "")
    if not isinstance(description, str):  # a list (or an alias bomb) would be expanded by str()
        raise (top / "description").fail("expected text, got {name}", name=type(description).__name__)
    if len(description) > LIMITS.description:
        raise (top / "description").fail("at most {limit:,} characters, got {n_description:,}", limit=LIMITS.description,
                                          n_description=len(description))
    if (char := bad_character(description)) is not None:
        raise (top / "description").fail(bad_character_msg(char))  # i18n: passes a template on
    return Scenario(key, name, description.strip(), climate, start, cmap, sight,
                    tuple(sides), tuple(forces), supply, dict(options), theatre, alliances, last_turn, _tables(d),
                    recruits)


def _tables(d: Mapping[str, Any]) -> ScenarioTables:
    """RU-10: the scenario's own ``weather``, ``calendar`` and ``events`` tables, each of the shape of its
    file in ``rules/`` and read by the same reader; a refusal names the field."""
    try:
        return read_scenario_tables(d, default_rulebook())
    except TableProblem as problem:
        raise _At(problem.path.replace(".[", "[")).fail(problem.what) from None  # i18n: passes a template on


def _parse_alliances(v: Any, at: _At, side_keys: list[str]) -> tuple[tuple[str, ...], ...]:
    """RU-19: ``alliances``, a list of alliances, each a list of two or more side keys; a side is in at
    most one, and at least two camps remain (a side in no alliance is a camp of its own)."""
    given = _list(v, at)
    if len(given) > LIMITS.sides:
        raise at.fail("at most {limit} alliances", limit=LIMITS.sides)
    out: list[tuple[str, ...]] = []
    where: dict[str, _At] = {}
    for i, alliance in enumerate(given):
        members = _list(alliance, at / i)
        if len(members) > len(side_keys):
            raise (at / i).fail("{n} sides named, but the scenario has {n_sides}", n=len(members), n_sides=len(side_keys))
        keys: list[str] = []
        for j, m in enumerate(members):
            side = _str(m, at / i / j, max_len=LIMITS.key)
            if side not in side_keys:
                raise (at / i / j).fail("unknown side {side!r}; sides: {sides}", side=side, sides=", ".join(side_keys))
            if side in keys:
                raise (at / i / j).fail("side {side!r} is listed twice in this alliance", side=side)
            if side in where:
                raise (at / i / j).fail("side {side!r} is already in {other}: a side belongs to at most one alliance",
                                        side=side, other=where[side].path)
            keys.append(side)
        if len(keys) < 2:
            raise (at / i).fail("an alliance groups at least two sides, got {n}", n=len(keys))
        where.update({k: at / i for k in keys})
        out.append(tuple(keys))
    if len(side_keys) - len(where) + len(out) < 2:
        raise at.fail("every side would be of one camp: a campaign needs at least two camps (RU-19)")
    return tuple(out)


def _parse_map(v: Any, at: _At, budget: _Budget) -> tuple[CampaignMap, int]:
    m = _map(v, at)
    _fields(m, at, MAP_FIELDS)
    w = _int(m.get("width"), at / "width", 2, LIMITS.map_side)
    h = _int(m.get("height"), at / "height", 2, LIMITS.map_side)
    adjacency = _int(m.get("adjacency", 8), at / "adjacency", 4, 8)
    if adjacency not in (4, 8):
        raise (at / "adjacency").fail("8 (default) or 4 (RU-11)")
    sight = _int(m.get("sight", 2), at / "sight", 0, 20)
    terrain: dict[Square, Terrain] = {}
    legend = dict(DEFAULT_LEGEND)
    given_legend = _map(m.get("legend", {}), at / "legend")
    if len(given_legend) > LIMITS.legend:
        raise (at / "legend").fail("at most {limit} entries", limit=LIMITS.legend)
    for ch, t in given_legend.items():
        if not isinstance(ch, str) or len(ch) != 1:
            raise (at / "legend").fail("legend keys are single characters, got {ch!r}", ch=_clip(ch))
        legend[str(ch)] = _enum(Terrain, t, at / "legend" / str(ch)).value
    if "rows" in m:
        rows = _list(m["rows"], at / "rows")
        if len(rows) != h:
            raise (at / "rows").fail("{n_rows} rows given for a map {h} squares high", n_rows=len(rows), h=h)
        for r, line in enumerate(rows):
            if not isinstance(line, str):
                raise (at / "rows" / r).fail("expected text, got {v!r}", v=_clip(line))
            if len(line) != w:
                raise (at / "rows" / r).fail("row {r} has {n_line} characters for a map {w} squares wide", r=r + 1, n_line=len(line), w=w)
            for c, ch in enumerate(line):
                if ch not in legend:
                    raise (at / "rows" / r).fail("unknown terrain character {ch!r} at {square}", ch=ch, square=Square(c, r))
                terrain[Square(c, r)] = Terrain(legend[ch])
    for t, squares in _map(m.get("terrain", {}), at / "terrain").items():
        kind = _enum(Terrain, t, at / "terrain")
        for sq in _squares(w, h, squares, at / "terrain" / str(t), budget):
            terrain[sq] = kind
    features: dict[Square, set[Feature]] = {}
    flow: dict[Square, str] = {}
    for i, river in enumerate(_list(m.get("rivers", []), at / "rivers")):
        rat = at / "rivers" / i
        river = _map(river, rat)
        _fields(river, rat, ("squares", "flow"))
        direction = str(river.get("flow", "")).upper() or None
        if direction is not None and direction not in COMPASS:
            raise (rat / "flow").fail("{direction!r} is not a direction: {compass}", direction=_clip(direction), compass=', '.join(COMPASS))
        for sq in _squares(w, h, river.get("squares", []), rat / "squares", budget):
            features.setdefault(sq, set()).add(Feature.RIVER)
            if direction:
                flow[sq] = direction
    for name, feat in (("roads", Feature.ROAD), ("tracks", Feature.CARAVAN_TRACK), ("bridges", Feature.BRIDGE),
                       ("rapids", Feature.RAPIDS), ("reefs", Feature.REEFS)):
        for sq in _squares(w, h, m.get(name, []), at / name, budget):
            features.setdefault(sq, set()).add(feat)
    territory: dict[Square, str] = {}
    for side, squares in _map(m.get("territories", {}), at / "territories").items():
        for sq in _squares(w, h, squares, at / "territories" / str(side), budget):
            territory[sq] = str(side)
    stronghold: dict[Square, str] = {}
    for side, squares in _map(m.get("strongholds", {}), at / "strongholds").items():
        for sq in _squares(w, h, squares, at / "strongholds" / str(side), budget):
            stronghold[sq] = str(side)
    capitals: dict[str, Square] = {}
    for side, sq in _map(m.get("capitals", {}), at / "capitals").items():
        capitals[str(side)] = _square(w, h, sq, at / "capitals" / str(side))
        if stronghold.get(capitals[str(side)]) != str(side):
            raise (at / "capitals" / str(side)).fail("{capitals} must be one of {side}'s strongholds", capitals=capitals[str(side)], side=side)
    places = _parse_places(m.get("places", {}), at / "places", w, h)
    cells: dict[Square, Cell] = {}
    for sq in set(terrain) | set(features) | set(territory) | set(stronghold) | set(places):
        cell = Cell(
            terrain.get(sq, Terrain.OPEN), frozenset(features.get(sq, ())), territory.get(sq), stronghold.get(sq),
            capitals.get(stronghold.get(sq, "")) == sq, flow.get(sq), places.get(sq),
        )
        if cell != _OPEN:  # a square with nothing on it is open ground anyway: not stored
            cells[sq] = cell
    return CampaignMap(w, h, cells, adjacency), sight


def _parse_places(v: Any, at: _At, w: int, h: int) -> dict[Square, Place]:
    """``map.places``: square -> a town's name, or ``{name: ..., kind: ...}`` (a :class:`PlaceKind`,
    ``town`` by default); at most one place per square. Names may repeat (a river named on several
    squares)."""
    given = _map(v, at)
    if len(given) > w * h:
        raise at.fail("at most one place per square: {limit:,} on this map, got {n:,}", limit=w * h, n=len(given))
    places: dict[Square, Place] = {}
    named: dict[Square, str] = {}
    for key, entry in given.items():
        pat = at / str(key)
        sq = _square(w, h, key, pat)
        if sq in places:
            raise pat.fail("{sq} is also {other}: at most one place per square", sq=sq,
                           other=(at / named[sq]).path)
        if isinstance(entry, dict):
            _fields(entry, pat, ("name", "kind"))
            name = _name(entry.get("name"), pat / "name", max_len=LIMITS.place)
            kind = _enum(PlaceKind, entry.get("kind", PlaceKind.TOWN.value), pat / "kind")
        elif isinstance(entry, str):
            name, kind = _str(entry, pat, max_len=LIMITS.place), PlaceKind.TOWN
        else:
            raise pat.fail("expected a name, or a mapping of name and kind, got {name}",
                           name="null" if entry is None else type(entry).__name__)
        places[sq] = Place(name, kind)
        named[sq] = str(key)
    return places


def _check_side_refs(cmap: CampaignMap, side_keys: list[str], at: _At) -> None:
    for sq, cell in cmap.cells.items():
        for what, side in (("territories", cell.territory), ("strongholds", cell.stronghold)):
            if side is not None and side not in side_keys:
                raise (at / what).fail("{sq} names unknown side {side!r}; sides: {side_keys}", sq=sq, side=side, side_keys=', '.join(side_keys))


class _Units:
    """Units the scenario may still hold (:attr:`ScenarioLimits.units`)."""

    def __init__(self) -> None:
        self.left = LIMITS.units


def _parse_force(v: Any, at: _At, w: int, h: int, sides: list[str], arrives: int | None, count: _Units) -> ForceSpec:
    f = _map(v, at)
    _fields(f, at, FORCE_FIELDS)
    side = _str(f.get("side"), at / "side")
    if side not in sides:
        raise (at / "side").fail("unknown side {side!r}; sides: {sides}", side=side, sides=', '.join(sides))
    leader = _map(f.get("leader"), at / "leader")
    _fields(leader, at / "leader", ("name", "cv"))
    units = []
    given = _list(f.get("units"), at / "units")
    if len(given) > LIMITS.units_per_force:
        raise (at / "units").fail("at most {limit} units in a Force, got {n:,}", limit=LIMITS.units_per_force,
                                  n=len(given))
    if len(given) > count.left:
        raise (at / "units").fail("at most {limit:,} units in all", limit=LIMITS.units)
    count.left -= len(given)
    for i, u in enumerate(given):
        uat = at / "units" / i
        u = _map(u, uat)
        _fields(u, uat, UNIT_FIELDS)
        units.append(_parse_unit(u, uat))
    if not units:
        raise (at / "units").fail("a Force needs at least one unit")
    return ForceSpec(
        _key(f.get("key"), at / "key"), _name(f.get("name"), at / "name"), side,
        _square(w, h, f.get("square"), at / "square"),
        LeaderSpec(_str(leader.get("name"), at / "leader" / "name"), _int(leader.get("cv", 0), at / "leader" / "cv", -3, 10)),
        tuple(units), _enum(Order, f.get("order", "explore"), at / "order"), _int(f.get("scouts", 0), at / "scouts", 0, 20),
        arrives, _bool(f.get("small_boats", False), at / "small_boats"),
        _bool(f.get("horse_rafts", False), at / "horse_rafts"),
    )


def _parse_unit(u: Mapping[str, Any], at: _At, low_sp: int = 0) -> UnitSpec:
    return UnitSpec(
        _key(u.get("key"), at / "key"), _str(u.get("name"), at / "name"), _int(u.get("sp"), at / "sp", low_sp, 10_000),
        _enum(UnitType, u.get("type", "infantry"), at / "type"), _enum(Quality, u.get("quality", "average"), at / "quality"),
        _bool(u.get("mercenary", False), at / "mercenary"), _bool(u.get("flag", True), at / "flag"),
    )


def _parse_recruits(v: Any, at: _At, sides: list[str], count: _Units) -> dict[str, tuple[RecruitSpec, ...]]:
    """``supply.recruits`` (RU-24): by side key, the new units that side may buy, each a unit as under a
    Force's ``units`` (at least 1 SP) with an optional ``cost`` (its SP when left out)."""
    pools: dict[str, tuple[RecruitSpec, ...]] = {}
    for side, given in _map(v, at).items():
        if side not in sides:
            raise (at / str(side)).fail("unknown side {k!r}; sides: {side_keys}", k=side, side_keys=', '.join(sides))
        items = _list(given, at / side)
        if len(items) > count.left:
            raise (at / side).fail("at most {limit:,} units in all", limit=LIMITS.units)
        count.left -= len(items)
        pool = []
        keys: set[str] = set()
        for i, r in enumerate(items):
            rat = at / side / i
            r = _map(r, rat)
            _fields(r, rat, RECRUIT_FIELDS)
            unit = _parse_unit(r, rat, low_sp=1)
            if unit.key in keys:
                raise (rat / "key").fail("two units have the key {key!r}", key=unit.key)
            keys.add(unit.key)
            pool.append(RecruitSpec(unit, _int(r.get("cost", unit.sp), rat / "cost", 0, 10_000)))
        pools[side] = tuple(pool)
    return pools


def _check_unique(forces: list[ForceSpec], where: list[_At]) -> None:
    """Keys are unique (Forces, units); names are checked by :func:`_check_names`."""
    top = _At()
    seen: set[str] = set()
    units: set[str] = set()
    for f in forces:
        if f.key in seen:
            raise (top / "forces").fail("two Forces have the key {key!r}", key=f.key)
        seen.add(f.key)
        for u in f.units:
            if u.key in units:
                raise (top / "forces").fail("two units have the key {key!r}", key=u.key)
            units.add(u.key)
    pairs = list(zip(forces, where, strict=True))
    _check_names([(at / "name", f.key, f.name) for f, at in pairs], "Force")
    _check_names([(at / "leader" / "name", None, f.leader.name) for f, at in pairs], "leader")
    unit_keys = {u.key for f in forces for u in f.units}
    for f, at in pairs:
        # Two Forces may each have a "Reserve Artillery": a unit's name is read within its Force.
        _check_names([(at / "units" / i / "name", u.key, u.name) for i, u in enumerate(f.units)], "unit",
                     keys=unit_keys)


def _check_names(named: list[tuple[_At, str | None, str]], kind: str, *, keys: Iterable[str] | None = None) -> None:
    """Names of one kind: none equal (folded, :func:`fold_name`) to another one's key (``keys``, by default
    the keys listed with the names), and no two alike. A reader who types a key always gets the thing
    with that key; one who types a name gets the one thing with that name."""
    all_keys = {k for _, k, _ in named if k is not None} if keys is None else set(keys)
    first: dict[str, _At] = {}
    for at, own_key, name in named:
        folded = fold_name(name)
        if folded in all_keys and folded != own_key:
            if kind == "side":
                raise at.fail("{name!r} is the key of another side ({key}): a side's name may not be another side's key",
                              name=name, key=folded)
            if kind == "Force":
                raise at.fail("{name!r} is the key of another Force ({key}): a Force's name may not be another "
                              "Force's key", name=name, key=folded)
            raise at.fail("{name!r} is the key of another unit ({key}): a unit's name may not be another unit's key",
                          name=name, key=folded)
        if folded in first:
            raise at.fail("{name!r} is also the name of {other} (names are compared without case and invisible "
                          "characters)", name=name, other=first[folded].path)
        first[folded] = at


def bundled_scenarios() -> dict[str, Path]:
    return {p.stem: p for p in sorted(SCENARIO_DIR.glob("*.yaml"))}


def load_bundled(key: str) -> Scenario:
    paths = bundled_scenarios()
    if key not in paths:
        raise InvalidInput("Unknown scenario {key!r}: bundled scenarios are {value}.", key=key, value=', '.join(paths) or 'none')
    return parse_scenario_text(paths[key].read_text(encoding="utf-8"), key=key)
