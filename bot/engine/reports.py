"""BR: what a battle reports back to the campaign, its validation, and the aftermath it calls for.

A battle is fought on the table (C&C, Epic, Murat, any miniatures rules); its report says, per
side, the outcome (won / lost / draw), the Forces present and, per unit, the SP killed, the SP
that left in rout and the SP that left under another order; per leader casualty, who and how he
fell (melee vs infantry or cavalry, or other); enemy leaders captured. C&C battles add the
Victory Banners required and won per side, the units eliminated in melee and by whom (trophy
attempts, CC-3) and the units that lost a block (Heroic status ends, CC-4).

Notes per system: Epic Napoleonics takes the final banner totals at the end (temporary banners
can be lost; a garrison's elimination gives no banner): report the final totals. Murat counts
losses in FoU points (RU-1); a Murat unit that **dissolves** leaves in rout: mark it
``dissolved`` and its SP not killed or withdrawn count as rout.

Flow: :func:`parse_report` (a plain dict, as a YAML/JSON upload gives) -> :func:`validate_report`
(against the Forces in the battle) -> :func:`plan_aftermath` (everything Phase 4 must do).

Rulings:
- A report gives every side with a Force in the battle, each once. A battle is fought between
  **camps** (RU-19, RU-20; without alliances a camp is a side, so a two-side battle's report has
  exactly two sides, as ever): allied sides report their camp's one outcome; of two camps one won and
  the other lost, or both drew; of three or more, at most one won and every other camp lost, or all
  drew. Allies never fight one another, so a battle of one camp is refused.
- A side cannot win more banners than the battle requires, nor a camp (its sides' banners added
  up); two camps cannot both reach the number required, and a camp that reached it is the winner.
- A unit eliminated in melee lost all its SP (its losses must add up to its strength).
- Every SP killed is a block lost, so a unit with SP killed loses its Heroic status even if the
  report leaves it out of ``lost_block``.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from .aftermath import (
    DeserterDuty,
    MercenaryRule,
    RetreatDuty,
    UnitLosses,
    both_defending,
    deserter_duty,
    post_battle_duty,
    reaction_after_defeat,
)
from .camps import NO_CAMPS, Camps
from .cc_model import BattleSystem, Circumstance
from .cc_tables import CcTables
from .errors import InvalidInput
from .glory import GloryAward, battle_glory, capture_glory
from .leaders import LeaderFate
from .model import Force, LeaderStatus, Outcome, Reaction, Unit, parse_enum
from .text import Msg
from .trophies import TrophyEligibility, TrophyResult, trophy_eligibility

# --- the report -----------------------------------------------------------------------------


@dataclass(frozen=True)
class LeaderCasualty:
    """A leader who fell in the battle, and how (CC-1 picks the fate table by it)."""

    leader: str
    circumstance: Circumstance


@dataclass(frozen=True)
class MeleeElimination:
    """A unit eliminated in melee (battle back included) and the enemy unit that did it (CC-3)."""

    unit_id: str
    by: str
    """The opposing unit, which tries for the trophy."""
    ordered: bool = False
    """The opposing unit was ordered."""
    took_ground: bool = False
    """The opposing unit took ground."""


@dataclass(frozen=True)
class SideReport:
    """One side's part of a battle report (BR)."""

    side: str
    outcome: Outcome
    forces: tuple[str, ...] = ()
    """The side's Forces present; empty means all of its Forces in the battle."""
    units: tuple[UnitLosses, ...] = ()
    """Units that lost SP; units left out lost none."""
    leader_casualties: tuple[LeaderCasualty, ...] = ()
    leaders_captured: tuple[str, ...] = ()
    """Enemy leaders this side captured on the table."""
    banners: int | None = None
    """Victory Banners won (C&C and Epic)."""
    dissolved: tuple[str, ...] = ()
    """Units that dissolved (Murat): their SP not killed or withdrawn leave in rout."""


@dataclass(frozen=True)
class BattleReport:
    """What any battle reports back to the campaign (BR)."""

    battle_id: str
    system: BattleSystem
    sides: tuple[SideReport, ...]
    banners_required: int | None = None
    """Victory Banners required to win (C&C and Epic)."""
    melee_eliminations: tuple[MeleeElimination, ...] = ()
    lost_block: tuple[str, ...] = ()
    """Units that lost a block (C&C); units with SP killed count too."""

    def side(self, side: str) -> SideReport:
        for s in self.sides:
            if s.side == side:
                return s
        raise InvalidInput("Side {side!r} is not in battle {battle_id!r}: {sides}.", side=side, battle_id=self.battle_id, sides=', '.join(s.side for s in self.sides))


# --- validation -----------------------------------------------------------------------------


