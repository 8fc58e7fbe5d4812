"""Generated scenarios (MC-0): a whole map campaign drawn from a seed.

:func:`generate_scenario` returns the scenario as the plain data a scenario file holds (the dict
``yaml.safe_load`` gives), so it goes through :func:`bot.scenario.parse_scenario` like any upload.
The map is drawn in the order MC-0 lists: climate zone, season (the start date), then the map itself:

1. a height field of smoothed value noise, with mountain ranges from ridged noise;
2. the sea below a threshold, reached from one edge of the map (or no sea at all);
3. rivers traced downhill from high wet ground, never uphill, to the sea, a lake or the map's edge
   (a river may join another); a river that ends in a hollow fills it as a lake;
4. terrain by elevation and moisture for the climate (forest, jungle, desert, swamp in low wet ground);
5. one capital per side, spread around the map, its territory the squares nearest it by march cost;
   more strongholds on good land, spaced out;
6. roads by least-cost paths between the strongholds, with a bridge wherever a road crosses a river;
7. each side's Forces next to its capital, on land, each under a leader of its nation;
8. a place name for every stronghold, from its nation's towns: the capital a ``town``, the others a
   ``fortress`` (``map.places``).

Everything comes from one ``random.Random(seed)``: the same parameters give the same scenario.
Pure: the standard library and the engine's model only, no I/O, no global state.
"""

from __future__ import annotations

import datetime as dt
import heapq
import math
import random
import re
from collections.abc import Iterable, Iterator, Sequence
from dataclasses import dataclass, field
from typing import Any

from bot.engine.errors import InvalidInput
from bot.engine.grid import COMPASS
from bot.engine.model import Climate, PlaceKind, Season, Square, Terrain
from bot.engine.tables import RuleBook, default_rulebook
from bot.scenario import DEFAULT_LEGEND, LIMITS

MIN_SIDE = 10
"""The smallest map generated, squares across or down: room for two capitals and their Forces."""
MAX_SIDE = LIMITS.map_side
MIN_SQUARES_PER_SIDE = 30
"""Squares of map per side, at least: a side needs a territory to stand on."""
MIN_SIDES = 2
MAX_SIDES = LIMITS.sides
DEFAULT_SIZE = (36, 26)

Pos = tuple[int, int]
"""A square as (column, row), both from 0."""

_CHAR = {Terrain(t): ch for ch, t in DEFAULT_LEGEND.items()}
_STEPS = tuple(COMPASS.values())
_DIRECTION = {step: name for name, step in COMPASS.items()}
_WATER = frozenset({Terrain.SEA, Terrain.LAKE})


@dataclass(frozen=True)
class Nation:
    """A side a generated scenario may hold: its key, name, colour, nation, leaders and towns."""

    key: str
    name: str
    colour: str
    adjective: str
    leaders: tuple[str, ...]
    towns: tuple[str, ...] = ()
    """Invented but plausible town names of the nation, for its strongholds (at least :data:`MOST_STRONGHOLDS`)."""


MOST_STRONGHOLDS = 5
"""Strongholds of one side at most: its capital and up to four more (:func:`_place_strongholds`)."""

NATIONS: tuple[Nation, ...] = (
    Nation("fr", "France", "#1f4e9c", "French", ("Davout", "Lannes", "Soult", "Ney", "Masséna", "Murat"),
           ("Villeneuve", "Beaumont", "Rochefort", "Montclair", "Saint-Aubin", "Châteaubourg", "Valmont",
            "Belleville")),
    Nation("au", "Austria", "#d9a400", "Austrian", ("Archduke Charles", "Kienmayer", "Hiller", "Bellegarde",
                                                    "Schwarzenberg", "Wurmser"),
           ("Neustadt", "Waldkirchen", "Hohenau", "Steinbach", "Marienthal", "Feldkirch", "Rosenau", "Bergheim")),
    Nation("ru", "Russia", "#2e7d32", "Russian", ("Kutuzov", "Bagration", "Barclay", "Bennigsen", "Miloradovich",
                                                  "Dokhturov"),
           ("Krasnoye", "Belaya Gora", "Dubrovka", "Sosnovka", "Pokrovskoye", "Troitsk", "Ivanovka", "Novoselki")),
    Nation("pr", "Prussia", "#37474f", "Prussian", ("Blücher", "Hohenlohe", "Yorck", "Bülow", "Kleist",
                                                    "Tauentzien"),
           ("Königsfeld", "Lindenau", "Friedrichsdorf", "Wusterhausen", "Eichwalde", "Grünheide", "Sandow",
            "Brandau")),
    Nation("gb", "Britain", "#c62828", "British", ("Wellington", "Moore", "Hill", "Picton", "Graham", "Craufurd"),
           ("Kingsbridge", "Ashford", "Westbury", "Fairhaven", "Thornbury", "Hartley", "Longford", "Northam")),
    Nation("es", "Spain", "#8e24aa", "Spanish", ("Castaños", "Cuesta", "Blake", "Palafox", "La Romana",
                                                 "Ballesteros"),
           ("Villanueva", "Torrealta", "San Esteban", "Valdemora", "Castilblanco", "Puebla Nueva", "Almedina",
            "Fuentelsaz")),
    Nation("ba", "Bavaria", "#4fc3f7", "Bavarian", ("Wrede", "Deroy", "Siebein", "Raglovich", "Minucci", "Vincenti"),
           ("Oberau", "Wasserburg", "Rottach", "Pfaffenhofen", "Mühldorf", "Kirchberg", "Aichach", "Haslach")),
    Nation("se", "Sweden", "#00897b", "Swedish", ("Stedingk", "Adlercreutz", "Cronstedt", "Döbeln", "Klingspor",
                                                  "Sandels"),
           ("Norrby", "Lindholm", "Ekeby", "Stenhamra", "Björkvik", "Sundsvik", "Hammarby", "Östervik")),
)
"""Side keys in the order sides are given: a scenario of ``n`` sides has the first ``n``."""

