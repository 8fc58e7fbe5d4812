"""CC-4 Glory: the award at the end of each battle, a ledger per side, and the ways to spend it.

Award: the losing side gets 1 Glory if it won at least half of the Victory Banners required to
win (``banners_won * 2 >= required``); the winning side gets ``1 + floor((winner's banners -
loser's banners) / 2)``; each side gets +1 for each enemy leader and each trophy it captured.
With 7 banners required, won 7 to 4: winner 2, loser 1; won 7 to 3: winner 3, loser 0.

Spending (each refused with a :class:`RuleViolation` saying why): Heroic unit, Rally,
Leadership, Stragglers, Anti-Guerrilla patrol (Spain only), Ordenanza (Portugal only). Every spend
belongs to a battle (:class:`SpendBattle`), and RU-17 says when: Rally, Leadership, Stragglers,
Anti-Guerrilla and Ordenanza only by a side in a battle that is pending (Phase 3, before its
report); Heroic only by the winner, with Glory gained in that battle, from its report until Phase 4
ends. The spends happen at the table: the campaign records the Glory debited and (Stragglers) rolls
the dice; what they do to blocks reaches the campaign only through the battle report.

Rulings (RU-15 for the first two):
- A **draw** makes neither side the winner: each side is scored as a loser (1 Glory if it won at
  least half the banners required), plus its captures.
- A winner with **fewer banners** than the loser (a scenario's sudden-death objective) gets the
  base 1: the difference never counts below 0.
- **Heroic** is bought for **one** unit per battle (the source: "one Glory Counter gained during
  the battle"); ``heroic.per_battle`` in the tables changes it.
- **Stragglers** (RU-17): at most half (rounded down) of the Glory the side held when the battle
  began, counting every Stragglers spend for that battle. Glory moves only in Phases 3 and 4, after
  a turn's battles began, so what a side held when a battle began is its ledger up to the turn before.
- A side's **nation** is the scenario's word for it: a side is Spanish (Anti-Guerrilla) or Portuguese
  (Ordenanza) when a word of its nation names that country or people (:data:`NATION_WORDS`), so an
  "Anglo-Portuguese" army holds Portuguese units. The sides of other camps in a battle are its
  enemies (RU-19); its allies are not.
- A battle of **three or more camps** (RU-20): the winner scores against the best of the others
  (``enemy_banners`` is the highest banner total among the other camps); every other camp scores
  as a loser. A camp's banners are its sides' together; each side of a camp is awarded on its own
  banners and captures (:func:`bot.engine.reports.plan_aftermath` works these out).
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from enum import StrEnum
from fractions import Fraction
from typing import Any

from .camps import NO_CAMPS, Camps
from .cc_model import BattleDieFace, GloryKind, StragglerEffect, Theatre
from .cc_tables import CcTables, default_cc_tables
from .dice import DiceSource
from .errors import InvalidInput, RuleViolation
from .model import Outcome, Unit, UnitType, parse_enum
from .phases import Phase
from .rolls import BatchRoll, composed
from .text import Msg
from .trophies import roll_battle_dice


def _count(value: object, what: str) -> int:
    if isinstance(value, bool) or not isinstance(value, int) or value < 0:
        raise InvalidInput("{what} must be a whole number, 0 or more; got {value!r}.", what=what, value=value)
    return value


REASONS = (
    "won the battle {won} banners to {enemy}: {winner_base} + {lead}/{winner_divisor} rounded down",
    "{why} with {won} of the {required} banners required (at least half)",
    "{why} with {won} of the {required} banners required (at least {share})",
    "{n} enemy leader captured", "{n} enemy leaders captured", "{n} trophy captured", "{n} trophies captured",
    "enemy leader {name} captured", "trophy of {name} taken",
)
"""The templates of a Glory award's reason (CC-4), by which a reason kept as plain English is read
back (:meth:`Msg.reparse`) to be said in the reader's language."""


# --- the ledger -----------------------------------------------------------------------------


