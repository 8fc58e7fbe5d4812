"""MC-7 Phase 4: after the battle: wounded (MC-7.1), deserters (MC-7.2), movement after the
battle (MC-7.3, RU-8, RU-11) and reactions (MC-7.4, RU-9)."""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from typing import Literal

from .camps import NO_CAMPS, Camps
from .dice import DiceSource
from .drafts import draft_of
from .errors import InvalidInput, RuleViolation
from .grid import CampaignMap
from .model import Force, Order, Outcome, Quality, Reaction, Square, Territory, Unit
from .rolls import BatchRoll, Check, Modifier
from .tables import RuleBook, default_rulebook
from .text import Msg

MercenaryRule = Literal["check_all", "lose_all"]


# --- MC-7.1 wounded -------------------------------------------------------------------------


def wounded_check(territory: Territory, *, subject: str = "", rules: RuleBook | None = None) -> Check:
    """MC-7.1: 1D6 per SP killed; natural 1 dead, natural 6 returns; +1 friendly, -1 enemy territory."""
    proc = (rules or default_rulebook()).mc.wounded
    mods: tuple[Modifier, ...] = ()
    if territory is Territory.FRIENDLY:
        mods = (proc.mod("friendly_territory"),)
    elif territory is Territory.ENEMY:
        mods = (proc.mod("enemy_territory"),)
    return Check(proc.rule, proc.name, mods, proc.bands, naturals=proc.naturals, subject=subject)


# --- MC-7.2 deserters -----------------------------------------------------------------------


def deserter_check(quality: Quality, *, routed: bool, subject: str = "", rules: RuleBook | None = None) -> Check:
    """MC-7.2: 1D6 per SP; natural 1 lost, natural 6 returns; quality (RU-7) and -1 for rout."""
    proc = (rules or default_rulebook()).mc.deserters
    mods = [proc.mod(quality.value)]
    if routed:
        mods.append(proc.mod("routed"))
    mods = [m for m in mods if m.value]  # raw troops add nothing; don't clutter the record
    return Check(proc.rule, proc.name, tuple(mods), proc.bands, naturals=proc.naturals, subject=subject)


_CHECKS: dict[tuple[object, ...], tuple[RuleBook, Check]] = {}


def _wounded_for(rules: RuleBook, territory: Territory) -> Check:
    """A battle rolls the same few checks for every unit: each built once per rule book."""
    entry = _CHECKS.get((id(rules), territory))
    if entry is not None and entry[0] is rules:
        return entry[1]
    check = wounded_check(territory, rules=rules)
    _CHECKS[(id(rules), territory)] = (rules, check)
    return check


def _deserters_for(rules: RuleBook, quality: Quality, routed: bool) -> Check:
    """As :func:`_wounded_for`, for the deserter check (a quality and whether routed)."""
    entry = _CHECKS.get((id(rules), quality, routed))
    if entry is not None and entry[0] is rules:
        return entry[1]
    check = deserter_check(quality, routed=routed, rules=rules)
    _CHECKS[(id(rules), quality, routed)] = (rules, check)
    return check


@dataclass(frozen=True, slots=True)
class UnitLosses:
    """What a battle report says of one unit (BR): SP killed, left in rout, left under another order."""

    unit_id: str
    killed: int = 0
    rout: int = 0
    other_order: int = 0

    def check_against(self, unit: Unit) -> None:
        killed, rout, other = self.killed, self.rout, self.other_order
        if (type(killed) is int and type(rout) is int and type(other) is int
                and killed >= 0 and rout >= 0 and other >= 0 and killed + rout + other <= unit.sp):
            return  # the usual report, checked without building anything (issue 26 item 5)
        for what in ("killed", "rout", "other_order"):
            n = getattr(self, what)
            if isinstance(n, bool) or not isinstance(n, int) or n < 0:
                raise InvalidInput("{name}: SP {replace} must be 0 or more, got {n!r}.", name=unit.name, replace=what.replace('_', ' '), n=n)
        total = self.killed + self.rout + self.other_order
        if total > unit.sp:
            raise InvalidInput(
                "{name} had {sp} SP but the report gives {total} SP killed, routed or withdrawn ({killed} + {rout} + {other_order}).", name=unit.name, sp=unit.sp, total=total, killed=self.killed, rout=self.rout, other_order=self.other_order
            )


@dataclass(frozen=True, slots=True)
class DeserterPool:
    """SP of one unit that take the deserter check together (same modifiers)."""

    sp: int
    routed: bool
    reason: str


@dataclass(frozen=True, slots=True)
class DeserterDuty:
    pools: tuple[DeserterPool, ...]
    lost_outright: int = 0
    """RU-6 ``lose_all``: mercenary SP that desert without a roll."""


