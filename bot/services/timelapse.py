"""``/campaign timelapse``: the campaign turn by turn as an animated map, each frame drawn for the
reader's fog of war.

The frames are the ones kept at the end of each turn (:mod:`bot.store.frames`, written with the
resolution that ended it): one per ended turn, as the README says (issue 24, item 8). What each frame shows a reader is decided
by the campaign core exactly as for ``/campaign map`` (:func:`bot.campaign.frames.timeline`, then
:func:`bot.campaign.views.map_view`): a side sees its own Forces and the enemies within sight of them
in that frame (and faded markers where it last saw others); the GM on no side sees everything; a
member on no side sees the public view (the map and the battles). Drawing runs in a worker thread.
"""

from __future__ import annotations

import asyncio
import multiprocessing
import pickle
import weakref
from collections import OrderedDict
from collections.abc import Awaitable, Callable, Sequence
from concurrent.futures import ProcessPoolExecutor
from contextlib import AbstractAsyncContextManager, nullcontext
from dataclasses import dataclass

from sqlmodel.ext.asyncio.session import AsyncSession

from bot.campaign import codec
from bot.campaign import views as core
from bot.campaign.authority import Standing
from bot.campaign.frames import Frame, timeline
from bot.campaign.rulebook import rules_for
from bot.campaign.sight import GM, Reader
from bot.campaign.state import CampaignState
from bot.engine.model import Square
from bot.engine.seasons import season_of, turn_date
from bot.engine.tables import RuleBook, default_rulebook
from bot.engine.text import Msg
from bot.render import Arrow, Counter, MapSnapshot, SideStyle
from bot.render.timelapse import MAX_BYTES, MAX_FRAMES, crop_around, pick_frames, render_timelapse, timelapse_report
from bot.store import frames as store
from bot.store.db import Database

from . import readcache
from .actors import Actor
from .budget import quietly
from .maps import local_name, localised, results_of, retreats_of

FRAMES = "turn_frames"
"""The read cache's part holding the campaign's frames."""

Progress = Callable[[int], Awaitable[None]]
"""Told how many frames are about to be drawn, before the drawing starts."""


@dataclass(frozen=True)
class Timelapse:
    gif: bytes
    frames: int
    """How many frames it shows: one per ended turn, at most :data:`MAX_FRAMES`."""
    first_turn: int
    last_turn: int
    alt: str = ""
    """The timelapse in words, its alt text (:func:`bot.render.timelapse.timelapse_report`)."""

    @property
    def size(self) -> int:
        return len(self.gif)


def reader_of(state: CampaignState, st: Standing) -> tuple[Reader, str | None, Msg]:
    """Whose fog of war the frames are drawn for, the render's view key and the picture's label: a player
    (the GM too) their side's; the GM on no side everything; anybody else the public view."""
    if st.side is not None:
        return Reader(side=st.side), st.side, Msg("{name}'s view", name=state.sides[st.side].name)
    if st.gm:
        return GM, "gm", Msg("GM")
    return Reader(), None, Msg("public")


def snapshot_of(state: CampaignState, reader: Reader, label: Msg, rules: RuleBook, *, now: bool,
                lang: str = "en") -> MapSnapshot:
    """One frame as ``reader`` sees it (``state`` from :func:`~bot.campaign.frames.timeline`): the end of
    its turn (where the Forces stood and their strength: a frame keeps no orders, reactions or moves),
    or (``now``) the campaign as it is now; the squares out of the reader's sight veiled, the battles
    ringed in their winners' colours and the retreats the reader may know of (issue 22, item 3)."""
    shown = core.map_view(state, reader)
    rules = rules_for(state, rules)  # RU-10: the scenario's own calendar and weather
    date = turn_date(state.start_date, state.turn, rules=rules)
    weather = rules.weather.kinds.get(state.weather or "")
    return MapSnapshot(
        campaign=state.name, turn=state.turn, date=date.isoformat(), season=season_of(date, rules=rules).value,
        weather=weather.label if weather else "", phase=state.phase.spec.title if now else Msg("end of the turn"),
        cmap=state.map, sides=tuple(SideStyle(key=k, name=sd.name, colour=sd.colour) for k, sd in state.sides.items()),
        counters=tuple(Counter(key=m.force, name=m.name, side=m.side, square=Square.parse(m.square), sp=m.sp,
                               order=m.order if now else None, reaction=m.reaction if now else None, faded=m.faded)
                       for m in shown.markers),
        moves=tuple(Arrow(start=Square.parse(m.start), path=tuple(Square.parse(p) for p in m.path), side=m.side)
                    for m in shown.moves) if now else (),
        battles=tuple(Square.parse(sq) for sq in shown.battles), view=label, lang=lang,
        visible=shown.visible, results=results_of(shown), retreats=retreats_of(shown),
    )