SIDE_KEYS = tuple(n.key for n in NATIONS)


@dataclass(frozen=True)
class Params:
    """What a generated scenario is drawn from (MC-0: climate zone, season, the map)."""

    climate: Climate = Climate.TEMPERATE
    season: Season = Season.SPRING
    width: int = DEFAULT_SIZE[0]
    height: int = DEFAULT_SIZE[1]
    sides: int = 2
    alliances: tuple[tuple[str, ...], ...] = ()
    """RU-19: groups of side keys (of :data:`SIDE_KEYS`' first ``sides``) that fight together."""
    seed: int = 0

    def __post_init__(self) -> None:
        check_params(self)

    @property
    def side_keys(self) -> tuple[str, ...]:
        return SIDE_KEYS[: self.sides]

    def label(self) -> str:
        """A short line naming every parameter: ``generated: temperate, spring, 36x26, 2 sides, seed 42``."""
        allied = "".join(f", {'+'.join(a)}" for a in self.alliances)
        return (f"generated: {self.climate.value}, {self.season.value}, {self.width}x{self.height}, "
                f"{self.sides} sides{allied}, seed {self.seed}")


# --- parameters -------------------------------------------------------------------------------------


def parse_climate(text: str) -> Climate:
    """A climate zone (MC-0) by name, any case."""
    try:
        return Climate(text.strip().lower())
    except ValueError:
        raise InvalidInput("Unknown climate {value!r}: climates are {allowed}.", value=text,
                           allowed=", ".join(c.value for c in Climate)) from None


def parse_season(text: str) -> Season:
    """A season (MC-0) by name, any case."""
    try:
        return Season(text.strip().lower())
    except ValueError:
        raise InvalidInput("Unknown season {value!r}: seasons are {allowed}.", value=text,
                           allowed=", ".join(s.value for s in Season)) from None


def parse_size(text: str) -> tuple[int, int]:
    """``36x26`` -> (36, 26): squares across, then down."""
    match = re.fullmatch(r"\s*([0-9]{1,4})\s*[xX×]\s*([0-9]{1,4})\s*", text)  # ASCII digits only (issue 24, item 7: full-width ones read as numbers)
    if match is None:
        raise InvalidInput("A map size is its width x height in squares, like 36x26, got {value!r}.", value=text[:40])
    return int(match[1]), int(match[2])


def parse_alliance(text: str) -> tuple[str, ...]:
    """``fr,au`` -> ("fr", "au"): one alliance (RU-19), its side keys separated by commas."""
    return tuple(part.strip().lower() for part in text.split(",") if part.strip())


def check_params(p: Params) -> None:
    """Refuse what cannot make a playable scenario, naming the parameter and what is allowed."""
    check_size(p.width, p.height, p.sides)
    check_sides(p.sides)
    check_seed(p.seed)
    check_alliances(p.alliances, p.sides)


def check_size(width: int, height: int, sides: int) -> None:
    """The map: within the format's limits (docs/scenario-format.md), with room for every side."""
    if not (MIN_SIDE <= width <= MAX_SIDE and MIN_SIDE <= height <= MAX_SIDE):
        raise InvalidInput("A generated map is {low} to {high} squares across and down, got {width}x{height}.",
                           low=MIN_SIDE, high=MAX_SIDE, width=width, height=height)
    if width * height < MIN_SQUARES_PER_SIDE * sides:
        raise InvalidInput("A {width}x{height} map is too small for {n} sides: at least {per} squares per side.",
                           width=width, height=height, n=sides, per=MIN_SQUARES_PER_SIDE)


def check_sides(sides: int) -> None:
    if not MIN_SIDES <= sides <= MAX_SIDES:
        raise InvalidInput("A generated scenario has {low} to {high} sides, got {n}.", low=MIN_SIDES, high=MAX_SIDES,
                           n=sides)


def check_seed(seed: int) -> None:
    if seed < 0:
        raise InvalidInput("A seed is a whole number from 0, got {seed}.", seed=seed)


