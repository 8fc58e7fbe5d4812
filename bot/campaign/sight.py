"""Fog of war, as a pure function of a :class:`CampaignState` and a reader.

A side sees every square within ``state.sight`` squares of one of its own Forces on the map; the GM
sees everything; a member on no side sees only public news.

**The public channel carries only what every side may see.** A Force, its square or what happened
to it is public only when every side sees that square (its owner aside); otherwise the details go
privately to the sides that see it, and the public hears at most the news every side is entitled
to. A battle's number, square, camps and outcome are public news; its Forces, strengths and losses
go to the camps that fought it and to every side that sees its square. Counts of what the sides did
(Force tests taken, moves declared, reinforcements arrived) are nobody else's business.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass, replace

from bot.engine.model import Square
from bot.engine.text import Msg

from .events import PUBLIC, Journal
from .state import Battle, CampaignState, ForceState


@dataclass(frozen=True)
class Reader:
    """Who reads: the GM, a side's member, or a member on no side."""

    gm: bool = False
    side: str | None = None


GM = Reader(gm=True)


@dataclass(frozen=True)
class Notice:
    """One text for one log visibility: ``public`` or ``side:KEY``."""

    visibility: str
    text: str

    @property
    def side(self) -> str | None:
        return self.visibility.removeprefix("side:") if self.visibility.startswith("side:") else None


def own_squares(state: CampaignState, side: str) -> list[Square]:
    return [state.map.parse(f.square) for f in state.active() if f.side == side and f.square]


def sees(state: CampaignState, side: str, square: str) -> bool:
    """Whether ``side`` sees ``square``: one of its Forces on the map is within sight of it."""
    target = state.map.parse(square)
    return any(state.map.distance(target, own) <= state.sight for own in own_squares(state, side))


def seers(state: CampaignState, square: str | None, *, also: Iterable[str] = ()) -> frozenset[str]:
    """The sides that see ``square``, with ``also`` (the owner of a Force, the camps of a battle)."""
    out = set(also)
    if square:
        out |= {k for k in state.sides if k not in out and sees(state, k, square)}
    return frozenset(out)


def visible_force_keys(state: CampaignState, reader: Reader) -> set[str]:
    """Forces the reader can see: all for the GM; own Forces and enemies within sight for a side;
    nothing for an outsider."""
    active = state.active()
    if reader.gm:
        return {f.key for f in active}
    if reader.side is None:
        return set()
    own = [f for f in active if f.side == reader.side]
    seen = {f.key for f in own}
    cmap = state.map
    in_sight = within_sight(state, (cmap.parse(f.square) for f in own if f.square))
    for f in active:
        if f.side != reader.side and f.square and in_sight(cmap.parse(f.square)):
            seen.add(f.key)
    return seen


def within_sight(state: CampaignState, squares: Iterable[Square]) -> Callable[[Square], bool]:
    """Whether a square is within ``state.sight`` squares of one of ``squares``. They are kept in blocks
    of ``sight + 1`` squares a side, so a square is compared with those of the 9 blocks around it only
    (within sight, neither the column nor the row differs by more than ``sight``, whatever the
    adjacency): a side of 1,000 Forces sees 1,000 others without a million comparisons."""
    sight, size, distance = state.sight, state.sight + 1, state.map.distance
    blocks: dict[tuple[int, int], list[Square]] = {}
    for sq in set(squares):
        blocks.setdefault((sq.col // size, sq.row // size), []).append(sq)

    def seen(sq: Square) -> bool:
        bc, br = sq.col // size, sq.row // size
        return any(distance(sq, o) <= sight for dc in (-1, 0, 1) for dr in (-1, 0, 1)
                   for o in blocks.get((bc + dc, br + dr), ()))

    return seen


def visible_squares(state: CampaignState, reader: Reader) -> frozenset[Square] | None:
    """The squares ``reader`` sees (:func:`within_sight` of their side's Forces, the rule that decides which
    enemy Forces they see), which their map leaves unveiled; None for the GM and for a reader on no side
    (whose map shows no Force, so nothing is veiled)."""
    if reader.gm or reader.side is None:
        return None
    own = own_squares(state, reader.side)
    seen = within_sight(state, own)
    cmap, r = state.map, state.sight
    near = {(sq.col + dc, sq.row + dr) for sq in own for dc in range(-r, r + 1) for dr in range(-r, r + 1)}
    return frozenset(sq for sq in (Square(c, w) for c, w in near if 0 <= c < cmap.width and 0 <= w < cmap.height)
                     if seen(sq))


def own_force(state: CampaignState, side: str, text: str) -> ForceState | None:
    """One of ``side``'s Forces, by key or name as typed; None for anything else (an enemy Force,
    hidden or in sight, or no Force at all), so that every refusal reads the same."""
    f = state.find_force(text)
    return f if f is not None and f.side == side else None


def tell(state: CampaignState, detail: str, *, seen_by: Iterable[str], public: str | None = None) -> list[Notice]:
    """A thing that happened where only the sides ``seen_by`` see it: ``detail`` for them; for the
    public, ``public`` (the news everyone may have, or nothing). When every side sees it, ``detail``
    is public."""
    seen = frozenset(seen_by)
    if frozenset(state.sides) <= seen:
        return [Notice(PUBLIC, detail)]
    return notices(public, {k: detail for k in seen})


def battle_notices(state: CampaignState, battle: Battle, detail: str, *, public: str | None = None) -> list[Notice]:
    """What happened in a battle: ``detail`` to its camps and to every side that sees its square;
    ``public`` (its news: square, camps, outcome) to everyone."""
    return tell(state, detail, seen_by=seers(state, battle.square, also=battle.sides), public=public)


def notices(public: str | None, private: Mapping[str, str | None]) -> list[Notice]:
    """The public text (if any), then each side's own (if any, and not the public text again), in
    side order."""
    out = [Notice(PUBLIC, public)] if public else []
    out += [Notice(f"side:{k}", text) for k, text in sorted(private.items()) if text and text != public]
    return out


def say(journal: Journal, state: CampaignState, told: Iterable[Notice], *, battle: int | None = None) -> None:
    """Each reader's part of what happened, into the journal (``battle``: what happened is that battle's,
    for its thread)."""
    for n in told:
        journal.say(state, n.text, visibility=n.visibility, data={"battle": battle} if battle is not None else None)


def record_sightings(state: CampaignState) -> CampaignState:
    """Each side remembers where it last saw every enemy Force (faded markers once out of sight)."""
    changed = []
    for key, side in state.sides.items():
        seen = visible_force_keys(state, Reader(side=key))
        memory = {fk: sq for fk, sq in side.last_seen.items() if fk in state.forces and state.forces[fk].active}
        for fk in seen:
            f = state.forces[fk]
            if f.side != key and f.square:
                memory[fk] = f.square
        if memory != dict(side.last_seen):
            changed.append(replace(side, last_seen=memory))
    return state.with_sides(changed) if changed else state


def a_force() -> Msg:
    return Msg("a Force")
