"""Map pictures for a reader: the GM's full view, a side's fog-of-war view (enemies in sight, and
faded markers where enemies were last seen, the squares out of sight veiled), a public view (the map
and the battles), each either near (legible on a phone: a few squares around a given square or the
reader's own Forces) or the whole map. What each reader's map shows is decided in
:func:`bot.campaign.views.map_view` and :mod:`bot.campaign.sight`; rendering runs in a worker thread,
a few at a time, off the event loop.

The public view veils nothing: it shows no Force at all, only the map and the battles (public news),
so there is nothing a veil would tell apart. The phase card's public map is posted only when what it
shows changed since the last card (:func:`public_map_changed`)."""

from __future__ import annotations

import asyncio
import dataclasses
import hashlib
from collections.abc import Mapping
from dataclasses import replace

from bot.campaign import views as core
from bot.campaign.authority import Standing
from bot.campaign.frames import Frame, at
from bot.campaign.rulebook import rules_for
from bot.campaign.sight import GM, Reader, visible_squares  # noqa: F401 (visible_squares: re-exported)
from bot.campaign.state import CampaignState
from bot.engine.errors import InvalidInput
from bot.engine.grid import CampaignMap
from bot.engine.model import Square
from bot.engine.seasons import season_of, turn_date
from bot.engine.tables import RuleBook, default_rulebook
from bot.engine.text import Msg
from bot.render import Arrow, BattleResult, Counter, MapSnapshot, SideStyle, map_fingerprint, render_png, text_report
from bot.store.db import Database

from . import bookkeeping, readcache
from .actors import Actor
from .errors import PermissionDenied

RENDERS_AT_ONCE = 2
_renders = asyncio.Semaphore(RENDERS_AT_ONCE)

VIEWS = ("side", "full", "public")
EXTENTS = ("near", "whole")
"""``near``: legible on a phone, around the square asked for or the reader's own Forces (the whole map
for a reader with none); ``whole``: the whole map."""
# The fingerprint of the last phase card's public map is kept in the campaign's book (``map_card``):
# never exported, so an imported campaign's first card carries its map.


def _reader(state: CampaignState, st: Standing, view: str) -> tuple[Reader, str | None, Msg]:
    """Who the picture is for: the fog-of-war reader, the render's view key (a side key, ``gm``, or
    None) and the picture's label. A GM on no side sees the full map as their side view."""
    if view not in VIEWS:
        raise InvalidInput("Unknown map view {view!r}: side, full (GM only) or public.", view=view)
    if view == "full" and not st.gm:
        raise PermissionDenied("Only the GM may see the full map.")
    if view == "full" or (st.gm and st.side is None and view == "side"):
        return GM, "gm", Msg("GM")
    if view == "public" or st.side is None:
        return Reader(), None, Msg("public")
    return Reader(side=st.side), st.side, Msg("{name}'s view", name=state.sides[st.side].name)


def _snapshot(state: CampaignState, reader: Reader, label: str, rules: RuleBook) -> MapSnapshot:
    shown = core.map_view(state, reader)
    rules = rules_for(state, rules)  # RU-10: the scenario's own calendar and weather
    date = turn_date(state.start_date, state.turn, rules=rules)
    weather = rules.weather.kinds.get(state.weather_now or "")
    return MapSnapshot(
        campaign=state.name, turn=state.turn, date=date.isoformat(), season=season_of(date, rules=rules).value,
        weather=weather.label if weather else Msg("weather not rolled"), phase=state.phase.spec.title,
        cmap=state.map, sides=tuple(SideStyle(key=k, name=sd.name, colour=sd.colour) for k, sd in state.sides.items()),
        counters=tuple(Counter(key=m.force, name=m.name, side=m.side, square=Square.parse(m.square), sp=m.sp,
                               order=m.order, reaction=m.reaction, faded=m.faded) for m in shown.markers),
        moves=tuple(Arrow(start=Square.parse(m.start), path=tuple(Square.parse(p) for p in m.path), side=m.side)
                    for m in shown.moves),
        battles=tuple(Square.parse(sq) for sq in shown.battles), view=label, visible=shown.visible,
        results=results_of(shown), retreats=retreats_of(shown),
    )


