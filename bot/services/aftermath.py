"""Battle reports (BR) and Phase 4 for members: the core's commands (:mod:`bot.campaign.aftermath`),
each one write (:func:`.shell.write`)."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from bot.campaign import aftermath as core
from bot.campaign import claims, disputes
from bot.engine.aftermath import UnitAftermath
from bot.engine.tables import RuleBook
from bot.store.db import Database

from . import shell
from .actors import Actor


@dataclass(frozen=True)
class ReportSummary:
    battle: int
    lines: tuple[str, ...]


async def preview_report(db: Database, campaign_id: int, gm: Actor, battle: int | str, data: Any) -> ReportSummary:
    """Validate a report and say what it will set in motion, without saving (for the confirm step)."""
    return ReportSummary(*core.preview(await shell.state(db, campaign_id), gm, battle, data))


async def report_battle(db: Database, campaign_id: int, gm: Actor, battle: int | str, data: Any) -> ReportSummary:
    """GM: record a battle's report (BR): outcomes, tallies (MC-9), Glory (CC-4), Heroic lost, and what
    Phase 4 must roll."""
    # The report's Glory awards give their reasons as messages, which the database keeps as English text:
    # the read cache is handed the state as stored (repository.as_stored), as a load would give it.
    number, lines = await shell.write(db, campaign_id, lambda state, journal: core.report_by(
        state, gm, battle, data, journal))
    return ReportSummary(number, lines)


@dataclass(frozen=True)
class AftermathOutcome:
    battle: int
    side: str
    units: tuple[UnitAftermath, ...]
    lines: tuple[str, ...]


async def roll_aftermath(db: Database, campaign_id: int, actor: Actor, battle: int | str,
                         *, rules: RuleBook | None = None) -> AftermathOutcome:
    """Phase 4: a player rolls their side's wounded and deserter checks for a battle, one record per unit."""
    out = await shell.write(db, campaign_id, lambda state, journal: core.roll_for(
        state, actor, battle, journal, shell.context(rules)))
    return AftermathOutcome(out.battle, out.side, out.units, out.lines)


@dataclass(frozen=True)
class RetreatOutcome:
    battle: int
    force: str
    square: str


async def retreat(db: Database, campaign_id: int, actor: Actor, battle: int | str, force: str,
                  square: str) -> RetreatOutcome:
    """Phase 4: choose the square a beaten (or drawn) Force moves to (MC-7.3, RU-8, RU-11)."""
    return RetreatOutcome(*await shell.write(db, campaign_id, lambda state, journal: core.retreat_by(
        state, actor, battle, force, square, journal)))


# --- camp reports, the GM's draft and its confirmation (bot/campaign/claims.py) ---------------------


async def claim_report(db: Database, campaign_id: int, actor: Actor, battle: int | str, data: Any) -> claims.ClaimResult:
    """A player reports their side's part of a battle (BR); agreed by every camp, it is applied."""
    return await shell.write(db, campaign_id, lambda state, journal: claims.claim_by(
        state, actor, battle, data, journal))


async def require_reporter(db: Database, campaign_id: int, actor: Actor) -> None:
    """Refuse a member who is neither the GM nor a player (BR: they report battles)."""
    claims.require_reporter(await shell.state(db, campaign_id), actor)


async def stored_report(db: Database, campaign_id: int, actor: Actor,
                        battle: int | str) -> tuple[int, str | None, dict[str, Any] | None]:
    """The actor's stored part (a player: their side's claim; the GM: the draft), to prefill a form."""
    return claims.own_claim(await shell.state(db, campaign_id), actor, battle)


async def report_template(db: Database, campaign_id: int, actor: Actor, battle: int | str) -> tuple[int, str]:
    """A YAML report to fill in (BR): the actor's side's part, or for the GM the whole battle."""
    return claims.template_for(await shell.state(db, campaign_id), actor, battle)


@dataclass(frozen=True)
class Draft:
    battle: int
    lines: tuple[str, ...]
    fingerprint: str


async def draft_report(db: Database, campaign_id: int, gm: Actor, battle: int | str, data: Any) -> Draft:
    """GM: check a report, keep it as the battle's draft and say what it will set in motion."""
    return Draft(*await shell.write(db, campaign_id, lambda state, journal: claims.draft_by(
        state, gm, battle, data, journal)))


async def confirm_report(db: Database, campaign_id: int, gm: Actor, battle: int | str,
                         fingerprint: str) -> ReportSummary:
    """GM: apply the previewed report, if it is still the battle's draft (the button survives restarts)."""
    number, lines = await shell.write(db, campaign_id, lambda state, journal: claims.confirm_by(
        state, gm, battle, fingerprint, journal))
    return ReportSummary(number, lines)


async def report_form(db: Database, campaign_id: int, actor: Actor, battle: int | str) -> claims.Form:
    """What the actor's side's report form shows (its units, leaders, enemies and stored claim)."""
    return claims.form_for(await shell.state(db, campaign_id), actor, battle)


async def dispute(db: Database, campaign_id: int, gm: Actor, battle: int | str) -> disputes.Dispute:
    """GM: what the camps' reports of a battle disagree on, by name, with the choices taken so far (BR)."""
    return disputes.dispute_by(await shell.state(db, campaign_id), gm, battle)


async def take_claim(db: Database, campaign_id: int, gm: Actor, battle: int | str, index: int, camp_at: int,
                     fingerprint: str) -> disputes.Taken:
    """GM: take one camp's account of a disputed field; the last one makes the merged report the draft."""
    return await shell.write(db, campaign_id, lambda state, journal: disputes.take_by(
        state, gm, battle, index, camp_at, fingerprint, journal))


part_from_form = claims.part_from_form  # the form's fields -> a side's report document (BR), at the edge
FormWords = claims.FormWords  # the words a member may type in the form, in their language
LOSS_KINDS = claims.LOSS_KINDS  # a unit's counts in the form (BR), each with its box's name
Form = claims.Form
FormUnit = claims.FormUnit
ClaimResult = claims.ClaimResult