def check_alliances(alliances: Sequence[Sequence[str]], sides: int) -> None:
    """RU-19, for the first ``sides`` of :data:`SIDE_KEYS`."""
    _check_alliances(alliances, SIDE_KEYS[:max(0, sides)])


def _check_alliances(alliances: Sequence[Sequence[str]], keys: Sequence[str]) -> None:
    """RU-19: each alliance two or more of the scenario's sides, a side in one alliance at most, two camps left."""
    seen: set[str] = set()
    for alliance in alliances:
        shown = ",".join(alliance)
        for side in alliance:
            if side not in keys:
                raise InvalidInput("Alliance {alliance!r}: unknown side {side!r}; the sides are {sides}.",
                                   alliance=shown, side=side, sides=", ".join(keys))
            if side in seen:
                raise InvalidInput("Side {side!r} is in two alliances: a side belongs to at most one (RU-19).",
                                   side=side)
        if len(set(alliance)) < 2 or len(set(alliance)) != len(alliance):
            raise InvalidInput("Alliance {alliance!r}: an alliance groups two or more different sides (RU-19).",
                               alliance=shown)
        seen |= set(alliance)
    if len(keys) - len(seen) + len(alliances) < 2:
        raise InvalidInput("These alliances put every side in one camp: a campaign needs at least two camps (RU-19).")


# --- the world --------------------------------------------------------------------------------------


@dataclass
class World:
    """The map as drawn, before it is written as a scenario: what the tests check the scenario against."""

    width: int
    height: int
    elevation: list[float]
    """Height of each square (index ``row * width + col``), 0 to about 1.4."""
    terrain: list[Terrain]
    relief: list[float] = field(default_factory=list)
    """The land's own relief, before the tilt towards the coast: where the hills and mountains stand."""
    rivers: list[list[Pos]] = field(default_factory=list)
    """Each river from source to mouth: its squares, each lower than the one before (or as low, joining)."""
    flow: dict[Pos, Pos] = field(default_factory=dict)
    """Each river square's downstream step (a compass step): to the next square, water or off the map."""
    roads: list[list[Pos]] = field(default_factory=list)
    """Each road from one stronghold to another: adjacent land squares."""
    territory: dict[Pos, str] = field(default_factory=dict)
    strongholds: dict[Pos, str] = field(default_factory=dict)
    capitals: dict[str, Pos] = field(default_factory=dict)
    forces: list[tuple[str, Pos]] = field(default_factory=list)
    """(side, square) of each Force, in the order of the scenario's ``forces``."""
    towns: dict[Pos, float] = field(default_factory=dict)
    """How good each land square is for a town (:func:`_town_value`), once the terrain is drawn."""

    def __post_init__(self) -> None:
        w, h = self.width, self.height
        self._adjacent: dict[Pos, tuple[Pos, ...]] = {
            (c, r): tuple((c + dc, r + dr) for dc, dr in _STEPS if 0 <= c + dc < w and 0 <= r + dr < h)
            for r in range(h) for c in range(w)
        }

    def index(self, p: Pos) -> int:
        return p[1] * self.width + p[0]

    def height_at(self, p: Pos) -> float:
        return self.elevation[p[1] * self.width + p[0]]

    def terrain_at(self, p: Pos) -> Terrain:
        return self.terrain[p[1] * self.width + p[0]]

    def on_map(self, p: Pos) -> bool:
        return 0 <= p[0] < self.width and 0 <= p[1] < self.height

    def is_land(self, p: Pos) -> bool:
        return self.on_map(p) and self.terrain[p[1] * self.width + p[0]] not in _WATER

    def neighbours(self, p: Pos) -> tuple[Pos, ...]:
        """The squares next to ``p`` on the map, eight directions (RU-11)."""
        return self._adjacent[p]

    def squares(self) -> Iterator[Pos]:
        for r in range(self.height):
            for c in range(self.width):
                yield c, r

    def on_edge(self, p: Pos) -> bool:
        return p[0] in (0, self.width - 1) or p[1] in (0, self.height - 1)


@dataclass(frozen=True)
class ClimateStyle:
    """How a climate zone (MC-0) dresses the land: wetness, rivers, and lowland terrain by moisture."""

    wetness: float
    """Added to every square's moisture rank (-0.3 dry to +0.2 wet)."""
    rivers: float
    """Rivers per 150 squares of land."""
    swamp: float
    """Moisture rank above which low ground (the lowest 15% of the land) is swamp; 1 or more: never."""
    lowland: tuple[tuple[float, Terrain], ...]
    """(moisture at least, terrain), wettest first; the last entry's threshold is 0."""
    sea_chance: float


