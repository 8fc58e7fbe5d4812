"""Phase 1 orders (MC-4) and Phase 2 moves (MC-5), declared by players for their own Forces.

Rolls happen when the action is taken (RU-13: a move is rolled when declared) and stay private to
the side until the phase resolves. Each roll's key names the turn, phase, Force and procedure
(:func:`order_key`, :func:`move_key`), so declaring again (or again after an undo) draws the same
dice. The odds a player is shown come from the very check the declaration rolls (:mod:`.odds`: the
modifiers, the die each outcome needs, a move's odds along its declared path).

With the FC-3 setting a Force may spend a scout to re-roll its own die of the phase (its Force test,
or its movement roll) before the phase resolves (:func:`reroll`); the re-roll stands. With FC-2 a
forced march bought with supply gives the Force's movement roll the Forced March bonus, as a modifier
of rule FC-2 (which a re-roll does not take).
"""

from __future__ import annotations

from dataclasses import dataclass, replace

from bot.engine.cc_tables import default_fc_tables
from bot.engine.dice import DiceSource, roll_key
from bot.engine.errors import RuleViolation
from bot.engine.field_commander import PurchaseKind, Reroll, reroll_with_scout
from bot.engine.force_test import force_test_check, require_test
from bot.engine.model import Force, Order, Square, parse_enum
from bot.engine.movement import (
    DeclaredMove,
    WaterRoute,
    check_land_path,
    check_water_path,
    declare_land_move,
    declare_water_move,
    movement_check,
    water_allowance,
    water_move_check,
    water_route,
)
from bot.engine.phases import Phase
from bot.engine.rolls import Check, Modifier, Roll
from bot.engine.tables import RuleBook
from bot.engine.text import Msg

from .authority import awaited, require_in_play, require_phase
from .dice import Context, turn_dice
from .errors import NotFound, PermissionDenied, WrongPhase
from .events import Journal, side_visibility
from .odds import Odds, move_result, path_odds, table_odds
from .rulebook import rules_for
from .sight import own_force
from .state import (
    CampaignState,
    CampaignStatus,
    Declaration,
    DeclarationKind,
    ForceState,
    MovePayload,
    OrderPayload,
)


@dataclass(frozen=True)
class OrderOutcome:
    force: str
    order: Order
    roll: Roll
    summary: str
    scouts: int = 0
    """Scouts the Force may spend to re-roll this die (FC-3): 0 when the setting is off."""


@dataclass(frozen=True)
class MoveOutcome:
    force: str
    path: tuple[str, ...]
    allowance: int
    reach: tuple[str, ...]
    roll: Roll
    by_water: bool
    scouts: int = 0
    """Scouts the Force may spend to re-roll this die (FC-3): 0 when the setting is off."""
    start: str = ""
    """The square the move starts from."""

    @property
    def result(self) -> Msg:
        """Where the roll takes the Force along its path, in plain words (MC-5)."""
        return move_result(self.start, self.path, self.allowance)


@dataclass(frozen=True)
class RerollOutcome:
    """FC-3: a Force's die of the phase re-rolled for a scout; the re-roll stands."""

    force: str
    kind: DeclarationKind
    original: Roll
    roll: Roll
    scouts: int
    """Scouts the Force has left."""
    dropped: tuple[Modifier, ...]
    """Modifiers bought with supply (FC-2), which the re-roll does not take."""
    allowance: int | None = None
    """A move's squares allowed by the re-roll (None for a Force test)."""
    reach: tuple[str, ...] = ()
    start: str = ""
    """A move's starting square ("" for a Force test)."""
    path: tuple[str, ...] = ()
    """A move's declared path (empty for a Force test)."""

    @property
    def result(self) -> Msg | None:
        """Where the re-rolled move takes the Force, in plain words (None for a Force test)."""
        return None if self.allowance is None else move_result(self.start, self.path, self.allowance)


def order_key(turn: int, force: str) -> str:
    return roll_key(turn, Phase.ORDERS, f"force:{force}", "force-test")


def move_key(turn: int, force: str) -> str:
    return roll_key(turn, Phase.MOVEMENT, f"force:{force}", "movement")


# --- whose Force, and what it declared ------------------------------------------------------------


