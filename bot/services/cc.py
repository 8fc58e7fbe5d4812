"""C&C campaign use cases: leader fate (CC-1, CC-2), trophies (CC-3) and Glory (CC-4)."""

from __future__ import annotations

from dataclasses import dataclass

from bot.campaign import glory, leaders, views
from bot.campaign.leaders import FateOutcome, TrophyOutcome
from bot.campaign.sight import GM
from bot.campaign.views import GloryBattle, SideGlory, TrophyAttempt
from bot.engine.cc_model import Circumstance
from bot.engine.model import UnitType
from bot.engine.rolls import BatchRoll, Roll
from bot.store.db import Database

from . import readcache, shell
from .actors import Actor

# --- leader fate ----------------------------------------------------------------------------

async def leader_fate(db: Database, campaign_id: int, actor: Actor, leader: str,
                      circumstance: str | Circumstance | None = None,
                      designation: str | UnitType | None = None) -> FateOutcome:
    """Phase 4: roll a fallen leader's fate (CC-1) and apply his replacement (CC-2, RU-18), designated
    ``designation`` if he needs one (default: the type of the Force's strongest unit)."""
    return await shell.write(db, campaign_id, lambda state, journal: leaders.fate_by(
        state, actor, leader, circumstance, designation, journal, shell.context()))


async def trophy_roll(db: Database, campaign_id: int, actor: Actor, battle: int | str, unit: str,
                      target: str) -> TrophyOutcome:
    """Phase 4: a unit that eliminated an enemy in melee tries for its flag (CC-3)."""
    return await shell.write(db, campaign_id, lambda state, journal: leaders.trophy_by(
        state, actor, battle, unit, target, journal, shell.context()))


# --- glory ----------------------------------------------------------------------------------


async def glory_balance(db: Database, campaign_id: int, actor: Actor | None = None) -> tuple[SideGlory, ...]:
    """Glory per side with its history (CC-4), as ``actor`` may read it (no actor: the GM's view)."""
    cr = await readcache.read(db, campaign_id)
    reader = cr.reader(actor) if actor is not None else GM
    return cr.memo(("glory", reader.gm, reader.side), lambda: views.glory_balances(cr.state, reader))


SPENDS = glory.SPENDS


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
    out = await shell.write(db, campaign_id, lambda state, journal: glory.spend_by(
        state, actor, kind, journal, shell.context(), battle=battle, unit=unit, points=points, ordered=ordered,
        terrain_reduces_dice=terrain_reduces_dice))
    return SpendOutcome(glory.spend_kind_of(kind).value, out.battle, out.text, out.balance, out.roll)


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
