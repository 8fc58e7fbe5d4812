"""CC-4 Glory: the award at the end of each battle, a ledger per side, and the ways to spend it.

Award: the losing side gets 1 Glory if it won at least half of the Victory Banners required to
win (``banners_won * 2 >= required``); the winning side gets ``1 + floor((winner's banners -
loser's banners) / 2)``; each side gets +1 for each enemy leader and each trophy it captured.
With 7 banners required, won 7 to 4: winner 2, loser 1; won 7 to 3: winner 3, loser 0.

Spending (each refused with a :class:`RuleViolation` saying why): Heroic unit, Rally,
Leadership, Stragglers, Anti-Guerrilla patrol (Spain only), Ordenanza (Portugal only). The
*moment* of a spend (start of your turn, start of a battle) is the services' to enforce: the
engine sees no clock. Heroic is the exception: it must use Glory gained in the side's latest
battle, which the ledger can check.

Rulings:
- A **draw** makes neither side the winner: each side is scored as a loser (1 Glory if it won at
  least half the banners required), plus its captures.
- A winner with **fewer banners** than the loser (a scenario's sudden-death objective) gets the
  base 1: the difference never counts below 0.
- **Heroic** is bought for **one** unit per battle (the source: "one Glory Counter gained during
  the battle"); ``heroic.per_battle`` in the tables changes it.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from fractions import Fraction
from typing import Any

from .cc_model import BattleDieFace, GloryKind, StragglerEffect, Theatre
from .cc_tables import CcTables, default_cc_tables
from .dice import DiceSource
from .errors import InvalidInput, RuleViolation
from .model import Outcome, Unit, UnitType, parse_enum
from .rolls import BatchRoll
from .text import Msg
from .trophies import roll_battle_dice


def _count(value: object, what: str) -> int:
    if isinstance(value, bool) or not isinstance(value, int) or value < 0:
        raise InvalidInput("{what} must be a whole number, 0 or more; got {value!r}.", what=what, value=value)
    return value


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

    def __post_init__(self) -> None:
        if isinstance(self.amount, bool) or not isinstance(self.amount, int) or self.amount == 0:
            raise InvalidInput("A Glory entry moves a whole, non-zero number of points; got {amount!r}.", amount=self.amount)
        if (self.kind is GloryKind.AWARD) != (self.amount > 0):
            raise InvalidInput("A Glory award adds points and a spend removes them; got {amount:+d} for {value}.", amount=self.amount, value=self.kind.value)

    def __str__(self) -> str:
        if self.battle_id:
            return Msg("{amount:+d} {reason} ({rule}) [battle {battle}]", amount=self.amount, reason=self.reason,
                       rule=self.rule, battle=self.battle_id)
        return Msg("{amount:+d} {reason} ({rule})", amount=self.amount, reason=self.reason, rule=self.rule)

    def to_dict(self) -> dict[str, Any]:
        return {
            "amount": self.amount,
            "kind": self.kind.value,
            "reason": self.reason,
            "rule": self.rule,
            "battle_id": self.battle_id,
            "subject": self.subject,
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

    @property
    def latest_battle(self) -> str | None:
        """The battle of the most recent award: Heroic status is bought right after it."""
        return next((e.battle_id for e in reversed(self.entries) if e.kind is GloryKind.AWARD), None)

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
    Both: +1 per enemy leader captured and per trophy captured.
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
        share = "half" if aw.loser_banner_share == Fraction(1, 2) else str(aw.loser_banner_share)
        add(aw.loser, Msg("{why} with {won} of the {required} banners required (at least {share})", why=why, won=won, required=required, share=share))
    add(leaders * aw.per_leader_captured, Msg.plural(leaders, "{n} enemy leader captured", "{n} enemy leaders captured"))
    add(flags * aw.per_trophy, Msg.plural(flags, "{n} trophy captured", "{n} trophies captured"))
    return GloryAward(side, battle_id, result, tuple(entries))


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
    battle_id: str | None = None,
    subject: str = "",
) -> GlorySpent:
    if ledger.balance < cost:
        raise RuleViolation(
            "{side} has {balance} Glory and {label} costs {cost} (CC-4).", side=ledger.side, balance=ledger.balance, label=kind.label, cost=cost
        )
    entry = GloryEntry(-cost, kind, text, rule, battle_id, subject)
    return GlorySpent(ledger.add(entry), entry, text)


def spend_heroic(
    ledger: GloryLedger,
    unit: Unit,
    *,
    battle_id: str,
    outcome: Outcome | str,
    already_heroic: bool = False,
    tables: CcTables | None = None,
) -> GlorySpent:
    """CC-4 Heroic unit: right after a battle the winner may spend Glory gained in it to make a
    surviving infantry or cavalry unit Heroic (until it loses a block)."""
    g = (tables or default_cc_tables()).glory
    sp = g.spend
    side = ledger.side
    if parse_enum(Outcome, outcome, "battle outcome") is not Outcome.WON:
        raise RuleViolation("Only the winner may make a unit Heroic (CC-4): {side} did not win battle {battle_id!r}.", side=side, battle_id=battle_id)
    if unit.type not in sp.heroic_types:
        allowed = " or ".join(sorted(t.value for t in sp.heroic_types))
        raise RuleViolation("{name} is {value}: only {allowed} units may be Heroic (CC-4).", name=unit.name, value=unit.type.value, allowed=allowed)
    if unit.sp <= 0:
        raise RuleViolation("{name} did not survive the battle: only a surviving unit may be made Heroic (CC-4).", name=unit.name)
    if already_heroic:
        raise RuleViolation("{name} is already Heroic; it stays so until it loses a block (CC-4).", name=unit.name)
    latest = ledger.latest_battle
    if latest != battle_id:
        raise RuleViolation(
            "Heroic status is bought right after the battle, with Glory gained in it (CC-4): {side}'s latest battle is {latest!r}, not {battle_id!r}.", side=side, latest=latest, battle_id=battle_id
        )
    done = ledger.spent_on(GloryKind.HEROIC, battle_id)
    if len(done) >= sp.heroic_per_battle:
        raise RuleViolation(
            "{side} already made {plural} Heroic after battle {battle_id!r}: at most {heroic_per_battle} per battle (CC-4).", side=side, plural=Msg.plural(len(done), "{n} unit", "{n} units"), battle_id=battle_id, heroic_per_battle=sp.heroic_per_battle
        )
    left = ledger.gained_in(battle_id) + sum(e.amount for e in done)
    if left < sp.heroic_cost:
        raise RuleViolation(
            "Heroic status is paid with Glory gained in the battle (CC-4): {side} has {left} Glory from battle {battle_id!r} left and it costs {heroic_cost}.", side=side, left=left, battle_id=battle_id, heroic_cost=sp.heroic_cost
        )
    bonus = Msg("battles as Grenadiers") if unit.type is UnitType.INFANTRY else Msg("battles as Cuirassiers")
    return _pay(
        ledger, GloryKind.HEROIC, sp.heroic_cost, Msg("{name} made Heroic: {bonus} until it loses a block", name=unit.name, bonus=bonus),
        g.rule, battle_id=battle_id, subject=unit.id,
    )


def heroic_lost(heroic_units: Iterable[str], lost_block: Iterable[str]) -> frozenset[str]:
    """CC-4: Heroic units that lost a block lose their Heroic status."""
    return frozenset(heroic_units) & frozenset(lost_block)


@dataclass(frozen=True)
class RallyResult:
    spent: GlorySpent
    unit: Unit
    """The unit with its block back."""


def spend_rally(
    ledger: GloryLedger,
    unit: Unit,
    *,
    original_sp: int,
    battle_id: str | None = None,
    tables: CcTables | None = None,
) -> RallyResult:
    """CC-4 Rally: at the start of your turn, return one block to an under-strength unit on the
    battlefield, never above its original strength; it is not automatically ordered."""
    g = (tables or default_cc_tables()).glory
    original = _count(original_sp, f"{unit.name}'s original strength")
    if unit.sp <= 0:
        raise RuleViolation("{name} is eliminated: Rally returns a block to a unit still on the battlefield (CC-4).", name=unit.name)
    if unit.sp >= original:
        raise RuleViolation(
            "{name} has {sp} of its original {original} blocks: Rally never takes a unit above its original strength (CC-4).", name=unit.name, sp=unit.sp, original=original
        )
    after = min(original, unit.sp + g.spend.rally_blocks)
    spent = _pay(
        ledger, GloryKind.RALLY, g.spend.rally_cost,
        Msg("{name} rallied to {after} blocks (not automatically ordered)", name=unit.name, after=after), g.rule,
        battle_id=battle_id, subject=unit.id,
    )
    return RallyResult(spent, unit.with_sp(after))


def spend_leadership(
    ledger: GloryLedger,
    unit: Unit,
    *,
    ordered: bool,
    terrain_reduces_dice: bool = False,
    battle_id: str | None = None,
    tables: CcTables | None = None,
) -> GlorySpent:
    """CC-4 Leadership: at the start of your turn, one ordered unit rolls 1 extra die if it
    battles; not cavalry whose dice are reduced by terrain."""
    g = (tables or default_cc_tables()).glory
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
        battle_id=battle_id, subject=unit.id,
    )


def stragglers_limit(balance: int, *, tables: CcTables | None = None) -> int:
    """CC-4: at most half of the available Glory (rounded down) goes to Stragglers."""
    g = (tables or default_cc_tables()).glory
    return int(_count(balance, "Available Glory") * g.spend.stragglers_share) // g.spend.stragglers_cost


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
    battle_id: str | None = None,
    tables: CcTables | None = None,
) -> StragglersResult:
    """CC-4 Stragglers: at the start of a battle, spend up to half of the available Glory; roll one
    battle die per point: infantry/cavalry/artillery -> the opponent removes a block from a unit of
    that type; flag -> he retreats one unit one hex; sabre -> nothing."""
    cc = tables or default_cc_tables()
    g = cc.glory
    if isinstance(dice_count, bool) or not isinstance(dice_count, int) or dice_count < 1:
        raise InvalidInput("Stragglers needs at least 1 Glory point to spend; got {dice_count!r}.", dice_count=dice_count)
    limit = stragglers_limit(ledger.balance, tables=cc)
    if dice_count > limit:
        raise RuleViolation(
            "Stragglers may use at most half of the available Glory, rounded down (CC-4): {side} has {balance}, so at most {limit}; {dice_count} asked.", side=ledger.side, balance=ledger.balance, limit=limit, dice_count=dice_count
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
        battle_id=battle_id,
    )
    return StragglersResult(spent, roll, tuple(blocks.items()), retreats, nothing)


def spend_anti_guerrilla(
    ledger: GloryLedger,
    *,
    theatre: Theatre | str,
    battle_id: str | None = None,
    tables: CcTables | None = None,
) -> GlorySpent:
    """CC-4 Anti-Guerrilla patrol (Spain only): cancel a Spanish Guerrilla counter; both discarded."""
    g = (tables or default_cc_tables()).glory
    where = parse_enum(Theatre, theatre, "campaign theatre")
    if where is not g.spend.anti_guerrilla_theatre:
        raise RuleViolation(
            "The Anti-Guerrilla patrol is for campaigns in {title} only (CC-4); this campaign is fought in {value!r}.", title=g.spend.anti_guerrilla_theatre.value.title(), value=where.value
        )
    return _pay(
        ledger, GloryKind.ANTI_GUERRILLA, g.spend.anti_guerrilla_cost,
        "Anti-Guerrilla patrol: the Guerrilla counter is cancelled; both counters are discarded", g.rule,
        battle_id=battle_id,
    )


def spend_ordenanza(
    ledger: GloryLedger,
    *,
    theatre: Theatre | str,
    allied: bool,
    battle_id: str | None = None,
    tables: CcTables | None = None,
) -> GlorySpent:
    """CC-4 Ordenanza (Portugal only): at battle start the allied player gains one Portuguese
    Militia Infantry unit, adjacent to another Portuguese unit and nearer its base edge, or on it."""
    g = (tables or default_cc_tables()).glory
    where = parse_enum(Theatre, theatre, "campaign theatre")
    if where is not g.spend.ordenanza_theatre:
        raise RuleViolation(
            "The Ordenanza is for campaigns in {title} only (CC-4); this campaign is fought in {value!r}.", title=g.spend.ordenanza_theatre.value.title(), value=where.value
        )
    if not allied:
        raise RuleViolation("Only the allied player may call out the Ordenanza (CC-4), not {side}.", side=ledger.side)
    return _pay(
        ledger, GloryKind.ORDENANZA, g.spend.ordenanza_cost,
        "Ordenanza: one Portuguese Militia Infantry unit joins, next to a Portuguese unit and nearer the base "
        "edge, or on the base edge", g.rule,
        battle_id=battle_id,
    )
