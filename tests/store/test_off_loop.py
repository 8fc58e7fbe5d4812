"""The steps moved off the event loop (issue 24 item 6, issue 26 item 4) give what they gave on it: a
large campaign's state built from its rows in a worker thread, a large save's diff found there, and the
undo snapshot's JSON encoded there, on SQLite and PostgreSQL. ``OFF_LOOP_ROWS`` set to 0 sends every
campaign down the threaded path (the tutorial is far below the real threshold)."""

from __future__ import annotations

import asyncio
from dataclasses import replace
from typing import Any

import pytest
from sqlmodel import select

from bot.campaign import codec
from bot.campaign.state import ForceStatus
from bot.engine.model import Order
from bot.services import campaigns, resolution, views
from bot.store import repository, snapshots
from bot.store.models import Snapshot

from .conftest import FRENCH, GM
from .test_campaign_flow import fixed_seeds  # noqa: F401  (fixture re-used)


@pytest.fixture
def threaded(monkeypatch: pytest.MonkeyPatch) -> list[str]:
    """What ran in a worker thread (by function name), with every campaign counted as large."""
    ran: list[str] = []
    real = asyncio.to_thread

    async def to_thread(fn: Any, /, *args: Any, **kwargs: Any) -> Any:
        ran.append(getattr(fn, "__name__", repr(fn)))
        return await real(fn, *args, **kwargs)

    monkeypatch.setattr(repository.asyncio, "to_thread", to_thread)
    return ran


async def _campaign(db) -> int:
    created = await campaigns.create_campaign(db, guild_id=1, channel_id=2, gm=GM, name="Ulm", scenario="tutorial")
    await campaigns.join_side(db, created.campaign_id, FRENCH, "fr")
    return created.campaign_id


async def _loaded(db, cid: int) -> repository.Loaded:
    async with db.transaction() as s:
        return await repository.load(s, cid, lock=True)


async def test_a_state_built_in_a_worker_thread_is_the_one_built_on_the_loop(db, threaded, monkeypatch) -> None:
    cid = await _campaign(db)
    on_loop = await _loaded(db, cid)
    assert "_build" not in threaded
    monkeypatch.setattr(repository, "OFF_LOOP_ROWS", 0)
    off_loop = await _loaded(db, cid)
    assert "_build" in threaded
    assert off_loop.state == on_loop.state and off_loop.state.players == {FRENCH.member_id: "fr"}
    assert off_loop.ids == on_loop.ids


@pytest.mark.parametrize("off", [False, True])
async def test_a_save_s_diff_found_in_a_worker_thread_writes_the_same_rows(db, threaded, monkeypatch, off) -> None:
    cid = await _campaign(db)
    if off:
        monkeypatch.setattr(repository, "OFF_LOOP_ROWS", 0)
    async with db.transaction() as s:
        loaded = await repository.load(s, cid, lock=True)
        first = next(iter(loaded.state.forces))
        f = loaded.state.forces[first]
        new = loaded.state.with_forces([replace(f, order=Order.DEFEND, status=ForceStatus.REMOVED,
                                                units=(replace(f.units[0], sp=1), *f.units[1:]))])
        saved = await repository.save(s, loaded, new)
    assert ("_diffs" in threaded) is off
    again = (await _loaded(db, cid)).state
    assert again.forces == new.forces == saved.state.forces and again.sides == saved.state.sides
    assert again.forces[first].units[0].sp == 1 and again.forces[first].order is Order.DEFEND


async def test_the_snapshot_encoded_in_a_worker_thread_is_the_document_kept_before(db) -> None:
    cid = await _campaign(db)
    async with db.transaction() as s:
        loaded = await repository.load(s, cid, lock=True)
        snapshots.save_snapshot(s, loaded.campaign, loaded.state, snapshots.encoded_game(loaded.state))
    async with db.sessions() as s:
        kept = (await s.exec(select(Snapshot).where(Snapshot.campaign_id == cid))).one()
    assert kept.state == {"campaign": {"turn": loaded.state.turn, "phase": int(loaded.state.phase)},
                          snapshots.CODEC: codec.encode_game(loaded.state)}
    assert snapshots.game_of(kept, loaded.state) == loaded.state


async def test_a_resolution_undone_comes_back_to_the_state_before_it(db, fixed_seeds, monkeypatch) -> None:  # noqa: F811
    """The whole path: the resolution's snapshot encoded in its worker thread, the load and the save's
    diff in theirs, and undo restores the state from before the resolution."""
    monkeypatch.setattr(repository, "OFF_LOOP_ROWS", 0)
    cid = await _campaign(db)
    before = (await _loaded(db, cid)).state
    st = await views.status(db, cid, GM)
    await resolution.resolve_phase(db, cid, GM, expected_version=st.version, forced=True)
    assert (await _loaded(db, cid)).state.phase != before.phase
    st = await views.status(db, cid, GM)
    await resolution.undo(db, cid, GM, expected_version=st.version)
    after = (await _loaded(db, cid)).state
    assert (after.turn, after.phase, after.forces, after.sides.keys()) == (before.turn, before.phase, before.forces,
                                                                           before.sides.keys())


@pytest.mark.parametrize("value", [
    {"a": [1, 2.5, None, True, "é\u2028\"q\""] * 20, "b": {"c": list(range(40)), "d": {}}, "e": []},
    [{"k": i, "v": [str(i)] * 20} for i in range(30)],
    {1: "int keys", "x": [1] * 20},
    "plain",
])
def test_json_encoded_item_by_item_is_json_dumps_to_the_character(value) -> None:
    import json

    from bot.store.models import encoded

    assert encoded(value) == json.dumps(value)


async def test_the_snapshot_of_a_large_campaign_is_encoded_as_json_dumps_would(db) -> None:
    import json

    cid = await _campaign(db)
    state = (await _loaded(db, cid)).state
    assert snapshots.encoded_game(state) == json.dumps(codec.encode_game(state))