@dataclass(frozen=True)
class ValidatedReport:
    """A report checked against the Forces in the battle, with every unit's losses resolved."""

    report: BattleReport
    forces: Mapping[str, Force]
    """Forces in the battle, by id."""
    force_of_unit: Mapping[str, str]
    losses: Mapping[str, UnitLosses]
    """Every unit of the battle (zero losses included), dissolved units resolved to rout."""
    camps: Camps = NO_CAMPS
    """The camps the report was checked with (RU-19): sides of one camp are allies."""

    def outcome(self, side: str) -> Outcome:
        return self.report.side(side).outcome

    def side_of_unit(self, unit_id: str) -> str:
        return self.forces[self.force_of_unit[unit_id]].side

    def unit(self, unit_id: str) -> Unit:
        return next(u for u in self.forces[self.force_of_unit[unit_id]].units if u.id == unit_id)

    def enemies_of(self, side: str) -> tuple[str, ...]:
        """The sides of the battle of another camp than ``side``'s, in report order (RU-19)."""
        return tuple(s.side for s in self.report.sides if self.camps.hostile(s.side, side))

    def enemy_of(self, side: str) -> str:
        """The first of :meth:`enemies_of` (of a two-side battle, the other side)."""
        return self.enemies_of(side)[0]


def _listing(items: Iterable[str], limit: int = 12) -> str:
    items = list(items)
    shown = ", ".join(items[:limit])
    return (shown + f" and {len(items) - limit} more") if len(items) > limit else (shown or "none")


def _check_sides(report: BattleReport, forces: Mapping[str, Force], camps: Camps) -> dict[str, tuple[str, ...]]:
    """Every side of the battle once (two for a battle of two sides), each listing its own Forces
    of the battle, every Force listed once; at least two hostile camps (RU-19, RU-20)."""
    bid = report.battle_id
    battle_sides = sorted({f.side for f in forces.values()})
    names = [s.side for s in report.sides]
    if len(battle_sides) <= 2 and len(names) != 2:
        raise InvalidInput("Battle {bid!r}: a report gives exactly two sides, got {n_names} ({listing}).", bid=bid, n_names=len(names), listing=_listing(names))
    for i, name in enumerate(names):
        if name in names[:i]:
            raise InvalidInput("Battle {bid!r}: side {names!r} is listed twice.", bid=bid, names=name)
    present: dict[str, tuple[str, ...]] = {}
    for s in report.sides:
        if s.side not in battle_sides:
            raise InvalidInput("Battle {bid!r}: side {side!r} has no Force in this battle; the sides are {listing}.", bid=bid, side=s.side, listing=_listing(battle_sides))
        own = tuple(fid for fid, f in forces.items() if f.side == s.side)
        for fid in s.forces:
            if fid not in forces:
                raise InvalidInput("Battle {bid!r}: Force {fid!r} is not in this battle; its Forces are {listing}.", bid=bid, fid=fid, listing=_listing(forces))
            if forces[fid].side != s.side:
                raise InvalidInput("Battle {bid!r}: Force {fid!r} fights for {side!r}, not {side2!r}.", bid=bid, fid=fid, side=forces[fid].side, side2=s.side)
        if s.forces:
            if len(set(s.forces)) != len(s.forces):
                raise InvalidInput("Battle {bid!r}: {side} lists a Force twice ({listing}).", bid=bid, side=s.side, listing=_listing(s.forces))
            if missing := [fid for fid in own if fid not in s.forces]:
                raise InvalidInput(
                    "Battle {bid!r}: Force {missing!r} ({side}) fought in this battle but the report leaves it out.", bid=bid, missing=missing[0], side=s.side
                )
        present[s.side] = own
    if missing_sides := [s for s in battle_sides if s not in present]:
        raise InvalidInput("Battle {bid!r}: side {missing_sides!r} fought in this battle but the report leaves it out.", bid=bid, missing_sides=missing_sides[0])
    if len(camps.camps_of(battle_sides)) < 2:
        raise InvalidInput("Battle {bid!r}: its sides ({listing}) are all of one camp, and allies never fight one another "
                           "(RU-19).", bid=bid, listing=_listing(battle_sides))
    return present