CLIMATES: dict[Climate, ClimateStyle] = {
    Climate.TEMPERATE: ClimateStyle(0.0, 1.0, 0.72, ((0.66, Terrain.FOREST), (0.36, Terrain.CULTIVATED),
                                                      (0.0, Terrain.OPEN)), 0.6),
    Climate.MEDITERRANEAN: ClimateStyle(-0.1, 0.6, 0.85, ((0.75, Terrain.FOREST), (0.42, Terrain.CULTIVATED),
                                                           (0.2, Terrain.OPEN), (0.0, Terrain.WASTELAND)), 0.85),
    Climate.CONTINENTAL: ClimateStyle(0.05, 0.9, 0.7, ((0.55, Terrain.FOREST), (0.4, Terrain.CULTIVATED),
                                                        (0.0, Terrain.OPEN)), 0.35),
    Climate.ARID: ClimateStyle(-0.3, 0.35, 1.1, ((0.75, Terrain.OPEN), (0.45, Terrain.WASTELAND),
                                                 (0.0, Terrain.DESERT)), 0.4),
    Climate.TROPICAL: ClimateStyle(0.15, 1.2, 0.6, ((0.5, Terrain.JUNGLE), (0.3, Terrain.CULTIVATED),
                                                    (0.0, Terrain.OPEN)), 0.7),
}

MARCH_COST: dict[Terrain, float] = {
    Terrain.OPEN: 1.0, Terrain.CULTIVATED: 1.0, Terrain.DESERT: 1.6, Terrain.WASTELAND: 1.5, Terrain.FOREST: 2.0,
    Terrain.HILL: 2.5, Terrain.JUNGLE: 3.0, Terrain.SWAMP: 4.0, Terrain.MOUNTAIN: 7.0,
}
"""What a square costs a road or a march: the rougher (MC-5.1), the dearer; water cannot be crossed."""
ROAD_REUSE = 0.3
"""A square already on a road costs this: new roads join old ones rather than run beside them."""
RIVER_CROSSING = 3.0
"""Extra cost of a new river square on a road: a bridge to build, so roads cross rivers seldom."""

TOWN_VALUE: dict[Terrain, float] = {
    Terrain.CULTIVATED: 3.0, Terrain.OPEN: 2.5, Terrain.HILL: 1.5, Terrain.FOREST: 1.0, Terrain.DESERT: 0.6,
    Terrain.WASTELAND: 0.6, Terrain.JUNGLE: 0.6,
}
"""How good a square is for a town or stronghold; swamp and mountain are not."""


def generate_world(p: Params) -> World:
    """Draw the map (MC-0) for ``p``: terrain, rivers, territories, strongholds, roads and Forces' squares."""
    rng = random.Random(p.seed)
    style = CLIMATES[p.climate]
    elevation = _elevation(rng, p.width, p.height)
    world = World(p.width, p.height, elevation, [Terrain.OPEN] * (p.width * p.height), list(elevation))
    _add_sea(world, rng, style)
    _add_rivers(world, rng, style)
    _dress_land(world, rng, style)
    world.towns = {q: _town_value(world, q) for q in world.squares() if world.is_land(q)}
    _place_capitals(world, rng, p)
    _split_territories(world)
    _place_strongholds(world, rng, p)
    _build_roads(world)
    _place_forces(world, p)
    return world


def _elevation(rng: random.Random, w: int, h: int) -> list[float]:
    """Rolling land (fractal value noise) plus mountain ranges (ridged noise, only where a mask allows)."""
    base = max(6.0, min(16.0, max(w, h) / 3))
    rolling = _fbm(rng, w, h, base, octaves=4)
    ridges = [(1 - abs(2 * v - 1)) ** 2 for v in _fbm(rng, w, h, base * 0.9, octaves=2)]
    mask = [_smoothstep(0.45, 0.7, v) for v in _fbm(rng, w, h, base * 1.5, octaves=1)]
    return [0.55 * a + 0.5 * b * m for a, b, m in zip(rolling, ridges, mask, strict=True)]


def _fbm(rng: random.Random, w: int, h: int, spacing: float, *, octaves: int) -> list[float]:
    """Fractal value noise in 0..1: octaves of smoothly interpolated random knots, each half as coarse."""
    total = [0.0] * (w * h)
    weight = 0.0
    for octave in range(octaves):
        amplitude = 0.5 ** octave
        for i, v in enumerate(_value_noise(rng, w, h, max(1.5, spacing / 2 ** octave))):
            total[i] += amplitude * v
        weight += amplitude
    return [v / weight for v in total]


def _value_noise(rng: random.Random, w: int, h: int, spacing: float) -> list[float]:
    kw, kh = int(w / spacing) + 2, int(h / spacing) + 2
    knots = [rng.random() for _ in range(kw * kh)]
    out: list[float] = []
    for r in range(h):
        y = r / spacing
        y0 = int(y)
        fy = _fade(y - y0)
        for c in range(w):
            x = c / spacing
            x0 = int(x)
            fx = _fade(x - x0)
            k = y0 * kw + x0
            top = knots[k] + (knots[k + 1] - knots[k]) * fx
            bottom = knots[k + kw] + (knots[k + kw + 1] - knots[k + kw]) * fx
            out.append(top + (bottom - top) * fy)
    return out


def _fade(t: float) -> float:
    return t * t * (3 - 2 * t)


def _smoothstep(low: float, high: float, v: float) -> float:
    return _fade(min(1.0, max(0.0, (v - low) / (high - low))))


