"""The campaign log's rows: writing entries and chained roll records, reading a reader's page, the
roll log's entries, and marking what an undo took back. (Events the core returns are written by
:func:`bot.store.repository.write_events`.)"""

from __future__ import annotations

from collections.abc import Collection
from typing import Any

from sqlmodel import col, select
from sqlmodel.ext.asyncio.session import AsyncSession

from bot.engine.rolls import BatchRoll, Roll
from bot.engine.text import Msg

from . import chain
from .models import Campaign, LogEntry


async def log_event(s: AsyncSession, campaign: Campaign, text: str, *, kind: str = "event", visibility: str = "public",
                    data: dict[str, Any] | None = None) -> LogEntry:
    """Append an entry at the campaign's turn, phase and version. A :class:`Msg` is kept as its template
    and parameters too, so that each reader gets it in their language."""
    if isinstance(text, Msg):
        data = {**(data or {}), "msg": text.to_json()}
    entry = LogEntry(campaign_id=campaign.id, turn=campaign.turn, phase=campaign.phase, kind=kind,
                     visibility=visibility, text=str(text), data=data, version=campaign.version)
    s.add(entry)
    return entry


async def log_roll(s: AsyncSession, campaign: Campaign, record: Roll | BatchRoll, *,
                   visibility: str = "public") -> LogEntry:
    """Append a roll record, chained to the campaign's roll before it (``prev``). Every write holds the
    campaign's row lock, so two rolls never chain to the same one."""
    data = {**record.to_dict(), "prev": await chain.end(s, campaign)}
    entry = LogEntry(campaign_id=campaign.id, turn=campaign.turn, phase=campaign.phase, kind="roll",
                     visibility=visibility, text=str(record), data=data, roll_key=record.key, version=campaign.version)
    s.add(entry)
    chain.extend(s, campaign, data)
    return entry


async def log_page(s: AsyncSession, campaign_id: int, *, visibility: Collection[str] | None = None,
                   turn: int | None = None, before_id: int | None = None, limit: int = 50) -> list[LogEntry]:
    """The last ``limit`` entries (of ``visibility``, of ``turn``, before the entry ``before_id``), oldest first."""
    stmt = select(LogEntry).where(LogEntry.campaign_id == campaign_id)
    if visibility is not None:
        stmt = stmt.where(col(LogEntry.visibility).in_(visibility))
    if turn is not None:
        stmt = stmt.where(LogEntry.turn == turn)
    if before_id is not None:
        stmt = stmt.where(col(LogEntry.id) < before_id)
    rows = (await s.exec(stmt.order_by(col(LogEntry.id).desc()).limit(limit))).all()
    return list(reversed(rows))


async def all_entries(s: AsyncSession, campaign_id: int) -> list[LogEntry]:
    """Every entry of the campaign, in order."""
    return list((await s.exec(select(LogEntry).where(LogEntry.campaign_id == campaign_id)
                              .order_by(col(LogEntry.id)))).all())


async def roll_entries(s: AsyncSession, campaign_id: int | None) -> list[LogEntry]:
    """The entries a roll log holds (kind "roll", with a key), in order."""
    return list((await s.exec(chain.rolls(campaign_id).order_by(col(LogEntry.id)))).all())


async def first_after(s: AsyncSession, campaign_id: int, after_version: int) -> LogEntry | None:
    """The first roll entry written after the campaign's version ``after_version`` and not yet undone."""
    return (await s.exec(chain.rolls(campaign_id).where(LogEntry.kind == "roll", LogEntry.version > after_version,
                                                        LogEntry.undone == False)  # noqa: E712
                         .order_by(col(LogEntry.id)).limit(1))).first()


async def log_undo(s: AsyncSession, campaign: Campaign, text: Msg, *, after: str) -> LogEntry:
    """The GM's undo, chained like a roll (docs/dice.md): every roll after ``after`` (a hash in the chain)
    up to it is undone, so that a verifier checks each roll's undone mark against it."""
    key = f"t{campaign.turn}/undo/v{campaign.version}"
    data = {"kind": "undo", "key": key, "after": after, "prev": await chain.end(s, campaign), "msg": text.to_json()}
    entry = LogEntry(campaign_id=campaign.id, turn=campaign.turn, phase=campaign.phase, kind="undo",
                     visibility="public", text=str(text), data=data, roll_key=key, version=campaign.version)
    s.add(entry)
    chain.extend(s, campaign, data)
    return entry


async def mark_undone(s: AsyncSession, campaign_id: int, *, after_version: int) -> int:
    """Mark undone every entry written after the campaign's version ``after_version`` (but earlier undo
    entries, and those already marked); how many."""
    entries = (await s.exec(select(LogEntry).where(LogEntry.campaign_id == campaign_id,
                                                   LogEntry.version > after_version,
                                                   LogEntry.undone == False,  # noqa: E712
                                                   LogEntry.kind != "undo"))).all()
    for e in entries:
        e.undone = True
        s.add(e)
    return len(entries)
