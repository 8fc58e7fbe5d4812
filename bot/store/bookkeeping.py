"""The bot's own bookkeeping rows: the campaign's book (its settings, deadline, reminders, cards, each
side's channel and each battle's thread: :class:`~.models.BookRow`, read as one
:class:`~bot.campaign.botsettings.Book`), the campaigns the scheduler watches, the members playing (their
sides and absences) and those asking to."""

from __future__ import annotations

import datetime as dt
from collections.abc import Callable, Mapping
from dataclasses import dataclass, replace
from typing import Any

import sqlalchemy as sa
from sqlmodel import col, delete, select
from sqlmodel.ext.asyncio.session import AsyncSession

from bot.campaign import formdraft
from bot.campaign.botsettings import Book, bot_settings

from .models import BookRow, Campaign, JoinRequestRow, Player, SideRow


def _id(value: Any) -> int | None:
    return value if isinstance(value, int) and not isinstance(value, bool) else None


def book_of(row: BookRow | None, *, strict: bool = False) -> Book:
    """A book row as the typed value (no row: the defaults), every value checked: one the bot never
    writes leaves its field at the default. ``strict``: settings that are not an object at all (a row no
    version of the bot wrote) are refused instead, with a TypeError (the scheduler leaves the campaign out)."""
    if row is None:
        return Book()
    if strict and not isinstance(row.settings, dict):
        raise TypeError(f"campaign_book.settings of campaign {row.campaign_id}: not an object")
    channels = row.channels if isinstance(row.channels, dict) else {}
    threads = row.threads if isinstance(row.threads, dict) else {}
    reminded = row.reminded if isinstance(row.reminded, list) else []
    stored = row.drafts if isinstance(row.drafts, dict) else {}
    drafts = {str(k): d for k, v in list(stored.items())[-formdraft.MAX_DRAFTS:]
              if (d := formdraft.read(v)) is not None}
    return Book(
        settings=bot_settings(row.settings if isinstance(row.settings, dict) else {}),
        deadline=row.deadline, deadline_set=row.deadline_set, deadline_version=_id(row.deadline_version),
        reminded=tuple(r for r in reminded if isinstance(r, str)), card=_id(row.card),
        requests_card=_id(row.requests_card), map_card=row.map_card if isinstance(row.map_card, str) else None,
        channels={str(k): v for k, v in channels.items() if _id(v) is not None},
        threads={int(k): v for k, v in threads.items() if str(k).isdigit() and _id(v) is not None},
        drafts=drafts, revision=row.revision)


def _values(book: Book) -> dict[str, Any]:
    """The book's row columns (but its id, campaign and revision)."""
    return {"settings": book.settings.as_data(), "deadline": book.deadline, "deadline_set": book.deadline_set,
            "deadline_version": book.deadline_version, "reminded": list(book.reminded), "card": book.card,
            "requests_card": book.requests_card, "map_card": book.map_card, "channels": dict(book.channels),
            "threads": {str(k): v for k, v in book.threads.items()},
            "drafts": {k: d.as_data() for k, d in book.drafts.items()}}


def _fill(row: BookRow, book: Book) -> None:
    for name, value in _values(book).items():
        setattr(row, name, value)


async def book_row(s: AsyncSession, campaign_id: int, *, lock: bool = False) -> BookRow | None:
    stmt = select(BookRow).where(BookRow.campaign_id == campaign_id)
    if lock:
        stmt = stmt.with_for_update()
    return (await s.exec(stmt)).first()


async def read_book(s: AsyncSession, campaign_id: int) -> Book:
    """The campaign's book (the defaults for a campaign without one)."""
    return book_of(await book_row(s, campaign_id))


def new_book(s: AsyncSession, campaign_id: int, book: Book | None = None) -> None:
    """The book of a campaign created in this transaction."""
    row = BookRow(campaign_id=campaign_id)
    _fill(row, book or Book())
    s.add(row)


async def change_book(s: AsyncSession, campaign_id: int, change: Callable[[Book], Book], *,
                      known: Book | None = None) -> Book:
    """Write the campaign's book as ``change`` makes it (its revision bumped when anything changed), in
    the caller's transaction. The campaign row is not touched, so its write stamp stays and the read
    cache keeps the game (:mod:`.stamp` leaves book rows alone).

    ``known``: the book as the caller last read it (the read cache's): when the row is still at its
    revision, one UPDATE writes it, with no read first."""
    if known is not None and known.revision > 0:
        new = change(known)
        if new == known:
            return known
        values = _values(new)
        stmt = (sa.update(BookRow).where(col(BookRow.campaign_id) == campaign_id,
                                         col(BookRow.revision) == known.revision)
                .values(**values, revision=known.revision + 1))
        if (await s.exec(stmt)).rowcount == 1:  # type: ignore[call-overload,attr-defined]
            return replace(new, revision=known.revision + 1)
    row = await book_row(s, campaign_id, lock=True)
    old = book_of(row)
    new = change(old)
    if new == old and row is not None:
        return old
    if row is None:
        row = BookRow(campaign_id=campaign_id, revision=0)
    _fill(row, new)
    row.revision = (row.revision or 0) + 1
    s.add(row)
    return book_of(row)


