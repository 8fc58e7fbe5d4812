"""Glory in the campaign (CC-4, RU-17): the ledgers, the battles a spend may be for, and the spends.

Every rule is the engine's (:mod:`bot.engine.glory`); this module reads the campaign's state for it.
"""

from __future__ import annotations

from dataclasses import dataclass, replace

from bot.engine.cc_model import SPEND_KINDS, GloryKind
from bot.engine.dice import roll_key
from bot.engine.errors import InvalidInput
from bot.engine.glory import (
    BattleState,
    GloryLedger,
    GlorySpent,
    SpendBattle,
    spend_anti_guerrilla,
    spend_heroic,
    spend_leadership,
    spend_ordenanza,
    spend_rally,
    spend_stragglers,
)
from bot.engine.glory import GloryEntry as EngineGloryEntry
from bot.engine.glory import spend_battle as engine_spend_battle
from bot.engine.model import Outcome, Unit, parse_enum
from bot.engine.reports import validate_report
from bot.engine.rolls import BatchRoll, Roll
from bot.engine.text import Msg

from . import sight
from .aftermath import battle_forces
from .authority import Acting, require_in_play
from .dice import Context, turn_dice
from .errors import NotFound, WrongPhase
from .events import Journal, battle_visibility
from .reported import kept_report
from .scouting import find_battle
from .state import Battle, BattleStatus, CampaignState, CampaignStatus, GloryEntry, UnitState


def ledger(state: CampaignState, side: str) -> GloryLedger:
    return GloryLedger(side, tuple(
        EngineGloryEntry(g.amount, GloryKind(g.kind), g.reason, g.rule, None if g.battle is None else str(g.battle),
                         g.subject, g.turn)
        for g in state.glory if g.side == side))


def outcomes(battle: Battle) -> dict[str, Outcome]:
    """Each side's outcome in a reported battle, from its report."""
    if battle.status is BattleStatus.PENDING or battle.report is None:
        return {}
    return {s.side: s.outcome for s in battle.report.sides}


def spend_battle_of(state: CampaignState, battle: Battle) -> SpendBattle:
    """A battle as a Glory spend sees it (RU-17): its turn and state, its sides' nations, the units of its
    Forces, and its outcomes once reported."""
    units = {u.key: state.forces[fk].side for fk in battle.forces for u in state.forces[fk].units}
    return SpendBattle(str(battle.number), battle.turn, parse_enum(BattleState, battle.status.value, "battle state"),
                       {k: state.sides[k].nation for k in battle.sides}, units, outcomes(battle),
                       {k: state.sides[k].name for k in battle.sides}, state.camps)


def as_fought(state: CampaignState, battle: Battle, unit: UnitState) -> Unit:
    """``unit`` with the SP it had left at the end of a reported battle (its SP before, less what the report
    says it lost), or as it is now if it did not fight there."""
    validated = validate_report(kept_report(battle), battle_forces(state, battle).values(),
                                camps=state.camps)  # RU-19, RU-23: allies share their camp's outcome
    if unit.key not in validated.force_of_unit:
        return unit.engine()
    before = validated.unit(unit.key)
    lost = validated.losses[unit.key]
    return before.with_sp(max(0, before.sp - lost.killed - lost.rout - lost.other_order))


@dataclass(frozen=True)
class Spend:
    """What a side asks to spend (CC-4): the kind, and what that kind needs."""

    kind: GloryKind
    side: str
    battle: int | None = None
    unit: str | None = None
    points: int | None = None
    ordered: bool | None = None
    terrain_reduces_dice: bool = False


@dataclass(frozen=True)
class Spent:
    battle: int
    text: str
    balance: int
    roll: Roll | BatchRoll | None = None


class NotYourUnit(LookupError):
    pass


