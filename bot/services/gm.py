"""GM corrections, deadlines and absences (the rules: :mod:`bot.campaign.edits`). Every correction is
announced, to each reader as far as fog of war allows (:func:`bot.campaign.edits.correction_notices`)."""

from __future__ import annotations

import datetime as dt

from bot.campaign import edits
from bot.campaign.edits import MAX_AWAY_DAYS, MAX_DEADLINE_HOURS, Correction
from bot.store import bookkeeping
from bot.store.db import Database
from bot.store.models import utcnow

from . import shell
from .actors import Actor

__all__ = ["MAX_AWAY_DAYS", "MAX_DEADLINE_HOURS", "Correction", "declare_away", "edit_force", "set_deadline"]


async def edit_force(db: Database, campaign_id: int, gm: Actor, force: str, *, square: str | None = None,
                     order: str | None = None, reaction: str | None = None, unit: str | None = None,
                     sp: int | None = None) -> Correction:
    """GM: correct a Force (square, order, reaction, a unit's SP). The public and each side are told
    as much of it as they may see; the Force's own side, all of it."""
    return await shell.write(db, campaign_id, lambda state, journal: edits.edit_force(
        state, gm, force, journal, square=square, order=order, reaction=reaction, unit=unit, sp=sp))


async def set_deadline(db: Database, campaign_id: int, gm: Actor, hours: float,
                       *, now: dt.datetime | None = None) -> dt.datetime:
    """GM: the current phase ends ``hours`` from now (reminders go to those who have not acted)."""
    edits.check_deadline(hours)
    async with db.transaction() as s:
        loaded = await shell.load(s, campaign_id)
        journal = await loaded.journal()
        now = now or utcnow()
        deadline = edits.set_deadline(loaded.state, gm, hours, now, journal)
        # The deadline is the book's (its reminders start over); the GM's word on it is the log's.
        await bookkeeping.change_book(s, campaign_id, lambda b: b.with_deadline(deadline, now=now))
        saved = await shell.save(s, loaded, loaded.state, journal)
    shell.remember(db, saved)
    return deadline


async def declare_away(db: Database, campaign_id: int, actor: Actor, days: int,
                       *, now: dt.datetime | None = None) -> dt.datetime | None:
    """A player declares an absence (0 days ends it)."""
    edits.check_absence(days)
    async with db.transaction() as s:
        loaded = await shell.load(s, campaign_id)
        journal = await loaded.journal()
        until = edits.declare_away(loaded.state, actor.member_id, actor.name, days, now or utcnow(), journal)
        await bookkeeping.set_away(s, campaign_id, actor.member_id, until)
        saved = await shell.save(s, loaded, loaded.state, journal)
    shell.remember(db, saved)
    return until
