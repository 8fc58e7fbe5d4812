"""Fog of war: what each reader may see of the campaign, and who is told what.

The one place that decides it. A side sees every square within ``campaign.sight`` squares of one of
its own Forces on the map; the GM sees everything; a member on no side sees only public news.

**The public channel carries only what every side may see.** A Force, its square or what happened
to it is public only when every side sees that square (its owner aside); otherwise the details go
privately to the sides that see it, and the public hears at most the news every side is entitled
to. A battle's number, square, camps and outcome are public news; its Forces, strengths and losses
go to the camps that fought it and to every side that sees its square. Counts of what the sides did
(Force tests taken, moves declared, reinforcements arrived) are nobody else's business.

Refusals do not tell who exists: a player naming anything but one of their own Forces hears the same
words whether it is a hidden enemy Force, a visible one or nothing at all, naming only what they typed.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass, replace

from bot.engine.model import Square
from bot.engine.phases import PhaseFacts
from bot.engine.text import Msg
from bot.store.models import BattleRow, ForceRow

from .actors import Standing
from .errors import NotFound
from .loading import State

PUBLIC = "public"


@dataclass(frozen=True)
class Notice:
    """One text for one log visibility: ``public`` or ``side:KEY``."""

    visibility: str
    text: str

    @property
    def side(self) -> str | None:
        return self.visibility.removeprefix("side:") if self.visibility.startswith("side:") else None


def _squares(state: State, side: str) -> list[Square]:
    cmap = state.cmap
    return [cmap.parse(f.square) for f in state.active() if f.side_key == side and f.square]


def sees(state: State, side: str, square: str) -> bool:
    """Whether ``side`` sees ``square``: one of its Forces on the map is within sight of it."""
    cmap, sight = state.cmap, state.campaign.sight
    target = cmap.parse(square)
    return any(cmap.distance(target, own) <= sight for own in _squares(state, side))


def seers(state: State, square: str | None, *, also: Iterable[str] = ()) -> frozenset[str]:
    """The sides that see ``square``, with ``also`` (the owner of a Force, the camps of a battle)."""
    out = set(also)
    if square:
        out |= {k for k in state.sides if k not in out and sees(state, k, square)}
    return frozenset(out)


def everyone(state: State) -> frozenset[str]:
    """Every side of the campaign: what they all may see may be public."""
    return frozenset(state.sides)


def visible_force_keys(state: State, st: Standing) -> set[str]:
    """Forces the reader can see: all for the GM; own Forces and enemies within sight for a side;
    nothing but public information for an outsider."""
    active = state.active()
    if st.gm:
        return {f.key for f in active}
    if st.side is None:
        return set()
    own = [f for f in active if f.side_key == st.side]
    seen = {f.key for f in own}
    cmap, sight = state.cmap, state.campaign.sight
    own_squares = [cmap.parse(f.square) for f in own if f.square]
    for f in active:
        if f.side_key != st.side and f.square:
            sq = cmap.parse(f.square)
            if any(cmap.distance(sq, o) <= sight for o in own_squares):
                seen.add(f.key)
    return seen


def facts_for(state: State, st: Standing, facts: PhaseFacts) -> PhaseFacts:
    """What a phase waits for, as the reader may know it: a retreat still due names its Force only
    to a reader who sees that Force (the camp's duty to retreat is public, with the battle's outcome)."""
    if st.gm or not facts.retreats_due:
        return facts
    seen = {state.forces[k].name for k in visible_force_keys(state, st)}
    due: list[tuple[str, str]] = []
    for side, name in facts.retreats_due:
        item = (side, name if name in seen else Msg("a Force"))
        if item not in due:
            due.append(item)
    return replace(facts, retreats_due=tuple(due))


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


def tell(state: State, detail: str, *, seen_by: Iterable[str], public: str | None = None) -> list[Notice]:
    """A thing that happened where only the sides ``seen_by`` see it: ``detail`` for them; for the
    public, ``public`` (the news everyone may have, or nothing). When every side sees it, ``detail``
    is public."""
    seen = frozenset(seen_by)
    if everyone(state) <= seen:
        return [Notice(PUBLIC, detail)]
    return notices(public, {k: detail for k in seen})


def battle_notices(state: State, battle: BattleRow, detail: str, *, public: str | None = None) -> list[Notice]:
    """What happened in a battle: ``detail`` to its camps and to every side that sees its square;
    ``public`` (its news: square, camps, outcome) to everyone."""
    return tell(state, detail, seen_by=seers(state, battle.square, also=battle.side_keys), public=public)


def notices(public: str | None, private: Mapping[str, str | None]) -> list[Notice]:
    """The public text (if any), then each side's own (if any, and not the public text again), in
    side order."""
    out = [Notice(PUBLIC, public)] if public else []
    out += [Notice(f"side:{k}", text) for k, text in sorted(private.items()) if text and text != public]
    return out


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