@dataclass(frozen=True)
class GloryEntry:
    """One line of a side's Glory ledger: a gain (positive) or a spend (negative)."""

    amount: int
    kind: GloryKind
    reason: str
    rule: str
    battle_id: str | None = None
    """The battle the Glory was gained in, or spent at (when it was)."""
    subject: str = ""
    """The unit a spend was for, if any."""
    turn: int | None = None
    """The campaign turn of the entry (None: before any turn this ledger knows of)."""

    def __post_init__(self) -> None:
        if isinstance(self.amount, bool) or not isinstance(self.amount, int) or self.amount == 0:
            raise InvalidInput("A Glory entry moves a whole, non-zero number of points; got {amount!r}.", amount=self.amount)
        if (self.kind is GloryKind.AWARD) != (self.amount > 0):
            raise InvalidInput("A Glory award adds points and a spend removes them; got {amount:+d} for {value}.", amount=self.amount, value=self.kind.value)

    def __str__(self) -> str:
        reason = composed(self.reason, REASONS)  # kept as plain English in the store: said in any language
        if self.battle_id:
            return Msg("{amount:+d} {reason} ({rule}) [battle {battle}]", amount=self.amount, reason=reason,
                       rule=self.rule, battle=self.battle_id)
        return Msg("{amount:+d} {reason} ({rule})", amount=self.amount, reason=reason, rule=self.rule)

    def to_dict(self) -> dict[str, Any]:
        return {
            "amount": self.amount,
            "kind": self.kind.value,
            "reason": self.reason,
            "rule": self.rule,
            "battle_id": self.battle_id,
            "subject": self.subject,
            "turn": self.turn,
        }

    @classmethod
    def from_dict(cls, data: Mapping[str, Any]) -> GloryEntry:
        return cls(
            amount=data["amount"],
            kind=parse_enum(GloryKind, data["kind"], "Glory entry kind"),
            reason=str(data["reason"]),
            rule=str(data["rule"]),
            battle_id=None if data.get("battle_id") is None else str(data["battle_id"]),
            subject=str(data.get("subject", "")),
            turn=None if data.get("turn") is None else _count(data["turn"], "Glory entry turn"),
        )


@dataclass(frozen=True)
class GloryLedger:
    """A side's Glory over the campaign: immutable entries, and the balance they add up to."""

    side: str
    entries: tuple[GloryEntry, ...] = ()

    def __post_init__(self) -> None:
        running = 0
        for e in self.entries:
            running += e.amount
            if running < 0:
                raise InvalidInput("{side}'s Glory ledger goes below 0 at {e}.", side=self.side, e=e)

    @property
    def balance(self) -> int:
        return sum(e.amount for e in self.entries)

    def add(self, *entries: GloryEntry) -> GloryLedger:
        return GloryLedger(self.side, self.entries + entries)

    def record(self, award: GloryAward) -> GloryLedger:
        """Add a battle's award (CC-4) to this side's ledger."""
        if award.side != self.side:
            raise InvalidInput("This Glory award is for {side!r}, not for {side2!r}.", side=award.side, side2=self.side)
        return self.add(*award.entries)

    def gained_in(self, battle_id: str) -> int:
        return sum(e.amount for e in self.entries if e.kind is GloryKind.AWARD and e.battle_id == battle_id)

    def spent_on(self, kind: GloryKind, battle_id: str | None = None) -> tuple[GloryEntry, ...]:
        return tuple(e for e in self.entries if e.kind is kind and (battle_id is None or e.battle_id == battle_id))

    def held_before(self, turn: int) -> int:
        """The balance at the end of the turn before ``turn``: what the side held when that turn's battles
        began (Glory moves only in Phases 3 and 4, RU-17)."""
        return sum(e.amount for e in self.entries if e.turn is None or e.turn < turn)

    def lines(self) -> tuple[str, ...]:
        return (*(str(e) for e in self.entries), Msg("Balance: {balance} Glory", balance=self.balance))

    def to_dict(self) -> dict[str, Any]:
        return {"side": self.side, "entries": [e.to_dict() for e in self.entries]}

    @classmethod
    def from_dict(cls, data: Mapping[str, Any]) -> GloryLedger:
        return cls(str(data["side"]), tuple(GloryEntry.from_dict(e) for e in data.get("entries", ())))


# --- the award ------------------------------------------------------------------------------


