"""Map pictures for a reader: the GM's full view, a side's fog-of-war view (enemies in sight, and
faded markers where enemies were last seen), a public view (the map and the battles), and a crop
around a square. What each reader's map shows is decided in :func:`bot.campaign.views.map_view`;
rendering runs in a worker thread, a few at a time, off the event loop."""

from __future__ import annotations

import asyncio
import dataclasses

from bot.campaign import views as core
from bot.campaign.authority import Standing
from bot.campaign.sight import GM, Reader
from bot.campaign.state import CampaignState
from bot.engine.errors import InvalidInput
from bot.engine.grid import CampaignMap
from bot.engine.model import Square
from bot.engine.seasons import season_of, turn_date
from bot.engine.tables import RuleBook, default_rulebook
from bot.engine.text import Msg
from bot.render import Arrow, Counter, MapSnapshot, SideStyle, render_png, text_report
from bot.store.db import Database

from . import readcache
from .actors import Actor
from .errors import PermissionDenied

RENDERS_AT_ONCE = 2
_renders = asyncio.Semaphore(RENDERS_AT_ONCE)

VIEWS = ("side", "full", "public")


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
    date = turn_date(state.start_date, state.turn, rules=rules)
    weather = rules.weather.kinds.get(state.weather or "")
    return MapSnapshot(
        campaign=state.name, turn=state.turn, date=date.isoformat(), season=season_of(date, rules=rules).value,
        weather=weather.label if weather else Msg("weather not rolled"), phase=state.phase.spec.title,
        cmap=state.map, sides=tuple(SideStyle(key=k, name=sd.name, colour=sd.colour) for k, sd in state.sides.items()),
        counters=tuple(Counter(key=m.force, name=m.name, side=m.side, square=Square.parse(m.square), sp=m.sp,
                               order=m.order, reaction=m.reaction, faded=m.faded) for m in shown.markers),
        moves=tuple(Arrow(start=Square.parse(m.start), path=tuple(Square.parse(p) for p in m.path), side=m.side)
                    for m in shown.moves),
        battles=tuple(Square.parse(sq) for sq in shown.battles), view=label,
    )


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
    snap = cr.memo(("map", reader, label), lambda: _snapshot(cr.state, reader, label, rules), pin=rules)
    return (snap if snap.lang == lang else dataclasses.replace(snap, lang=lang)), key


async def map_png(db: Database, campaign_id: int, actor: Actor, *, view: str = "side", around: str | None = None,
                  radius: int = 3, rules: RuleBook | None = None, lang: str = "en") -> tuple[bytes, str]:
    """The PNG a reader may see, and its text situation report, both in the reader's language ``lang``."""
    snap, key = await snapshot(db, campaign_id, actor, view=view, rules=rules, lang=lang)
    centre = snap.cmap.parse(around) if around else None
    async with _renders:
        png = await asyncio.to_thread(render_png, snap, view=key, around=centre, radius=radius)
    return png, text_report(snap, view=key)
