"""Rolls as data: a check to make, and the record of having made it.

A :class:`Check` is the whole of a dice procedure with its inputs already applied: the rule, the
labelled modifiers, the table of bands and any natural-face overrides. From one check come both
the roll (:meth:`Check.roll`, given a dice source and a key) and its exact odds
(:meth:`Check.odds`), so what a player is shown before committing is computed by the very code
that rolls.

A :class:`Roll` is the record of one check; a :class:`BatchRoll` the record of the same check made
once per strength point (wounded and deserter checks roll per SP, RU-1). Both serialise to JSON
and render as one readable line.
"""

from __future__ import annotations

import functools
import itertools
from collections import Counter
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from fractions import Fraction
from typing import Any, ClassVar

from .dice import DiceSource
from .drafts import draft_of
from .errors import InvalidInput
from .text import Msg


@dataclass(frozen=True, slots=True)
class Modifier:
    """A labelled number added to a roll."""

    value: int
    rule: str
    """Rule ID that grants the modifier, e.g. ``MC-5.1``."""
    reason: str
    """Why it applies, in a few words a player understands."""

    def __str__(self) -> str:
        return Msg("{value:+d} {reason} ({rule})", value=self.value, reason=composed(self.reason, REASONS),
                   rule=self.rule)

    def to_dict(self) -> dict[str, Any]:
        return {"value": self.value, "rule": self.rule, "reason": self.reason}

    @classmethod
    def from_dict(cls, data: Mapping[str, Any]) -> Modifier:
        return cls(int(data["value"]), str(data["rule"]), str(data["reason"]))


@dataclass(frozen=True, slots=True)
class Band:
    """One row of a results table: totals from ``low`` to ``high`` (``None`` is open-ended)."""

    low: int | None
    high: int | None
    result: str
    label: str
    value: int | None = None
    """A number the row carries, e.g. squares moved."""

    def contains(self, total: int) -> bool:
        return (self.low is None or total >= self.low) and (self.high is None or total <= self.high)

    def span(self) -> str:
        if self.low is None:
            return f"{self.high} or less"
        if self.high is None:
            return f"{self.low} or more"
        return str(self.low) if self.low == self.high else f"{self.low}-{self.high}"


@dataclass(frozen=True, slots=True)
class BandTable:
    """Bands covering every integer total, in increasing order (checked at load)."""

    bands: tuple[Band, ...]

    def lookup(self, total: int) -> Band:
        for band in self.bands:
            if band.contains(total):
                return band
        raise InvalidInput("No table row for a total of {total}.", total=total)  # unreachable once validated

    def by_result(self, result: str) -> Band:
        for band in self.bands:
            if band.result == result:
                return band
        raise KeyError(result)

    def results(self) -> tuple[str, ...]:
        """Results in table order (a generated table, like weather, may repeat one)."""
        return tuple(b.result for b in self.bands)

    @classmethod
    def by_face(cls, results: Sequence[str], labels: Mapping[str, str]) -> BandTable:
        """A table read straight off the die: face 1 gives ``results[0]`` and so on."""
        last = len(results)
        return cls(
            tuple(
                Band(None if i == 1 else i, None if i == last else i, r, labels.get(r, r))
                for i, r in enumerate(results, start=1)
            )
        )


@dataclass(frozen=True, slots=True)
class Natural:
    """A natural face that decides the result whatever the modifiers (MC-7.1, MC-7.2)."""

    face: int
    result: str


