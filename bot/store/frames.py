"""The timelapse's frames (:class:`~.models.TurnFrame`): one per ended turn, written in the transaction of
the resolution that ended it, read oldest first."""

from __future__ import annotations

from typing import Any

from sqlmodel import col, select
from sqlmodel.ext.asyncio.session import AsyncSession

from bot.campaign.frames import Frame

from .models import TurnFrame


async def save_frame(s: AsyncSession, campaign_id: int, frame: Frame) -> None:
    """Keep ``frame`` as the campaign's frame of its turn (replacing one kept before for that turn)."""
    row = (await s.exec(select(TurnFrame).where(TurnFrame.campaign_id == campaign_id,
                                                TurnFrame.turn == frame.turn))).first()
    if row is None:
        row = TurnFrame(campaign_id=campaign_id, turn=frame.turn, frame=frame.to_json())
    else:
        row.frame = frame.to_json()
    s.add(row)


async def load_frames(s: AsyncSession, campaign_id: int) -> list[Frame]:
    """The campaign's frames, oldest turn first."""
    return [Frame.from_json(r) for r in await load_frame_rows(s, campaign_id)]


async def load_frame_rows(s: AsyncSession, campaign_id: int) -> list[dict[str, Any]]:
    """The campaign's frames as stored (JSON), oldest turn first: a caller turns a long campaign's into
    frames off the event loop (120 frames of 500 Forces are 60,000 objects)."""
    return list((await s.exec(select(TurnFrame.frame).where(TurnFrame.campaign_id == campaign_id)
                              .order_by(col(TurnFrame.turn)))).all())