@dataclass(frozen=True)
class GloryAward:
    """What one side gains from one battle (CC-4), line by line."""

    side: str
    battle_id: str
    outcome: Outcome
    entries: tuple[GloryEntry, ...]

    @property
    def total(self) -> int:
        return sum(e.amount for e in self.entries)


def battle_glory(
    side: str,
    outcome: Outcome | str,
    *,
    battle_id: str,
    banners_required: int,
    banners_won: int,
    enemy_banners: int,
    leaders_captured: int = 0,
    trophies: int = 0,
    tables: CcTables | None = None,
) -> GloryAward:
    """CC-4: Glory for ``side`` at the end of a battle.

    Loser (and each side in a draw, ruling): 1 if ``banners_won`` is at least half of
    ``banners_required``. Winner: 1 + floor((own - enemy banners) / 2), never below 1.
    Both: +1 per enemy leader captured and per trophy captured. ``enemy_banners``: the other camp's
    banners; in a battle of three or more camps the best of the others' (RU-20), and every camp but
    the winner is awarded as a loser.
    """
    g = (tables or default_cc_tables()).glory
    aw = g.award
    result = parse_enum(Outcome, outcome, "battle outcome")
    required = _count(banners_required, "Victory Banners required")
    won = _count(banners_won, f"{side}'s Victory Banners")
    enemy = _count(enemy_banners, "the enemy's Victory Banners")
    leaders = _count(leaders_captured, "Enemy leaders captured")
    flags = _count(trophies, "Trophies captured")
    if required < 1:
        raise InvalidInput("A battle needs at least 1 Victory Banner to win.")
    for who, n in ((side, won), ("the enemy", enemy)):
        if n > required:
            raise InvalidInput("{who} cannot have won {n} Victory Banners when {required} win the battle.", who=who, n=n, required=required)

    entries: list[GloryEntry] = []

    def add(amount: int, reason: str) -> None:
        if amount:
            entries.append(GloryEntry(amount, GloryKind.AWARD, reason, g.rule, battle_id))

    if result is Outcome.WON:
        lead = max(0, won - enemy)  # ruling: a winner behind on banners still gets the base
        add(
            aw.winner_base + lead // aw.winner_divisor,
            Msg("won the battle {won} banners to {enemy}: {winner_base} + {lead}/{winner_divisor} rounded down", won=won, enemy=enemy, winner_base=aw.winner_base, lead=lead, winner_divisor=aw.winner_divisor),
        )
    elif won >= aw.loser_banner_share * required:
        why = Msg("lost the battle") if result is Outcome.LOST else Msg("drew the battle")
        if aw.loser_banner_share == Fraction(1, 2):
            add(aw.loser, Msg("{why} with {won} of the {required} banners required (at least half)", why=why, won=won,
                              required=required))
        else:
            add(aw.loser, Msg("{why} with {won} of the {required} banners required (at least {share})", why=why, won=won,
                              required=required, share=str(aw.loser_banner_share)))
    entries += capture_glory(side, result, battle_id=battle_id, leaders_captured=leaders, trophies=flags,
                             tables=tables).entries
    return GloryAward(side, battle_id, result, tuple(entries))


def capture_glory(side: str, outcome: Outcome | str, *, battle_id: str, leaders_captured: int = 0, trophies: int = 0,
                  tables: CcTables | None = None) -> GloryAward:
    """CC-4: +1 per enemy leader captured and per trophy captured, for the side whose units took them (RU-23),
    whoever receives its camp's award."""
    aw = (tables or default_cc_tables()).glory.award
    rule = (tables or default_cc_tables()).glory.rule
    leaders = _count(leaders_captured, "Enemy leaders captured")
    flags = _count(trophies, "Trophies captured")
    entries = [GloryEntry(amount, GloryKind.AWARD, reason, rule, battle_id) for amount, reason in (
        (leaders * aw.per_leader_captured, Msg.plural(leaders, "{n} enemy leader captured", "{n} enemy leaders captured")),
        (flags * aw.per_trophy, Msg.plural(flags, "{n} trophy captured", "{n} trophies captured"))) if amount]
    return GloryAward(side, battle_id, parse_enum(Outcome, outcome, "battle outcome"), tuple(entries))


# --- when and where a spend belongs (RU-17) --------------------------------------------------


