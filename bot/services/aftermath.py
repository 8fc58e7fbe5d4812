"""Battle reports (BR) and Phase 4: aftermath rolls (MC-7.1, MC-7.2), retreats (MC-7.3, RU-8),
reactions (MC-7.4, RU-9), and the end-of-phase work the bot does for whoever did not act.

A battle row tracks its Phase 4 in ``battle.aftermath``::

    {"sp_before":  {unit_key: sp},             # the units' SP as they fought
     "commanders": {force_key: {"key", "name"}}, # the leader who led each Force (RU-18)
     "rolled":   {side: bool},                 # wounded and deserter checks made
     "retreats": {force_key: square | None},   # Forces that must leave, and where they went
     "fates":    {leader_name: status | None}, # leader casualties still to roll (CC-1)
     "trophies": {"captor>victim": bool | None}} # eligible trophy attempts still to roll (CC-3)
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, replace
from typing import Any

from sqlmodel import col, select
from sqlmodel.ext.asyncio.session import AsyncSession

from bot.engine.aftermath import Retreating, UnitAftermath, check_retreat, choose_retreats, unit_aftermath
from bot.engine.dice import roll_key
from bot.engine.errors import RuleViolation
from bot.engine.glory import battle_glory
from bot.engine.model import Force, Leader, Outcome, Reaction, Square, territory_for
from bot.engine.phases import Phase
from bot.engine.reports import (
    AftermathPlan,
    BattleReport,
    ValidatedReport,
    parse_report,
    plan_aftermath,
    validate_report,
)
from bot.engine.tables import RuleBook, default_rulebook
from bot.engine.text import Msg
from bot.store.db import Database
from bot.store.models import BattleRow, Campaign, GloryEntry, LeaderRow

from . import sight
from .actors import Actor, require_gm
from .battles import get_battle, require_in_battle
from .cc import leaders_after_battle
from .errors import PermissionDenied
from .loading import State, get_campaign, load_state, turn_dice
from .logbook import battle_visibility, log_event, log_roll
from .orders import require_phase
from .sight import own_force


def _report_for(battle: BattleRow, data: Any) -> BattleReport:
    if isinstance(data, dict):
        data = {"battle": str(battle.number), **data}
    return parse_report(data)


def _battle_forces(state: State, battle: BattleRow) -> dict[str, Force]:
    """The Forces as they fought: once reported, units keep the SP they had in the battle and each
    Force the leader who led it (RU-18: a replacement who took command since does not change who
    fell), so the report still validates after the aftermath has changed them."""
    before = battle.aftermath.get("sp_before", {})
    led = battle.aftermath.get("commanders", {})
    forces = {}
    for k in battle.force_keys:
        if state.forces[k].state != "active" and not before:
            continue
        f = state.force(k)
        f = replace(f, units=tuple(u.with_sp(before.get(u.id, u.sp)) for u in f.units))
        if k in led and led[k]["name"] != f.leader.name:
            f = replace(f, leader=Leader(led[k]["name"], f.leader.cv))
        forces[k] = f
    return forces


def _commanders_now(state: State, battle: BattleRow) -> dict[str, dict[str, str]]:
    return {k: {"key": ld.key, "name": ld.name} for k in battle.force_keys if (ld := state.leaders.get(k)) is not None}


async def commanders(s: AsyncSession, campaign: Campaign, state: State, battle: BattleRow) -> dict[str, dict[str, str]]:
    """Who led each Force of a reported battle, by Force key (``{"key", "name"}`` of the leader), as
    kept with the report. A battle reported before they were kept gets them now: the Forces' leaders,
    except that a New Leader put in command by this battle's fate stands for the leader he replaced
    (his key was that leader's, followed by ``-new`` and the turn)."""
    kept = battle.aftermath.get("commanders")
    if kept is not None:
        return kept  # type: ignore[no-any-return]
    led = _commanders_now(state, battle)
    fallen = list(battle.aftermath.get("fates", {}))
    if fallen:
        rows = (await s.exec(select(LeaderRow).where(LeaderRow.campaign_id == campaign.id,
                                                     col(LeaderRow.name).in_(fallen)))).all()
        for k, now in led.items():
            for r in rows:
                if now["key"] == f"{r.key}-new{battle.turn}":
                    led[k] = {"key": r.key, "name": r.name}
    battle.aftermath = {**battle.aftermath, "commanders": led}
    s.add(battle)
    return led


def _plan(state: State, battle: BattleRow, report: BattleReport) -> tuple[AftermathPlan, ValidatedReport]:
    forces = _battle_forces(state, battle)
    validated = validate_report(report, forces.values())
    holders = []
    cell = state.cmap.cell(Square.parse(battle.square))
    for side in battle.side_keys:
        holder = state.campaign.holdings.get(battle.square, cell.stronghold)
        if cell.stronghold is not None and holder == side:
            holders.append(side)
    heroic = [u.key for k in forces for u in state.units.get(k, []) if u.heroic]
    plan = plan_aftermath(validated, mercenary=state.campaign.options.get("mercenary_desertion", "check_all"),
                          holds_stronghold=holders, heroic_units=heroic)
    return plan, validated


@dataclass(frozen=True)
class ReportSummary:
    battle: int
    lines: tuple[str, ...]


def summarise(state: State, plan: AftermathPlan) -> tuple[str, ...]:
    name = {k: sd.name for k, sd in state.sides.items()}
    unit = {u.key: u.name for rows in state.units.values() for u in rows}
    lines = [Msg.join(", ", (Msg("{side} {outcome}", side=name.get(s, s), outcome=o.value) for s, o in plan.outcomes))]
    for w in plan.wounded:
        lines.append(Msg("{force}: {sp} SP killed in {unit} take the wounded check (MC-7.1)", force=state.forces[w.force_id].name,
                         sp=w.sp, unit=unit.get(w.unit_id, w.unit_id)))
    for d in plan.deserters:
        sp = sum(p.sp for p in d.duty.pools)
        args = {"force": state.forces[d.force_id].name, "sp": sp, "unit": unit.get(d.unit_id, d.unit_id)}
        lines.append(Msg("{force}: {sp} SP of {unit} take the deserter check (MC-7.2), {outright} desert outright (RU-6)",
                         outright=d.duty.lost_outright, **args) if d.duty.lost_outright
                     else Msg("{force}: {sp} SP of {unit} take the deserter check (MC-7.2)", **args))
    for f in plan.leader_fates:
        lines.append(Msg("{leader} fell ({label}): fate roll due (CC-1)", leader=f.leader, label=f.circumstance.label))
    for a in plan.trophy_attempts:
        captor, victim = unit.get(a.captor_id, a.captor_id), unit.get(a.victim_id, a.victim_id)
        lines.append(Msg("{captor} may try for the flag of {victim} (CC-3)", captor=captor, victim=victim)
                     if a.eligibility.eligible
                     else Msg("{captor} cannot take a trophy from {victim}: {reasons}", captor=captor, victim=victim,
                              reasons=Msg.join("; ", a.eligibility.reasons)))
    for r in plan.reactions:
        lines.append(Msg("{force} becomes {reaction} (MC-7.4)", force=state.forces[r.force_id].name,
                         reaction=r.after.label))
    for r in plan.retreats:
        if r.duty.must_move:
            lines.append(Msg("{force} must retreat: {reason} (MC-7.3)", force=state.forces[r.force_id].name,
                             reason=r.duty.reason))
    return tuple(lines)


async def preview_report(db: Database, campaign_id: int, gm: Actor, battle: int | str, data: Any) -> ReportSummary:
    """Validate a report and say what it will set in motion, without saving (for the confirm step)."""
    async with db.sessions() as s:
        campaign = await get_campaign(s, campaign_id)
        require_gm(campaign, gm)
        require_phase(campaign, Phase.BATTLE, "Reporting a battle")
        row = await get_battle(s, campaign, battle)
        state = await load_state(s, campaign)
        plan, _ = _plan(state, row, _report_for(row, data))
        return ReportSummary(row.number, summarise(state, plan))


async def report_battle(db: Database, campaign_id: int, gm: Actor, battle: int | str, data: Any) -> ReportSummary:
    """GM: record a battle's report (BR): outcomes, tallies (MC-9), Glory (CC-4), Heroic lost, and what
    Phase 4 must roll."""
    async with db.transaction() as s:
        campaign = await get_campaign(s, campaign_id, lock=True)
        require_gm(campaign, gm)
        require_phase(campaign, Phase.BATTLE, "Reporting a battle")
        row = await get_battle(s, campaign, battle)
        if row.state != "pending":
            raise RuleViolation("Battle {number} is already reported; /gm undo reverts a whole phase.", number=row.number)
        state = await load_state(s, campaign)
        report = _report_for(row, data)
        plan, _ = _plan(state, row, report)
        row.report = data if isinstance(data, dict) else None
        row.state = "reported"
        row.aftermath = {
            "sp_before": {u.id: u.sp for f in _battle_forces(state, row).values() for u in f.units},
            "commanders": _commanders_now(state, row),
            "rolled": {side: False for side in row.side_keys},
            "retreats": {fid: None for fid in plan.must_retreat},
            "fates": {f.leader: None for f in plan.leader_fates},
            "trophies": {f"{a.captor_id}>{a.victim_id}": None for a in plan.trophy_attempts if a.eligibility.eligible},
        }
        s.add(row)
        for side, outcome in plan.outcomes:
            sd = state.sides[side]
            if outcome is Outcome.WON:
                sd.battles_won += 1
            elif outcome is Outcome.LOST:
                sd.battles_lost += 1
                sd.must_test = sd.must_test or "it lost a battle this turn (MC-9)"
            s.add(sd)
        for fkey in row.force_keys:
            for u in state.units.get(fkey, []):
                if u.key in plan.heroic_lost:
                    u.heroic = False
                    s.add(u)
        for due in plan.glory:
            award = battle_glory(due.side, due.outcome, battle_id=str(row.number), banners_required=due.banners_required,
                                 banners_won=due.banners, enemy_banners=due.enemy_banners,
                                 leaders_captured=due.leaders_captured)
            for e in award.entries:
                s.add(GloryEntry(campaign_id=campaign.id, side_key=due.side, turn=campaign.turn, amount=e.amount,
                                 reason=e.reason, rule=e.rule, battle=row.number))
        lines = summarise(state, plan) + tuple(await leaders_after_battle(s, campaign, state, row))
        # The outcome is public news; the Forces and their losses go to those who see the battle (fog of war).
        outcomes = Msg.join(", ", (Msg("{side} {outcome}", side=state.sides[k].name, outcome=o.value)
                                   for k, o in plan.outcomes))
        for notice in sight.battle_notices(state, row, Msg("Battle {number} at {square} reported: {lines}.",
                                                           number=row.number, square=row.square,
                                                           lines=Msg.join("; ", lines)),
                                           public=Msg("Battle {number} at {square} is over: {outcomes}.",
                                                      number=row.number, square=row.square, outcomes=outcomes)):
            await log_event(s, campaign, notice.text, visibility=notice.visibility)
        return ReportSummary(row.number, lines)


@dataclass(frozen=True)
class AftermathOutcome:
    battle: int
    side: str
    units: tuple[UnitAftermath, ...]
    lines: tuple[str, ...]


async def _roll_side(s: AsyncSession, campaign: Campaign, state: State, row: BattleRow, side: str,
                     rules: RuleBook) -> AftermathOutcome:
    await commanders(s, campaign, state, row)
    plan, validated = _plan(state, row, _report_for(row, row.report))
    dice = await turn_dice(s, campaign)
    cell = state.cmap.cell(Square.parse(row.square))
    outcome = dict(plan.outcomes)[side]
    results: list[UnitAftermath] = []
    lines: list[str] = []
    mercenary = campaign.options.get("mercenary_desertion", "check_all")
    for fid, force in validated.forces.items():
        if force.side != side:
            continue
        territory = territory_for(cell, side)
        for unit in force.units:
            losses = validated.losses[unit.id]
            if not (losses.killed or losses.rout or losses.other_order or (unit.mercenary and outcome is Outcome.LOST)):
                continue
            key = roll_key(campaign.turn, Phase.AFTERMATH, f"battle:{row.number}/unit:{unit.id}", "aftermath")
            ua = unit_aftermath(unit, losses, outcome, territory, dice, key, mercenary=mercenary, rules=rules)
            results.append(ua)
            for r in ua.rolls:  # the battle's own dice: read by its camps (and the GM), not by all
                await log_roll(s, campaign, r, visibility=battle_visibility(row.number))
            for urow in state.units.get(fid, []):
                if urow.key == unit.id:
                    urow.sp = ua.unit.sp
                    s.add(urow)
            lines.append(Msg("{unit}: {dead} dead, {wounded} wounded return, {deserted} deserted, {returned} return to the ranks: "
                             "{before} -> {after} SP", unit=unit.name, dead=ua.dead, wounded=ua.returned_wounded,
                             deserted=ua.deserted, returned=ua.returned, before=unit.sp, after=ua.unit.sp))
    row.aftermath = {**row.aftermath, "rolled": {**row.aftermath.get("rolled", {}), side: True}}
    s.add(row)
    return AftermathOutcome(row.number, side, tuple(results), tuple(lines))


async def roll_aftermath(db: Database, campaign_id: int, actor: Actor, battle: int | str,
                         *, rules: RuleBook | None = None) -> AftermathOutcome:
    """Phase 4: a player rolls their side's wounded and deserter checks for a battle, one record per unit."""
    rules = rules or default_rulebook()
    async with db.transaction() as s:
        campaign = await get_campaign(s, campaign_id, lock=True)
        require_phase(campaign, Phase.AFTERMATH, "Rolling the aftermath")
        row = await get_battle(s, campaign, battle)
        side = await require_in_battle(s, campaign, actor, row)
        if side is None:
            raise PermissionDenied("Players roll their own aftermath; the bot rolls what is left when the phase ends.")
        if row.state != "reported":
            raise RuleViolation("Battle {number} has no report to roll the aftermath of.", number=row.number)
        if row.aftermath.get("rolled", {}).get(side):
            raise RuleViolation("Your side has already rolled the aftermath of battle {number}.", number=row.number)
        state = await load_state(s, campaign)
        out = await _roll_side(s, campaign, state, row, side, rules)
        for notice in sight.battle_notices(state, row, Msg("{side} rolled the aftermath of battle {number}: {what}.",
                                                           side=state.sides[side].name, number=row.number,
                                                           what=_done(out.lines))):
            await log_event(s, campaign, notice.text, visibility=notice.visibility)
        return out


@dataclass(frozen=True)
class RetreatOutcome:
    battle: int
    force: str
    square: str


def _positions(state: State, *exclude: str) -> list[tuple[str, Square]]:
    """Where every other active Force stands, with its side (RU-8: enemy squares are closed)."""
    return [(f.side_key, Square.parse(f.square)) for f in state.active() if f.key not in exclude and f.square]


async def retreat(db: Database, campaign_id: int, actor: Actor, battle: int | str, force: str,
                  square: str) -> RetreatOutcome:
    """Phase 4: choose the square a beaten (or drawn) Force moves to (MC-7.3, RU-8, RU-11)."""
    async with db.transaction() as s:
        campaign = await get_campaign(s, campaign_id, lock=True)
        require_phase(campaign, Phase.AFTERMATH, "Retreating")
        row = await get_battle(s, campaign, battle)
        side = await require_in_battle(s, campaign, actor, row)
        state = await load_state(s, campaign)
        # A player names one of their own Forces; anything else is refused as a Force that does not exist.
        frow = state.find_force(force) if side is None else own_force(state, side, force)
        retreats = row.aftermath.get("retreats", {})
        if frow.key not in retreats:
            raise RuleViolation("{name} does not have to leave the battle square (MC-7.3).", name=frow.name)
        if retreats[frow.key] is not None:
            raise RuleViolation("{name} has already retreated to {retreats}.", name=frow.name, retreats=retreats[frow.key])
        dest = state.cmap.parse(square)
        await commanders(s, campaign, state, row)
        plan, _ = _plan(state, row, _report_for(row, row.report))
        draw = dict(plan.outcomes).get(frow.side_key) is Outcome.DRAW
        # MC-7.3: after a draw, apart from the opposing camps' retreats; friends may stay in contact.
        apart = [Square.parse(where) for other, where in retreats.items()
                 if draw and where is not None and state.forces[other].side_key != frow.side_key]
        check_retreat(state.cmap, Square.parse(row.square), frow.side_key, dest, _positions(state, frow.key),
                      apart_from=apart)
        frow.square = str(dest)
        s.add(frow)
        row.aftermath = {**row.aftermath, "retreats": {**retreats, frow.key: str(dest)}}
        s.add(row)
        for notice in sight.battle_notices(state, row, Msg("{force} retreats from {square} to {dest} (MC-7.3).",
                                                           force=frow.name, square=row.square, dest=str(dest))):
            await log_event(s, campaign, notice.text, visibility=notice.visibility)
        return RetreatOutcome(row.number, frow.name, str(dest))


def _done(lines: Sequence[str]) -> str:
    return Msg.join("; ", lines) if lines else Msg("nothing to roll")


async def finish_battle(s: AsyncSession, campaign: Campaign, row: BattleRow, rules: RuleBook) -> list[str]:
    """End of Phase 4 for one battle: what nobody rolled the bot rolls (the dice are keyed, so they are
    the dice the player would have had); retreats nobody chose take the first legal square, or the
    Force surrenders (RU-8); pending fates and trophies are rolled; losers gain their reaction (MC-7.4)."""
    from .cc import roll_pending_fates_and_trophies

    state = await load_state(s, campaign)
    lines: list[str] = []
    for side in row.side_keys:
        if not row.aftermath.get("rolled", {}).get(side):
            out = await _roll_side(s, campaign, state, row, side, rules)
            lines.append(Msg("Battle {number}: the bot rolled {side}'s aftermath: {what}.", number=row.number,
                             side=state.sides[side].name, what=_done(out.lines)))
    lines += await roll_pending_fates_and_trophies(s, campaign, state, row)
    state = await load_state(s, campaign)
    await commanders(s, campaign, state, row)
    plan, _ = _plan(state, row, _report_for(row, row.report))
    retreats = dict(row.aftermath.get("retreats", {}))
    outcome = dict(plan.outcomes)
    movers = [fk for fk, where in retreats.items() if where is None and state.forces[fk].state == "active"]
    picks = choose_retreats(
        state.cmap, Square.parse(row.square),
        [Retreating(fk, state.forces[fk].side_key, outcome.get(state.forces[fk].side_key) is Outcome.DRAW)
         for fk in movers],
        _positions(state, *retreats),
        chosen=[(state.forces[fk].side_key, Square.parse(sq), outcome.get(state.forces[fk].side_key) is Outcome.DRAW)
                for fk, sq in retreats.items() if sq is not None])
    for fkey in movers:
        frow, dest = state.forces[fkey], picks[fkey]
        if dest is None:
            frow.state = "removed"
            lines.append(Msg("{name} has nowhere to retreat and surrenders (RU-8).", name=frow.name))
        else:
            frow.square = str(dest)
            retreats[fkey] = str(dest)
            lines.append(Msg("{force} retreats to {square} (MC-7.3; chosen by the bot).", force=frow.name,
                             square=str(dest)))
        s.add(frow)
    for r in plan.reactions:
        frow = state.forces[r.force_id]
        frow.reaction = r.after.value
        s.add(frow)
        lines.append(Msg("{force} is now {reaction} (MC-7.4).", force=frow.name, reaction=Reaction(r.after).label))
    row.aftermath = {**row.aftermath, "retreats": retreats}
    row.state = "done"
    s.add(row)
    await s.flush()
    return lines
