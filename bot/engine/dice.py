"""Dice sources: where the natural faces come from.

Every roll is drawn from a *dice source* passed in by the caller; the engine never touches the
global ``random``. Production uses :class:`SeededDice`, tests use :class:`ScriptedDice`.

Verifiable rolls
----------------
A campaign turn has a secret seed (32 bytes from :mod:`secrets`). Its SHA-256 is published when
the turn starts and the seed itself when the turn ends. The faces of a roll are a pure function
of the seed and the roll's *key*, a string naming what is rolled
(``t3/p2/force:7/movement``)::

    stream = SHAKE-256(b"aide-de-camp/dice/v1" || seed || key as UTF-8)
    take w bytes at a time (w = 1 for dice of up to 255 sides, 2 from 256 to 65,536 sides) as a
    big-endian integer v;
    reject v >= 256**w - (256**w mod sides), otherwise the face is v mod sides + 1.

Rejection keeps every face equally likely. Because a roll depends on its key and not on a running
counter, repeating an action after an undo draws the same dice: undo is never a re-roll.
"""

from __future__ import annotations

import hashlib
import secrets
from collections.abc import Iterable, Iterator, Sequence
from typing import Protocol

from .errors import InvalidInput

DOMAIN = b"aide-de-camp/dice/v1"
SEED_BYTES = 32
MAX_SIDES = 1 << 16
MAX_DICE = 1_000_000


class DiceSource(Protocol):
    """Anything that can produce natural faces for a keyed roll."""

    def faces(self, key: str, count: int, sides: int = 6) -> tuple[int, ...]:
        """Return ``count`` faces of ``sides``-sided dice for the roll named ``key``."""
        ...


def _check_request(key: str, count: int, sides: int) -> None:
    if not key:
        raise InvalidInput("A roll needs a key naming what is rolled.")
    if not 0 <= count <= MAX_DICE:
        raise InvalidInput("Cannot roll {count!r} dice: between 0 and {max_dice:,} per roll.", count=count, max_dice=MAX_DICE)
    if not 2 <= sides <= MAX_SIDES:
        raise InvalidInput("A die with {sides!r} sides is not allowed: 2 to {max_sides}.", sides=sides, max_sides=MAX_SIDES)


def _byte_tables(sides: int) -> tuple[bytes, bytes]:
    """Translate/delete tables that turn a stream of bytes into faces, for sides < 256."""
    limit = 256 - 256 % sides
    table = bytes((b % sides) + 1 if b < limit else 0 for b in range(256))
    return table, bytes(range(limit, 256))


_TABLES = {sides: _byte_tables(sides) for sides in (2, 3, 4, 6, 8, 10, 12, 20)}


def derive_faces(seed: bytes, key: str, count: int, sides: int = 6) -> tuple[int, ...]:
    """The faces a seed gives for a key: the reference algorithm, used by roller and verifier."""
    _check_request(key, count, sides)
    if count == 0:
        return ()
    if sides < 256:
        return tuple(_small_faces(seed, key, count, sides))
    prefix = DOMAIN + seed + key.encode("utf-8")
    width = 2  # MAX_SIDES fits in two bytes
    span = 256**width
    limit = span - span % sides
    want = (count + count // 4 + 16) * width
    while True:
        raw = hashlib.shake_256(prefix).digest(want)
        out = [v % sides + 1 for v in _words(raw, width) if v < limit]
        if len(out) >= count:
            return tuple(out[:count])
        want *= 2


def _small_faces(seed: bytes, key: str, count: int, sides: int) -> bytes:
    """Faces of dice with fewer than 256 sides, one byte each."""
    prefix = DOMAIN + seed + key.encode("utf-8")
    table, delete = _TABLES.get(sides) or _byte_tables(sides)
    # Ask for enough bytes that rejection almost never forces a second pass.
    want = count + count // 8 + 16
    while True:
        faces = hashlib.shake_256(prefix).digest(want).translate(table, delete)
        if len(faces) >= count:
            return faces[:count]
        want *= 2


def _words(raw: bytes, width: int) -> Iterator[int]:
    for i in range(0, len(raw) - width + 1, width):
        yield int.from_bytes(raw[i : i + width], "big")


def new_turn_seed() -> bytes:
    """A fresh secret seed for one turn."""
    return secrets.token_bytes(SEED_BYTES)


def seed_commitment(seed: bytes) -> str:
    """The SHA-256 of a seed, published when its turn starts."""
    return hashlib.sha256(seed).hexdigest()


class SeededDice:
    """Dice derived from a secret seed and each roll's key (see the module docstring)."""

    __slots__ = ("_seed",)

    def __init__(self, seed: bytes) -> None:
        if len(seed) < 16:
            raise InvalidInput("A dice seed must be at least 16 bytes long.")
        self._seed = bytes(seed)

    @classmethod
    def from_int(cls, value: int) -> SeededDice:
        """A reproducible source for demos and tests (``--seed 7``); never for real play."""
        return cls(hashlib.sha256(f"aide-de-camp/demo-seed/{value}".encode()).digest())

    @property
    def commitment(self) -> str:
        return seed_commitment(self._seed)

    def faces(self, key: str, count: int, sides: int = 6) -> tuple[int, ...]:
        return derive_faces(self._seed, key, count, sides)

    def packed_faces(self, key: str, count: int, sides: int = 6) -> bytes:
        """The same faces as :meth:`faces`, one byte each (sides < 256): for per-SP checks."""
        _check_request(key, count, sides)
        if sides >= 256:
            raise InvalidInput("Packed faces need dice with fewer than 256 sides.")
        return _small_faces(self._seed, key, count, sides) if count else b""


class ScriptedDice:
    """Faces given in advance, served in order whatever the key: for tests of exact sequences.

    ``keys`` records every request so a test can assert what was rolled and why.
    """

    def __init__(self, faces: Iterable[int]) -> None:
        self._faces: list[int] = list(faces)
        self._next = 0
        self.keys: list[tuple[str, int, int]] = []

    @property
    def remaining(self) -> int:
        return len(self._faces) - self._next

    def faces(self, key: str, count: int, sides: int = 6) -> tuple[int, ...]:
        _check_request(key, count, sides)
        if self.remaining < count:
            raise AssertionError(f"scripted dice ran out at {key!r}: {count} wanted")
        out = tuple(self._faces[self._next : self._next + count])
        for face in out:
            if not 1 <= face <= sides:
                raise AssertionError(f"scripted face {face} is not on a d{sides}")
        self._next += count
        self.keys.append((key, count, sides))
        return out


def roll_key(turn: int, phase: int, subject: str, procedure: str, *extra: object) -> str:
    """The canonical key of a roll: ``t{turn}/p{phase}/{subject}/{procedure}[/extra...]``.

    Keys name *what* is rolled, so the same action always gets the same dice.
    """
    parts: Sequence[object] = (f"t{turn}", f"p{phase}", subject, procedure, *extra)
    return "/".join(str(p) for p in parts)