@dataclass(frozen=True)
class Check:
    """A dice procedure ready to roll: ``dice``d``sides`` + modifiers, then the table.

    ``multiplier`` applies after modifiers (RU-5: Defend doubles exploration); ``floor`` clamps
    the total from below (MC-5.2: losses never below 0).
    """

    rule: str
    name: str
    modifiers: tuple[Modifier, ...]
    table: BandTable
    dice: int = 1
    sides: int = 6
    naturals: tuple[Natural, ...] = ()
    multiplier: int = 1
    floor: int | None = None
    subject: str = ""
    """What the check is for (a Force or unit name), shown in the record."""

    @property
    def modifier_total(self) -> int:
        return sum(m.value for m in self.modifiers)

    def total_for(self, faces: Sequence[int]) -> int:
        total = (sum(faces) + self.modifier_total) * self.multiplier
        if self.floor is not None and total < self.floor:
            total = self.floor
        return total

    def band_for(self, faces: Sequence[int]) -> tuple[int, Band, bool]:
        """Total, table row and whether a natural face decided it."""
        total = self.total_for(faces)
        if len(faces) == 1:
            for nat in self.naturals:
                if faces[0] == nat.face:
                    return total, self.table.by_result(nat.result), True
        return total, self.table.lookup(total), False

    @functools.cached_property
    def table_spec(self) -> dict[str, Any]:
        """The check as its records carry it (``"table"``), so a verifier can recompute the total and
        result from the dice and modifiers alone (bot/engine/verify.py, docs/dice.md)."""
        return {
            "dice": self.dice,
            "multiplier": self.multiplier,
            "floor": self.floor,
            "naturals": [{"face": n.face, "result": n.result} for n in self.naturals],
            "bands": [{"min": b.low, "max": b.high, "result": b.result, "label": str(b.label), "value": b.value}
                      for b in self.table.bands],
        }

    def resolve(self, key: str, faces: Sequence[int]) -> Roll:
        total, band, natural = self.band_for(faces)
        return Roll(
            rule=self.rule,
            name=self.name,
            key=key,
            subject=self.subject,
            sides=self.sides,
            dice=tuple(faces),
            modifiers=self.modifiers,
            multiplier=self.multiplier,
            total=total,
            result=band.result,
            label=band.label,
            value=band.value,
            natural=natural,
            table=self.table_spec,
        )

    def roll(self, source: DiceSource, key: str) -> Roll:
        return self.resolve(key, source.faces(key, self.dice, self.sides))

    def roll_many(self, source: DiceSource, key: str, count: int, *, subject: str | None = None) -> BatchRoll:
        """The same single-die check once per SP: one record with the tally of results."""
        if self.dice != 1:
            raise InvalidInput("Only single-die checks can be rolled per strength point.")
        if count < 0:
            raise InvalidInput("Cannot roll for {count!r} SP: the count cannot be negative.", count=count)
        # Classify faces, not dice: each result but the last counted in one C call (bytes.translate
        # deleting every other face), the last is whatever the others left (issue 26 item 5).
        plan = self._batch_plan
        packer = getattr(source, "packed_faces", None) if plan.others is not None else None
        if packer is not None:
            packed = packer(key, count, plan.sides)
            faces = tuple(packed)
        else:
            faces = source.faces(key, count, plan.sides)
            packed = bytes(faces) if plan.others is not None else b""
        counts: tuple[tuple[str, int], ...]
        if plan.others is None:  # dice of 256 sides or more: no bytes to translate
            counts = plan.tally_faces(faces, count)
        elif len(plan.others) == 1:  # two results (every per-SP check of the rules): one count, the rest
            result, others = plan.others[0]
            n = len(packed.translate(None, others))
            counts = ((result, n), (plan.last, count - n))
        else:
            counts = plan.tally(packed, count)
        # The record as a draft with the same slots, then made a BatchRoll (bot/engine/drafts.py): a frozen
        # dataclass's __init__ goes through object.__setattr__ for each field, once per check of every unit.
        roll = _BatchDraft()
        roll.rule = plan.rule
        roll.name = plan.name
        roll.key = key
        roll.dice = faces
        roll.modifiers = plan.modifiers
        roll.counts = counts
        roll.labels = plan.labels
        roll.subject = self.subject if subject is None else subject
        roll.sides = plan.sides
        roll.table = plan.table
        roll.__class__ = BatchRoll
        return roll

    @functools.cached_property
    def _batch_plan(self) -> _BatchPlan:
        """Faces grouped by the result they give (every result listed, in table order), and the labels."""
        by_face = self.results_by_face()
        groups = tuple(
            (r, tuple(f for f, fr in enumerate(by_face, start=1) if fr == r)) for r in dict.fromkeys(self.table.results())
        )
        labels = tuple({b.result: b.label for b in self.table.bands}.items())
        others = tuple((r, bytes(b for b in range(256) if b not in group)) for r, group in groups[:-1]
                       ) if self.sides < 256 else None
        return _BatchPlan(groups[:-1], others, groups[-1][0], labels,
                          self.rule, self.name, self.modifiers, self.sides, self.table_spec)

    def results_by_face(self) -> tuple[str, ...]:
        """For a single die: the result each natural face gives."""
        return tuple(self.band_for((f,))[1].result for f in range(1, self.sides + 1))

    def _outcomes(self) -> itertools.product[tuple[int, ...]]:
        return itertools.product(range(1, self.sides + 1), repeat=self.dice)

    def odds(self) -> dict[str, Fraction]:
        """Exact chance of each result (every table row, zero ones included), summing to 1."""
        counts: Counter[str] = Counter(self.band_for(f)[1].result for f in self._outcomes())
        n = self.sides**self.dice
        return {r: Fraction(counts[r], n) for r in dict.fromkeys(self.table.results())}

    def total_odds(self) -> dict[int, Fraction]:
        """Exact chance of each total."""
        counts: Counter[int] = Counter(self.total_for(f) for f in self._outcomes())
        n = self.sides**self.dice
        return {t: Fraction(c, n) for t, c in sorted(counts.items())}