def _add_sea(world: World, rng: random.Random, style: ClimateStyle) -> None:
    """Tilt the land down towards one edge (or, without a coast, gently towards a random one, so that rivers
    find a way out), then flood from that edge whatever lies below the sea level: a coast (MC-0)."""
    w, h = world.width, world.height
    edge = rng.choice("NESW")
    coast = rng.random() < style.sea_chance
    tilt = 0.45 if coast else 0.15
    for p in world.squares():
        across = {"N": p[1] / max(1, h - 1), "S": 1 - p[1] / max(1, h - 1),
                  "W": p[0] / max(1, w - 1), "E": 1 - p[0] / max(1, w - 1)}[edge]
        world.elevation[world.index(p)] += tilt * across
    if not coast:
        return
    level = sorted(world.elevation)[int(len(world.elevation) * rng.uniform(0.1, 0.22))]
    shore = [p for p in world.squares() if {"N": p[1] == 0, "S": p[1] == h - 1, "W": p[0] == 0,
                                            "E": p[0] == w - 1}[edge]]
    seen = set(shore)
    todo = [p for p in shore if world.height_at(p) < level]
    while todo:
        p = todo.pop()
        world.terrain[world.index(p)] = Terrain.SEA
        for q in world.neighbours(p):
            if q not in seen and world.height_at(q) < level:
                seen.add(q)
                todo.append(q)


def _ranks(values: Sequence[float]) -> list[float]:
    """Each value's rank among them, 0 (lowest) to 1 (highest): terrain by share of the land, whatever the noise."""
    order = sorted(range(len(values)), key=lambda i: (values[i], i))
    ranks = [0.0] * len(values)
    for n, i in enumerate(order):
        ranks[i] = n / max(1, len(values) - 1)
    return ranks


def _add_rivers(world: World, rng: random.Random, style: ClimateStyle) -> None:
    """Rivers from high ground down to the sea, a lake or the map's edge (MC-0): each step to the lowest
    neighbour, strictly lower, so no river ever runs uphill; one that reaches a hollow fills it as a lake."""
    land = [p for p in world.squares() if world.is_land(p)]
    if not land:
        return
    height_rank = dict(zip(land, _ranks([world.height_at(p) for p in land]), strict=True))
    sources = [p for p in land if height_rank[p] > 0.6 and not world.on_edge(p)]
    rng.shuffle(sources)
    wanted = max(1, round(style.rivers * len(land) / 150))
    for source in sources:
        if len(world.rivers) >= wanted:
            break
        if any(_distance(source, q) < 4 for q in world.flow):
            continue
        _trace_river(world, source)


def _trace_river(world: World, source: Pos) -> None:
    path = [source]
    while True:
        here = path[-1]
        step = _river_step(world, here, set(path))
        if step is None:  # a hollow inland: the river fills it as a lake and ends on the square before
            if len(path) < 4:
                return
            path.pop()
            world.terrain[world.index(here)] = Terrain.LAKE
            _commit_river(world, path, here)
            return
        kind, there = step
        if kind == "next":
            path.append(there)
            continue
        if len(path) >= 3:
            _commit_river(world, path, there)
        return


def _river_step(world: World, here: Pos, own: set[Pos]) -> tuple[str, Pos] | None:
    """Where a river goes from ``here``: ``("end", square)`` into water, a river or off the map, ``("next",
    square)`` down to a lower land square; None in a hollow (no lower square, not on the map's edge)."""
    h = world.height_at(here)
    neighbours = list(world.neighbours(here))
    joins = [q for q in neighbours if q in world.flow and q not in own and world.height_at(q) <= h]
    if joins:  # merge into a river beside it, never uphill
        return "end", min(joins, key=lambda q: (world.height_at(q), q))
    water = [q for q in neighbours if world.terrain_at(q).is_water]
    if water:
        return "end", min(water, key=lambda q: (world.height_at(q), q))
    lower = [q for q in neighbours if world.height_at(q) < h and q not in own]
    if lower:
        return "next", min(lower, key=lambda q: (world.height_at(q), q))
    if world.on_edge(here):
        return "end", _off_map(world, here)
    return None


def _off_map(world: World, p: Pos) -> Pos:
    """The square beyond the map's edge next to ``p`` (where a river leaves the map)."""
    c, r = p
    if c == 0:
        return -1, r
    if c == world.width - 1:
        return world.width, r
    if r == 0:
        return c, -1
    return c, world.height


def _commit_river(world: World, path: list[Pos], mouth: Pos) -> None:
    for here, there in zip(path, [*path[1:], mouth], strict=True):
        world.flow[here] = (there[0] - here[0], there[1] - here[1])
    world.rivers.append(list(path))


def _distance(a: Pos, b: Pos) -> int:
    """Squares between two squares, diagonal steps counted as one (8-adjacency, RU-11)."""
    return max(abs(a[0] - b[0]), abs(a[1] - b[1]))


