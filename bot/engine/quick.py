"""RU-27 Quick battle: its tables (``rules/quick_battle.yaml``, the engine's house rules) and the pure
resolver that settles a battle from the campaign's own figures with keyed dice.

A quick battle is a handful of ordinary checks (:class:`~.rolls.Check`), so every one of its rolls is a
plain roll record with its table: ``python -m bot verify`` and the HTML verifier recompute them as any
other (docs/dice.md). The steps:

1. the **battle roll**: the camp with the most SP rolls 2D6 + its edges - the enemy's edges (numbers,
   quality, leadership, a stronghold or field works RU-21, strong ground held in Defend, the main body's
   order and reaction) on the battle table: decisive defeat, defeat, draw, victory, decisive victory;
2. **losses**: one die per SP of each unit on the losses table of its camp's result (killed, left in
   rout, stands), so no unit ever loses more SP than it has;
3. **commanders**: one die per camp for the leader of its Force with the most SP: unharmed, or fallen in
   melee vs infantry or cavalry, or in other circumstances (CC-1 picks its fate table by it);
4. **banners**: the winner takes the Victory Banners required, every other camp rolls for the banners it
   took, always fewer (CC-4 Glory follows from them).

The result is everything BR asks of a battle; :mod:`bot.campaign.quick` turns it into the report the
campaign applies as it applies a table battle's.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass
from enum import StrEnum
from fractions import Fraction
from functools import cache
from pathlib import Path

from .aftermath import UnitLosses
from .cc_model import Circumstance
from .dice import DiceSource
from .model import Cell, Feature, Force, Order, Outcome, Quality, Reaction, Terrain
from .rolls import BandTable, BatchRoll, Check, Modifier, Roll
from .tables import Node, parse_yaml, read_bands, read_modifier, read_yaml, rules_dir
from .text import Msg

QUICK_FILE = "quick_battle.yaml"
RULE = "RU-27"


class Result(StrEnum):
    """The battle roll's result, for the camp that rolls it (and, mirrored, a camp's own result)."""

    DECISIVE_DEFEAT = "decisive_defeat"
    DEFEAT = "defeat"
    DRAW = "draw"
    VICTORY = "victory"
    DECISIVE_VICTORY = "decisive_victory"

    @property
    def outcome(self) -> Outcome:
        if self in (Result.VICTORY, Result.DECISIVE_VICTORY):
            return Outcome.WON
        return Outcome.DRAW if self is Result.DRAW else Outcome.LOST

    @property
    def mirrored(self) -> Result:
        """The same battle seen by the other camp."""
        return _MIRROR[self]


_MIRROR = {Result.DECISIVE_DEFEAT: Result.DECISIVE_VICTORY, Result.DEFEAT: Result.VICTORY, Result.DRAW: Result.DRAW,
           Result.VICTORY: Result.DEFEAT, Result.DECISIVE_VICTORY: Result.DECISIVE_DEFEAT}


class Loss(StrEnum):
    """What one SP's die gives on the losses table."""

    KILLED = "killed"
    ROUT = "rout"
    STANDS = "stands"


class Fall(StrEnum):
    """What a commander's die gives: how he fell (CC-1), or unharmed."""

    MELEE = "melee"
    OTHER = "other"
    UNHARMED = "unharmed"


RU7_STEP = {Quality.RAW: 0, Quality.AVERAGE: 1, Quality.VETERAN: 2, Quality.ELITE: 3}
"""RU-7: a unit's quality as steps on the ladder, for the camp's average."""


# --- the tables --------------------------------------------------------------------------------


@dataclass(frozen=True)
class Edge:
    """A modifier of the battle roll, said for the camp that has it (``own``) or for its enemy."""

    value: int
    own: str
    enemy: str

    def modifier(self, *, mine: bool) -> Modifier:
        return Modifier(self.value if mine else -self.value, RULE, self.own if mine else self.enemy)


@dataclass(frozen=True)
class Step:
    """A ladder's row: reached at ``at`` (a ratio or a difference) or more."""

    at: Fraction
    edge: Edge


