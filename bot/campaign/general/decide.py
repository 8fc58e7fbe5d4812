"""The bot general's decisions (RU-26), pure: a side's view (:mod:`.view`) and the turn's dice in, the
decisions a member of the side would make in the current phase out. docs/general.md is the policy in
words; ``rules/general.yaml`` its table.

Nothing here reads the campaign's state: only the view, the rules and the dice. Each decision carries
the words of its reason; :mod:`.act` makes it through the same core functions a member's command calls.
"""

from __future__ import annotations

import heapq
from collections import deque
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass, field, replace
from fractions import Fraction
from functools import cache
from itertools import product
from typing import Any

from bot.engine.aftermath import retreat_options
from bot.engine.cc_tables import default_fc_tables
from bot.engine.dice import DiceSource, roll_key
from bot.engine.field_commander import PurchaseKind
from bot.engine.force_test import force_test_check
from bot.engine.grid import CampaignMap
from bot.engine.model import Cell, Feature, Force, Leader, Order, Outcome, Reaction, Square, UnitType
from bot.engine.movement import max_squares, movement_check
from bot.engine.phases import Phase
from bot.engine.quick import Result, default_quick_tables
from bot.engine.rolls import Check, Modifier, Roll
from bot.engine.tables import RuleBook
from bot.engine.text import Msg

from ..glory import outcomes
from ..state import BattleStatus, ForceState
from .policy import Stance, Temper, policy
from .view import SideView

# --- the decisions ---------------------------------------------------------------------------------


@dataclass(frozen=True)
class GroupStance:
    """A group's die on the orders table (Phase 1): the roll, logged for the side."""

    forces: tuple[str, ...]
    roll: Roll
    stance: Stance


@dataclass(frozen=True)
class GiveOrder:
    force: str
    order: Order
    reason: Msg
    reroll: frozenset[str] = frozenset()
    """The test's results on which it spends a scout to re-roll the die (FC-3, :func:`rerolls`)."""


@dataclass(frozen=True)
class Buy:
    force: str
    kind: PurchaseKind
    unit: str
    reason: Msg
    cost: int = 0
    reduced: bool = False


@dataclass(frozen=True)
class Move:
    force: str
    path: tuple[Square, ...]
    by_water: bool
    target: Square
    """Where it marches (the path may stop short of it)."""
    what: Msg
    """What the target is, in words: "an enemy stronghold", "its own capital"..."""
    verb: str = "marches"
    """``marches`` on, ``falls back`` on, ``sails`` for."""
    reroll: bool = False
    """A strike: when its movement roll leaves it short of the enemy square, it spends a scout to re-roll (FC-3)."""


@dataclass(frozen=True)
class Scout:
    battle: int


@dataclass(frozen=True)
class Claim:
    battle: int


@dataclass(frozen=True)
class RollAftermath:
    battle: int


@dataclass(frozen=True)
class Retreat:
    battle: int
    force: str
    square: Square
    reason: Msg


@dataclass(frozen=True)
class Fate:
    leader: str
    battle: int
    designation: UnitType
    reason: Msg


@dataclass(frozen=True)
class Trophy:
    battle: int
    unit: str
    target: str


@dataclass(frozen=True)
class Heroic:
    """A Glory spend (CC-4, RU-17): a unit of its won battle made Heroic with the Glory gained there."""

    battle: int
    unit: str
    reason: Msg


Decision = GroupStance | GiveOrder | Buy | Move | Scout | Claim | RollAftermath | Retreat | Fate | Trophy | Heroic


@dataclass(frozen=True)
class Decisions:
    items: tuple[Decision, ...] = ()
    done: bool = False
    """The side says it is done (Phases 1 and 2)."""


# --- groups and strength ---------------------------------------------------------------------------


def groups(view: SideView) -> list[tuple[ForceState, ...]]:
    """The side's Forces on the map in groups: Forces within ``group_within`` squares of one another
    (by a chain of such steps) form one group; groups in the order of their first Force's key."""
    within = policy().group_within
    forces = sorted(view.own, key=lambda f: f.key)
    where = {f.key: view.map.parse(f.square) for f in forces if f.square}
    seen: set[str] = set()
    out: list[tuple[ForceState, ...]] = []
    for f in forces:
        if f.key in seen:
            continue
        group, queue = [f], deque([f])
        seen.add(f.key)
        while queue:
            a = queue.popleft()
            for b in forces:
                if b.key not in seen and view.map.distance(where[a.key], where[b.key]) <= within:
                    seen.add(b.key)
                    group.append(b)
                    queue.append(b)
        out.append(tuple(sorted(group, key=lambda x: x.key)))
    return out


def enemy_near(view: SideView, squares: Iterable[Square], reach: int) -> int:
    """How many enemy Forces the side sees now within ``reach`` squares of ``squares``."""
    sqs = list(squares)
    return sum(1 for e in view.enemies if e.now and any(view.map.distance(e.square, s) <= reach for s in sqs))


def own_near(view: SideView, square: Square, reach: int) -> int:
    """The SP of the side's Forces within ``reach`` squares of ``square``."""
    return sum(f.sp for f in view.own if f.square and view.map.distance(view.map.parse(f.square), square) <= reach)


def percent(chance: Fraction | float) -> int:
    return round(chance * 100)


# --- Phase 1: the group's stance, Force tests, supply ----------------------------------------------


def stance_key(turn: int, side: str, group: Sequence[ForceState]) -> str:
    return roll_key(turn, Phase.ORDERS, f"general:{side}/group:{group[0].key}", "stance")


def roll_stance(view: SideView, group: Sequence[ForceState], dice: DiceSource) -> GroupStance:
    """The group's die against its personality's orders table (RU-26, rules/general.yaml)."""
    pol = policy()
    squares = [view.map.parse(f.square) for f in group if f.square]
    seen = enemy_near(view, squares, view.sight) * view.mean_sp
    own = sum(f.sp for f in group)
    mods: list[Modifier] = []
    if seen and own > seen:
        mods.append(pol.modifiers["stronger"])
    elif seen > own:
        mods.append(pol.modifiers["weaker"])
    if any(f.reaction is not None for f in group):
        mods.append(pol.modifiers["shaken"])
    bolder = pol.quiet(view.quiet)
    mods += [pol.modifiers[m] for m in ("quiet", "stalemate")[:bolder]]
    subject = Msg.join(", ", (f.name for f in group))
    check = pol.stance_check(view.personality, tuple(mods), subject)
    roll = check.roll(dice, stance_key(view.turn, view.side, group))
    return GroupStance(tuple(f.key for f in group), roll, Stance(roll.result))


