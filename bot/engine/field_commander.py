"""FC: the optional Field Commander Napoleon modules.

- FC-1 Overwhelm check before a battle: if the stronger side's total SP is at least 3x the
  weaker side's, the weaker side's Forces are destroyed without a battle. Sides are compared as
  camps (RU-19); with three or more camps each weaker camp is checked against the strongest (RU-20).
- FC-2 Supply points, spent in a supply phase: refit a reduced unit (2; RU-24: up to half its
  original SP, once a phase), buy a scout (2), buy a new or destroyed unit at its combat value (a unit
  bought reduced cannot be refitted in the same supply phase), forced march (1 per unit). Never more
  than the points held. What a refit restores and which units are on offer is the campaign's
  (:mod:`bot.campaign.supply`).
- FC-3 A scout may be spent to re-roll a die; the re-roll takes no modifier bought with supply.

The campaign runs FC-1 when Forces meet (:mod:`bot.campaign.turn`), FC-2 in Phases 1 and 7
(:mod:`bot.campaign.supply`) and FC-3 on a Force's own die of Phases 1 and 2
(:func:`bot.campaign.orders.reroll`), each when its setting is on (RU-22). The FC quality order
(C -> P -> L -> V -> E) stays data in ``rules/field_commander.yaml``: the campaign picks nobody by it
(hits are taken at the table).

Rulings:
- Modifiers "bought with supply" are those whose rule ID is the supply rule (``FC-2``), plus any
  the caller names.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field, replace
from enum import StrEnum

from .camps import NO_CAMPS, Camps
from .cc_tables import FcTables, default_fc_tables
from .dice import DiceSource
from .errors import InvalidInput, RuleViolation
from .model import Force
from .rolls import Check, Modifier, Roll
from .text import Msg

# --- FC-1 overwhelm -------------------------------------------------------------------------


@dataclass(frozen=True)
class OverwhelmResult:
    """FC-1: each camp's total SP and which camps are destroyed without a battle. Without alliances
    a camp is a side, and the names below say "side" for it."""

    totals: tuple[tuple[str, int], ...]
    """(camp, total SP), stronger first (ties by key)."""
    ratio: int
    overwhelmed: bool
    """Some camp is destroyed without a battle."""
    stronger: str | None
    """The strongest camp; ``None`` when every camp has the same SP."""
    weaker: str | None
    """The weakest camp (of two, the other one); ``None`` when every camp has the same SP."""
    destroyed: tuple[str, ...]
    """Force ids destroyed without a battle."""
    text: str
    rule: str = "FC-1"
    overwhelmed_camps: tuple[str, ...] = ()
    """The camps destroyed without a battle, stronger first (RU-20: each weaker camp is checked
    against the strongest; the battle is then fought by the camps left, when two or more are)."""


def overwhelm_check(forces: Iterable[Force], *, camps: Camps = NO_CAMPS, tables: FcTables | None = None) -> OverwhelmResult:
    """FC-1: compare the camps' total SP (RU-19: allied sides add up; default every side its own
    camp); a camp the strongest has ``ratio`` (3) times or more is destroyed without a battle. With
    three or more camps each weaker camp is checked against the strongest (RU-20)."""
    fc = tables or default_fc_tables()
    forces = list(forces)
    totals: dict[str, int] = {}
    for f in forces:
        camp = camps.camp_of(f.side)
        totals[camp] = totals.get(camp, 0) + f.sp
    if len(totals) < 2:
        found = ", ".join(sorted({f.side for f in forces})) or "none"
        raise InvalidInput("The overwhelm check (FC-1) compares at least two camps (RU-20); the Forces given belong to: "
                           "{found}.", found=found)
    ordered = tuple(sorted(totals.items(), key=lambda kv: (-kv[1], kv[0])))
    (strong, s_sp), (weakest, w_least) = ordered[0], ordered[-1]
    if s_sp == 0:
        raise InvalidInput("Neither side has any SP left: there is nothing to compare (FC-1).")
    ratio = fc.overwhelm_ratio
    equal = s_sp == w_least
    if equal and len(ordered) == 2:
        text = Msg("Both sides have {s_sp} SP: no overwhelm.", s_sp=s_sp)
        return OverwhelmResult(ordered, ratio, False, None, None, (), text, fc.overwhelm_rule)
    lines: list[str] = []
    beaten: list[str] = []
    for weak, w_sp in ordered[1:]:
        if s_sp > w_sp and s_sp >= ratio * w_sp:
            beaten.append(weak)
            lines.append(Msg("{strong} has {s_sp} SP against {weak}'s {w_sp}, at least {ratio}x: {weak}'s Forces are "
                             "destroyed without a battle ({overwhelm_rule}).", strong=strong, s_sp=s_sp, weak=weak,
                             w_sp=w_sp, ratio=ratio, overwhelm_rule=fc.overwhelm_rule))
        else:
            lines.append(Msg("{strong} has {s_sp} SP against {weak}'s {w_sp}, less than {ratio}x: the battle is fought.",
                             strong=strong, s_sp=s_sp, weak=weak, w_sp=w_sp, ratio=ratio))
    destroyed = tuple(f.id for f in forces if camps.camp_of(f.side) in beaten)
    text = lines[0] if len(lines) == 1 else Msg.join(" ", lines)
    return OverwhelmResult(ordered, ratio, bool(beaten), None if equal else strong, None if equal else weakest,
                           destroyed, text, fc.overwhelm_rule, tuple(beaten))


# --- FC-2 supply ----------------------------------------------------------------------------


class PurchaseKind(StrEnum):
    """FC-2: what supply points buy."""

    REFIT = "refit"
    SCOUT = "scout"
    UNIT = "unit"
    FORCED_MARCH = "forced_march"


@dataclass(frozen=True)
class UnitOffer:
    """A new or destroyed unit that may be bought (FC-2), at its combat value."""

    unit_id: str
    full_cost: int
    reduced_cost: int | None = None
    """Combat value on its reduced side; ``None`` when it cannot be bought reduced."""

    def __post_init__(self) -> None:
        for what, n in (("full", self.full_cost), ("reduced", self.reduced_cost)):
            if n is not None and (isinstance(n, bool) or not isinstance(n, int) or n < 0):
                raise InvalidInput("Unit {unit_id!r}: its {what} combat value must be 0 or more, got {n!r}.", unit_id=self.unit_id, what=what, n=n)


@dataclass(frozen=True)
class Purchase:
    """One line of a supply phase (FC-2)."""

    kind: PurchaseKind
    unit_id: str = ""
    """The unit refitted or bought."""
    force_id: str = ""
    """The Force that gets a scout, or that force-marches."""
    count: int = 1
    """Scouts bought, or units that force-march."""
    reduced: bool = False
    """A unit bought on its reduced side."""


@dataclass(frozen=True)
class PurchaseLine:
    purchase: Purchase
    cost: int
    text: str


@dataclass(frozen=True)
class SupplyPhase:
    """FC-2: a side's supply points and the purchases made so far, each one validated.

    Build with :func:`supply_phase`, or add purchases one at a time with :meth:`buy` (each call
    returns a new phase, so a refused purchase leaves the phase as it was).
    """

    side: str
    points: int
    reduced_units: frozenset[str] = frozenset()
    """Units on their reduced side at the start of the phase (the ones that may be refitted)."""
    offers: tuple[UnitOffer, ...] = ()
    lines: tuple[PurchaseLine, ...] = ()
    tables: FcTables | None = field(default=None, compare=False, repr=False)

    def __post_init__(self) -> None:
        if isinstance(self.points, bool) or not isinstance(self.points, int) or self.points < 0:
            raise InvalidInput("{side} has {points!r} supply points: give a whole number, 0 or more.", side=self.side, points=self.points)

    @property
    def spent(self) -> int:
        return sum(line.cost for line in self.lines)

    @property
    def left(self) -> int:
        return self.points - self.spent

    def _done(self, kind: PurchaseKind, *, reduced: bool | None = None) -> set[str]:
        return {
            ln.purchase.unit_id
            for ln in self.lines
            if ln.purchase.kind is kind and (reduced is None or ln.purchase.reduced is reduced)
        }

    def cost_of(self, purchase: Purchase) -> tuple[int, str]:
        """The cost of a purchase and what it does, or a refusal saying why not (FC-2)."""
        fc = self.tables or default_fc_tables()
        rule = fc.supply_rule
        p = purchase
        if isinstance(p.count, bool) or not isinstance(p.count, int) or p.count < 1:
            raise InvalidInput("A purchase counts 1 or more, got {count!r}.", count=p.count)
        match p.kind:
            case PurchaseKind.REFIT:
                if p.unit_id in self._done(PurchaseKind.UNIT, reduced=True):
                    raise RuleViolation(
                        "{unit_id} was bought reduced in this supply phase: it cannot be refitted until the next ({rule}).", unit_id=p.unit_id, rule=rule
                    )
                if p.unit_id in self._done(PurchaseKind.REFIT):
                    raise RuleViolation("{unit_id} is already refitted in this supply phase ({rule}, RU-24).", unit_id=p.unit_id, rule=rule)
                if p.unit_id not in self.reduced_units:
                    raise RuleViolation("{unit_id!r} is not a reduced unit of {side}: only a reduced unit is refitted ({rule}).", unit_id=p.unit_id, side=self.side, rule=rule)
                return fc.refit_cost, Msg("refit {unit_id}", unit_id=p.unit_id)
            case PurchaseKind.SCOUT:
                n = p.count
                text = (Msg.plural(n, "buy {n} scout for {force}", "buy {n} scouts for {force}", force=p.force_id)
                        if p.force_id else Msg.plural(n, "buy {n} scout", "buy {n} scouts"))
                return fc.scout_cost * n, text
            case PurchaseKind.FORCED_MARCH:
                n = p.count
                text = (Msg.plural(n, "force-march {n} unit of {force}", "force-march {n} units of {force}",
                                   force=p.force_id)
                        if p.force_id else Msg.plural(n, "force-march {n} unit", "force-march {n} units"))
                return fc.forced_march_cost * n, text
            case PurchaseKind.UNIT:
                offer = next((o for o in self.offers if o.unit_id == p.unit_id), None)
                if offer is None:
                    on_offer = ", ".join(o.unit_id for o in self.offers) or "none"
                    raise RuleViolation("{unit_id!r} is not a new or destroyed unit on offer ({rule}); on offer: {on_offer}.", unit_id=p.unit_id, rule=rule, on_offer=on_offer)
                if p.unit_id in self._done(PurchaseKind.UNIT):
                    raise RuleViolation("{unit_id} is already bought in this supply phase ({rule}).", unit_id=p.unit_id, rule=rule)
                if p.reduced:
                    if offer.reduced_cost is None:
                        raise RuleViolation("{unit_id} cannot be bought on its reduced side ({rule}).", unit_id=p.unit_id, rule=rule)
                    return offer.reduced_cost, Msg("buy {unit_id} reduced, at its combat value {reduced_cost}", unit_id=p.unit_id, reduced_cost=offer.reduced_cost)
                return offer.full_cost, Msg("buy {unit_id} at its combat value {full_cost}", unit_id=p.unit_id, full_cost=offer.full_cost)
        raise InvalidInput("Unknown purchase {kind!r}: use one of {values}.", kind=p.kind, values=', '.join(k.value for k in PurchaseKind))

    def buy(self, purchase: Purchase) -> SupplyPhase:
        """Add one purchase; refused if it breaks FC-2 or costs more than the points left."""
        cost, text = self.cost_of(purchase)
        if cost > self.left:
            rule = (self.tables or default_fc_tables()).supply_rule
            raise RuleViolation(
                "Cannot {text}: it costs {cost} supply points and {side} has {left} left of {points} ({rule}).", text=text, cost=cost, side=self.side, left=self.left, points=self.points, rule=rule
            )
        return replace(self, lines=(*self.lines, PurchaseLine(purchase, cost, text)))


def supply_phase(
    side: str,
    points: int,
    purchases: Sequence[Purchase] = (),
    *,
    reduced_units: Iterable[str] = (),
    offers: Iterable[UnitOffer] = (),
    tables: FcTables | None = None,
) -> SupplyPhase:
    """FC-2: validate a side's whole list of purchases, in order, against its supply points."""
    phase = SupplyPhase(side, points, frozenset(reduced_units), tuple(offers), (), tables)
    for p in purchases:
        phase = phase.buy(p)
    return phase


