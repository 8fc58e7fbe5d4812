"""Verify an exported roll log: every roll re-derived from its turn's revealed seed.

A roll log is JSON::

    {"format": "aide-de-camp/roll-log", "version": 1,
     "turns": [{"turn": 1, "seed_sha256": "<hex>", "seed": "<hex or null until the turn ends>"}],
     "rolls": [{"turn": 1, "key": "t1/p2/force:7/movement", "sides": 6, "dice": [4], ...}]}

A campaign export carries the same object under ``"roll_log"``. For each turn whose seed is
revealed the verifier checks that the seed matches the hash published at the turn's start, then
re-derives the dice of every roll of that turn from ``(seed, key)`` (see :mod:`.dice`).
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

from .dice import derive_faces, seed_commitment
from .errors import EngineError, VerificationError

FORMAT = "aide-de-camp/roll-log"


@dataclass(frozen=True)
class Mismatch:
    turn: int
    key: str
    recorded: tuple[int, ...]
    derived: tuple[int, ...]

    def __str__(self) -> str:
        def show(d: tuple[int, ...]) -> str:
            return " ".join(map(str, d[:12])) + (" ..." if len(d) > 12 else "")

        return f"turn {self.turn} {self.key}: recorded [{show(self.recorded)}], seed gives [{show(self.derived)}]"


@dataclass
class VerificationReport:
    verified: int = 0
    mismatches: list[Mismatch] = field(default_factory=list)
    unrevealed_turns: list[int] = field(default_factory=list)
    unverifiable: int = 0
    """Rolls of turns whose seed is not revealed yet."""
    bad_seeds: list[int] = field(default_factory=list)
    """Turns whose revealed seed does not match the published hash."""
    problems: list[str] = field(default_factory=list)

    @property
    def ok(self) -> bool:
        return not (self.mismatches or self.bad_seeds or self.problems)

    def lines(self) -> list[str]:
        out = [f"{self.verified} rolls verified against their turn seeds."]
        if self.unverifiable:
            turns = ", ".join(map(str, self.unrevealed_turns))
            out.append(f"{self.unverifiable} rolls not verifiable yet: turn(s) {turns} still in play (seed not revealed).")
        for t in self.bad_seeds:
            out.append(f"MISMATCH: the revealed seed of turn {t} does not match the SHA-256 published at its start.")
        out += [f"MISMATCH: {m}" for m in self.mismatches]
        out += [f"PROBLEM: {p}" for p in self.problems]
        out.append("All rolls check out." if self.ok else "The log does NOT check out.")
        return out


def _int(value: Any, where: str) -> int:
    if isinstance(value, bool) or not isinstance(value, int):
        raise VerificationError(f"{where}: expected a whole number, got {value!r}")
    return value


def verify_log(data: Mapping[str, Any]) -> VerificationReport:
    """Re-derive every roll in a roll log (or a campaign export holding one)."""
    if not isinstance(data, Mapping):
        raise VerificationError("A roll log is a JSON object.")
    log = data.get("roll_log", data)
    if not isinstance(log, Mapping) or log.get("format") != FORMAT:
        raise VerificationError(f"Not a roll log: expected \"format\": \"{FORMAT}\".")
    turns = log.get("turns")
    rolls = log.get("rolls")
    if not isinstance(turns, list) or not isinstance(rolls, list):
        raise VerificationError("A roll log needs a list of \"turns\" and a list of \"rolls\".")
    report = VerificationReport()
    seeds: dict[int, bytes | None] = {}
    for i, t in enumerate(turns):
        if not isinstance(t, Mapping):
            raise VerificationError(f"turns[{i}]: expected an object")
        turn = _int(t.get("turn"), f"turns[{i}].turn")
        published = t.get("seed_sha256")
        revealed = t.get("seed")
        if revealed is None:
            seeds[turn] = None
            continue
        try:
            seed = bytes.fromhex(str(revealed))
        except ValueError:
            raise VerificationError(f"turns[{i}].seed: not hexadecimal") from None
        if seed_commitment(seed) != published:
            report.bad_seeds.append(turn)
            seeds[turn] = None
            continue
        seeds[turn] = seed
    for i, r in enumerate(rolls):
        if not isinstance(r, Mapping):
            raise VerificationError(f"rolls[{i}]: expected an object")
        turn = _int(r.get("turn"), f"rolls[{i}].turn")
        key = r.get("key")
        if not isinstance(key, str) or not key:
            raise VerificationError(f"rolls[{i}].key: expected the roll's key")
        dice = r.get("dice")
        if not isinstance(dice, list):
            raise VerificationError(f"rolls[{i}].dice: expected a list of faces")
        recorded = tuple(_int(d, f"rolls[{i}].dice") for d in dice)
        sides = _int(r.get("sides", 6), f"rolls[{i}].sides")
        if turn not in seeds:
            report.problems.append(f"rolls[{i}] ({key}) belongs to turn {turn}, which the log does not list")
            continue
        seed = seeds[turn]
        if seed is None:
            if turn in report.bad_seeds:
                continue  # reported once as a bad seed; these rolls are not "still in play"
            report.unverifiable += 1
            if turn not in report.unrevealed_turns:
                report.unrevealed_turns.append(turn)
            continue
        try:
            derived = derive_faces(seed, key, len(recorded), sides)
        except EngineError as exc:
            report.problems.append(f"rolls[{i}] ({key}): {exc}")
            continue
        if derived != recorded:
            report.mismatches.append(Mismatch(turn, key, recorded, derived))
        else:
            report.verified += 1
    return report
