"""Leaders in the campaign: fate (CC-1), replacements (CC-2, RU-18), wounds healing (RU-18), and
trophies (CC-3) with the Glory they bring (CC-4)."""

from __future__ import annotations

import hashlib
from dataclasses import dataclass, replace

from bot.engine.cc_model import Circumstance, Commander
from bot.engine.dice import roll_key
from bot.engine.errors import RuleViolation
from bot.engine.leaders import (
    LeaderFate,
    NextBattleCommand,
    next_battle_command,
    recovered_status,
    roll_leader_fate,
    status_after_turns,
)
from bot.engine.leaders import replacement as replacement_for_fate
from bot.engine.model import LeaderStatus, UnitType, parse_enum
from bot.engine.phases import Phase
from bot.engine.text import Msg
from bot.engine.trophies import TrophyResult, roll_trophy

from . import sight
from .authority import Acting, is_gm, require_in_play, require_phase, side_of
from .dice import Context, turn_dice
from .errors import NotFound
from .events import Journal, battle_visibility
from .reported import commanders, kept_report, plan
from .scouting import find_battle
from .state import Battle, BattleStatus, CampaignState, ForceStatus, GloryEntry, LeaderEvent, LeaderKind, LeaderState

KINDS = {LeaderKind.LEADER: Commander.LEADER, LeaderKind.NEW: Commander.NEW_LEADER,
         LeaderKind.TEMPORARY: Commander.TEMPORARY_LEADER}


class NoFateDue(LookupError):
    """No fate roll is due for the leader named (or he is not one the reader may know of)."""


def leader_command(ld: LeaderState) -> NextBattleCommand:
    """What a leader's status means at his Force's next battle (CC-2): who commands, designated how."""
    return next_battle_command(ld.status, designated=ld.designation, kind=KINDS.get(ld.kind, Commander.LEADER))


def _set_status(state: CampaignState, ld: LeaderState, status: LeaderStatus, reason: str) -> CampaignState:
    designation = None if KINDS.get(ld.kind) is Commander.LEADER else ld.designation
    # He commands himself again: nobody stands in for him (CC-2).
    state = state.with_leaders([replace(ld, status=status, designation=designation)])
    return state.plus_leader_events(LeaderEvent(ld.key, state.turn, status, reason))


def leaders_after_battle(state: CampaignState, battle: Battle) -> tuple[CampaignState, list[str]]:
    """RU-18, when a battle is reported: a leader wounded before it is back, fit (:func:`recovered_status`):
    a Moderate wound missed it (a Temporary Leader stood in), a Light wound fought it."""
    lines: list[str] = []
    for fkey in battle.forces:
        ld = state.commander(fkey)
        if ld is None:
            continue
        after = recovered_status(ld.status)
        if after is ld.status:
            continue
        state = _set_status(state, ld, after, f"back after battle {battle.number} (RU-18)")
        force = state.forces[fkey].name
        lines.append(Msg("{leader} returns from his Moderate wound and takes command of {force} again (RU-18)",
                         leader=ld.name, force=force) if ld.status is LeaderStatus.MODERATE_WOUND
                     else Msg("{leader} of {force} is fit again after his Light wound (RU-18)", leader=ld.name,
                              force=force))
    return state, lines


def return_leaders(state: CampaignState, journal: Journal, *, turn: int) -> tuple[CampaignState, list[tuple[str, Msg]]]:
    """RU-18, when ``turn`` begins (the Time phase, MC-10): a wounded leader whose Force fought no battle
    since his wound is back once 3 turns have passed (:func:`status_after_turns`). Returns one line per
    leader back, with the Force's key, for the caller to tell as fog of war allows."""
    wounded: dict[str, int] = {}
    for ev in state.leader_events:
        wounded[ev.leader] = ev.turn
    lines = []
    for fkey, ld in sorted(state.commanders.items()):
        if ld.key not in wounded or state.forces[fkey].status is ForceStatus.REMOVED:
            continue
        after = status_after_turns(ld.status, wounded_turn=wounded[ld.key], turn=turn)
        if after is ld.status:
            continue
        wound = leader_command(ld).label
        state = _set_status(state, ld, after, f"back after {turn - wounded[ld.key]} turns (RU-18)")
        lines.append((fkey, Msg("{leader} is back after {turns} turns, his {wound} healed, and commands {force} again "
                                "(RU-18).", leader=ld.name, turns=turn - wounded[ld.key], wound=wound,
                                force=state.forces[fkey].name)))
    return state, lines


# --- fate -----------------------------------------------------------------------------------