async def campaigns_with_deadlines(s: AsyncSession, *, shards: tuple[int, frozenset[int]] | None = None,
                                   failed: Callable[[int, Exception], None]) -> list[tuple[Campaign, Book]]:
    """Active campaigns that have a deadline, by id, with their books; ``shards`` = (shard count, shard
    ids): only those of guilds on those shards. A row the database holds but that cannot be decoded
    (options not JSON) is handed to ``failed`` and left out."""
    where = [Campaign.status == "active", BookRow.deadline != None]  # noqa: E711
    if shards is not None:
        count, ids = shards
        shift = sa.literal(22, type_=sa.Integer)  # PostgreSQL has bigint >> integer only
        where.append((Campaign.guild_id.op(">>")(shift) % count).in_(sorted(ids)))  # Discord's shard formula
    on = BookRow.campaign_id == Campaign.id
    try:
        found = (await s.exec(select(Campaign, BookRow).join(BookRow, on).where(*where)
                              .order_by(col(Campaign.id)))).all()
        return [(c, book_of(b, strict=True)) for c, b in found]
    except (ValueError, TypeError):
        rows = []
        for cid in (await s.exec(select(Campaign.id).join(BookRow, on).where(*where)
                                 .order_by(col(Campaign.id)))).all():
            try:
                c, b = (await s.exec(select(Campaign, BookRow).join(BookRow, on).where(Campaign.id == cid))).one()
                rows.append((c, book_of(b, strict=True)))
            except (ValueError, TypeError) as exc:
                failed(cid or 0, exc)
        return rows


@dataclass(frozen=True)
class PlayerInfo:
    member_id: int
    side: str
    away_until: dt.datetime | None
    pings: bool = True
    """Mentioned on phase cards and reminded (False: the member muted the campaign's pings)."""


PLAYER_COLUMNS = (Player.member_id, Player.side_key, Player.away_until, Player.pings)


async def player_infos(s: AsyncSession, campaign_id: int) -> tuple[PlayerInfo, ...]:
    """The members playing: their sides, absences and pings, by row id."""
    stmt = select(*PLAYER_COLUMNS).where(Player.campaign_id == campaign_id).order_by(col(Player.id))
    return tuple(PlayerInfo(*r) for r in (await s.exec(stmt)).all())  # type: ignore[call-overload]


async def players(s: AsyncSession, campaign_id: int) -> list[Player]:
    """The members playing the campaign."""
    return list((await s.exec(select(Player).where(Player.campaign_id == campaign_id))).all())


async def write_players(s: AsyncSession, campaign_id: int, old: Mapping[int, str], new: Mapping[int, str]) -> None:
    """Write the members' sides (member id -> side key) as ``new`` holds them, over ``old``."""
    gone = [m for m in old if m not in new]
    if gone:
        await s.exec(delete(Player).where(Player.campaign_id == campaign_id,  # type: ignore[call-overload]
                                          col(Player.member_id).in_(gone)))
    changed = {m: side for m, side in new.items() if old.get(m) != side}
    if not changed:
        return
    rows = {p.member_id: p for p in (await s.exec(select(Player).where(
        Player.campaign_id == campaign_id, col(Player.member_id).in_(list(changed))))).all()}
    for member, side in changed.items():
        row = rows.get(member)
        if row is None:
            row = Player(campaign_id=campaign_id, side_key=side, member_id=member)
        else:
            row.side_key = side
        s.add(row)


async def join_requests(s: AsyncSession, campaign_id: int) -> list[JoinRequestRow]:
    """The members' requests to join a side that wait for the GM, oldest first."""
    return list((await s.exec(select(JoinRequestRow).where(JoinRequestRow.campaign_id == campaign_id)
                              .order_by(col(JoinRequestRow.id)))).all())


async def write_join_requests(s: AsyncSession, campaign_id: int, old: Mapping[int, tuple[str, str]],
                              new: Mapping[int, tuple[str, str]]) -> None:
    """Write the requests (member id -> (side key, name)) as ``new`` holds them, over ``old``."""
    gone = [m for m in old if m not in new or old[m] != new[m]]
    if gone:
        await s.exec(delete(JoinRequestRow).where(JoinRequestRow.campaign_id == campaign_id,  # type: ignore[call-overload]
                                                  col(JoinRequestRow.member_id).in_(gone)))
        await s.flush()
    for member, (side, name) in new.items():
        if old.get(member) != (side, name):
            s.add(JoinRequestRow(campaign_id=campaign_id, member_id=member, side_key=side, name=name))


async def set_away(s: AsyncSession, campaign_id: int, member_id: int, until: dt.datetime | None) -> None:
    """A player's absence ends at ``until`` (None: they are back)."""
    player = (await s.exec(select(Player).where(Player.campaign_id == campaign_id,
                                                Player.member_id == member_id))).one()
    player.away_until = until
    s.add(player)


async def set_pings(s: AsyncSession, campaign_id: int, member_id: int, on: bool) -> bool:
    """Whether the member is pinged for the campaign; False when they play no side in it."""
    player = (await s.exec(select(Player).where(Player.campaign_id == campaign_id,
                                                Player.member_id == member_id))).one_or_none()
    if player is None:
        return False
    player.pings = on
    s.add(player)
    return True


async def side_keys(s: AsyncSession, campaign_id: int) -> list[str]:
    """The keys of the campaign's sides."""
    return list((await s.exec(select(SideRow.key).where(SideRow.campaign_id == campaign_id))).all())