def results_of(shown: core.MapView) -> tuple[BattleResult, ...]:
    """The reported battles' winners (public news), for their marks."""
    return tuple(BattleResult(Square.parse(b.square), b.winner) for b in shown.results if b.reported)


def retreats_of(shown: core.MapView) -> tuple[Arrow, ...]:
    """The retreats the reader knows of (MC-7.3), as dashed arrows."""
    return tuple(Arrow(start=Square.parse(m.start), path=tuple(Square.parse(p) for p in m.path), side=m.side)
                 for m in shown.retreats)


def turn_snapshot(state: CampaignState, frame: Frame, reader: Reader, label: Msg, rules: RuleBook, *,
                  lang: str = "en") -> MapSnapshot:
    """The map of an ended turn as its frame keeps it (:mod:`bot.campaign.frames`), for ``reader``: the turn,
    date and weather it had, its battles ringed in their winners' colours and the retreats the reader may
    know of (issue 22, item 3: the gazette draws this, not the next turn's map)."""
    then = at(state, frame)
    shown = core.map_view(then, reader)
    rules = rules_for(state, rules)
    weather = rules.weather.kinds.get(frame.weather or "")
    date = turn_date(state.start_date, frame.turn, rules=rules)
    snap = MapSnapshot(
        campaign=state.name, turn=frame.turn, date=frame.date or date.isoformat(),
        season=season_of(date, rules=rules).value, weather=weather.label if weather else "",
        phase=Msg("end of the turn"), cmap=state.map,
        sides=tuple(SideStyle(key=k, name=sd.name, colour=sd.colour) for k, sd in state.sides.items()),
        counters=tuple(Counter(key=m.force, name=m.name, side=m.side, square=Square.parse(m.square), sp=m.sp,
                               faded=m.faded) for m in shown.markers),
        battles=tuple(Square.parse(sq) for sq in shown.battles), results=results_of(shown),
        retreats=retreats_of(shown), view=label, visible=shown.visible, lang=lang)
    return localised(snap, state.names, lang)


async def turn_png(db: Database, campaign_id: int, frame: Frame, *, rules: RuleBook | None = None,
                   lang: str = "en") -> tuple[bytes, str]:
    """The public picture of an ended turn (its gazette's) and its text report (the picture's alt text):
    around its battle when it had one, else the whole map; legible on a phone."""
    rules = rules or default_rulebook()
    cr = await readcache.read(db, campaign_id)
    async with _renders:  # the turn's fog of war (2,000 Forces), its picture and report: all off the loop
        return await asyncio.to_thread(_turn_png, cr.state, frame, rules, lang)


def _turn_png(state: CampaignState, frame: Frame, rules: RuleBook, lang: str) -> tuple[bytes, str]:
    snap = turn_snapshot(state, frame, Reader(), Msg("public"), rules, lang=lang)
    squares = list(dict.fromkeys(snap.battles))
    centre = squares[0] if len(squares) == 1 else None
    return render_png(snap, around=centre, phone=centre is not None), text_report(snap)


def content_hash(snap: MapSnapshot) -> str:
    """A fingerprint of what a map shows (the ground, the sides, the Forces, moves, battles and the squares
    in sight), not of its title band: the turn, date, weather and phase change every phase."""
    parts = (map_fingerprint(snap.cmap), snap.sides, sorted(snap.counters, key=lambda c: c.key), snap.moves,
             sorted(snap.battles), None if snap.visible is None else sorted(snap.visible))
    return hashlib.sha256(repr(parts).encode()).hexdigest()[:32]


async def campaign_map(db: Database, campaign_id: int) -> CampaignMap:
    """The campaign's whole map (terrain, strongholds, rivers: what every reader may see)."""
    return (await readcache.read(db, campaign_id)).state.map