NAMES = ("{name}, second roll", "{name} (house rule)", "{fate} ({circumstance})")
"""How a check's name is composed (CC-1's fate: its name and how the leader fell, and its second roll)."""
REASONS = ("{name}'s Command Value", "{reason} x{count}")
"""How a modifier's reason is composed: of a name (a leader's), or of a reason counted (MC-9's tallies)."""
LABELS = ("{shown}: no trophy", "{left} + {right}")
"""How a roll's outcome is composed (a trophy roll that takes nothing names the symbols rolled, CC-3)."""
SUBJECTS = ("{captor} against {victim}", "{climate}, {season}", "{unit} ({reason})")
"""How a roll's subject is composed (issue 23: a trophy's two units, the weather's climate and season, a
deserter check's unit and why it checks), so that a stored subject is said in the reader's words too."""


def composed(text: str, templates: tuple[str, ...]) -> str:
    """A name or reason read back from a stored record as plain English (``Leader casualty fate
    (melee vs infantry or cavalry), second roll``) made a message again from the ``templates`` it is
    composed of, so it is said in the reader's language. A :class:`Msg` is already one."""
    if isinstance(text, Msg) or not isinstance(text, str):
        return text
    msg = Msg.reparse(text, templates)
    if msg is None:
        return text
    params = {k: _phrase(v) if v in PHRASES else composed(v, templates) if isinstance(v, str) else v
              for k, v in msg.params.items()}
    return Msg(msg.template, **params)  # i18n: passes a template on


PHRASES = frozenset({"left in rout (mercenary)", "mercenary unit on a lost battle (RU-6)", "left in rout",
                     "left under another order on a lost battle"})
"""Fixed phrases a composed text may hold (a deserter check's reason, MC-7.2, RU-6): read back from a stored
record as plain English, each is said in the reader's words again (bot/engine/aftermath.py writes them)."""


def _phrase(value: Any) -> Any:
    if isinstance(value, str) and not isinstance(value, Msg) and value in PHRASES:
        return Msg(value)  # i18n: passes a template on
    return value


def _mods_text(modifiers: Sequence[Modifier]) -> str:
    return Msg.join("", (Msg(" {modifier}", modifier=str(m)) for m in modifiers))


