"""The write stamp that tells readers a campaign changed.

``Campaign.version`` only moves on a resolution or an undo (a GM's Resolve button and the deadline
bookkeeping carry it), but orders, moves, joins, GM edits and every other write change what readers
see too. So every transaction that changes a campaign's rows (through the ORM) also leaves a fresh
random token in the campaign's own row, ``campaign.write_token`` (the store's column, never among the
game's options), in the same commit: the read cache (:mod:`bot.store.readcache`) keys a campaign's rows by
(created_at, version, token), which another process's write changes as surely as this one's.
Writes lock the campaign row first (``get_campaign(lock=True)``), so the token costs no extra lock.
Bulk statements are not seen by the ORM: the repository stamps its writes itself (:func:`stamp`). A campaign created in the transaction needs no token (no reader can have cached it).

The bot's bookkeeping (:class:`~.models.BookRow`: deadline, reminders, cards, settings, channels,
threads) is no part of the game: writing it leaves the token alone, so that the read cache keeps the
campaign's state (issue 22, item 1); the book row's own ``revision`` tells readers it changed.
"""

from __future__ import annotations

import secrets
from typing import Any

from sqlalchemy import event
from sqlalchemy.orm import Session

from .models import BookRow, Campaign

_TOKEN = "adc_write_token"
_CREATED = "adc_created_campaigns"


@event.listens_for(Session, "before_flush")
def _stamp_write(session: Session, _context: Any, _instances: Any) -> None:
    ids: set[int] = set()
    for obj in (*session.new, *session.deleted, *session.dirty):
        if isinstance(obj, BookRow):
            continue  # bookkeeping: its own revision, never the game's stamp
        cid = obj.id if isinstance(obj, Campaign) else getattr(obj, "campaign_id", None)
        if isinstance(cid, int) and cid not in ids and (obj in session.new or obj in session.deleted
                                                         or session.is_modified(obj)):
            ids.add(cid)
    ids -= session.info.get(_CREATED, set())
    if not ids:
        return
    token = session.info.setdefault(_TOKEN, secrets.token_hex(8))
    for cid in ids:
        campaign = session.get(Campaign, cid)  # the locked row, from the identity map
        if campaign is not None and campaign not in session.deleted and campaign.write_token != token:
            campaign.write_token = token


@event.listens_for(Session, "after_flush")
def _note_created(session: Session, _context: Any) -> None:
    created = {o.id for o in session.new if isinstance(o, Campaign) and o.id is not None}
    if created:
        session.info.setdefault(_CREATED, set()).update(created)


@event.listens_for(Session, "after_transaction_end")
def _forget_stamp(session: Session, transaction: Any) -> None:
    if transaction.parent is None:
        session.info.pop(_TOKEN, None)
        session.info.pop(_CREATED, None)


def stamp(session: Session, campaign: Campaign) -> None:
    """Leave the transaction's write token on ``campaign``: for writes the ORM does not see (bulk
    statements of :mod:`.repository`)."""
    if campaign.id in session.info.get(_CREATED, set()):
        return
    token = session.info.setdefault(_TOKEN, secrets.token_hex(8))
    if campaign.write_token != token:
        campaign.write_token = token
