"""Who is acting, and what they may do (permissions live here, not only in the cogs)."""

from __future__ import annotations

from dataclasses import dataclass, field

from sqlmodel import select
from sqlmodel.ext.asyncio.session import AsyncSession

from bot.store.models import Campaign, Player

from .errors import PermissionDenied


@dataclass(frozen=True)
class Actor:
    """A Discord member (or the demo's scripted player), with the ids of their roles."""

    member_id: int
    roles: frozenset[int] = field(default_factory=frozenset)
    name: str = ""


@dataclass(frozen=True)
class Standing:
    """What an actor is in one campaign."""

    actor: Actor
    gm: bool
    side: str | None

    @property
    def visibility(self) -> set[str]:
        """Log visibilities this actor may read."""
        if self.gm:
            return {"*"}
        return {"public"} | ({f"side:{self.side}"} if self.side else set())


def is_gm(campaign: Campaign, actor: Actor) -> bool:
    return actor.member_id == campaign.gm_id or (campaign.gm_role_id is not None and campaign.gm_role_id in actor.roles)


async def standing(session: AsyncSession, campaign: Campaign, actor: Actor) -> Standing:
    player = (
        await session.exec(select(Player).where(Player.campaign_id == campaign.id, Player.member_id == actor.member_id))
    ).first()
    return Standing(actor, is_gm(campaign, actor), player.side_key if player else None)


def require_gm(campaign: Campaign, actor: Actor) -> None:
    if not is_gm(campaign, actor):
        raise PermissionDenied("Only the GM of {name!r} can do that.", name=campaign.name)


async def require_player(session: AsyncSession, campaign: Campaign, actor: Actor) -> str:
    """The side the actor plays, or a clear refusal."""
    return side_of(await standing(session, campaign, actor), campaign)


def side_of(st: Standing, campaign: Campaign) -> str:
    """The side of a standing, or the refusal for a member on no side."""
    if st.side is None:
        raise PermissionDenied("You are not on a side in {name!r}: use /campaign join first.", name=campaign.name)
    return st.side