def playable_force(state: CampaignState, side: str, text: str) -> ForceState:
    """One of ``side``'s Forces on the map, by key or name as typed. Any other name (an enemy Force,
    hidden or in sight, or no Force at all) is refused in the same words, naming only what was typed
    (fog of war)."""
    force = own_force(state, side, text)
    if force is None:
        raise NotFound("You have no Force {force!r}.", force=text.strip()[:40])
    if not force.active:
        raise RuleViolation("{name} is not on the map.", name=force.name)
    return force


def declaration(state: CampaignState, force: str) -> Declaration | None:
    """What ``force`` declared in the current turn and phase."""
    return next((d for d in state.declarations
                 if d.turn == state.turn and d.phase == state.phase and d.force == force), None)


def _with_declaration(state: CampaignState, new: Declaration) -> CampaignState:
    kept = tuple(d for d in state.declarations
                 if not (d.turn == new.turn and d.phase == new.phase and d.force == new.force))
    return state.evolve(declarations=(*kept, new))


# --- Phase 1: the Force test (MC-4) ---------------------------------------------------------------


def order_check(state: CampaignState, force: Force, rules: RuleBook) -> Check:
    """MC-4's Force test of ``force`` where it stands."""
    return force_test_check(force, state.map.cell(force.square), allies=state.camps.allies_of(force.side), rules=rules)


def order_odds(state: CampaignState, member_id: int, force: str, order: Order | str, rules: RuleBook) -> Odds:
    """The Force test's odds (MC-4), to show before the player commits: its modifiers, the chance of each
    result that can happen and the die it needs, and whether a disaster is a danger."""
    require_phase(state, Phase.ORDERS, "Giving orders")
    row = playable_force(state, require_in_play(state, member_id), force)
    if declaration(state, row.key) is not None:
        raise RuleViolation("{name} has already taken its Force test this turn (MC-4).", name=row.name)
    engine_force = state.engine_force(row.key)
    require_test(engine_force, parse_enum(Order, order, "order"))
    return table_odds(order_check(state, engine_force, rules))


def give_order(state: CampaignState, member_id: int, force: str, order: Order, journal: Journal,
               ctx: Context) -> tuple[CampaignState, OrderOutcome]:
    """Phase 1: take the Force test (MC-4) to give a Force a new order or shed its reaction. The roll
    is logged for the Force's side; the order takes effect when the phase resolves."""
    require_phase(state, Phase.ORDERS, "Giving orders")
    row = playable_force(state, require_in_play(state, member_id), force)
    if declaration(state, row.key) is not None:
        raise RuleViolation("{name} has already taken its Force test this turn (MC-4).", name=row.name)
    engine_force = state.engine_force(row.key)
    require_test(engine_force, order)
    state, dice = turn_dice(state, journal, ctx)
    roll = order_check(state, engine_force, ctx.rules).roll(dice, order_key(state.turn, row.key))
    state = _with_declaration(state, Declaration(state.turn, state.phase, row.key, row.side, DeclarationKind.ORDER,
                                                 OrderPayload(order, roll)))
    journal.roll(state, roll, visibility=side_visibility(row.side))
    return state, OrderOutcome(row.name, order, roll, roll.label, reroll_scouts(state, row.key))


# --- Phase 2: moves (MC-5) ------------------------------------------------------------------------


@dataclass(frozen=True)
class MoveTerms:
    """What a move's roll depends on besides the Force: its squares, its route by water (None on
    land), the weather and the random event's modifier (RU-10), and whether the MC-5.1 extension
    applies."""

    steps: tuple[Square, ...]
    route: WaterRoute | None
    weather: int
    weather_label: str
    extra: tuple[Modifier, ...]
    extension: bool


def move_terms(state: CampaignState, force: Force, path: str, rules: RuleBook, *, by_water: bool = False,
               small_boats: bool = False, horse_rafts: bool = False) -> MoveTerms:
    """The terms of ``force``'s move along ``path`` (squares as typed) in the current weather. By water, the
    Force sails in boats smaller than ships, or carries its horses on rafts, when its player says so or its
    scenario states it for the Force (MC-5.3): what the scenario states is what the Force has, and the
    player's word adds to it, never takes it away (:func:`water_craft`)."""
    steps = state.map.parse_path(force.square, path)
    small_boats, horse_rafts = water_craft(state.forces[force.id], small_boats=small_boats, horse_rafts=horse_rafts)
    weather = rules_for(state, rules).weather.kinds.get(state.weather_now or "")  # RU-22 (none once off), RU-10
    event = state.event_modifier(force.side)
    extra: tuple[Modifier, ...] = (Modifier(event, "RU-10", "random event (house rule)"),) if event else ()
    route = water_route(state.map, force.square, steps, wind=weather.wind if weather else "none",  # type: ignore[arg-type]
                        small_boats=small_boats, horse_barges=horse_rafts) if by_water else None
    extra += supply_forced_march(state, force.id, rules, by_water=by_water)
    return MoveTerms(steps, route, weather.movement if weather else 0, weather.label if weather else "weather", extra,
                     state.settings.movement_extension)


