"""CC-1 leader casualty fate and CC-2 leader replacement and leadership quality.

CC-1: after the battle, roll 1D6 for each leader casualty on the table for how he fell (melee vs
infantry or cavalry, or other circumstances): 1 Slain, 2 Mortal wound, 3-6 roll again on that
table's second column (melee: 1-2 Captured, 3 Crippled, 4 Serious, 5 Moderate, 6 Light wound;
other: 1 Crippled, 2 Serious, 3-4 Moderate, 5-6 Light wound).

CC-2: Captured, Crippled, Mortal wound and Slain leave for good and a New Leader takes over;
a Moderate wound misses the next battle and a Temporary Leader stands in until he returns; a
Serious wound commands from an open carriage until the campaign ends; a Light wound is fit for
the next battle. Carriage-bound, New and Temporary leaders have command range 2 instead of 3
and order at most 2 units in contiguous hexes instead of 3; a carriage-bound leader (and the unit
he is attached to) has movement 1; a replacement attaches only to its designated unit type.

RU-18: the replacement is designated by the type of the Force's strongest unit unless the player
chooses another, and keeps the replaced leader's Command Value; a Moderate wound returns once the
Force's next battle is reported, or after 3 turns without one.
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Iterable
from dataclasses import dataclass, replace
from fractions import Fraction

from .cc_model import Circumstance, Commander, Presence
from .cc_tables import ROLL_AGAIN, CcTables, FateTable, default_cc_tables
from .dice import DiceSource
from .errors import InvalidInput
from .model import Leader, LeaderStatus, Unit, UnitType, parse_enum
from .rolls import Check, Roll
from .text import Msg

# --- CC-1 leader casualty fate --------------------------------------------------------------


def _fate_table(circumstance: Circumstance | str, tables: CcTables | None) -> tuple[CcTables, FateTable]:
    cc = tables or default_cc_tables()
    circ = parse_enum(Circumstance, circumstance, "circumstance (how the leader fell)")
    return cc, cc.leaders.fate[circ]


def fate_checks(
    circumstance: Circumstance | str, *, subject: str = "", tables: CcTables | None = None
) -> tuple[Check, Check]:
    """CC-1: the first 1D6 and the second ("roll again") 1D6 for a leader who fell so."""
    cc, table = _fate_table(circumstance, tables)
    rule = cc.leaders.fate_rule
    name = Msg("{fate} ({circumstance})", fate=cc.leaders.fate_name, circumstance=table.name)
    first = Check(rule, name, (), table.first, subject=subject)
    second = Check(rule, Msg("{name}, second roll", name=name), (), table.second, subject=subject)
    return first, second


@dataclass(frozen=True)
class LeaderFate:
    """The record of one leader casualty's fate (CC-1)."""

    leader: str
    circumstance: Circumstance
    status: LeaderStatus
    first: Roll
    second: Roll | None = None
    """The "roll again" roll, when the first roll asked for it."""

    @property
    def rolls(self) -> tuple[Roll, ...]:
        return (self.first,) if self.second is None else (self.first, self.second)

    @property
    def label(self) -> str:
        return (self.second or self.first).label

    def __str__(self) -> str:
        return " / ".join(str(r) for r in self.rolls)


def roll_leader_fate(
    leader: Leader | str,
    circumstance: Circumstance | str,
    dice: DiceSource,
    key: str,
    *,
    tables: CcTables | None = None,
) -> LeaderFate:
    """Roll CC-1 for one leader casualty: ``{key}/first``, then ``{key}/second`` on "roll again"."""
    name = leader.name if isinstance(leader, Leader) else str(leader)
    if not name.strip():
        raise InvalidInput("A leader casualty needs the leader's name.")
    circ = parse_enum(Circumstance, circumstance, "circumstance (how the leader fell)")
    first_check, second_check = fate_checks(circ, subject=name, tables=tables)
    first = first_check.roll(dice, f"{key}/first")
    if first.result != ROLL_AGAIN:
        return LeaderFate(name, circ, LeaderStatus(first.result), first)
    second = second_check.roll(dice, f"{key}/second")
    return LeaderFate(name, circ, LeaderStatus(second.result), first, second)