def deserter_duty(
    unit: Unit, losses: UnitLosses, outcome: Outcome, *, mercenary: MercenaryRule = "check_all"
) -> DeserterDuty:
    """Who takes the deserter check (MC-7.2, RU-6).

    Won or drew: only SP that left in rout. Lost: SP that left in rout or under any other order;
    and every surviving SP of a mercenary unit (RU-6 ``check_all``), or all of them lost
    (``lose_all``).
    """
    lost, pools = _duty(unit, losses, outcome, mercenary)
    return DeserterDuty(tuple(DeserterPool(*p) for p in pools), lost_outright=lost)


def _duty(unit: Unit, losses: UnitLosses, outcome: Outcome,
          mercenary: MercenaryRule) -> tuple[int, tuple[tuple[int, bool, str], ...]]:
    """:func:`deserter_duty` as plain tuples (SP lost outright; each pool's SP, routed, reason): the
    aftermath's hot path builds no objects it throws away (issue 26 item 5)."""
    losses.check_against(unit)
    if mercenary not in ("check_all", "lose_all"):
        raise InvalidInput("Unknown mercenary desertion setting {mercenary!r}: check_all or lose_all (RU-6).", mercenary=mercenary)
    lost = outcome is Outcome.LOST
    if lost and unit.mercenary:
        survivors = unit.sp - losses.killed
        if mercenary == "lose_all":
            return survivors, ()
        pools: list[tuple[int, bool, str]] = []
        if losses.rout:
            pools.append((losses.rout, True, _ROUT_MERCENARY))
        if rest := survivors - losses.rout:
            pools.append((rest, False, _MERCENARY_LOST))
        return 0, tuple(pools)
    if not (lost and losses.other_order):
        return 0, (((losses.rout, True, _ROUT),) if losses.rout else ())
    return 0, ((*(((losses.rout, True, _ROUT),) if losses.rout else ()), (losses.other_order, False, _OTHER_ORDER)))


# Why a pool checks (MC-7.2, RU-6), built once: every unit of every battle gives one of these (issue 26 item 5).
_ROUT = Msg("left in rout")
_ROUT_MERCENARY = Msg("left in rout (mercenary)")
_MERCENARY_LOST = Msg("mercenary unit on a lost battle (RU-6)")
_OTHER_ORDER = Msg("left under another order on a lost battle")


_SUBJECT = Msg("{unit} ({reason})").template  # a Msg call, so the catalogues keep the template
_str_new = str.__new__


def _subject(name: str, reason: str) -> Msg:
    """``Msg("{unit} ({reason})", unit=name, reason=reason)``, its English by an f-string of the same
    template (the same text: both format each value with an empty spec) rather than through
    :func:`bot.engine.text.render`'s checks, a third of a deserter check's own cost (issue 26 item 5)."""
    msg = _str_new(Msg, f"{name} ({reason})")
    msg.template = _SUBJECT
    msg.params = {"unit": name, "reason": reason}
    return msg


# --- a unit's whole aftermath ---------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class UnitAftermath:
    unit: Unit
    """The unit after the checks."""
    losses: UnitLosses
    wounded: BatchRoll | None
    deserters: tuple[BatchRoll, ...]
    lost_outright: int
    dead: int
    returned_wounded: int
    deserted: int
    returned: int

    @property
    def rolls(self) -> tuple[BatchRoll, ...]:
        return ((self.wounded,) if self.wounded else ()) + self.deserters


def unit_aftermath(
    unit: Unit,
    losses: UnitLosses,
    outcome: Outcome,
    territory: Territory,
    dice: DiceSource,
    key: str,
    *,
    mercenary: MercenaryRule = "check_all",
    rules: RuleBook | None = None,
) -> UnitAftermath:
    """Roll a unit's wounded and deserter checks and work out its SP after the battle.

    SP after = SP before - killed + wounded who return - deserters. SP in rout or withdrawn who
    are not checked return to the unit.
    """
    rules = rules or default_rulebook()
    lost_outright, pools = _duty(unit, losses, outcome, mercenary)
    wounded = None
    dead = returned_wounded = 0
    killed = losses.killed
    if killed:
        wounded = _wounded_for(rules, territory).roll_many(dice, f"{key}/wounded", killed, subject=unit.name)
        for result, n in wounded.counts:  # a tally, not a dict: the counts are a pair or two (issue 26 item 5)
            if result == "dead":
                dead = n
            elif result == "returns":
                returned_wounded = n
    rolls: tuple[BatchRoll, ...] = ()
    deserted = lost_outright
    returned = 0
    for sp, routed, reason in pools:
        roll = _deserters_for(rules, unit.quality, routed).roll_many(
            dice, f"{key}/deserters/rout" if routed else f"{key}/deserters/other", sp,
            subject=_subject(unit.name, reason),
        )
        rolls += (roll,)
        for result, n in roll.counts:
            if result == "deserted":
                deserted += n
            elif result == "returns":
                returned += n
    after = unit.sp - killed + returned_wounded - deserted
    return _unit_aftermath(
        unit.with_sp(after), losses, wounded, rolls, lost_outright, dead, returned_wounded, deserted, returned
    )


