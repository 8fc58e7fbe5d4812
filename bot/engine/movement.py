"""MC-5 Phase 2: movement rolls on land (MC-5.1) and water (MC-5.3), initiative (RU-4) and
resolution of the declared moves (RU-11, RU-13)."""

from __future__ import annotations

import itertools
from collections import defaultdict
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any, Literal

from .camps import NO_CAMPS, Camps
from .dice import DiceSource
from .errors import InvalidInput, RuleViolation
from .grid import CampaignMap
from .model import Cell, Feature, Force, Order, Reaction, Square, Terrain, Territory, territory_for
from .rolls import Band, BandTable, Check, Modifier, Roll
from .tables import RuleBook, default_rulebook
from .text import Msg

WEATHER_RULE = "MC-10"


def _require_may_move(force: Force) -> None:
    if force.order is Order.DEFEND:
        raise RuleViolation(
            "{name} holds the Defend order and does not move (MC-1, MC-5.1): change its order with a Force test in Phase 1 first.", name=force.name
        )


def _territory_mods(proc_mods: Mapping[str, Modifier], territory: Territory) -> list[Modifier]:
    if territory is Territory.ENEMY:
        return [proc_mods["enemy_territory"]]
    if territory is Territory.FRIENDLY:
        return [proc_mods["friendly_territory"]]
    return []


def _force_mods(proc_mods: Mapping[str, Modifier], force: Force) -> list[Modifier]:
    mods = []
    if force.reaction in (Reaction.UNSTEADY, Reaction.ROUTED):
        mods.append(proc_mods["unsteady_or_routed"])
    if force.order is Order.FORCED_MARCH:
        mods.append(proc_mods["forced_march"])
    return mods


def weather_modifier(value: int, label: str) -> list[Modifier]:
    return [Modifier(value, WEATHER_RULE, Msg("weather: {label}", label=label))] if value else []


def movement_check(
    force: Force,
    cell: Cell,
    *,
    extension: bool = True,
    weather: int = 0,
    weather_label: str = "weather",
    extra: Sequence[Modifier] = (),
    allies: frozenset[str] = frozenset(),
    rules: RuleBook | None = None,
) -> Check:
    """MC-5.1: 1D6 + the modifiers of the square where the movement starts; ``extra`` carries
    modifiers from outside MC-5.1 with their own rule IDs (a random event, RU-10)."""
    _require_may_move(force)
    mc = (rules or default_rulebook()).mc
    proc = mc.movement
    m = proc.modifiers
    mods: list[Modifier] = []
    terrain_mod = {Terrain.MOUNTAIN: "mountain", Terrain.FOREST: "forest", Terrain.SWAMP: "swamp"}.get(cell.terrain)
    if terrain_mod:
        mods.append(m[terrain_mod])
    if cell.has(Feature.RIVER):
        mods.append(m["river"])
    mods += _territory_mods(m, territory_for(cell, force.side, allies))
    mods += _force_mods(m, force)
    if extension:
        ext = mc.movement_extension
        if cell.terrain in (Terrain.DESERT, Terrain.WASTELAND):
            mods.append(ext["desert_or_wasteland"])
        elif cell.terrain is Terrain.CULTIVATED:
            mods.append(ext["cultivated"])
        elif cell.terrain is Terrain.HILL:
            mods.append(ext["hill"])
        if cell.has(Feature.ROAD) or cell.has(Feature.CARAVAN_TRACK):
            mods.append(ext["road"])
        mods += weather_modifier(weather, weather_label)
    mods += extra
    return Check(proc.rule, proc.name, tuple(mods), proc.bands, subject=force.name)


@dataclass(frozen=True)
class DeclaredMove:
    """A move rolled when declared (RU-13): it stays private until the phase resolves."""

    force_id: str
    side: str
    start: Square
    path: tuple[Square, ...]
    allowance: int
    roll: Roll
    by_water: bool = False

    @property
    def reach(self) -> tuple[Square, ...]:
        """The squares the roll lets the Force enter, before any contact stops it."""
        return self.path[: self.allowance]


def max_squares(rules: RuleBook | None = None, *, by_water: bool = False) -> int:
    mc = (rules or default_rulebook()).mc
    proc = mc.water_movement if by_water else mc.movement
    return max(b.value or 0 for b in proc.bands.bands)


