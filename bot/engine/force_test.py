"""MC-4 Phase 1: the Force test, taken to change a Force's order or to reconfigure it."""

from __future__ import annotations

from dataclasses import dataclass, replace

from .dice import DiceSource
from .errors import RuleViolation
from .model import Cell, Force, Order, Reaction, Terrain, Territory, territory_for, worse_reaction
from .rolls import Check, Modifier, Roll
from .tables import RuleBook, default_rulebook
from .text import Msg

_REACTION_MODS = {Reaction.ROUTED: "routed", Reaction.UNSTEADY: "unsteady", Reaction.CONFUSED: "confused"}


@dataclass(frozen=True)
class ForceTestResult:
    roll: Roll
    force: Force
    """The Force after the test (as it stood when removed, for a disaster)."""
    removed: bool = False
    """MC-4 result 1 or less: the Force routs and leaves the map."""
    will_to_fight: bool = False
    """Its side must take a Will-to-Fight test this turn (MC-4, MC-9)."""


def force_test_check(
    force: Force, cell: Cell, *, allies: frozenset[str] = frozenset(), rules: RuleBook | None = None
) -> Check:
    """1D6 + the leader's Command Value + the MC-4 modifiers."""
    proc = (rules or default_rulebook()).mc.force_test
    mods: list[Modifier] = [Modifier(force.leader.cv, proc.rule, Msg("{name}'s Command Value", name=force.leader.name))]
    if force.reaction is not None:
        mods.append(proc.mod(_REACTION_MODS[force.reaction]))
    if cell.terrain is Terrain.MOUNTAIN:
        mods.append(proc.mod("mountain"))
    territory = territory_for(cell, force.side, allies)
    if territory is Territory.ENEMY:
        mods.append(proc.mod("enemy_territory"))
    elif territory is Territory.FRIENDLY:
        mods.append(proc.mod("friendly_territory"))
    return Check(proc.rule, proc.name, tuple(mods), proc.bands, subject=force.name)


def require_test(force: Force, new_order: Order, *, reconfigure: bool = False) -> None:
    """A Force that keeps its order and shape takes no test (MC-4); one that splits or merges
    (``reconfigure``) takes it even when it keeps its order."""
    if new_order is force.order and force.reaction is None and not reconfigure:
        raise RuleViolation(
            "{name} already holds the {label} order and has no reaction to shed: no Force test is needed (MC-4).", name=force.name, label=new_order.label
        )


def apply_force_test(force: Force, new_order: Order, roll: Roll) -> ForceTestResult:
    """What a Force test's result does to the Force (MC-4, RU-3)."""
    match roll.result:
        case "ok":  # RU-3: passing sheds the reaction too
            return ForceTestResult(roll, replace(force, order=new_order, reaction=None))
        case "defend":
            return ForceTestResult(roll, replace(force, order=Order.DEFEND))
        case "confused" | "unsteady":  # RU-3: never improve a worse reaction
            reaction = worse_reaction(force.reaction, Reaction(roll.result))
            return ForceTestResult(roll, replace(force, reaction=reaction))
        case "disaster":
            return ForceTestResult(roll, replace(force, reaction=Reaction.ROUTED), removed=True, will_to_fight=True)
    raise AssertionError(f"unknown Force test result {roll.result!r}")


def force_test(
    force: Force,
    cell: Cell,
    new_order: Order,
    dice: DiceSource,
    key: str,
    *,
    allies: frozenset[str] = frozenset(),
    rules: RuleBook | None = None,
    reconfigure: bool = False,
) -> ForceTestResult:
    """Take the Force test to give ``force`` the ``new_order`` (or keep its order and shed a reaction,
    or ``reconfigure`` it: split or merge)."""
    require_test(force, new_order, reconfigure=reconfigure)
    roll = force_test_check(force, cell, allies=allies, rules=rules).roll(dice, key)
    return apply_force_test(force, new_order, roll)
