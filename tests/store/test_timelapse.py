"""The timelapse (issue 15): a frame kept with the resolution that ends each turn, on SQLite and
PostgreSQL, and the animated map each reader gets from them."""

from __future__ import annotations

import io
from contextlib import asynccontextmanager

import pytest
from PIL import Image
from sqlmodel import select

from bot.engine.phases import Phase
from bot.services import gm, timelapse
from bot.services.budget import Budget, Heavy, Limits
from bot.services.errors import TooSoon
from bot.store.frames import load_frames
from bot.store.models import TurnFrame

from .conftest import AUSTRIAN, FRENCH, GM, OUTSIDER
from .test_campaign_flow import advance, fixed_seeds, tutorial  # noqa: F401  (fixture re-used)


async def end_turn(db, cid: int) -> None:
    """From a turn's orders to the next turn's orders, nobody acting."""
    await advance(db, cid, forced=True)  # orders -> movement
    res = await advance(db, cid, forced=True)  # nobody moves: phases 3-8 and the next turn's weather run by themselves
    assert res.turn_ended and res.after.phase is Phase.ORDERS


async def frames_of(db, cid: int) -> list[TurnFrame]:
    async with db.sessions() as s:
        return list((await s.exec(select(TurnFrame).where(TurnFrame.campaign_id == cid)
                                  .order_by(TurnFrame.turn))).all())


async def test_the_resolution_that_ends_a_turn_keeps_its_frame_and_no_other_does(db) -> None:
    cid = await tutorial(db)
    await advance(db, cid)  # weather -> orders
    await advance(db, cid, forced=True)  # orders -> movement
    assert await frames_of(db, cid) == []
    await gm.edit_force(db, cid, GM, "mack", square="E4")
    res = await advance(db, cid, forced=True)  # movement ... turn 2's orders
    assert res.turn_ended
    (row,) = await frames_of(db, cid)
    assert row.turn == 1 and row.frame["turn"] == 1 and row.frame["date"] == "1805-10-07"
    forces = {f[0]: f for f in row.frame["forces"]}
    assert forces["mack"][1:4] == ["au", "Army of Mack", "E4"] and forces["soult"][3] == "C4"
    assert "ney" not in forces  # arrives on turn 2: not on the map at the end of turn 1
    assert all(isinstance(f[4], int) and f[4] > 0 for f in forces.values())
    await end_turn(db, cid)
    async with db.sessions() as s:
        frames = await load_frames(s, cid)
    assert [f.turn for f in frames] == [1, 2]


async def test_no_turn_ended_yet_means_no_timelapse(db) -> None:
    cid = await tutorial(db)
    await advance(db, cid)
    assert await timelapse.timelapse_gif(db, cid, FRENCH) is None


async def test_each_reader_gets_one_frame_per_ended_turn_in_a_small_gif(db) -> None:
    """Issue 24, item 8: the README promises one frame per ended turn; 2 ended turns are 2 frames."""
    cid = await tutorial(db)
    await advance(db, cid)
    await end_turn(db, cid)
    await end_turn(db, cid)
    told: list[int] = []

    async def progress(n: int) -> None:
        told.append(n)

    for who in (FRENCH, AUSTRIAN, GM, OUTSIDER):
        lapse = await timelapse.timelapse_gif(db, cid, who, progress=progress)
        assert lapse is not None
        assert lapse.gif.startswith(b"GIF89a") and len(lapse.gif) < 8 * 1024 * 1024
        image = Image.open(io.BytesIO(lapse.gif))
        assert image.n_frames == 2 == lapse.frames  # turns 1 and 2 ended; turn 3 is under way
        assert image.width <= 800
        assert (lapse.first_turn, lapse.last_turn) == (1, 2)
    assert told == [2, 2, 2, 2]


async def test_a_gif_is_kept_per_view_until_the_next_turn_ends_and_only_drawing_passes_the_gate(db) -> None:
    """Issue 24, item 1: the second request of a view is the GIF already drawn, without the gate; a new
    ended turn draws it again."""
    cid = await tutorial(db)
    await advance(db, cid)
    await end_turn(db, cid)
    admitted: list[str] = []

    def admit(who: str):  # type: ignore[no-untyped-def]
        @asynccontextmanager
        async def gate():  # type: ignore[no-untyped-def]
            admitted.append(who)
            yield

        return gate

    first = await timelapse.timelapse_gif(db, cid, FRENCH, admit=admit("fr"))
    again = await timelapse.timelapse_gif(db, cid, FRENCH, admit=admit("fr again"))
    assert first is not None and again is first and admitted == ["fr"]
    await timelapse.timelapse_gif(db, cid, AUSTRIAN, admit=admit("au"))  # another view: drawn
    await timelapse.timelapse_gif(db, cid, FRENCH, lang="fr", admit=admit("fr in French"))  # another language
    assert admitted == ["fr", "au", "fr in French"]
    await end_turn(db, cid)
    later = await timelapse.timelapse_gif(db, cid, FRENCH, admit=admit("fr turn 2"))
    assert admitted[-1] == "fr turn 2" and later is not None and later.frames == 2


