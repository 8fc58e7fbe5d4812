"""Error records: the ids of unexpected errors members were shown, with what failed where and when
(never the message), bounded by age and count."""

from __future__ import annotations

import datetime as dt

from sqlmodel import col, delete, select
from sqlmodel.ext.asyncio.session import AsyncSession

from .models import ErrorRecord


async def add_error(s: AsyncSession, *, error_id: str, command: str, kind: str, at: dt.datetime,
                    campaign_id: int | None = None, guild_id: int | None = None, user_id: int | None = None,
                    keep_for: dt.timedelta, keep_at_most: int) -> None:
    """Keep the record of error ``error_id`` (``command`` failed with an exception of type ``kind`` at
    ``at``), and prune the records older than ``keep_for`` before it and all but the newest ``keep_at_most``."""
    s.add(ErrorRecord(error_id=error_id, campaign_id=campaign_id, guild_id=guild_id, user_id=user_id,
                      command=command, kind=kind, created_at=at))
    await s.flush()
    await s.exec(delete(ErrorRecord).where(col(ErrorRecord.created_at) < at - keep_for))  # type: ignore[call-overload]
    cutoff = (await s.exec(select(ErrorRecord.id).order_by(col(ErrorRecord.id).desc())
                           .offset(keep_at_most).limit(1))).first()
    if cutoff is not None:
        await s.exec(delete(ErrorRecord).where(col(ErrorRecord.id) <= cutoff))  # type: ignore[call-overload]


async def find_error(s: AsyncSession, error_id: str) -> ErrorRecord | None:
    return (await s.exec(select(ErrorRecord).where(ErrorRecord.error_id == error_id))).first()
