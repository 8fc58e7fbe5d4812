"""The append-only event and roll log."""

from __future__ import annotations

from typing import Any

from sqlmodel import select
from sqlmodel.ext.asyncio.session import AsyncSession

from bot.engine.rolls import BatchRoll, Roll, record_from_dict
from bot.engine.text import Msg, UnknownMessage
from bot.engine.verify import FORMAT
from bot.i18n.text import known_templates
from bot.store.models import Campaign, LogEntry, TurnSeed


async def log_event(
    session: AsyncSession,
    campaign: Campaign,
    text: str,
    *,
    kind: str = "event",
    visibility: str = "public",
    data: dict[str, Any] | None = None,
) -> LogEntry:
    if isinstance(text, Msg):  # kept as template and parameters, so each reader gets it in their language
        data = {**(data or {}), "msg": text.to_json()}
    entry = LogEntry(
        campaign_id=campaign.id, turn=campaign.turn, phase=campaign.phase, kind=kind, visibility=visibility,
        text=str(text), data=data, version=campaign.version,
    )
    session.add(entry)
    return entry


def entry_text(entry: LogEntry) -> str:
    """The entry's text: a Msg again when it was written as one (events) or is a roll; else as stored.

    Only the code's own templates are formatted (:meth:`Msg.from_json`): an entry whose stored
    template is not one of them is shown as its stored plain text."""
    data = entry.data or {}
    if "msg" in data:
        try:
            return Msg.from_json(data["msg"], known=known_templates())
        except UnknownMessage:
            return entry.text
    if entry.kind == "roll" and data.get("kind") in ("roll", "batch"):
        try:
            return str(record_from_dict(data))
        except (KeyError, TypeError, ValueError):
            return entry.text
    return entry.text


async def log_roll(
    session: AsyncSession, campaign: Campaign, record: Roll | BatchRoll, *, visibility: str = "public"
) -> LogEntry:
    entry = LogEntry(
        campaign_id=campaign.id, turn=campaign.turn, phase=campaign.phase, kind="roll", visibility=visibility,
        text=str(record), data=record.to_dict(), roll_key=record.key, version=campaign.version,
    )
    session.add(entry)
    return entry


def turn_of_key(key: str) -> int:
    """Roll keys start with ``t{turn}/`` (bot.engine.dice.roll_key)."""
    head = key.split("/", 1)[0]
    return int(head[1:]) if head.startswith("t") and head[1:].isdigit() else 0


async def roll_log(session: AsyncSession, campaign: Campaign) -> dict[str, Any]:
    """Every roll with its turn's published hash and, for ended turns, the revealed seed."""
    seeds = (await session.exec(select(TurnSeed).where(TurnSeed.campaign_id == campaign.id).order_by(TurnSeed.turn))).all()
    rolls = (
        await session.exec(
            select(LogEntry).where(LogEntry.campaign_id == campaign.id, LogEntry.kind == "roll").order_by(LogEntry.id)
        )
    ).all()
    return {
        "format": FORMAT,
        "version": 1,
        "turns": [{"turn": s.turn, "seed_sha256": s.sha256, "seed": s.seed_hex if s.revealed else None} for s in seeds],
        "rolls": [
            {**(r.data or {}), "turn": turn_of_key(r.roll_key or ""), "undone": r.undone}
            for r in rolls
            if r.roll_key
        ],
    }
