"""Battle reports (BR) and Phase 4 for members: load, authorise, apply the core
(:mod:`bot.campaign.aftermath`), save."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from bot.campaign import aftermath as core
from bot.campaign import sight
from bot.campaign.authority import require_gm, require_phase, side_in_battle
from bot.campaign.scouting import find_battle
from bot.campaign.state import BattleStatus
from bot.engine.aftermath import UnitAftermath
from bot.engine.errors import RuleViolation
from bot.engine.phases import Phase
from bot.engine.tables import RuleBook
from bot.engine.text import Msg
from bot.store.db import Database

from . import readcache, shell
from .actors import Actor
from .errors import NotFound, PermissionDenied


@dataclass(frozen=True)
class ReportSummary:
    battle: int
    lines: tuple[str, ...]


async def preview_report(db: Database, campaign_id: int, gm: Actor, battle: int | str, data: Any) -> ReportSummary:
    """Validate a report and say what it will set in motion, without saving (for the confirm step)."""
    state = (await readcache.read(db, campaign_id)).state
    require_gm(state, gm)
    require_phase(state, Phase.BATTLE, "Reporting a battle")
    b = find_battle(state, battle)
    plan, _ = core.plan(state, b, core.report_for(b, data))
    return ReportSummary(b.number, core.summarise(state, plan))


async def report_battle(db: Database, campaign_id: int, gm: Actor, battle: int | str, data: Any) -> ReportSummary:
    """GM: record a battle's report (BR): outcomes, tallies (MC-9), Glory (CC-4), Heroic lost, and what
    Phase 4 must roll."""
    async with db.transaction() as s:
        loaded = await shell.load(s, campaign_id)
        require_gm(loaded.state, gm)
        require_phase(loaded.state, Phase.BATTLE, "Reporting a battle")
        b = find_battle(loaded.state, battle)
        journal = await loaded.journal()
        state, lines = core.report(loaded.state, b.number, data, journal)
        await shell.save(s, loaded, state, journal)
    # Not handed to the read cache: the report's Glory awards give their reasons as messages, which
    # the database keeps as English text (a load gives those), so the next read loads the campaign.
    return ReportSummary(b.number, lines)


@dataclass(frozen=True)
class AftermathOutcome:
    battle: int
    side: str
    units: tuple[UnitAftermath, ...]
    lines: tuple[str, ...]


async def roll_aftermath(db: Database, campaign_id: int, actor: Actor, battle: int | str,
                         *, rules: RuleBook | None = None) -> AftermathOutcome:
    """Phase 4: a player rolls their side's wounded and deserter checks for a battle, one record per unit."""
    async with db.transaction() as s:
        loaded = await shell.load(s, campaign_id)
        require_phase(loaded.state, Phase.AFTERMATH, "Rolling the aftermath")
        b = find_battle(loaded.state, battle)
        side = side_in_battle(loaded.state, actor, b)
        if side is None:
            raise PermissionDenied("Players roll their own aftermath; the bot rolls what is left when the phase ends.")
        if b.status is not BattleStatus.REPORTED:
            raise RuleViolation("Battle {number} has no report to roll the aftermath of.", number=b.number)
        if b.aftermath.get("rolled", {}).get(side):
            raise RuleViolation("Your side has already rolled the aftermath of battle {number}.", number=b.number)
        journal = await loaded.journal()
        state, out = core.roll_side(loaded.state, b.number, side, journal, shell.context(rules))
        sight.say(journal, state, sight.battle_notices(
            loaded.state, b, Msg("{side} rolled the aftermath of battle {number}: {what}.",
                                 side=state.sides[side].name, number=b.number, what=core.done_text(out.lines))))
        saved = await shell.save(s, loaded, state, journal)
    shell.remember(db, saved)
    return AftermathOutcome(out.battle, out.side, out.units, out.lines)


@dataclass(frozen=True)
class RetreatOutcome:
    battle: int
    force: str
    square: str


async def retreat(db: Database, campaign_id: int, actor: Actor, battle: int | str, force: str,
                  square: str) -> RetreatOutcome:
    """Phase 4: choose the square a beaten (or drawn) Force moves to (MC-7.3, RU-8, RU-11)."""
    async with db.transaction() as s:
        loaded = await shell.load(s, campaign_id)
        require_phase(loaded.state, Phase.AFTERMATH, "Retreating")
        b = find_battle(loaded.state, battle)
        side = side_in_battle(loaded.state, actor, b)
        # A player names one of their own Forces; anything else is refused as a Force that does not exist.
        f = loaded.state.find_force(force) if side is None else sight.own_force(loaded.state, side, force)
        if f is None:
            if side is None:
                raise NotFound("There is no Force {text!r} in this campaign.", text=force)
            raise NotFound("You have no Force {force!r}.", force=force.strip()[:40])
        journal = await loaded.journal()
        state, dest = core.retreat(loaded.state, b.number, f, square, journal)
        saved = await shell.save(s, loaded, state, journal)
    shell.remember(db, saved)
    return RetreatOutcome(b.number, f.name, dest)