def check_land_path(cmap: CampaignMap, start: Square, path: Sequence[Square], rules: RuleBook | None = None) -> None:
    """MC-5.1's path: at most its longest move, on land. A Force afloat (on a sea or lake square after a
    move by water) does not march ashore: it lands by a move by water, which MC-5.3 makes one square
    shorter."""
    longest = max_squares(rules)
    if len(path) > longest:
        raise InvalidInput(
            "The path names {n_path} squares: a land move covers at most {longest} (MC-5.1). Name the squares you want to reach, in order.", n_path=len(path), longest=longest
        )
    if cmap.cell(start).terrain.is_water:
        raise RuleViolation(
            "{sq} is {value}: a Force afloat comes ashore by a move by water, the move in which it lands being one "
            "square shorter (MC-5.3).", sq=start, value=Msg(cmap.cell(start).terrain.label)  # i18n: passes a template on
        )
    for sq in path:
        if cmap.cell(sq).terrain.is_water:
            raise RuleViolation(
                "{sq} is {value}: a Force cannot march into water; move by water (MC-5.3).", sq=sq, value=Msg(cmap.cell(sq).terrain.label)  # i18n: passes a template on
            )


def declare_land_move(
    force: Force,
    cmap: CampaignMap,
    path: Sequence[Square] | str,
    dice: DiceSource,
    key: str,
    *,
    extension: bool = True,
    weather: int = 0,
    weather_label: str = "weather",
    extra: Sequence[Modifier] = (),
    allies: frozenset[str] = frozenset(),
    rules: RuleBook | None = None,
) -> DeclaredMove:
    """Check the path, roll MC-5.1 from the starting square and record the allowance."""
    _require_may_move(force)
    steps = cmap.parse_path(force.square, path) if isinstance(path, str) else cmap.check_path(force.square, path)
    check_land_path(cmap, force.square, steps, rules)
    check = movement_check(
        force, cmap.cell(force.square), extension=extension, weather=weather,
        weather_label=weather_label, extra=extra, allies=allies, rules=rules,
    )
    roll = check.roll(dice, key)
    return DeclaredMove(force.id, force.side, force.square, steps, roll.value or 0, roll)


# --- MC-5.3 water movement ------------------------------------------------------------------


Wind = Literal["favourable", "contrary", "calm", "none"]


@dataclass(frozen=True)
class WaterRoute:
    """The conditions of a move by water that the modifiers of MC-5.3 look at."""

    body: Literal["sea", "river"]
    wind: Wind = "none"
    reefs: bool = False
    small_boats: bool = False
    horse_barges: bool = False
    rapids: bool = False
    upstream: bool = False
    downstream: bool = False
    bridge: bool = False
    embarking: bool = False
    landing: bool = False

    def __post_init__(self) -> None:
        if self.body not in ("sea", "river"):
            raise InvalidInput("Water movement is by 'sea' (or lake) or 'river', not {body!r}.", body=self.body)
        if self.upstream and self.downstream:
            raise InvalidInput("A river move cannot be both upstream and downstream.")


def river_route(
    cmap: CampaignMap,
    start: Square,
    path: Sequence[Square],
    *,
    horse_barges: bool = False,
    embarking: bool = False,
    landing: bool = False,
) -> WaterRoute:
    """Derive a river move's conditions from the map: flow, rapids on the route, bridges near the start."""
    if not path:
        raise InvalidInput("A river move needs at least one square.")
    squares = (start, *path)
    # RU-16: judged square by square along the path, by the flow of the square each step leaves; a
    # path that goes both ways takes the worse modifier (upstream).
    upstream = downstream = False
    for here, there in itertools.pairwise(squares):
        flow = cmap.cell(here).river_flow
        if flow:
            step = cmap.direction(here, there)
            downstream = downstream or step == flow
            upstream = upstream or step == _opposite(flow)
    return WaterRoute(
        "river",
        rapids=any(cmap.cell(s).has(Feature.RAPIDS) for s in squares),
        upstream=upstream,
        downstream=downstream and not upstream,
        bridge=any(cmap.cell(s).has(Feature.BRIDGE) for s in squares[:4]),
        horse_barges=horse_barges,
        embarking=embarking,
        landing=landing,
    )


def sea_route(
    cmap: CampaignMap,
    start: Square,
    path: Sequence[Square],
    *,
    wind: Wind = "none",
    small_boats: bool = False,
    horse_barges: bool = False,
    embarking: bool = False,
    landing: bool = False,
) -> WaterRoute:
    squares = (start, *path)
    return WaterRoute(
        "sea",
        wind=wind,
        reefs=any(cmap.cell(s).has(Feature.REEFS) for s in squares),
        small_boats=small_boats,
        horse_barges=horse_barges,
        embarking=embarking,
        landing=landing,
    )


