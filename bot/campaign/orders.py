"""Phase 1 orders (MC-4) and Phase 2 moves (MC-5), declared by players for their own Forces.

Rolls happen when the action is taken (RU-13: a move is rolled when declared) and stay private to
the side until the phase resolves. Each roll's key names the turn, phase, Force and procedure
(:func:`order_key`, :func:`move_key`), so declaring again (or again after an undo) draws the same
dice. The odds a player is shown come from the very check the declaration rolls.
"""

from __future__ import annotations

from dataclasses import dataclass, replace
from fractions import Fraction

from bot.engine.dice import DiceSource, roll_key
from bot.engine.errors import RuleViolation
from bot.engine.force_test import force_test_check, require_test
from bot.engine.model import Force, Order, Square, parse_enum
from bot.engine.movement import (
    DeclaredMove,
    WaterRoute,
    allowance_odds,
    check_land_path,
    declare_land_move,
    declare_water_move,
    movement_check,
    water_move_check,
    water_route,
)
from bot.engine.phases import Phase
from bot.engine.rolls import Check, Modifier, Roll
from bot.engine.tables import RuleBook
from bot.services.errors import NotFound, WrongPhase

from .authority import require_phase, require_player
from .dice import Context, turn_dice
from .events import Journal, side_visibility
from .sight import own_force
from .state import CampaignState, Declaration, DeclarationKind, ForceState


@dataclass(frozen=True)
class OrderOutcome:
    force: str
    order: Order
    roll: Roll
    summary: str


@dataclass(frozen=True)
class MoveOutcome:
    force: str
    path: tuple[str, ...]
    allowance: int
    reach: tuple[str, ...]
    roll: Roll
    by_water: bool


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
    return force_test_check(force, state.map.cell(force.square), rules=rules)


def order_odds(state: CampaignState, member_id: int, force: str, order: Order | str,
               rules: RuleBook) -> dict[str, Fraction]:
    """The exact chance of each Force-test result, to show before the player commits."""
    row = playable_force(state, require_player(state, member_id), force)
    engine_force = state.engine_force(row.key)
    require_test(engine_force, parse_enum(Order, order, "order"))
    return order_check(state, engine_force, rules).odds()


def give_order(state: CampaignState, member_id: int, force: str, order: Order, journal: Journal,
               ctx: Context) -> tuple[CampaignState, OrderOutcome]:
    """Phase 1: take the Force test (MC-4) to give a Force a new order or shed its reaction. The roll
    is logged for the Force's side; the order takes effect when the phase resolves."""
    require_phase(state, Phase.ORDERS, "Giving orders")
    row = playable_force(state, require_player(state, member_id), force)
    if declaration(state, row.key) is not None:
        raise RuleViolation("{name} has already taken its Force test this turn (MC-4).", name=row.name)
    engine_force = state.engine_force(row.key)
    require_test(engine_force, order)
    state, dice = turn_dice(state, journal, ctx)
    roll = order_check(state, engine_force, ctx.rules).roll(dice, order_key(state.turn, row.key))
    state = _with_declaration(state, Declaration(state.turn, state.phase, row.key, row.side, DeclarationKind.ORDER,
                                                 {"order": order.value, "roll": roll.to_dict()}))
    journal.roll(state, roll, visibility=side_visibility(row.side))
    return state, OrderOutcome(row.name, order, roll, roll.label)


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
    """The terms of ``force``'s move along ``path`` (squares as typed) in the current weather."""
    steps = state.map.parse_path(force.square, path)
    weather = rules.weather.kinds.get(state.weather or "")
    side = state.sides[force.side]
    extra = (Modifier(side.movement_modifier, "RU-10", "random event (house rule)"),) if side.movement_modifier else ()
    route = water_route(state.map, force.square, steps, wind=weather.wind if weather else "none",  # type: ignore[arg-type]
                        small_boats=small_boats, horse_barges=horse_rafts) if by_water else None
    return MoveTerms(steps, route, weather.movement if weather else 0, weather.label if weather else "weather", extra,
                     state.settings.movement_extension)


