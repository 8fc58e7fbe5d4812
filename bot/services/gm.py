"""GM corrections, deadlines and absences. Every correction is announced, to each reader as far as
fog of war allows (:func:`.sight.correction_notices`)."""

from __future__ import annotations

import datetime as dt
from dataclasses import dataclass

from sqlmodel import select

from bot.engine.errors import InvalidInput
from bot.engine.model import Order, Reaction, parse_enum
from bot.engine.text import Msg
from bot.store.db import Database
from bot.store.models import Player, utcnow

from .actors import Actor, require_gm, require_player
from .loading import get_campaign, load_state
from .logbook import log_event
from .sight import Change, Notice, correction_notices

MAX_DEADLINE_HOURS = 24 * 60
MAX_AWAY_DAYS = 60


@dataclass(frozen=True)
class Correction:
    force: str
    changes: tuple[str, ...]
    """The whole correction (the GM's)."""
    notices: tuple[Notice, ...] = ()
    """What each reader is told of it: the public, and each side that may see more."""


async def edit_force(db: Database, campaign_id: int, gm: Actor, force: str, *, square: str | None = None,
                     order: str | None = None, reaction: str | None = None, unit: str | None = None,
                     sp: int | None = None) -> Correction:
    """GM: correct a Force (square, order, reaction, a unit's SP). The public and each side are told
    as much of it as they may see; the Force's own side, all of it."""
    async with db.transaction() as s:
        campaign = await get_campaign(s, campaign_id, lock=True)
        require_gm(campaign, gm)
        state = await load_state(s, campaign)
        row = state.find_force(force)
        changes: list[Change] = []
        if square is not None:
            sq = state.cmap.parse(square)
            if state.cmap.cell(sq).terrain.is_water:
                raise InvalidInput("{sq} is water: put the Force on land.", sq=sq)
            changes.append(Change(Msg("square {before} -> {after}", before=row.square, after=str(sq)),
                                  moved=(row.square or str(sq), str(sq))))
            row.square = str(sq)
        if order is not None:
            new = parse_enum(Order, order, "order")
            changes.append(Change(Msg("order {before} -> {after}", before=row.order, after=new.value)))
            row.order = new.value
        if reaction is not None:
            new_r = None if reaction.strip().lower() in ("none", "") else parse_enum(Reaction, reaction, "reaction")
            changes.append(Change(Msg("reaction {before} -> {after}", before=row.reaction or Msg("none"),
                                      after=new_r.value if new_r else Msg("none"))))
            row.reaction = new_r.value if new_r else None
        if (unit is None) != (sp is None):
            raise InvalidInput("To correct a unit's strength give both the unit and its SP.")
        if unit is not None and sp is not None:
            if not 0 <= sp <= 10_000:
                raise InvalidInput("A unit's strength is 0 to 10,000 SP, not {sp}.", sp=sp)
            urow = next((u for u in state.units.get(row.key, []) if u.key == unit or u.name.lower() == unit.lower()), None)
            if urow is None:
                raise InvalidInput("{name} has no unit {unit!r}.", name=row.name, unit=unit)
            changes.append(Change(Msg("{unit} {before} -> {after} SP", unit=urow.name, before=urow.sp, after=sp)))
            urow.sp = sp
            s.add(urow)
        if not changes:
            raise InvalidInput("Nothing to correct: give a square, order, reaction, or a unit and its SP.")
        s.add(row)
        told = correction_notices(state, row, changes)
        for notice in told:
            await log_event(s, campaign, notice.text, kind="gm", visibility=notice.visibility)
        return Correction(row.name, tuple(c.text for c in changes), tuple(told))


async def set_deadline(db: Database, campaign_id: int, gm: Actor, hours: float,
                       *, now: dt.datetime | None = None) -> dt.datetime:
    """GM: the current phase ends ``hours`` from now (reminders go to those who have not acted)."""
    if not 0 < hours <= MAX_DEADLINE_HOURS:
        raise InvalidInput("A deadline is 1 minute to {max_deadline_hours} hours away, not {hours!r} hours.", max_deadline_hours=MAX_DEADLINE_HOURS, hours=hours)
    async with db.transaction() as s:
        campaign = await get_campaign(s, campaign_id, lock=True)
        require_gm(campaign, gm)
        campaign.deadline = (now or utcnow()) + dt.timedelta(hours=hours)
        campaign.options = {**campaign.options, "_reminded": []}
        s.add(campaign)
        await log_event(s, campaign, Msg("The GM set the phase deadline to {deadline:%Y-%m-%d %H:%M} UTC.", deadline=campaign.deadline), kind="gm")
        return campaign.deadline


async def declare_away(db: Database, campaign_id: int, actor: Actor, days: int,
                       *, now: dt.datetime | None = None) -> dt.datetime | None:
    """A player declares an absence (0 days ends it)."""
    if not 0 <= days <= MAX_AWAY_DAYS:
        raise InvalidInput("An absence is 0 to {max_away_days} days, not {days!r}.", max_away_days=MAX_AWAY_DAYS, days=days)
    async with db.transaction() as s:
        campaign = await get_campaign(s, campaign_id, lock=True)
        await require_player(s, campaign, actor)
        player = (await s.exec(select(Player).where(Player.campaign_id == campaign_id,
                                                    Player.member_id == actor.member_id))).one()
        player.away_until = (now or utcnow()) + dt.timedelta(days=days) if days else None
        s.add(player)
        who = actor.name or Msg("A player")
        await log_event(s, campaign, Msg("{who} is away for {days} day(s).", who=who, days=days) if days
                        else Msg("{who} is back.", who=who))
        return player.away_until