def _check_outcomes(report: BattleReport, camps: Camps) -> None:
    """RU-20: one outcome per camp, its sides agreeing; of two camps one won and the other lost, or
    both drew (a two-side battle: its two sides); of more, one winner and every other camp lost, or
    all drew."""
    bid = report.battle_id
    first: dict[str, SideReport] = {}
    for s in report.sides:
        ally = first.setdefault(camps.camp_of(s.side), s)
        if ally.outcome is not s.outcome:
            raise InvalidInput(
                "Battle {bid!r}: {side!r} {value} but its ally {side2!r} {value2}: allies share their camp's outcome "
                "(RU-20).", bid=bid, side=ally.side, value=ally.outcome.value, side2=s.side, value2=s.outcome.value)
    if len(first) > 2:
        outcomes = [s.outcome for s in first.values()]
        if set(outcomes) == {Outcome.DRAW} or (outcomes.count(Outcome.WON) == 1 and outcomes.count(Outcome.LOST) == len(outcomes) - 1):
            return
        listing = _listing(f"{camp} {s.outcome.value}" for camp, s in first.items())
        raise InvalidInput("Battle {bid!r}: {listing}: one camp wins and every other camp loses, or all draw (RU-20).",
                           bid=bid, listing=listing)
    (a, b) = first.values()
    pair = {a.outcome, b.outcome}
    if pair == {Outcome.WON, Outcome.LOST} or pair == {Outcome.DRAW}:
        return
    if a.outcome is b.outcome:
        raise InvalidInput(
            "Battle {bid!r}: both {side!r} and {side2!r} are reported as {value}: one side wins and the other loses, or both draw.", bid=bid, side=a.side, side2=b.side, value=a.outcome.value
        )
    raise InvalidInput(
        "Battle {bid!r}: {side!r} {value} but {side2!r} {value2}: one side wins and the other loses, or both draw.", bid=bid, side=a.side, value=a.outcome.value, side2=b.side, value2=b.outcome.value
    )


def _check_banners(report: BattleReport, camps: Camps) -> None:
    bid, system = report.battle_id, report.system
    if not system.uses_banners:
        if report.banners_required is not None or any(s.banners is not None for s in report.sides):
            raise InvalidInput("Battle {bid!r}: a {label} battle has no Victory Banners; leave the banners out.", bid=bid, label=system.label)
        return
    required = report.banners_required
    if required is None:
        raise InvalidInput("Battle {bid!r}: a {label} battle reports the Victory Banners required to win.", bid=bid, label=system.label)
    if isinstance(required, bool) or not isinstance(required, int) or required < 1:
        raise InvalidInput("Battle {bid!r}: Victory Banners required must be 1 or more, got {required!r}.", bid=bid, required=required)
    for s in report.sides:
        if s.banners is None:
            raise InvalidInput("Battle {bid!r}: a {label} battle reports the Victory Banners {side} won.", bid=bid, label=system.label, side=s.side)
        if isinstance(s.banners, bool) or not isinstance(s.banners, int) or s.banners < 0:
            raise InvalidInput("Battle {bid!r}: {side}'s Victory Banners must be 0 or more, got {banners!r}.", bid=bid, side=s.side, banners=s.banners)
        if s.banners > required:
            raise InvalidInput(
                "Battle {bid!r}: {side} won {banners} Victory Banners but {required} win the battle: a side stops at {required}.", bid=bid, side=s.side, banners=s.banners, required=required
            )
    totals: dict[str, int] = {}
    outcome: dict[str, Outcome] = {}
    for s in report.sides:
        camp = camps.camp_of(s.side)
        totals[camp] = totals.get(camp, 0) + (s.banners or 0)
        outcome[camp] = s.outcome
    for camp, n in totals.items():
        if n > required:  # only allies' banners added up can pass it: each side's were checked above
            raise InvalidInput(
                "Battle {bid!r}: the camp {camp} won {banners} Victory Banners together but {required} win the battle: a "
                "camp stops at {required} (RU-20).", bid=bid, camp=camp, banners=n, required=required)
    reached = [camp for camp, n in totals.items() if n == required]
    if len(reached) == 2:
        raise InvalidInput(
            "Battle {bid!r}: both sides reached the {required} Victory Banners required: only the winner can.", bid=bid, required=required
        )
    if len(reached) > 2:
        raise InvalidInput("Battle {bid!r}: {listing} all reached the {required} Victory Banners required: only the "
                           "winner can (RU-20).", bid=bid, listing=_listing(reached), required=required)
    if reached and outcome[reached[0]] is not Outcome.WON:
        raise InvalidInput(
            "Battle {bid!r}: {side} reached the {required} Victory Banners required but is reported as {value}: a side that reaches them wins.", bid=bid, side=reached[0], required=required, value=outcome[reached[0]].value
        )