@dataclass(frozen=True)
class QuickTables:
    """``rules/quick_battle.yaml``, validated."""

    rule: str
    name: str
    dice: int
    battle: BandTable
    numbers: tuple[Step, ...]
    quality: tuple[Step, ...]
    leadership: tuple[Step, ...]
    works: Edge
    ground_terrains: frozenset[Terrain]
    ground_features: frozenset[Feature]
    ground: Edge
    orders: Mapping[Order, Edge]
    reactions: Mapping[Reaction, Edge]
    losses_name: str
    losses_sides: int
    losses: Mapping[Result, BandTable]
    leaders_name: str
    leaders_sides: int
    leader_modifiers: Mapping[Result, Modifier]
    leader_bands: BandTable
    banners_name: str
    banners_required: int
    banner_modifiers: Mapping[Result, Modifier]
    banner_bands: BandTable


def _edge(node: Node) -> Edge:
    node.keys_within({"value", "own", "enemy", "ratio", "difference"})
    own, enemy = node.key("own"), node.key("enemy")
    own.keys_exactly({"reason"})
    enemy.keys_exactly({"reason"})
    return Edge(node.key("value").int(-10, 10), own.key("reason").str(), enemy.key("reason").str())


def _ladder(node: Node, at: str) -> tuple[Step, ...]:
    steps: list[Step] = []
    for row in node.list():
        row.keys_exactly({at, "value", "own", "enemy"})
        raw = row.key(at).value
        if isinstance(raw, bool) or not isinstance(raw, int | float) or not 0 < raw <= 100:
            raise row.key(at).fail("expected a number above 0, got {value!r}", value=str(raw))
        step = Step(Fraction(str(raw)), _edge(row))
        if steps and (step.at <= steps[-1].at or step.edge.value < steps[-1].edge.value):
            raise row.fail("rows climb: each reached at more than the one before, worth at least as much")
        steps.append(step)
    return tuple(steps)


def _enum_keys(node: Node, kind: type[StrEnum], *, exactly: bool) -> dict[str, Node]:
    names = {m.value for m in kind}
    if exactly:
        node.keys_exactly(names)
    else:
        node.keys_within(names)
    return {str(k): v for k, v in node.items()}


def _require_rule(node: Node) -> str:
    got = node.key("rule").str()
    if got != RULE:
        raise node.key("rule").fail("this table implements {rule}, not {got!r}", rule=RULE, got=got)
    return got


def _sides(node: Node) -> int:
    return node.key("sides").int(2, 100)


def load_quick(node: Node) -> QuickTables:
    node.keys_within({"version", "battle", "edges", "losses", "leaders", "banners"})
    battle, edges, losses, leaders, banners = (node.key(k) for k in ("battle", "edges", "losses", "leaders",
                                                                      "banners"))
    battle.keys_exactly({"rule", "name", "dice", "bands"})
    edges.keys_exactly({"numbers", "quality", "leadership", "works", "ground", "orders", "reactions"})
    ground = edges.key("ground")
    ground.keys_exactly({"terrains", "features", "edge"})
    losses.keys_exactly({"rule", "name", "sides", "tables"})
    leaders.keys_exactly({"rule", "name", "sides", "modifiers", "bands"})
    banners.keys_exactly({"rule", "name", "required", "modifiers", "bands"})
    try:
        terrains = frozenset(Terrain(t.str()) for t in ground.key("terrains").list())
        features = frozenset(Feature(f.str()) for f in ground.key("features").list())
    except ValueError:
        raise ground.fail("unknown terrain or feature; allowed: {allowed}",
                          allowed=", ".join([*(t.value for t in Terrain), *(f.value for f in Feature)])) from None
    tables = {Result(k): read_bands(v, tuple(m.value for m in Loss))
              for k, v in _enum_keys(losses.key("tables"), Result, exactly=True).items()}
    required = banners.key("required").int(1, 20)
    banner_bands = read_bands(banners.key("bands"))
    for row, band in zip(banners.key("bands").list(), banner_bands.bands, strict=True):
        if band.value is None or not 0 <= band.value < required:
            raise row.fail("a camp that did not win takes 0 to {most} banners (fewer than the {required} required)",
                           most=required - 1, required=required)
    return QuickTables(
        rule=_require_rule(battle),
        name=battle.key("name").str(),
        dice=battle.key("dice").int(1, 4),
        battle=read_bands(battle.key("bands"), tuple(r.value for r in Result)),
        numbers=_ladder(edges.key("numbers"), "ratio"),
        quality=_ladder(edges.key("quality"), "difference"),
        leadership=_ladder(edges.key("leadership"), "difference"),
        works=_edge(edges.key("works")),
        ground_terrains=terrains,
        ground_features=features,
        ground=_edge(ground.key("edge")),
        orders={Order(k): _edge(v) for k, v in _enum_keys(edges.key("orders"), Order, exactly=False).items()},
        reactions={Reaction(k): _edge(v) for k, v in _enum_keys(edges.key("reactions"), Reaction,
                                                                exactly=False).items()},
        losses_name=(_require_rule(losses), losses.key("name").str())[1],
        losses_sides=_sides(losses),
        losses=tables,
        leaders_name=(_require_rule(leaders), leaders.key("name").str())[1],
        leaders_sides=_sides(leaders),
        leader_modifiers={Result(k): read_modifier(v, RULE) for k, v in _enum_keys(
            leaders.key("modifiers"), Result, exactly=False).items()},
        leader_bands=read_bands(leaders.key("bands"), tuple(f.value for f in Fall)),
        banners_name=(_require_rule(banners), banners.key("name").str())[1],
        banners_required=required,
        banner_modifiers={Result(k): read_modifier(v, RULE) for k, v in _enum_keys(
            banners.key("modifiers"), Result, exactly=False).items()},
        banner_bands=banner_bands,
    )


