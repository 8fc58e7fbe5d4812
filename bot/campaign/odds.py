"""The odds a player sees before a roll (MC-4 Force test, MC-5 movement), and why.

From the very check the action rolls come: the modifiers (each with its rule ID), every outcome that
can happen with its exact chance and the natural faces of the die that give it (never a 0% row),
the face the best outcome needs, and whether the rule's worst outcome is likely enough (at least
:data:`DANGER`) for the player to be asked to "Roll anyway". A move's outcomes are counted along the
declared path: never more squares than the path has (MC-5.1, MC-5.3).

Every decision is here, pure; a cog only renders an :class:`Odds`.
"""

from __future__ import annotations

from collections.abc import Callable, Hashable, Sequence
from dataclasses import dataclass
from fractions import Fraction
from typing import TypeVar

from bot.engine.rolls import Check, Modifier, Roll
from bot.engine.text import Msg

DANGER = Fraction(1, 3)
"""A worst outcome at least this likely is a danger: the player confirms with "Roll anyway"."""
REACH = 24
"""How far past the die's last face to look for the face an out-of-reach best outcome would need."""
_KEY = "odds"
"""The key of the records resolved to read each face's outcome (never rolled, never logged)."""

K = TypeVar("K", bound=Hashable)


@dataclass(frozen=True)
class OddsRow:
    """One outcome that can happen."""

    key: str | int
    """The table's result (``"ok"``, ``"defend"`` ...) or, for a move, the squares it enters along its path."""
    label: str
    """The outcome in words (a :class:`Msg` or a table label)."""
    chance: Fraction
    faces: tuple[int, ...]
    """The natural faces of the die that give it, in increasing order (never empty)."""

    @property
    def die(self) -> Msg:
        """The faces as a player reads them: ``die 4–5``, ``die 6``, ``die 1, 3–4``."""
        return Msg("die {faces}", faces=faces_text(self.faces))


@dataclass(frozen=True)
class Odds:
    """What a roll can do, to show before the player commits."""

    rule: str
    name: str
    """The check's name (``Force test``), with :attr:`rule` its title."""
    sides: int
    modifiers: tuple[Modifier, ...]
    rows: tuple[OddsRow, ...]
    """Every outcome that can happen, the best first; their chances sum to 1."""
    goal: str
    """The best outcome the rule has (OK; the end of the declared path), in words."""
    goal_face: int | None
    """The lowest natural face that gives :attr:`goal`: more than :attr:`sides` when no face of the die
    does (the face it would need), None when no face at all would."""
    worst: str
    """The worst outcome the rule has (disaster; not moving at all), in words."""
    worst_chance: Fraction
    """The chance of :attr:`worst` (0 when it cannot happen)."""

    @property
    def danger(self) -> bool:
        """Whether the worst outcome is at least one chance in three (:data:`DANGER`)."""
        return self.worst_chance >= DANGER

    @property
    def expression(self) -> Msg:
        """The roll with its modifiers and their rule IDs: ``1d6 +2 Soult's Command Value (MC-4) -3 in a
        mountain square (MC-4)``."""
        return Msg.join("", (f"1d{self.sides}", *(Msg(" {modifier}", modifier=str(m)) for m in self.modifiers)))

    @property
    def needs(self) -> Msg:
        """The face the best outcome needs: ``needs 6 for OK ...``, ``needs 4 or more for ...``."""
        face = self.goal_face
        if face is None:
            return Msg("no roll is enough for {goal}", goal=self.goal)
        if face > self.sides:
            return Msg("no roll is enough for {goal} (it would need {face} on 1d{sides})", goal=self.goal, face=face,
                       sides=self.sides)
        if face <= 1:
            return Msg("any roll is enough for {goal}", goal=self.goal)
        if face == self.sides:
            return Msg("needs {face} for {goal}", face=face, goal=self.goal)
        return Msg("needs {face} or more for {goal}", face=face, goal=self.goal)

    def chances(self) -> dict[str | int, Fraction]:
        """The chance of each outcome that can happen, by :attr:`OddsRow.key`."""
        return {row.key: row.chance for row in self.rows}


