"""Phase 3 and 4 use cases: scouting (MC-6.1, RU-5), battle reports (BR), the aftermath rolls
(MC-7.1, MC-7.2), retreats (MC-7.3, RU-8) and reactions (MC-7.4, RU-9)."""

from __future__ import annotations

from bot.campaign import scouting
from bot.campaign import views as core
from bot.campaign.authority import side_in_battle
from bot.campaign.scouting import ScoutingOutcome, find_battle
from bot.campaign.state import Battle, CampaignState
from bot.campaign.views import REACTION_AT_START, BattleLine, Brief  # noqa: F401 (re-exported)
from bot.engine.tables import RuleBook, default_rulebook
from bot.store.db import Database

from . import readcache, shell
from .actors import Actor


async def scout(db: Database, campaign_id: int, actor: Actor, battle: int | str,
                *, rules: RuleBook | None = None) -> ScoutingOutcome:
    """Phase 3: the side's exploration test for a battle (MC-6.1, RU-5): each of its Forces there
    tests; the side scores its best result (the rules: :mod:`bot.campaign.scouting`)."""
    return await shell.write(db, campaign_id, lambda state, journal: scouting.scout(
        state, actor.member_id, battle, journal, shell.context(rules)))


def battle_sides(state: CampaignState, battle: Battle) -> dict[str, list[str]]:
    """The battle's Forces by side."""
    return core.battle_sides(state, battle)


async def list_battles(db: Database, campaign_id: int, *, turn: int | None = None,
                       actor: Actor | None = None) -> tuple[BattleLine, ...]:
    """Battles of a turn (this one by default) and their state; with ``actor``, as that member may read
    them (their Forces only where fog of war allows); without, in full for the bot's own use."""
    cr = await readcache.read(db, campaign_id)
    if actor is None:
        return cr.memo(("battles", turn), lambda: core.battle_lines(cr.state, turn))
    reader = cr.reader(actor)
    return cr.memo(("battles", turn, reader.gm, reader.side), lambda: core.battle_lines(cr.state, turn, reader))


async def brief(db: Database, campaign_id: int, actor: Actor, battle: int | str,
                *, rules: RuleBook | None = None) -> Brief:
    """The battle brief (for the players in the battle and the GM): Forces, units and strengths, leaders
    and what their status means here (CC-2), field works (RU-21), terrain, weather, reactions, scouting,
    the General Retreat command modifiers (MC-6.2), Glory to spend (CC-4, RU-17)."""
    rules = rules or default_rulebook()
    cr = await readcache.read(db, campaign_id)
    b = find_battle(cr.state, battle)
    side_in_battle(cr.state, actor, b)
    return cr.memo(("brief", b.number), lambda: core.brief(cr.state, b, rules=rules), pin=rules)