def snapshots(state: CampaignState, frames: Sequence[Frame], reader: Reader, label: Msg, *,
              rules: RuleBook | None = None, lang: str = "en") -> list[MapSnapshot]:
    """Every frame as ``reader`` sees it, oldest first, the campaign now last."""
    rules = rules or default_rulebook()
    states = timeline(state, frames)
    return [snapshot_of(s, reader, label, rules, now=i == len(states) - 1, lang=lang) for i, s in enumerate(states)]


def crop(state: CampaignState, snaps: Sequence[MapSnapshot], reader: Reader) -> tuple[Square, int] | None:
    """For a side: the window around everything its frames show (its Forces and the enemies it saw),
    with its sight around them; None (the whole map) for the GM and the public, or when the window
    would hold most of the map."""
    if reader.side is None:
        return None
    squares = [c.square for s in snaps for c in s.counters] + [b for s in snaps for b in s.battles]
    return crop_around(state.map.width, state.map.height, squares, state.sight + 1)


async def _frames(s: AsyncSession, state: CampaignState) -> list[Frame]:
    rows = await store.load_frame_rows(s, state.id)
    return await asyncio.to_thread(quietly, store.frames_of, rows)  # decoded off the loop (issue 24)


Admit = Callable[[], AbstractAsyncContextManager[None]]
"""Called only when the GIF must be drawn (not for a cached one): the cog's gate and cooldowns
(:mod:`bot.services.budget`), which refuse or hold a slot while the frames are drawn."""

CACHE_ENTRIES = 64
CACHE_BYTES = 96 * 1024 * 1024
"""The GIFs kept: per campaign, reader's view and language, until the next turn ends (issue 24, item 1)."""
_caches: weakref.WeakKeyDictionary[Database, OrderedDict[tuple[object, ...], Timelapse]] = weakref.WeakKeyDictionary()


def _cache(db: Database) -> OrderedDict[tuple[object, ...], Timelapse]:
    cache = _caches.get(db)
    if cache is None:
        cache = _caches[db] = OrderedDict()
    return cache


def _cached(db: Database, key: tuple[object, ...]) -> Timelapse | None:
    cache = _cache(db)
    hit = cache.get(key)
    if hit is not None:
        cache.move_to_end(key)
    return hit


def _keep(db: Database, key: tuple[object, ...], lapse: Timelapse) -> None:
    cache = _cache(db)
    for old in [k for k in cache if k[0] == key[0] and k[-1] != key[-1]]:
        del cache[old]  # a campaign's GIFs of turns before the last one ended: never asked for again
    cache[key] = lapse
    while len(cache) > CACHE_ENTRIES or sum(v.size for v in cache.values()) > CACHE_BYTES:
        cache.popitem(last=False)


def forget_cached() -> None:
    """Drop every cached GIF (a host that wants the memory back)."""
    _caches.clear()


def draw(state: CampaignState, frames: Sequence[Frame], reader: Reader, key: str | None, label: Msg,
         rules: RuleBook, lang: str, max_bytes: int) -> Timelapse:
    """The GIF, in a worker thread: the campaign at each ended turn (the last-seen memory runs over every
    frame for a side), each frame the timelapse keeps drawn for ``reader``, then encoded."""
    frames = sorted(frames, key=lambda f: f.turn)
    picks = pick_frames(len(frames), MAX_FRAMES)
    if reader.side is None:  # the GM's or the public view carry no memory: only the kept frames are built
        kept = timeline(state, [frames[i] for i in picks], remember=False)[:-1]
    else:  # a side remembers what it saw in every frame, kept or not (faded markers)
        states = timeline(state, frames)[:-1]  # the ended turns, not the campaign now
        kept = [states[i] for i in picks]
    # the scenario's names in the reader's language, as the other maps say them (issue 23, item 4): here
    # from the state itself, as the worker process knows no campaign's names
    local = {k: local_name(state.names, lang, v) for k, v in label.params.items()}
    label = Msg(label.template, **local)  # i18n: passes a template on
    snaps = [localised(snapshot_of(s, reader, label, rules, now=False, lang=lang), state.names, lang) for s in kept]
    window = crop(state, snaps, reader)
    around, radius = window if window is not None else (None, 3)
    gif = render_timelapse(snaps, view=key, around=around, radius=radius, max_bytes=max_bytes)
    return Timelapse(gif, len(snaps), snaps[0].turn, snaps[-1].turn, timelapse_report(snaps, view=key))


