"""Battle reports (BR) and Phase 4 for members: load, authorise, apply the core
(:mod:`bot.campaign.aftermath`), save."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from sqlmodel.ext.asyncio.session import AsyncSession

from bot.campaign import aftermath as core
from bot.campaign.dice import Context
from bot.campaign.state import Battle, BattleStatus, CampaignState
from bot.engine.aftermath import UnitAftermath
from bot.engine.errors import RuleViolation
from bot.engine.phases import Phase
from bot.engine.tables import RuleBook, default_rulebook
from bot.engine.text import Msg
from bot.store import repository
from bot.store.db import Database

from . import loading
from .actors import Actor, is_gm, require_gm
from .errors import NotFound, PermissionDenied
from .loading import get_campaign
from .orders import require_phase

summarise = core.summarise


def battle_of(state: CampaignState, number: int | str) -> Battle:
    """A battle by the number a member typed."""
    text = str(number).strip().lstrip("#")
    if not (text.isascii() and text.isdigit()) or len(text) > 9:  # not "²", "１" or 5,000 digits
        raise NotFound("{number!r} is not a battle number: battles are numbered 1, 2, 3...", number=number)
    battle = state.battles.get(int(text))
    if battle is None:
        raise NotFound("There is no battle {text} in this campaign.", text=text)
    return battle


def side_in_battle(loaded: repository.Loaded, actor: Actor, battle: Battle) -> str | None:
    """The actor's side in this battle (None for the GM); others are refused."""
    side = loaded.state.players.get(actor.member_id)
    if side in battle.sides:
        return side
    if is_gm(loaded.campaign, actor):
        return None
    raise PermissionDenied("Only the sides in battle {number} and the GM can do that.", number=battle.number)


def _ctx(rules: RuleBook | None = None) -> Context:
    return Context(lambda: loading.new_turn_seed(), rules or default_rulebook())


@dataclass(frozen=True)
class ReportSummary:
    battle: int
    lines: tuple[str, ...]


async def _load(s: AsyncSession, campaign_id: int, *, lock: bool) -> repository.Loaded:
    return await repository.load(s, await get_campaign(s, campaign_id, lock=lock))


async def preview_report(db: Database, campaign_id: int, gm: Actor, battle: int | str, data: Any) -> ReportSummary:
    """Validate a report and say what it will set in motion, without saving (for the confirm step)."""
    async with db.sessions() as s:
        campaign = await get_campaign(s, campaign_id)
        require_gm(campaign, gm)
        require_phase(campaign, Phase.BATTLE, "Reporting a battle")
        loaded = await repository.load(s, campaign)
        b = battle_of(loaded.state, battle)
        plan, _ = core.plan(loaded.state, b, core.report_for(b, data))
        return ReportSummary(b.number, core.summarise(loaded.state, plan))


async def report_battle(db: Database, campaign_id: int, gm: Actor, battle: int | str, data: Any) -> ReportSummary:
    """GM: record a battle's report (BR): outcomes, tallies (MC-9), Glory (CC-4), Heroic lost, and what
    Phase 4 must roll."""
    async with db.transaction() as s:
        campaign = await get_campaign(s, campaign_id, lock=True)
        require_gm(campaign, gm)
        require_phase(campaign, Phase.BATTLE, "Reporting a battle")
        loaded = await repository.load(s, campaign)
        b = battle_of(loaded.state, battle)
        journal = await loaded.journal()
        state, lines = core.report(loaded.state, b.number, data, journal)
        await repository.save(s, loaded, state, journal.events)
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
        campaign = await get_campaign(s, campaign_id, lock=True)
        require_phase(campaign, Phase.AFTERMATH, "Rolling the aftermath")
        loaded = await repository.load(s, campaign)
        b = battle_of(loaded.state, battle)
        side = side_in_battle(loaded, actor, b)
        if side is None:
            raise PermissionDenied("Players roll their own aftermath; the bot rolls what is left when the phase ends.")
        if b.status is not BattleStatus.REPORTED:
            raise RuleViolation("Battle {number} has no report to roll the aftermath of.", number=b.number)
        if b.aftermath.get("rolled", {}).get(side):
            raise RuleViolation("Your side has already rolled the aftermath of battle {number}.", number=b.number)
        journal = await loaded.journal()
        state, out = core.roll_side(loaded.state, b.number, side, journal, _ctx(rules))
        from bot.campaign import sight

        sight.say(journal, state, sight.battle_notices(
            loaded.state, b, Msg("{side} rolled the aftermath of battle {number}: {what}.",
                                 side=state.sides[side].name, number=b.number, what=core.done_text(out.lines))))
        await repository.save(s, loaded, state, journal.events)
        return AftermathOutcome(out.battle, out.side, out.units, out.lines)


@dataclass(frozen=True)
class RetreatOutcome:
    battle: int
    force: str
    square: str


async def retreat(db: Database, campaign_id: int, actor: Actor, battle: int | str, force: str,
                  square: str) -> RetreatOutcome:
    """Phase 4: choose the square a beaten (or drawn) Force moves to (MC-7.3, RU-8, RU-11)."""
    from bot.campaign import sight

    async with db.transaction() as s:
        campaign = await get_campaign(s, campaign_id, lock=True)
        require_phase(campaign, Phase.AFTERMATH, "Retreating")
        loaded = await repository.load(s, campaign)
        b = battle_of(loaded.state, battle)
        side = side_in_battle(loaded, actor, b)
        # A player names one of their own Forces; anything else is refused as a Force that does not exist.
        f = loaded.state.find_force(force) if side is None else sight.own_force(loaded.state, side, force)
        if f is None:
            if side is None:
                raise NotFound("There is no Force {text!r} in this campaign.", text=force)
            raise NotFound("You have no Force {force!r}.", force=force.strip()[:40])
        journal = await loaded.journal()
        state, dest = core.retreat(loaded.state, b.number, f, square, journal)
        await repository.save(s, loaded, state, journal.events)
        return RetreatOutcome(b.number, f.name, dest)