def water_craft(force: ForceState, *, small_boats: bool = False, horse_rafts: bool = False) -> tuple[bool, bool]:
    """MC-5.3: whether a Force's move by water is in boats smaller than ships, and with its horses on barges or
    rafts: "stated by its player when declaring the move, or by the scenario for the Force". The scenario's
    statement is the Force's own craft, so it holds for every move by water the Force makes; where the
    scenario states nothing, the player's word does."""
    return small_boats or force.small_boats, horse_rafts or force.horse_rafts


def supply_forced_march(state: CampaignState, force: str, rules: RuleBook, *, by_water: bool) -> tuple[Modifier, ...]:
    """FC-2: a forced march bought with supply this turn gives the Force's movement roll the Forced March
    bonus (MC-5.1, MC-5.3), as a modifier of the supply rule, so that an FC-3 re-roll drops it. Never on
    top of the Forced March order itself (the same bonus), and no longer once the roll was re-rolled
    with a scout (the re-roll stands without it)."""
    f = state.forces[force]
    if f.order is Order.FORCED_MARCH or not any(
            p.kind is PurchaseKind.FORCED_MARCH and p.force == force for p in state.purchases_of(f.side)):
        return ()
    existing = declaration(state, force)
    if existing is not None and existing.kind is DeclarationKind.MOVE and _rerolled(existing):
        return ()
    proc = rules.mc.water_movement if by_water else rules.mc.movement
    bonus = proc.modifiers["forced_march"].value
    return (Modifier(bonus, default_fc_tables().supply_rule, Msg("Forced March bought with supply")),)


def _rerolled(d: Declaration) -> bool:
    """Whether the declaration's roll is a scout's re-roll (FC-3): its key is not the phase's own."""
    own = order_key(d.turn, d.force) if d.kind is DeclarationKind.ORDER else move_key(d.turn, d.force)
    return d.payload.roll.key != own


def move_check(state: CampaignState, force: Force, terms: MoveTerms, rules: RuleBook, *,
               declared: bool = False) -> Check:
    """The check the move rolls: MC-5.1 on land, MC-5.3 by water, its path checked first (a march stays on
    land, a move by water on the water or the river). ``declared``: the path was accepted when it was
    declared (a scout's re-roll, FC-3), and stands for its phase as it was accepted."""
    if not declared:
        if terms.route is None:
            check_land_path(state.map, force.square, terms.steps, rules)
        else:
            check_water_path(state.map, force.square, terms.steps, rules)
    if terms.route is None:
        return movement_check(force, state.map.cell(force.square), extension=terms.extension, weather=terms.weather,
                              weather_label=terms.weather_label, extra=terms.extra, rules=rules,
                              allies=state.camps.allies_of(force.side))  # RU-19: an ally's ground is friendly
    return water_move_check(force, state.map, terms.steps, terms.route, weather=terms.weather,
                            weather_label=terms.weather_label, extra=terms.extra, rules=rules,
                            allies=state.camps.allies_of(force.side))


def move_odds(state: CampaignState, member_id: int, force: str, path: str, rules: RuleBook, *, by_water: bool = False,
              small_boats: bool = False, horse_rafts: bool = False) -> Odds:
    """The move's odds along the declared path, before the player commits: the chance of entering each
    number of its squares (never more than it has), with the die each needs, from the squares the roll
    allows (MC-5.1; MC-5.3 after the squares lost to embarking and landing, RU-16)."""
    require_phase(state, Phase.MOVEMENT, "Declaring moves")
    row = playable_force(state, require_in_play(state, member_id), force)
    engine_force = state.engine_force(row.key)
    terms = move_terms(state, engine_force, path, rules, by_water=by_water, small_boats=small_boats,
                       horse_rafts=horse_rafts)
    return path_odds(move_check(state, engine_force, terms, rules), str(engine_force.square),
                     tuple(str(sq) for sq in terms.steps), lambda roll: _allowance(roll, terms, rules))