def validate_report(report: BattleReport, forces: Iterable[Force], *, camps: Camps = NO_CAMPS) -> ValidatedReport:
    """Check a report against the Forces in the battle (BR); every refusal quotes the input.

    ``camps`` (RU-19, RU-20; default every side its own camp): the battle is fought between camps;
    allies report one outcome, never fight one another in melee nor capture one another's leaders."""
    bid = report.battle_id
    if not str(bid).strip():
        raise InvalidInput("A battle report needs the battle's id.")
    by_id: dict[str, Force] = {}
    for f in forces:
        if f.id in by_id:
            raise InvalidInput("Battle {bid!r}: Force {id!r} is given twice.", bid=bid, id=f.id)
        by_id[f.id] = f
    _check_sides(report, by_id, camps)
    _check_outcomes(report, camps)
    _check_banners(report, camps)

    force_of: dict[str, str] = {}
    for fid, f in by_id.items():
        for u in f.units:
            if u.id in force_of:
                raise InvalidInput("Battle {bid!r}: unit id {id!r} is in both Force {force_of!r} and {fid!r}.", bid=bid, id=u.id, force_of=force_of[u.id], fid=fid)
            force_of[u.id] = fid

    def unit_of(uid: str, side: str | None, what: str) -> Unit:
        if uid not in force_of:
            where = Msg("{side}'s units", side=side) if side else Msg("the units")
            own = [u for u, f in force_of.items() if side is None or by_id[f].side == side]
            raise InvalidInput("Battle {bid!r}: {what} {uid!r} is not in the battle; {where} are {listing}.", bid=bid, what=what, uid=uid, where=where, listing=_listing(own))
        real = by_id[force_of[uid]].side
        if side is not None and real != side:
            raise InvalidInput("Battle {bid!r}: {what} {uid!r} is listed under {side} but fights for {real}.", bid=bid, what=what, uid=uid, side=side, real=real)
        return next(u for u in by_id[force_of[uid]].units if u.id == uid)

    losses: dict[str, UnitLosses] = {uid: UnitLosses(uid) for uid in force_of}
    for s in report.sides:
        seen: set[str] = set()
        for ul in s.units:
            unit = unit_of(ul.unit_id, s.side, "unit")
            if ul.unit_id in seen:
                raise InvalidInput("Battle {bid!r}: unit {unit_id!r} is listed twice under {side}.", bid=bid, unit_id=ul.unit_id, side=s.side)
            seen.add(ul.unit_id)
            ul.check_against(unit)
            losses[ul.unit_id] = ul
        for uid in s.dissolved:
            unit = unit_of(uid, s.side, "dissolved unit")
            ul = losses[uid]
            # Murat: a dissolved unit leaves in rout; what was not killed or withdrawn routed.
            losses[uid] = UnitLosses(uid, ul.killed, unit.sp - ul.killed - ul.other_order, ul.other_order)

    leaders = {f.leader.name: f.side for f in by_id.values()}
    fallen: set[str] = set()
    for s in report.sides:
        for c in s.leader_casualties:
            if leaders.get(c.leader) != s.side:
                own = [n for n, side in leaders.items() if side == s.side]
                raise InvalidInput("Battle {bid!r}: leader {leader!r} does not lead a Force of {side} here; its leaders are {listing}.", bid=bid, leader=c.leader, side=s.side, listing=_listing(own))
            if c.leader in fallen:
                raise InvalidInput("Battle {bid!r}: leader {leader!r} is reported as a casualty twice.", bid=bid, leader=c.leader)
            fallen.add(c.leader)
    captured: set[str] = set()
    for s in report.sides:
        for name in s.leaders_captured:
            if name not in leaders or camps.friendly(leaders[name], s.side):
                enemy = [n for n, side in leaders.items() if camps.hostile(side, s.side)]
                raise InvalidInput("Battle {bid!r}: {side} captured {name!r}, who is not an enemy leader here; they are {listing}.", bid=bid, side=s.side, name=name, listing=_listing(enemy))
            if name in fallen:
                raise InvalidInput(
                    "Battle {bid!r}: leader {name!r} is reported both captured and a casualty: a casualty's capture comes from his fate roll (CC-1).", bid=bid, name=name
                )
            if name in captured:
                raise InvalidInput("Battle {bid!r}: leader {name!r} is reported captured twice.", bid=bid, name=name)
            captured.add(name)

    eliminated: set[str] = set()
    for m in report.melee_eliminations:
        victim = unit_of(m.unit_id, None, "unit eliminated in melee")
        unit_of(m.by, None, "unit credited with the melee")
        if camps.friendly(by_id[force_of[m.unit_id]].side, by_id[force_of[m.by]].side):  # RU-19: allies too
            raise InvalidInput("Battle {bid!r}: {by!r} and {unit_id!r} fight on the same side: a melee is against the enemy.", bid=bid, by=m.by, unit_id=m.unit_id)
        if m.unit_id in eliminated:
            raise InvalidInput("Battle {bid!r}: unit {unit_id!r} is reported eliminated twice.", bid=bid, unit_id=m.unit_id)
        eliminated.add(m.unit_id)
        ul = losses[m.unit_id]
        total = ul.killed + ul.rout + ul.other_order
        if total != victim.sp:
            raise InvalidInput(
                "Battle {bid!r}: {name} ({unit_id!r}) is reported eliminated in melee but its losses add up to {total} of its {sp} SP: report all {sp} SP.", bid=bid, name=victim.name, unit_id=m.unit_id, total=total, sp=victim.sp
            )
    for uid in report.lost_block:
        unit_of(uid, None, "unit that lost a block")

    return ValidatedReport(report, by_id, force_of, losses, camps)


# --- the aftermath it calls for -------------------------------------------------------------


@dataclass(frozen=True)
class WoundedDue:
    """MC-7.1: a unit's SP killed take the wounded check."""

    side: str
    force_id: str
    unit_id: str
    sp: int