@dataclass(frozen=True)
class FateOutcome:
    leader: str
    fate: LeaderFate
    replacement: str | None
    lines: tuple[str, ...]
    battle: int = 0


def fate_due(state: CampaignState, battles: list[Battle], leader: str) -> tuple[Battle, str, Circumstance]:
    """The reported battle where ``leader`` fell and is still awaiting his fate roll."""
    for b in battles:
        fates = b.aftermath.fates
        for name in fates:
            if name.lower() == leader.strip().lower() and fates[name] is None:
                for side in b.report.sides if b.report is not None else ():
                    for c in side.leader_casualties:
                        if c.leader.lower() == name.lower():
                            return b, name, c.circumstance
    raise NoFateDue(leader)


def fates_due(state: CampaignState, leader: str) -> tuple[Battle, str, Circumstance]:
    return fate_due(state, state.turn_battles(status=BattleStatus.REPORTED), leader)


def fallen(state: CampaignState, battle: Battle, name: str) -> tuple[CampaignState, Battle, str, LeaderState]:
    """The Force a fallen leader led in the battle and the leader, whoever commands it now (RU-18)."""
    state, battle, led = commanders(state, battle)
    for fkey, c in led.items():
        if c.name == name:
            ld = state.leaders.get(c.key)
            if ld is not None:
                return state, battle, fkey, ld
    raise NoFateDue(name)


def new_leader_key(force_key: str, turn: int) -> str:
    """A New Leader's key: the Force's, marked with the turn he took command (at most 32 characters)."""
    suffix = f"-new{turn}"
    if len(force_key) + len(suffix) <= 32:
        return force_key + suffix
    digest = hashlib.sha256(force_key.encode()).hexdigest()[:6]
    return f"{force_key[:32 - len(suffix) - 7]}-{digest}{suffix}"


def apply_fate(state: CampaignState, number: int, name: str, circumstance: Circumstance, journal: Journal, ctx: Context,
               designation: UnitType | None = None) -> tuple[CampaignState, FateOutcome]:
    """Roll a fallen leader's fate (CC-1) and apply his replacement (CC-2, RU-18), in Phase 4."""
    require_phase(state, Phase.AFTERMATH, "Rolling a leader's fate")
    state, battle, force_key, ld = fallen(state, state.battles[number], name)
    state, dice = turn_dice(state, journal, ctx)
    key = roll_key(state.turn, Phase.AFTERMATH, f"battle:{battle.number}/leader:{ld.key}", "fate")
    fate = roll_leader_fate(name, circumstance, dice, key)
    for r in fate.rolls:
        journal.roll(state, r, visibility=battle_visibility(battle.number))
    current = state.commander(force_key)
    force = state.forces[force_key]
    # RU-18: the fate is his whoever commands now; a replacement takes over only if he still commands.
    rep = (replacement_for_fate(fate.status, state.engine_force(force_key).units, cv=ld.cv, designated=designation)
           if current is not None and current.key == ld.key else None)
    changed = replace(ld, status=fate.status)
    state = state.plus_leader_events(LeaderEvent(ld.key, state.turn, fate.status,
                                                 f"fell in battle {battle.number} ({circumstance.label}): "
                                                 f"{fate.label} (CC-1)"))
    lines = [Msg("{leader}: {fate} (CC-1).", leader=name, fate=fate.label)]
    replacement = None
    new_leaders = []
    if rep is not None and not rep.temporary:
        changed = replace(changed, force=None)
        # a name kept as text in the state; said in the reader's words where shown (bot.i18n.text.COMPOSED_NAMES)
        replacement = str(Msg("New Leader ({kind}) of {force}", kind=rep.designated.value, force=force.name))[:100]
        new_leaders.append(LeaderState(new_leader_key(force_key, state.turn), replacement, rep.cv, LeaderStatus.FIT,
                                       LeaderKind.NEW, rep.designated, force_key))
        lines.append(Msg("{replacement} takes command of {force}, with {leader}'s Command Value ({rule}).",
                         replacement=replacement, force=force.name, leader=name, rule=rep.rule))
    elif rep is not None:
        changed = replace(changed, designation=rep.designated)
        lines.append(Msg("{leader} misses the next battle of {force}: a Temporary Leader ({kind}) commands it with "
                         "{leader}'s Command Value until he returns ({rule}).", leader=name, force=force.name,
                         kind=rep.designated.value, rule=rep.rule))
    elif fate.status is LeaderStatus.SERIOUS_WOUND:
        lines.append(Msg("{leader} commands from an open carriage until the campaign ends (CC-2).", leader=name))
    state = state.with_leaders([changed, *new_leaders])
    if fate.status is LeaderStatus.CAPTURED:  # RU-23: the winning camp's when an enemy camp won
        side = plan(state, battle, kept_report(battle))[0].captor_of(force.side)
        state = state.plus_glory(GloryEntry(side, state.turn, 1, Msg("enemy leader {name} captured", name=name), "award", "CC-4",
                                            battle.number))
        lines.append(Msg("{side} gains 1 Glory for capturing {leader} (CC-4).", side=state.sides[side].name, leader=name))
    battle = state.battles[number]
    state = state.with_battle(replace(battle, aftermath=replace(battle.aftermath,
                                                                fates={**battle.aftermath.fates, name: fate.status})))
    return state, FateOutcome(name, fate, replacement, tuple(lines), number)


