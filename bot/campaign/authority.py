"""Who may act in a campaign, and when: the GM, a side's members, the sides of a battle, the phase an
action belongs to.

Pure functions of a :class:`CampaignState` (``state.players`` maps member id -> side key;
``state.gm_id`` and ``state.gm_role_id`` name the GM). An actor is anything with a ``member_id`` and
the ids of its ``roles`` (the services' ``Actor``). Who the GM is can also be asked of a campaign's
stored row (anything :class:`Governed`), before its state is loaded.
"""

from __future__ import annotations

from collections.abc import Collection
from dataclasses import dataclass
from typing import Protocol

from bot.engine.phases import Phase

from .errors import PermissionDenied, WrongPhase
from .seats import general_plays
from .settings import UnmannedSides
from .state import Battle, CampaignState, CampaignStatus


class Acting(Protocol):
    """Who acts: a member, with the ids of their roles."""

    @property
    def member_id(self) -> int: ...

    @property
    def roles(self) -> Collection[int]: ...


class Governed(Protocol):
    """A campaign as far as its GM goes: a :class:`CampaignState`, or its stored row."""

    @property
    def name(self) -> str: ...

    @property
    def gm_id(self) -> int: ...

    @property
    def gm_role_id(self) -> int | None: ...


@dataclass(frozen=True)
class Standing:
    """What a member is in one campaign: its GM or not, and the side they play (None: none)."""

    gm: bool
    side: str | None


def is_gm(state: Governed, member_id: int, roles: Collection[int] = ()) -> bool:
    """The campaign's GM, or a member with its GM role."""
    return member_id == state.gm_id or (state.gm_role_id is not None and state.gm_role_id in roles)


def standing(state: CampaignState, actor: Acting) -> Standing:
    """What ``actor`` is in the campaign: its GM (its creator, or a member with its GM role), and the
    side they play, if any."""
    return Standing(is_gm(state, actor.member_id, actor.roles), side_of(state, actor.member_id))


def side_of(state: CampaignState, member_id: int) -> str | None:
    """The side the member plays (None: none)."""
    return state.players.get(member_id)


def require_gm(state: Governed, actor: Acting) -> None:
    if not is_gm(state, actor.member_id, actor.roles):
        raise PermissionDenied("Only the GM of {name!r} can do that.", name=state.name)


def require_player(state: CampaignState, member_id: int) -> str:
    """The side the member plays, or a clear refusal."""
    side = side_of(state, member_id)
    if side is None:
        raise PermissionDenied("You are not on a side in {name!r}: use /campaign join first.", name=state.name)
    return side


def require_in_play(state: CampaignState, member_id: int) -> str:
    """The side the member plays, still in play: a side in total defeat gives no more orders (RU-25),
    though its members keep reading what their side saw."""
    side = require_player(state, member_id)
    if state.sides[side].defeated:
        raise PermissionDenied("{side} is in total defeat and has left the campaign (RU-25): its members can read what "
                               "their side saw, but give no more orders.", side=state.sides[side].name)
    return side


def side_in_battle(state: CampaignState, actor: Acting, battle: Battle) -> str | None:
    """The actor's side in ``battle`` (None for the GM on no side in it); anybody else is refused."""
    side = side_of(state, actor.member_id)
    if side in battle.sides:
        return side
    if is_gm(state, actor.member_id, actor.roles):
        return None
    raise PermissionDenied("Only the sides in battle {number} and the GM can do that.", number=battle.number)


def require_phase(state: CampaignState, phase: Phase, what: str) -> None:
    """``what`` (an action) belongs to ``phase``: refused once the campaign has ended or in another phase."""
    if state.status is not CampaignStatus.ACTIVE:
        raise WrongPhase("The campaign {name!r} has ended.", name=state.name)
    if state.phase != phase:
        raise WrongPhase("{what} belongs to {title}; the campaign is in {title2}.", what=what,
                         title=phase.spec.title, title2=state.phase.spec.title)


def awaited(state: CampaignState, side: str) -> bool:
    """Whether the phases wait for ``side``: one still standing, played by a member or by the bot general
    (RU-26: its side is done once it has acted), or any with the setting ``unmanned_sides: wait`` (MC-3).
    A side nobody plays holds its orders, and what it would roll the bot rolls when the phase ends (the
    same keyed dice)."""
    if state.sides[side].defeated:
        return False
    return state.settings.unmanned_sides is UnmannedSides.WAIT or side in state.played_sides \
        or general_plays(state, side)