def _dress_land(world: World, rng: random.Random, style: ClimateStyle) -> None:
    """Terrain by elevation and moisture (MC-0): the highest relief mountain, then hills (so ranges stand
    where the ridges are, whatever the tilt to the coast); below, swamp in the lowest wet ground, and
    the climate's terrain by moisture, wetter by rivers and water."""
    land = [p for p in world.squares() if world.is_land(p)]
    if not land:
        return
    wet = _fbm(rng, world.width, world.height, max(4.0, max(world.width, world.height) / 6), octaves=3)
    near_water = {p for p in land if p in world.flow or any(world.terrain_at(q).is_water for q in world.neighbours(p))}
    moisture = _ranks([wet[world.index(p)] for p in land])
    relief = _ranks([world.relief[world.index(p)] for p in land])
    lowness = _ranks([world.height_at(p) for p in land])
    for p, m, high, low in zip(land, moisture, relief, lowness, strict=True):
        world.terrain[world.index(p)] = _terrain(style, high, low, m, p in near_water)


def _terrain(style: ClimateStyle, relief: float, elevation: float, moisture: float, by_water: bool) -> Terrain:
    """One land square's terrain from its ranks among the land (0 lowest to 1 highest)."""
    if relief > 0.92:
        return Terrain.MOUNTAIN
    if relief > 0.78:
        return Terrain.HILL
    if elevation < 0.15 and moisture > style.swamp:
        return Terrain.SWAMP
    if by_water and style.lowland[-1][1] is Terrain.DESERT:
        return Terrain.CULTIVATED  # an oasis: the only farmland of a dry land is by its water
    wetness = moisture + style.wetness + (0.15 if by_water else 0.0)
    return next((t for low, t in style.lowland if wetness >= low), style.lowland[-1][1])


def _town_value(world: World, p: Pos) -> float:
    """How good a square is for a town: its terrain, and more by a river or the coast."""
    value = TOWN_VALUE.get(world.terrain_at(p), 0.0)
    if value and p in world.flow:
        value += 1.0
    if value and any(world.terrain_at(q) is Terrain.SEA for q in world.neighbours(p)):
        value += 0.5
    return value


def _place_capitals(world: World, rng: random.Random, p: Params) -> None:
    """One capital per side (MC-0), round the map at even angles: allies next to one another (RU-19)."""
    order = _side_order(p)
    angle = rng.uniform(0, 2 * math.pi)
    cx, cy = (world.width - 1) / 2, (world.height - 1) / 2
    land = [q for q in world.squares() if world.is_land(q)]
    for i, side in enumerate(order):
        a = angle + 2 * math.pi * i / len(order)
        anchor = (cx + 0.32 * world.width * math.cos(a), cy + 0.32 * world.height * math.sin(a))
        taken = set(world.capitals.values())
        spacing = 3 if min(world.width, world.height) >= 12 else 2
        free = [q for q in land if q not in taken and all(_distance(q, t) >= spacing for t in taken)]
        free = free or [q for q in land if q not in taken]

        def score(q: Pos, anchor: tuple[float, float] = anchor) -> tuple[float, Pos]:
            far = math.hypot(q[0] - anchor[0], q[1] - anchor[1])
            return world.towns[q] + rng.random() * 0.5 - 0.6 * far, q

        capital = max(free, key=score)
        world.capitals[side] = capital
        world.strongholds[capital] = side


def _side_order(p: Params) -> list[str]:
    """The sides round the map: each alliance's sides together (RU-19), then the others."""
    allied = [s for a in p.alliances for s in a]
    return allied + [s for s in p.side_keys if s not in allied]


def _split_territories(world: World) -> None:
    """Every land square to the side whose capital is the cheapest march away (a Voronoi split by march
    cost: ranges and swamps make the borders)."""
    best: dict[Pos, float] = {}
    heap: list[tuple[float, int, Pos, str]] = []
    for n, (side, capital) in enumerate(world.capitals.items()):
        heapq.heappush(heap, (0.0, n, capital, side))
    count = len(heap)
    while heap:
        cost, _, here, side = heapq.heappop(heap)
        if here in world.territory:
            continue
        world.territory[here] = side
        for q in world.neighbours(here):
            if world.is_land(q) and q not in world.territory:
                c = cost + MARCH_COST[world.terrain_at(q)]
                if c < best.get(q, math.inf):
                    best[q] = c
                    count += 1
                    heapq.heappush(heap, (c, count, q, side))