@dataclass(frozen=True)
class Roll:
    """The record of one check: what was rolled and why, the faces, modifiers, total, result."""

    rule: str
    name: str
    key: str
    dice: tuple[int, ...]
    modifiers: tuple[Modifier, ...]
    total: int
    result: str
    label: str
    subject: str = ""
    sides: int = 6
    multiplier: int = 1
    value: int | None = None
    natural: bool = False
    table: Mapping[str, Any] | None = field(default=None, compare=False, repr=False)
    """The check's table as :meth:`Check.table_spec` gives it (None in records logged before tables were)."""

    @property
    def title(self) -> str:
        if self.subject:
            return Msg("{name} ({rule}) for {subject}", name=composed(self.name, NAMES), rule=self.rule,
                       subject=composed(self.subject, SUBJECTS))
        return Msg("{name} ({rule})", name=composed(self.name, NAMES), rule=self.rule)

    def __str__(self) -> str:
        faces = "+".join(str(f) for f in self.dice)
        expr = Msg("{count}d{sides} [{faces}]{modifiers}", count=len(self.dice), sides=self.sides, faces=faces,
                   modifiers=_mods_text(self.modifiers))
        if self.multiplier != 1:
            expr = Msg("({expr}) x{multiplier}", expr=expr, multiplier=self.multiplier)
        # A Msg (the text of logs and summaries), so the bot can say the outcome in the reader's language.
        why = Msg("natural {face}: ", face=self.dice[0]) if self.natural else ""
        return Msg("{title}: {expr} = {total} -> {why}{label}", title=self.title, expr=expr, total=self.total,
                   why=why, label=composed(self.label, LABELS))

    def to_dict(self) -> dict[str, Any]:
        return {
            "kind": "roll",
            "rule": self.rule,
            "name": self.name,
            "key": self.key,
            "subject": self.subject,
            "sides": self.sides,
            "dice": list(self.dice),
            "modifiers": [m.to_dict() for m in self.modifiers],
            "multiplier": self.multiplier,
            "total": self.total,
            "result": self.result,
            "label": self.label,
            "value": self.value,
            "natural": self.natural,
            **({"table": self.table} if self.table is not None else {}),
        }

    @classmethod
    def from_dict(cls, data: Mapping[str, Any]) -> Roll:
        return cls(
            rule=str(data["rule"]),
            name=str(data["name"]),
            key=str(data["key"]),
            subject=str(data.get("subject", "")),
            sides=int(data.get("sides", 6)),
            dice=tuple(int(f) for f in data["dice"]),
            modifiers=tuple(Modifier.from_dict(m) for m in data.get("modifiers", ())),
            multiplier=int(data.get("multiplier", 1)),
            total=int(data["total"]),
            result=str(data["result"]),
            label=str(data["label"]),
            value=None if data.get("value") is None else int(data["value"]),
            natural=bool(data.get("natural", False)),
            table=_table(data),
        )


