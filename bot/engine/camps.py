"""RU-19, RU-20: camps, the alliances a scenario may group its sides into.

A **camp** is an alliance of sides, or a side in no alliance on its own. Allied Forces never fight
one another and may share squares; an ally's territory is friendly territory for every modifier and
an ally's stronghold a friendly stronghold (RU-19). **Enemy** means any side of another camp. A
battle is fought between camps (RU-20).

:class:`Camps` is the pure value the engine's procedures take to tell friend from foe: a read-only
mapping side key -> camp key. A side it does not name is its own camp, so ``Camps()`` (or
:data:`NO_CAMPS`, or :meth:`Camps.none`) is "every side its own camp", and every procedure that takes
``camps`` defaults to it: without alliances the engine behaves exactly as it did before them.

Camp keys: a side in no alliance is its own camp, keyed by its side key; an alliance's camp key is its
side keys, sorted, joined by ``+`` (``au+pi``). Side keys never hold ``+``, so a camp key never names
another side (:func:`camp_key`).
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator, Mapping
from types import MappingProxyType

CAMP_JOINER = "+"


def camp_key(sides: Iterable[str]) -> str:
    """The key of the camp of an alliance (RU-19): its side keys, sorted, joined by ``+``
    (``["pi", "au"]`` -> ``"au+pi"``); one side's camp is keyed by the side's key."""
    return CAMP_JOINER.join(sorted(set(sides)))


class Camps(Mapping[str, str]):
    """Which camp each side belongs to (RU-19): a read-only mapping side key -> camp key.

    Sides it does not name are each their own camp (:meth:`camp_of` returns the side's key), so
    ``Camps()`` means "every side its own camp" (no alliance). Hashable and compared as a mapping.
    A mapping that contradicts itself raises ``ValueError``: a scenario's alliances are checked,
    with messages naming the field, when it is parsed (``bot/scenario.py``), so a ``ValueError`` here
    is a programming error or damaged stored data, never a player's input.
    """

    __slots__ = ("_of",)

    def __init__(self, of: Mapping[str, str] | None = None) -> None:
        of = dict(of or {})
        for side, camp in of.items():
            if not isinstance(side, str) or not isinstance(camp, str) or not side or not camp:
                raise ValueError(f"A camp maps a side key to a camp key, got {side!r}: {camp!r}.")
            # A camp key that is also a named side's key is that side's own camp: else camp_of would
            # call two sides one camp that the mapping keeps apart.
            if camp in of and of[camp] != camp:
                raise ValueError(f"Camp {camp!r} is also the side {camp!r}, which is in camp {of[camp]!r} (RU-19).")
        self._of: Mapping[str, str] = MappingProxyType(of)

    # --- construction --------------------------------------------------------------------------

    @classmethod
    def none(cls, sides: Iterable[str] = ()) -> Camps:
        """Every side its own camp: no alliance (the default of every procedure)."""
        return cls({s: s for s in sides})

    @classmethod
    def from_alliances(cls, alliances: Iterable[Iterable[str]], sides: Iterable[str] = ()) -> Camps:
        """The camps of ``alliances`` (each a group of at least two side keys, no side in two), every
        other side of ``sides`` its own camp; camp keys as :func:`camp_key` makes them. When ``sides``
        is given, every allied side must be one of them."""
        known = list(sides)
        of = {s: s for s in known}
        seen: set[str] = set()
        for group in alliances:
            members = list(group)
            if len(set(members)) != len(members):
                raise ValueError(f"An alliance lists a side twice: {', '.join(members)} (RU-19).")
            if len(members) < 2:
                raise ValueError(f"An alliance groups at least two sides, got {', '.join(members) or 'none'} (RU-19).")
            for s in members:
                if known and s not in known:
                    raise ValueError(f"An alliance names unknown side {s!r}; sides: {', '.join(known)}.")
                if s in seen:
                    raise ValueError(f"Side {s!r} is in two alliances: a side belongs to at most one (RU-19).")
            seen.update(members)
            key = camp_key(members)
            of.update({s: key for s in members})
        return cls(of)

    # --- the mapping ---------------------------------------------------------------------------

    def __getitem__(self, side: str) -> str:
        return self._of[side]

    def __iter__(self) -> Iterator[str]:
        return iter(self._of)

    def __len__(self) -> int:
        return len(self._of)

    def __hash__(self) -> int:
        return hash(frozenset(self._of.items()))

    def __repr__(self) -> str:
        return f"Camps({dict(self._of)!r})"

    # --- questions -----------------------------------------------------------------------------

    def camp_of(self, side: str) -> str:
        """``side``'s camp key: its alliance's, or its own key when it is in none (or not named here)."""
        return self._of.get(side, side)

    def hostile(self, a: str, b: str) -> bool:
        """Whether sides ``a`` and ``b`` are enemies: of two camps (RU-19)."""
        return self.camp_of(a) != self.camp_of(b)

    def friendly(self, a: str, b: str) -> bool:
        """Whether ``a`` and ``b`` are of one camp: the same side, or allies (RU-19)."""
        return not self.hostile(a, b)

    def allied(self, a: str, b: str) -> bool:
        """Whether ``a`` and ``b`` are two sides of one alliance (a side is not its own ally)."""
        return a != b and self.friendly(a, b)

    def allies_of(self, side: str) -> frozenset[str]:
        """The other sides of ``side``'s camp, as the territory modifiers take them (``allies=``: an
        ally's territory is friendly territory, RU-19)."""
        camp = self.camp_of(side)
        return frozenset(s for s, c in self._of.items() if c == camp and s != side)

    def camps_of(self, sides: Iterable[str]) -> tuple[str, ...]:
        """The distinct camps of ``sides``, sorted."""
        return tuple(sorted({self.camp_of(s) for s in sides}))

    def members(self, camp: str) -> tuple[str, ...]:
        """The sides of ``camp`` this mapping names, sorted (a camp it does not know: the side of that key)."""
        return tuple(sorted(s for s, c in self._of.items() if c == camp)) or (camp,)

    def group(self, sides: Iterable[str]) -> dict[str, tuple[str, ...]]:
        """``sides`` by camp, camps sorted; each camp's sides in the order given, once each."""
        out: dict[str, list[str]] = {}
        for s in sides:
            members = out.setdefault(self.camp_of(s), [])
            if s not in members:
                members.append(s)
        return {c: tuple(out[c]) for c in sorted(out)}

    @property
    def has_alliances(self) -> bool:
        """Whether any two sides share a camp."""
        return len(set(self._of.values())) < len(self._of)

    @property
    def alliances(self) -> tuple[tuple[str, ...], ...]:
        """The camps of more than one side, each as its sorted side keys, by camp key."""
        return tuple(m for c in sorted(set(self._of.values())) if len(m := self.members(c)) > 1)


NO_CAMPS = Camps()
"""Every side its own camp: what the procedures use when no ``camps`` are given."""