def _place_strongholds(world: World, rng: random.Random, p: Params) -> None:
    """More strongholds (MC-0) in each side's territory, on good land, spaced out."""
    land = sum(1 for q in world.squares() if world.is_land(q))
    extra = max(0, min(MOST_STRONGHOLDS - 1, land // (p.sides * 160)))
    for side in p.side_keys:
        own = [q for q, s in world.territory.items() if s == side and world.towns[q] >= 1.0]
        spacing = max(3, int(math.sqrt(len(own) / (extra + 1)) * 0.8)) if own else 3
        for _ in range(extra):
            free = [q for q in own if all(_distance(q, t) >= spacing for t in world.strongholds)]
            if not free:
                break
            town = max(free, key=lambda q: (world.towns[q] + rng.random(), q))
            world.strongholds[town] = side


def _build_roads(world: World) -> None:
    """Roads between the strongholds (MC-0): a tree joining them all by the shortest links, and a few
    more links for loops, each laid along the least-cost path across the land."""
    towns = sorted(world.strongholds, key=lambda q: (q[1], q[0]))
    links = _spanning_links(towns)
    others = sorted(((_distance(a, b), a, b) for i, a in enumerate(towns) for b in towns[i + 1:]
                     if (a, b) not in links), key=lambda x: (x[0], x[1], x[2]))
    links += [(a, b) for _, a, b in others[: len(towns) // 3]]
    on_road: set[Pos] = set()
    for a, b in links:
        path = _least_cost_path(world, a, b, on_road)
        if path is not None:
            world.roads.append(path)
            on_road |= set(path)


def _spanning_links(towns: list[Pos]) -> list[tuple[Pos, Pos]]:
    """Prim's minimum spanning tree over the towns, by distance on the map."""
    if not towns:
        return []
    joined, links = [towns[0]], []
    rest = towns[1:]
    while rest:
        a, b = min(((a, b) for a in joined for b in rest), key=lambda ab: (_distance(*ab), ab))
        links.append((a, b))
        joined.append(b)
        rest.remove(b)
    return links


def _least_cost_path(world: World, start: Pos, goal: Pos, on_road: set[Pos]) -> list[Pos] | None:
    """A* over the land, eight directions: each square's march cost (cheaper on a road, dearer on a river)."""
    def cost(q: Pos) -> float:
        if q in on_road:
            return ROAD_REUSE
        return MARCH_COST[world.terrain_at(q)] + (RIVER_CROSSING if q in world.flow else 0.0)

    came: dict[Pos, Pos] = {}
    best = {start: 0.0}
    heap = [(ROAD_REUSE * _distance(start, goal), 0, start)]
    count = 0
    while heap:
        _, _, here = heapq.heappop(heap)
        if here == goal:
            path = [here]
            while path[-1] != start:
                path.append(came[path[-1]])
            return path[::-1]
        for q in world.neighbours(here):
            if not world.is_land(q):
                continue
            c = best[here] + cost(q) + (0.01 if q[0] != here[0] and q[1] != here[1] else 0.0)  # straighter roads
            if c < best.get(q, math.inf):
                best[q] = c
                came[q] = here
                count += 1
                heapq.heappush(heap, (c + ROAD_REUSE * _distance(q, goal), count, q))
    return None


def _place_forces(world: World, p: Params) -> None:
    """Each side's Forces on land next to its capital, in its own territory where there is room (MC-0):
    never two Forces on one square, so no two enemies start together (RU-19)."""
    per_side = 3 if p.width * p.height // p.sides >= 400 else 2
    used: set[Pos] = set()
    for side in p.side_keys:
        near = sorted((q for q in world.squares() if world.is_land(q) and q not in used),
                      key=lambda q: (world.territory.get(q) != side, _distance(q, world.capitals[side]), q))
        for q in near[:per_side]:
            used.add(q)
            world.forces.append((side, q))


# --- the scenario -----------------------------------------------------------------------------------


def generate_scenario(p: Params, *, rules: RuleBook | None = None) -> dict[str, Any]:
    """The scenario for ``p`` as plain data (what ``yaml.safe_load`` gives for a scenario file)."""
    world = generate_world(p)
    return scenario_data(world, p, rules=rules)


def scenario_data(world: World, p: Params, *, rules: RuleBook | None = None) -> dict[str, Any]:
    rng = random.Random(f"forces:{p.seed}")  # its own stream: the Forces never change the map
    data: dict[str, Any] = {
        "name": f"Generated {p.climate.value} campaign, seed {p.seed}",
        "description": _description(p),
        "climate": p.climate.value,
        "start_date": _start_date(p, rng, rules).isoformat(),
        "map": _map_data(world, p),
        "sides": [{"key": n.key, "name": n.name, "colour": n.colour, "nation": n.adjective}
                  for n in NATIONS[: p.sides]],
    }
    if p.alliances:
        data["alliances"] = [list(a) for a in p.alliances]
    data["forces"] = _forces(world, p, rng)
    data["supply"] = {k: 3 for k in p.side_keys}
    return data


def _description(p: Params) -> str:
    allied = "; ".join(", ".join(a) for a in p.alliances) or "none"
    return (f"Generated by Aide-de-Camp (MC-0) from climate {p.climate.value}, season {p.season.value}, "
            f"map {p.width}x{p.height}, {p.sides} sides ({', '.join(p.side_keys)}), alliances: {allied}, "
            f"seed {p.seed}. The same parameters draw the same scenario again.")


def _start_date(p: Params, rng: random.Random, rules: RuleBook | None) -> dt.date:
    """The first day of the season's first month (the calendar's, RU-10) in a year of the wars."""
    months = (rules or default_rulebook()).calendar.season_of_month
    month = next(m for m in (3, 6, 9, 12, 1, 2, 4, 5, 7, 8, 10, 11) if months[m] is p.season)
    return dt.date(rng.randint(1792, 1814), month, 1)


def _name(p: Pos) -> str:
    return str(Square(p[0], p[1]))


def _map_data(world: World, p: Params) -> dict[str, Any]:
    rows = ["".join(_CHAR[world.terrain_at((c, r))] for c in range(world.width)) for r in range(world.height)]
    roads = sorted({q for road in world.roads for q in road}, key=lambda q: (q[1], q[0]))
    return {
        "width": p.width,
        "height": p.height,
        "rows": rows,
        "rivers": [entry for river in world.rivers for entry in _river_entries(world, river)],
        "roads": [_name(q) for q in roads],
        "bridges": [_name(q) for q in roads if q in world.flow],
        "territories": {side: _runs(q for q, s in world.territory.items() if s == side) for side in p.side_keys},
        "strongholds": {side: [_name(q) for q in sorted(world.strongholds, key=lambda q: (q[1], q[0]))
                               if world.strongholds[q] == side] for side in p.side_keys},
        "capitals": {side: _name(world.capitals[side]) for side in p.side_keys},
        "places": _places(world, p),
    }


def _places(world: World, p: Params) -> dict[str, Any]:
    """A name for each stronghold (``map.places``), from its nation's towns in an order drawn from the
    seed (its own stream: names never change the map): the capital a town, the others fortresses."""
    rng = random.Random(f"places:{p.seed}")
    out: dict[str, Any] = {}
    for side in p.side_keys:
        towns = list(NATIONS[SIDE_KEYS.index(side)].towns)
        rng.shuffle(towns)
        capital = world.capitals[side]
        others = sorted((q for q, s in world.strongholds.items() if s == side and q != capital),
                        key=lambda q: (q[1], q[0]))
        for n, q in enumerate([capital, *others]):
            name = towns[n % len(towns)] + ("" if n < len(towns) else f" {ROMAN[n // len(towns)]}")
            out[_name(q)] = name if q == capital else {"name": name, "kind": PlaceKind.FORTRESS.value}
    return dict(sorted(out.items(), key=lambda item: (Square.parse(item[0]).row, Square.parse(item[0]).col)))


def _river_entries(world: World, river: list[Pos]) -> list[dict[str, Any]]:
    """One ``{squares, flow}`` entry per straight stretch, source first."""
    entries: list[dict[str, Any]] = []
    for q in river:
        flow = _DIRECTION[world.flow[q]]
        if entries and entries[-1]["flow"] == flow:
            entries[-1]["squares"].append(_name(q))
        else:
            entries.append({"squares": [_name(q)], "flow": flow})
    return entries


def _runs(squares: Iterable[Pos]) -> list[str]:
    """Squares as row strips (``A3:F3``): a territory in a few ranges rather than one name per square."""
    out: list[str] = []
    ordered = sorted(squares, key=lambda q: (q[1], q[0]))
    i = 0
    while i < len(ordered):
        j = i
        while j + 1 < len(ordered) and ordered[j + 1] == (ordered[j][0] + 1, ordered[j][1]):
            j += 1
        a, b = ordered[i], ordered[j]
        out.append(_name(a) if a == b else f"{_name(a)}:{_name(b)}")
        i = j + 1
    return out


ROMAN = ("I", "II", "III", "IV", "V", "VI")


def _forces(world: World, p: Params, rng: random.Random) -> list[dict[str, Any]]:
    """A Force per placed square: a corps of infantry, cavalry and guns under a leader of its nation."""
    out: list[dict[str, Any]] = []
    count: dict[str, int] = {}
    for side, square in world.forces:
        nation = NATIONS[SIDE_KEYS.index(side)]
        n = count[side] = count.get(side, 0) + 1
        key = f"{side}-{n}"
        out.append({
            "key": key,
            "name": f"{nation.adjective} {ROMAN[n - 1]} Corps",
            "side": side,
            "square": _name(square),
            "scouts": rng.randint(0, 1),
            "leader": {"name": nation.leaders[n - 1], "cv": rng.randint(0, 3)},
            "units": _units(key, rng),
        })
    return out


def _units(force: str, rng: random.Random) -> list[dict[str, Any]]:
    quality = ("raw", "average", "average", "veteran", "elite")
    units: list[dict[str, Any]] = [
        {"key": f"{force}-div{i}", "name": f"{('1st', '2nd', '3rd')[i - 1]} Division", "sp": rng.randint(6, 12),
         "type": "infantry", "quality": rng.choice(quality)}
        for i in range(1, rng.randint(1, 3) + 1)
    ]
    units.append({"key": f"{force}-cav", "name": "Light Cavalry", "sp": rng.randint(3, 6), "type": "cavalry",
                  "quality": rng.choice(quality), "flag": False})
    if rng.random() < 0.7:
        units.append({"key": f"{force}-art", "name": "Corps Artillery", "sp": rng.randint(2, 4), "type": "artillery",
                      "quality": "average", "flag": False})
    return units