@dataclass(frozen=True, slots=True)
class BatchRoll:
    """The record of one check made per SP: all the faces and how many gave each result."""

    rule: str
    name: str
    key: str
    dice: tuple[int, ...]
    modifiers: tuple[Modifier, ...]
    counts: tuple[tuple[str, int], ...]
    labels: tuple[tuple[str, str], ...] = field(default=())
    subject: str = ""
    sides: int = 6
    table: Mapping[str, Any] | None = field(default=None, compare=False, repr=False)
    """The check's table (:meth:`Check.table_spec`), as in :class:`Roll`."""

    SHOWN_DICE: ClassVar[int] = 30

    def count(self, result: str) -> int:
        for r, n in self.counts:
            if r == result:
                return n
        return 0

    @property
    def title(self) -> str:
        if self.subject:
            return Msg("{name} ({rule}) for {subject}", name=composed(self.name, NAMES), rule=self.rule,
                       subject=composed(self.subject, SUBJECTS))
        return Msg("{name} ({rule})", name=composed(self.name, NAMES), rule=self.rule)

    def __str__(self) -> str:
        shown = " ".join(str(f) for f in self.dice[: self.SHOWN_DICE])
        if len(self.dice) > self.SHOWN_DICE:
            shown += f" ... ({len(self.dice) - self.SHOWN_DICE} more)"
        labels = dict(self.labels)
        # "dead: 1", not "1 dead": a table's label is a heading, so a count never has to agree with it (issue 23)
        tally = Msg.join("; ", (Msg("{label}: {n}", n=n, label=labels.get(r, r)) for r, n in self.counts))
        return Msg("{title}: {count} SP, d{sides} [{shown}]{modifiers} -> {tally}", title=self.title,
                   count=len(self.dice), sides=self.sides, shown=shown, modifiers=_mods_text(self.modifiers),
                   tally=tally)

    def to_dict(self) -> dict[str, Any]:
        return {
            "kind": "batch",
            "rule": self.rule,
            "name": self.name,
            "key": self.key,
            "subject": self.subject,
            "sides": self.sides,
            "dice": list(self.dice),
            "modifiers": [m.to_dict() for m in self.modifiers],
            "counts": {r: n for r, n in self.counts},
            "labels": {r: t for r, t in self.labels},
            **({"table": self.table} if self.table is not None else {}),
        }

    @classmethod
    def from_dict(cls, data: Mapping[str, Any]) -> BatchRoll:
        return cls(
            rule=str(data["rule"]),
            name=str(data["name"]),
            key=str(data["key"]),
            subject=str(data.get("subject", "")),
            sides=int(data.get("sides", 6)),
            dice=tuple(int(f) for f in data["dice"]),
            modifiers=tuple(Modifier.from_dict(m) for m in data.get("modifiers", ())),
            counts=tuple((str(r), int(n)) for r, n in dict(data["counts"]).items()),
            labels=tuple((str(r), str(t)) for r, t in dict(data.get("labels", {})).items()),
            table=_table(data),
        )


RollRecord = Roll | BatchRoll


@dataclass(frozen=True, slots=True)
class _BatchPlan:
    """How :meth:`Check.roll_many` tallies faces and what its records share: the results it counts
    (each with its faces, and every byte but its faces for ``bytes.translate`` to delete), the last
    result (the rest), the labels, and the check's own fields every record repeats."""

    groups: tuple[tuple[str, tuple[int, ...]], ...]
    others: tuple[tuple[str, bytes], ...] | None
    """None for dice of 256 sides or more, whose faces are not bytes."""
    last: str
    labels: tuple[tuple[str, str], ...]
    rule: str
    name: str
    modifiers: tuple[Modifier, ...]
    sides: int
    table: Mapping[str, Any]

    def tally(self, packed: bytes, count: int) -> tuple[tuple[str, int], ...]:
        """How many faces gave each result, each counted in C but the last (whatever they left)."""
        counts = []
        for result, others in self.others or ():
            n = len(packed.translate(None, others))
            counts.append((result, n))
            count -= n
        counts.append((self.last, count))
        return tuple(counts)

    def tally_faces(self, faces: tuple[int, ...], count: int) -> tuple[tuple[str, int], ...]:
        """:meth:`tally` for dice of 256 sides or more (faces that are not bytes)."""
        counts = []
        for result, group in self.groups:
            n = 0
            for face in group:
                n += faces.count(face)
            counts.append((result, n))
            count -= n
        counts.append((self.last, count))
        return tuple(counts)


_BatchDraft = draft_of(BatchRoll)


def _table(data: Mapping[str, Any]) -> Mapping[str, Any] | None:
    table = data.get("table")
    return dict(table) if isinstance(table, Mapping) else None


def record_from_dict(data: Mapping[str, Any]) -> RollRecord:
    """Read back either kind of record from its JSON form."""
    if data.get("kind") == "batch":
        return BatchRoll.from_dict(data)
    return Roll.from_dict(data)


def binomial(n: int, p: Fraction) -> list[Fraction]:
    """Exact chance of k successes in n trials, k = 0..n (for "how many SP will return")."""
    from math import comb

    q = 1 - p
    return [comb(n, k) * p**k * q ** (n - k) for k in range(n + 1)]
