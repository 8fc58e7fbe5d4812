"""Phase 3 and 4 use cases: scouting (MC-6.1, RU-5), battle reports (BR), the aftermath rolls
(MC-7.1, MC-7.2), retreats (MC-7.3, RU-8) and reactions (MC-7.4, RU-9)."""

from __future__ import annotations

from dataclasses import dataclass

from sqlmodel import select
from sqlmodel.ext.asyncio.session import AsyncSession

from bot.engine.battle import explore, scouting_winner
from bot.engine.dice import roll_key
from bot.engine.errors import RuleViolation
from bot.engine.phases import Phase
from bot.engine.rolls import Roll
from bot.engine.tables import RuleBook, default_rulebook
from bot.store.db import Database
from bot.store.models import BattleRow, Campaign

from .actors import Actor, require_player, standing
from .errors import NotFound, PermissionDenied
from .loading import State, get_campaign, load_state, turn_dice
from .logbook import log_event, log_roll
from .orders import require_phase


async def get_battle(s: AsyncSession, campaign: Campaign, number: int | str) -> BattleRow:
    text = str(number).strip().lstrip("#")
    if not text.isdigit():
        raise NotFound(f"{number!r} is not a battle number: battles are numbered 1, 2, 3...")
    row = (await s.exec(select(BattleRow).where(BattleRow.campaign_id == campaign.id,
                                                BattleRow.number == int(text)))).first()
    if row is None:
        raise NotFound(f"There is no battle {text} in this campaign.")
    return row


@dataclass(frozen=True)
class ScoutingOutcome:
    battle: int
    side: str
    score: int
    rolls: tuple[Roll, ...]
    reasons: tuple[str, ...]
    winner: str | None
    """Decided once every side has scouted (RU-5): the side that deploys second and sees the enemy."""
    complete: bool


async def scout(db: Database, campaign_id: int, actor: Actor, battle: int | str,
                *, rules: RuleBook | None = None) -> ScoutingOutcome:
    """Phase 3: the side's exploration test for a battle (MC-6.1, RU-5): each of its Forces there
    tests; the side scores its best result."""
    rules = rules or default_rulebook()
    async with db.transaction() as s:
        campaign = await get_campaign(s, campaign_id, lock=True)
        require_phase(campaign, Phase.BATTLE, "Scouting")
        side = await require_player(s, campaign, actor)
        row = await get_battle(s, campaign, battle)
        if side not in row.side_keys:
            raise PermissionDenied(f"Your side does not fight battle {row.number}.")
        if side in row.scouting:
            raise RuleViolation(f"Your side has already scouted battle {row.number} (RU-5).")
        state = await load_state(s, campaign)
        dice = await turn_dice(s, campaign)
        best, rolls, reasons = 0, [], []
        for fkey in row.force_keys:
            if state.forces[fkey].side_key != side:
                continue
            force = state.force(fkey)
            ex = explore(force, state.cmap.cell(force.square), dice,
                         roll_key(campaign.turn, 3, f"force:{fkey}", f"battle{row.number}-exploration"), rules=rules)
            best = max(best, ex.score)
            reasons.append(f"{force.name}: {ex.reason}" + ("" if ex.roll else " (scores 0)"))
            if ex.roll:
                rolls.append(ex.roll)
                await log_roll(s, campaign, ex.roll, visibility=f"side:{side}")
        row.scouting = {**row.scouting, side: best}
        complete = set(row.scouting) >= set(row.side_keys)
        winner = scouting_winner(row.scouting) if complete else None
        if complete:
            row.scouting = {**row.scouting, "_winner": winner}
            who = state.sides[winner].name if winner else "nobody (a tie)"
            await log_event(s, campaign, f"Battle {row.number}: the scouting contest goes to {who} (RU-5).")
        s.add(row)
        return ScoutingOutcome(row.number, side, best, tuple(rolls), tuple(reasons), winner, complete)


def battle_sides(state: State, battle: BattleRow) -> dict[str, list[str]]:
    out: dict[str, list[str]] = {}
    for fkey in battle.force_keys:
        out.setdefault(state.forces[fkey].side_key, []).append(fkey)
    return out


async def require_in_battle(s: AsyncSession, campaign: Campaign, actor: Actor, battle: BattleRow) -> str | None:
    """The actor's side in this battle (None for the GM); others are refused."""
    st = await standing(s, campaign, actor)
    if st.side in battle.side_keys:
        return st.side
    if st.gm:
        return None
    raise PermissionDenied(f"Only the sides in battle {battle.number} and the GM can do that.")
