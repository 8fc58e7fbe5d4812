"""Battle reports (BR) and Phase 4: aftermath rolls (MC-7.1, MC-7.2), retreats (MC-7.3, RU-8),
reactions (MC-7.4, RU-9), and the end-of-phase work the bot does for whoever did not act.

A battle tracks its Phase 4 in ``battle.aftermath`` (:class:`~.state.Aftermath`): the units' SP as they
fought, who led each Force (RU-18), the sides' wounded and deserter checks made, the Forces that must
leave and where they went, the leader casualties (CC-1) and eligible trophy attempts (CC-3) still to roll.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, replace
from typing import Any

from bot.engine.aftermath import Retreating, UnitAftermath, check_retreat, choose_retreats, unit_aftermath
from bot.engine.dice import roll_key
from bot.engine.errors import RuleViolation
from bot.engine.model import Outcome, Reaction, Square, territory_for
from bot.engine.phases import Phase
from bot.engine.reports import (
    AftermathPlan,
    BattleReport,
)
from bot.engine.text import Msg

from . import sight
from .authority import Acting, require_gm, require_phase, side_in_battle
from .dice import Context, turn_dice
from .errors import NotFound, PermissionDenied
from .events import Journal, battle_visibility
from .leaders import leaders_after_battle, roll_pending_fates_and_trophies
from .reported import battle_forces, commanders, commanders_now, kept_report, plan, report_for
from .scouting import find_battle
from .state import Aftermath, Battle, BattleStatus, CampaignState, ForceState, ForceStatus, GloryEntry


def summarise(state: CampaignState, p: AftermathPlan) -> tuple[str, ...]:
    name = {k: sd.name for k, sd in state.sides.items()}
    unit = {u.key: u.name for f in state.forces.values() for u in f.units}
    lines = [Msg.join(", ", (Msg("{side} {outcome}", side=name.get(s, s), outcome=o.value) for s, o in p.outcomes))]
    for w in p.wounded:
        lines.append(Msg.plural(w.sp, "{force}: {n} SP killed in {unit} takes the wounded check (MC-7.1)",
                                "{force}: {n} SP killed in {unit} take the wounded check (MC-7.1)",
                                force=state.forces[w.force_id].name, unit=unit.get(w.unit_id, w.unit_id)))
    for d in p.deserters:
        sp = sum(x.sp for x in d.duty.pools)
        args = {"force": state.forces[d.force_id].name, "unit": unit.get(d.unit_id, d.unit_id)}
        lines.append(Msg.plural(sp, "{force}: {n} SP of {unit} takes the deserter check (MC-7.2), {outright} desert "
                                "outright (RU-6)", "{force}: {n} SP of {unit} take the deserter check (MC-7.2), "
                                "{outright} desert outright (RU-6)", outright=d.duty.lost_outright, **args)
                     if d.duty.lost_outright
                     else Msg.plural(sp, "{force}: {n} SP of {unit} takes the deserter check (MC-7.2)",
                                     "{force}: {n} SP of {unit} take the deserter check (MC-7.2)", **args))
    for f in p.leader_fates:
        lines.append(Msg("{leader} fell ({label}): fate roll due (CC-1)", leader=f.leader, label=f.circumstance.label))
    for a in p.trophy_attempts:
        captor, victim = unit.get(a.captor_id, a.captor_id), unit.get(a.victim_id, a.victim_id)
        lines.append(Msg("{captor} may try for the flag of {victim} (CC-3)", captor=captor, victim=victim)
                     if a.eligibility.eligible
                     else Msg("{captor} cannot take a trophy from {victim}: {reasons}", captor=captor, victim=victim,
                              reasons=Msg.join("; ", a.eligibility.reasons)))
    for r in p.reactions:
        lines.append(Msg("{force} becomes {reaction} (MC-7.4)", force=state.forces[r.force_id].name,
                         reaction=r.after.label))
    for r in p.retreats:
        if r.duty.must_move:
            lines.append(Msg("{force} must retreat: {reason} (MC-7.3)", force=state.forces[r.force_id].name,
                             reason=r.duty.reason))
    return tuple(lines)


def require_pending(battle: Battle) -> None:
    if battle.status is not BattleStatus.PENDING:
        raise RuleViolation("Battle {number} is already reported; /gm undo reverts a whole phase.", number=battle.number)


def report(state: CampaignState, number: int, data: Mapping[str, Any] | None, journal: Journal,
           parsed: BattleReport | None = None) -> tuple[CampaignState, tuple[str, ...]]:
    """The GM records a battle's report (BR): outcomes, tallies (MC-9), Glory (CC-4), Heroic lost, and
    what Phase 4 must roll. Returns the summary lines."""
    require_phase(state, Phase.BATTLE, "Reporting a battle")
    battle = state.battles[number]
    require_pending(battle)
    rep = replace(parsed if parsed is not None else report_for(battle, data), battle_id=str(number))
    p, _ = plan(state, battle, rep)
    battle = replace(battle, report=rep, status=BattleStatus.REPORTED,
                     aftermath=Aftermath(
                         sp_before={u.id: u.sp for f in battle_forces(state, battle).values() for u in f.units},
                         commanders=commanders_now(state, battle),
                         rolled={side: False for side in battle.sides},
                         retreats={fid: None for fid in p.must_retreat},
                         fates={f.leader: None for f in p.leader_fates},
                         trophies={(a.captor_id, a.victim_id): None for a in p.trophy_attempts
                                   if a.eligibility.eligible},
                     ))
    before = state
    state = state.with_battle(battle)
    changed = []
    for side, outcome in p.outcomes:
        sd = state.sides[side]
        if outcome is Outcome.WON:
            changed.append(replace(sd, battles_won=sd.battles_won + 1))
        elif outcome is Outcome.LOST:
            changed.append(replace(sd, battles_lost=sd.battles_lost + 1,
                                   must_test=sd.must_test or Msg("it lost a battle this turn (MC-9)")))
    state = state.with_sides(changed)
    heroic_lost = [state.forces[k] for k in battle.forces if any(u.key in p.heroic_lost for u in state.forces[k].units)]
    state = state.with_forces([replace(f, units=tuple(replace(u, heroic=False) if u.key in p.heroic_lost else u
                                                      for u in f.units)) for f in heroic_lost])
    for award in p.glory_awards():  # CC-4, RU-23: each camp's award once, captures to the side that took them
        state = state.plus_glory(*(GloryEntry(award.side, state.turn, e.amount, e.reason, "award", e.rule,
                                              battle.number) for e in award.entries))
    state, back = leaders_after_battle(state, battle)
    lines = summarise(before, p) + tuple(back)
    # The outcome is public news; the Forces and their losses go to those who see the battle (fog of war).
    outcomes = Msg.join(", ", (Msg("{side} {outcome}", side=state.sides[k].name, outcome=o.value) for k, o in p.outcomes))
    sight.say(journal, state, sight.battle_notices(
        before, battle, Msg("Battle {number} at {square} reported: {lines}.", number=battle.number, square=battle.square,
                            lines=Msg.join("; ", lines)),
        public=Msg("Battle {number} at {square} is over: {outcomes}.", number=battle.number, square=battle.square,
                   outcomes=outcomes)))
    return state, lines


@dataclass(frozen=True)
class SideAftermath:
    battle: int
    side: str
    units: tuple[UnitAftermath, ...]
    lines: tuple[str, ...]


def roll_side(state: CampaignState, number: int, side: str, journal: Journal,
              ctx: Context) -> tuple[CampaignState, SideAftermath]:
    """A side's wounded and deserter checks for a battle, one record per unit (MC-7.1, MC-7.2): once,
    in Phase 4, for a reported battle."""
    require_phase(state, Phase.AFTERMATH, "Rolling the aftermath")
    battle = state.battles[number]
    if battle.status is not BattleStatus.REPORTED:
        raise RuleViolation("Battle {number} has no report to roll the aftermath of.", number=battle.number)
    if battle.aftermath.rolled.get(side):
        raise RuleViolation("Your side has already rolled the aftermath of battle {number}.", number=battle.number)
    return _roll_side(state, number, side, journal, ctx)


def _roll_side(state: CampaignState, number: int, side: str, journal: Journal,
               ctx: Context) -> tuple[CampaignState, SideAftermath]:
    state, battle, _ = commanders(state, state.battles[number])
    p, validated = plan(state, battle, kept_report(battle))
    state, dice = turn_dice(state, journal, ctx)
    cell = state.map.cell(Square.parse(battle.square))
    outcome = dict(p.outcomes)[side]
    results: list[UnitAftermath] = []
    lines: list[str] = []
    mercenary = state.settings.mercenary_desertion.value
    for fid, force in validated.forces.items():
        if force.side != side:
            continue
        territory = territory_for(cell, side, state.camps.allies_of(side))  # RU-19: an ally's ground is friendly
        for unit in force.units:
            losses = validated.losses[unit.id]
            if not (losses.killed or losses.rout or losses.other_order or (unit.mercenary and outcome is Outcome.LOST)):
                continue
            key = roll_key(state.turn, Phase.AFTERMATH, f"battle:{battle.number}/unit:{unit.id}", "aftermath")
            ua = unit_aftermath(unit, losses, outcome, territory, dice, key, mercenary=mercenary, rules=ctx.rules)
            results.append(ua)
            for r in ua.rolls:  # the battle's own dice: read by its camps (and the GM), not by all
                journal.roll(state, r, visibility=battle_visibility(battle.number))
            f = state.forces[fid]
            state = state.with_forces([replace(f, units=tuple(replace(u, sp=ua.unit.sp) if u.key == unit.id else u
                                                              for u in f.units))])
            # each count a whole plural message of its own (issue 23: "1 dead", never "1 morts")
            counts = Msg.join(", ", (
                Msg.plural(ua.dead, "{n} dead", "{n} dead"),
                Msg.plural(ua.returned_wounded, "{n} wounded returns", "{n} wounded return"),
                Msg.plural(ua.deserted, "{n} deserted", "{n} deserted"),
                Msg.plural(ua.returned, "{n} returns to the ranks", "{n} return to the ranks"),
            ))
            lines.append(Msg("{unit}: {counts}: {before} -> {after} SP", unit=unit.name, counts=counts, before=unit.sp,
                             after=ua.unit.sp))
    battle = state.battles[number]
    state = state.with_battle(replace(battle, aftermath=replace(battle.aftermath,
                                                                rolled={**battle.aftermath.rolled, side: True})))
    return state, SideAftermath(battle.number, side, tuple(results), tuple(lines))


def done_text(lines: Sequence[str]) -> str:
    return Msg.join("; ", lines) if lines else Msg("nothing to roll")


def positions(state: CampaignState, *exclude: str) -> list[tuple[str, Square]]:
    """Where every other active Force stands, with its side (RU-8: enemy squares are closed)."""
    return [(f.side, Square.parse(f.square)) for f in state.active() if f.key not in exclude and f.square]


def retreat(state: CampaignState, number: int, force: ForceState, square: str,
            journal: Journal) -> tuple[CampaignState, str]:
    """Choose the square a beaten (or drawn) Force moves to (MC-7.3, RU-8, RU-11). Returns the square."""
    require_phase(state, Phase.AFTERMATH, "Retreating")
    battle = state.battles[number]
    retreats = battle.aftermath.retreats
    if force.key not in retreats:
        raise RuleViolation("{name} does not have to leave the battle square (MC-7.3).", name=force.name)
    if retreats[force.key] is not None:
        raise RuleViolation("{name} has already retreated to {retreats}.", name=force.name, retreats=retreats[force.key])
    dest = state.map.parse(square)
    state, battle, _ = commanders(state, battle)
    p, _ = plan(state, battle, kept_report(battle))
    draw = dict(p.outcomes).get(force.side) is Outcome.DRAW
    # MC-7.3: after a draw, apart from the opposing camps' retreats; friends and allies may stay in contact.
    apart = [Square.parse(where) for other, where in retreats.items()
             if draw and where is not None and state.camps.hostile(state.forces[other].side, force.side)]
    check_retreat(state.map, Square.parse(battle.square), force.side, dest, positions(state, force.key),
                  apart_from=apart, camps=state.camps)
    before = state
    state = state.with_force(force.key, square=str(dest))
    state = state.with_battle(replace(battle, aftermath=replace(battle.aftermath,
                                                                retreats={**retreats, force.key: str(dest)})))
    sight.say(journal, state, sight.battle_notices(before, battle, Msg("{force} retreats from {square} to {dest} (MC-7.3).",
                                                                       force=force.name, square=battle.square,
                                                                       dest=str(dest))))
    return state, str(dest)


def finish_battle(state: CampaignState, number: int, journal: Journal, ctx: Context) -> tuple[CampaignState, list[str]]:
    """End of Phase 4 for one battle: what nobody rolled the bot rolls (the dice are keyed, so they are
    the dice the player would have had); retreats nobody chose take the first legal square, or the
    Force surrenders (RU-8); pending fates and trophies are rolled; losers gain their reaction (MC-7.4)."""
    lines: list[str] = []
    for side in state.battles[number].sides:
        if not state.battles[number].aftermath.rolled.get(side):
            state, out = _roll_side(state, number, side, journal, ctx)
            lines.append(Msg("Battle {number}: the bot rolled {side}'s aftermath: {what}.", number=number,
                             side=state.sides[side].name, what=done_text(out.lines)))
    state, more = roll_pending_fates_and_trophies(state, number, journal, ctx)
    lines += more
    state, battle, _ = commanders(state, state.battles[number])
    p, _ = plan(state, battle, kept_report(battle))
    retreats = dict(battle.aftermath.retreats)
    outcome = dict(p.outcomes)
    movers = [fk for fk, where in retreats.items() if where is None and state.forces[fk].status is ForceStatus.ACTIVE]
    picks = choose_retreats(
        state.map, Square.parse(battle.square),
        [Retreating(fk, state.forces[fk].side, outcome.get(state.forces[fk].side) is Outcome.DRAW) for fk in movers],
        positions(state, *retreats),
        chosen=[(state.forces[fk].side, Square.parse(sq), outcome.get(state.forces[fk].side) is Outcome.DRAW)
                for fk, sq in retreats.items() if sq is not None], camps=state.camps)
    for fkey in movers:
        f, dest = state.forces[fkey], picks[fkey]
        if dest is None:
            state = state.with_force(fkey, status=ForceStatus.REMOVED)
            lines.append(Msg("{name} has nowhere to retreat and surrenders (RU-8).", name=f.name))
        else:
            state = state.with_force(fkey, square=str(dest))
            retreats[fkey] = str(dest)
            lines.append(Msg("{force} retreats to {square} (MC-7.3; chosen by the bot).", force=f.name, square=str(dest)))
    for r in p.reactions:
        f = state.forces[r.force_id]
        state = state.with_force(f.key, reaction=Reaction(r.after))
        lines.append(Msg("{force} is now {reaction} (MC-7.4).", force=f.name, reaction=Reaction(r.after).label))
    battle = state.battles[number]
    state = state.with_battle(replace(battle, aftermath=replace(battle.aftermath, retreats=retreats),
                                      status=BattleStatus.DONE))
    return state, lines


# --- the members' commands: who may, then the rule ------------------------------------------------


def report_by(state: CampaignState, gm: Acting, battle: int | str, data: Any,
              journal: Journal) -> tuple[CampaignState, tuple[int, tuple[str, ...]]]:
    """The GM reports a battle (BR): its number and the summary lines."""
    number = _reportable(state, gm, battle)
    state, lines = report(state, number, data, journal)
    return state, (number, lines)


def preview(state: CampaignState, gm: Acting, battle: int | str, data: Any) -> tuple[int, tuple[str, ...]]:
    """What a report will set in motion, without applying it (the confirm step)."""
    number = _reportable(state, gm, battle)
    b = state.battles[number]
    p, _ = plan(state, b, report_for(b, data))
    return number, summarise(state, p)


def _reportable(state: CampaignState, gm: Acting, battle: int | str) -> int:
    require_gm(state, gm)
    require_phase(state, Phase.BATTLE, "Reporting a battle")
    return find_battle(state, battle).number


def roll_for(state: CampaignState, actor: Acting, battle: int | str, journal: Journal,
             ctx: Context) -> tuple[CampaignState, SideAftermath]:
    """A player rolls their side's aftermath of a battle (MC-7.1, MC-7.2); its camps (and those who see
    the battle) are told."""
    require_phase(state, Phase.AFTERMATH, "Rolling the aftermath")
    b = find_battle(state, battle)
    side = side_in_battle(state, actor, b)
    if side is None:
        raise PermissionDenied("Players roll their own aftermath; the bot rolls what is left when the phase ends.")
    after, out = roll_side(state, b.number, side, journal, ctx)
    sight.say(journal, after, sight.battle_notices(
        state, b, Msg("{side} rolled the aftermath of battle {number}: {what}.", side=after.sides[side].name,
                      number=b.number, what=done_text(out.lines))))
    return after, out


def retreat_by(state: CampaignState, actor: Acting, battle: int | str, force: str, square: str,
               journal: Journal) -> tuple[CampaignState, tuple[int, str, str]]:
    """A player (or the GM) retreats a Force of a battle (MC-7.3, RU-8, RU-11): battle, Force name,
    square. A player names one of their own Forces; anything else is refused as a Force that does not
    exist (fog of war)."""
    require_phase(state, Phase.AFTERMATH, "Retreating")
    b = find_battle(state, battle)
    side = side_in_battle(state, actor, b)
    f = state.find_force(force) if side is None else sight.own_force(state, side, force)
    if f is None:
        if side is None:
            raise NotFound("There is no Force {text!r} in this campaign.", text=force)
        raise NotFound("You have no Force {force!r}.", force=force.strip()[:40])
    state, dest = retreat(state, b.number, f, square, journal)
    return state, (b.number, f.name, dest)