class BattleState(StrEnum):
    """Where a battle stands for the campaign."""

    PENDING = "pending"
    """Fought at the table, awaiting its report (Phase 3)."""
    REPORTED = "reported"
    """Reported; its aftermath is Phase 4's."""
    DONE = "done"
    """Its aftermath is over."""


@dataclass(frozen=True)
class SpendBattle:
    """The battle a Glory spend belongs to, as the campaign knows it when the spend is asked (RU-17)."""

    id: str
    turn: int
    """The turn it was fought in."""
    state: BattleState
    nations: Mapping[str, str]
    """Each side in the battle, with its nation as the scenario names it ("" for none)."""
    units: Mapping[str, str] = field(default_factory=dict)
    """Every unit of the Forces in the battle, by id, with its side."""
    outcomes: Mapping[str, Outcome] = field(default_factory=dict)
    """Each side's outcome, once the battle is reported."""
    names: Mapping[str, str] = field(default_factory=dict)
    """Each side's name, for the texts players read (its key when not given)."""
    camps: Camps = NO_CAMPS
    """The campaign's camps (RU-19): sides of one camp are not enemies. Default: every side its own."""

    def name(self, side: str) -> str:
        return self.names.get(side, side)

    @property
    def sides(self) -> frozenset[str]:
        return frozenset(self.nations)

    def enemies_of(self, side: str) -> frozenset[str]:
        """The sides of the battle of another camp than ``side``'s (RU-19)."""
        return frozenset(s for s in self.sides if self.camps.hostile(s, side))

    def won(self, side: str) -> bool:
        """Whether ``side``'s camp won the battle (RU-20, RU-23: allies share their camp's outcome)."""
        return any(o is Outcome.WON and self.camps.friendly(s, side) for s, o in self.outcomes.items())


PENDING_SPENDS = frozenset({GloryKind.RALLY, GloryKind.LEADERSHIP, GloryKind.STRAGGLERS, GloryKind.ANTI_GUERRILLA,
                            GloryKind.ORDENANZA})
"""RU-17: the spends made by a side in a battle that is pending (Phase 3, before its report)."""

NATION_WORDS: Mapping[Theatre, frozenset[str]] = {
    Theatre.SPAIN: frozenset({"spain", "spanish", "españa", "espana", "español", "espanol", "española", "espanola",
                              "spagna", "spagnolo", "spagnola"}),
    Theatre.PORTUGAL: frozenset({"portugal", "portuguese", "portugués", "portugues", "portuguesa", "portoghese",
                                 "portogallo"}),
}
"""The words of a side's nation that make it Spanish or Portuguese (English, Spanish, Italian)."""


def nation_of(theatre: Theatre, nation: str) -> bool:
    """Whether a side of ``nation`` (the scenario's word) belongs to ``theatre``'s country: "Spanish",
    "Spain" and "Anglo-Spanish" are Spanish; "Portuguese" and "Anglo-Portuguese" are Portuguese."""
    words = NATION_WORDS.get(theatre, frozenset())
    return any(w in words for w in re.split(r"[\W_]+", nation.casefold()) if w)


def spend_problem(kind: GloryKind, side: str, battle: SpendBattle, *, turn: int, phase: Phase) -> str | None:
    """RU-17: why ``side`` may not spend Glory on ``kind`` for ``battle`` in ``turn`` and ``phase``, in words;
    ``None`` when the moment is right (each spend then checks its own conditions)."""
    if kind is GloryKind.AWARD:
        raise InvalidInput("An award is not a Glory spend.")
    if side not in battle.sides:
        return Msg("{side} does not fight battle {battle}: a side spends Glory in its own battles (RU-17).",
                   side=battle.name(side), battle=battle.id)
    if kind is GloryKind.HEROIC:
        if battle.state is BattleState.PENDING:
            return Msg("Heroic status is bought once the battle is reported (RU-17): battle {battle} is not reported yet.",
                       battle=battle.id)
        if battle.state is BattleState.DONE or battle.turn != turn or phase not in (Phase.BATTLE, Phase.AFTERMATH):
            return Msg("Heroic status is bought from the battle's report until Phase 4 ends (RU-17): that time is over "
                       "for battle {battle}.", battle=battle.id)
        if not battle.won(side):
            return Msg("Only the winner may make a unit Heroic (CC-4): {side} did not win battle {battle}.",
                       side=battle.name(side), battle=battle.id)
        return None
    if battle.state is not BattleState.PENDING:
        return Msg("{label} is spent by a side in a battle that is pending, before its report (RU-17): battle {battle} "
                   "is already reported.", label=kind.label, battle=battle.id)
    if battle.turn != turn or phase is not Phase.BATTLE:
        return Msg("{label} is spent by a side in a battle that is pending, in Phase 3 (RU-17).", label=kind.label)
    return None


