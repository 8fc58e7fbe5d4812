"""C&C campaign use cases: leader fate (CC-1, CC-2), trophies (CC-3) and Glory (CC-4)."""

from __future__ import annotations

from dataclasses import dataclass

from bot.campaign import glory, leaders, sight, views
from bot.campaign.authority import is_gm, require_phase, require_player
from bot.campaign.leaders import FateOutcome, TrophyOutcome
from bot.campaign.scouting import find_battle
from bot.campaign.sight import GM
from bot.campaign.views import GloryBattle, SideGlory, TrophyAttempt
from bot.engine.cc_model import SPEND_KINDS, Circumstance, GloryKind
from bot.engine.errors import InvalidInput, RuleViolation
from bot.engine.model import UnitType, parse_enum
from bot.engine.phases import Phase
from bot.engine.rolls import BatchRoll, Roll
from bot.engine.text import Msg
from bot.store.db import Database

from . import readcache, shell
from .actors import Actor
from .errors import NotFound

# --- leader fate ----------------------------------------------------------------------------

def _no_fate_due(leader: str) -> NotFound:
    """The one refusal for a leader with no fate due, of another side, or of no side at all (fog of war)."""
    return NotFound("{leader!r} has no fate roll due: only leaders reported fallen in a battle of this turn roll (CC-1).",
                    leader=leader.strip()[:40])


async def leader_fate(db: Database, campaign_id: int, actor: Actor, leader: str,
                      circumstance: str | Circumstance | None = None,
                      designation: str | UnitType | None = None) -> FateOutcome:
    """Phase 4: roll a fallen leader's fate (CC-1) and apply his replacement (CC-2, RU-18), designated
    ``designation`` if he needs one (default: the type of the Force's strongest unit)."""
    async with db.transaction() as s:
        loaded = await shell.load(s, campaign_id)
        state = loaded.state
        require_phase(state, Phase.AFTERMATH, "Rolling a leader's fate")
        gm, side = is_gm(state, actor.member_id, actor.roles), state.players.get(actor.member_id)
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
        state, out = leaders.apply_fate(state, battle.number, name, reported, journal, shell.context(),
                                        None if designation is None else parse_enum(UnitType, designation, "designation"))
        # A battle's fates are its camps' news and theirs who see it (fog of war), not the public's.
        sight.say(journal, state, sight.battle_notices(loaded.state, battle, Msg.join(" ", out.lines)))
        saved = await shell.save(s, loaded, state, journal)
    shell.remember(db, saved)
    return out


async def trophy_roll(db: Database, campaign_id: int, actor: Actor, battle: int | str, unit: str,
                      target: str) -> TrophyOutcome:
    """Phase 4: a unit that eliminated an enemy in melee tries for its flag (CC-3)."""
    async with db.transaction() as s:
        loaded = await shell.load(s, campaign_id)
        state = loaded.state
        require_phase(state, Phase.AFTERMATH, "Trophy rolls")
        side = require_player(state, actor.member_id)
        b = find_battle(state, battle)
        owner = leaders.unit_owner(state, unit)
        if owner is None or state.forces[owner].side != side:  # fog of war: one answer for any other unit
            raise NotFound("You have no unit {unit!r}.", unit=unit.strip()[:40])
        try:
            leaders.require_trophy_due(b, unit, target)
            journal = await loaded.journal()
            state, out = leaders.trophy(state, b.number, unit, target, journal, shell.context())
        except leaders.NoMelee:
            raise NotFound("Battle {number}'s report has no melee in which {unit!r} eliminated {target!r} (CC-3).",
                           number=b.number, unit=unit, target=target) from None
        sight.say(journal, state, sight.battle_notices(loaded.state, b, out.text))  # fog of war, as fates
        saved = await shell.save(s, loaded, state, journal)
    shell.remember(db, saved)
    return out


# --- glory ----------------------------------------------------------------------------------


async def glory_balance(db: Database, campaign_id: int, actor: Actor | None = None) -> tuple[SideGlory, ...]:
    """Glory per side with its history (CC-4), as ``actor`` may read it (no actor: the GM's view)."""
    cr = await readcache.read(db, campaign_id)
    reader = cr.reader(actor) if actor is not None else GM
    return cr.memo(("glory", reader.gm, reader.side), lambda: views.glory_balances(cr.state, reader))


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
    spend = kind.strip().lower().replace("-", "_").replace(" ", "_")
    if spend not in SPENDS:
        raise InvalidInput("Unknown Glory spend {kind!r}: choose {spends}.", kind=spend, spends=', '.join(SPENDS))
    async with db.transaction() as s:
        loaded = await shell.load(s, campaign_id)
        side = require_player(loaded.state, actor.member_id)
        number = None if battle is None else find_battle(loaded.state, battle).number
        journal = await loaded.journal()
        try:
            state, out = glory.spend(loaded.state, glory.Spend(GloryKind(spend), side, number, unit, points, ordered,
                                                               terrain_reduces_dice), journal, shell.context())
        except glory.NotYourUnit:
            raise NotFound("{unit!r} is not one of your side's units.", unit=unit) from None
        saved = await shell.save(s, loaded, state, journal)
    shell.remember(db, saved)
    return SpendOutcome(spend, out.battle, out.text, out.balance, out.roll)


async def glory_battles(db: Database, campaign_id: int, actor: Actor, kind: str | None = None) -> tuple[GloryBattle, ...]:
    """The battles where ``actor``'s side may spend Glory now (on ``kind``, or on anything): exactly the
    moments :func:`spend_glory` accepts (RU-17). None for a member on no side."""
    cr = await readcache.read(db, campaign_id)
    side = cr.standing(actor).side
    if side is None:
        return ()
    wanted = views.spend_kind(kind)
    return cr.memo(("glory_battles", side, wanted), lambda: views.glory_battles(cr.state, side, wanted))


async def leader_roster(db: Database, campaign_id: int, actor: Actor) -> list[str]:
    """Leaders the reader knows (own side's; all for the GM: an enemy's leader stays hidden even when
    his Force is in sight), their status and what it means at the next battle (CC-2)."""
    cr = await readcache.read(db, campaign_id)
    reader = cr.reader(actor)
    return list(cr.memo(("leader_roster", reader.gm, reader.side), lambda: views.leader_roster(cr.state, reader)))


# --- trophy attempts due (the /trophy roll suggestions) ---------------------------------------


async def trophy_attempts(db: Database, campaign_id: int, actor: Actor) -> tuple[TrophyAttempt, ...]:
    """The trophy attempts ``actor``'s side may roll now: exactly what :func:`trophy_roll` accepts (Phase 4,
    a reported battle of this turn whose report made the attempt eligible, not yet rolled, the captor one
    of the side's units), read from the battles' state, never from the log. None for a member on no side."""
    cr = await readcache.read(db, campaign_id)
    side = cr.standing(actor).side
    if side is None:
        return ()
    return cr.memo(("trophy_attempts", side), lambda: views.trophy_attempts(cr.state, side))