def spend(state: CampaignState, ask: Spend, journal: Journal, ctx: Context) -> tuple[CampaignState, Spent]:
    """Spend Glory for a battle of the side's (RU-17). Without a battle, the one battle where the spend may
    be made now."""
    if state.status is not CampaignStatus.ACTIVE:
        raise WrongPhase("The campaign {name!r} has ended.", name=state.name)
    what, side = ask.kind, ask.side
    if what in (GloryKind.HEROIC, GloryKind.RALLY, GloryKind.LEADERSHIP) and not ask.unit:
        raise InvalidInput("Say which unit the {kind} spend is for.", kind=what.value)
    if what is GloryKind.LEADERSHIP and ask.ordered is None:
        raise InvalidInput("Say whether {unit} is ordered: Leadership helps only an ordered unit (CC-4).", unit=ask.unit)
    if what is GloryKind.STRAGGLERS and not ask.points:
        raise InvalidInput("Say how many Glory points to spend on Stragglers (at most half your Glory).")
    book = ledger(state, side)
    when = {"turn": state.turn, "phase": int(state.phase)}
    if ask.battle is not None:
        battle = state.battles[ask.battle]
        target = spend_battle_of(state, battle)
    else:
        mine = {str(b.number): b for b in sorted(state.turn_battles(), key=lambda b: b.number) if side in b.sides}
        target = engine_spend_battle(what, side, [spend_battle_of(state, b) for b in mine.values()],
                                     name=state.sides[side].name, **when)
        battle = mine[target.id]
    unit: UnitState | None = None
    owner = None
    if ask.unit:
        # Heroic: a unit of the winning camp that fought in the battle (RU-23); any other spend: the side's own.
        forces = ([state.forces[k] for k in battle.forces if state.camps.friendly(state.forces[k].side, side)]
                  if what is GloryKind.HEROIC else [f for f in state.forces.values() if f.side == side])
        for f in forces:
            unit = next((u for u in f.units if u.key == ask.unit), None)
            if unit is not None:
                owner = f.key
                break
        if unit is None:
            raise NotYourUnit(ask.unit)
    roll = None
    if what is GloryKind.HEROIC:
        assert unit is not None and owner is not None
        fought = as_fought(state, battle, unit) if battle.status is not BattleStatus.PENDING else unit.engine()
        spent = spend_heroic(book, fought, battle=target, already_heroic=unit.heroic, **when)
        state = state.with_unit(owner, replace(unit, heroic=True))
    elif what is GloryKind.RALLY:
        assert unit is not None
        spent = spend_rally(book, unit.engine(), battle=target, **when)  # never the campaign's SP (RU-17)
    elif what is GloryKind.LEADERSHIP:
        assert unit is not None and ask.ordered is not None
        spent = spend_leadership(book, unit.engine(), ordered=ask.ordered, terrain_reduces_dice=ask.terrain_reduces_dice,
                                 battle=target, **when)
    elif what is GloryKind.STRAGGLERS:
        assert ask.points is not None
        state, dice = turn_dice(state, journal, ctx)
        done = len(book.spent_on(GloryKind.STRAGGLERS, target.id))
        key = roll_key(state.turn, state.phase, f"battle:{battle.number}/side:{side}", f"stragglers{done}")
        result = spend_stragglers(book, ask.points, dice, key, battle=target, **when)
        spent, roll = result.spent, result.roll
        journal.roll(state, roll, visibility=battle_visibility(battle.number))
        spent = GlorySpent(spent.ledger, spent.entry, Msg.join(" ", [spent.text, *result.lines()]))
    elif what is GloryKind.ANTI_GUERRILLA:
        spent = spend_anti_guerrilla(book, theatre=state.theatre, battle=target, **when)
    else:
        spent = spend_ordenanza(book, theatre=state.theatre, battle=target, **when)
    e = spent.entry
    state = state.plus_glory(GloryEntry(side, state.turn, e.amount, str(e.reason)[:200], e.kind.value, e.rule,
                                        battle.number, e.subject))
    # What the Glory bought names units of the battle: its camps' news and theirs who see it (fog of war).
    sight.say(journal, state, sight.battle_notices(state, battle, Msg(
        "{side} spends Glory in battle {number}: {text}", side=state.sides[side].name, number=battle.number,
        text=spent.text)))
    return state, Spent(battle.number, spent.text, spent.ledger.balance, roll)


SPENDS = tuple(k.value for k in SPEND_KINDS)


def spend_kind_of(text: str) -> GloryKind:
    """A spend as a member types it ("Anti-Guerrilla", "stragglers"), or a refusal naming the choices."""
    kind = text.strip().lower().replace("-", "_").replace(" ", "_")
    if kind not in SPENDS:
        raise InvalidInput("Unknown Glory spend {kind!r}: choose {spends}.", kind=kind, spends=', '.join(SPENDS))
    return GloryKind(kind)


def spend_by(state: CampaignState, actor: Acting, kind: str, journal: Journal, ctx: Context, *,
             battle: int | str | None = None, unit: str | None = None, points: int | None = None,
             ordered: bool | None = None, terrain_reduces_dice: bool = False) -> tuple[CampaignState, Spent]:
    """A player spends their side's Glory (CC-4) for one of its battles (RU-17): ``kind`` as typed;
    without ``battle``, the one battle where the spend may be made now."""
    what = spend_kind_of(kind)
    side = require_in_play(state, actor.member_id)
    number = None if battle is None else find_battle(state, battle).number
    try:
        return spend(state, Spend(what, side, number, unit, points, ordered, terrain_reduces_dice), journal, ctx)
    except NotYourUnit:
        raise NotFound("{unit!r} is not one of your side's units.", unit=unit) from None