def _require_moment(kind: GloryKind, side: str, battle: SpendBattle, turn: int, phase: Phase | int) -> None:
    problem = spend_problem(kind, side, battle, turn=turn, phase=Phase(phase))
    if problem is not None:
        raise RuleViolation(problem)  # i18n: passes a template on


def spend_battle(kind: GloryKind, side: str, battles: Iterable[SpendBattle], *, turn: int,
                 phase: Phase | int, name: str | None = None) -> SpendBattle:
    """The battle a spend belongs to when its player names none: the one battle of ``battles`` where
    ``side`` may spend on ``kind`` now (RU-17). None: refused with when the spend is made; several: the
    player must say which."""
    fits = [b for b in battles if spend_problem(kind, side, b, turn=turn, phase=Phase(phase)) is None]
    if len(fits) == 1:
        return fits[0]
    if fits:
        raise InvalidInput("Say which battle the {label} spend is for: {battles}.", label=kind.label,
                           battles=", ".join(b.id for b in fits))
    if kind is GloryKind.HEROIC:
        raise RuleViolation("Heroic status is bought by the winner of a battle, from its report until Phase 4 ends "
                            "(RU-17): {side} has no such battle now.", side=name or side)
    raise RuleViolation("{label} is spent by a side in a battle that is pending (Phase 3, before its report; RU-17): "
                        "{side} has none now.", label=kind.label, side=name or side)


def _require_in_battle(unit: Unit, side: str, battle: SpendBattle, *, camp: bool = False) -> None:
    """``unit`` fought in ``battle`` with ``side``'s Forces (``camp``: or its allies', RU-23)."""
    owner = battle.units.get(unit.id)
    if owner is None or (owner != side and not (camp and battle.camps.friendly(owner, side))):
        raise RuleViolation("{name} is not with {side}'s Forces in battle {battle} (RU-17).", name=unit.name,
                            side=battle.name(side), battle=battle.id)


# --- spending -------------------------------------------------------------------------------


@dataclass(frozen=True)
class GlorySpent:
    """A spend made: the ledger after it, its entry, and what it does, in words."""

    ledger: GloryLedger
    entry: GloryEntry
    text: str


def _pay(
    ledger: GloryLedger,
    kind: GloryKind,
    cost: int,
    text: str,
    rule: str,
    *,
    battle: SpendBattle,
    turn: int,
    subject: str = "",
) -> GlorySpent:
    if ledger.balance < cost:
        raise RuleViolation(
            "{side} has {balance} Glory and {label} costs {cost} (CC-4).", side=battle.name(ledger.side), balance=ledger.balance, label=kind.label, cost=cost
        )
    entry = GloryEntry(-cost, kind, text, rule, battle.id, subject, turn)
    return GlorySpent(ledger.add(entry), entry, text)