def engine_force(view: SideView, f: ForceState) -> Force:
    ld = view.commanders.get(f.key)
    return Force(id=f.key, name=f.name, side=f.side, square=view.map.parse(f.square or "A1"),
                 leader=Leader(ld.name, ld.cv, ld.status) if ld else Leader("(no leader)", 0),
                 units=tuple(u.engine() for u in f.units), order=f.order, reaction=f.reaction, scouts=f.scouts)


def test_chances(view: SideView, f: ForceState, rules: RuleBook) -> dict[str, Fraction]:
    """The Force test's chance of each result where the Force stands (MC-4): ok, defend, confused, unsteady,
    disaster."""
    force = engine_force(view, f)
    check = force_test_check(force, view.map.cell(force.square), allies=view.camps.allies_of(view.side), rules=rules)
    out: dict[str, Fraction] = {}
    every = totals(check)
    for total in every:
        result = check.table.lookup(total).result
        out[result] = out.get(result, Fraction(0)) + Fraction(1, len(every))
    return out


SHAKEN = ("confused", "unsteady", "disaster")

TEST_RESULTS = ("disaster", "unsteady", "confused", "defend", "ok")
"""MC-4's results, the worst first."""


def can_reroll(view: SideView, f: ForceState) -> bool:
    """Whether ``f`` may spend a scout to re-roll a die (FC-3, a setting)."""
    return view.settings.scout_rerolls and f.scouts >= default_fc_tables().scouts_per_reroll


def rerolls(view: SideView, f: ForceState, chances: Mapping[str, Fraction]) -> frozenset[str]:
    """The Force test's results on which it spends a scout to re-roll the die (FC-3): one that removes the Force
    or leaves it Unsteady (MC-4), when the re-roll (the same test) more likely does better than worse."""
    if not can_reroll(view, f):
        return frozenset()
    out = set()
    for result in ("disaster", "unsteady"):
        rank = TEST_RESULTS.index(result)
        better = sum((p for r, p in chances.items() if TEST_RESULTS.index(r) > rank), Fraction(0))
        worse = sum((p for r, p in chances.items() if TEST_RESULTS.index(r) < rank), Fraction(0))
        if better > worse:
            out.add(result)
    return frozenset(out)


MOVING = (Order.EXPLORE, Order.FORCED_MARCH)


def orders(view: SideView, dice: DiceSource, rules: RuleBook, declared: frozenset[str]) -> list[Decision]:
    """Phase 1: a die per group, then the Force tests its stance asks for when the new order is worth a test
    and its risk is one its personality accepts (a shaken Force rallies when that pays), then FC-2 refits
    while the points last.

    Every Force test risks the Force (MC-4: 1 or less removes it), so an order is changed only for what it
    brings: Defend only with an enemy within 2 squares; one marching order for the other only to move
    faster far from the enemy (Forced March, MC-5.1) or to strike fresh beside it (Explore: a forced march
    arrives strung out, RU-27); a Confused Force (which moves as well as any, MC-2) rallies only when the test
    is more likely to pass than not."""
    temper = policy().tempers[view.personality]
    quiet = policy().quiet(view.quiet)
    out: list[Decision] = []
    untested: list[ForceState] = []  # Forces that march on in Explore, no Force test taken: FC-2 may speed them
    for group in groups(view):
        gs = roll_stance(view, group, dice)
        out.append(gs)
        stance = {Stance.HOLD: Order.DEFEND, Stance.ADVANCE: Order.EXPLORE, Stance.ATTACK: temper.attack_order}[gs.stance]
        for f in group:
            if f.key in declared:
                continue
            here = view.map.parse(f.square or "")
            want = wanted_order(view, f, here, stance, temper.attack_order, quiet, rules)
            if f.reaction is None and want is f.order:
                continue  # no Force test to take
            chances = test_chances(view, f, rules)
            ok, disaster = chances.get("ok", Fraction(0)), chances.get("disaster", Fraction(0))
            stuck = want is not Order.DEFEND and arrive_chance(view, f, rules) <= 1 / 3  # 0 in Defend
            if f.reaction is not None:
                # a Force left to hold or unable to move must rally to be of use; a Confused one that moves
                # rallies only when the test more likely passes than not (MC-2: it moves as well as any), or,
                # stuck where it stands, for the Forced March order it lacks (a rally brings its move nothing else)
                faster = want is Order.FORCED_MARCH and f.order is not Order.FORCED_MARCH
                useful = f.order is Order.DEFEND or f.reaction is not Reaction.CONFUSED or (stuck and faster)
                risk = temper.rally_risk * (1 + quiet) if useful else temper.rally_risk
                if (disaster <= max(risk, stuck_risk(view, temper, quiet) if stuck else 0) and passable(ok, disaster)
                        and (useful or ok >= Fraction(1, 2))):
                    order = Order.DEFEND if (want is Order.DEFEND or (
                        f.reaction is not Reaction.CONFUSED and enemy_near(view, [here], 2))) else want
                    out.append(GiveOrder(f.key, order, Msg(
                        "{force} is {reaction}: it tests to rally and take the {order} order (RU-3); success {ok}%, "
                        "disaster {disaster}%.", force=f.name, reaction=f.reaction.label, order=order.label,
                        ok=percent(ok), disaster=percent(disaster)), rerolls(view, f, chances)))
                elif want is not Order.DEFEND and f.order is Order.EXPLORE:
                    untested.append(f)
                continue
            shaken = sum((chances.get(r, Fraction(0)) for r in SHAKEN), Fraction(0))
            # a Force that can hardly move where it stands risks more to take its marching order (MC-5.1)
            if stuck:
                limit_disaster = max(temper.disaster_risk, stuck_risk(view, temper, quiet))
                limit_shaken = max(temper.rally_risk * 4, 2 * limit_disaster)
            else:
                limit_disaster, limit_shaken = temper.disaster_risk, temper.shake_risk
            if disaster > limit_disaster or shaken > limit_shaken or not passable(ok, disaster):
                if want is Order.FORCED_MARCH and f.order is Order.EXPLORE:
                    untested.append(f)
                continue  # a Force test that would likely leave it shaken or remove it (MC-4) is not worth it
            out.append(GiveOrder(f.key, want, Msg(
                "{force} tests for the {order} order: its group's die reads {stance}; success {ok}%.", force=f.name,
                order=want.label, stance=gs.roll.label, ok=percent(ok)), rerolls(view, f, chances)))
    if view.settings.supply:
        bought = refits(view)
        bought += reinforce(view, view.supply - sum(b.cost for b in bought), untested)
        out += bought
    return out