def _packed(state: CampaignState, frames: Sequence[Frame]) -> bytes:
    """The state and frames for the worker process as plain data (the codec's document, the frames' JSON),
    pickled here: pickling 120 frames of 500 Forces as objects is one 0.5 s call holding the interpreter's
    lock, plain data a tenth of that (bench/abuse.py), and each frame pickled on its own, so that the
    event loop gets its turn between them (issue 24 item 6)."""
    each = [pickle.dumps(f.to_json(), protocol=pickle.HIGHEST_PROTOCOL) for f in frames]
    return pickle.dumps((codec.encode(state), each), protocol=pickle.HIGHEST_PROTOCOL)


def draw_packed(packed: bytes, reader: Reader, key: str | None, label: Msg, rules: RuleBook, lang: str,
                max_bytes: int) -> Timelapse:
    """:func:`draw` in the worker process, from :func:`_packed`'s data."""
    doc, frames = pickle.loads(packed)
    return draw(codec.decode(doc), [Frame.from_json(pickle.loads(f)) for f in frames], reader, key, label, rules,
                lang, max_bytes)


_pool: ProcessPoolExecutor | None = None


def _process_pool() -> ProcessPoolExecutor:
    """One worker process for timelapses (the gate admits one at a time), started afresh for each (its
    memory goes back to the system when it ends); spawned, not forked, from a process running threads."""
    global _pool
    if _pool is None:
        _pool = ProcessPoolExecutor(max_workers=1, mp_context=multiprocessing.get_context("spawn"),
                                    max_tasks_per_child=1)
    return _pool


async def timelapse_gif(db: Database, campaign_id: int, actor: Actor, *, lang: str = "en",
                        rules: RuleBook | None = None, progress: Progress | None = None,
                        max_bytes: int = MAX_BYTES, admit: Admit | None = None,
                        in_process: bool = False) -> Timelapse | None:
    """The campaign turn by turn as ``actor`` may see it, in their language ``lang``: an animated GIF with
    one frame per ended turn (since frames are kept; at most :data:`MAX_FRAMES`, evenly spread). None when
    no turn has ended since frames are kept. The GIF is kept for the same view and language until the
    next turn ends; only drawing one goes through ``admit``, and everything it costs runs in a worker
    thread (the fog-of-war views of the kept frames, the drawing, the encoding), or with ``in_process`` (the
    bot) in a worker process: a thread still shares the interpreter's lock and garbage collector with the
    event loop, which it stalled for 200-500 ms on the largest campaign (bench/abuse.py)."""
    rules = rules or default_rulebook()
    cr = await readcache.read(db, campaign_id, {FRAMES: _frames})
    state = cr.state
    frames: list[Frame] = [f for f in cr.parts[FRAMES] if f.turn < state.turn]
    if not frames:
        return None
    reader, key, label = reader_of(state, cr.standing(actor))
    names = tuple((k, sd.name, sd.colour) for k, sd in state.sides.items())
    cache_key = (campaign_id, key, lang, max_bytes, names, tuple(f.turn for f in frames))
    hit = _cached(db, cache_key)
    if hit is not None:
        return hit
    async with admit() if admit is not None else nullcontext():
        if progress is not None:
            await progress(len(pick_frames(len(frames), MAX_FRAMES)))
        if in_process:  # handed over as plain data, packed in a thread (see _packed)
            packed = await asyncio.to_thread(quietly, _packed, state, frames)
            lapse = await asyncio.get_running_loop().run_in_executor(
                _process_pool(), draw_packed, packed, reader, key, label, rules, lang, max_bytes)
        else:
            lapse = await asyncio.to_thread(quietly, draw, state, frames, reader, key, label, rules, lang, max_bytes)
    _keep(db, cache_key, lapse)
    return lapse