# --- trophies -------------------------------------------------------------------------------


@dataclass(frozen=True)
class TrophyOutcome:
    battle: int
    result: TrophyResult
    text: str


class NoMelee(LookupError):
    """The report has no melee in which the unit eliminated the target."""


def attempt(battle: Battle, unit: str, target: str) -> tuple[tuple[str, str], dict[str, bool]]:
    for m in battle.report.melee_eliminations if battle.report is not None else ():
        if m.by == unit and m.unit_id == target:
            return (unit, target), {"ordered": m.ordered, "took_ground": m.took_ground}
    raise NoMelee(unit, target)


def unit_name(state: CampaignState, key: str) -> str:
    """A unit's name (its key if no Force holds it any more)."""
    return next((u.name for f in state.forces.values() for u in f.units if u.key == key), key)


def require_trophy_due(state: CampaignState, battle: Battle, unit: str, target: str) -> None:
    key, _ = attempt(battle, unit, target)
    pending = battle.aftermath.trophies
    named = {"unit": unit_name(state, unit), "target": unit_name(state, target)}  # names, never keys
    if key not in pending:
        raise RuleViolation("{unit} cannot take a trophy from {target}: see the battle report's summary (CC-3).",
                            **named)
    if pending[key] is not None:
        raise RuleViolation("{unit} has already tried for {target}'s flag.", **named)


def unit_owner(state: CampaignState, unit: str) -> str | None:
    return next((f.key for f in state.forces.values() for u in f.units if u.key == unit), None)


def trophy(state: CampaignState, number: int, unit: str, target: str, journal: Journal,
           ctx: Context) -> tuple[CampaignState, TrophyOutcome]:
    """A unit that eliminated an enemy in melee tries for its flag (CC-3), in Phase 4; a trophy is 1 Glory
    (CC-4)."""
    require_phase(state, Phase.AFTERMATH, "Trophy rolls")
    battle = state.battles[number]
    key, flags = attempt(battle, unit, target)
    owner, victim_owner = unit_owner(state, unit), unit_owner(state, target)
    if owner is None or victim_owner is None:
        raise NoMelee(unit, target)
    captor = next(u for k in battle.forces for u in state.engine_force(k).units if u.id == unit)
    victim = next(u for u in state.engine_force(victim_owner).units if u.id == target)
    state, dice = turn_dice(state, journal, ctx)
    result = roll_trophy(captor, victim, dice,
                         roll_key(state.turn, Phase.AFTERMATH, f"battle:{battle.number}/unit:{unit}", f"trophy:{target}"),
                         **flags)
    journal.roll(state, result.roll, visibility=battle_visibility(battle.number))
    side = state.forces[owner].side
    text: str = (Msg("{captor} tries for the flag of {victim}: trophy taken!", captor=captor.name, victim=victim.name)
                 if result.taken else
                 Msg("{captor} tries for the flag of {victim}: no trophy.", captor=captor.name, victim=victim.name))
    if result.taken:
        state = state.plus_glory(GloryEntry(side, state.turn, 1, Msg("trophy of {name} taken", name=victim.name), "award", "CC-4",
                                            battle.number))
        text = Msg.join(" ", [text, Msg("{side} gains 1 Glory (CC-4).", side=state.sides[side].name)])
    battle = state.battles[number]
    state = state.with_battle(replace(battle, aftermath=replace(battle.aftermath,
                                                                trophies={**battle.aftermath.trophies,
                                                                          key: result.taken})))
    return state, TrophyOutcome(battle.number, result, text)