def fate_odds(circumstance: Circumstance | str, *, tables: CcTables | None = None) -> dict[LeaderStatus, Fraction]:
    """Exact chance of each fate, both dice enumerated: e.g. P(Slain) = 1/6,
    P(Captured | melee) = 4/6 x 2/6."""
    first, second = fate_checks(circumstance, tables=tables)
    odds: dict[LeaderStatus, Fraction] = defaultdict(Fraction)
    for result, p in first.odds().items():
        if result != ROLL_AGAIN:
            odds[LeaderStatus(result)] += p
            continue
        for again, q in second.odds().items():
            odds[LeaderStatus(again)] += p * q
    # Most severe first, as the tables read.
    return {s: odds[s] for s in reversed(LeaderStatus) if s in odds}


def apply_fate(leader: Leader, fate: LeaderFate) -> Leader:
    """The leader with his new status (CC-1); who replaces him is :func:`next_battle_command`."""
    if fate.leader != leader.name:
        raise InvalidInput("This fate was rolled for {leader!r}, not for {name!r}.", leader=fate.leader, name=leader.name)
    return replace(leader, status=fate.status)


# --- CC-2 replacement and leadership quality ------------------------------------------------


_REPLACEMENT = {
    Presence.COMMANDS: Commander.LEADER,
    Presence.CARRIAGE: Commander.LEADER,
    Presence.MISSES: Commander.TEMPORARY_LEADER,
    Presence.GONE: Commander.NEW_LEADER,
}


def replacement_for(status: LeaderStatus | str, *, tables: CcTables | None = None) -> Commander:
    """CC-2: who commands in the leader's place: himself, a Temporary Leader or a New Leader."""
    cc = tables or default_cc_tables()
    st = parse_enum(LeaderStatus, status, "leader status")
    return _REPLACEMENT[cc.leaders.statuses[st].next_battle]


@dataclass(frozen=True)
class NextBattleCommand:
    """CC-2: what a leader's status means at the next battle."""

    status: LeaderStatus
    presence: Presence
    commander: Commander
    """Who commands his troops: the leader himself, or a New or Temporary Leader."""
    command_range: int
    contiguous_orders: int
    """At most this many units in contiguous hexes per order."""
    movement: int | None
    """Fixed movement of the leader and the unit he is attached to (carriage: 1, no card raises
    it); ``None`` when movement is as usual."""
    attaches_to: UnitType | None
    """A replacement attaches only to units of his designated type; ``None``: any unit."""
    label: str
    meaning: str
    rule: str = "CC-2"

    @property
    def leader_takes_field(self) -> bool:
        return self.presence in (Presence.COMMANDS, Presence.CARRIAGE)

    @property
    def leaves_for_good(self) -> bool:
        return self.presence is Presence.GONE

    @property
    def returns_after_next_battle(self) -> bool:
        """A Moderate wound misses the next battle, then the leader is back."""
        return self.presence is Presence.MISSES

    def lines(self) -> tuple[str, ...]:
        """What a player reads on the roster, one fact a line."""
        out = [Msg("{status}: {meaning} ({rule}).", status=self.label, meaning=self.meaning, rule=self.rule)]
        if self.commander is not Commander.LEADER:
            kind = self.attaches_to.value if self.attaches_to else "any"
            out.append(Msg("A {commander} ({kind}) commands; he attaches only to {kind} units.",
                           commander=self.commander.label, kind=kind))
        if self.movement is not None:
            out.append(Msg("Movement {movement} for him and the unit he is attached to; no card may raise it.",
                           movement=self.movement))
        out.append(Msg("Command range {range}; at most {orders} units in contiguous hexes.", range=self.command_range,
                       orders=self.contiguous_orders))
        return tuple(out)