def by_sea(cmap: CampaignMap, start: Square, path: Sequence[Square]) -> bool:
    """Whether a path declared by water is a move by sea or lake (MC-5.3): it starts afloat or enters a
    water square. Any other is a move by river."""
    return any(cmap.cell(sq).terrain.is_water for sq in (start, *path))


def check_water_path(cmap: CampaignMap, start: Square, path: Sequence[Square], rules: RuleBook | None = None) -> None:
    """MC-5.3's path: water is water.

    * By sea or lake (:func:`by_sea`): every square but the last is a water square. A Force on land
      embarks onto the water square beside it (its first square); one afloat sails on from where it
      is; the last square may be land, where the Force lands.
    * By river: the starting square and every square of the path carry a river, each step to the next
      river square (the map draws two river squares that touch as one river).

    A refusal names the first square that breaks the rule."""
    longest = max_squares(rules, by_water=True)
    if len(path) > longest:
        raise InvalidInput("The path names {n_steps} squares: a move by water covers at most {longest} (MC-5.3).",
                           n_steps=len(path), longest=longest)
    if by_sea(cmap, start, path):
        for sq in path[:-1]:
            terrain = cmap.cell(sq).terrain
            if not terrain.is_water:
                raise RuleViolation(
                    "{sq} is {value}: a move by sea or lake goes from water square to water square, and only its "
                    "last square may be land, where the Force lands (MC-5.3).", sq=sq, value=Msg(terrain.label)  # i18n: passes a template on
                )
        return
    for sq in (start, *path):
        if not cmap.cell(sq).has(Feature.RIVER):
            raise RuleViolation(
                "{sq} has no river: a move by river starts on a river square and follows the river square by "
                "square (MC-5.3). Move on land, or by sea or lake.", sq=sq
            )


def water_route(
    cmap: CampaignMap,
    start: Square,
    path: Sequence[Square],
    *,
    wind: Wind = "none",
    small_boats: bool = False,
    horse_barges: bool = False,
) -> WaterRoute:
    """The MC-5.3 route of a path declared by water: by sea or lake when it starts afloat or enters a
    water square (:func:`by_sea`), else by river. A Force on land embarks; it lands when its last square
    is land. Rivers run through land squares, so a river move both embarks and lands (RU-16). Whether
    the path is one the rule allows is :func:`check_water_path`'s question."""
    if not path:
        raise InvalidInput("A move by water needs at least one square.")
    embarking = not cmap.cell(start).terrain.is_water
    landing = not cmap.cell(path[-1]).terrain.is_water
    if by_sea(cmap, start, path):
        return sea_route(cmap, start, path, wind=wind, small_boats=small_boats, horse_barges=horse_barges,
                         embarking=embarking, landing=landing)
    return river_route(cmap, start, path, horse_barges=horse_barges, embarking=True, landing=True)


def _opposite(direction: str) -> str:
    flip = {"N": "S", "S": "N", "E": "W", "W": "E"}
    return "".join(flip[c] for c in direction)


def water_movement_check(
    force: Force,
    cell: Cell,
    route: WaterRoute,
    *,
    weather: int = 0,
    weather_label: str = "weather",
    extra: Sequence[Modifier] = (),
    allies: frozenset[str] = frozenset(),
    rules: RuleBook | None = None,
) -> Check:
    """MC-5.3: 1D6 + the sea or river modifiers + those common to both."""
    _require_may_move(force)
    proc = (rules or default_rulebook()).mc.water_movement
    m = proc.modifiers
    mods: list[Modifier] = weather_modifier(weather, weather_label)
    if route.body == "sea":
        wind_mod = {"contrary": "contrary_wind", "calm": "dead_calm", "favourable": "favourable_wind"}.get(route.wind)
        if wind_mod:
            mods.append(m[wind_mod])
        if route.reefs:
            mods.append(m["reefs"])
        if route.small_boats:
            mods.append(m["small_boats"])
    else:
        for flag in ("rapids", "upstream", "bridge", "downstream"):
            if getattr(route, flag):
                mods.append(m[flag])
    if route.horse_barges:
        mods.append(m["horse_barges"])
    mods += _territory_mods(m, territory_for(cell, force.side, allies))
    mods += _force_mods(m, force)
    mods += extra
    return Check(proc.rule, proc.name, tuple(mods), proc.bands, subject=force.name)


