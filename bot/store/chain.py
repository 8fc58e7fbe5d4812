"""The roll chain's end within a transaction (docs/dice.md): each roll record carries ``prev``, the
hash of the campaign's roll record before it."""

from __future__ import annotations

import hashlib
from typing import Any

from sqlalchemy import event
from sqlalchemy.orm import Session
from sqlmodel import col, select
from sqlmodel.ext.asyncio.session import AsyncSession

from bot.engine.verify import GENESIS, record_hash

from .models import Campaign, LogEntry

_CHAIN = "adc_roll_chain"
"""session.info: campaign id -> the hash of its last roll record, within one transaction."""


def digest(data: dict[str, Any] | None) -> str:
    try:
        return record_hash(data or {})
    except ValueError:  # a fractional number (an old import): chained all the same; the verifier reports it
        return hashlib.sha256(repr(data).encode()).hexdigest()


def rolls(campaign_id: int | None) -> Any:
    """The campaign's chained entries: the ones a roll log holds (kind "roll" with a key, and the GM's
    undo, chained since issue 24 so that an undone mark can be checked)."""
    return select(LogEntry).where(LogEntry.campaign_id == campaign_id, col(LogEntry.kind).in_(("roll", "undo")),
                                  col(LogEntry.roll_key).is_not(None))


async def end(session: AsyncSession, campaign: Campaign) -> str:
    """The hash of the campaign's last roll record (:data:`GENESIS` before the first)."""
    known = session.info.get(_CHAIN, {})
    if campaign.id in known:
        return str(known[campaign.id])
    last = (await session.exec(rolls(campaign.id).order_by(col(LogEntry.id).desc()).limit(1))).first()
    return GENESIS if last is None else digest(last.data)


def extend(session: AsyncSession, campaign: Campaign, data: dict[str, Any]) -> None:
    """``data`` is now the chain's last roll record (every write holds the campaign's row lock)."""
    session.info.setdefault(_CHAIN, {})[campaign.id] = digest(data)


@event.listens_for(Session, "after_transaction_end")
def _forget_chain(session: Session, _transaction: Any) -> None:
    """What a transaction knew of the chain ends with it (a roll rolled back is not the chain's end)."""
    session.info.pop(_CHAIN, None)
