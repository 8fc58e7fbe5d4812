"""``/campaign timelapse``: the campaign turn by turn as an animated map, each frame drawn for the
reader's fog of war.

The frames are the ones kept at the end of each turn (:mod:`bot.store.frames`, written with the
resolution that ended it), then the campaign as it is now. What each frame shows a reader is decided
by the campaign core exactly as for ``/campaign map`` (:func:`bot.campaign.frames.timeline`, then
:func:`bot.campaign.views.map_view`): a side sees its own Forces and the enemies within sight of them
in that frame (and faded markers where it last saw others); the GM on no side sees everything; a
member on no side sees the public view (the map and the battles). Drawing runs in a worker thread.
"""

from __future__ import annotations

import asyncio
from collections.abc import Awaitable, Callable, Sequence
from dataclasses import dataclass

from sqlmodel.ext.asyncio.session import AsyncSession

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
from .maps import results_of, retreats_of

FRAMES = "turn_frames"
"""The read cache's part holding the campaign's frames."""

Progress = Callable[[int], Awaitable[None]]
"""Told how many frames are about to be drawn, before the drawing starts."""


@dataclass(frozen=True)
class Timelapse:
    gif: bytes
    frames: int
    """How many frames it shows (the ended turns', at most :data:`MAX_FRAMES`, and the campaign now)."""
    first_turn: int
    last_turn: int
    alt: str = ""
    """The timelapse in words, its alt text (:func:`bot.render.timelapse.timelapse_report`)."""


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
    return await store.load_frames(s, state.id)


async def timelapse_gif(db: Database, campaign_id: int, actor: Actor, *, lang: str = "en",
                        rules: RuleBook | None = None, progress: Progress | None = None,
                        max_bytes: int = MAX_BYTES) -> Timelapse | None:
    """The campaign turn by turn as ``actor`` may see it, in their language ``lang``: an animated GIF of
    the ended turns' frames and the campaign now. None when no turn has ended since frames are kept."""
    rules = rules or default_rulebook()
    cr = await readcache.read(db, campaign_id, {FRAMES: _frames})
    frames: list[Frame] = cr.parts[FRAMES]
    state = cr.state
    if not any(f.turn < state.turn for f in frames):
        return None
    reader, key, label = reader_of(state, cr.standing(actor))
    snaps = snapshots(state, frames, reader, label, rules=rules, lang=lang)
    snaps = [snaps[i] for i in pick_frames(len(snaps), MAX_FRAMES)]
    window = crop(state, snaps, reader)
    if progress is not None:
        await progress(len(snaps))
    around, radius = window if window is not None else (None, 3)
    gif = await asyncio.to_thread(render_timelapse, snaps, view=key, around=around, radius=radius,
                                  max_bytes=max_bytes)
    return Timelapse(gif, len(snaps), snaps[0].turn, snaps[-1].turn, timelapse_report(snaps, view=key))