_AftermathDraft = draft_of(UnitAftermath)


def _unit_aftermath(unit: Unit, losses: UnitLosses, wounded: BatchRoll | None, deserters: tuple[BatchRoll, ...],
                    lost_outright: int, dead: int, returned_wounded: int, deserted: int,
                    returned: int) -> UnitAftermath:
    """``UnitAftermath(...)`` built as a draft (bot/engine/drafts.py): a frozen dataclass's ``__init__`` is
    twice the cost (one ``object.__setattr__`` per field), once per unit of a battle (issue 26 item 5)."""
    out = _AftermathDraft()
    out.unit = unit
    out.losses = losses
    out.wounded = wounded
    out.deserters = deserters
    out.lost_outright = lost_outright
    out.dead = dead
    out.returned_wounded = returned_wounded
    out.deserted = deserted
    out.returned = returned
    out.__class__ = UnitAftermath
    return out


# --- MC-7.3 movement after the battle --------------------------------------------------------


def retreat_squares(
    cmap: CampaignMap, battle_square: Square, side: str, positions: Iterable[tuple[str, Square]],
    *, camps: Camps = NO_CAMPS,
) -> tuple[Square, ...]:
    """Squares a Force of ``side`` may leave the battle square for: adjacent (RU-11), on land,
    and free of enemy Forces (RU-8). ``positions`` pairs each other Force's side with its square;
    an enemy is a Force of another of ``camps`` (RU-19): a square an ally holds is free."""
    enemy = {sq for s, sq in positions if camps.hostile(s, side)}
    return tuple(
        sq for sq in cmap.neighbours(battle_square) if not cmap.cell(sq).terrain.is_water and sq not in enemy
    )


@dataclass(frozen=True)
class RetreatDuty:
    must_move: bool
    reason: str
    rule: str


def post_battle_duty(
    outcome: Outcome,
    *,
    holds_stronghold: bool = False,
    both_defending: bool = False,
) -> RetreatDuty:
    """Whether a side's Force must leave the battle square (MC-7.3; RU-20: every beaten camp
    retreats, and on a draw every camp leaves).

    ``holds_stronghold``: the square holds this side's own or a friendly stronghold (an ally's
    stronghold is friendly, RU-19);
    ``both_defending``: every Force in the battle held the Defend order before it.
    """
    if outcome is Outcome.WON:
        return RetreatDuty(False, Msg("the winner holds the field"), "MC-7.3")
    if outcome is Outcome.LOST:
        return RetreatDuty(True, Msg("the beaten Force moves one square out of the battle square"), "MC-7.3")
    if both_defending:
        return RetreatDuty(False, Msg("draw, and both Forces held the Defend order: neither moves"), "MC-7.3")
    if holds_stronghold:
        return RetreatDuty(False, Msg("draw, and this side holds its stronghold here: it does not move"), "MC-7.3")
    return RetreatDuty(True, Msg("draw: both Forces leave for adjacent squares, one square apart"), "MC-7.3")


def _apart(cmap: CampaignMap, squares: Iterable[Square], opposing: Iterable[Square]) -> tuple[Square, ...]:
    """The squares at least one square away (distance 2 or more) from every ``opposing`` square."""
    far = tuple(opposing)
    return tuple(sq for sq in squares if all(cmap.distance(sq, o) >= 2 for o in far))


def retreat_options(
    cmap: CampaignMap,
    battle_square: Square,
    side: str,
    positions: Iterable[tuple[str, Square]],
    *,
    apart_from: Iterable[Square] = (),
    camps: Camps = NO_CAMPS,
) -> tuple[Square, ...]:
    """Squares a Force may end its retreat in (MC-7.3, RU-8, RU-11).

    ``apart_from``: after a draw, the squares where Forces of an **opposing** camp ended their own
    retreat from this battle; the Force must end separated from them by one square (MC-7.3).
    Friendly Forces (its own side's and its allies', RU-19) are never in it: they may stay in
    contact. When no free square is that far (a corner, water, the enemy all around), the Force
    still leaves by any free square: RU-8 takes a Force only when no adjacent land square is free of
    the enemy. Empty: the Force surrenders (RU-8). ``camps`` as in :func:`retreat_squares`.
    """
    legal = retreat_squares(cmap, battle_square, side, positions, camps=camps)
    return _apart(cmap, legal, apart_from) or legal


