"""C&C campaign use cases: leader fate (CC-1, CC-2), trophies (CC-3) and Glory (CC-4)."""

from __future__ import annotations

from dataclasses import dataclass

from bot.campaign import glory, leaders, views
from bot.campaign.dice import Context
from bot.campaign.leaders import FateOutcome, TrophyOutcome
from bot.campaign.state import CampaignState
from bot.campaign.views import GloryBattle, SideGlory, TrophyAttempt
from bot.engine.cc_model import SPEND_KINDS, Circumstance, Commander, GloryKind
from bot.engine.errors import InvalidInput, RuleViolation
from bot.engine.leaders import (
    NextBattleCommand,
    next_battle_command,
)
from bot.engine.model import LeaderStatus, Quality, Unit, UnitType, parse_enum
from bot.engine.phases import Phase
from bot.engine.rolls import BatchRoll, Roll
from bot.engine.tables import default_rulebook
from bot.engine.text import Msg
from bot.store import repository
from bot.store.db import Database
from bot.store.models import LeaderRow, UnitRow

from . import loading
from .actors import Actor, is_gm, require_player
from .errors import NotFound
from .loading import get_campaign
from .orders import require_phase

# --- leader fate ----------------------------------------------------------------------------

KINDS = {"leader": Commander.LEADER, "new": Commander.NEW_LEADER, "temporary": Commander.TEMPORARY_LEADER}
"""``LeaderRow.kind``: the scenario's leader, or a New or Temporary Leader who took command (CC-2)."""


def _no_fate_due(leader: str) -> NotFound:
    """The one refusal for a leader with no fate due, of another side, or of no side at all (fog of war)."""
    return NotFound("{leader!r} has no fate roll due: only leaders reported fallen in a battle of this turn roll (CC-1).",
                    leader=leader.strip()[:40])


def _ctx() -> Context:
    return Context(lambda: loading.new_turn_seed(), default_rulebook())


async def leader_fate(db: Database, campaign_id: int, actor: Actor, leader: str,
                      circumstance: str | Circumstance | None = None,
                      designation: str | UnitType | None = None) -> FateOutcome:
    """Phase 4: roll a fallen leader's fate (CC-1) and apply his replacement (CC-2, RU-18), designated
    ``designation`` if he needs one (default: the type of the Force's strongest unit)."""
    async with db.transaction() as s:
        campaign = await get_campaign(s, campaign_id, lock=True)
        require_phase(campaign, Phase.AFTERMATH, "Rolling a leader's fate")
        loaded = await repository.load(s, campaign)
        state = loaded.state
        gm, side = is_gm(campaign, actor), state.players.get(actor.member_id)
        try:
            battle, name, reported = leaders.fates_due(state, leader)
            _, _, force_key, _ = leaders.fallen(state, battle, name)
        except leaders.NoFateDue:
            raise _no_fate_due(leader) from None
        if not gm and side != state.forces[force_key].side:  # fog of war: as if he had not fallen
            raise _no_fate_due(leader)
        if circumstance is not None and parse_enum(Circumstance, circumstance, "circumstance") is not reported:
            raise RuleViolation("The report says {name} fell in {label}: the fate uses that table (CC-1).", name=name,
                                label=reported.label)
        journal = await loaded.journal()
        state, out = leaders.apply_fate(state, battle.number, name, reported, journal, _ctx(),
                                        None if designation is None else parse_enum(UnitType, designation, "designation"))
        journal.say(state, Msg.join(" ", out.lines))
        await repository.save(s, loaded, state, journal.events)
        return out


async def trophy_roll(db: Database, campaign_id: int, actor: Actor, battle: int | str, unit: str,
                      target: str) -> TrophyOutcome:
    """Phase 4: a unit that eliminated an enemy in melee tries for its flag (CC-3)."""
    from .aftermath import battle_of

    async with db.transaction() as s:
        campaign = await get_campaign(s, campaign_id, lock=True)
        require_phase(campaign, Phase.AFTERMATH, "Trophy rolls")
        side = await require_player(s, campaign, actor)
        loaded = await repository.load(s, campaign)
        state = loaded.state
        b = battle_of(state, battle)
        owner = leaders.unit_owner(state, unit)
        if owner is None or state.forces[owner].side != side:  # fog of war: one answer for any other unit
            raise NotFound("You have no unit {unit!r}.", unit=unit.strip()[:40])
        try:
            leaders.require_trophy_due(b, unit, target)
            journal = await loaded.journal()
            state, out = leaders.trophy(state, b.number, unit, target, journal, _ctx())
        except leaders.NoMelee:
            raise NotFound("Battle {number}'s report has no melee in which {unit!r} eliminated {target!r} (CC-3).",
                           number=b.number, unit=unit, target=target) from None
        journal.say(state, out.text)
        await repository.save(s, loaded, state, journal.events)
        return out


# --- glory ----------------------------------------------------------------------------------


