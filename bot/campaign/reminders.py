"""Reminders that move people (issue 22, item 5): what exactly a side still has to do in the phase (its
reminder, by DM to its players), and what the channel says of the sides that did not act by the deadline.

Pure: the scheduler (:mod:`bot.cogs.scheduler`) sends. A reminder goes to the side's own players only, so
it names the side's own Forces; what the channel says of a side that did not act is what its phase card
already shows (who is done), with what the rules did for it.
"""

from __future__ import annotations

from dataclasses import dataclass

from bot.engine.model import Order
from bot.engine.phases import Phase
from bot.engine.text import Msg

from .authority import awaited
from .guide import _aftermath
from .state import BattleStatus, CampaignState
from .turn import waiting_for


@dataclass(frozen=True)
class Missing:
    """What a side still has to do in the current phase, for its own players."""

    side: str
    side_name: str
    phase: Phase
    lines: tuple[str, ...]
    """One message a line: Forces without orders or moves, reports, aftermath rolls."""
    can_mark_done: bool
    """Phases 1 and 2: the side says it is done ("My side is done")."""


def missing(state: CampaignState, side: str) -> Missing:
    """What ``side`` still has to do in the phase the campaign stands in (nothing when it is done)."""
    phase = state.phase
    own = [f for f in state.active() if f.side == side]
    declared = {d.force for d in state.declarations
                if d.turn == state.turn and d.phase is phase and d.side == side}
    lines: list[str] = []
    done = state.sides[side].done
    if phase is Phase.ORDERS and not done:
        idle = [f.name for f in own if f.key not in declared]
        if idle:
            lines.append(Msg("Forces with no new order this phase (they keep their orders, MC-4): {forces}",
                             forces=Msg.join(", ", idle)))
        lines.append(Msg("then say your side is done (/order done, or the button below)"))
    elif phase is Phase.MOVEMENT and not done:
        idle = [f.name for f in own if f.order is not Order.DEFEND and f.key not in declared]
        if idle:
            lines.append(Msg("Forces with no move declared (MC-5): {forces}", forces=Msg.join(", ", idle)))
        lines.append(Msg("then say your side is done (/order done, or the button below)"))
    elif phase is Phase.BATTLE:
        for b in state.turn_battles(status=BattleStatus.PENDING):
            if side not in b.sides:
                continue
            if side not in b.scouting.scores:
                lines.append(Msg("battle {number} at {square}: your scouting test (MC-6.1)", number=b.number,
                                 square=b.square))
            if side not in b.aftermath.claims:
                lines.append(Msg("battle {number} at {square}: your camp's report, once it is fought (BR)",
                                 number=b.number, square=b.square))
    elif phase is Phase.AFTERMATH:
        lines += [step.why for step in _aftermath(state, side)]
    return Missing(side, state.sides[side].name, phase, tuple(lines),
                   can_mark_done=phase in (Phase.ORDERS, Phase.MOVEMENT) and not done)


AT_DEADLINE = {
    Phase.ORDERS: Msg("its Forces keep their orders (MC-4)"),
    Phase.MOVEMENT: Msg("its Forces with no declared move stay where they are (MC-5)"),
    Phase.BATTLE: Msg("its battles wait for a report: the GM reports them (BR)"),
    Phase.AFTERMATH: Msg("the bot rolled what it left, and chose its retreats (MC-7, CC-1, CC-3)"),
}


def did_not_act(state: CampaignState) -> tuple[str, ...]:
    """At the deadline, before the phase is forced: each side the phase still waited for, by name, and what
    the rules do for it (MC-3). Every member may read it: the phase card already shows who was done."""
    what = AT_DEADLINE.get(state.phase)
    if what is None:
        return ()
    return tuple(Msg("The deadline passed: {side} did not act; {what}.", side=state.sides[k].name, what=what)
                 for k in waiting_for(state) if k in state.sides and awaited(state, k))