def water_allowance(roll: Roll, route: WaterRoute, rules: RuleBook | None = None) -> int:
    """Squares allowed by a water roll, one shorter for embarking and for landing when the total
    is 3 or more; a move that embarks and lands at once loses both squares, never going below one."""
    return _water_squares(roll.total, roll.value or 1, route, (rules or default_rulebook()).mc)


def _water_squares(total: int, squares: int, route: WaterRoute, mc: Any) -> int:
    if total >= mc.embark_min_total:
        squares -= mc.embark_reduction * (int(route.embarking) + int(route.landing))
    return max(1, squares)


def water_move_check(
    force: Force,
    cmap: CampaignMap,
    steps: Sequence[Square],
    route: WaterRoute,
    *,
    weather: int = 0,
    weather_label: str = "weather",
    extra: Sequence[Modifier] = (),
    allies: frozenset[str] = frozenset(),
    rules: RuleBook | None = None,
) -> Check:
    """MC-5.3's check for a path of at most four squares (what the odds and the roll both use)."""
    longest = max_squares(rules, by_water=True)
    if len(steps) > longest:
        raise InvalidInput("The path names {n_steps} squares: a move by water covers at most {longest} (MC-5.3).", n_steps=len(steps), longest=longest)
    return water_movement_check(force, cmap.cell(force.square), route, weather=weather, weather_label=weather_label,
                                extra=extra, allies=allies, rules=rules)


def declare_water_move(
    force: Force,
    cmap: CampaignMap,
    path: Sequence[Square],
    route: WaterRoute,
    dice: DiceSource,
    key: str,
    *,
    weather: int = 0,
    weather_label: str = "weather",
    extra: Sequence[Modifier] = (),
    allies: frozenset[str] = frozenset(),
    rules: RuleBook | None = None,
) -> DeclaredMove:
    """Check the path, roll MC-5.3 for its route and record the allowance (less embarking and landing)."""
    steps = cmap.check_path(force.square, path)
    check_water_path(cmap, force.square, steps, rules)
    check = water_move_check(force, cmap, steps, route, weather=weather, weather_label=weather_label, extra=extra,
                             allies=allies, rules=rules)
    roll = check.roll(dice, key)
    return DeclaredMove(force.id, force.side, force.square, steps, water_allowance(roll, route, rules), roll, True)


# --- RU-4 initiative -----------------------------------------------------------------------


@dataclass(frozen=True)
class InitiativeResult:
    order: tuple[str, ...]
    """Sides, first mover first."""
    rolls: tuple[Roll, ...]


def roll_initiative(
    highest_cv: Mapping[str, int], dice: DiceSource, key: str, *, max_rounds: int = 50
) -> InitiativeResult:
    """RU-4: each side rolls 1D6 + its highest CV; highest moves first; tied sides re-roll."""
    if not highest_cv:
        raise InvalidInput("Initiative needs at least one side.")
    table = BandTable((Band(None, None, "total", "initiative"),))
    rolls: list[Roll] = []

    def rank(sides: Sequence[str], rnd: int) -> list[str]:
        if len(sides) == 1:
            return list(sides)
        if rnd > max_rounds:
            raise RuleViolation("Initiative still tied after {max_rounds} rounds.", max_rounds=max_rounds)
        totals: dict[int, list[str]] = defaultdict(list)
        for side in sides:
            check = Check("RU-4", "Initiative", (Modifier(highest_cv[side], "RU-4", "highest Command Value"),), table, subject=side)
            roll = check.roll(dice, f"{key}/round{rnd}/side:{side}")
            rolls.append(roll)
            totals[roll.total].append(side)
        out: list[str] = []
        for total in sorted(totals, reverse=True):
            out += rank(sorted(totals[total]), rnd + 1)
        return out

    order = rank(sorted(highest_cv), 1)
    return InitiativeResult(tuple(order), tuple(rolls))


# --- RU-13 / RU-11 resolution ---------------------------------------------------------------


@dataclass(frozen=True)
class Contact:
    """Forces of hostile camps sharing a square after movement: one battle (MC-6, RU-20), however
    many camps meet there."""

    square: Square
    force_ids: tuple[str, ...]
    """Every Force in the battle (allies of the camps in it included), sorted."""
    sides: tuple[str, ...]
    """Every side with a Force in the battle, sorted."""
    camps: tuple[str, ...] = ()
    """The camps in the battle, sorted: two or more (RU-20); as many as ``sides`` without alliances.
    Empty when the Contact was built by hand without them."""


