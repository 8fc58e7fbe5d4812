"""RU-27 Quick battle in the campaign: a pending battle of the state settled by the bot with the turn's
dice, its report (BR) applied exactly as a table battle's (:func:`bot.campaign.aftermath.report`), so
MC-7, CC-1..CC-4 and FC follow as after any battle.

The core API (the bot general builds on it, RU-26)::

    report = quick_report(state, number, dice)      # pure: the battle's BR document and its rolls
    state, lines = settle(state, number, journal, ctx)  # rolls logged, the report applied

The setting ``battles`` (:class:`~.settings.BattleMode`) says when: ``quick`` settles every battle as
Phase 3 begins (:func:`settle_all`, from the turn's resolution); ``ask`` lets each human camp of a battle
agree to it, or the GM decide alone (:func:`agree_by`); ``table`` never.
"""

from __future__ import annotations

from dataclasses import dataclass, replace
from typing import Any

from bot.engine.battle import field_works
from bot.engine.dice import DiceSource, roll_key
from bot.engine.errors import RuleViolation
from bot.engine.model import Square
from bot.engine.phases import Phase
from bot.engine.quick import QuickBattle, QuickCamp, QuickTables, default_quick_tables, resolve
from bot.engine.tables import RuleBook, default_rulebook
from bot.engine.text import Msg

from . import sight
from .aftermath import report, require_pending
from .authority import Acting, is_gm, require_phase, side_in_battle
from .dice import Context, turn_dice
from .events import Journal, battle_visibility
from .reported import battle_forces
from .rulebook import rules_for
from .scouting import camp_in_battle, find_battle
from .settings import BattleMode
from .state import Battle, BattleStatus, CampaignState


@dataclass(frozen=True)
class QuickReport:
    """A battle settled quickly: what the dice gave, and the BR document the campaign applies."""

    battle: int
    quick: QuickBattle
    document: dict[str, Any]
    """The report (BR), as a table battle's would be entered: ``system``, ``banners_required``, ``sides``."""


def camps(state: CampaignState, battle: Battle, rules: RuleBook | None = None) -> tuple[QuickCamp, ...]:
    """The battle's camps as the quick battle reads them (RU-19, RU-20): their Forces as they fight, and
    whether each holds a stronghold in the square (its own or an ally's, as MC-7.3 reads it) or field works
    (RU-21: a Force of it in Defend)."""
    rules = rules or default_rulebook()
    forces = battle_forces(state, battle)
    square = Square.parse(battle.square)
    holder = state.holdings.get(battle.square, state.map.cell(square).stronghold)
    out: dict[str, QuickCamp] = {}
    for side in battle.sides:
        camp = state.camps.camp_of(side)
        if camp in out:
            continue
        own = tuple(f for f in forces.values() if state.camps.friendly(f.side, side))
        works = any((w := field_works(f, square, rules=rules)) is not None and w.points > 0 for f in own)
        holds = holder is not None and state.camps.friendly(holder, side)
        out[camp] = QuickCamp(camp, camp_in_battle(state, battle, side), own, works or holds)
    return tuple(out.values())


def quick_report(state: CampaignState, number: int, dice: DiceSource, *, rules: RuleBook | None = None,
                 tables: QuickTables | None = None) -> QuickReport:
    """RU-27, pure: the report (BR) of the state's battle ``number`` settled with ``dice`` (the turn's: the
    keys name the battle, so the same battle always gets the same dice)."""
    battle = state.battles[number]
    rules = rules_for(state, rules or default_rulebook())

    def keys(subject: str, procedure: str) -> str:
        return roll_key(battle.turn, Phase.BATTLE, f"battle:{number}/{subject}", procedure)

    quick = resolve(camps(state, battle, rules), state.map.cell(Square.parse(battle.square)), dice, keys,
                    tables or default_quick_tables())
    return QuickReport(number, quick, document(state, battle, quick))


def document(state: CampaignState, battle: Battle, quick: QuickBattle) -> dict[str, Any]:
    """The BR document of a quick battle: each side its camp's outcome, its units' losses and fallen
    commanders; a camp's banners to its side with the most SP in the battle (RU-23: the camp adds its
    sides' banners up)."""
    forces = battle_forces(state, battle)
    sp = {side: sum(f.sp for f in forces.values() if f.side == side) for side in battle.sides}
    order = list(state.sides)
    holder: dict[str, str] = {}
    for side in sorted(battle.sides, key=lambda s: (-sp[s], order.index(s))):
        holder.setdefault(state.camps.camp_of(side), side)
    sides = []
    for side in battle.sides:
        camp = state.camps.camp_of(side)
        units = [{"unit": u.id, "killed": ul.killed, "rout": ul.rout}
                 for f in forces.values() if f.side == side for u in f.units
                 if (ul := quick.losses[u.id]).killed or ul.rout]
        fallen = [{"leader": d.leader, "fell": d.circumstance.value} for d in quick.fallen
                  if forces[d.force].side == side]
        part: dict[str, Any] = {"side": side, "outcome": quick.outcome(camp).value,
                                "banners": quick.banners[camp] if holder[camp] == side else 0, "units": units}
        if fallen:
            part["leader_casualties"] = fallen
        sides.append(part)
    return {"system": "cc", "banners_required": quick.banners_required, "sides": sides}