def _allowance(roll: Roll, terms: MoveTerms, rules: RuleBook) -> int:
    """The squares a movement roll allows, as the engine's declarations count them (MC-5.1; MC-5.3 less
    embarking and landing, RU-16)."""
    return (roll.value or 0) if terms.route is None else water_allowance(roll, terms.route, rules)


def _roll_move(state: CampaignState, force: Force, terms: MoveTerms, dice: DiceSource, key: str,
               rules: RuleBook) -> DeclaredMove:
    if terms.route is None:
        return declare_land_move(force, state.map, terms.steps, dice, key, extension=terms.extension,
                                 weather=terms.weather, weather_label=terms.weather_label, extra=terms.extra,
                                 rules=rules, allies=state.camps.allies_of(force.side))
    return declare_water_move(force, state.map, terms.steps, terms.route, dice, key, weather=terms.weather,
                              weather_label=terms.weather_label, extra=terms.extra, rules=rules,
                              allies=state.camps.allies_of(force.side))


def declare_move(state: CampaignState, member_id: int, force: str, path: str, journal: Journal, ctx: Context, *,
                 by_water: bool = False, small_boats: bool = False,
                 horse_rafts: bool = False) -> tuple[CampaignState, MoveOutcome]:
    """Phase 2: declare a path; the movement roll (MC-5.1 or MC-5.3) is made now and kept private.
    By water the player says whether the Force sails in boats smaller than ships and carries its
    horses on rafts, unless its scenario states it for the Force (MC-5.3, :func:`water_craft`). A new path for a Force that declared one replaces it: the same key
    draws the same dice, so it is never a re-roll (and the roll is logged once); after a scout's re-roll
    (FC-3) the new path keeps the re-roll's die."""
    require_phase(state, Phase.MOVEMENT, "Declaring moves")
    row = playable_force(state, require_in_play(state, member_id), force)
    engine_force = state.engine_force(row.key)
    terms = move_terms(state, engine_force, path, ctx.rules, by_water=by_water, small_boats=small_boats,
                       horse_rafts=horse_rafts)
    state, dice = turn_dice(state, journal, ctx)
    existing = declaration(state, row.key)
    key = existing.payload.roll.key if existing is not None else move_key(state.turn, row.key)
    move = _roll_move(state, engine_force, terms, dice, key, ctx.rules)
    roll = move.roll
    # By water, what the move's check depends on, for a scout's re-roll (FC-3): the Force's own craft included.
    boats, rafts = water_craft(row, small_boats=small_boats, horse_rafts=horse_rafts) if by_water else (False, False)
    payload = MovePayload(tuple(str(sq) for sq in terms.steps), move.allowance, roll, str(engine_force.square),
                          by_water, boats, rafts)
    if existing is None:
        state = _with_declaration(state, Declaration(state.turn, state.phase, row.key, row.side, DeclarationKind.MOVE,
                                                     payload))
        journal.roll(state, roll, visibility=side_visibility(row.side))
    else:
        state = _with_declaration(state, replace(existing, payload=payload))
    return state, MoveOutcome(row.name, payload.path, move.allowance, tuple(str(sq) for sq in move.reach),
                              roll, by_water, reroll_scouts(state, row.key), start=str(engine_force.square))


# --- FC-3: a scout spent to re-roll the phase's die -----------------------------------------------


def reroll_scouts(state: CampaignState, force: str) -> int:
    """The scouts ``force`` may spend to re-roll a die (FC-3): none when the setting is off."""
    return state.forces[force].scouts if state.settings.scout_rerolls else 0


