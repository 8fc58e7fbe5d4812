"""Phase 3 scouting (MC-6.1, RU-5): each side in a battle takes its exploration test; once every side
has, the scouting contest is decided."""

from __future__ import annotations

from dataclasses import dataclass, replace

from bot.engine.battle import explore, scouting_winner
from bot.engine.dice import roll_key
from bot.engine.errors import RuleViolation
from bot.engine.phases import Phase
from bot.engine.rolls import Roll
from bot.engine.text import Msg

from .authority import require_in_play, require_phase
from .dice import Context, turn_dice
from .errors import NotFound, PermissionDenied
from .events import Journal, side_visibility
from .state import Battle, CampaignState, Scouting


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


def find_battle(state: CampaignState, number: int | str) -> Battle:
    """One of the campaign's battles, by its number as a member typed it (``3``, ``#3``), or the refusal."""
    text = str(number).strip().lstrip("#")
    if not (text.isascii() and text.isdigit()) or len(text) > 9:  # not "²", "１" or 5,000 digits
        raise NotFound("{number!r} is not a battle number: battles are numbered 1, 2, 3...", number=number)
    battle = state.battles.get(int(text))
    if battle is None:
        raise NotFound("There is no battle {text} in this campaign.", text=text)
    return battle


def camp_in_battle(state: CampaignState, battle: Battle, side: str) -> Msg:
    """``side``'s camp as it fought ``battle``: the names of its sides there (RU-23)."""
    return Msg.join(", ", (state.sides[k].name for k in battle.sides if state.camps.friendly(k, side)))


def exploration_key(turn: int, force: str, battle: int) -> str:
    return roll_key(turn, 3, f"force:{force}", f"battle{battle}-exploration")


def scout(state: CampaignState, member_id: int, battle: int | str, journal: Journal,
          ctx: Context) -> tuple[CampaignState, ScoutingOutcome]:
    """Phase 3: the side's exploration test for a battle (MC-6.1, RU-5): each of its Forces there
    tests; the side scores its best result. Its rolls are logged for the side; the contest's winner,
    once every side has scouted, for all."""
    require_phase(state, Phase.BATTLE, "Scouting")
    side = require_in_play(state, member_id)
    row = find_battle(state, battle)
    if side not in row.sides:
        raise PermissionDenied("Your side does not fight battle {number}.", number=row.number)
    if side in row.scouting.scores:
        raise RuleViolation("Your side has already scouted battle {number} (RU-5).", number=row.number)
    state, dice = turn_dice(state, journal, ctx)
    best, rolls, reasons = 0, [], []
    for fkey in row.forces:
        if state.forces[fkey].side != side:
            continue
        force = state.engine_force(fkey)
        ex = explore(force, state.map.cell(force.square), dice, exploration_key(state.turn, fkey, row.number),
                     rules=ctx.rules, allies=state.camps.allies_of(side))  # RU-19
        best = max(best, ex.score)
        reasons.append(Msg("{force}: {reason}", force=force.name, reason=ex.reason) if ex.roll
                       else Msg("{force}: {reason} (scores 0)", force=force.name, reason=ex.reason))
        if ex.roll:
            rolls.append(ex.roll)
            journal.roll(state, ex.roll, visibility=side_visibility(side))
    scores = {**row.scouting.scores, side: best}
    complete = set(scores) >= set(row.sides)
    winner = scouting_winner(scores, camps=state.camps) if complete else None  # RU-23: between camps
    state = state.with_battle(replace(row, scouting=Scouting(scores, complete, winner)))
    if complete:
        who = camp_in_battle(state, row, winner) if winner else Msg("nobody (a tie)")
        journal.say(state, Msg("Battle {number}: the scouting contest goes to {who} (RU-5).", number=row.number,
                               who=who))
    return state, ScoutingOutcome(row.number, side, best, tuple(rolls), tuple(reasons), winner, complete)
