"""One read per resolution (issue 26 item 3, issue 22 item 1): the undo snapshot is taken from the state
already loaded, through the codec, and nothing is read back after the save; undo restores through the
codec too, and a snapshot kept as rows before that is still restored."""

from __future__ import annotations

import dataclasses
from typing import Any

import pytest
from sqlalchemy import event
from sqlmodel import select

from bot.campaign.state import CampaignState
from bot.services import orders, resolution, views
from bot.store import repository, snapshots
from bot.store.db import Database
from bot.store.models import Snapshot
from bot.store.snapshots import CODEC

from .conftest import FRENCH, GM
from .test_campaign_flow import advance, fixed_seeds, tutorial  # noqa: F401  (fixture re-used)


def _game(state: CampaignState) -> CampaignState:
    """The state without the bot's bookkeeping under "_" in the options (the row's write stamp)."""
    return dataclasses.replace(state, options={k: v for k, v in state.options.items() if not k.startswith("_")})


class Selects:
    def __init__(self, db: Database) -> None:
        self.seen: list[str] = []
        event.listen(db.engine.sync_engine, "before_cursor_execute", self._on)

    def _on(self, _conn: Any, _cursor: Any, statement: str, *_args: Any) -> None:
        self.seen.append(statement.lstrip().split(None, 1)[0].upper())


async def test_a_resolution_from_the_read_cache_reads_only_its_locked_row(db: Database,
                                                                          monkeypatch: pytest.MonkeyPatch) -> None:
    cid = await tutorial(db)
    await advance(db, cid)  # weather -> orders
    await orders.give_order(db, cid, FRENCH, "lannes", "forced_march")
    st = await views.status(db, cid, GM)
    loads: list[int] = []
    load = repository.load

    async def loading(s: Any, campaign: Any) -> Any:
        loads.append(campaign.id)
        return await load(s, campaign)

    monkeypatch.setattr(repository, "load", loading)
    selects = Selects(db)
    await resolution.resolve_phase(db, cid, GM, expected_version=st.version, forced=True)
    assert loads == []  # the cached state, not a whole load
    assert selects.seen.count("SELECT") == 1  # the campaign's row, locked: no snapshot dump, no id refresh
    async with db.sessions() as s:
        snap = (await s.exec(select(Snapshot).where(Snapshot.campaign_id == cid))).all()[-1]
    assert CODEC in snap.state and snap.state["campaign"]["phase"] == 1


async def test_undo_through_the_codec_gives_back_the_state_before_the_resolution(db: Database) -> None:
    cid = await tutorial(db)
    await advance(db, cid)
    await orders.give_order(db, cid, FRENCH, "lannes", "forced_march")
    async with db.sessions() as s:
        before = (await repository.load(s, cid)).state
    await advance(db, cid, forced=True)
    st = await views.status(db, cid, GM)
    await resolution.undo(db, cid, GM, expected_version=st.version)
    async with db.sessions() as s:
        after = (await repository.load(s, cid)).state
    assert _game(after) == _game(before)


async def test_a_snapshot_kept_as_rows_before_the_codec_is_still_restored(db: Database) -> None:
    cid = await tutorial(db)
    await advance(db, cid)
    await orders.give_order(db, cid, FRENCH, "lannes", "forced_march")
    async with db.transaction() as s:
        campaign = await repository.get_campaign_row(s, cid, lock=True)
        before = (await repository.load(s, campaign)).state
        rows = (await snapshots.save_rows_snapshot(s, campaign)).state
    await advance(db, cid, forced=True)
    async with db.transaction() as s:
        snaps = await snapshots.list_snapshots(s, cid)
        newest = next(x for x in snaps if CODEC in x.state)
        newest.state = rows  # as an older bot kept it
        s.add(newest)
        for other in snaps:
            if other is not newest and other.version == newest.version:
                await s.delete(other)
    st = await views.status(db, cid, GM)
    await resolution.undo(db, cid, GM, expected_version=st.version)
    async with db.sessions() as s:
        after = (await repository.load(s, cid)).state
    assert _game(after) == _game(before)
