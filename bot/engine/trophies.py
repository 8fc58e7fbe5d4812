"""CC-3 trophy capture, and the C&C battle die it is rolled with.

When a unit is eliminated in melee (battle back included) its opponent tries to take its Eagle,
Colour, Standard or Guidon. Infantry may take infantry flags; cavalry may take infantry or
cavalry flags; the capturing unit must have been ordered and must take ground; a unit without a
flag gives none. Roll 2 battle dice: Flag+Flag takes the trophy; Flag+Sabre takes an infantry
trophy when the captor is cavalry.

The battle die. A C&C die has six faces: infantry twice, cavalry, artillery, flag, sabre. Read
off a d6 (``rules/cc_campaign.yaml``, ``battle_die.faces``): **1-2 infantry, 3 cavalry,
4 artillery, 5 flag, 6 sabre**. Any mapping with the same counts gives the same odds; this one
is fixed so that a roll log can be re-read.

Ruling: the source names only infantry and cavalry as captors, so **artillery never takes a
trophy**, and no one takes an artillery unit's flag (the ``captures`` table says so, and a GM
may change it).
"""

from __future__ import annotations

import functools
import itertools
from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass
from fractions import Fraction
from typing import Any

from .cc_model import BattleDieFace
from .cc_tables import BattleDie, CcTables, TrophyCombination, default_cc_tables
from .dice import DiceSource
from .errors import InvalidInput, RuleViolation
from .model import Unit, UnitType, parse_enum
from .rolls import BatchRoll, Check, Roll
from .text import Msg

TAKEN = "taken"
NO_TROPHY = "none"
SHOWN = "{shown}"
"""Where the label of a roll that takes nothing names the symbols rolled (docs/dice.md, a table read by symbols)."""
NO_TROPHY_LABEL = SHOWN + ": no trophy"
"""The template of that label: the Msg in :meth:`TrophyCheck.resolve`, and the ``"otherwise"`` of its table."""
SHOWN_SEPARATOR = " + "


# --- the battle die -------------------------------------------------------------------------


def battle_die_check(*, subject: str = "", tables: CcTables | None = None) -> Check:
    """One C&C battle die read as its symbol (CC-3): 1-2 infantry, 3 cavalry, 4 artillery,
    5 flag, 6 sabre."""
    die = (tables or default_cc_tables()).battle_die
    return Check(die.rule, die.name, (), die.table(), subject=subject)


def roll_battle_dice(
    count: int, dice: DiceSource, key: str, *, subject: str = "", tables: CcTables | None = None
) -> BatchRoll:
    """Roll ``count`` battle dice at once: one record with the faces and a tally per symbol."""
    if isinstance(count, bool) or not isinstance(count, int) or count < 0:
        raise InvalidInput("Cannot roll {count!r} battle dice: give a whole number, 0 or more.", count=count)
    return battle_die_check(subject=subject, tables=tables).roll_many(dice, key, count)


def battle_die_odds(*, tables: CcTables | None = None) -> dict[BattleDieFace, Fraction]:
    """Exact chance of each symbol on one battle die."""
    return {BattleDieFace(r): p for r, p in battle_die_check(tables=tables).odds().items()}


# --- eligibility ----------------------------------------------------------------------------


@dataclass(frozen=True)
class TrophyEligibility:
    """Whether a captor may try for a victim's trophy (CC-3), and every reason it may not."""

    captor_id: str
    victim_id: str
    reasons: tuple[str, ...] = ()

    @property
    def eligible(self) -> bool:
        return not self.reasons

    def require(self) -> None:
        if self.reasons:
            raise RuleViolation(Msg.join(" ", self.reasons))  # i18n: passes a template on


def trophy_eligibility(
    captor: Unit,
    victim: Unit,
    *,
    ordered: bool,
    took_ground: bool,
    tables: CcTables | None = None,
) -> TrophyEligibility:
    """CC-3: infantry takes infantry flags, cavalry infantry or cavalry flags; the captor must be
    ordered and take ground; a unit without a flag gives none; artillery never captures (ruling)."""
    takes = (tables or default_cc_tables()).trophy.captures[captor.type]
    reasons: list[str] = []
    if not victim.flag:
        reasons.append(Msg("{name} carries no flag: there is no trophy to take (CC-3).", name=victim.name))
    if not takes:
        reasons.append(Msg("{name} is {value}: {value} never takes a trophy (CC-3).", name=captor.name, value=captor.type.value))
    elif victim.type not in takes:
        allowed = " or ".join(sorted(t.value for t in takes))
        reasons.append(Msg(
            "{name} is {value} and may take only {allowed} flags, not the flag of {name2} ({value2}) (CC-3).", name=captor.name, value=captor.type.value, allowed=allowed, name2=victim.name, value2=victim.type.value
        ))
    if not ordered:
        reasons.append(Msg("{name} was not ordered: only an ordered unit that takes ground may take a trophy (CC-3).", name=captor.name))
    if not took_ground:
        reasons.append(Msg("{name} did not take ground: only an ordered unit that takes ground may take a trophy (CC-3).", name=captor.name))
    return TrophyEligibility(captor.id, victim.id, tuple(reasons))


# --- the capture roll -----------------------------------------------------------------------


