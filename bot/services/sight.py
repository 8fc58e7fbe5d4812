"""Fog of war for the services that still work on the rows (:class:`~.loading.State`), over the core's
:mod:`bot.campaign.sight`, which decides it: a side sees every square within ``campaign.sight`` squares
of one of its own Forces on the map; the GM sees everything; a member on no side sees only public
news. The read commands ask the core directly (:mod:`bot.campaign.views`).

Refusals do not tell who exists: a player naming anything but one of their own Forces hears the same
words whether it is a hidden enemy Force, a visible one or nothing at all, naming only what they typed.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass

from bot.campaign.sight import PUBLIC, Notice, notices  # noqa: F401 (re-exported)
from bot.engine.text import Msg
from bot.store.models import ForceRow

from .errors import NotFound
from .loading import State


def sees(state: State, side: str, square: str) -> bool:
    """Whether ``side`` sees ``square``: one of its Forces on the map is within sight of it."""
    cmap, sight = state.cmap, state.campaign.sight
    target = cmap.parse(square)
    return any(cmap.distance(target, cmap.parse(f.square)) <= sight
               for f in state.active() if f.side_key == side and f.square)


def own_force(state: State, side: str, text: str) -> ForceRow:
    """One of ``side``'s Forces, by key or name as typed. Anything else (an enemy Force, hidden or in
    sight, or no Force at all) is refused in the same words, naming only what was typed."""
    try:
        row = state.find_force(text)
    except NotFound:
        row = None
    if row is None or row.side_key != side:
        raise NotFound("You have no Force {force!r}.", force=text.strip()[:40])
    return row


# --- a GM's correction --------------------------------------------------------------------------


@dataclass(frozen=True)
class Change:
    """One part of a GM's correction to a Force: the square it moved between (``moved``), or a detail
    only its own side may know (order, reaction, a unit's strength)."""

    text: str
    moved: tuple[str, str] | None = None


def correction_notices(state: State, force: ForceRow, changes: Iterable[Change]) -> list[Notice]:
    """A GM's correction, told to each reader as far as fog of war allows: its side has it all; another
    side has the move when it sees both squares; the public has what every side has, or only that
    the GM corrected a Force of that side. ``state`` is the state after the correction."""
    changes = tuple(changes)

    def told(side: str) -> Msg | None:
        parts = [c.text for c in changes
                 if side == force.side_key
                 or (c.moved is not None and sees(state, side, c.moved[0]) and sees(state, side, c.moved[1]))]
        return Msg("GM correction to {force}: {changes}.", force=force.name, changes=Msg.join("; ", parts)) \
            if parts else None

    private = {k: told(k) for k in state.sides}
    others = {private[k] for k in state.sides if k != force.side_key}
    if len(others) == 1 and None not in others:
        public: str = others.pop()  # type: ignore[assignment]
    else:
        public = Msg("The GM corrected a Force of {side}; its details go to those who may see them.",
                     side=state.sides[force.side_key].name)
    return notices(public, private)