def spend_heroic(
    ledger: GloryLedger,
    unit: Unit,
    *,
    battle: SpendBattle,
    turn: int,
    phase: Phase | int,
    already_heroic: bool = False,
    tables: CcTables | None = None,
) -> GlorySpent:
    """CC-4 Heroic unit: the winner may spend Glory gained in the battle to make a surviving infantry or
    cavalry unit that fought in it Heroic (until it loses a block); RU-17: from the battle's report until
    Phase 4 ends. ``unit`` has the SP it had left at the end of the battle."""
    g = (tables or default_cc_tables()).glory
    sp = g.spend
    side = ledger.side
    _require_moment(GloryKind.HEROIC, side, battle, turn, phase)
    _require_in_battle(unit, side, battle, camp=True)  # RU-23: the camp won, and the camp's Glory is spent
    if unit.type not in sp.heroic_types:
        allowed = Msg.join(", ", (Msg(t.value) for t in sorted(sp.heroic_types)))  # i18n: passes a template on
        raise RuleViolation("{name} is {value}: only these units may be Heroic: {allowed} (CC-4).", name=unit.name,
                            value=Msg(unit.type.value), allowed=allowed)  # i18n: passes a template on
    if unit.sp <= 0:
        raise RuleViolation("{name} did not survive the battle: only a surviving unit may be made Heroic (CC-4).", name=unit.name)
    if already_heroic:
        raise RuleViolation("{name} is already Heroic; it stays so until it loses a block (CC-4).", name=unit.name)
    done = ledger.spent_on(GloryKind.HEROIC, battle.id)
    if len(done) >= sp.heroic_per_battle:
        raise RuleViolation(
            "{side} already made {plural} Heroic after battle {battle_id!r}: at most {heroic_per_battle} per battle (CC-4).", side=battle.name(side), plural=Msg.plural(len(done), "{n} unit", "{n} units"), battle_id=battle.id, heroic_per_battle=sp.heroic_per_battle
        )
    left = ledger.gained_in(battle.id) + sum(e.amount for e in done)
    if left < sp.heroic_cost:
        raise RuleViolation(
            "Heroic status is paid with Glory gained in the battle (CC-4): {side} has {left} Glory from battle {battle_id!r} left and it costs {heroic_cost}.", side=battle.name(side), left=left, battle_id=battle.id, heroic_cost=sp.heroic_cost
        )
    bonus = Msg("battles as Grenadiers") if unit.type is UnitType.INFANTRY else Msg("battles as Cuirassiers")
    return _pay(
        ledger, GloryKind.HEROIC, sp.heroic_cost, Msg("{name} made Heroic: {bonus} until it loses a block", name=unit.name, bonus=bonus),
        g.rule, battle=battle, turn=turn, subject=unit.id,
    )


def heroic_lost(heroic_units: Iterable[str], lost_block: Iterable[str]) -> frozenset[str]:
    """CC-4: Heroic units that lost a block lose their Heroic status."""
    return frozenset(heroic_units) & frozenset(lost_block)


def spend_rally(
    ledger: GloryLedger,
    unit: Unit,
    *,
    battle: SpendBattle,
    turn: int,
    phase: Phase | int,
    tables: CcTables | None = None,
) -> GlorySpent:
    """CC-4 Rally: at the start of your turn at the table, return one block to an under-strength unit,
    never above its original strength; it is not automatically ordered. RU-17: by a side in a pending
    battle, for one of its units there; the block comes back on the table, and the campaign unit's SP
    change only through the battle report (how strong the unit is on the table, the campaign cannot see)."""
    g = (tables or default_cc_tables()).glory
    _require_moment(GloryKind.RALLY, ledger.side, battle, turn, phase)
    _require_in_battle(unit, ledger.side, battle)
    n = g.spend.rally_blocks
    return _pay(
        ledger, GloryKind.RALLY, g.spend.rally_cost,
        Msg("Rally: {name} takes {plural} back on the table, not automatically ordered (RU-17)", name=unit.name,
            plural=Msg.plural(n, "{n} block", "{n} blocks")),
        g.rule, battle=battle, turn=turn, subject=unit.id,
    )


def spend_leadership(
    ledger: GloryLedger,
    unit: Unit,
    *,
    ordered: bool,
    battle: SpendBattle,
    turn: int,
    phase: Phase | int,
    terrain_reduces_dice: bool = False,
    tables: CcTables | None = None,
) -> GlorySpent:
    """CC-4 Leadership: at the start of your turn at the table, one ordered unit rolls 1 extra die if it
    battles; not cavalry whose dice are reduced by terrain. RU-17: by a side in a pending battle."""
    g = (tables or default_cc_tables()).glory
    _require_moment(GloryKind.LEADERSHIP, ledger.side, battle, turn, phase)
    _require_in_battle(unit, ledger.side, battle)
    if not ordered:
        raise RuleViolation("{name} is not ordered: Leadership helps only an ordered unit (CC-4).", name=unit.name)
    if unit.type is UnitType.CAVALRY and terrain_reduces_dice:
        raise RuleViolation(
            "{name} is cavalry with its battle dice reduced by terrain: it may not use Leadership (CC-4).", name=unit.name
        )
    n = g.spend.leadership_dice
    return _pay(
        ledger, GloryKind.LEADERSHIP, g.spend.leadership_cost,
        Msg("{name} rolls {plural} if it battles this turn", name=unit.name, plural=Msg.plural(n, "{n} extra die", "{n} extra dice")), g.rule,
        battle=battle, turn=turn, subject=unit.id,
    )


