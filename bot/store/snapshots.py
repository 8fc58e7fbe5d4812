"""Undo snapshots: a campaign's game as it was before a phase resolution, kept newest first, a bounded
number per campaign, and restored by undo.

A snapshot is taken from the state the resolution has already loaded, through the codec
(:func:`bot.campaign.codec.encode_game`: no query), and restored through it too
(:func:`bot.campaign.codec.decode_game`, every value checked), then saved over the state as any write is
(:func:`.repository.save`: only the rows that differ). Snapshots kept before that (the campaign's rows
as :mod:`.dump` wrote them) are still restored row by row."""

from __future__ import annotations

from typing import Any

from sqlmodel import col, delete, select
from sqlmodel.ext.asyncio.session import AsyncSession

from bot.campaign import codec
from bot.campaign.state import CampaignState
from bot.engine.phases import Phase, TurnPosition

from .dump import PHASE_STATE, restore_campaign_fields, restore_tables, snapshot_state, table_name
from .models import BattleRow, Campaign, EncodedJSON, SideRow, Snapshot, encoded, json_dumps

CODEC = "codec"
"""A snapshot's ``state`` key for the game as :func:`bot.campaign.codec.encode_game` keeps it."""


def save_snapshot(s: AsyncSession, campaign: Campaign, state: CampaignState,
                  game: dict[str, Any] | EncodedJSON | None = None) -> Snapshot:
    """Keep the campaign's game as ``state`` (loaded in this transaction) holds it, at its current
    version: no query but the snapshot's insert. ``game``: ``encode_game(state)``, when the caller has
    it already (made off the event loop), or its JSON (:func:`encoded_game`, made there too)."""
    assert campaign.id is not None
    head = {"turn": state.turn, "phase": int(state.phase)}
    document: dict[str, Any] | EncodedJSON
    if isinstance(game, EncodedJSON):  # the document's JSON around it: the game is not encoded again
        document = EncodedJSON(f'{{"campaign": {json_dumps(head)}, {json_dumps(CODEC)}: {game}}}')
    else:
        document = {"campaign": head, CODEC: game if game is not None else codec.encode_game(state)}
    snap = Snapshot(campaign_id=campaign.id, version=campaign.version, turn=state.turn, phase=int(state.phase),
                    state=document)  # type: ignore[arg-type]
    s.add(snap)
    return snap


def encoded_game(state: CampaignState) -> EncodedJSON:
    """The snapshot's game (``encode_game``) as JSON, for :func:`save_snapshot`: pure CPU, megabytes for
    a large campaign, so made in a worker thread."""
    return encoded(codec.encode_game(state))


async def save_rows_snapshot(s: AsyncSession, campaign: Campaign) -> Snapshot:
    """The snapshot as it was kept before the codec did it: the campaign's game rows (:mod:`.dump`). For
    the tests that an old snapshot is still restored."""
    assert campaign.id is not None
    snap = Snapshot(campaign_id=campaign.id, version=campaign.version, turn=campaign.turn, phase=campaign.phase,
                    state=await snapshot_state(s, campaign))
    s.add(snap)
    return snap


def game_of(snap: Snapshot, now: CampaignState) -> CampaignState | None:
    """The state ``snap`` restores, the members, seeds and settings as they are ``now`` (None for a
    snapshot of the campaign's rows, which :func:`restore_snapshot` restores)."""
    game = snap.state.get(CODEC)
    return None if game is None else codec.decode_game(game, now)


async def list_snapshots(s: AsyncSession, campaign_id: int) -> list[Snapshot]:
    """The campaign's snapshots, newest first."""
    stmt = select(Snapshot).where(Snapshot.campaign_id == campaign_id).order_by(col(Snapshot.id).desc())
    return list((await s.exec(stmt)).all())


def snapshot_position(snap: Snapshot) -> TurnPosition:
    """Where restoring the snapshot goes back to."""
    return TurnPosition(snap.state["campaign"]["turn"], Phase(snap.state["campaign"]["phase"]))


async def trim_snapshots(s: AsyncSession, campaign_id: int, *, keep: int) -> None:
    """Delete all but the ``keep`` newest snapshots of the campaign (one statement)."""
    newest = (select(Snapshot.id).where(Snapshot.campaign_id == campaign_id)
              .order_by(col(Snapshot.id).desc()).limit(keep))
    await s.exec(delete(Snapshot).where(Snapshot.campaign_id == campaign_id,  # type: ignore[call-overload]
                                        col(Snapshot.id).not_in(newest.scalar_subquery())))


async def restore_snapshot(s: AsyncSession, campaign: Campaign, snap: Snapshot) -> None:
    """Put the campaign's game rows and fields back as ``snap`` (of the campaign's rows) holds them, and
    drop ``snap``.

    The game only: the bot's settings stay as they are now (the campaign's book, with the deadline, each
    side's channel and each battle's thread; a snapshot from before the book held them has them in its
    rows, and they are dropped), the campaign's options (rule options and
    the bot's own under ``_``), each side's channel and each battle's thread, like the language and
    the GM role, which the snapshot does not hold."""
    assert campaign.id is not None
    tables = _game_rows(snap.state["tables"])
    await restore_tables(s, campaign.id, tables, PHASE_STATE)
    restore_campaign_fields(campaign, {k: v for k, v in snap.state["campaign"].items()
                                       if k not in ("options", "deadline")})
    await s.delete(snap)


def _game_rows(tables: dict[str, Any]) -> dict[str, Any]:
    """The snapshot's rows without the bookkeeping an older one kept in them (each side's channel, each
    battle's thread: the book's now, and they stay as they are)."""
    out = dict(tables)
    side, battle = table_name(SideRow), table_name(BattleRow)
    out[side] = [{k: v for k, v in row.items() if k != "channel_id"} for row in tables.get(side, [])]
    out[battle] = [{k: v for k, v in row.items() if k != "thread_id"} for row in tables.get(battle, [])]
    return out