def parse_quick_tables(text: str, source: str = QUICK_FILE) -> QuickTables:
    """Quick-battle tables from YAML text (a test, or an edited copy)."""
    return load_quick(parse_yaml(text, source))


def load_quick_tables(directory: Path | None = None) -> QuickTables:
    return load_quick(read_yaml((directory or rules_dir()) / QUICK_FILE))


@cache
def default_quick_tables() -> QuickTables:
    """The bundled ``rules/quick_battle.yaml``, loaded on first use."""
    return load_quick_tables()


# --- the camps' figures ------------------------------------------------------------------------


@dataclass(frozen=True)
class QuickCamp:
    """One camp of the battle as the quick battle reads it: its Forces there (as they fight) and whether
    it holds a stronghold in the square or field works (RU-21)."""

    key: str
    name: str
    forces: tuple[Force, ...]
    holds_works: bool = False

    @property
    def sp(self) -> int:
        return sum(f.sp for f in self.forces)

    @property
    def main_body(self) -> Force | None:
        """Its Force with the most SP (the first listed of equals): its order, reaction and commander."""
        return max(self.forces, key=lambda f: f.sp, default=None)


def _quality(forces: Iterable[Force]) -> Fraction:
    units = [u for f in forces for u in f.units if u.sp]
    sp = sum(u.sp for u in units)
    return Fraction(sum(RU7_STEP[u.quality] * u.sp for u in units), sp) if sp else Fraction(0)


def _best_cv(forces: Iterable[Force]) -> int:
    return max((f.leader.cv for f in forces), default=0)


def _ladder_edge(steps: Sequence[Step], reached: Fraction) -> Edge | None:
    found = None
    for s in steps:
        if reached >= s.at:
            found = s.edge
    return found


def _camp_edges(camp_forces: Sequence[Force], holds_works: bool, cell: Cell, tables: QuickTables) -> list[Edge]:
    """A side of the battle's own edges: works, strong ground, its main body's order and reaction."""
    out = []
    if holds_works:
        out.append(tables.works)
    main = max(camp_forces, key=lambda f: f.sp, default=None)
    if main is not None:
        strong = cell.terrain in tables.ground_terrains or any(cell.has(f) for f in tables.ground_features)
        if main.order is Order.DEFEND and strong:
            out.append(tables.ground)
        if main.order in tables.orders:
            out.append(tables.orders[main.order])
        if main.reaction is not None and main.reaction in tables.reactions:
            out.append(tables.reactions[main.reaction])
    return out