def move_check(state: CampaignState, force: Force, terms: MoveTerms, rules: RuleBook) -> Check:
    """The check the move rolls: MC-5.1 on land (its path checked first), MC-5.3 by water."""
    if terms.route is None:
        check_land_path(state.map, force.square, terms.steps, rules)
        return movement_check(force, state.map.cell(force.square), extension=terms.extension, weather=terms.weather,
                              weather_label=terms.weather_label, extra=terms.extra, rules=rules)
    return water_move_check(force, state.map, terms.steps, terms.route, weather=terms.weather,
                            weather_label=terms.weather_label, extra=terms.extra, rules=rules)


def move_odds(state: CampaignState, member_id: int, force: str, path: str, rules: RuleBook, *, by_water: bool = False,
              small_boats: bool = False, horse_rafts: bool = False) -> dict[int, Fraction]:
    """The exact chance of each number of squares the move is then allowed, before the player commits
    (MC-5.3: after the squares lost to embarking and landing, RU-16)."""
    row = playable_force(state, require_player(state, member_id), force)
    engine_force = state.engine_force(row.key)
    terms = move_terms(state, engine_force, path, rules, by_water=by_water, small_boats=small_boats,
                       horse_rafts=horse_rafts)
    return allowance_odds(move_check(state, engine_force, terms, rules), terms.route, rules)


def _roll_move(state: CampaignState, force: Force, terms: MoveTerms, dice: DiceSource, key: str,
               rules: RuleBook) -> DeclaredMove:
    if terms.route is None:
        return declare_land_move(force, state.map, terms.steps, dice, key, extension=terms.extension,
                                 weather=terms.weather, weather_label=terms.weather_label, extra=terms.extra,
                                 rules=rules)
    return declare_water_move(force, state.map, terms.steps, terms.route, dice, key, weather=terms.weather,
                              weather_label=terms.weather_label, extra=terms.extra, rules=rules)


def declare_move(state: CampaignState, member_id: int, force: str, path: str, journal: Journal, ctx: Context, *,
                 by_water: bool = False, small_boats: bool = False,
                 horse_rafts: bool = False) -> tuple[CampaignState, MoveOutcome]:
    """Phase 2: declare a path; the movement roll (MC-5.1 or MC-5.3) is made now and kept private.
    By water the player says whether the Force sails in boats smaller than ships and carries its
    horses on rafts (MC-5.3). A new path for a Force that declared one replaces it: the same key
    draws the same dice, so it is never a re-roll (and the roll is logged once)."""
    require_phase(state, Phase.MOVEMENT, "Declaring moves")
    row = playable_force(state, require_player(state, member_id), force)
    engine_force = state.engine_force(row.key)
    terms = move_terms(state, engine_force, path, ctx.rules, by_water=by_water, small_boats=small_boats,
                       horse_rafts=horse_rafts)
    state, dice = turn_dice(state, journal, ctx)
    move = _roll_move(state, engine_force, terms, dice, move_key(state.turn, row.key), ctx.rules)
    roll = move.roll
    payload = {"start": str(engine_force.square), "path": [str(sq) for sq in terms.steps], "allowance": move.allowance,
               "by_water": by_water, "roll": roll.to_dict()}
    existing = declaration(state, row.key)
    if existing is None:
        state = _with_declaration(state, Declaration(state.turn, state.phase, row.key, row.side, DeclarationKind.MOVE,
                                                     payload))
        journal.roll(state, roll, visibility=side_visibility(row.side))
    else:
        state = _with_declaration(state, replace(existing, payload=payload))
    return state, MoveOutcome(row.name, tuple(payload["path"]), move.allowance, tuple(str(sq) for sq in move.reach),
                              roll, by_water)


# --- a side is done ---------------------------------------------------------------------------------


def mark_done(state: CampaignState, member_id: int, done: bool = True) -> tuple[CampaignState, bool]:
    """A side says it has finished acting in phase 1 or 2 (or takes it back); with whether every
    side still standing is now done."""
    if state.phase not in (Phase.ORDERS, Phase.MOVEMENT):
        raise WrongPhase("{title} does not wait for players to be done.", title=state.phase.spec.title)
    side = require_player(state, member_id)
    state = state.with_side(side, done=done)
    return state, all(sd.done or sd.defeated for sd in state.sides.values())
