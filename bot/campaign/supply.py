"""FC-2 supply points (a setting, RU-22), in strength points as RU-24 reads them: credited in Phase 7,
spent in Phase 1.

Phase 7 (house rule RU-10, "plus FC-2 when supply is on") credits each standing side its income
(:func:`credit_income`). During Phase 1, the turn's supply phase, a side's players spend its points
(:func:`buy`) on its Forces on the map:

- refit a reduced unit (below its original SP): it gets back up to half its original SP, rounded up,
  never above the original, once per supply phase (RU-24);
- buy a scout (FC-3);
- buy a **destroyed** unit back (one at 0 SP, or any unit of a Force taken off the map for good) at its
  original SP in points, at full strength, or reduced (half its SP, rounded up) for half the cost, or a
  **new** unit from the side's recruit pool (the scenario's ``supply.recruits``) at its stated SP and
  cost; either joins the Force named, which must stand in its side's own territory (RU-24);
- a forced march for a Force (1 per unit, which gives its movement roll this turn the Forced March
  bonus: :func:`bot.campaign.orders.supply_forced_march`).

Every rule of a purchase is the engine's :class:`~bot.engine.field_commander.SupplyPhase`, rebuilt
from what the side bought this turn (:attr:`SideState.purchases`), so that it sees them: a unit
bought reduced cannot be refitted in the same supply phase, a unit is bought once, and nothing costs
more than the points in hand. Here the campaign says what the side holds: its points at the start
of the phase, its reduced units, and its destroyed units and recruits on offer.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass, replace

from bot.engine.errors import RuleViolation
from bot.engine.field_commander import Purchase, PurchaseKind, SupplyPhase, UnitOffer, supply_phase
from bot.engine.model import Order, Square
from bot.engine.phases import Phase
from bot.engine.text import Msg

from .authority import require_in_play, require_phase, require_player
from .errors import NotFound
from .events import Journal, side_visibility
from .orders import declaration, playable_force
from .state import (
    CampaignState,
    CampaignStatus,
    DeclarationKind,
    ForceState,
    ForceStatus,
    OrderPayload,
    Recruit,
    SupplyPurchase,
    UnitState,
)

SUPPLY_PHASE = Phase.ORDERS
"""The turn's supply phase: Phase 1 (FC-2)."""


@dataclass(frozen=True)
class SupplyOutcome:
    """One purchase made: what it did (the engine's words), its cost and the points left in hand."""

    purchase: SupplyPurchase
    force: str
    text: str
    cost: int
    left: int


@dataclass(frozen=True)
class SupplyStatus:
    """A side's supply as its players see it (private): points in hand, income, this turn's purchases."""

    enabled: bool
    open: bool
    """Purchases may be made now (the setting is on and the campaign is in Phase 1)."""
    side: str
    points: int
    income: int
    bought: tuple[tuple[str, int], ...]
    """This turn's purchases: (what, cost)."""
    scouts: tuple[tuple[str, int], ...]
    """Each of the side's Forces on the map, with its scouts (FC-3)."""


def require_supply(state: CampaignState) -> None:
    if not state.settings.supply:
        raise RuleViolation("Supply points (FC-2) are off in this campaign: the GM can turn them on with "
                            "/campaign settings.")


# --- what the side holds ----------------------------------------------------------------------------


def _units(state: CampaignState, side: str, *, on_map: bool) -> list[tuple[ForceState, UnitState]]:
    return [(f, u) for f in state.side_forces(side) if f.active or not on_map for u in f.units]


def _destroyed(state: CampaignState, side: str) -> list[tuple[ForceState, UnitState]]:
    """The side's destroyed units (RU-24): at 0 SP in a Force on the map, or in a Force taken off the map
    for good (never one of a reinforcement still to come)."""
    return [(f, u) for f in state.side_forces(side) for u in f.units
            if (f.active and u.sp == 0) or f.status is ForceStatus.REMOVED]


def _labels(state: CampaignState, side: str) -> dict[str, str]:
    """How the supply phase names the side's units and recruits: by name, or name and key where two share
    a name."""
    units = [u for _, u in _units(state, side, on_map=False)] + [r.unit for r in state.sides[side].recruits]
    names = [u.name for u in units]
    return {u.key: u.name if names.count(u.name) == 1 else f"{u.name} ({u.key})" for u in units}