@dataclass(frozen=True)
class DeserterDue:
    """MC-7.2: a unit's SP that take the deserter check (or desert outright, RU-6)."""

    side: str
    force_id: str
    unit_id: str
    duty: DeserterDuty


@dataclass(frozen=True)
class TrophyAttempt:
    """CC-3: a unit eliminated in melee, the enemy unit that may try for its trophy, and whether
    it may."""

    side: str
    """The captor's side."""
    captor_id: str
    victim_id: str
    ordered: bool
    took_ground: bool
    eligibility: TrophyEligibility


@dataclass(frozen=True)
class LeaderFateDue:
    """CC-1: a leader casualty whose fate must be rolled."""

    side: str
    force_id: str
    leader: str
    circumstance: Circumstance


@dataclass(frozen=True)
class GloryDue:
    """CC-4: what a camp's Glory award rests on, before the trophy and fate rolls (RU-23: once per camp)."""

    side: str
    """The side of the camp that receives the camp's Glory (RU-23)."""
    outcome: Outcome
    banners_required: int
    banners: int
    """The camp's Victory Banners, its sides' added up (each side's report gives its own)."""
    enemy_banners: int
    """The other camp's banners (its sides' added up); of three or more camps, the best of the others'
    (RU-20: the winner scores against the best of the others)."""
    leaders_captured: int
    """Enemy leaders the camp's sides captured on the table (each scores for the side that took him, RU-23;
    captures from fate rolls are added when known)."""


def glory_recipients(validated: ValidatedReport, side_order: Sequence[str] = ()) -> dict[str, str]:
    """RU-23: the side of each camp that receives the camp's Glory: the one with the most SP in the battle when
    it began; on a tie, the first in ``side_order`` (the scenario's order; default the report's)."""
    order = list(side_order) + [s.side for s in validated.report.sides if s.side not in side_order]
    strength: dict[str, int] = {}
    for f in validated.forces.values():
        strength[f.side] = strength.get(f.side, 0) + f.sp
    best: dict[str, str] = {}
    for side in sorted((s.side for s in validated.report.sides), key=order.index):
        camp = validated.camps.camp_of(side)
        if camp not in best or strength.get(side, 0) > strength.get(best[camp], 0):
            best[camp] = side
    return best


@dataclass(frozen=True)
class ReactionDue:
    """MC-7.4 (RU-9): a beaten Force's new reaction."""

    side: str
    force_id: str
    before: Reaction | None
    after: Reaction


@dataclass(frozen=True)
class RetreatDue:
    """MC-7.3: whether a Force must leave the battle square, and why."""

    side: str
    force_id: str
    duty: RetreatDuty