async def snapshot(db: Database, campaign_id: int, actor: Actor, *, view: str = "side",
                   rules: RuleBook | None = None, lang: str = "en") -> tuple[MapSnapshot, str | None]:
    """The snapshot a reader may see, in the reader's language ``lang``, and the render view key (a
    side key, ``gm``, or None)."""
    rules = rules or default_rulebook()
    cr = await readcache.read(db, campaign_id)
    reader, key, label = _reader(cr.state, cr.standing(actor), view)
    snap = await cr.memo_off_loop(("map", reader, label), lambda: _snapshot(cr.state, reader, label, rules), pin=rules)
    snap = snap if snap.lang == lang else dataclasses.replace(snap, lang=lang)
    return localised(snap, cr.state.names, lang), key


def name_book(names: Mapping[str, Mapping[str, str]], lang: str) -> dict[str, str]:
    """The scenario's names (as the campaign keeps them) that ``lang`` says otherwise, and how."""
    book = {said.get("en") or next(iter(said.values())): said[lang] for said in names.values() if said.get(lang)}
    return {kept: local for kept, local in book.items() if kept != local}


def local_name(names: Mapping[str, Mapping[str, str]], lang: str, value: object) -> object:
    """``value`` in ``lang`` when it is one of the scenario's names (anything else as it is)."""
    return name_book(names, lang).get(value, value) if isinstance(value, str) else value


def localised(snap: MapSnapshot, names: Mapping[str, Mapping[str, str]], lang: str) -> MapSnapshot:
    """``snap`` with the scenario's sides, Forces and places named in ``lang`` where it names them so
    (issue 23, item 4); as it is otherwise."""
    book = name_book(names, lang)
    if not book:
        return snap
    cells = {sq: dataclasses.replace(c, place=dataclasses.replace(c.place, name=book[c.place.name]))
             for sq, c in snap.cmap.cells.items() if c.place is not None and c.place.name in book}
    cmap = dataclasses.replace(snap.cmap, cells={**snap.cmap.cells, **cells}) if cells else snap.cmap
    return dataclasses.replace(
        snap, cmap=cmap, sides=tuple(dataclasses.replace(s, name=book.get(s.name, s.name)) for s in snap.sides),
        counters=tuple(dataclasses.replace(c, name=book.get(c.name, c.name)) for c in snap.counters))


async def map_png(db: Database, campaign_id: int, actor: Actor, *, view: str = "side", around: str | None = None,
                  radius: int = 3, rules: RuleBook | None = None, lang: str = "en",
                  extent: str = "near") -> tuple[bytes, str]:
    """The PNG a reader may see, and its text situation report, both in the reader's language ``lang``.
    ``extent`` (:data:`EXTENTS`): ``near`` draws the squares around ``around``, else around the reader's
    own Forces, legible on a phone (``radius`` is then not used); ``whole`` the whole map (or the
    ``radius`` squares around ``around``)."""
    if extent not in EXTENTS:
        raise InvalidInput("Unknown map extent {extent!r}: near or whole.", extent=extent)
    snap, key = await snapshot(db, campaign_id, actor, view=view, rules=rules, lang=lang)
    centre = snap.cmap.parse(around) if around else None
    async with _renders:  # the picture and its report, pure CPU: off the loop
        return await asyncio.to_thread(lambda: (render_png(snap, view=key, around=centre, radius=radius,
                                                           phone=extent == "near"), text_report(snap, view=key)))


async def public_map_changed(db: Database, campaign_id: int, *, rules: RuleBook | None = None) -> bool:
    """Whether the public map shows anything the last phase card's did not (True the first time), and
    remember what it shows now (in the campaign's book, so a restart does not forget it; a bookkeeping
    write, which leaves the game in the read cache)."""
    rules = rules or default_rulebook()
    cr = await readcache.read(db, campaign_id)
    reader, _, label = _reader(cr.state, Standing(gm=False, side=None), "public")
    snap = await cr.memo_off_loop(("map", reader, label), lambda: _snapshot(cr.state, reader, label, rules), pin=rules)
    now = content_hash(snap)
    if (await bookkeeping.book(db, campaign_id)).map_card == now:
        return False
    await bookkeeping.change(db, campaign_id, lambda b: replace(b, map_card=now))
    return True
