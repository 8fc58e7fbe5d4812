"""The timelapse's frames (:class:`~.models.TurnFrame`): one per ended turn, written in the transaction of
the resolution that ended it, read oldest first."""

from __future__ import annotations

import json

import sqlalchemy as sa
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
    return frames_of(await load_frame_rows(s, campaign_id))


async def load_frame_rows(s: AsyncSession, campaign_id: int) -> list[str]:
    """The campaign's frames as stored (their JSON text, not decoded), oldest turn first: a caller turns a
    long campaign's into frames off the event loop (:func:`frames_of`: 120 frames of 500 Forces are
    megabytes of JSON and 60,000 objects, which the driver would otherwise decode on the loop)."""
    return list((await s.exec(select(sa.cast(TurnFrame.frame, sa.Text))  # type: ignore[call-overload]
                              .where(TurnFrame.campaign_id == campaign_id).order_by(col(TurnFrame.turn)))).all())


def frames_of(rows: list[str]) -> list[Frame]:
    """Frames from :func:`load_frame_rows`' texts: pure CPU."""
    return [Frame.from_json(json.loads(r)) for r in rows]