@dataclass(frozen=True)
class AftermathPlan:
    """Everything Phase 4 must do after one battle, derived from its validated report."""

    battle_id: str
    outcomes: tuple[tuple[str, Outcome], ...]
    wounded: tuple[WoundedDue, ...]
    deserters: tuple[DeserterDue, ...]
    trophy_attempts: tuple[TrophyAttempt, ...]
    leader_fates: tuple[LeaderFateDue, ...]
    glory: tuple[GloryDue, ...]
    """Empty for battles without Victory Banners."""
    lost_block: tuple[str, ...]
    heroic_lost: tuple[str, ...]
    """Heroic units that lost a block: no longer Heroic (CC-4)."""
    reactions: tuple[ReactionDue, ...]
    retreats: tuple[RetreatDue, ...]
    camp_outcomes: tuple[tuple[str, Outcome], ...] = ()
    """Each camp's outcome, in report order (RU-20); without alliances the same as ``outcomes``."""
    camps: Camps = NO_CAMPS
    """The camps of the battle (RU-19)."""
    recipients: Mapping[str, str] = field(default_factory=dict)
    """Camp key -> the side that receives the camp's Glory (RU-23): :func:`glory_recipients`."""
    leaders_captured: Mapping[str, int] = field(default_factory=dict)
    """Enemy leaders each side captured on the table (BR), by side."""

    @property
    def must_retreat(self) -> tuple[str, ...]:
        """Force ids that must leave the battle square (MC-7.3)."""
        return tuple(r.force_id for r in self.retreats if r.duty.must_move)

    def deserters_for(self, side: str) -> tuple[DeserterDue, ...]:
        return tuple(d for d in self.deserters if d.side == side)

    def captor_of(self, side: str) -> str:
        """The side credited with capturing a leader of ``side`` whose fate is Captured (CC-1, CC-4): a side
        of another camp (RU-19), always the winning camp's when an enemy camp won, else the first enemy
        camp in the report (RU-23); of that camp, the side that receives its Glory."""
        enemies = [(s, o) for s, o in self.outcomes if self.camps.hostile(s, side)]
        captor = next((s for s, o in enemies if o is Outcome.WON), enemies[0][0])
        return self.recipients.get(self.camps.camp_of(captor), captor)

    def glory_awards(
        self,
        *,
        trophies: Iterable[TrophyResult] = (),
        fates: Iterable[LeaderFate] = (),
        tables: CcTables | None = None,
    ) -> tuple[GloryAward, ...]:
        """CC-4 awards, one per side that gains anything (RU-23): each camp's award, once, to the side that
        receives it; with Victory Banners, +1 per enemy leader captured on the table to the side that took
        him; +1 per trophy taken (CC-3) to the captor's side, and +1 per leader whose fate is Captured (CC-1)
        to :meth:`captor_of`."""
        captor_side = {(a.captor_id, a.victim_id): a.side for a in self.trophy_attempts}
        fallen_side = {d.leader: d.side for d in self.leader_fates}
        flags: dict[str, int] = {}
        for t in trophies:
            if (t.captor_id, t.victim_id) not in captor_side:
                raise InvalidInput("Battle {battle_id!r} has no trophy attempt by {captor_id!r} on {victim_id!r}.", battle_id=self.battle_id, captor_id=t.captor_id, victim_id=t.victim_id)
            if t.taken:
                side = captor_side[(t.captor_id, t.victim_id)]
                flags[side] = flags.get(side, 0) + 1
        taken: dict[str, int] = dict(self.leaders_captured) if self.glory else {}
        for f in fates:
            if f.leader not in fallen_side:
                raise InvalidInput("Leader {leader!r} is not a casualty of battle {battle_id!r}.", leader=f.leader, battle_id=self.battle_id)
            if f.status is LeaderStatus.CAPTURED:
                enemy = self.captor_of(fallen_side[f.leader])
                taken[enemy] = taken.get(enemy, 0) + 1
        dues = {g.side: g for g in self.glory}
        outcome = dict(self.outcomes)
        awards = []
        for side, _ in self.outcomes:
            if side in dues:
                g = dues[side]
                awards.append(battle_glory(side, g.outcome, battle_id=self.battle_id, banners_required=g.banners_required,
                                           banners_won=g.banners, enemy_banners=g.enemy_banners,
                                           leaders_captured=taken.get(side, 0), trophies=flags.get(side, 0),
                                           tables=tables))
            elif taken.get(side) or flags.get(side):
                awards.append(capture_glory(side, outcome[side], battle_id=self.battle_id,
                                            leaders_captured=taken.get(side, 0), trophies=flags.get(side, 0),
                                            tables=tables))
        return tuple(awards)


def plan_aftermath(
    validated: ValidatedReport,
    *,
    mercenary: MercenaryRule = "check_all",
    holds_stronghold: Iterable[str] = (),
    heroic_units: Iterable[str] = (),
    side_order: Sequence[str] = (),
    tables: CcTables | None = None,
) -> AftermathPlan:
    """Derive Phase 4 from a validated report (BR): wounded and deserter checks (MC-7.1, MC-7.2,
    RU-6), trophy attempts (CC-3), leader fates (CC-1), what Glory rests on (CC-4), Heroic status
    lost, reactions (MC-7.4) and retreats (MC-7.3).

    ``holds_stronghold``: sides holding their own or a friendly stronghold in the battle square (their
    allies hold a friendly one there too, RU-19: on a draw none of that camp moves);
    ``heroic_units``: unit ids Heroic before the battle; ``side_order``: the scenario's order of the
    sides, which breaks a tie of strength for a camp's Glory (RU-23). The camps are those the report was
    validated with (:func:`validate_report`): RU-20 for battles of three or more camps.
    """
    v, report, camps = validated, validated.report, validated.camps
    strongholds = frozenset(holds_stronghold)
    outcomes = tuple((s.side, s.outcome) for s in report.sides)
    camp_outcomes: dict[str, Outcome] = {}
    for s in report.sides:
        camp_outcomes.setdefault(camps.camp_of(s.side), s.outcome)
    wounded: list[WoundedDue] = []
    deserters: list[DeserterDue] = []
    for fid, force in v.forces.items():
        outcome = v.outcome(force.side)
        for unit in force.units:
            ul = v.losses[unit.id]
            if ul.killed:
                wounded.append(WoundedDue(force.side, fid, unit.id, ul.killed))
            duty = deserter_duty(unit, ul, outcome, mercenary=mercenary)
            if duty.pools or duty.lost_outright:
                deserters.append(DeserterDue(force.side, fid, unit.id, duty))

    attempts = tuple(
        TrophyAttempt(
            v.side_of_unit(m.by),
            m.by,
            m.unit_id,
            m.ordered,
            m.took_ground,
            trophy_eligibility(v.unit(m.by), v.unit(m.unit_id), ordered=m.ordered, took_ground=m.took_ground, tables=tables),
        )
        for m in report.melee_eliminations
    )
    leader_force = {f.leader.name: fid for fid, f in v.forces.items()}
    fates = tuple(
        LeaderFateDue(s.side, leader_force[c.leader], c.leader, c.circumstance)
        for s in report.sides
        for c in s.leader_casualties
    )
    recipients = glory_recipients(v, side_order)
    glory: tuple[GloryDue, ...] = ()
    if report.system.uses_banners and report.banners_required is not None:
        banners: dict[str, int] = {}
        for s in report.sides:
            banners[camps.camp_of(s.side)] = banners.get(camps.camp_of(s.side), 0) + (s.banners or 0)

        def best_of_others(camp: str) -> int:
            """RU-20: the winner scores against the best of the other camps (of two, the other one)."""
            return max(n for other, n in banners.items() if other != camp)

        # RU-23: once per camp, from its summed banners, to the side that receives its Glory.
        glory = tuple(
            GloryDue(recipients[camp], outcome, report.banners_required, banners[camp], best_of_others(camp),
                     sum(len(s.leaders_captured) for s in report.sides if camps.camp_of(s.side) == camp))
            for camp, outcome in camp_outcomes.items()
        )
    lost = set(report.lost_block) | {uid for uid, ul in v.losses.items() if ul.killed}
    lost_block = tuple(uid for uid in v.force_of_unit if uid in lost)  # battle order
    heroic = frozenset(heroic_units)
    reactions = tuple(
        ReactionDue(f.side, fid, f.reaction, reaction_after_defeat(f))
        for fid, f in v.forces.items()
        if v.outcome(f.side) is Outcome.LOST
    )
    defending = both_defending(v.forces)
    retreats = tuple(
        RetreatDue(
            f.side,
            fid,
            post_battle_duty(v.outcome(f.side), holds_stronghold=any(camps.friendly(f.side, h) for h in strongholds),
                             both_defending=defending),
        )
        for fid, f in v.forces.items()
    )
    return AftermathPlan(
        battle_id=report.battle_id,
        outcomes=outcomes,
        wounded=tuple(wounded),
        deserters=tuple(deserters),
        trophy_attempts=attempts,
        leader_fates=fates,
        glory=glory,
        lost_block=lost_block,
        heroic_lost=tuple(uid for uid in lost_block if uid in heroic),
        reactions=reactions,
        retreats=retreats,
        camp_outcomes=tuple(camp_outcomes.items()),
        camps=camps,
        recipients=recipients,
        leaders_captured={s.side: len(s.leaders_captured) for s in report.sides if s.leaders_captured},
    )


