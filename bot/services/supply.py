"""FC-2 supply points and FC-3 scout re-rolls, for a side's players.

The rules are the campaign core's (:mod:`bot.campaign.supply`, :func:`bot.campaign.orders.reroll`);
here each action is one locked transaction (load, apply, save), and the readings come from the read
cache.
"""

from __future__ import annotations

from bot.campaign import orders as orders_core
from bot.campaign import supply as core
from bot.campaign.orders import RerollOutcome
from bot.campaign.state import UnitState
from bot.campaign.supply import SupplyOutcome, SupplyStatus
from bot.engine.field_commander import PurchaseKind
from bot.engine.model import parse_enum
from bot.engine.tables import RuleBook
from bot.store.db import Database

from . import shell
from .actors import Actor

__all__ = ["RerollOutcome", "SupplyOutcome", "SupplyStatus", "buy", "reroll", "status", "units"]


async def status(db: Database, campaign_id: int, actor: Actor) -> SupplyStatus:
    """The caller's side's supply points, income, this turn's purchases and scouts (private)."""
    return core.status(await shell.state(db, campaign_id), actor.member_id)


async def units(db: Database, campaign_id: int, actor: Actor, kind: str | None, force: str | None) -> list[UnitState]:
    """The caller's units a purchase of ``kind`` may name (autocomplete)."""
    typed = parse_enum(PurchaseKind, kind, "purchase") if kind else None
    return core.units_for(await shell.state(db, campaign_id), actor.member_id, typed, force)


async def buy(db: Database, campaign_id: int, actor: Actor, kind: str | PurchaseKind, force: str, *,
              unit: str | None = None, reduced: bool = False) -> SupplyOutcome:
    """Phase 1 (FC-2): spend supply points on one of the caller's Forces."""
    what = parse_enum(PurchaseKind, kind, "purchase")
    return await shell.write(db, campaign_id, lambda state, journal: core.buy(
        state, actor.member_id, what, force, journal, unit=unit, reduced=reduced))


async def reroll(db: Database, campaign_id: int, actor: Actor, force: str, *,
                 rules: RuleBook | None = None) -> RerollOutcome:
    """FC-3: spend one of a Force's scouts to re-roll its die of the current phase."""
    return await shell.write(db, campaign_id, lambda state, journal: orders_core.reroll(
        state, actor.member_id, force, journal, shell.context(rules)))