@dataclass(frozen=True)
class TrophyCheck:
    """CC-3: 2 battle dice, and the combinations that take a trophy for this captor and flag.

    A plain :class:`~.rolls.Check` sums its dice, which means nothing for symbols, so this check
    matches symbols instead; its record is an ordinary :class:`~.rolls.Roll` whose ``total``
    counts the flags rolled, and whose table is read by symbols (:attr:`table_spec`).
    """

    rule: str
    name: str
    die: BattleDie
    dice: int
    captor: UnitType
    flag_of: UnitType
    combinations: tuple[TrophyCombination, ...]
    """Only those that count for this captor and this flag."""
    subject: str = ""

    def symbols(self, faces: Sequence[int]) -> tuple[BattleDieFace, ...]:
        return tuple(self.die.face(f) for f in faces)

    def winning(self, faces: Sequence[int]) -> TrophyCombination | None:
        rolled = self.symbols(faces)
        return next((c for c in self.combinations if c.matches(rolled)), None)

    @functools.cached_property
    def table_spec(self) -> dict[str, Any]:
        """The check as its record carries it (``"table"``), a table read by symbols (docs/dice.md): the die's
        faces, the symbol counted for the total (the flags), the combinations that take the trophy for this
        captor and flag, and the outcome otherwise. With it a verifier recomputes the outcome from the dice
        alone (bot/engine/verify.py), as for every other roll: a "trophy taken" (1 Glory, CC-4) forged over
        dice that take nothing shows."""
        return {
            "dice": self.dice,
            "faces": [f.value for f in self.die.faces],
            "labels": {f.value: str(label) for f, label in self.die.labels.items()},
            "count": BattleDieFace.FLAG.value,
            "combinations": [{"symbols": [f.value for f in c.faces], "result": TAKEN, "label": str(c.label)}
                             for c in self.combinations],
            "otherwise": {"result": NO_TROPHY, "label": NO_TROPHY_LABEL},
        }

    def resolve(self, key: str, faces: Sequence[int]) -> Roll:
        if len(faces) != self.dice or any(not 1 <= f <= 6 for f in faces):
            raise InvalidInput("A trophy roll is {dice} battle dice, faces 1 to 6; got {faces!r}.", dice=self.dice, faces=list(faces))
        rolled = self.symbols(faces)
        combo = self.winning(faces)
        shown: str = ""
        for symbol in rolled:  # "Cavalry + Artillery", each symbol said in the reader's words
            label = self.die.label(symbol)
            shown = Msg("{left} + {right}", left=shown, right=label) if shown else label
        # The template is NO_TROPHY_LABEL, written out so the catalogues find it (bot/i18n/sources.py).
        label = combo.label if combo else Msg("{shown}: no trophy", shown=shown)
        return Roll(
            rule=self.rule,
            name=self.name,
            key=key,
            subject=self.subject,
            dice=tuple(faces),
            modifiers=(),
            total=rolled.count(BattleDieFace.FLAG),
            result=TAKEN if combo else NO_TROPHY,
            label=label,
            table=self.table_spec,
        )

    def roll(self, source: DiceSource, key: str) -> Roll:
        return self.resolve(key, source.faces(key, self.dice, 6))

    def odds(self) -> dict[str, Fraction]:
        """Exact chance the trophy is taken, every ordered pair of faces enumerated."""
        outcomes = list(itertools.product(range(1, 7), repeat=self.dice))
        counts = Counter(TAKEN if self.winning(f) else NO_TROPHY for f in outcomes)
        return {r: Fraction(counts[r], len(outcomes)) for r in (TAKEN, NO_TROPHY)}


def trophy_check(
    captor: UnitType | str, flag_of: UnitType | str, *, subject: str = "", tables: CcTables | None = None
) -> TrophyCheck:
    """The CC-3 roll for a ``captor`` type trying for a ``flag_of`` type's trophy."""
    cc = tables or default_cc_tables()
    c = parse_enum(UnitType, captor, "captor type")
    v = parse_enum(UnitType, flag_of, "flag type")
    combos = tuple(x for x in cc.trophy.combinations if x.applies(c, v))
    return TrophyCheck(cc.trophy.rule, cc.trophy.name, cc.battle_die, cc.trophy.dice, c, v, combos, subject)


def trophy_odds(captor: UnitType | str, flag_of: UnitType | str, *, tables: CcTables | None = None) -> dict[str, Fraction]:
    """Exact odds of a trophy: 1/36 with Flag+Flag; 3/36 for cavalry against infantry (Flag+Sabre too)."""
    return trophy_check(captor, flag_of, tables=tables).odds()


@dataclass(frozen=True)
class TrophyResult:
    captor_id: str
    victim_id: str
    taken: bool
    symbols: tuple[BattleDieFace, ...]
    roll: Roll

    def __str__(self) -> str:
        return str(self.roll)


def roll_trophy(
    captor: Unit,
    victim: Unit,
    dice: DiceSource,
    key: str,
    *,
    ordered: bool,
    took_ground: bool,
    tables: CcTables | None = None,
) -> TrophyResult:
    """Try for ``victim``'s trophy (CC-3); refused with every reason when not eligible."""
    trophy_eligibility(captor, victim, ordered=ordered, took_ground=took_ground, tables=tables).require()
    check = trophy_check(captor.type, victim.type, subject=Msg("{captor} against {victim}", captor=captor.name, victim=victim.name), tables=tables)
    roll = check.roll(dice, key)
    return TrophyResult(captor.id, victim.id, roll.result == TAKEN, check.symbols(roll.dice), roll)