def battle_check(first: QuickCamp, enemies: Sequence[QuickCamp], cell: Cell,
                 tables: QuickTables | None = None) -> Check:
    """The battle roll of ``first`` against ``enemies`` (taken together, RU-20): 2D6 + its edges - theirs."""
    tables = tables or default_quick_tables()
    theirs = tuple(f for c in enemies for f in c.forces)
    mine_sp, their_sp = first.sp, sum(f.sp for f in theirs)
    mods: list[Modifier] = []

    def compare(steps: Sequence[Step], mine: Fraction, other: Fraction) -> None:
        if mine == other:
            return
        edge = _ladder_edge(steps, abs(mine - other))
        if edge is not None:
            mods.append(edge.modifier(mine=mine > other))

    if mine_sp != their_sp:
        low, high = sorted((mine_sp, their_sp))
        ratio = Fraction(high, low) if low else Fraction(1000)
        edge = _ladder_edge(tables.numbers, ratio)
        if edge is not None:
            mods.append(edge.modifier(mine=mine_sp > their_sp))
    compare(tables.quality, _quality(first.forces), _quality(theirs))
    compare(tables.leadership, Fraction(_best_cv(first.forces)), Fraction(_best_cv(theirs)))
    mods += [e.modifier(mine=True) for e in _camp_edges(first.forces, first.holds_works, cell, tables)]
    for c in enemies:
        mods += [e.modifier(mine=False) for e in _camp_edges(c.forces, c.holds_works, cell, tables)]
    return Check(tables.rule, tables.name, tuple(m for m in mods if m.value), tables.battle, dice=tables.dice,
                 subject=first.name)


def losses_check(result: Result, subject: str, tables: QuickTables | None = None) -> Check:
    tables = tables or default_quick_tables()
    return Check(tables.rule, tables.losses_name, (), tables.losses[result], sides=tables.losses_sides,
                 subject=subject)


def leader_check(result: Result, subject: str, tables: QuickTables | None = None) -> Check:
    tables = tables or default_quick_tables()
    mod = tables.leader_modifiers.get(result)
    return Check(tables.rule, tables.leaders_name, (mod,) if mod else (), tables.leader_bands,
                 sides=tables.leaders_sides, subject=subject)


def banner_check(result: Result, subject: str, tables: QuickTables | None = None) -> Check:
    tables = tables or default_quick_tables()
    mod = tables.banner_modifiers.get(result)
    return Check(tables.rule, tables.banners_name, (mod,) if mod else (), tables.banner_bands, subject=subject)


# --- the resolver --------------------------------------------------------------------------------


@dataclass(frozen=True)
class FallenLeader:
    """A commander who fell (CC-1), and how."""

    camp: str
    force: str
    leader: str
    circumstance: Circumstance


@dataclass(frozen=True)
class QuickBattle:
    """What a quick battle settled: every camp's result, each unit's losses, the fallen commanders and the
    banners; with every roll made, in order."""

    first: str
    """The camp that rolled the battle roll (the strongest)."""
    results: Mapping[str, Result]
    """Each camp's own result, by camp key."""
    losses: Mapping[str, UnitLosses]
    """Each unit's losses (killed, left in rout), by unit id; every unit of the battle."""
    fallen: tuple[FallenLeader, ...]
    banners: Mapping[str, int]
    """The Victory Banners each camp took, by camp key."""
    banners_required: int
    rolls: tuple[Roll | BatchRoll, ...]

    def outcome(self, camp: str) -> Outcome:
        return self.results[camp].outcome


Keys = Callable[[str, str], str]
"""The key of a roll, from its subject (``camp:fr``, ``unit:u1``) and its procedure."""


def order_camps(camps: Sequence[QuickCamp]) -> tuple[QuickCamp, ...]:
    """The camps, the strongest first (ties: as given, the scenario's order)."""
    return tuple(sorted(camps, key=lambda c: -c.sp))


