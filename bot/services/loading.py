"""A campaign's row for a service (the services' refusal when there is none), and the source of turn
seeds."""

from __future__ import annotations

from collections.abc import Callable

from sqlmodel.ext.asyncio.session import AsyncSession

from bot.engine import dice as _dice
from bot.engine.text import Msg
from bot.store import campaigns, seeds
from bot.store.log import log_event
from bot.store.models import Campaign, TurnSeed

from .errors import NotFound

# Where turn seeds come from: secrets by default; the offline demo makes them reproducible.
new_turn_seed: Callable[[], bytes] = _dice.new_turn_seed


def use_seed_source(source: Callable[[], bytes] | None) -> None:
    """Replace the source of turn seeds (``None`` restores the secret one). Demo and tests only."""
    global new_turn_seed
    new_turn_seed = source or _dice.new_turn_seed


async def get_campaign(session: AsyncSession, campaign_id: int, *, lock: bool = False) -> Campaign:
    """The campaign row; ``lock`` takes the row lock every write action starts with (PostgreSQL;
    SQLite transactions are already exclusive with BEGIN IMMEDIATE)."""
    campaign = await campaigns.get_campaign(session, campaign_id, lock=lock)
    if campaign is None:
        raise NotFound("There is no campaign #{campaign_id}.", campaign_id=campaign_id)
    return campaign


async def campaign_in_channel(session: AsyncSession, channel_id: int) -> Campaign:
    """The active campaign of a channel."""
    c = await campaigns.campaign_in_channel(session, channel_id)
    if c is None:
        raise NotFound("There is no campaign in this channel: a GM can start one with /campaign create.")
    return c


async def turn_seed(session: AsyncSession, campaign: Campaign, turn: int | None = None) -> TurnSeed:
    """A turn's secret seed: drawn, and its hash logged, on first use."""
    turn = campaign.turn if turn is None else turn
    row = await seeds.get_seed(session, campaign.id, turn)
    if row is None:
        row = await seeds.add_seed(session, campaign.id, turn, new_turn_seed())
        await log_event(
            session, campaign, Msg("Turn {turn} dice: SHA-256 of the turn seed is {sha256} (revealed when the turn ends).",
                                   turn=turn, sha256=row.sha256),
            kind="seed", data={"turn": turn, "seed_sha256": row.sha256},
        )
    return row
