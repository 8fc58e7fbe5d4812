"""Phase 3 and 4 use cases: scouting (MC-6.1, RU-5), battle reports (BR), the aftermath rolls
(MC-7.1, MC-7.2), retreats (MC-7.3, RU-8) and reactions (MC-7.4, RU-9)."""

from __future__ import annotations

from bot.campaign import scouting
from bot.campaign import views as core
from bot.campaign.scouting import ScoutingOutcome
from bot.campaign.state import Battle, CampaignState
from bot.campaign.views import REACTION_AT_START, BattleLine, Brief  # noqa: F401 (re-exported)
from bot.engine.tables import RuleBook, default_rulebook
from bot.store.db import Database

from . import shell
from .actors import Actor, Standing
from .errors import NotFound, PermissionDenied


def battle_number(number: int | str) -> str:
    """A battle's number as a member typed it (``3``, ``#3``): its digits, or the refusal."""
    text = str(number).strip().lstrip("#")
    if not (text.isascii() and text.isdigit()) or len(text) > 9:  # not "²", "１" or 5,000 digits
        raise NotFound("{number!r} is not a battle number: battles are numbered 1, 2, 3...", number=number)
    return text


def battle_of(state: CampaignState, number: int | str) -> Battle:
    """One of the campaign's battles, by its number as a member typed it, or the refusal."""
    text = battle_number(number)
    battle = state.battles.get(int(text))
    if battle is None:
        raise NotFound("There is no battle {text} in this campaign.", text=text)
    return battle


async def scout(db: Database, campaign_id: int, actor: Actor, battle: int | str,
                *, rules: RuleBook | None = None) -> ScoutingOutcome:
    """Phase 3: the side's exploration test for a battle (MC-6.1, RU-5): each of its Forces there
    tests; the side scores its best result (the rules: :mod:`bot.campaign.scouting`)."""
    async with db.transaction() as s:
        loaded = await shell.load(s, campaign_id)
        journal = await loaded.journal()
        state, out = scouting.scout(loaded.state, actor.member_id, battle, journal, shell.context(rules))
        saved = await shell.save(s, loaded, state, journal)
    shell.remember(db, saved)
    return out


def battle_sides(state: CampaignState, battle: Battle) -> dict[str, list[str]]:
    """The battle's Forces by side."""
    return core.battle_sides(state, battle)


def require_in_battle(st: Standing, battle: Battle) -> str | None:
    """The reader's side in this battle (None for the GM); others are refused."""
    if st.side in battle.sides:
        return st.side
    if st.gm:
        return None
    raise PermissionDenied("Only the sides in battle {number} and the GM can do that.", number=battle.number)


async def list_battles(db: Database, campaign_id: int, *, turn: int | None = None) -> tuple[BattleLine, ...]:
    """Battles of a turn (this one by default) and their state: public."""
    from .readcache import read  # the campaign's cached state, checked against the database

    cr = await read(db, campaign_id)
    return cr.memo(("battles", turn), lambda: core.battle_lines(cr.state, turn))


async def brief(db: Database, campaign_id: int, actor: Actor, battle: int | str,
                *, rules: RuleBook | None = None) -> Brief:
    """The battle brief (for the players in the battle and the GM): Forces, units and strengths, leaders
    and what their status means here (CC-2), field works (RU-21), terrain, weather, reactions, scouting,
    the General Retreat command modifiers (MC-6.2), Glory to spend (CC-4, RU-17)."""
    from .readcache import read  # the campaign's cached state, checked against the database

    rules = rules or default_rulebook()
    cr = await read(db, campaign_id)
    b = battle_of(cr.state, battle)
    require_in_battle(cr.standing(actor), b)
    return cr.memo(("brief", b.number), lambda: core.brief(cr.state, b, rules=rules), pin=rules)