# --- FC-3 scouts ----------------------------------------------------------------------------


_REROLL = re.compile(r"^(?P<base>.+)/reroll(?P<n>\d+)$")


def reroll_key(key: str) -> str:
    """The key of the next re-roll: ``{key}/reroll1``, then ``/reroll2``... off the original key."""
    m = _REROLL.match(key)
    if m:
        return f"{m['base']}/reroll{int(m['n']) + 1}"
    return f"{key}/reroll1"


@dataclass(frozen=True)
class Reroll:
    """FC-3: a die re-rolled for a scout; the re-roll stands."""

    original: Roll
    reroll: Roll
    scouts_left: int
    dropped: tuple[Modifier, ...]
    """Modifiers bought with supply, which the re-roll does not take."""
    rule: str = "FC-3"


def reroll_with_scout(
    check: Check,
    original: Roll,
    dice: DiceSource,
    *,
    scouts: int,
    supply_modifiers: Iterable[Modifier] = (),
    tables: FcTables | None = None,
) -> Reroll:
    """FC-3: spend a scout to re-roll ``original`` (made with ``check``) under ``reroll_key``.

    The re-roll takes no modifier bought with supply: those with the supply rule ID (FC-2) and
    any in ``supply_modifiers``.
    """
    fc = tables or default_fc_tables()
    if original.rule != check.rule or original.name != check.name:
        raise InvalidInput(
            "This roll is a {name} ({rule}), not a {name2} ({rule2}): re-roll it with its own check.", name=original.name, rule=original.rule, name2=check.name, rule2=check.rule
        )
    if isinstance(scouts, bool) or not isinstance(scouts, int) or scouts < 0:
        raise InvalidInput("Scouts must be a whole number, 0 or more; got {scouts!r}.", scouts=scouts)
    if scouts < fc.scouts_per_reroll:
        raise RuleViolation("No scout left to spend for a re-roll ({scout_rule}): {scouts} held.", scout_rule=fc.scout_rule, scouts=scouts)
    bought = set(supply_modifiers)
    dropped = tuple(m for m in check.modifiers if m.rule == fc.supply_rule or m in bought)
    kept = tuple(m for m in check.modifiers if m not in dropped)
    roll = replace(check, modifiers=kept).roll(dice, reroll_key(original.key))
    return Reroll(original, roll, scouts - fc.scouts_per_reroll, dropped, fc.scout_rule)
