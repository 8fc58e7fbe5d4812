"""Export and import at the store: a campaign's log as an export carries it, and a new campaign written
in one go from a checked state (:func:`bot.campaign.codec.decode`) and its log.

The state's rows are written by the repository (:func:`.repository.save`, from an empty campaign: every
row is new); the map, the members' sides and the log, which the repository does not write, here, in
bulk statements.
"""

from __future__ import annotations

import asyncio
import datetime as dt
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import replace
from typing import Any

from sqlmodel import col, insert, select
from sqlmodel.ext.asyncio.session import AsyncSession

from bot.campaign.botsettings import Book
from bot.campaign.state import CampaignState

from . import repository
from .bookkeeping import new_book
from .models import Campaign, LogEntry, MapSquare, Player, place_row
from .repository import Loaded

BATCH = 500
"""Rows per INSERT (each batch a few ms on the event loop)."""
LOG_FIELDS = ("turn", "phase", "kind", "visibility", "text", "data", "roll_key", "undone", "created_at")
"""What an export carries of each log entry."""


async def log_entries(s: AsyncSession, campaign_id: int) -> list[dict[str, Any]]:
    """The whole log, oldest first, as an export carries it (times in ISO format)."""
    stmt = select(*(getattr(LogEntry, k) for k in LOG_FIELDS)).where(LogEntry.campaign_id == campaign_id)
    rows = (await s.exec(stmt.order_by(col(LogEntry.id)))).all()  # type: ignore[call-overload]
    return [{k: v.isoformat() if isinstance(v, dt.datetime) else v for k, v in zip(LOG_FIELDS, r, strict=True)}
            for r in rows]


async def _insert(s: AsyncSession, model: Any, rows: Sequence[Mapping[str, Any]]) -> None:
    for start in range(0, len(rows), BATCH):
        await s.exec(insert(model), params=list(rows[start:start + BATCH]))  # type: ignore[call-overload]
        await asyncio.sleep(0)  # let other members' commands in between batches


async def insert_new(s: AsyncSession, state: CampaignState, *, guild_id: int, channel_id: int, scenario: str,
                     language: str, log: Iterable[Mapping[str, Any]] = (), book: Book | None = None,
                     created_at: dt.datetime | None = None) -> Loaded:
    """Write ``state`` as a new campaign of ``channel_id`` (its ``id`` is the new row's; the rest as
    given) with ``log`` (entries as :func:`bot.campaign.codec.decode_log` returns them) and ``book``, the
    bot's bookkeeping (default: none yet). Returns what a further :func:`.repository.save` in the same
    transaction starts from. Creating a campaign and importing one both come here."""
    campaign = Campaign(
        guild_id=guild_id, channel_id=channel_id, name=state.name, scenario=scenario, gm_id=state.gm_id,
        gm_role_id=state.gm_role_id, options={**state.options, **state.settings.as_options()}, language=language,
        climate=state.climate.value, theatre=state.theatre, start_date=state.start_date, turn=state.turn,
        phase=int(state.phase), last_turn=state.last_turn, status=state.status.value, weather=state.weather, holdings=dict(state.holdings),
        map_width=state.map.width, map_height=state.map.height, adjacency=state.map.adjacency, sight=state.sight,
        tables=state.tables.to_data() or None, names={k: dict(v) for k, v in state.names.items()} or None,
        **({"created_at": created_at} if created_at is not None else {}),
    )
    s.add(campaign)
    await s.flush()
    cid = campaign.id
    assert cid is not None
    new_book(s, cid, book)
    squares, entries = await asyncio.to_thread(_rows, cid, state, log)  # pure CPU (10,000 squares): off the loop
    await _insert(s, MapSquare, squares)
    await _insert(s, Player, [{"campaign_id": cid, "member_id": m, "side_key": side, "away_until": None}
                              for m, side in state.players.items()])
    await _insert(s, LogEntry, entries)
    state = replace(state, id=cid)
    empty = replace(state, sides={}, forces={}, leaders={}, declarations=(), battles={}, glory=(), leader_events=(),
                    seeds={}, players={}, requests={})
    ids: dict[str, dict[Any, int]] = {k: {} for k in ("side", "force", "unit", "leader", "declaration", "battle",
                                                       "seed")}
    return await repository.save(s, Loaded(empty, campaign, ids, s), state)


def _rows(cid: int, state: CampaignState, log: Iterable[Mapping[str, Any]]) -> tuple[list[dict[str, Any]],
                                                                                      list[dict[str, Any]]]:
    """The map's rows and the log's, as inserted: pure."""
    squares = [{"campaign_id": cid, "col": sq.col, "row": sq.row, "terrain": c.terrain.value,
                "features": sorted(f.value for f in c.features), "territory": c.territory, "stronghold": c.stronghold,
                "capital": c.capital, "river_flow": c.river_flow, **place_row(c.place)}
               for sq, c in state.map.cells.items()]
    return squares, [{"campaign_id": cid, "version": 0, **{k: e[k] for k in LOG_FIELDS}} for e in log]
