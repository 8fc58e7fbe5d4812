"""Free dice expressions for ``/roll dice``: ``2d6+1``, ``4d6kh3``, ``d20-2``, ``3d8kl1+1d4+2``.

Grammar (spaces ignored, case-insensitive)::

    expression := term (("+" | "-") term)*
    term       := [count] "d" sides [("kh" | "kl") keep]  |  number

Limits: at most 100 dice in all, 2 to 1000 sides, at most 20 terms, numbers up to 10,000.
The faces come from :mod:`bot.engine.dice` (a fresh secret seed per roll, revealed with the
result so anyone can re-derive the faces), never from the global ``random``.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from bot.engine.dice import DiceSource, SeededDice, derive_faces, new_turn_seed
from bot.engine.errors import InvalidInput

MAX_DICE = 100
MIN_SIDES, MAX_SIDES = 2, 1000
MAX_TERMS = 20
MAX_NUMBER = 10_000
MAX_LENGTH = 200

_TERM = re.compile(r"([+-])?(?:(\d*)d(\d+)(?:(kh|kl)(\d+))?|(\d+))")


@dataclass(frozen=True)
class DiceTerm:
    sign: int
    count: int
    sides: int
    keep: tuple[str, int] | None
    """``("kh", n)`` keeps the n highest, ``("kl", n)`` the n lowest; None keeps all."""
    faces: tuple[int, ...] = ()
    kept: tuple[bool, ...] = ()

    @property
    def value(self) -> int:
        return self.sign * sum(f for f, k in zip(self.faces, self.kept, strict=True) if k)

    @property
    def notation(self) -> str:
        keep = f"{self.keep[0]}{self.keep[1]}" if self.keep else ""
        return f"{self.count}d{self.sides}{keep}"

    def __str__(self) -> str:
        shown = ", ".join(str(f) if k else f"~~{f}~~" for f, k in zip(self.faces, self.kept, strict=True))
        return f"{self.notation} [{shown}]"


@dataclass(frozen=True)
class NumberTerm:
    sign: int
    number: int

    @property
    def value(self) -> int:
        return self.sign * self.number

    @property
    def notation(self) -> str:
        return str(self.number)

    def __str__(self) -> str:
        return str(self.number)


Term = DiceTerm | NumberTerm


@dataclass(frozen=True)
class FreeRoll:
    """A rolled expression: each term with its faces, the total, and the seed that gave the faces."""

    expression: str
    terms: tuple[Term, ...]
    seed_hex: str = ""

    @property
    def total(self) -> int:
        return sum(t.value for t in self.terms)

    @property
    def dice_count(self) -> int:
        return sum(t.count for t in self.terms if isinstance(t, DiceTerm))

    def breakdown(self) -> str:
        parts = []
        for i, t in enumerate(self.terms):
            sign = "-" if t.sign < 0 else ("+" if i else "")
            parts.append(f"{sign} {t}".strip() if i else f"{sign}{t}")
        return " ".join(parts)

    def __str__(self) -> str:
        return f"{self.expression}: {self.breakdown()} = {self.total}"


def parse(text: str) -> tuple[Term, ...]:
    """The terms of an expression (no dice rolled yet); :class:`InvalidInput` says what is wrong."""
    if re.search(r"\w\s+\w", text or ""):
        raise InvalidInput("Cannot read {strip!r}: put + or - between terms, like 2d6 + 3.", strip=text.strip())
    expr = re.sub(r"\s+", "", text or "").lower()
    if not expr:
        raise InvalidInput("Give a dice expression, like 2d6+1 or 4d6kh3.")
    if len(expr) > MAX_LENGTH:
        raise InvalidInput("A dice expression is at most {max_length} characters.", max_length=MAX_LENGTH)
    terms: list[Term] = []
    pos = 0
    while pos < len(expr):
        m = _TERM.match(expr, pos)
        if m is None or m.end() == pos or (terms and not m.group(1)):
            raise InvalidInput(
                "Cannot read {strip!r} at {expr!r}: write terms like 2d6, d20, 4d6kh3 or 3, joined by + or -.", strip=text.strip(), expr=expr[pos:pos + 10]
            )
        sign = -1 if m.group(1) == "-" else 1
        if m.group(6) is not None:
            number = int(m.group(6))
            if number > MAX_NUMBER:
                raise InvalidInput("Numbers in a dice expression go up to {max_number:,}, not {number:,}.", max_number=MAX_NUMBER, number=number)
            terms.append(NumberTerm(sign, number))
        else:
            count = int(m.group(2)) if m.group(2) else 1
            sides = int(m.group(3))
            if not 1 <= count <= MAX_DICE:
                raise InvalidInput("Roll 1 to {max_dice} dice, not {count}.", max_dice=MAX_DICE, count=count)
            if not MIN_SIDES <= sides <= MAX_SIDES:
                raise InvalidInput("A die has {min_sides} to {max_sides} sides, not {sides}.", min_sides=MIN_SIDES, max_sides=MAX_SIDES, sides=sides)
            keep = None
            if m.group(4):
                n = int(m.group(5))
                if not 1 <= n <= count:
                    raise InvalidInput("{group}{n} keeps 1 to {count} of {count}d{sides}.", group=m.group(4), n=n, count=count, sides=sides)
                keep = (m.group(4), n)
            terms.append(DiceTerm(sign, count, sides, keep))
        if len(terms) > MAX_TERMS:
            raise InvalidInput("A dice expression has at most {max_terms} terms.", max_terms=MAX_TERMS)
        pos = m.end()
    if sum(t.count for t in terms if isinstance(t, DiceTerm)) > MAX_DICE:
        raise InvalidInput("At most {max_dice} dice in one roll.", max_dice=MAX_DICE)
    return tuple(terms)


def _kept(faces: tuple[int, ...], keep: tuple[str, int] | None) -> tuple[bool, ...]:
    if keep is None:
        return tuple(True for _ in faces)
    how, n = keep
    order = sorted(range(len(faces)), key=lambda i: (faces[i], i), reverse=(how == "kh"))
    chosen = set(order[:n])
    return tuple(i in chosen for i in range(len(faces)))


def roll_terms(terms: tuple[Term, ...], dice: DiceSource, key: str) -> tuple[Term, ...]:
    out: list[Term] = []
    for i, t in enumerate(terms):
        if isinstance(t, DiceTerm):
            faces = dice.faces(f"{key}/{i}", t.count, t.sides)
            out.append(DiceTerm(t.sign, t.count, t.sides, t.keep, faces, _kept(faces, t.keep)))
        else:
            out.append(t)
    return tuple(out)


def roll(text: str, *, seed: bytes | None = None) -> FreeRoll:
    """Parse and roll ``text`` with a fresh secret seed (or ``seed``, for tests)."""
    terms = parse(text)
    seed = seed if seed is not None else new_turn_seed()
    key = roll_key_for(text)
    rolled = roll_terms(terms, SeededDice(seed), key)
    return FreeRoll(normalise(terms), rolled, seed.hex())


def roll_key_for(text: str) -> str:
    compact = re.sub(r"\s+", "", text).lower()
    return f"free/{compact}"


def normalise(terms: tuple[Term, ...]) -> str:
    out = ""
    for i, t in enumerate(terms):
        sign = "-" if t.sign < 0 else ("+" if i else "")
        out += sign + t.notation
    return out


def verify(result: FreeRoll, text: str) -> bool:
    """Whether the faces of ``result`` are the ones its revealed seed gives for ``text``."""
    seed = bytes.fromhex(result.seed_hex)
    key = roll_key_for(text)
    for i, t in enumerate(result.terms):
        if isinstance(t, DiceTerm) and derive_faces(seed, f"{key}/{i}", t.count, t.sides) != t.faces:
            return False
    return True