# --- parsing an upload ----------------------------------------------------------------------


class _Field:
    """A value from an uploaded report with its path (``sides[0].units[2].killed``)."""

    __slots__ = ("path", "value")

    def __init__(self, value: Any, path: str) -> None:
        self.value, self.path = value, path

    def fail(self, what: str, /, **params: object) -> InvalidInput:
        """The error at this field; ``what`` is a template filled with ``params`` (or a Msg)."""
        text = what if isinstance(what, Msg) and not params else Msg(what, **params)  # i18n: passes a template on
        return InvalidInput("{field}: {what}", field=self.path or "report", what=text)

    def mapping(self, allowed: Iterable[str]) -> dict[str, Any]:
        if not isinstance(self.value, Mapping):
            raise self.fail("expected a mapping of fields, got {value!r}", value=self.value)
        allowed = set(allowed)
        if extra := sorted(str(k) for k in self.value if k not in allowed):
            raise self.fail("unknown field {extra!r}; allowed: {allowed}", extra=extra[0], allowed=', '.join(sorted(allowed)))
        return dict(self.value)

    def child(self, part: str, value: Any) -> _Field:
        return _Field(value, f"{self.path}.{part}" if self.path else part)

    def key(self, name: str) -> _Field:
        if not isinstance(self.value, Mapping) or name not in self.value:
            raise self.fail("missing {name!r}", name=name)
        return self.child(name, self.value[name])

    def opt(self, name: str) -> _Field:
        return self.child(name, self.value.get(name) if isinstance(self.value, Mapping) else None)

    @property
    def given(self) -> bool:
        return self.value is not None

    def list(self) -> list[_Field]:
        if self.value is None:
            return []
        if not isinstance(self.value, list | tuple):
            raise self.fail("expected a list, got {value!r}", value=self.value)
        return [_Field(v, f"{self.path}[{i}]") for i, v in enumerate(self.value)]

    def text(self) -> str:
        if isinstance(self.value, bool) or not isinstance(self.value, str | int) or not str(self.value).strip():
            raise self.fail("expected a name or id, got {value!r}", value=self.value)
        return str(self.value).strip()

    def count(self) -> int:
        if isinstance(self.value, bool) or not isinstance(self.value, int) or self.value < 0:
            raise self.fail("expected a whole number, 0 or more; got {value!r}", value=self.value)
        return self.value

    def flag(self) -> bool:
        if not isinstance(self.value, bool):
            raise self.fail("expected true or false, got {value!r}", value=self.value)
        return self.value

    def choice(self, kind: Any, what: str) -> Any:
        try:
            return parse_enum(kind, self.value, what)
        except InvalidInput as exc:
            raise self.fail(exc.text) from None  # i18n: passes a template on


