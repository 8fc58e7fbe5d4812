"""Undo snapshots: a campaign's game rows as they were before a phase resolution (:mod:`.dump`), kept
newest first, a bounded number per campaign, and restored by undo."""

from __future__ import annotations

from typing import Any

from sqlmodel import col, delete, select
from sqlmodel.ext.asyncio.session import AsyncSession

from bot.engine.phases import Phase, TurnPosition

from .dump import PHASE_STATE, restore_campaign_fields, restore_tables, snapshot_state, table_name
from .models import BattleRow, Campaign, SideRow, Snapshot


async def save_snapshot(s: AsyncSession, campaign: Campaign) -> Snapshot:
    """Keep the campaign's game rows as they are now, at its current version."""
    assert campaign.id is not None
    snap = Snapshot(campaign_id=campaign.id, version=campaign.version, turn=campaign.turn, phase=campaign.phase,
                    state=await snapshot_state(s, campaign))
    s.add(snap)
    return snap


async def list_snapshots(s: AsyncSession, campaign_id: int) -> list[Snapshot]:
    """The campaign's snapshots, newest first."""
    stmt = select(Snapshot).where(Snapshot.campaign_id == campaign_id).order_by(col(Snapshot.id).desc())
    return list((await s.exec(stmt)).all())


def snapshot_position(snap: Snapshot) -> TurnPosition:
    """Where restoring the snapshot goes back to."""
    return TurnPosition(snap.state["campaign"]["turn"], Phase(snap.state["campaign"]["phase"]))


async def trim_snapshots(s: AsyncSession, campaign_id: int, *, keep: int) -> None:
    """Delete all but the ``keep`` newest snapshots of the campaign."""
    ids = (await s.exec(select(Snapshot.id).where(Snapshot.campaign_id == campaign_id)
                        .order_by(col(Snapshot.id).desc()).offset(keep))).all()
    if ids:
        await s.exec(delete(Snapshot).where(col(Snapshot.id).in_(ids)))  # type: ignore[call-overload]


async def restore_snapshot(s: AsyncSession, campaign: Campaign, snap: Snapshot) -> None:
    """Put the campaign's game rows and fields back as ``snap`` holds them, and drop ``snap``.

    The game only: the bot's settings stay as they are now: the campaign's options (rule options and
    the bot's own under ``_``), each side's channel and each battle's thread, like the language and
    the GM role, which the snapshot does not hold."""
    assert campaign.id is not None
    tables = await _keeping_settings(s, campaign.id, snap.state["tables"])
    await restore_tables(s, campaign.id, tables, PHASE_STATE)
    restore_campaign_fields(campaign, {k: v for k, v in snap.state["campaign"].items() if k != "options"})
    await s.delete(snap)


async def _keeping_settings(s: AsyncSession, campaign_id: int, tables: dict[str, Any]) -> dict[str, Any]:
    """The snapshot's rows with each side's channel and each battle's thread as they are now."""
    channels = {k: c for k, c in (await s.exec(select(SideRow.key, SideRow.channel_id)
                                               .where(SideRow.campaign_id == campaign_id))).all()}
    threads = {n: t for n, t in (await s.exec(select(BattleRow.number, BattleRow.thread_id)
                                              .where(BattleRow.campaign_id == campaign_id))).all()}
    out = dict(tables)
    side, battle = table_name(SideRow), table_name(BattleRow)
    out[side] = [{**row, "channel_id": channels.get(row.get("key"), row.get("channel_id"))} for row in tables.get(side, [])]
    out[battle] = [{**row, "thread_id": threads.get(row.get("number"), row.get("thread_id"))}
                   for row in tables.get(battle, [])]
    return out
