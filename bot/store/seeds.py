"""Turn seeds (docs/dice.md): each turn's secret seed, its public hash, and when it was revealed."""

from __future__ import annotations

from sqlmodel import select
from sqlmodel.ext.asyncio.session import AsyncSession

from bot.engine.dice import seed_commitment

from .models import TurnSeed


async def get_seed(s: AsyncSession, campaign_id: int | None, turn: int) -> TurnSeed | None:
    """The seed of one turn, if it has been drawn."""
    stmt = select(TurnSeed).where(TurnSeed.campaign_id == campaign_id, TurnSeed.turn == turn)
    return (await s.exec(stmt)).first()


async def add_seed(s: AsyncSession, campaign_id: int | None, turn: int, seed: bytes) -> TurnSeed:
    """Keep a newly drawn seed for ``turn``, with its commitment (the hash published before any roll)."""
    row = TurnSeed(campaign_id=campaign_id, turn=turn, seed_hex=seed.hex(), sha256=seed_commitment(seed))
    s.add(row)
    await s.flush()
    return row


async def all_seeds(s: AsyncSession, campaign_id: int | None) -> list[TurnSeed]:
    """Every seed of the campaign, by turn."""
    stmt = select(TurnSeed).where(TurnSeed.campaign_id == campaign_id).order_by(TurnSeed.turn)  # type: ignore[arg-type]
    return list((await s.exec(stmt)).all())


async def revealed_turns(s: AsyncSession, campaign_id: int) -> set[int]:
    """The turns whose seed has been revealed (their turn has ended)."""
    stmt = select(TurnSeed.turn).where(TurnSeed.campaign_id == campaign_id, TurnSeed.revealed == True)  # noqa: E712
    return set((await s.exec(stmt)).all())
