"""The GM's corrections, the phase deadline and a player's absence.

Every correction is announced, to each reader as far as fog of war allows (:func:`correction_notices`).
The deadline and the absence themselves are the bot's bookkeeping (kept with the campaign row and
the player, not in the state): here they are checked, authorised and announced.
"""

from __future__ import annotations

import datetime as dt
from collections.abc import Iterable
from dataclasses import dataclass, replace

from bot.engine.errors import InvalidInput
from bot.engine.model import Order, Reaction, parse_enum
from bot.engine.text import Msg

from .authority import Acting, require_gm, require_player
from .errors import NotFound
from .events import EventKind, Journal
from .sight import Notice, notices, sees
from .state import CampaignState, ForceState

MAX_DEADLINE_HOURS = 24 * 60
MAX_AWAY_DAYS = 60


# --- a GM's correction ----------------------------------------------------------------------------


@dataclass(frozen=True)
class Change:
    """One part of a GM's correction to a Force: the square it moved between (``moved``), or a detail
    only its own side may know (order, reaction, a unit's strength)."""

    text: str
    moved: tuple[str, str] | None = None


@dataclass(frozen=True)
class Correction:
    force: str
    changes: tuple[str, ...]
    """The whole correction (the GM's)."""
    notices: tuple[Notice, ...] = ()
    """What each reader is told of it: the public, and each side that may see more."""


def correction_notices(state: CampaignState, force: ForceState, changes: Iterable[Change]) -> list[Notice]:
    """A GM's correction, told to each reader as far as fog of war allows: its side has it all; another
    side has the move when it sees both squares; the public has what every side has, or only that
    the GM corrected a Force of that side. ``state`` is the state after the correction."""
    changes = tuple(changes)

    def told(side: str) -> Msg | None:
        parts = [c.text for c in changes
                 if side == force.side
                 or (c.moved is not None and sees(state, side, c.moved[0]) and sees(state, side, c.moved[1]))]
        return Msg("GM correction to {force}: {changes}.", force=force.name, changes=Msg.join("; ", parts)) \
            if parts else None

    private = {k: told(k) for k in state.sides}
    others = {private[k] for k in state.sides if k != force.side}
    if len(others) == 1 and None not in others:
        public: str = others.pop()  # type: ignore[assignment]
    else:
        public = Msg("The GM corrected a Force of {side}; its details go to those who may see them.",
                     side=state.sides[force.side].name)
    return notices(public, private)


def edit_force(state: CampaignState, gm: Acting, force: str, journal: Journal, *, square: str | None = None,
               order: str | Order | None = None, reaction: str | Reaction | None = None, unit: str | None = None,
               sp: int | None = None) -> tuple[CampaignState, Correction]:
    """GM: correct a Force (square, order, reaction, a unit's SP). The public and each side are told
    as much of it as they may see; the Force's own side, all of it."""
    require_gm(state, gm)
    row = state.find_force(force)
    if row is None:
        raise NotFound("There is no Force {text!r} in this campaign.", text=force)
    changes: list[Change] = []
    new = row
    if square is not None:
        sq = state.map.parse(square)
        if state.map.cell(sq).terrain.is_water:
            raise InvalidInput("{sq} is water: put the Force on land.", sq=sq)
        changes.append(Change(Msg("square {before} -> {after}", before=row.square, after=str(sq)),
                              moved=(row.square or str(sq), str(sq))))
        new = replace(new, square=str(sq))
    if order is not None:
        new_order = parse_enum(Order, order, "order")
        changes.append(Change(Msg("order {before} -> {after}", before=row.order.value, after=new_order.value)))
        new = replace(new, order=new_order)
    if reaction is not None:
        new_r = None if str(reaction).strip().lower() in ("none", "") else parse_enum(Reaction, reaction, "reaction")
        changes.append(Change(Msg("reaction {before} -> {after}",
                                  before=row.reaction.value if row.reaction else Msg("none"),
                                  after=new_r.value if new_r else Msg("none"))))
        new = replace(new, reaction=new_r)
    if (unit is None) != (sp is None):
        raise InvalidInput("To correct a unit's strength give both the unit and its SP.")
    if unit is not None and sp is not None:
        if not 0 <= sp <= 10_000:
            raise InvalidInput("A unit's strength is 0 to 10,000 SP, not {sp}.", sp=sp)
        u = next((u for u in row.units if u.key == unit or u.name.lower() == unit.lower()), None)
        if u is None:
            raise InvalidInput("{name} has no unit {unit!r}.", name=row.name, unit=unit)
        if sp > u.original_sp:
            raise InvalidInput("{unit} can have at most its full strength of {full} SP, not {sp}.", unit=u.name,
                               full=u.original_sp, sp=sp)
        changes.append(Change(Msg("{unit} {before} -> {after} SP", unit=u.name, before=u.sp, after=sp)))
        new = new.with_units({u.key: replace(u, sp=sp)})
    if not changes:
        raise InvalidInput("Nothing to correct: give a square, order, reaction, or a unit and its SP.")
    state = state.with_forces([new])
    told = correction_notices(state, new, changes)
    for notice in told:
        journal.say(state, notice.text, kind=EventKind.GM, visibility=notice.visibility)
    return state, Correction(new.name, tuple(c.text for c in changes), tuple(told))


# --- the deadline and absences (the bot's bookkeeping) ----------------------------------------------


def check_deadline(hours: float) -> None:
    if not 0 < hours <= MAX_DEADLINE_HOURS:
        raise InvalidInput("A deadline is 1 minute to {max_deadline_hours} hours away, not {hours!r} hours.",
                           max_deadline_hours=MAX_DEADLINE_HOURS, hours=hours)


def set_deadline(state: CampaignState, gm: Acting, hours: float, now: dt.datetime, journal: Journal) -> dt.datetime:
    """GM: the current phase ends ``hours`` after ``now``; the deadline, announced."""
    check_deadline(hours)
    require_gm(state, gm)
    deadline = now + dt.timedelta(hours=hours)
    # The time as text: a stored message's parameters come back as text, which a date format cannot take.
    when = (deadline.astimezone(dt.UTC) if deadline.tzinfo else deadline).strftime("%Y-%m-%d %H:%M")
    journal.say(state, Msg("The GM set the phase deadline to {deadline} UTC.", deadline=when), kind=EventKind.GM)
    return deadline


def check_absence(days: int) -> None:
    if not 0 <= days <= MAX_AWAY_DAYS:
        raise InvalidInput("An absence is 0 to {max_away_days} days, not {days!r}.", max_away_days=MAX_AWAY_DAYS,
                           days=days)


def declare_away(state: CampaignState, member_id: int, who: str, days: int, now: dt.datetime,
                 journal: Journal) -> dt.datetime | None:
    """A player declares an absence of ``days`` from ``now`` (0 days ends it); when they are back
    (None: they are), announced. ``who``: the player's name (empty: "A player")."""
    check_absence(days)
    require_player(state, member_id)
    name = who or Msg("A player")
    journal.say(state, Msg.plural(days, "{who} is away for {n} day.", "{who} is away for {n} days.", who=name) if days
                else Msg("{who} is back.", who=name))
    return now + dt.timedelta(days=days) if days else None
