"""MC-5.2: attrition when crossing jungle, desert and wasteland, with its wounded and deserter
follow-ups (MC-7.1, MC-7.2, RU-12)."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, replace
from fractions import Fraction

from .aftermath import deserter_check, wounded_check
from .dice import DiceSource
from .grid import CampaignMap
from .model import Force, Square, Territory, Unit, territory_for
from .rolls import BatchRoll, Check, Roll
from .tables import RuleBook, default_rulebook


def attrition_check(unit: Unit, *, rules: RuleBook | None = None) -> Check:
    """1D6 - 2 SP lost, never below 0 (MC-5.2)."""
    mc = (rules or default_rulebook()).mc
    proc = mc.attrition
    return Check(proc.rule, proc.name, (mc.attrition_loss,), proc.bands, floor=0, subject=unit.name)


@dataclass(frozen=True)
class UnitAttrition:
    unit: Unit
    """The unit after the crossing."""
    square: Square
    loss: Roll
    lost: int
    wounded: BatchRoll | None
    deserters: BatchRoll | None
    returned_wounded: int
    deserted: int

    @property
    def rolls(self) -> tuple[Roll | BatchRoll, ...]:
        return tuple(r for r in (self.loss, self.wounded, self.deserters) if r is not None)


def unit_attrition(
    unit: Unit,
    square: Square,
    territory: Territory,
    dice: DiceSource,
    key: str,
    *,
    rules: RuleBook | None = None,
) -> UnitAttrition:
    """One unit crossing one attrition square."""
    mc = (rules or default_rulebook()).mc
    loss = attrition_check(unit, rules=rules).roll(dice, f"{key}/loss")
    lost = min(loss.total, unit.sp)
    wounded = deserters = None
    returned = deserted = 0
    if lost:
        wounded = wounded_check(territory, subject=unit.name, rules=rules).roll_many(dice, f"{key}/wounded", lost)
        returned = wounded.count("returns")
    remaining = unit.sp - lost
    # RU-12: compare the SP lost to attrition, before the wounded check, with the SP before crossing.
    if unit.sp and Fraction(lost, unit.sp) > mc.desertion_threshold and remaining:
        deserters = deserter_check(unit.quality, routed=False, subject=unit.name, rules=rules).roll_many(
            dice, f"{key}/deserters", remaining
        )
        deserted = deserters.count("deserted")
    after = unit.sp - lost + returned - deserted
    return UnitAttrition(unit.with_sp(after), square, loss, lost, wounded, deserters, returned, deserted)


@dataclass(frozen=True)
class ForceAttrition:
    force: Force
    """The Force after all its crossings."""
    steps: tuple[UnitAttrition, ...]


def force_attrition(
    force: Force,
    cmap: CampaignMap,
    travelled: Sequence[Square],
    dice: DiceSource,
    key: str,
    *,
    allies: frozenset[str] = frozenset(),
    rules: RuleBook | None = None,
) -> ForceAttrition:
    """Roll attrition for every unit of ``force`` on each attrition square it entered."""
    terrains = (rules or default_rulebook()).mc.attrition_terrains
    units = {u.id: u for u in force.units}
    steps: list[UnitAttrition] = []
    for sq in travelled:
        cell = cmap.cell(sq)
        if cell.terrain not in terrains:
            continue
        territory = territory_for(cell, force.side, allies)
        for uid, unit in units.items():
            if unit.sp == 0:
                continue
            step = unit_attrition(unit, sq, territory, dice, f"{key}/{sq}/unit:{uid}", rules=rules)
            units[uid] = step.unit
            steps.append(step)
    return ForceAttrition(replace(force, units=tuple(units[u.id] for u in force.units)), tuple(steps))