def resolve(camps: Sequence[QuickCamp], cell: Cell, dice: DiceSource, keys: Keys,
            tables: QuickTables | None = None) -> QuickBattle:
    """RU-27: settle a battle of two or more camps (the strongest rolls against the rest, RU-20: one winner
    and every other camp beaten, or all drawn)."""
    tables = tables or default_quick_tables()
    if len(camps) < 2:
        raise ValueError("a battle needs two camps")
    ordered = order_camps(camps)
    first, others = ordered[0], ordered[1:]
    battle = battle_check(first, others, cell, tables).roll(dice, keys("battle", "quick-battle"))
    rolls: list[Roll | BatchRoll] = [battle]
    result = Result(battle.result)
    results: dict[str, Result] = {first.key: result}
    runner_up = others[0].key  # the strongest of the others wins when the first is beaten
    for c in others:
        mirrored = result.mirrored
        results[c.key] = mirrored if c.key == runner_up or mirrored.outcome is not Outcome.WON else Result.DEFEAT
    losses: dict[str, UnitLosses] = {}
    fallen: list[FallenLeader] = []
    banners: dict[str, int] = {}
    for c in ordered:
        own = results[c.key]
        for f in c.forces:
            for u in f.units:
                if not u.sp:
                    losses[u.id] = UnitLosses(u.id)
                    continue
                batch = losses_check(own, u.name, tables).roll_many(dice, keys(f"unit:{u.id}", "quick-losses"), u.sp)
                rolls.append(batch)
                losses[u.id] = UnitLosses(u.id, batch.count(Loss.KILLED), batch.count(Loss.ROUT))
        main = c.main_body
        if main is not None:
            fate = leader_check(own, main.leader.name, tables).roll(dice, keys(f"camp:{c.key}", "quick-leader"))
            rolls.append(fate)
            if fate.result != Fall.UNHARMED:
                fallen.append(FallenLeader(c.key, main.id, main.leader.name, Circumstance(fate.result)))
        if own.outcome is Outcome.WON:
            banners[c.key] = tables.banners_required
        else:
            taken = banner_check(own, c.name, tables).roll(dice, keys(f"camp:{c.key}", "quick-banners"))
            rolls.append(taken)
            banners[c.key] = int(taken.value or 0)
    return QuickBattle(first.key, results, losses, tuple(fallen), banners, tables.banners_required, tuple(rolls))


# --- the published odds (/rules RU-27) ---------------------------------------------------------------


def _pct(p: Fraction) -> str:
    return f"{float(p) * 100:.0f}%"


def published_odds(tables: QuickTables | None = None, *, edges: Iterable[int] = range(-4, 5)) -> tuple[str, ...]:
    """The tables with their odds, as ``/rules RU-27`` shows them: the edges, the battle roll's odds by net
    edge, each result's losses per SP, a commander's chance to fall, and the banners."""
    tables = tables or default_quick_tables()
    out: list[str] = [Msg("Quick battle tables (house rule {rule}), with their odds:", rule=tables.rule)]

    def edge_line(e: Edge) -> str:
        return Msg("{value:+d} {reason}", value=e.value, reason=e.own)

    ladders = [*(s.edge for s in tables.numbers), *(s.edge for s in tables.quality),
               *(s.edge for s in tables.leadership), tables.works, tables.ground, *tables.orders.values(),
               *tables.reactions.values()]
    out.append(Msg("Edges of a camp (the enemy's count against it): {edges}.",
                   edges=Msg.join("; ", (edge_line(e) for e in ladders))))
    for net in edges:
        check = Check(tables.rule, tables.name, (Modifier(net, tables.rule, "net edge"),) if net else (),
                      tables.battle, dice=tables.dice)
        odds = check.odds()
        won = odds[Result.VICTORY] + odds[Result.DECISIVE_VICTORY]
        lost = odds[Result.DEFEAT] + odds[Result.DECISIVE_DEFEAT]
        out.append(Msg("Net edge {net:+d}: wins {won} (decisive {decisive}), draws {draw}, loses {lost}.", net=net,
                       won=_pct(won), decisive=_pct(odds[Result.DECISIVE_VICTORY]), draw=_pct(odds[Result.DRAW]),
                       lost=_pct(lost)))
    for result in Result:
        odds = losses_check(result, "", tables).odds()
        fall = leader_check(result, "", tables).odds()
        out.append(Msg("{result}: each SP {killed} killed, {rout} in rout; the commander falls {falls} (in melee "
                       "{melee}).", result=tables.battle.by_result(result).label, killed=_pct(odds[Loss.KILLED]),
                       rout=_pct(odds[Loss.ROUT]), falls=_pct(fall[Fall.MELEE] + fall[Fall.OTHER]),
                       melee=_pct(fall[Fall.MELEE])))
    for result in (Result.DRAW, Result.DEFEAT, Result.DECISIVE_DEFEAT):
        totals = banner_check(result, "", tables)
        odds = totals.odds()
        mean = sum((Fraction(totals.table.by_result(r).value or 0) * p for r, p in odds.items()), Fraction(0))
        out.append(Msg("Victory Banners: the winner takes the {required} required; a camp with a {result} takes "
                       "{mean} on average.", required=tables.banners_required,
                       result=tables.battle.by_result(result).label, mean=f"{float(mean):.1f}"))
    return tuple(out)
