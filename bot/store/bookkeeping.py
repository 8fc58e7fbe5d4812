"""The bot's own bookkeeping rows: the campaigns the scheduler watches, the members playing (their
sides and absences) and those asking to, each side's channel and each battle's thread."""

from __future__ import annotations

import datetime as dt
from collections.abc import Callable, Mapping

import sqlalchemy as sa
from sqlmodel import col, delete, select
from sqlmodel.ext.asyncio.session import AsyncSession

from .models import BattleRow, Campaign, JoinRequestRow, Player, SideRow


async def campaigns_with_deadlines(s: AsyncSession, *, shards: tuple[int, frozenset[int]] | None = None,
                                   failed: Callable[[int, Exception], None]) -> list[Campaign]:
    """Active campaigns that have a deadline, by id; ``shards`` = (shard count, shard ids): only those of
    guilds on those shards. A row the database holds but that cannot be decoded (options not JSON) is
    handed to ``failed`` and left out."""
    where = [Campaign.status == "active", Campaign.deadline != None]  # noqa: E711
    if shards is not None:
        count, ids = shards
        shift = sa.literal(22, type_=sa.Integer)  # PostgreSQL has bigint >> integer only
        where.append((Campaign.guild_id.op(">>")(shift) % count).in_(sorted(ids)))  # Discord's shard formula
    try:
        return list((await s.exec(select(Campaign).where(*where).order_by(col(Campaign.id)))).all())
    except (ValueError, TypeError):
        rows = []
        for cid in (await s.exec(select(Campaign.id).where(*where).order_by(col(Campaign.id)))).all():
            try:
                rows.append((await s.exec(select(Campaign).where(Campaign.id == cid))).one())
            except (ValueError, TypeError) as exc:
                failed(cid or 0, exc)
        return rows


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


async def side_channels(s: AsyncSession, campaign_id: int) -> dict[str, int]:
    """Each side's own channel, for the sides that have one."""
    rows = (await s.exec(select(SideRow.key, SideRow.channel_id).where(SideRow.campaign_id == campaign_id))).all()
    return {key: channel for key, channel in rows if channel}


async def side_keys(s: AsyncSession, campaign_id: int) -> list[str]:
    """The keys of the campaign's sides."""
    return list((await s.exec(select(SideRow.key).where(SideRow.campaign_id == campaign_id))).all())


async def set_side_channel(s: AsyncSession, campaign_id: int, side: str, channel_id: int | None) -> None:
    """Set a side's channel (nothing for a side the campaign does not have)."""
    row = (await s.exec(select(SideRow).where(SideRow.campaign_id == campaign_id, SideRow.key == side))).first()
    if row is not None:
        row.channel_id = channel_id
        s.add(row)


async def battle_thread(s: AsyncSession, campaign_id: int, number: int) -> int | None:
    """The thread of a battle, if it has one."""
    stmt = select(BattleRow.thread_id).where(BattleRow.campaign_id == campaign_id, BattleRow.number == number)
    return (await s.exec(stmt)).first()


async def set_battle_thread(s: AsyncSession, campaign_id: int, number: int, thread_id: int) -> None:
    """Keep the thread of a battle (nothing for a battle the campaign does not have)."""
    row = (await s.exec(select(BattleRow).where(BattleRow.campaign_id == campaign_id,
                                                BattleRow.number == number))).first()
    if row is not None:
        row.thread_id = thread_id
        s.add(row)
