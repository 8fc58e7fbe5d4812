"""Phase 1 orders (MC-4) and Phase 2 moves (MC-5), declared by players for their own Forces.

Rolls happen when the action is taken (RU-13: a move is rolled when declared) and stay private
to the side until the phase resolves. Each roll's key names the turn, phase, Force and procedure,
so declaring again (or again after an undo) draws the same dice.
"""

from __future__ import annotations

from dataclasses import dataclass
from fractions import Fraction

from sqlmodel import select
from sqlmodel.ext.asyncio.session import AsyncSession

from bot.engine.dice import roll_key
from bot.engine.errors import RuleViolation
from bot.engine.force_test import force_test_check, require_test
from bot.engine.model import Force, Order, Square, parse_enum
from bot.engine.movement import (
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
from bot.engine.tables import RuleBook, default_rulebook
from bot.store.db import Database
from bot.store.models import Campaign, Declaration, ForceRow

from . import readcache
from .actors import Actor, require_player, side_of
from .errors import WrongPhase
from .loading import State, get_campaign, load_state, turn_dice
from .logbook import log_roll
from .sight import own_force


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


def require_phase(campaign: Campaign, phase: Phase, what: str) -> None:
    if campaign.status != "active":
        raise WrongPhase("The campaign {name!r} has ended.", name=campaign.name)
    if campaign.phase != phase:
        raise WrongPhase(
            "{what} belongs to {title}; the campaign is in {title2}.", what=what, title=phase.spec.title, title2=Phase(campaign.phase).spec.title
        )


async def _own_force(s: AsyncSession, campaign: Campaign, actor: Actor, force: str) -> tuple[State, ForceRow]:
    side = await require_player(s, campaign, actor)
    state = await load_state(s, campaign, force=force)
    return state, _own_row(state, side, force)


async def _read_own_force(db: Database, campaign_id: int, actor: Actor, force: str) -> tuple[State, ForceRow]:
    """``_own_force`` for the odds, from the read cache (read-only: nothing here may change ``state``)."""
    cr = await readcache.read(db, campaign_id)
    return cr.state, _own_row(cr.state, side_of(cr.standing(actor), cr.campaign), force)


def _own_row(state: State, side: str, force: str) -> ForceRow:
    row = own_force(state, side, force)  # an enemy Force is refused as one that does not exist (fog of war)
    if row.state != "active":
        raise RuleViolation("{name} is not on the map.", name=row.name)
    return row


def order_key(campaign: Campaign, force_key: str) -> str:
    return roll_key(campaign.turn, Phase.ORDERS, f"force:{force_key}", "force-test")


def move_key(campaign: Campaign, force_key: str) -> str:
    return roll_key(campaign.turn, Phase.MOVEMENT, f"force:{force_key}", "movement")


async def _declaration(s: AsyncSession, campaign: Campaign, force_key: str) -> Declaration | None:
    return (
        await s.exec(
            select(Declaration).where(
                Declaration.campaign_id == campaign.id, Declaration.turn == campaign.turn,
                Declaration.phase == campaign.phase, Declaration.force_key == force_key,
            )
        )
    ).first()


def _order_check(state: State, force: Force, rules: RuleBook) -> Check:
    return force_test_check(force, state.cmap.cell(force.square), rules=rules)


async def order_odds(db: Database, campaign_id: int, actor: Actor, force: str, order: str | Order,
                     *, rules: RuleBook | None = None) -> dict[str, Fraction]:
    """The exact chance of each Force-test result, to show before the player commits."""
    rules = rules or default_rulebook()
    state, row = await _read_own_force(db, campaign_id, actor, force)
    engine_force = state.force(row.key)
    require_test(engine_force, parse_enum(Order, order, "order"))
    return _order_check(state, engine_force, rules).odds()


async def give_order(db: Database, campaign_id: int, actor: Actor, force: str, order: str | Order,
                     *, rules: RuleBook | None = None) -> OrderOutcome:
    """Phase 1: take the Force test (MC-4) to give a Force a new order or shed its reaction."""
    rules = rules or default_rulebook()
    new_order = parse_enum(Order, order, "order")
    async with db.transaction() as s:
        campaign = await get_campaign(s, campaign_id, lock=True)
        require_phase(campaign, Phase.ORDERS, "Giving orders")
        state, row = await _own_force(s, campaign, actor, force)
        if await _declaration(s, campaign, row.key) is not None:
            raise RuleViolation("{name} has already taken its Force test this turn (MC-4).", name=row.name)
        engine_force = state.force(row.key)
        require_test(engine_force, new_order)
        dice = await turn_dice(s, campaign)
        roll = _order_check(state, engine_force, rules).roll(dice, order_key(campaign, row.key))
        s.add(Declaration(campaign_id=campaign.id, turn=campaign.turn, phase=campaign.phase, force_key=row.key,
                          side_key=row.side_key, kind="order", payload={"order": new_order.value, "roll": roll.to_dict()}))
        await log_roll(s, campaign, roll, visibility=f"side:{row.side_key}")
        return OrderOutcome(row.name, new_order, roll, roll.label)


def _parse_path(state: State, start: Square, path: str) -> tuple[Square, ...]:
    return state.cmap.parse_path(start, path)


@dataclass(frozen=True)
class _MoveTerms:
    """What a move's roll depends on besides the Force: its route by water (None on land), the
    weather and the random event's modifier (RU-10)."""

    route: WaterRoute | None
    weather: int
    weather_label: str
    extra: tuple[Modifier, ...]
    extension: bool


def _move_terms(state: State, force: Force, steps: tuple[Square, ...], by_water: bool, rules: RuleBook, *,
                small_boats: bool = False, horse_rafts: bool = False) -> _MoveTerms:
    campaign = state.campaign
    weather = rules.weather.kinds.get(campaign.weather or "")
    side = state.sides[force.side]
    extra = (Modifier(side.movement_modifier, "RU-10", "random event (house rule)"),) if side.movement_modifier else ()
    route = water_route(state.cmap, force.square, steps, wind=weather.wind if weather else "none",  # type: ignore[arg-type]
                        small_boats=small_boats, horse_barges=horse_rafts) if by_water else None
    return _MoveTerms(route, weather.movement if weather else 0, weather.label if weather else "weather", extra,
                      bool(campaign.options.get("movement_extension", True)))


async def move_odds(db: Database, campaign_id: int, actor: Actor, force: str, path: str, *, by_water: bool = False,
                    small_boats: bool = False, horse_rafts: bool = False,
                    rules: RuleBook | None = None) -> dict[int, Fraction]:
    """The exact chance of each number of squares the move is then allowed, before the player commits
    (MC-5.3: after the squares lost to embarking and landing, RU-16)."""
    rules = rules or default_rulebook()
    state, row = await _read_own_force(db, campaign_id, actor, force)
    engine_force = state.force(row.key)
    steps = _parse_path(state, engine_force.square, path)
    terms = _move_terms(state, engine_force, steps, by_water, rules, small_boats=small_boats, horse_rafts=horse_rafts)
    if terms.route is None:
        check_land_path(state.cmap, engine_force.square, steps, rules)
        check = movement_check(engine_force, state.cmap.cell(engine_force.square), extension=terms.extension,
                               weather=terms.weather, weather_label=terms.weather_label, extra=terms.extra, rules=rules)
    else:
        check = water_move_check(engine_force, state.cmap, steps, terms.route, weather=terms.weather,
                                 weather_label=terms.weather_label, extra=terms.extra, rules=rules)
    return allowance_odds(check, terms.route, rules)


async def declare_move(db: Database, campaign_id: int, actor: Actor, force: str, path: str, *,
                       by_water: bool = False, small_boats: bool = False, horse_rafts: bool = False,
                       rules: RuleBook | None = None) -> MoveOutcome:
    """Phase 2: declare a path; the movement roll (MC-5.1 or MC-5.3) is made now and kept private.
    By water the player says whether the Force sails in boats smaller than ships and carries its
    horses on rafts (MC-5.3)."""
    rules = rules or default_rulebook()
    async with db.transaction() as s:
        campaign = await get_campaign(s, campaign_id, lock=True)
        require_phase(campaign, Phase.MOVEMENT, "Declaring moves")
        state, row = await _own_force(s, campaign, actor, force)
        engine_force = state.force(row.key)
        steps = _parse_path(state, engine_force.square, path)
        terms = _move_terms(state, engine_force, steps, by_water, rules, small_boats=small_boats,
                            horse_rafts=horse_rafts)
        dice = await turn_dice(s, campaign)
        key = move_key(campaign, row.key)
        if terms.route is None:
            move = declare_land_move(engine_force, state.cmap, steps, dice, key, extension=terms.extension,
                                     weather=terms.weather, weather_label=terms.weather_label, extra=terms.extra,
                                     rules=rules)
        else:
            move = declare_water_move(engine_force, state.cmap, steps, terms.route, dice, key, weather=terms.weather,
                                      weather_label=terms.weather_label, extra=terms.extra, rules=rules)
        roll = move.roll
        payload = {"start": str(engine_force.square), "path": [str(sq) for sq in steps], "allowance": move.allowance,
                   "by_water": by_water, "roll": roll.to_dict()}
        existing = await _declaration(s, campaign, row.key)
        if existing is None:
            s.add(Declaration(campaign_id=campaign.id, turn=campaign.turn, phase=campaign.phase, force_key=row.key,
                              side_key=row.side_key, kind="move", payload=payload))
            await log_roll(s, campaign, roll, visibility=f"side:{row.side_key}")
        else:
            # A new path for the same Force: the same key gives the same dice, so this is never a re-roll.
            existing.payload = payload
            s.add(existing)
        return MoveOutcome(row.name, tuple(payload["path"]), move.allowance, tuple(str(sq) for sq in move.reach), roll,
                           by_water)


async def mark_done(db: Database, campaign_id: int, actor: Actor, done: bool = True) -> bool:
    """A side says it has finished acting in phase 1 or 2; returns whether every side is now done."""
    async with db.transaction() as s:
        campaign = await get_campaign(s, campaign_id, lock=True)
        if campaign.phase not in (Phase.ORDERS, Phase.MOVEMENT):
            raise WrongPhase("{title} does not wait for players to be done.", title=Phase(campaign.phase).spec.title)
        side = await require_player(s, campaign, actor)
        state = await load_state(s, campaign)
        row = state.sides[side]
        row.done = done
        s.add(row)
        return all(sd.done or sd.defeated for sd in state.sides.values())
