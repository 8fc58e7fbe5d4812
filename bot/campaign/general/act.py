"""The bot general acts (RU-26): its decisions (:mod:`.decide`, from its side's view) made through the
very core functions a member's commands call, as a member of its side, so that nothing is allowed to it
that a member is refused, and logged for its side with a reason a player can read.

The general sits in its side's seat for the length of one call only: a member id of its own (negative:
never a Discord id) mapped to its side, taken away again before the state is returned. It acts for the
sides :func:`..seats.general_sides` names and for no other.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass
from fractions import Fraction
from typing import Any

from bot.engine.cc_model import GloryKind
from bot.engine.errors import EngineError
from bot.engine.phases import Phase
from bot.engine.text import Msg

from .. import aftermath, claims, glory, leaders, orders, scouting, supply
from ..dice import Context, turn_dice
from ..errors import PermissionDenied
from ..events import Journal, side_visibility
from ..rulebook import rules_for
from ..seats import general_plays, general_sides
from ..state import Battle, CampaignState, CampaignStatus
from .decide import (
    Buy,
    Claim,
    Decision,
    Fate,
    GiveOrder,
    GroupStance,
    Heroic,
    Move,
    Retreat,
    RollAftermath,
    Scout,
    Trophy,
    decide,
    percent,
)
from .view import side_view

Reporter = Callable[[CampaignState, Battle], Mapping[str, Any] | None]
"""Settles a battle without a table: the whole battle's report (BR), or None to leave it to the table.
The general reports its own camp's part of it (RU-27's quick battle plugs in here)."""

PHASES = (Phase.ORDERS, Phase.MOVEMENT, Phase.BATTLE, Phase.AFTERMATH)


@dataclass(frozen=True)
class Seat:
    """The general as an actor of the core (:class:`..authority.Acting`)."""

    member_id: int
    roles: tuple[int, ...] = ()


@dataclass(frozen=True)
class Acted:
    """What the general did for one side in one call."""

    side: str
    decisions: tuple[Decision, ...] = ()
    refused: tuple[str, ...] = ()
    """Actions the core refused it (a defect of the general's: never expected)."""


def general_member(state: CampaignState, side: str) -> int:
    """The general's member id for ``side``: negative, so never a Discord member's."""
    return -1 - list(state.sides).index(side)


def act(state: CampaignState, side: str, journal: Journal, ctx: Context, *,
        report_battle: Reporter | None = None) -> tuple[CampaignState, Acted]:
    """The general plays ``side`` in the current phase: what it decides from its side's view, made through
    the members' core functions. Phases 1 and 2 end with the side done; a side already done is left as it is."""
    if not general_plays(state, side):
        raise PermissionDenied("The bot general does not play {side} (RU-26).",
                               side=state.sides[side].name if side in state.sides else side)
    if state.status is not CampaignStatus.ACTIVE or state.phase not in PHASES:
        return state, Acted(side)
    if state.phase in (Phase.ORDERS, Phase.MOVEMENT) and state.sides[side].done:
        return state, Acted(side)
    rules = rules_for(state, ctx.rules)
    view = side_view(state, side)
    declared = frozenset(d.force for d in state.declarations
                         if d.turn == state.turn and d.phase is state.phase and d.side == side)
    dice_state, dice = turn_dice(state, journal, ctx)
    made = decide(view, dice, rules, declared=declared, reporting=report_battle is not None)
    member = general_member(state, side)
    players = state.players
    seated = dice_state.evolve(players={**players, member: side})
    refused: list[str] = []
    for d in made.items:
        try:
            seated = _make(seated, side, member, d, journal, ctx, report_battle)
        except EngineError as exc:
            refused.append(f"{type(d).__name__}: {exc}")
    if made.done:
        seated, _ = orders.mark_done(seated, member, True)
    return seated.evolve(players=players), Acted(side, made.items, tuple(refused))


def act_all(state: CampaignState, journal: Journal, ctx: Context, *,
            report_battle: Reporter | None = None) -> tuple[CampaignState, tuple[Acted, ...]]:
    """Every side the general plays acts in the current phase (in the scenario's order of sides)."""
    out: list[Acted] = []
    for side in general_sides(state):
        state, acted = act(state, side, journal, ctx, report_battle=report_battle)
        out.append(acted)
    return state, tuple(out)


# --- one decision, through the members' core functions -----------------------------------------------



def _move_text(verb: str, force: str, target: str, what: str, n: int, odds: int) -> str:
    if verb == "sails":
        return Msg("{force} sails for {target}, {what} {n} squares away; odds of arriving this turn {odds}% (RU-26).",
                   force=force, target=target, what=what, n=n, odds=odds)
    if verb == "falls back":
        return Msg("{force} falls back on {target}, {what} {n} squares away; odds of arriving this turn {odds}% "
                   "(RU-26).", force=force, target=target, what=what, n=n, odds=odds)
    return Msg("{force} marches on {target}, {what} {n} squares away; odds of arriving this turn {odds}% (RU-26).",
               force=force, target=target, what=what, n=n, odds=odds)


def _say(journal: Journal, state: CampaignState, side: str, text: str) -> None:
    journal.say(state, text, visibility=side_visibility(side))


def _place(state: CampaignState, square: Any) -> str:
    cell = state.map.cell(square)
    return cell.place.name if cell.place is not None else str(square)


def _make(state: CampaignState, side: str, member: int, d: Decision, journal: Journal, ctx: Context,
          report_battle: Reporter | None) -> CampaignState:
    actor = Seat(member)
    match d:
        case GroupStance():
            journal.roll(state, d.roll, visibility=side_visibility(side))
            names = Msg.join(", ", (state.forces[k].name for k in d.forces))
            _say(journal, state, side, Msg("The bot general's orders for {forces}: {stance} (RU-26).", forces=names,
                                           stance=d.roll.label))
        case GiveOrder():
            _say(journal, state, side, d.reason)
            state, tested = orders.give_order(state, member, d.force, d.order, journal, ctx)
            if tested.roll.result in d.reroll and tested.scouts:
                _say(journal, state, side, Msg("The general spends a scout of {force} to re-roll its Force test "
                                               "of {total} (FC-3).", force=tested.force, total=tested.roll.total))
                state, _ = orders.reroll(state, member, d.force, journal, ctx)
        case Buy():
            state, _ = supply.buy(state, member, d.kind, d.force, journal, unit=d.unit or None, reduced=d.reduced)
            _say(journal, state, side, d.reason)
        case Move():
            path = " ".join(str(sq) for sq in d.path)
            rules = ctx.rules
            odds = orders.move_odds(state, member, d.force, path, rules, by_water=d.by_water)
            f = state.forces[d.force]
            start = state.map.parse(f.square or "")
            n = state.map.distance(start, d.target)
            arrive = len(d.path) if d.path[-1] == d.target else len(d.path) + 1  # +1: never this turn
            reach = sum((r.chance for r in odds.rows if isinstance(r.key, int) and r.key >= arrive), Fraction(0))
            _say(journal, state, side, _move_text(d.verb, f.name, _place(state, d.target), d.what, n, percent(reach)))
            state, moved = orders.declare_move(state, member, d.force, path, journal, ctx, by_water=d.by_water)
            if d.reroll and moved.allowance < len(moved.path) and moved.scouts:
                _say(journal, state, side, Msg("The general spends a scout of {force} to re-roll its movement "
                                               "roll, short of the enemy at {square} (FC-3).", force=moved.force,
                                               square=_place(state, d.target)))
                state, _ = orders.reroll(state, member, d.force, journal, ctx)
        case Scout():
            _say(journal, state, side, Msg("The bot general explores before battle {number}: the higher score "
                                           "chooses how the battle is deployed (MC-6.1, RU-5).", number=d.battle))
            state, _ = scouting.scout(state, member, d.battle, journal, ctx)
        case Claim():
            if report_battle is None:
                return state
            doc = report_battle(state, state.battles[d.battle])
            if doc is None:
                return state
            part = {**{k: v for k, v in doc.items() if k != "sides"},
                    "sides": [e for e in doc.get("sides", []) if e.get("side") == side]}
            _say(journal, state, side, Msg("The bot general reports its camp's result of battle {number} (BR).",
                                           number=d.battle))
            state, _ = claims.claim(state, side, d.battle, part, journal)
        case RollAftermath():
            _say(journal, state, side, Msg("The bot general rolls its camp's wounded and deserters of battle "
                                           "{number} (MC-7.1, MC-7.2).", number=d.battle))
            state, _ = aftermath.roll_for(state, actor, d.battle, journal, ctx)
        case Retreat():
            _say(journal, state, side, d.reason)
            state, _ = aftermath.retreat_by(state, actor, d.battle, d.force, str(d.square), journal)
        case Fate():
            _say(journal, state, side, d.reason)
            state, _ = leaders.fate_by(state, actor, d.leader, None, d.designation, journal, ctx)
        case Trophy():
            _say(journal, state, side, Msg("{unit} tries to take the flag of {target}, which it eliminated in melee "
                                           "(CC-3).", unit=leaders.unit_name(state, d.unit),
                                           target=leaders.unit_name(state, d.target)))
            state, _ = leaders.trophy_by(state, actor, d.battle, d.unit, d.target, journal, ctx)
        case Heroic():
            _say(journal, state, side, d.reason)
            state, _ = glory.spend(state, glory.Spend(GloryKind.HEROIC, side, d.battle, d.unit), journal, ctx)
    return state