_TOP = ("battle", "system", "banners_required", "sides", "melee_eliminations", "lost_block")
_SIDE = ("side", "outcome", "forces", "units", "leader_casualties", "leaders_captured", "banners")
_UNIT = ("unit", "killed", "rout", "other_order", "dissolved")


def _parse_side(node: _Field) -> SideReport:
    node.mapping(_SIDE)
    units: list[UnitLosses] = []
    dissolved: list[str] = []
    for u in node.opt("units").list():
        u.mapping(_UNIT)
        uid = u.key("unit").text()
        n = {k: (u.opt(k).count() if u.opt(k).given else 0) for k in ("killed", "rout", "other_order")}
        units.append(UnitLosses(uid, n["killed"], n["rout"], n["other_order"]))
        if u.opt("dissolved").given and u.opt("dissolved").flag():
            dissolved.append(uid)
    casualties = []
    for c in node.opt("leader_casualties").list():
        c.mapping(("leader", "fell"))
        casualties.append(LeaderCasualty(c.key("leader").text(), c.key("fell").choice(Circumstance, "way a leader fell")))
    banners = node.opt("banners")
    return SideReport(
        side=node.key("side").text(),
        outcome=node.key("outcome").choice(Outcome, "outcome"),
        forces=tuple(f.text() for f in node.opt("forces").list()),
        units=tuple(units),
        leader_casualties=tuple(casualties),
        leaders_captured=tuple(x.text() for x in node.opt("leaders_captured").list()),
        banners=banners.count() if banners.given else None,
        dissolved=tuple(dissolved),
    )


def parse_report(data: Any) -> BattleReport:
    """A battle report from a plain dict (a YAML or JSON upload); errors name the field path::

        battle: b1
        system: cc            # cc, epic, murat, miniatures
        banners_required: 7
        sides:
          - side: france
            outcome: won      # won, lost, draw
            banners: 7
            units: [{unit: u1, killed: 2, rout: 1, other_order: 0}]
            leader_casualties: [{leader: Ney, fell: melee}]   # melee or other
            leaders_captured: [Bagration]
          - side: russia
            outcome: lost
            banners: 4
        melee_eliminations: [{unit: u7, by: u1, ordered: true, took_ground: true}]
        lost_block: [u1]
    """
    root = _Field(data, "")
    root.mapping(_TOP)
    elims = []
    for m in root.opt("melee_eliminations").list():
        m.mapping(("unit", "by", "ordered", "took_ground"))
        elims.append(
            MeleeElimination(
                m.key("unit").text(),
                m.key("by").text(),
                m.opt("ordered").flag() if m.opt("ordered").given else False,
                m.opt("took_ground").flag() if m.opt("took_ground").given else False,
            )
        )
    required = root.opt("banners_required")
    return BattleReport(
        battle_id=root.key("battle").text(),
        system=root.key("system").choice(BattleSystem, "battle system"),
        sides=tuple(_parse_side(s) for s in root.key("sides").list()),
        banners_required=required.count() if required.given else None,
        melee_eliminations=tuple(elims),
        lost_block=tuple(x.text() for x in root.opt("lost_block").list()),
    )


def report_data(report: BattleReport) -> dict[str, Any]:
    """A report as plain data, :func:`parse_report`'s inverse (``parse_report({"battle": id, **data})`` gives
    ``report`` back), without its battle id: what a battle keeps of its report, its camps' claims and the
    GM's draft (their number is the battle's). Parts a report leaves empty are left out."""
    doc: dict[str, Any] = {"system": report.system.value}
    if report.banners_required is not None:
        doc["banners_required"] = report.banners_required
    doc["sides"] = [_side_data(s) for s in report.sides]
    if report.melee_eliminations:
        doc["melee_eliminations"] = [{"unit": m.unit_id, "by": m.by, "ordered": m.ordered,
                                      "took_ground": m.took_ground} for m in report.melee_eliminations]
    if report.lost_block:
        doc["lost_block"] = list(report.lost_block)
    return doc


def _side_data(side: SideReport) -> dict[str, Any]:
    out: dict[str, Any] = {"side": side.side, "outcome": side.outcome.value}
    if side.forces:
        out["forces"] = list(side.forces)
    if side.units:
        out["units"] = [{"unit": u.unit_id, "killed": u.killed, **({"rout": u.rout} if u.rout else {}),
                         **({"other_order": u.other_order} if u.other_order else {}),
                         **({"dissolved": True} if u.unit_id in side.dissolved else {})} for u in side.units]
    if side.leader_casualties:
        out["leader_casualties"] = [{"leader": c.leader, "fell": c.circumstance.value} for c in side.leader_casualties]
    if side.leaders_captured:
        out["leaders_captured"] = list(side.leaders_captured)
    if side.banners is not None:
        out["banners"] = side.banners
    return out