async def test_a_refused_admission_draws_nothing_and_keeps_nothing(db) -> None:
    cid = await tutorial(db)
    await advance(db, cid)
    await end_turn(db, cid)
    budget = Budget(Heavy.TIMELAPSE, Limits(slots=1, member_seconds=60, campaign_seconds=0), clock=lambda: 100.0)
    await timelapse.timelapse_gif(db, cid, GM, admit=lambda: budget.admit(member=1, campaign=cid))
    with pytest.raises(TooSoon) as refused:
        await timelapse.timelapse_gif(db, cid, FRENCH, admit=lambda: budget.admit(member=1, campaign=cid))
    assert "one every 60 s per member" in str(refused.value)


async def test_views_are_built_only_for_the_frames_kept_and_in_a_worker_thread(db, monkeypatch) -> None:
    """Issue 24, item 1: 121 ended turns kept 60 frames; the fog-of-war view of each was built on the
    event loop for every frame before the 60 were picked."""
    import threading

    cid = await tutorial(db)
    await advance(db, cid)
    await end_turn(db, cid)
    await end_turn(db, cid)
    await end_turn(db, cid)
    built: list[tuple[int, bool]] = []
    real = timelapse.snapshot_of
    loop_thread = threading.get_ident()

    def spy(state, *args, **kwargs):  # type: ignore[no-untyped-def]
        built.append((state.turn, threading.get_ident() == loop_thread))
        return real(state, *args, **kwargs)

    monkeypatch.setattr(timelapse, "snapshot_of", spy)
    monkeypatch.setattr(timelapse, "MAX_FRAMES", 2)
    lapse = await timelapse.timelapse_gif(db, cid, FRENCH)
    assert lapse is not None and lapse.frames == 2 and (lapse.first_turn, lapse.last_turn) == (1, 3)
    assert built == [(1, False), (3, False)]


async def test_a_frame_shows_a_side_only_the_enemies_it_saw_then(db) -> None:
    cid = await tutorial(db)
    await advance(db, cid)
    await gm.edit_force(db, cid, GM, "mack", square="E4")  # within 2 squares of Soult at C4
    await end_turn(db, cid)  # turn 1 ends with Mack in sight
    await gm.edit_force(db, cid, GM, "mack", square="K8")
    await end_turn(db, cid)  # turn 2 ends with Mack far away
    from bot.services.readcache import read

    cr = await read(db, cid, {timelapse.FRAMES: timelapse._frames})
    reader, _, label = timelapse.reader_of(cr.state, cr.standing(FRENCH))
    snaps = timelapse.snapshots(cr.state, cr.parts[timelapse.FRAMES], reader, label)
    first, second = ({c.key: c for c in s.counters} for s in snaps[:2])
    assert not first["mack"].faded and str(first["mack"].square) == "E4" and first["mack"].sp is None
    assert first["soult"].sp is not None and "werneck" not in first
    assert second["mack"].faded and str(second["mack"].square) == "E4"  # last seen there, not at K8
    reader, _, label = timelapse.reader_of(cr.state, cr.standing(OUTSIDER))
    assert all(s.counters == () for s in timelapse.snapshots(cr.state, cr.parts[timelapse.FRAMES], reader, label))
    reader, _, label = timelapse.reader_of(cr.state, cr.standing(GM))
    gm_first = {c.key for c in timelapse.snapshots(cr.state, cr.parts[timelapse.FRAMES], reader, label)[0].counters}
    assert {"soult", "lannes", "mack", "werneck"} <= gm_first


async def test_the_bot_draws_a_timelapse_in_a_worker_process(db) -> None:
    """Issue 24, items 1 and 6: drawn in a thread, the largest campaign's timelapse still stalled the event
    loop 200-500 ms (the interpreter's lock and garbage collector are shared); the bot draws it in a
    worker process, which gives back the same GIF."""
    cid = await tutorial(db)
    await advance(db, cid)
    await end_turn(db, cid)
    await end_turn(db, cid)
    in_thread = await timelapse.timelapse_gif(db, cid, FRENCH)
    timelapse.forget_cached()
    in_process = await timelapse.timelapse_gif(db, cid, FRENCH, in_process=True)
    assert in_thread is not None and in_process is not None and in_process is not in_thread
    assert in_process.gif == in_thread.gif and in_process.frames == 2