def settle(state: CampaignState, number: int, journal: Journal, ctx: Context) -> tuple[CampaignState, tuple[str, ...]]:
    """RU-27: settle a pending battle of Phase 3 quickly: its rolls logged for its camps (and the GM), its
    report applied as a table battle's (BR). Returns the report's summary lines."""
    require_phase(state, Phase.BATTLE, "Resolving a battle quickly")
    battle = state.battles[number]
    require_pending(battle)
    state, dice = turn_dice(state, journal, ctx)
    rep = quick_report(state, number, dice, rules=ctx.rules)
    for r in rep.quick.rolls:
        journal.roll(state, r, visibility=battle_visibility(number))
    state, lines = report(state, number, rep.document, journal)
    outcome = rep.quick.rolls[0]
    sight.say(journal, state, sight.battle_notices(
        state, battle, Msg("Battle {number} at {square} is resolved quickly ({rule}): {roll}.", number=number,
                           square=battle.square, rule="RU-27", roll=str(outcome))), battle=number)
    return state, lines


def settle_all(state: CampaignState, journal: Journal, ctx: Context) -> CampaignState:
    """``battles: quick``: every pending battle of the turn, settled as Phase 3 begins."""
    for b in sorted(state.turn_battles(status=BattleStatus.PENDING), key=lambda b: b.number):
        state, _ = settle(state, b.number, journal, ctx)
    return state


@dataclass(frozen=True)
class Agreement:
    """What a "Resolve quickly" did: the battle resolved (its summary lines), or the camps still to agree."""

    battle: int
    applied: tuple[str, ...] | None = None
    waiting_for: tuple[str, ...] = ()
    """The human camps still to agree (their sides' names)."""


def agree_by(state: CampaignState, actor: Acting, battle: int | str, journal: Journal,
             ctx: Context) -> tuple[CampaignState, Agreement]:
    """``battles: ask`` (RU-27): the GM resolves a pending battle quickly at once; a player's camp agrees to,
    and once every human camp of the battle (a camp a member plays a side of) has, it is resolved."""
    require_phase(state, Phase.BATTLE, "Resolving a battle quickly")
    b = find_battle(state, battle)
    if state.settings.battles is not BattleMode.ASK:
        raise RuleViolation("Quick battles are not offered in this campaign (setting battles: {mode}); the GM may set "
                            "it to ask (RU-27).", mode=state.settings.battles.value)
    require_pending(b)
    side = side_in_battle(state, actor, b)  # refuses a member who is neither in the battle nor its GM
    if side is None or is_gm(state, actor.member_id, actor.roles):  # the GM decides alone
        state, lines = settle(state, b.number, journal, ctx)
        return state, Agreement(b.number, applied=lines)
    agreed = [*b.aftermath.agreed]
    if side not in agreed:
        agreed.append(side)
    waiting = waiting_camps(state, b, agreed)
    if not waiting:
        state, lines = settle(state, b.number, journal, ctx)
        return state, Agreement(b.number, applied=lines)
    state = state.with_battle(replace(b, aftermath=replace(b.aftermath, agreed=tuple(agreed))))
    journal.say(state, Msg("{camp} agrees to resolve battle {number} quickly (RU-27).",
                           camp=camp_in_battle(state, b, side), number=b.number),
                visibility=battle_visibility(b.number), data={"battle": b.number})
    return state, Agreement(b.number, waiting_for=waiting)


def waiting_camps(state: CampaignState, battle: Battle, agreed: list[str]) -> tuple[str, ...]:
    """The human camps of ``battle`` none of whose sides agreed yet (their names)."""
    out = []
    seen: set[str] = set()
    for side in battle.sides:
        camp = state.camps.camp_of(side)
        if camp in seen:
            continue
        seen.add(camp)
        members = [s for s in battle.sides if state.camps.camp_of(s) == camp]
        if any(s in state.played_sides for s in members) and not any(s in agreed for s in members):
            out.append(camp_in_battle(state, battle, side))
    return tuple(out)