def next_battle_command(
    status: LeaderStatus | str,
    *,
    designated: UnitType | str | None = None,
    kind: Commander | str = Commander.LEADER,
    tables: CcTables | None = None,
) -> NextBattleCommand:
    """CC-2: who commands at the next battle, with what range, contiguous orders and movement.

    ``kind`` is who this leader is: the scenario's own leader, or a New (or Temporary) Leader who
    took command (RU-18); a New Leader who takes the field commands as a New Leader.
    ``designated`` is the type (infantry, cavalry or artillery) a New or Temporary Leader is
    designated as when he takes over; it is required for them and refused for anyone else.
    """
    cc = tables or default_cc_tables()
    st = parse_enum(LeaderStatus, status, "leader status")
    spec = cc.leaders.statuses[st]
    commander = _REPLACEMENT[spec.next_battle]
    if commander is Commander.LEADER:
        commander = parse_enum(Commander, kind, "kind of leader")
    limits = cc.leaders.command
    arm: UnitType | None = None
    if commander is Commander.LEADER:
        if designated is not None:
            raise InvalidInput(
                "{label}: the leader commands himself; only a New or Temporary Leader is designated infantry, cavalry or artillery (CC-2), so drop {designated!r}.", label=spec.label, designated=str(designated)
            )
    else:
        if designated is None:
            raise InvalidInput(
                "{label}: the leader is replaced by a {label2}, who must be designated infantry, cavalry or artillery (CC-2).", label=spec.label, label2=commander.label
            )
        arm = parse_enum(UnitType, designated, f"{commander.label} type")
    carriage = spec.next_battle is Presence.CARRIAGE
    # CC-2: carriage-bound, New and Temporary leaders all command less well.
    reduced = carriage or commander is not Commander.LEADER
    return NextBattleCommand(
        status=st,
        presence=spec.next_battle,
        commander=commander,
        command_range=limits.reduced_range if reduced else limits.range,
        contiguous_orders=limits.reduced_contiguous if reduced else limits.contiguous,
        movement=limits.carriage_movement if carriage else None,
        attaches_to=arm,
        label=spec.label,
        meaning=spec.meaning,
        rule=cc.leaders.status_rule,
    )


def recovered_status(status: LeaderStatus | str) -> LeaderStatus:
    """A leader's status once the next battle his Force fights is reported (CC-2, RU-18).

    Light wound: already fit. Moderate wound: he missed that battle and now returns, fit.
    Serious wound stays until the campaign ends; the others are gone for good.
    """
    st = parse_enum(LeaderStatus, status, "leader status")
    if st in (LeaderStatus.LIGHT_WOUND, LeaderStatus.MODERATE_WOUND):
        return LeaderStatus.FIT
    return st


WOUND_TURNS = 3
"""RU-18: turns after which a wounded leader whose Force fights no battle is back (a few weeks)."""


def status_after_turns(status: LeaderStatus | str, *, wounded_turn: int, turn: int) -> LeaderStatus:
    """RU-18: a leader's status when ``turn`` begins, wounded in ``wounded_turn`` and his Force
    having fought no battle since: a Moderate (or Light) wound is healed once 3 turns have passed;
    any other status stays (Serious until the campaign ends, the others for good)."""
    st = parse_enum(LeaderStatus, status, "leader status")
    if turn - wounded_turn >= WOUND_TURNS:
        return recovered_status(st)
    return st


# --- RU-18 who takes command -----------------------------------------------------------------


def designation_for(units: Iterable[Unit]) -> UnitType:
    """RU-18: the type a New or Temporary Leader is designated by default: that of the Force's
    strongest unit (most SP; the first listed on a tie); infantry for a Force without units."""
    best: Unit | None = None
    for u in units:
        if best is None or u.sp > best.sp:
            best = u
    return best.type if best is not None else UnitType.INFANTRY


@dataclass(frozen=True)
class Replacement:
    """RU-18: the New or Temporary Leader who takes command of a Force after his leader's fate."""

    commander: Commander
    designated: UnitType
    cv: int
    """The replaced leader's Command Value (RU-18)."""
    rule: str = "CC-2, RU-18"

    @property
    def temporary(self) -> bool:
        """A Temporary Leader stands in only until the leader returns (Moderate wound)."""
        return self.commander is Commander.TEMPORARY_LEADER


def replacement(
    status: LeaderStatus | str,
    units: Iterable[Unit],
    *,
    cv: int,
    designated: UnitType | str | None = None,
    tables: CcTables | None = None,
) -> Replacement | None:
    """RU-18: who takes command of a Force whose leader's fate is ``status``; ``None`` when the
    leader keeps command (Fit, Light, Serious wound), whatever ``designated`` says. The replacement
    is designated ``designated`` (the player's choice, made before the roll) or
    :func:`designation_for` the Force's units, and keeps ``cv``."""
    commander = replacement_for(status, tables=tables)
    if commander is Commander.LEADER:
        return None
    kind = designation_for(units) if designated is None else parse_enum(UnitType, designated, f"{commander.label} type")
    return Replacement(commander, kind, cv)
