"""Defeat and the campaign's end (MC-9, RU-25): pure and synchronous.

A side in total defeat leaves the campaign at once (:func:`defeat`): its Forces leave the map, its
pending reinforcements never arrive, and its members give no more orders; its territory and
strongholds stay as they are. A side with no Force on the map and none still to come is in total
defeat without a test (:func:`settle`). The campaign ends when no two hostile camps still have a side
in play, when the scenario's last turn is over, or when the GM ends it; who won is read from the state
(:func:`result`), never kept beside it.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass, replace
from enum import StrEnum

from bot.engine.text import Msg

from .events import Journal
from .state import CampaignState, CampaignStatus, ForceStatus


class EndReason(StrEnum):
    VICTORY = "victory"
    """One camp is left in play (RU-25)."""
    LAST_TURN = "last_turn"
    """The scenario's last turn is over with several camps standing: a draw (RU-25)."""
    GM = "gm"
    """The GM ended the campaign with several camps standing."""


@dataclass(frozen=True)
class Ending:
    """How an ended campaign ended: the winning camp (None: a draw, or nobody left)."""

    reason: EndReason
    camp: str | None
    sides: tuple[str, ...]
    """The winning camp's sides still in play, in the scenario's order (empty for a draw)."""


def in_play(state: CampaignState) -> list[str]:
    """The sides still in play (not defeated), in the scenario's order."""
    return [k for k, sd in state.sides.items() if not sd.defeated]


def standing_camps(state: CampaignState) -> list[str]:
    """The camps that still have a side in play, in the order of their first side (RU-25)."""
    return list(dict.fromkeys(state.camps.camp_of(k) for k in in_play(state)))


def decided(state: CampaignState) -> bool:
    """Whether no two hostile camps still have a side in play: the campaign is over (RU-25)."""
    return len(standing_camps(state)) <= 1


def camp_name(state: CampaignState, sides: Iterable[str]) -> Msg:
    """A camp named by its sides' names (``Austria, Piedmont``)."""
    return Msg.join(", ", (state.sides[k].name for k in sides))


def result(state: CampaignState) -> Ending | None:
    """How the campaign ended (None while it runs): the one camp left in play won; with several camps
    still standing, the scenario's last turn made it a draw, or the GM ended it."""
    if state.status is not CampaignStatus.ENDED:
        return None
    camps = standing_camps(state)
    if len(camps) == 1:
        return Ending(EndReason.VICTORY, camps[0], tuple(k for k in in_play(state)
                                                         if state.camps.camp_of(k) == camps[0]))
    if not camps:
        return Ending(EndReason.VICTORY, None, ())
    last = state.last_turn
    reason = EndReason.LAST_TURN if last is not None and state.turn >= last else EndReason.GM
    return Ending(reason, None, ())


def defeat(state: CampaignState, side: str, journal: Journal, *, tested: bool = True) -> CampaignState:
    """RU-25: ``side`` is in total defeat and leaves the campaign at once: its Forces on the map are
    removed, its reinforcements still to come are cancelled, what it declared this turn is dropped, and
    it is never awaited again. Its territory and strongholds stay as they are (an enemy standing in one
    still holds it). ``tested``: it failed its Will to Fight (MC-9); else it had nothing left (RU-25)."""
    sd = state.sides[side]
    if sd.defeated:
        return state
    gone = [replace(f, status=ForceStatus.REMOVED, wtf_marker=False) for f in state.forces.values()
            if f.side == side and f.status is not ForceStatus.REMOVED]
    state = state.with_forces(gone) if gone else state
    state = state.with_side(side, defeated=True, must_test="", done=False)
    kept = tuple(d for d in state.declarations if d.side != side)
    if len(kept) != len(state.declarations):
        state = state.evolve(declarations=kept)
    journal.say(state, Msg("{side} is in total defeat and leaves the campaign (RU-25): its Forces leave the map and "
                           "its reinforcements will not come.", side=sd.name) if tested else
                Msg("{side} has no Force left on the map and none to come: it is in total defeat and leaves the "
                    "campaign (RU-25).", side=sd.name))
    return state


def settle(state: CampaignState, journal: Journal) -> CampaignState:
    """After a phase: each side with no Force on the map and none still to come is defeated without a
    test; then, when no two hostile camps are left in play, the campaign ends (RU-25)."""
    if state.status is not CampaignStatus.ACTIVE:
        return state
    for key in in_play(state):
        if not any(f.side == key and f.status is not ForceStatus.REMOVED and f.square for f in state.forces.values()):
            state = defeat(state, key, journal, tested=False)
    return end(state, journal, EndReason.VICTORY) if decided(state) else state


def summary(state: CampaignState) -> Msg | None:
    """How the campaign ended, in one sentence (None while it runs): the winning camp, or the draw."""
    ending = result(state)
    if ending is None:
        return None
    if ending.sides:
        return Msg("The campaign is over: {camp} won (RU-25).", camp=camp_name(state, ending.sides))
    if ending.reason is EndReason.VICTORY:
        return Msg("The campaign is over: no side is left in play (RU-25).")
    if ending.reason is EndReason.LAST_TURN:
        return Msg("The campaign is over: turn {turn} was its last, and it ends in a draw between {camps} (RU-25).",
                   turn=state.turn, camps=Msg.join("; ", (camp_name(state, [k for k in in_play(state)
                                                                             if state.camps.camp_of(k) == c])
                                                          for c in standing_camps(state))))
    return Msg("The GM ended the campaign.")


def end(state: CampaignState, journal: Journal, reason: EndReason) -> CampaignState:
    """The campaign ends (RU-25), with the line that names the winning camp or the draw. The turn's seed
    is revealed by the caller (:func:`bot.campaign.dice.reveal_turn`)."""
    state = state.evolve(status=CampaignStatus.ENDED)
    ending = result(state)
    text = summary(state)
    assert ending is not None and text is not None
    journal.say(state, text, data={"end": {"reason": reason.value, "camp": ending.camp}})
    return state