def rolls_due(state: CampaignState, battle: Battle) -> list[tuple[str, str]]:
    """The fates (CC-1) and trophy attempts (CC-3) of a reported battle nobody rolled yet, as (side, rule)."""
    due: list[tuple[str, str]] = []
    for name, status in battle.aftermath.fates.items():
        if status is None:
            try:
                _, _, force_key, _ = fallen(state, battle, name)
            except NoFateDue:
                continue
            due.append((state.forces[force_key].side, "CC-1"))
    for (captor, _), taken in battle.aftermath.trophies.items():
        owner = unit_owner(state, captor) if taken is None else None
        if owner is not None:
            due.append((state.forces[owner].side, "CC-3"))
    return due


def roll_pending_fates_and_trophies(state: CampaignState, number: int, journal: Journal,
                                    ctx: Context) -> tuple[CampaignState, list[str]]:
    """End of Phase 4: the bot rolls fates and trophies nobody rolled (same keyed dice)."""
    lines: list[str] = []
    for name, status in list(state.battles[number].aftermath.fates.items()):
        if status is None:
            _, _, circ = fate_due(state, [state.battles[number]], name)
            state, out = apply_fate(state, number, name, circ, journal, ctx)
            lines.append(Msg("Rolled by the bot: {what}", what=Msg.join(" ", out.lines)))
    for (unit, target), taken in list(state.battles[number].aftermath.trophies.items()):
        if taken is None:
            state, out2 = trophy(state, number, unit, target, journal, ctx)
            lines.append(Msg("Rolled by the bot: {what}", what=out2.text))
    return state, lines


# --- the members' commands: who may, then the rule ------------------------------------------------


def _no_fate_due(leader: str) -> NotFound:
    """The one refusal for a leader with no fate due, of another side, or of no side at all (fog of war)."""
    return NotFound("{leader!r} has no fate roll due: only leaders reported fallen in a battle of this turn roll (CC-1).",
                    leader=leader.strip()[:40])


def fate_by(state: CampaignState, actor: Acting, leader: str, circumstance: Circumstance | str | None,
            designation: UnitType | str | None, journal: Journal, ctx: Context) -> tuple[CampaignState, FateOutcome]:
    """Phase 4: a player of the leader's side (or the GM) rolls a fallen leader's fate (CC-1) and his
    replacement (CC-2, RU-18), designated ``designation`` if he needs one (default: the type of the
    Force's strongest unit). The battle's camps, and those who see it, are told (fog of war)."""
    require_phase(state, Phase.AFTERMATH, "Rolling a leader's fate")
    try:
        battle, name, reported = fates_due(state, leader)
        _, _, force_key, _ = fallen(state, battle, name)
    except NoFateDue:
        raise _no_fate_due(leader) from None
    if not is_gm(state, actor.member_id, actor.roles) and side_of(state, actor.member_id) != state.forces[force_key].side:
        raise _no_fate_due(leader)  # fog of war: as if he had not fallen
    if circumstance is not None and parse_enum(Circumstance, circumstance, "circumstance") is not reported:
        raise RuleViolation("The report says {name} fell in {label}: the fate uses that table (CC-1).", name=name,
                            label=reported.label)
    after, out = apply_fate(state, battle.number, name, reported, journal, ctx,
                            None if designation is None else parse_enum(UnitType, designation, "designation"))
    sight.say(journal, after, sight.battle_notices(state, battle, Msg.join(" ", out.lines)))
    return after, out


def trophy_by(state: CampaignState, actor: Acting, battle: int | str, unit: str, target: str, journal: Journal,
              ctx: Context) -> tuple[CampaignState, TrophyOutcome]:
    """Phase 4: a player's unit that eliminated an enemy in melee tries for its flag (CC-3); told as fates are."""
    require_phase(state, Phase.AFTERMATH, "Trophy rolls")
    side = require_in_play(state, actor.member_id)
    b = find_battle(state, battle)
    owner = unit_owner(state, unit)
    if owner is None or state.forces[owner].side != side:  # fog of war: one answer for any other unit
        raise NotFound("You have no unit {unit!r}.", unit=unit.strip()[:40])
    try:
        require_trophy_due(state, b, unit, target)
        after, out = trophy(state, b.number, unit, target, journal, ctx)
    except NoMelee:
        # the target by name only to a side that fought that battle beside it (issue 22): else as typed, since
        # its name would tell a unit the reader may not see, and every such refusal must read alike (fog of war)
        fought = side in b.sides and any(u.key == target for k in b.forces for u in state.forces[k].units)
        raise NotFound("Battle {number}'s report has no melee in which {unit!r} eliminated {target!r} (CC-3).",
                       number=b.number, unit=unit_name(state, unit),
                       target=unit_name(state, target) if fought else target.strip()[:40]) from None
    sight.say(journal, after, sight.battle_notices(state, b, out.text))
    return after, out