def check_retreat(
    cmap: CampaignMap,
    battle_square: Square,
    side: str,
    destination: Square,
    positions: Iterable[tuple[str, Square]],
    *,
    apart_from: Iterable[Square] = (),
    camps: Camps = NO_CAMPS,
) -> Square:
    """Validate a chosen retreat square, naming the legal ones when it is not (MC-7.3, RU-8);
    ``apart_from`` and ``camps`` as in :func:`retreat_options`."""
    positions, apart_from = list(positions), list(apart_from)
    legal = retreat_squares(cmap, battle_square, side, positions, camps=camps)
    if not legal:
        raise RuleViolation(
            "No square around {battle_square} is free of the enemy and on land: the Force surrenders (RU-8).", battle_square=battle_square
        )
    if destination not in legal:
        raise RuleViolation(
            "{destination} is not a legal retreat from {battle_square} (MC-7.3, RU-8): choose one of {map}.", destination=destination, battle_square=battle_square, map=', '.join(map(str, legal))
        )
    if destination not in retreat_options(cmap, battle_square, side, positions, apart_from=apart_from, camps=camps):
        for other in apart_from:
            check_draw_separation(cmap, destination, other)
    return destination


def check_draw_separation(cmap: CampaignMap, a: Square, b: Square) -> None:
    """MC-7.3 draw: the two Forces must end separated by (at least) one square."""
    if cmap.distance(a, b) < 2:
        raise RuleViolation(
            "After a draw the Forces must end one square apart (MC-7.3): {a} and {b} are too close.", a=a, b=b
        )


@dataclass(frozen=True)
class Retreating:
    """A Force that must leave the battle square and has not chosen where (MC-7.3)."""

    force_id: str
    side: str
    """Its side (or its camp's key): Forces of another camp are the enemy (RU-19)."""
    draw: bool
    """It leaves after a draw, so it must end apart from the opposing camps' retreats."""


def choose_retreats(
    cmap: CampaignMap,
    battle_square: Square,
    retreating: Sequence[Retreating],
    positions: Iterable[tuple[str, Square]],
    *,
    chosen: Iterable[tuple[str, Square, bool]] = (),
    camps: Camps = NO_CAMPS,
) -> dict[str, Square | None]:
    """The squares the bot picks for Forces nobody moved (MC-7.3), in order; ``None`` when a Force
    has no free land square around it and surrenders (RU-8).

    ``positions``: every Force that stays where it is, as (side, square); ``chosen``: retreats
    already made from this battle, as (side, square, after a draw). A Force retreating after a draw
    takes, among its :func:`retreat_options`, the square that leaves the most room apart for the
    opposing Forces still to move (then the first in map order); a beaten Force takes the first.
    Forces that moved count where they ended: no one retreats into an enemy's square. ``camps``
    (RU-19, RU-20): Forces of one camp are friends (they may share squares and stay in contact); the
    spacing after a draw is kept only between hostile camps.
    """
    placed = [(side, sq, draw) for side, sq, draw in chosen]
    staying = list(positions)
    out: dict[str, Square | None] = {}
    for i, force in enumerate(retreating):
        here = staying + [(side, sq) for side, sq, _ in placed]
        apart = [sq for side, sq, draw in placed if draw and force.draw and camps.hostile(side, force.side)]
        options = retreat_options(cmap, battle_square, force.side, here, apart_from=apart, camps=camps)
        if not options:
            out[force.force_id] = None
            continue
        later = [f for f in retreating[i + 1:] if f.draw and force.draw and camps.hostile(f.side, force.side)]

        def room(sq: Square, later: list[Retreating] = later, apart: list[Square] = apart,
                 here: list[tuple[str, Square]] = here, side: str = force.side) -> tuple[int, int]:
            """(opposing Forces still able to end apart, squares apart left to them) if it goes to sq."""
            able = left = 0
            for f in later:
                theirs = [o for s, o, d in placed if d and camps.hostile(s, f.side)] + (
                    [sq] if camps.hostile(side, f.side) else [])
                free = _apart(cmap, retreat_squares(cmap, battle_square, f.side, [*here, (side, sq)], camps=camps),
                              theirs)
                able += bool(free)
                left += len(free)
            return able, left

        best = max(options, key=room) if later else options[0]
        out[force.force_id] = best
        placed.append((force.side, best, force.draw))
    return out


# --- MC-7.4 reactions -----------------------------------------------------------------------


def reaction_after_defeat(force: Force) -> Reaction:
    """MC-7.4 + RU-9: any order -> Confused -> Unsteady -> Routed."""
    match force.reaction:
        case None:
            return Reaction.CONFUSED
        case Reaction.CONFUSED:
            return Reaction.UNSTEADY
        case _:
            return Reaction.ROUTED


def both_defending(forces: Mapping[str, Force]) -> bool:
    return bool(forces) and all(f.order is Order.DEFEND for f in forces.values())
