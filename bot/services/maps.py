"""Map pictures for a reader: the GM's full view, a side's fog-of-war view (enemies in sight, and
faded markers where enemies were last seen), a public view (the map and the battles), and a crop
around a square. Rendering runs in a worker thread, a few at a time, off the event loop."""

from __future__ import annotations

import asyncio

from sqlmodel import select
from sqlmodel.ext.asyncio.session import AsyncSession

from bot.engine.errors import InvalidInput
from bot.engine.model import Square
from bot.engine.phases import Phase
from bot.engine.seasons import season_of, turn_date
from bot.engine.tables import RuleBook, default_rulebook
from bot.render import Arrow, Counter, MapSnapshot, SideStyle, render_png, text_report
from bot.store.db import Database
from bot.store.models import BattleRow, Declaration

from .actors import Actor, standing
from .errors import PermissionDenied
from .loading import State, get_campaign, load_state
from .views import visible_force_keys

RENDERS_AT_ONCE = 2
_renders = asyncio.Semaphore(RENDERS_AT_ONCE)


def record_sightings(state: State) -> None:
    """Each side remembers where it last saw every enemy Force (for faded markers once out of sight)."""
    from .actors import Standing

    for key, side in state.sides.items():
        seen = visible_force_keys(state, Standing(Actor(0), False, key))
        memory = {fk: sq for fk, sq in side.last_seen.items() if fk in state.forces and state.forces[fk].state == "active"}
        for fk in seen:
            f = state.forces[fk]
            if f.side_key != key and f.square:
                memory[fk] = f.square
        if memory != side.last_seen:
            side.last_seen = memory


async def snapshot(s: AsyncSession, campaign_id: int, actor: Actor, *, view: str = "side",
                   rules: RuleBook | None = None) -> tuple[MapSnapshot, str | None]:
    """The snapshot a reader may see, and the render view key (a side key, ``gm``, or None)."""
    rules = rules or default_rulebook()
    campaign = await get_campaign(s, campaign_id)
    st = await standing(s, campaign, actor)
    if view not in ("side", "full", "public"):
        raise InvalidInput("Unknown map view {view!r}: side, full (GM only) or public.", view=view)
    if view == "full" and not st.gm:
        raise PermissionDenied("Only the GM may see the full map.")
    state = await load_state(s, campaign)
    if view == "full" or (st.gm and st.side is None and view == "side"):
        shown, reader, label = {f.key for f in state.active()}, "gm", "GM"
    elif view == "public" or st.side is None:
        shown, reader, label = set(), None, "public"
    else:
        shown, reader, label = visible_force_keys(state, st), st.side, f"{state.sides[st.side].name}'s view"
    counters = []
    for key in sorted(shown):
        f = state.forces[key]
        own = reader == "gm" or f.side_key == reader
        units = state.units.get(key, [])
        counters.append(Counter(key=key, name=f.name, side=f.side_key, square=Square.parse(f.square or "A1"),
                                sp=sum(u.sp for u in units) if own else None,
                                order=f.order if own else None, reaction=f.reaction if own else None))
    if reader not in (None, "gm"):
        for fk, sq in state.sides[reader].last_seen.items():
            if fk not in shown and fk in state.forces and state.forces[fk].state == "active":
                f = state.forces[fk]
                counters.append(Counter(key=fk, name=f.name, side=f.side_key, square=Square.parse(sq), faded=True))
    moves = []
    if campaign.phase > Phase.MOVEMENT:
        decls = (await s.exec(select(Declaration).where(
            Declaration.campaign_id == campaign_id, Declaration.turn == campaign.turn,
            Declaration.phase == int(Phase.MOVEMENT), Declaration.kind == "move"))).all()
        for d in decls:
            if reader == "gm" or d.side_key == reader:
                path = tuple(Square.parse(p) for p in d.payload.get("path", []))[: int(d.payload.get("allowance", 0))]
                start = d.payload.get("start")
                if path and start:
                    moves.append(Arrow(start=Square.parse(start), path=path, side=d.side_key))
    battles = tuple(Square.parse(b.square) for b in (await s.exec(select(BattleRow).where(
        BattleRow.campaign_id == campaign_id, BattleRow.turn == campaign.turn))).all())
    date = turn_date(campaign.start_date, campaign.turn, rules=rules)
    weather = rules.weather.kinds.get(campaign.weather or "")
    snap = MapSnapshot(
        campaign=campaign.name, turn=campaign.turn, date=f"{date:%d %b %Y}", season=season_of(date, rules=rules).value,
        weather=weather.label if weather else "weather not rolled", phase=Phase(campaign.phase).spec.title,
        cmap=state.cmap, sides=tuple(SideStyle(key=k, name=sd.name, colour=sd.colour) for k, sd in state.sides.items()),
        counters=tuple(counters), moves=tuple(moves), battles=battles, view=label,
    )
    return snap, reader


async def map_png(db: Database, campaign_id: int, actor: Actor, *, view: str = "side", around: str | None = None,
                  radius: int = 3, rules: RuleBook | None = None) -> tuple[bytes, str]:
    """The PNG a reader may see, and its text situation report."""
    async with db.sessions() as s:
        snap, reader = await snapshot(s, campaign_id, actor, view=view, rules=rules)
    centre = snap.cmap.parse(around) if around else None
    async with _renders:
        png = await asyncio.to_thread(render_png, snap, view=reader, around=centre, radius=radius)
    return png, text_report(snap, view=reader)