@dataclass(frozen=True)
class MovementOutcome:
    positions: Mapping[str, Square]
    travelled: Mapping[str, tuple[Square, ...]]
    """Squares each Force entered, in order."""
    stopped_by_contact: frozenset[str]
    battles: tuple[Contact, ...]
    collapsed: tuple[str, ...] = field(default=())
    """Routed Forces contacted by an enemy: removed without a battle (MC-2)."""


def _walk(move: DeclaredMove, blocked: set[Square]) -> tuple[tuple[Square, ...], bool]:
    entered: list[Square] = []
    for sq in move.reach:
        entered.append(sq)
        if sq in blocked:
            return tuple(entered), True
    return tuple(entered), False


def resolve_movement(
    forces: Iterable[Force],
    moves: Mapping[str, DeclaredMove],
    *,
    side_order: Sequence[str] | None = None,
    camps: Camps = NO_CAMPS,
) -> MovementOutcome:
    """Move every Force along its declared path.

    Simultaneous (RU-13, default, ``side_order=None``): a Force stops on the first square that held
    an enemy Force at the start of the phase, or at the end of its allowance. By initiative (RU-4):
    sides move in ``side_order`` and a Force stops on the first square holding an enemy Force at
    that moment (RU-11). Opposing Forces that end in one square meet (MC-6); a Routed Force among
    them collapses and is removed instead (MC-2).

    ``camps`` (RU-19, default every side its own camp): an enemy is a Force of another camp, so an
    ally's Force never stops a move and allied Forces share a square without a battle. Forces of two
    or more hostile camps in one square are **one** battle listing all of them, allies included
    (RU-20).
    """
    forces = list(forces)
    by_id = {f.id: f for f in forces}
    for fid in moves:
        if fid not in by_id:
            raise InvalidInput("A move was declared for an unknown Force {fid!r}.", fid=fid)
    positions = {f.id: f.square for f in forces}
    travelled: dict[str, tuple[Square, ...]] = {f.id: () for f in forces}
    stopped: set[str] = set()

    sides = sorted({f.side for f in forces})
    hostile = {side: [other for other in sides if camps.hostile(other, side)] for side in sides}

    def enemy_squares(side: str) -> set[Square]:
        """Where the enemies of ``side`` stand now: once per side, not per Force (issue 26 item 2), from
        each side's squares (RU-19: allies never stop a move)."""
        held: dict[str, set[Square]] = {}
        for f in forces:
            held.setdefault(f.side, set()).add(positions[f.id])
        return set().union(*(held.get(other, set()) for other in hostile.get(side, ())))

    if side_order is None:
        start = {side: enemy_squares(side) for side in sides}
        for fid, move in moves.items():
            travelled[fid], hit = _walk(move, start[by_id[fid].side])
            if hit:
                stopped.add(fid)
        for fid, path in travelled.items():
            if path:
                positions[fid] = path[-1]
    else:
        unknown = {f.side for f in forces} - set(side_order)
        if unknown:
            raise InvalidInput("The movement order leaves out side(s) {unknown}.", unknown=', '.join(sorted(unknown)))
        for side in side_order:
            enemies = enemy_squares(side)  # a side's own moves never change where its enemies stand
            for fid, move in moves.items():
                if by_id[fid].side != side:
                    continue
                travelled[fid], hit = _walk(move, enemies)
                if hit:
                    stopped.add(fid)
                if travelled[fid]:
                    positions[fid] = travelled[fid][-1]

    at: dict[Square, list[str]] = defaultdict(list)
    for fid, sq in positions.items():
        at[sq].append(fid)
    battles: list[Contact] = []
    collapsed: list[str] = []
    for sq in sorted(at):
        ids = at[sq]
        if len(camps.camps_of(by_id[i].side for i in ids)) < 2:
            continue  # one side, or allies only: no contact (RU-19)
        routed = [i for i in ids if by_id[i].reaction is Reaction.ROUTED]
        collapsed += sorted(routed)
        left = sorted(i for i in ids if i not in routed)
        sides = sorted({by_id[i].side for i in left})
        in_battle = camps.camps_of(sides)
        if len(in_battle) >= 2:  # RU-20: every hostile camp in the square fights one battle
            battles.append(Contact(sq, tuple(left), tuple(sides), in_battle))
    for fid in collapsed:
        del positions[fid]
    return MovementOutcome(positions, travelled, frozenset(stopped), tuple(battles), tuple(collapsed))
