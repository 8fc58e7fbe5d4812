"""MC-6 Phase 3: exploration before a battle (MC-6.1, RU-5), the General Retreat command
modifiers (MC-6.2) and field works (RU-21), as the battle brief states them for the table."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass

from .camps import NO_CAMPS, Camps
from .dice import DiceSource
from .errors import InvalidInput
from .model import Cell, Force, Order, Reaction, Square, Territory, territory_for
from .rolls import Check, Modifier, Roll
from .tables import RuleBook, default_rulebook
from .text import Msg


@dataclass(frozen=True)
class ExplorationAbility:
    allowed: bool
    reason: str


def exploration_ability(force: Force) -> ExplorationAbility:
    """MC-6.1 with MC-1 and MC-2: who may explore, and why not."""
    if force.reaction in (Reaction.UNSTEADY, Reaction.ROUTED):
        return ExplorationAbility(False, Msg("{label} Forces cannot explore (MC-2)", label=force.reaction.label))
    needs_scouts = force.reaction is Reaction.CONFUSED or force.order is Order.FORCED_MARCH
    if needs_scouts and force.scouts <= 0:
        why = Msg("Confused") if force.reaction is Reaction.CONFUSED else Msg("on Forced March")
        return ExplorationAbility(False, Msg("{why}, it may explore only with scouts, and has none (MC-6.1)", why=why))
    if needs_scouts:
        return ExplorationAbility(True, Msg("explores with its scouts (MC-6.1, RU-2)"))
    if force.order is Order.DEFEND:
        return ExplorationAbility(True, Msg("full exploration, doubled for Defend"))
    return ExplorationAbility(True, Msg("full exploration"))


def exploration_check(
    force: Force, cell: Cell, *, allies: frozenset[str] = frozenset(), rules: RuleBook | None = None
) -> Check | None:
    """RU-5: 1D6 + modifiers, x2 after modifiers for Defend; ``None`` when the Force may not explore."""
    if not exploration_ability(force).allowed:
        return None
    mc = (rules or default_rulebook()).mc
    proc = mc.exploration
    territory = territory_for(cell, force.side, allies)
    mods: tuple[Modifier, ...] = ()
    if territory is Territory.FRIENDLY:
        mods = (proc.mod("friendly_territory"),)
    elif territory is Territory.ENEMY:
        mods = (proc.mod("enemy_territory"),)
    mult = mc.defend_multiplier if force.order is Order.DEFEND else 1
    return Check(proc.rule, proc.name, mods, proc.bands, multiplier=mult, floor=0, subject=force.name)


@dataclass(frozen=True)
class Exploration:
    side: str
    score: int
    roll: Roll | None
    reason: str


def explore(
    force: Force,
    cell: Cell,
    dice: DiceSource,
    key: str,
    *,
    allies: frozenset[str] = frozenset(),
    rules: RuleBook | None = None,
) -> Exploration:
    """A Force's exploration test; a Force that may not explore scores 0 (RU-5)."""
    ability = exploration_ability(force)
    check = exploration_check(force, cell, allies=allies, rules=rules)
    if check is None:
        return Exploration(force.side, 0, None, ability.reason)
    roll = check.roll(dice, key)
    return Exploration(force.side, roll.total, roll, ability.reason)


def scouting_winner(scores: Mapping[str, int], *, camps: Camps = NO_CAMPS) -> str | None:
    """RU-5: the higher result wins the scouting contest; a tie gives nobody. RU-23: the contest is between
    camps, each scoring its best side's result; the winner is given as that side (the first of its camp
    with the camp's score), for the camp."""
    if not scores:
        raise InvalidInput("A scouting contest needs the scores of the sides in the battle.")
    best_of: dict[str, str] = {}
    for side, score in scores.items():
        camp = camps.camp_of(side)
        if camp not in best_of or score > scores[best_of[camp]]:
            best_of[camp] = side
    best = max(scores.values())
    leaders = [side for side in best_of.values() if scores[side] == best]
    return leaders[0] if len(leaders) == 1 else None


def general_retreat_modifiers(hour: int, *, rules: RuleBook | None = None) -> tuple[Modifier, ...]:
    """MC-6.2: extra Command-test modifier to give or withdraw a General Retreat, by the battle's hour."""
    if isinstance(hour, bool) or not isinstance(hour, int) or hour < 1:
        raise InvalidInput("The battle's hour must be 1 or more, got {hour!r}.", hour=hour)
    mod = (rules or default_rulebook()).mc.general_retreat_hours.get(hour)
    return (mod,) if mod else ()


def general_retreat_brief(*, rules: RuleBook | None = None) -> str:
    """MC-6.2 for the battle brief: the Command test modifiers to give or withdraw a General Retreat, hour by hour."""
    hours = (rules or default_rulebook()).mc.general_retreat_hours
    return Msg("General Retreat (MC-6.2): the Command test to give or withdraw it takes {modifiers}; a result of 0 "
               "is confusion, and a withdrawn order stands again", modifiers=Msg.join(", ", (str(hours[h]) for h in sorted(hours))))


@dataclass(frozen=True)
class FieldWorks:
    """RU-21: the field works a Force may have built for a battle."""

    force: str
    points: int
    """At most this many points (per SP it has)."""
    text: str


def field_works(force: Force, battle_square: Square, *, rules: RuleBook | None = None) -> FieldWorks | None:
    """RU-21 (MC-1, Defend): a Force that holds the Defend order when a battle in its square begins may have
    built field works worth up to 1 point per SP it has; they are lost when it moves (``None``: it holds
    another order, or has left the battle's square)."""
    mc = (rules or default_rulebook()).mc
    if force.order is not Order.DEFEND or force.square != battle_square:
        return None
    points = force.sp * mc.field_works_per_sp
    return FieldWorks(force.id, points, Msg(
        "{force} holds the Defend order: field works worth up to {points} points ({per} per SP, {rule}); lost when it "
        "moves", force=force.name, points=points, per=mc.field_works_per_sp, rule=mc.field_works_rule))