def _offer(label: str, unit: UnitState) -> UnitOffer:
    """A destroyed unit bought back at its combat value: its full SP, or reduced, half of it rounded up
    (a unit of 1 SP has no reduced side)."""
    return UnitOffer(label, unit.original_sp, half(unit.original_sp) if unit.original_sp >= 2 else None)


def _bought(label: str, unit: UnitState, p: SupplyPurchase) -> UnitOffer:
    """What a unit bought this phase was offered at, from its purchase: so that the engine, rebuilding the
    phase, prices it as it was bought (a recruit at its stated cost)."""
    return UnitOffer(label, unit.original_sp, p.cost) if p.reduced else UnitOffer(label, p.cost)


def half(sp: int) -> int:
    """Half a unit's SP, rounded up (RU-24)."""
    return -(-sp // 2)


def refitted_sp(unit: UnitState) -> int:
    """A reduced unit's SP once refitted (RU-24): up to half its original SP more, never above it."""
    return min(unit.original_sp, unit.sp + half(unit.original_sp))


def _engine_purchase(state: CampaignState, p: SupplyPurchase, labels: dict[str, str]) -> Purchase:
    force = state.forces[p.force].name if p.force in state.forces else p.force
    if p.kind in (PurchaseKind.REFIT, PurchaseKind.UNIT):
        return Purchase(p.kind, unit_id=labels.get(p.unit, p.unit), reduced=p.reduced)
    return Purchase(p.kind, force_id=force, count=p.count)


def supply_phase_of(state: CampaignState, side: str) -> SupplyPhase:
    """The side's supply phase as the engine checks it (FC-2, RU-24): the points it held when the phase
    began (those in hand and those spent this turn), its reduced units then, its destroyed units and
    recruits on offer, and its purchases so far, each validated again."""
    purchases = state.purchases_of(side)
    labels = _labels(state, side)
    everyone = {u.key: u for _, u in _units(state, side, on_map=False)}
    refitted = {p.unit for p in purchases if p.kind is PurchaseKind.REFIT}
    bought = {p.unit: p for p in purchases if p.kind is PurchaseKind.UNIT}
    on_map = [u for _, u in _units(state, side, on_map=True)]
    reduced = {labels[u.key] for u in on_map if 0 < u.sp < u.original_sp} | {labels[k] for k in refitted if k in labels}
    offers = [_offer(labels[u.key], u) for _, u in _destroyed(state, side) if u.key not in bought]
    offers += [UnitOffer(labels[r.unit.key], r.cost) for r in state.sides[side].recruits]
    offers += [_bought(labels[k], everyone[k], p) for k, p in bought.items() if k in everyone]
    sd = state.sides[side]
    return supply_phase(sd.name, sd.supply + sum(p.cost for p in purchases),
                        [_engine_purchase(state, p, labels) for p in purchases], reduced_units=reduced, offers=offers)


# --- Phase 1: spending ------------------------------------------------------------------------------


def _find(units: Iterable[UnitState], text: str) -> UnitState | None:
    low = text.lower()
    return next((u for u in units if u.key == text or u.name.lower() == low), None)


def _unit(force: ForceState, text: str | None) -> UnitState:
    """One of the Force's units, by key or name as typed; anything else is refused naming only what was typed."""
    t = (text or "").strip()
    if not t:
        raise NotFound("Name the unit of {force} (unit:).", force=force.name)
    found = _find(force.units, t)
    if found is None:
        raise NotFound("{force} has no unit {unit!r}.", force=force.name, unit=t[:40])
    return found


def _on_offer(state: CampaignState, force: ForceState, text: str | None) -> UnitState:
    """A destroyed unit of the side or a recruit of its pool (RU-24), by key or name as typed: the Force's
    own first (two Forces may each have a "Reserve Artillery"), then the side's others, then its recruits."""
    t = (text or "").strip()
    if not t:
        raise NotFound("Name the destroyed unit or the recruit to buy (unit:).")
    destroyed = _destroyed(state, force.side)
    bought = {p.unit for p in state.purchases_of(force.side) if p.kind is PurchaseKind.UNIT}
    units = _units(state, force.side, on_map=False)
    found = (_find((u for f, u in destroyed if f.key == force.key), t) or _find((u for _, u in destroyed), t)
             or _find((r.unit for r in state.sides[force.side].recruits), t)
             or _find((u for _, u in units if u.key in bought), t))  # the engine says it is bought already
    if found is None and (standing := _find((u for _, u in units), t)) is not None:
        raise RuleViolation("{unit} is not destroyed ({sp} SP): a purchase of a unit buys a destroyed unit back or a "
                            "recruit of the side's pool (RU-24); a reduced unit is refitted.", unit=standing.name,
                            sp=standing.sp)
    if found is None:
        raise NotFound("{side} has no destroyed unit or recruit {unit!r} to buy (RU-24).",
                       side=state.sides[force.side].name, unit=t[:40])
    return found


def _in_own_territory(state: CampaignState, force: ForceState) -> None:
    """RU-24: a bought unit joins a Force standing in its side's own territory."""
    square = Square.parse(force.square or "")
    if state.map.cell(square).territory != force.side:
        raise RuleViolation("{force} stands at {square}, outside {side}'s territory: a unit bought joins a Force in "
                            "its side's own territory (RU-24).", force=force.name, square=str(square),
                            side=state.sides[force.side].name)


def _purchase(state: CampaignState, force: ForceState, kind: PurchaseKind, unit: str | None,
              reduced: bool) -> SupplyPurchase:
    """What the side asks to buy, before the engine prices and checks it."""
    if kind is PurchaseKind.REFIT:
        return SupplyPurchase(state.turn, kind, force.key, _unit(force, unit).key)
    if kind is PurchaseKind.UNIT:
        found = _on_offer(state, force, unit)
        _in_own_territory(state, force)
        return SupplyPurchase(state.turn, kind, force.key, found.key, reduced=reduced)
    if kind is not PurchaseKind.FORCED_MARCH:
        return SupplyPurchase(state.turn, kind, force.key)
    if any(p.kind is kind and p.force == force.key for p in state.purchases_of(force.side)):
        raise RuleViolation("{force} already force-marches this turn (FC-2).", force=force.name)
    decl = declaration(state, force.key)
    changing = decl is not None and decl.kind is DeclarationKind.ORDER \
        and isinstance(decl.payload, OrderPayload) and decl.payload.order is not Order.FORCED_MARCH
    if force.order is Order.FORCED_MARCH and not changing:
        raise RuleViolation("{force} holds the Forced March order: its movement roll has the bonus already "
                            "(MC-1, FC-2).", force=force.name)
    units = sum(1 for u in force.units if u.sp > 0)
    if units == 0:
        raise RuleViolation("{force} has no unit with SP left to force-march (FC-2).", force=force.name)
    return SupplyPurchase(state.turn, kind, force.key, count=units)


def _join(state: CampaignState, force: ForceState, p: SupplyPurchase, sp: int, recruit: Recruit | None) -> CampaignState:
    """A unit bought (RU-24) joins ``force`` at ``sp``: taken out of its side's recruit pool (``recruit``), or
    out of the Force it was destroyed in."""
    side = state.sides[force.side]
    if recruit is not None:
        state = state.with_side(side.key, recruits=tuple(r for r in side.recruits if r is not recruit))
        unit = recruit.unit
    else:
        owner = next(f for f in state.side_forces(force.side) if any(u.key == p.unit for u in f.units))
        unit = next(u for u in owner.units if u.key == p.unit)
        if owner.key != force.key:
            state = state.with_force(owner.key, units=tuple(u for u in owner.units if u.key != p.unit))
    joined = replace(unit, sp=sp, heroic=False)
    here = state.forces[force.key]
    units = tuple(joined if u.key == p.unit else u for u in here.units) if any(u.key == p.unit for u in here.units) \
        else (*here.units, joined)
    return state.with_force(force.key, units=units)


def _apply(state: CampaignState, force: ForceState, p: SupplyPurchase, offer: Iterable[UnitOffer],
           labels: dict[str, str]) -> CampaignState:
    """What a purchase does to the Force at once (a forced march waits for the movement roll)."""
    match p.kind:
        case PurchaseKind.REFIT:
            u = next(x for x in force.units if x.key == p.unit)
            return state.with_unit(force.key, replace(u, sp=refitted_sp(u)))
        case PurchaseKind.UNIT:
            recruit = next((r for r in state.sides[force.side].recruits if r.unit.key == p.unit), None)
            if recruit is not None:
                return _join(state, force, p, recruit.unit.sp, recruit)
            original = next(u for _, u in _units(state, force.side, on_map=False) if u.key == p.unit).original_sp
            return _join(state, force, p, half(original) if p.reduced else original, None)
        case PurchaseKind.SCOUT:
            return state.with_force(force.key, scouts=force.scouts + p.count)
    return state


def buy(state: CampaignState, member_id: int, kind: PurchaseKind, force: str, journal: Journal, *,
        unit: str | None = None, reduced: bool = False) -> tuple[CampaignState, SupplyOutcome]:
    """Phase 1 (FC-2): a side's player spends supply points on one of its Forces on the map. The engine's
    supply phase prices and checks the purchase against what the side bought this turn; the points are
    debited, the purchase is kept for the rest of the phase and logged for the side."""
    require_supply(state)
    require_phase(state, SUPPLY_PHASE, "Spending supply points (FC-2)")
    side = require_in_play(state, member_id)
    row = playable_force(state, side, force)
    wanted = _purchase(state, row, kind, unit, reduced)
    before = supply_phase_of(state, side)
    labels = _labels(state, side)
    after = before.buy(_engine_purchase(state, wanted, labels))
    line = after.lines[-1]
    bought = replace(wanted, cost=line.cost)
    state = _apply(state, row, bought, after.offers, labels)
    text = line.text
    if kind is PurchaseKind.REFIT:
        before = next(u for u in row.units if u.key == bought.unit)
        text = Msg("refit {unit} from {before} to {after} of its {original} SP (RU-24)", unit=before.name,
                   before=before.sp, after=refitted_sp(before), original=before.original_sp)
    sd = state.sides[side]
    state = state.with_side(side, supply=sd.supply - line.cost, purchases=(*state.purchases_of(side), bought))
    journal.say(state, Msg("{side} spends {cost} supply points (FC-2): {text}. Left: {left}.", side=sd.name,
                           cost=line.cost, text=text, left=after.left), visibility=side_visibility(side))
    return state, SupplyOutcome(bought, row.name, text, line.cost, after.left)


def status(state: CampaignState, member_id: int) -> SupplyStatus:
    """The caller's side's supply (FC-2): points in hand, income, what it bought this turn, scouts (FC-3)."""
    side = require_player(state, member_id)
    sd = state.sides[side]
    phase = supply_phase_of(state, side)
    open_now = state.settings.supply and state.status is CampaignStatus.ACTIVE and state.phase is SUPPLY_PHASE
    return SupplyStatus(state.settings.supply, open_now, sd.name,
                        sd.supply, sd.supply_income, tuple((ln.text, ln.cost) for ln in phase.lines),
                        tuple((f.name, f.scouts) for f in state.side_forces(side) if f.active))


def units_for(state: CampaignState, member_id: int, kind: PurchaseKind | None, force: str | None) -> list[UnitState]:
    """The caller's units a purchase of ``kind`` may name (autocomplete): reduced ones to refit, destroyed
    ones to buy back; in ``force`` when given. Only the caller's side's Forces on the map."""
    side = require_player(state, member_id)
    if kind in (PurchaseKind.SCOUT, PurchaseKind.FORCED_MARCH):
        return []
    if kind is PurchaseKind.UNIT:  # RU-24: any of the side's destroyed units, and its recruits, may join the Force
        return [u for _, u in _destroyed(state, side)] + [r.unit for r in state.sides[side].recruits]
    wanted = (force or "").strip()
    return [u for f, u in _units(state, side, on_map=True)
            if (not wanted or wanted in (f.key, f.name)) and (kind is not PurchaseKind.REFIT or 0 < u.sp < u.original_sp)]


# --- Phase 7: income ---------------------------------------------------------------------------------


def credit_income(state: CampaignState, journal: Journal) -> CampaignState:
    """Phase 7 (RU-10, FC-2): with the supply setting on, each standing side receives its supply income,
    told to that side with its new total. The turn's purchases are done with either way."""
    sides = [replace(sd, purchases=()) for sd in state.sides.values() if sd.purchases]
    state = state.with_sides(sides) if sides else state
    if not state.settings.supply:
        return state
    for sd in state.standing_sides():
        if sd.supply_income <= 0:
            continue
        total = sd.supply + sd.supply_income
        state = state.with_side(sd.key, supply=total)
        journal.say(state, Msg("{side} receives {income} supply points (FC-2): {total} in hand.", side=sd.name,
                               income=sd.supply_income, total=total), visibility=side_visibility(sd.key))
    return state
