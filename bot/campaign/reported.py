"""A battle as reported (BR): its report read back, its Forces as they fought, and the Phase 4 plan the report
calls for (:func:`bot.engine.reports.plan_aftermath`), for every module that reads a reported battle."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import replace
from typing import Any

from bot.engine.errors import InvalidInput
from bot.engine.model import Force, Leader, Outcome, Square
from bot.engine.reports import (
    AftermathPlan,
    BattleReport,
    ValidatedReport,
    parse_report,
    plan_aftermath,
    validate_report,
)

from .state import Battle, BattleStatus, CampaignState, Commander, ForceStatus


def report_for(battle: Battle, data: Any) -> BattleReport:
    """A report as a member gave it (a form's or a file's document), read for ``battle`` (BR)."""
    if isinstance(data, Mapping):
        data = {"battle": str(battle.number), **data}
    return parse_report(data)


def kept_report(battle: Battle) -> BattleReport:
    """A reported battle's report (BR), or the refusal of one that has none."""
    if battle.report is None:
        raise InvalidInput("Battle {number} has no report yet (BR).", number=battle.number)
    return battle.report


def battle_outcomes(battle: Battle) -> dict[str, Outcome]:
    """A reported battle's outcome for each side, in report order (public news); empty when it has no
    readable report. A past turn's battle (a frame's) has its outcomes as the frame kept them."""
    kept = battle.aftermath.outcomes
    if kept is not None:
        return dict(kept)
    if battle.status is BattleStatus.PENDING or battle.report is None:
        return {}
    return {s.side: s.outcome for s in battle.report.sides}


def winner(battle: Battle) -> str | None:
    """The side whose colour a battle's mark takes: the first side that won it (its camp's), None for a
    draw or a battle not reported."""
    return next((k for k, o in battle_outcomes(battle).items() if o is Outcome.WON), None)


def battle_forces(state: CampaignState, battle: Battle) -> dict[str, Force]:
    """The Forces as they fought: once reported, units keep the SP they had in the battle and each
    Force the leader who led it (RU-18: a replacement who took command since does not change who
    fell), so the report still validates after the aftermath has changed them."""
    before = battle.aftermath.sp_before
    led = battle.aftermath.commanders or {}
    forces = {}
    for k in battle.forces:
        if state.forces[k].status is not ForceStatus.ACTIVE and not before:
            continue
        f = state.engine_force(k)
        f = replace(f, units=tuple(u.with_sp(before.get(u.id, u.sp)) for u in f.units))
        if k in led and led[k].name != f.leader.name:
            f = replace(f, leader=Leader(led[k].name, f.leader.cv))
        forces[k] = f
    return forces


def plan(state: CampaignState, battle: Battle, report: BattleReport) -> tuple[AftermathPlan, ValidatedReport]:
    forces = battle_forces(state, battle)
    validated = validate_report(report, forces.values(), camps=state.camps)
    cell = state.map.cell(Square.parse(battle.square))
    holder = state.holdings.get(battle.square, cell.stronghold)
    # MC-7.3, RU-19: a side holds the square's stronghold when it, or an ally, holds it (its own or a friendly one).
    holders = [side for side in battle.sides if holder is not None and state.camps.friendly(holder, side)]
    heroic = [u.key for k in forces for u in state.forces[k].units if u.heroic]
    p = plan_aftermath(validated, mercenary=state.settings.mercenary_desertion.value, holds_stronghold=holders,
                       heroic_units=heroic, side_order=tuple(state.sides))
    return p, validated


def commanders_now(state: CampaignState, battle: Battle) -> dict[str, Commander]:
    return {k: Commander(ld.key, ld.name) for k in battle.forces if (ld := state.commander(k)) is not None}


def commanders(state: CampaignState, battle: Battle) -> tuple[CampaignState, Battle, dict[str, Commander]]:
    """Who led each Force of a reported battle, by Force key, as kept with the report. A battle reported before they were kept gets them now: the Forces' leaders,
    except that a New Leader put in command by this battle's fate stands for the leader he replaced
    (his key was that leader's, followed by ``-new`` and the turn)."""
    kept = battle.aftermath.commanders
    if kept is not None:
        return state, battle, dict(kept)
    led = commanders_now(state, battle)
    fallen = set(battle.aftermath.fates)
    for k, now in led.items():
        for ld in state.leaders.values():
            if ld.name in fallen and now.key == f"{ld.key}-new{battle.turn}":
                led[k] = Commander(ld.key, ld.name)
    battle = replace(battle, aftermath=replace(battle.aftermath, commanders=led))
    return state.with_battle(battle), battle, led
