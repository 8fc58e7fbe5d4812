"""Phase 1 orders (MC-4) and Phase 2 moves (MC-5), declared by players for their own Forces: the
rules are the campaign core's (:mod:`bot.campaign.orders`); each action is one write (:func:`.shell.write`)."""

from __future__ import annotations

from bot.campaign import orders as core
from bot.campaign.odds import Odds
from bot.campaign.orders import MoveOutcome, OrderOutcome
from bot.engine.model import Order, parse_enum
from bot.engine.tables import RuleBook, default_rulebook
from bot.store.db import Database

from . import shell
from .actors import Actor

__all__ = ["MoveOutcome", "OrderOutcome", "declare_move", "give_order", "mark_done", "move_odds",
           "order_odds"]


async def order_odds(db: Database, campaign_id: int, actor: Actor, force: str, order: str | Order,
                     *, rules: RuleBook | None = None) -> Odds:
    """The exact chance of each Force-test result, to show before the player commits."""
    return core.order_odds(await shell.state(db, campaign_id), actor.member_id, force, order,
                           rules or default_rulebook())


async def give_order(db: Database, campaign_id: int, actor: Actor, force: str, order: str | Order,
                     *, rules: RuleBook | None = None) -> OrderOutcome:
    """Phase 1: take the Force test (MC-4) to give a Force a new order or shed its reaction."""
    new_order = parse_enum(Order, order, "order")
    return await shell.write(db, campaign_id, lambda state, journal: core.give_order(
        state, actor.member_id, force, new_order, journal, shell.context(rules)))


async def move_odds(db: Database, campaign_id: int, actor: Actor, force: str, path: str, *, by_water: bool = False,
                    small_boats: bool = False, horse_rafts: bool = False,
                    rules: RuleBook | None = None) -> Odds:
    """The exact chance of each number of squares the move is then allowed, before the player commits
    (MC-5.3: after the squares lost to embarking and landing, RU-16)."""
    return core.move_odds(await shell.state(db, campaign_id), actor.member_id, force, path, rules or default_rulebook(),
                          by_water=by_water, small_boats=small_boats, horse_rafts=horse_rafts)


async def declare_move(db: Database, campaign_id: int, actor: Actor, force: str, path: str, *,
                       by_water: bool = False, small_boats: bool = False, horse_rafts: bool = False,
                       rules: RuleBook | None = None) -> MoveOutcome:
    """Phase 2: declare a path; the movement roll (MC-5.1 or MC-5.3) is made now and kept private.
    By water the player says whether the Force sails in boats smaller than ships and carries its
    horses on rafts (MC-5.3)."""
    return await shell.write(db, campaign_id, lambda state, journal: core.declare_move(
        state, actor.member_id, force, path, journal, shell.context(rules), by_water=by_water,
        small_boats=small_boats, horse_rafts=horse_rafts))


async def mark_side_done(db: Database, campaign_id: int, actor: Actor, side: str) -> bool:
    """"My side is done" from a reminder's button: only a player of ``side``; returns whether every side is."""
    return await shell.write(db, campaign_id, lambda state, _: core.mark_side_done(state, actor.member_id, side))


async def mark_done(db: Database, campaign_id: int, actor: Actor, done: bool = True) -> bool:
    """A side says it has finished acting in phase 1 or 2; returns whether every side is now done."""
    return await shell.write(db, campaign_id, lambda state, _: core.mark_done(state, actor.member_id, done))