def stragglers_limit(balance: int, *, tables: CcTables | None = None) -> int:
    """CC-4: at most half of the available Glory (rounded down) goes to Stragglers."""
    g = (tables or default_cc_tables()).glory
    return int(_count(balance, "Available Glory") * g.spend.stragglers_share) // g.spend.stragglers_cost


@dataclass(frozen=True)
class StragglersAllowance:
    """RU-17: what Stragglers may still use in one battle."""

    held: int
    """Glory the side held when the battle began."""
    limit: int
    """Dice allowed in all: half of ``held``, rounded down (CC-4)."""
    spent: int
    """Dice already bought for this battle."""

    @property
    def left(self) -> int:
        return max(0, self.limit - self.spent)


def stragglers_allowance(ledger: GloryLedger, battle: SpendBattle, *, tables: CcTables | None = None) -> StragglersAllowance:
    """RU-17: at most half (rounded down) of the Glory ``ledger``'s side held when ``battle`` began, counting
    every Stragglers spend for that battle."""
    cc = tables or default_cc_tables()
    held = max(0, ledger.held_before(battle.turn))
    spent = -sum(e.amount for e in ledger.spent_on(GloryKind.STRAGGLERS, battle.id)) // cc.glory.spend.stragglers_cost
    return StragglersAllowance(held, stragglers_limit(held, tables=cc), spent)


@dataclass(frozen=True)
class StragglersResult:
    spent: GlorySpent
    roll: BatchRoll
    blocks: tuple[tuple[UnitType, int], ...]
    """Blocks the opponent must remove, by unit type (his choice of unit)."""
    retreats: int
    """Units the opponent must retreat one hex (his choice)."""
    no_effect: int

    def lines(self) -> tuple[str, ...]:
        out = [Msg("Remove {plural} from {value} units of your choice.", plural=Msg.plural(n, "{n} block", "{n} blocks"), value=t.value) for t, n in self.blocks if n]
        if self.retreats:
            out.append(Msg("Retreat {plural} of your choice one hex.", plural=Msg.plural(self.retreats, "{n} unit", "{n} units")))
        if self.no_effect:
            out.append(Msg("{plural} with no effect.", plural=Msg.plural(self.no_effect, "{n} die", "{n} dice")))
        return tuple(out)


def spend_stragglers(
    ledger: GloryLedger,
    dice_count: int,
    dice: DiceSource,
    key: str,
    *,
    battle: SpendBattle,
    turn: int,
    phase: Phase | int,
    tables: CcTables | None = None,
) -> StragglersResult:
    """CC-4 Stragglers: at the start of a battle, spend up to half of the available Glory; roll one
    battle die per point: infantry/cavalry/artillery -> the opponent removes a block from a unit of
    that type; flag -> he retreats one unit one hex; sabre -> nothing. RU-17: by a side in a pending
    battle, at most half of the Glory it held when the battle began, every Stragglers spend counted."""
    cc = tables or default_cc_tables()
    g = cc.glory
    if isinstance(dice_count, bool) or not isinstance(dice_count, int) or dice_count < 1:
        raise InvalidInput("Stragglers needs at least 1 Glory point to spend; got {dice_count!r}.", dice_count=dice_count)
    _require_moment(GloryKind.STRAGGLERS, ledger.side, battle, turn, phase)
    allowed = stragglers_allowance(ledger, battle, tables=cc)
    if dice_count > allowed.left:
        raise RuleViolation(
            "Stragglers may use at most {limit} Glory in battle {battle}: half, rounded down, of the {held} Glory {side} "
            "held when it began; {spent} already spent on them, {dice_count} more asked (CC-4, RU-17).",
            limit=allowed.limit, battle=battle.id, held=allowed.held, side=battle.name(ledger.side), spent=allowed.spent,
            dice_count=dice_count,
        )
    roll = roll_battle_dice(dice_count, dice, key, subject=f"{ledger.side} stragglers", tables=cc)
    blocks: dict[UnitType, int] = {t: 0 for t in UnitType}
    retreats = nothing = 0
    for result, n in roll.counts:
        row = g.stragglers[BattleDieFace(result)]
        if row.effect is StragglerEffect.REMOVE_BLOCK:
            blocks[UnitType(result)] += n
        elif row.effect is StragglerEffect.RETREAT:
            retreats += n
        else:
            nothing += n
    spent = _pay(
        ledger, GloryKind.STRAGGLERS, dice_count * g.spend.stragglers_cost,
        Msg("Stragglers: {plural} against the enemy", plural=Msg.plural(dice_count, "{n} battle die", "{n} battle dice")), g.rule,
        battle=battle, turn=turn,
    )
    return StragglersResult(spent, roll, tuple(blocks.items()), retreats, nothing)