def wanted_order(view: SideView, f: ForceState, here: Square, stance: Order, marching: Order, quiet: int,
                 rules: RuleBook) -> Order:
    """The order ``f`` should hold this turn, given its group's stance: an order change must bring something
    (see :func:`orders`)."""
    near = enemy_near(view, [here], 2)
    if stance is Order.DEFEND:
        if near and not quiet:
            return Order.DEFEND
        return f.order if f.order in MOVING else marching  # nothing to hold against, or a stalemate to break
    if f.order not in MOVING or f.reaction is not None:
        return stance if near else marching
    if f.order is Order.EXPLORE and marching is Order.FORCED_MARCH and (
            stance is Order.FORCED_MARCH or not near or arrive_chance(view, f, rules) <= 1 / 3):
        return Order.FORCED_MARCH  # to move faster (MC-5.1)
    if (f.order is Order.FORCED_MARCH and stance is Order.EXPLORE and enemy_near(view, [here], 1)
            and arrive_chance(view, replace(f, order=Order.EXPLORE), rules) >= 2 / 3):
        return Order.EXPLORE  # beside the enemy, sure to reach it: to strike fresh (RU-27)
    return f.order


def passable(ok: Fraction, disaster: Fraction) -> bool:
    """Whether a Force test is worth taking at all: never one more likely to remove the Force than to pass, nor
    one passed less than 1 time in 6 (MC-4)."""
    return ok >= max(disaster, Fraction(1, 6))


def stuck_risk(view: SideView, temper: Temper, quiet: int) -> Fraction:
    """The chance of disaster a Force that cannot move where it stands accepts to take a marching order: more
    the longer the stalemate, and a third when a disaster cannot break its own side (MC-9: the test that
    follows it cannot fall below zero) after a stalemate, since a Force that never moves serves nothing."""
    if quiet and view.tally >= 0:
        return Fraction(1, 3)
    return temper.rally_risk * quiet


def refits(view: SideView) -> list[Buy]:
    """FC-2 (RU-24): refit the most reduced units first, one refit a unit, while the points last."""
    cost = default_fc_tables().refit_cost
    done = {p.unit for p in view.purchases if p.kind is PurchaseKind.REFIT}
    wanted = sorted(((u.original_sp - u.sp, f.key, u.key, f.name, u.name, u.sp, u.original_sp) for f in view.own
                     for u in f.units if 0 < u.sp < u.original_sp and u.key not in done), key=lambda t: (-t[0], t[1:3]))
    left, out = view.supply, []
    for _, fkey, ukey, fname, uname, sp, original in wanted:
        if left < cost:
            break
        left -= cost
        out.append(Buy(fkey, PurchaseKind.REFIT, ukey, Msg(
            "{force} refits {unit} ({sp} of {original} SP) with {cost} supply points (FC-2).", force=fname,
            unit=uname, sp=sp, original=original, cost=cost), cost))
    return out