def faces_text(faces: Sequence[int]) -> str:
    """Faces as runs: ``(1, 2, 3)`` is ``1–3``, ``(1, 3, 4)`` is ``1, 3–4``."""
    runs: list[list[int]] = []
    for f in sorted(faces):
        if runs and f == runs[-1][-1] + 1:
            runs[-1].append(f)
        else:
            runs.append([f])
    return ", ".join(str(r[0]) if len(r) == 1 else f"{r[0]}–{r[-1]}" for r in runs)


def faces_by(check: Check, outcome: Callable[[Roll], K]) -> dict[K, tuple[int, ...]]:
    """The natural faces that give each outcome of a single-die check (only the outcomes that happen)."""
    if check.dice != 1:
        raise ValueError(f"faces are read off one die; {check.name} rolls {check.dice}")
    out: dict[K, list[int]] = {}
    for face in range(1, check.sides + 1):
        out.setdefault(outcome(check.resolve(_KEY, (face,))), []).append(face)
    return {k: tuple(v) for k, v in out.items()}


def lowest_face(check: Check, wanted: Callable[[Roll], bool]) -> int | None:
    """The lowest face of the die that gives a ``wanted`` roll; past the die's last face, the face it
    would need (up to :data:`REACH` more); None if none would."""
    return next((f for f in range(1, check.sides + REACH + 1) if wanted(check.resolve(_KEY, (f,)))), None)


def _chance(faces: Sequence[int], check: Check) -> Fraction:
    return Fraction(len(faces), check.sides)


def table_odds(check: Check) -> Odds:
    """A check's odds by its table's results (MC-4): the last row of the table (the highest totals) is
    the best outcome, the first the worst; the rows the best first."""
    by = faces_by(check, lambda roll: roll.result)
    labels = {b.result: b.label for b in check.table.bands}
    results = tuple(dict.fromkeys(check.table.results()))
    best, worst = results[-1], results[0]
    rows = tuple(OddsRow(r, labels[r], _chance(by[r], check), by[r]) for r in reversed(results) if r in by)
    return Odds(check.rule, check.name, check.sides, check.modifiers, rows,
                goal=labels[best], goal_face=lowest_face(check, lambda roll: roll.result == best),
                worst=labels[worst], worst_chance=_chance(by.get(worst, ()), check))


def move_result(start: str, path: Sequence[str], squares: int) -> Msg:
    """A move along ``path`` (from ``start``) that enters ``squares`` of it, in plain words (MC-5)."""
    n = min(squares, len(path))
    if n <= 0:
        return Msg("does not move: it stays at {square}", square=start)
    if n == len(path):
        return Msg.plural(n, "moves {n} square and reaches {square}, the end of its path",
                          "moves {n} squares and reaches {square}, the end of its path", square=path[-1])
    return Msg.plural(n, "moves {n} square and stops at {square}, short of {end}",
                      "moves {n} squares and stops at {square}, short of {end}", square=path[n - 1], end=path[-1])


def path_odds(check: Check, start: str, path: Sequence[str], allowance: Callable[[Roll], int]) -> Odds:
    """A move's odds along its declared path (MC-5.1, MC-5.3): one row per number of squares it can
    enter, never more than the path has, the whole path first. ``allowance`` is the squares a roll
    allows, as the declaration counts them. The worst outcome is not moving at all."""
    if not path:
        raise ValueError("a move's odds need a path of at least one square")
    length = len(path)

    def entered(roll: Roll) -> int:
        return min(max(allowance(roll), 0), length)

    by = faces_by(check, entered)
    rows = tuple(OddsRow(n, move_result(start, path, n), _chance(by[n], check), by[n]) for n in sorted(by, reverse=True))
    return Odds(check.rule, check.name, check.sides, check.modifiers, rows,
                goal=Msg("{square}, the end of the path", square=path[-1]),
                goal_face=lowest_face(check, lambda roll: entered(roll) == length),
                worst=move_result(start, path, 0), worst_chance=_chance(by.get(0, ()), check))