def spend_anti_guerrilla(
    ledger: GloryLedger,
    *,
    theatre: Theatre | str,
    battle: SpendBattle,
    turn: int,
    phase: Phase | int,
    tables: CcTables | None = None,
) -> GlorySpent:
    """CC-4 Anti-Guerrilla patrol (Spain only): cancel a Spanish Guerrilla counter; both discarded.
    RU-17: in a Peninsular campaign in Spain, by a side in a pending battle that faces the Spanish there."""
    g = (tables or default_cc_tables()).glory
    wanted = g.spend.anti_guerrilla_theatre
    _require_moment(GloryKind.ANTI_GUERRILLA, ledger.side, battle, turn, phase)
    where = parse_enum(Theatre, theatre, "campaign theatre")
    if where is not wanted:
        raise RuleViolation(
            "The Anti-Guerrilla patrol is for campaigns in {title} only (CC-4); this campaign is fought in {value!r}.", title=wanted.value.title(), value=where.value
        )
    if not any(nation_of(wanted, battle.nations[s]) for s in battle.enemies_of(ledger.side)):
        raise RuleViolation("The Anti-Guerrilla patrol is spent by the side facing the Spanish (CC-4, RU-17): no enemy "
                            "of {side} in battle {battle} is Spanish.", side=battle.name(ledger.side), battle=battle.id)
    return _pay(
        ledger, GloryKind.ANTI_GUERRILLA, g.spend.anti_guerrilla_cost,
        "Anti-Guerrilla patrol: the Guerrilla counter is cancelled; both counters are discarded", g.rule,
        battle=battle, turn=turn,
    )


def spend_ordenanza(
    ledger: GloryLedger,
    *,
    theatre: Theatre | str,
    battle: SpendBattle,
    turn: int,
    phase: Phase | int,
    tables: CcTables | None = None,
) -> GlorySpent:
    """CC-4 Ordenanza (Portugal only): at battle start the allied player gains one Portuguese Militia
    Infantry unit, adjacent to another Portuguese unit and nearer its base edge, or on it. RU-17: in a
    campaign in Portugal, by a side in a pending battle that holds Portuguese units."""
    g = (tables or default_cc_tables()).glory
    wanted = g.spend.ordenanza_theatre
    _require_moment(GloryKind.ORDENANZA, ledger.side, battle, turn, phase)
    where = parse_enum(Theatre, theatre, "campaign theatre")
    if where is not wanted:
        raise RuleViolation(
            "The Ordenanza is for campaigns in {title} only (CC-4); this campaign is fought in {value!r}.", title=wanted.value.title(), value=where.value
        )
    if not nation_of(wanted, battle.nations[ledger.side]):
        raise RuleViolation("Only a side holding Portuguese units may call out the Ordenanza (CC-4, RU-17): {side} "
                            "holds none.", side=battle.name(ledger.side))
    return _pay(
        ledger, GloryKind.ORDENANZA, g.spend.ordenanza_cost,
        "Ordenanza: one Portuguese Militia Infantry unit joins, next to a Portuguese unit and nearer the base "
        "edge, or on the base edge", g.rule,
        battle=battle, turn=turn,
    )