def reinforce(view: SideView, left: int, untested: Sequence[ForceState] = ()) -> list[Buy]:
    """FC-2 (RU-24) with the points the refits left: recruits of its pool, then its destroyed units bought
    back (at full strength, or reduced for half), the strongest first, each joining its Force in its own
    territory with fewest SP; then a scout (FC-3) for its strongest Force that has none (it lasts until spent);
    then forced marches (:func:`forced_marches`) for ``untested``."""
    home = sorted((f for f in view.own if f.square and view.map.cell(view.map.parse(f.square)).territory == view.side
                   ), key=lambda f: (f.sp, f.key))
    out: list[Buy] = []
    done = {p.unit for p in view.purchases if p.kind is PurchaseKind.UNIT}
    if home:
        joins = home[0]
        wanted = [(r.cost, r.unit.original_sp, r.unit.key, r.unit.name, False) for r in view.recruits]
        for key, name, sp in view.lost:
            wanted.append((sp, sp, key, name, False) if sp <= left or sp < 2 else ((sp + 1) // 2, sp, key, name, True))
        for cost, sp, key, name, reduced in sorted(wanted, key=lambda w: (-w[1], w[2])):
            if key in done or cost > left:
                continue
            left -= cost
            done.add(key)
            out.append(Buy(joins.key, PurchaseKind.UNIT, key, Msg(
                "{force} takes in {unit} ({sp} SP) for {cost} supply points (FC-2, RU-24).", force=joins.name,
                unit=name, sp=(sp + 1) // 2 if reduced else sp, cost=cost), cost, reduced))
    scout = default_fc_tables().scout_cost
    bare = sorted((f for f in view.own if f.square and not f.scouts), key=lambda f: (-f.sp, f.key))
    if bare and left >= scout and not any(p.kind is PurchaseKind.SCOUT for p in view.purchases):
        left -= scout
        out.append(Buy(bare[0].key, PurchaseKind.SCOUT, "", Msg(
            "{force} takes a scout for {cost} supply points (FC-2, FC-3).", force=bare[0].name, cost=scout), scout))
    return out + forced_marches(view, untested, left)


def forced_marches(view: SideView, untested: Sequence[ForceState], left: int) -> list[Buy]:
    """FC-2: a forced march bought for a Force that marches on in Explore because the Force test for the Forced
    March order is not worth its risk (or a shaken Force that does not rally): the order's +2 to this turn's
    movement roll (MC-5.1) with no test, at a point a unit; the strongest Forces first, while the points
    last."""
    each = default_fc_tables().forced_march_cost
    done = {p.force for p in view.purchases if p.kind is PurchaseKind.FORCED_MARCH}
    out: list[Buy] = []
    for f in sorted(untested, key=lambda f: (-f.sp, f.key)):
        cost = each * sum(1 for u in f.units if u.sp > 0)
        if f.key in done or not cost or cost > left:
            continue
        left -= cost
        out.append(Buy(f.key, PurchaseKind.FORCED_MARCH, "", Msg(
            "{force} force-marches with supply for {cost} points, its Force test for the Forced March order "
            "too risky (FC-2: +2 to its movement roll this turn, MC-5.1).", force=f.name, cost=cost), cost))
    return out


# --- Phase 2: moves --------------------------------------------------------------------------------

INF = 1 << 30


class Field:
    """The cost of marching from every square to the nearest target (:func:`field_to`), and which target that
    is, on flat arrays (fast on a 100x100 map)."""

    __slots__ = ("dist", "origin", "width")

    def __init__(self, width: int, dist: list[int], origin: list[int]) -> None:
        self.width, self.dist, self.origin = width, dist, origin

    def get(self, sq: Square, default: int = INF) -> int:
        d = self.dist[sq.row * self.width + sq.col]
        return default if d == INF else d

    def __contains__(self, sq: object) -> bool:
        return isinstance(sq, Square) and self.dist[sq.row * self.width + sq.col] != INF

    def __getitem__(self, sq: Square) -> int:
        return self.dist[sq.row * self.width + sq.col]

    def target(self, sq: Square) -> Square | None:
        """The target the march from ``sq`` leads to."""
        i = self.origin[sq.row * self.width + sq.col]
        return None if i < 0 else Square(i % self.width, i // self.width)


STEP = 60
"""A step off a square where a marching Force moves one square a turn on average costs this much
(:func:`going_costs`)."""


def going_costs(view: SideView, rules: RuleBook | None) -> list[int]:
    """What a step off each square costs a marching Force: :data:`STEP` over the squares its movement roll
    gives there on average (MC-5.1, the square's own modifiers, in Forced March and without a reaction, the
    weather aside), so that it marches by roads, open ground and its own territory rather than over hills,
    through forests and across rivers, as a member would."""
    cmap = view.map
    allies = view.camps.allies_of(view.side)
    walker = Force(id="", name="", side=view.side, square=Square(0, 0), leader=Leader("", 0), units=(),
                   order=Order.FORCED_MARCH)
    known: dict[tuple[Any, ...], int] = {}

    def cost(cell: Cell) -> int:
        key = (cell.terrain, cell.features, cell.territory)
        if key not in known:
            check = movement_check(walker, cell, extension=view.settings.movement_extension, allies=allies,
                                   rules=rules)
            every = totals(check)
            squares = sum(check.table.lookup(t).value or 0 for t in every)
            known[key] = min(STEP * len(every) // squares, 20 * STEP) if squares else 20 * STEP
        return known[key]

    w = cmap.width
    costs = [cost(Cell())] * (w * cmap.height)  # squares not listed are open ground
    for sq, cell in cmap.cells.items():
        costs[sq.row * w + sq.col] = cost(cell)
    return costs


def field_to(cmap: CampaignMap, targets: Iterable[Square], blocked: frozenset[Square],
             costs: Sequence[int] | None = None) -> Field:
    """The cost of marching by land from every square to the nearest of ``targets`` (outwards from them,
    Dijkstra's search): each step costs its square's ``costs`` (one each when none are given); water and
    ``blocked`` squares are not crossed."""
    w, h = cmap.width, cmap.height
    closed = bytearray(w * h)
    for sq, cell in cmap.cells.items():
        if cell.terrain.is_water:
            closed[sq.row * w + sq.col] = 1
    for sq in blocked:
        closed[sq.row * w + sq.col] = 1
    steps = [(dc, dr) for dc in (-1, 0, 1) for dr in (-1, 0, 1) if (dc or dr) and (cmap.adjacency == 8 or not (dc and dr))]
    dist = [INF] * (w * h)
    origin = [-1] * (w * h)
    heap: list[tuple[int, int]] = []
    for t in targets:
        i = t.row * w + t.col
        if dist[i] == INF and not cmap.cell(t).terrain.is_water:
            dist[i] = 0
            origin[i] = i
            heap.append((0, i))
    heapq.heapify(heap)
    while heap:
        d0, i = heapq.heappop(heap)
        if d0 > dist[i]:
            continue
        col, row = i % w, i // w
        for dc, dr in steps:
            c, r = col + dc, row + dr
            if 0 <= c < w and 0 <= r < h:
                j = r * w + c
                if closed[j]:
                    continue
                d = d0 + (costs[j] if costs is not None else 1)
                if d < dist[j]:
                    dist[j] = d
                    origin[j] = origin[i]
                    heapq.heappush(heap, (d, j))
    return Field(w, dist, origin)


def descend(cmap: CampaignMap, start: Square, dist: Field, steps: int) -> tuple[Square, ...]:
    """Up to ``steps`` squares down the field from ``start``, each one nearer its target in marching cost (the
    cheapest next); among equals, a road first (MC-5.1)."""
    path: list[Square] = []
    here = start
    for _ in range(steps):
        d = dist.get(here, INF)
        if d == 0:
            break
        options = [n for n in cmap.neighbours(here) if dist.get(n, INF) < d]
        if not options:
            break
        here = min(options, key=lambda n: (dist.get(n), not cmap.cell(n).has(Feature.ROAD), n.row, n.col))
        path.append(here)
    return tuple(path)


def sail(cmap: CampaignMap, start: Square, dist: Field, steps: int) -> tuple[Square, ...]:
    """A move by sea or lake (MC-5.3) towards the field: from water square to water square, landing on
    its last square, at most ``steps`` squares; the landing nearest the field's targets. Empty: none helps."""
    afloat = cmap.cell(start).terrain.is_water
    prev: dict[Square, Square | None] = {}
    queue: deque[tuple[Square, int]] = deque()
    if afloat:
        prev[start] = None
        queue.append((start, 0))
    else:
        for n in cmap.neighbours(start):
            if cmap.cell(n).terrain.is_water:
                prev[n] = None
                queue.append((n, 1))
    best: tuple[int, int, Square, Square] | None = None  # (distance left, squares, landing, from)
    here_d = dist.get(start, INF)
    while queue:
        sq, used = queue.popleft()
        if used < steps:
            for n in cmap.neighbours(sq):
                if cmap.cell(n).terrain.is_water:
                    if n not in prev:
                        prev[n] = sq
                        queue.append((n, used + 1))
                elif (d := dist.get(n, INF)) < here_d and (best is None or (d, used + 1) < best[:2]):
                    best = (d, used + 1, n, sq)
    if best is None:
        return ()
    route: list[Square] = [best[2]]
    at: Square | None = best[3]
    while at is not None and at != start:
        route.append(at)
        at = prev[at]
    return tuple(reversed(route))


def totals(check: Check) -> list[int]:
    """``check``'s total for every face of its dice, each once."""
    return [check.total_for(faces) for faces in product(range(1, check.sides + 1), repeat=check.dice)]


def chance(check: Check, wins: Callable[[int], bool]) -> Fraction:
    """The chance that ``check``'s total satisfies ``wins`` (every face of its dice enumerated)."""
    every = totals(check)
    return Fraction(sum(1 for t in every if wins(t)), len(every))


def arrive_chance(view: SideView, f: ForceState, rules: RuleBook | None, at: Square | None = None) -> float:
    """The chance that ``f``'s movement roll (MC-5.1) lets it enter one square from where it stands (or from
    ``at``), in the weather now and with its side's random event."""
    if f.order is Order.DEFEND or not f.square:
        return 0.0
    force = engine_force(view, f)
    square = at or force.square
    extra = (Modifier(view.event, "RU-10", "random event (house rule)"),) if view.event else ()
    check = movement_check(force, view.map.cell(square), extension=view.settings.movement_extension,
                           weather=view.weather, extra=extra, allies=view.camps.allies_of(view.side), rules=rules)
    return float(chance(check, lambda total: (check.table.lookup(total).value or 0) >= 1))


def _ladder(steps: Sequence[Any], ratio: Fraction) -> int:
    value = 0
    for step in steps:
        if ratio >= step.at:
            value = step.edge.value
    return value


@cache
def edge_chance(edge: int) -> Fraction:
    """The chance of winning RU-27's battle roll with a net ``edge`` (the same whichever camp rolls: 2D6 is
    symmetric)."""
    q = default_quick_tables()
    won = {Result.VICTORY.value, Result.DECISIVE_VICTORY.value}
    check = Check(q.rule, q.name, (Modifier(edge, q.rule, "edges"),), q.battle, dice=q.dice)
    return chance(check, lambda total: q.battle.lookup(total).result in won)


def win_chance(view: SideView, forces: Sequence[ForceState], theirs: int, works: bool, unseen: bool = False) -> float:
    """The chance that ``forces`` win a battle against enemy Forces of ``theirs`` estimated SP, by RU-27's
    battle table: the numbers edge, the enemy's stronghold or works, its own main body's order and reaction;
    quality and generalship, which it cannot see in the enemy, taken as even, or as ``unseen_edge`` better than
    its own in enemy Forces its camp never fought (``unseen``) while its side is not quiet, and on an enemy
    stronghold (``works``) whether quiet or not. An FC-1 overwhelm is a win."""
    if not forces:
        return 0.0
    main = max(forces, key=lambda f: (f.sp, f.key))
    # on an enemy stronghold the caution stands even after quiet turns: a first battle there at even odds
    # was lost 9 times in 10 (danube1809: Davout on Regensburg)
    caution = -policy().unseen_edge if unseen and (works or not policy().quiet(view.quiet)) else 0
    return _win(sum(f.sp for f in forces), main.order, main.reaction, max(1, theirs), works, view.settings.overwhelm,
                caution)


@cache
def _win(ours: int, order: Order, reaction: Reaction | None, theirs: int, works: bool, overwhelm: bool,
         caution: int = 0) -> float:
    q = default_quick_tables()
    if ours <= 0:
        return 0.0
    if overwhelm and ours >= 3 * theirs:
        return 1.0
    edge = _ladder(q.numbers, Fraction(ours, theirs)) - _ladder(q.numbers, Fraction(theirs, ours))
    edge -= q.works.value if works else 0
    edge += caution
    if order in q.orders:
        edge += q.orders[order].value
    if reaction in q.reactions:
        edge += q.reactions[reaction].value
    return float(edge_chance(edge))


@dataclass(frozen=True)
class Strike:
    """Its Forces beside an enemy square that strike it this turn, and their chance of winning the battle if
    one is fought (whichever of them the movement rolls let arrive)."""

    square: Square
    forces: tuple[str, ...]
    ours: int
    theirs: int
    win: float


STRIKERS = 6
"""At most this many Forces strike one square (the largest beside it): the chances of every set of them
arriving are counted."""


def strike_chance(view: SideView, forces: Sequence[tuple[ForceState, float]], theirs: int, works: bool,
                  unseen: bool = False) -> float:
    """The chance that the battle is won if one is fought, when ``forces`` (each with its chance of arriving)
    strike a square: every set of them that may arrive counted, so that Forces arriving one by one are
    the defeats they would be."""
    won = fought = 0.0
    for arrived in product((False, True), repeat=len(forces)):
        p = 1.0
        for (_, chance_in), a in zip(forces, arrived, strict=True):
            p *= chance_in if a else 1 - chance_in
        if not p or not any(arrived):
            continue
        fought += p
        won += p * win_chance(view, [f for (f, _), a in zip(forces, arrived, strict=True) if a], theirs, works, unseen)
    return won / fought if fought else 0.0


def best_strike(view: SideView, candidates: Sequence[tuple[ForceState, float]], theirs: int, works: bool,
                unseen: bool = False) -> tuple[tuple[tuple[ForceState, float], ...], float]:
    """The Forces of ``candidates`` (the :data:`STRIKERS` largest) that strike with the best chance of winning:
    from all of them, the one whose staying back helps most stays back, while one does (a small Force
    whose movement roll may bring it in alone is better left out)."""
    chosen = tuple(sorted((c for c in candidates if c[1] > 0), key=lambda t: (-t[0].sp, t[0].key))[:STRIKERS])
    best = strike_chance(view, chosen, theirs, works, unseen) if chosen else 0.0
    while len(chosen) > 1:
        trial = max(((strike_chance(view, chosen[:i] + chosen[i + 1:], theirs, works, unseen), chosen[:i] + chosen[i + 1:])
                     for i in range(len(chosen))), key=lambda t: t[0])
        if trial[0] <= best:
            break
        best, chosen = trial
    return chosen, best


def muster_squares(view: SideView, sq: Square, costs: Sequence[int]) -> list[Square]:
    """The squares beside an enemy square where its Forces gather to strike it: those free on land whence a
    Force moves best (the least marching cost, :func:`going_costs`), so that the strike's movement rolls bring
    them in together."""
    free = [n for n in view.map.neighbours(sq) if not view.map.cell(n).terrain.is_water and n not in view.occupied]
    if not free:
        return []
    w = view.map.width
    best = min(costs[n.row * w + n.col] for n in free)
    return [n for n in free if costs[n.row * w + n.col] == best]


@dataclass
class Fields:
    """The side's plan for Phase 2, computed once a phase and only when asked for: which enemy squares its
    Forces strike and with whom, and the field of march of the others."""

    view: SideView
    rules: RuleBook | None = None
    cache: dict[str, Any] = field(default_factory=dict)

    def arrive(self, f: ForceState, at: Square | None = None) -> float:
        """:func:`arrive_chance`, once per Force and square."""
        key = (f.key, at)
        arrives = self.cache.setdefault("arrive", {})
        if key not in arrives:
            arrives[key] = arrive_chance(self.view, f, self.rules, at)
        return arrives[key]  # type: ignore[no-any-return]

    def costs(self) -> list[int]:
        """:func:`going_costs`, once a phase."""
        if "costs" not in self.cache:
            self.cache["costs"] = going_costs(self.view, self.rules)
        return self.cache["costs"]  # type: ignore[no-any-return]

    def need(self, sides: Iterable[str] = ()) -> Fraction:
        """The win chance it wants before it strikes enemy Forces of ``sides``: its personality's; while no
        enemy stronghold lies open to it, less, and less again after quiet turns and while a lost battle
        cannot break its own side (its Will-to-Fight tally, MC-9, is 0 or more); in a stalemate (two steps of
        quiet) less even while strongholds lie open, one ``quiet_win`` a step from the second; and less by as
        much again as the chance that a battle lost breaks the enemy side (their tally is public news)."""
        pol = policy()
        v = self.view
        need = pol.tempers[v.personality].win_chance
        if not self.open_strongholds():  # nothing else to take: only battles can break the enemy (MC-9)
            need -= pol.quiet_win * (1 + pol.quiet(v.quiet) + (v.tally >= 0))
        elif pol.quiet(v.quiet) >= 2:  # a stalemate (twice quiet_turns) is broken by battle, strongholds open or not
            need -= pol.quiet_win * (pol.quiet(v.quiet) - 1)
        breaks = max((v.break_chance(s) for s in sides), default=Fraction(0))
        return max(Fraction(1, 4), need - breaks * pol.quiet_win * 3)

    def open_strongholds(self) -> list[Square]:
        """The strongholds of enemy sides in play that its camp does not hold and where it sees no enemy Force."""
        v = self.view
        return [h.square for h in v.strongholds if v.hostile(h.holder) and h.square not in self.presumed()
                and (h.holder in v.standing or h.owner in v.standing)]

    def able(self) -> list[ForceState]:
        """Its Forces able to march on the enemy: on the map, not holding, neither unsteady nor routed."""
        return [f for f in sorted(self.view.own, key=lambda f: f.key) if f.square and f.order is not Order.DEFEND
                and f.reaction not in (Reaction.UNSTEADY, Reaction.ROUTED)]

    def presumed(self) -> set[Square]:
        """The squares where it sees enemy Forces now, and where it last saw others, out of its sight now (a
        square in sight with nobody on it is forgotten)."""
        if "presumed" not in self.cache:
            v = self.view
            own = [v.map.parse(f.square) for f in v.own if f.square]
            self.cache["presumed"] = set(v.occupied) | {
                e.square for e in v.enemies if not e.now and e.side in v.standing
                and not any(v.map.distance(e.square, o) <= v.sight for o in own)}
        return self.cache["presumed"]  # type: ignore[no-any-return]

    def enemy(self) -> list[tuple[Square, int, bool, bool]]:
        """Each square where it sees enemy Forces now or presumes them (:meth:`presumed`): their estimated SP
        (:meth:`SideView.strength`), whether they hold a stronghold there (worth field works, RU-21, RU-27), and whether one of them is a
        Force its camp never fought (unseen: its troops and commander unknown)."""
        if "enemy" not in self.cache:
            v = self.view
            holds = {h.square: h for h in v.strongholds}
            out = []
            for sq in sorted(self.presumed(), key=lambda sq: (sq.row, sq.col)):
                there = [e.key for e in v.enemies if e.square == sq and (e.now or sq not in v.occupied)]
                h = holds.get(sq)
                works = h is not None and v.hostile(h.holder)
                out.append((sq, sum(v.strength(k, works) for k in there), works, any(k not in v.known for k in there)))
            self.cache["enemy"] = out
        return self.cache["enemy"]  # type: ignore[no-any-return]

    def sides_at(self, sq: Square) -> set[str]:
        return {e.side for e in self.view.enemies if e.now and e.square == sq}

    def strikes(self, declared: frozenset[str] = frozenset()) -> dict[str, Strike]:
        """The enemy squares it strikes this turn, by Force: with its Forces beside the square that give the
        best chance of winning the battle if their movement rolls bring one about (:func:`best_strike`), when
        that chance is its personality's; the best odds first, each Force in one strike."""
        if "strikes" not in self.cache:
            v = self.view
            ready = [(f, self.arrive(f)) for f in self.able() if f.key not in declared]
            taken: dict[str, Strike] = {}
            while True:
                best: Strike | None = None
                for sq, theirs, works, unseen in self.enemy():
                    beside = [(f, p) for f, p in ready if f.key not in taken
                              and v.map.distance(v.map.parse(f.square or ""), sq) == 1]
                    if not beside:
                        continue
                    chosen, win = best_strike(v, beside, theirs, works, unseen)
                    if chosen and win >= self.need(self.sides_at(sq)) and (best is None or win > best.win):
                        best = Strike(sq, tuple(f.key for f, _ in chosen), sum(f.sp for f, _ in chosen), theirs, win)
                if best is None:
                    break
                taken.update({k: best for k in best.forces})
            self.cache["strikes"] = taken
        return self.cache["strikes"]  # type: ignore[no-any-return]

    def _targets(self) -> tuple[dict[Square, Msg], frozenset[Square], dict[str, tuple[tuple[Square, ...], Msg]]]:
        """Where its Forces that strike nothing this turn march, the squares they do not enter, and the musters
        some of them are committed to. An enemy square is entered only by a strike: the Forces within
        ``muster_within`` squares of one that would strike it at its odds from beside it gather there
        (concentration), each Force committed to one muster, the best odds first, so that the Forces counted
        for a strike are those that march to it; any other enemy square is avoided; a square where it last saw
        enemy Forces, out of its sight now, is taken as theirs still (hunting them is mustering there). The
        Forces not committed march on the strongholds of enemy sides still in play."""
        v = self.view
        cmap = v.map
        targets: dict[Square, Msg] = {}
        blocked: set[Square] = set()
        able = self.able()
        free = {f.key for f in able}
        pending: list[tuple[Square, int, bool, bool, list[Square], Fraction]] = []
        for sq, theirs, works, unseen in self.enemy():
            blocked.add(sq)
            musters = muster_squares(v, sq, self.costs())
            if musters and able:
                pending.append((sq, theirs, works, unseen, musters, self.need(self.sides_at(sq))))
        committed: dict[str, tuple[tuple[Square, ...], Msg]] = {}
        while pending:
            best: tuple[float, int, tuple[str, ...], int] | None = None  # (win, index, Forces, their SP)
            for i, (sq, theirs, works, unseen, musters, need) in enumerate(pending):
                near = [(f, self.arrive(f, musters[0])) for f in able
                        if f.key in free and cmap.distance(cmap.parse(f.square or ""), sq) <= policy().muster_within]
                chosen, win = best_strike(v, near, theirs, works, unseen) if near else ((), 0.0)
                if chosen and win >= need and (best is None or win > best[0]):
                    best = (win, i, tuple(f.key for f, _ in chosen), sum(f.sp for f, _ in chosen))
            if best is None:
                break
            sq, theirs, _, _, musters, _ = pending.pop(best[1])
            what = Msg("a muster beside an enemy Force (our {ours} SP against some {theirs})", ours=best[3],
                       theirs=theirs)
            committed.update({k: (tuple(musters), what) for k in best[2]})
            free -= set(best[2])
        for h in v.strongholds:
            if v.hostile(h.holder) and h.square not in blocked and (h.holder in v.standing or h.owner in v.standing):
                targets.setdefault(h.square, Msg("the enemy capital") if h.capital and v.hostile(h.owner) else
                                   Msg("an enemy stronghold"))
        if not targets and committed:  # nothing else to take: the others join the gatherings
            for musters, what in committed.values():
                targets.update(dict.fromkeys(musters, what))
        if not targets and pending:  # nothing within reach: the whole army gathers where it strikes best
            found: list[tuple[float, Square, int, int]] = []
            for sq, theirs, works, unseen, musters, need in pending:
                chosen, win = best_strike(v, [(f, self.arrive(f, musters[0])) for f in able], theirs, works, unseen)
                if win >= need:
                    found.append((win, sq, sum(f.sp for f, _ in chosen), theirs))
            if found:
                _, sq, ours, theirs = max(found, key=lambda t: (t[0], -t[1].row, -t[1].col))
                for n in muster_squares(v, sq, self.costs()):
                    targets[n] = Msg("a muster of the whole army beside an enemy Force (our {ours} SP against some "
                                     "{theirs})", ours=ours, theirs=theirs)
        return targets, frozenset(blocked), committed

    def march(self, force: str | None = None) -> tuple[Field, dict[Square, Msg]]:
        """The field of march of ``force``: to its muster if it is committed to one, else to the side's
        targets."""
        if "march" not in self.cache:
            targets, blocked, committed = self._targets()
            self.cache["march"] = field_to(self.view.map, targets, blocked, self.costs()), targets
            self.cache["blocked"], self.cache["committed"] = blocked, committed
        if force is not None and force in self.cache["committed"]:
            musters, what = self.cache["committed"][force]
            fields = self.cache.setdefault("musters", {})
            if musters not in fields:
                fields[musters] = (field_to(self.view.map, musters, self.cache["blocked"], self.costs()),
                                   dict.fromkeys(musters, what))
            return fields[musters]  # type: ignore[no-any-return]
        return self.cache["march"]  # type: ignore[no-any-return]

    def home(self) -> tuple[Field, dict[Square, Msg]]:
        if "home" not in self.cache:
            v = self.view
            targets = {h.square: Msg("its own stronghold") for h in v.strongholds if not v.hostile(h.holder)}
            if v.capital is not None:
                targets[v.capital] = Msg("its own capital")
            self.cache["home"] = field_to(v.map, targets, v.occupied, self.costs()), targets
        return self.cache["home"]  # type: ignore[no-any-return]


def moves(view: SideView, rules: RuleBook, declared: frozenset[str]) -> list[Decision]:
    """Phase 2: its Forces beside an enemy square they beat at its odds strike it together; the others march
    on their objectives (MC-5.1), by water where no land route leads there (MC-5.3); an unsteady or routed
    Force near the enemy falls back; the capital in danger is covered by the nearest Force."""
    fields = Fields(view, rules)
    steps, water_steps = max_squares(rules), max_squares(rules, by_water=True)
    out: list[Decision] = []
    movers = [f for f in sorted(view.own, key=lambda f: f.key)
              if f.key not in declared and f.square and f.order is not Order.DEFEND]
    home_guard = guard(view, movers)
    strikes = fields.strikes(declared)
    for f in movers:
        start = view.map.parse(f.square or "")
        if f.key == home_guard and view.capital is not None:
            dist, names = (field_to(view.map, [view.capital], view.occupied, fields.costs()),
                            {view.capital: Msg("its threatened capital")})
            verb = "marches"
        elif f.reaction in (Reaction.UNSTEADY, Reaction.ROUTED) and enemy_near(view, [start], 2):
            dist, names = fields.home()
            verb = "falls back"
        elif f.key in strikes:
            st = strikes[f.key]
            out.append(Move(f.key, (st.square,), False, st.square, Msg(
                "an enemy Force (our {ours} SP against some {theirs}; odds of winning {win}%)", ours=st.ours,
                theirs=st.theirs, win=percent(st.win)), reroll=can_reroll(view, f)))
            continue
        else:
            dist, names = fields.march(f.key)
            verb = "marches"
        if not names:
            continue
        by_water = False
        path = descend(view.map, start, dist, steps) if start in dist else ()
        if not path and (start not in dist or view.map.cell(start).terrain.is_water):
            path = sail(view.map, start, dist, water_steps)
            by_water = bool(path)
        if not path:
            continue
        target = nearest_target(view.map, path[-1], dist, names)
        out.append(Move(f.key, path, by_water, target, names[target], "sails" if by_water else verb))
    return out


def guard(view: SideView, movers: Sequence[ForceState]) -> str | None:
    """The Force that goes home when the side sees an enemy Force within 2 squares of its capital and has
    none on it: the nearest one able to march."""
    cap = view.capital
    if cap is None or not any(view.map.distance(e.square, cap) <= 2 for e in view.enemies if e.now):
        return None
    if any(f.square and view.map.parse(f.square) == cap for f in view.own):
        return None
    able = [f for f in movers if f.reaction is None]
    if not able:
        return None
    return min(able, key=lambda f: (view.map.distance(view.map.parse(f.square or ""), cap), f.key)).key


def nearest_target(cmap: CampaignMap, end: Square, dist: Field, names: Mapping[Square, Msg]) -> Square:
    """The target the path leads to: the one the field's march from where it ends leads to."""
    target = dist.target(end)
    if target in names:
        return target
    return min(names, key=lambda t: (cmap.distance(end, t), t.row, t.col))


# --- Phase 3: scouting and the camp's report --------------------------------------------------------


def battle(view: SideView, reporting: bool) -> list[Decision]:
    """Phase 3: scout each of its battles (MC-6.1), then report its camp's result (BR) when the battle is
    settled without a table (``reporting``)."""
    out: list[Decision] = []
    for b in view.battles:
        if b.status is not BattleStatus.PENDING:
            continue
        if view.side not in b.scouting.scores and not b.scouting.decided:
            out.append(Scout(b.number))
        if reporting and view.side not in b.aftermath.claims:
            out.append(Claim(b.number))
    return out


# --- Phase 4: aftermath, retreats, fates, trophies --------------------------------------------------


def aftermath(view: SideView) -> list[Decision]:
    """Phase 4: roll its aftermath (MC-7), retreat its beaten Forces towards home (MC-7.3), roll its fallen
    leaders' fates designating the arm of the Force's strongest unit (CC-1, CC-2), its trophies (CC-3), and
    make a unit Heroic after each battle it won when the Glory gained there pays for it (CC-4, RU-17)."""
    out: list[Decision] = []
    fields = Fields(view)
    home, _ = fields.home()
    own = {f.key: f for f in view.own}
    positions = [(view.side, view.map.parse(f.square)) for f in view.own if f.square]
    positions += list(view.others) + [(e.side, e.square) for e in view.enemies if e.now]
    for b in view.battles:
        if b.status is not BattleStatus.REPORTED:
            continue
        if not b.aftermath.rolled.get(view.side):
            out.append(RollAftermath(b.number))
        retreats = b.aftermath.retreats
        draw = outcomes(b).get(view.side) is Outcome.DRAW  # MC-7.3: apart from the opposing camps' retreats
        for fkey, dest in sorted(retreats.items()):
            if dest is not None or fkey not in own:
                continue
            f = own[fkey]
            sq = view.map.parse(b.square)
            apart = [view.map.parse(w) for k, w in retreats.items() if w is not None and k not in own and draw]
            legal = retreat_options(view.map, sq, view.side, [p for p in positions if p[1] != sq],
                                    apart_from=apart, camps=view.camps)
            if not legal:
                continue  # it surrenders when the phase ends (RU-8): nothing a member could choose either
            dest_sq = min(legal, key=lambda s: (home.get(s, INF), s.row, s.col))
            out.append(Retreat(b.number, fkey, dest_sq, Msg(
                "{force} retreats from {square} to {dest}, towards its own lines (MC-7.3).", force=f.name,
                square=b.square, dest=str(dest_sq))))
            positions.append((view.side, dest_sq))
    for fate in view.fates:
        f = own.get(fate.force)
        arm = max(f.units, key=lambda u: (u.sp, u.key)).type if f and f.units else UnitType.INFANTRY
        out.append(Fate(fate.leader, fate.battle, arm, Msg(
            "The general rolls {leader}'s fate (CC-1); a replacement would command the {arm} (CC-2).",
            leader=fate.leader, arm=arm.value)))
    out += [Trophy(t.battle, t.unit, t.target) for t in view.trophies]
    out += [Heroic(h.battle, h.unit, Msg(
        "The general spends the Glory won in battle {number} to make {unit} Heroic, its unit with most SP left "
        "({sp}) (CC-4).", number=h.battle, unit=h.name, sp=h.sp)) for h in view.heroics]
    return out


def decide(view: SideView, dice: DiceSource, rules: RuleBook, *, declared: frozenset[str] = frozenset(),
           reporting: bool = False) -> Decisions:
    """What a member of ``view.side`` would do in the current phase, by the general's policy (RU-26).
    ``declared``: its Forces that already declared this phase; ``reporting``: battles are settled without a
    table, so the general reports its camp's result."""
    match view.phase:
        case Phase.ORDERS:
            return Decisions(tuple(orders(view, dice, rules, declared)), done=True)
        case Phase.MOVEMENT:
            return Decisions(tuple(moves(view, rules, declared)), done=True)
        case Phase.BATTLE:
            return Decisions(tuple(battle(view, reporting)))
        case Phase.AFTERMATH:
            return Decisions(tuple(aftermath(view)))
    return Decisions()