async def glory_balance(db: Database, campaign_id: int) -> tuple[SideGlory, ...]:
    """Glory per side with its history (public, CC-4)."""
    from .readcache import read  # the campaign's cached state, checked against the database

    cr = await read(db, campaign_id)
    return cr.memo("glory", lambda: views.glory_balances(cr.state))


SPENDS = tuple(k.value for k in SPEND_KINDS)


@dataclass(frozen=True)
class SpendOutcome:
    kind: str
    battle: int
    text: str
    balance: int
    roll: Roll | BatchRoll | None = None


async def spend_glory(db: Database, campaign_id: int, actor: Actor, kind: str, *, battle: int | str | None = None,
                      unit: str | None = None, points: int | None = None, ordered: bool | None = None,
                      terrain_reduces_dice: bool = False) -> SpendOutcome:
    """Spend Glory (CC-4) for a battle of the side's (RU-17): heroic (the winner, from the report until
    Phase 4 ends), rally, leadership, stragglers (rolls the dice), anti_guerrilla, ordenanza (a pending
    battle). Without ``battle``, the one battle where the spend may be made now. ``ordered`` and
    ``terrain_reduces_dice`` describe the Leadership unit at the table. Every rule is the core's
    (:mod:`bot.campaign.glory`) and the engine's."""
    from .aftermath import battle_of

    spend = kind.strip().lower().replace("-", "_").replace(" ", "_")
    if spend not in SPENDS:
        raise InvalidInput("Unknown Glory spend {kind!r}: choose {spends}.", kind=spend, spends=', '.join(SPENDS))
    async with db.transaction() as s:
        campaign = await get_campaign(s, campaign_id, lock=True)
        side = await require_player(s, campaign, actor)
        loaded = await repository.load(s, campaign)
        number = None if battle is None else battle_of(loaded.state, battle).number
        journal = await loaded.journal()
        try:
            state, out = glory.spend(loaded.state, glory.Spend(GloryKind(spend), side, number, unit, points, ordered,
                                                               terrain_reduces_dice), journal, _ctx())
        except glory.NotYourUnit:
            raise NotFound("{unit!r} is not one of your side's units.", unit=unit) from None
        await repository.save(s, loaded, state, journal.events)
        return SpendOutcome(spend, out.battle, out.text, out.balance, out.roll)


async def glory_battles(db: Database, campaign_id: int, actor: Actor, kind: str | None = None) -> tuple[GloryBattle, ...]:
    """The battles where ``actor``'s side may spend Glory now (on ``kind``, or on anything): exactly the
    moments :func:`spend_glory` accepts (RU-17). None for a member on no side."""
    from .readcache import read  # the campaign's cached state, checked against the database

    cr = await read(db, campaign_id)
    side = cr.standing(actor).side
    if side is None:
        return ()
    wanted = views.spend_kind(kind)
    return cr.memo(("glory_battles", side, wanted), lambda: views.glory_battles(cr.state, side, wanted))


def _engine_unit(row: UnitRow) -> Unit:
    return Unit(row.key, row.name, row.sp, UnitType(row.type), Quality(row.quality), row.mercenary, row.flag)


async def leader_roster(db: Database, campaign_id: int, actor: Actor) -> list[str]:
    """Leaders the reader knows (own side's; all for the GM: an enemy's leader stays hidden even when
    his Force is in sight), their status and what it means at the next battle (CC-2)."""
    from .readcache import read  # the campaign's cached state, checked against the database

    cr = await read(db, campaign_id)
    reader = cr.reader(actor)
    return list(cr.memo(("leader_roster", reader.gm, reader.side), lambda: views.leader_roster(cr.state, reader)))


def leader_roster_lines(state: CampaignState) -> list[str]:
    """Each leader in command, his status, and what it means at the next battle (CC-2)."""
    return list(views.leader_roster(state))


# --- trophy attempts due (the /trophy roll suggestions) ---------------------------------------


async def trophy_attempts(db: Database, campaign_id: int, actor: Actor) -> tuple[TrophyAttempt, ...]:
    """The trophy attempts ``actor``'s side may roll now: exactly what :func:`trophy_roll` accepts (Phase 4,
    a reported battle of this turn whose report made the attempt eligible, not yet rolled, the captor one
    of the side's units), read from the battles' state, never from the log. None for a member on no side."""
    from .readcache import read  # the campaign's cached state, checked against the database

    cr = await read(db, campaign_id)
    side = cr.standing(actor).side
    if side is None:
        return ()
    return cr.memo(("trophy_attempts", side), lambda: views.trophy_attempts(cr.state, side))


def leader_command(ld: LeaderRow) -> NextBattleCommand:
    """What a leader's status means at his Force's next battle (CC-2): who commands, designated how."""
    return next_battle_command(LeaderStatus(ld.status), designated=UnitType(ld.designation) if ld.designation else None,
                               kind=KINDS.get(ld.kind, Commander.LEADER))