def reroll(state: CampaignState, member_id: int, force: str, journal: Journal,
           ctx: Context) -> tuple[CampaignState, RerollOutcome]:
    """FC-3 (a setting, RU-22): spend one of a Force's scouts to re-roll its own die of the current phase,
    before the phase resolves: its Force test (Phase 1) or its movement roll (Phase 2). The re-roll is
    keyed off the original roll's key, takes no modifier bought with supply (FC-2), and stands: the
    declaration holds it (a move its allowance), and it is logged for the Force's side."""
    if not state.settings.scout_rerolls:
        raise RuleViolation("Scout re-rolls (FC-3) are off in this campaign: the GM can turn them on with "
                            "/campaign settings.")
    if state.status is not CampaignStatus.ACTIVE:
        raise WrongPhase("The campaign {name!r} has ended.", name=state.name)
    if state.phase not in (Phase.ORDERS, Phase.MOVEMENT):
        raise WrongPhase("A scout re-rolls a Force test (Phase 1) or a movement roll (Phase 2) (FC-3); the campaign "
                         "is in {title}.", title=state.phase.spec.title)
    row = playable_force(state, require_in_play(state, member_id), force)
    existing = declaration(state, row.key)
    if existing is None:
        raise RuleViolation("{name} has nothing to re-roll in {title}: take its Force test (Phase 1) or declare its "
                            "move (Phase 2) first (FC-3).", name=row.name, title=state.phase.spec.title)
    engine_force = state.engine_force(row.key)
    original = existing.payload.roll
    state, dice = turn_dice(state, journal, ctx)
    allowance: int | None = None
    reach: tuple[str, ...] = ()
    path: tuple[str, ...] = ()
    if existing.kind is DeclarationKind.ORDER:
        done = reroll_with_scout(order_check(state, engine_force, ctx.rules), original, dice, scouts=row.scouts)
        payload: OrderPayload | MovePayload = replace(existing.payload, roll=done.reroll)
    else:
        p = existing.payload
        assert isinstance(p, MovePayload)
        terms = move_terms(state, engine_force, " ".join(p.path), ctx.rules, by_water=p.by_water,
                           small_boats=p.small_boats, horse_rafts=p.horse_rafts)
        done = reroll_with_scout(move_check(state, engine_force, terms, ctx.rules, declared=True), original, dice,
                                 scouts=row.scouts)
        allowance = _allowance(done.reroll, terms, ctx.rules)
        reach = tuple(str(sq) for sq in terms.steps[:allowance])
        path = tuple(str(sq) for sq in terms.steps)
        payload = replace(p, allowance=allowance, roll=done.reroll)
    state = _with_declaration(state, replace(existing, payload=payload))
    state = state.with_force(row.key, scouts=done.scouts_left)
    side = side_visibility(row.side)
    journal.roll(state, done.reroll, visibility=side)
    journal.say(state, _reroll_text(row.name, done), visibility=side)
    return state, RerollOutcome(row.name, existing.kind, original, done.reroll, done.scouts_left, done.dropped,
                                allowance, reach, start=str(engine_force.square) if path else "", path=path)


def _reroll_text(force: str, done: Reroll) -> str:
    return Msg("{force} spends a scout to re-roll its {name} (FC-3): {before} is now {after} ({label}); scouts left: "
               "{scouts}.", force=force, name=done.reroll.name, before=done.original.total, after=done.reroll.total,
               label=done.reroll.label, scouts=done.scouts_left)


# --- a side is done ---------------------------------------------------------------------------------


def mark_side_done(state: CampaignState, member_id: int, side: str) -> tuple[CampaignState, bool]:
    """"My side is done" from a reminder (a DM has no channel: the button names its campaign and side): the
    clicker must play that very side."""
    mine = require_in_play(state, member_id)
    if mine != side:
        raise PermissionDenied("This button is for {side}'s players; you play {yours}.",
                               side=state.sides[side].name if side in state.sides else side,
                               yours=state.sides[mine].name)
    return mark_done(state, member_id)


def mark_done(state: CampaignState, member_id: int, done: bool = True) -> tuple[CampaignState, bool]:
    """A side says it has finished acting in phase 1 or 2 (or takes it back); with whether every
    side still standing is now done."""
    if state.status is not CampaignStatus.ACTIVE:
        raise WrongPhase("The campaign {name!r} has ended.", name=state.name)
    if state.phase not in (Phase.ORDERS, Phase.MOVEMENT):
        raise WrongPhase("{title} does not wait for players to be done.", title=state.phase.spec.title)
    side = require_in_play(state, member_id)
    state = state.with_side(side, done=done)
    return state, all(sd.done for k, sd in state.sides.items() if awaited(state, k))  # MC-3: played sides
