"""MC-3: the sequence of a campaign turn as an explicit state machine.

Each phase says who it waits for and what ends it. Phases 0 and 8 are options (``weather``,
``random_events``) and are skipped when off. The machine is pure: it answers "what comes next"
and "what is still missing" from plain facts the services collect.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from enum import IntEnum
from typing import Any, Literal

from .errors import RuleViolation
from .text import Msg

Actor = Literal["bot", "players", "gm"]


class Phase(IntEnum):
    WEATHER = 0
    ORDERS = 1
    MOVEMENT = 2
    BATTLE = 3
    AFTERMATH = 4
    WILL_TO_FIGHT = 5
    TIME = 6
    REINFORCEMENTS = 7
    EVENTS = 8

    @property
    def spec(self) -> PhaseSpec:
        return PHASES[self]


@dataclass(frozen=True)
class PhaseSpec:
    phase: Phase
    name: str
    rule: str
    actor: Actor
    needs: str
    """What the phase waits for, and from whom."""
    ends: str
    """What ends it."""
    option: str | None = None
    """The campaign setting that turns the phase on or off."""

    @property
    def title(self) -> str:
        return f"Phase {int(self.phase)}: {self.name} ({self.rule})"


PHASES: Mapping[Phase, PhaseSpec] = {
    Phase.WEATHER: PhaseSpec(Phase.WEATHER, "Weather", "MC-10", "bot", "nothing: the bot rolls the weather",
                             "the roll", option="weather"),
    Phase.ORDERS: PhaseSpec(Phase.ORDERS, "Orders and Force tests", "MC-4", "players",
                            "each side: Force tests for the Forces that change order or shed a reaction, then 'done'",
                            "every side done, the deadline, or the GM"),
    Phase.MOVEMENT: PhaseSpec(Phase.MOVEMENT, "Movement", "MC-5", "players",
                              "each side: a declared path for each Force it wants to move, then 'done'",
                              "every side done, the deadline, or the GM; moves resolve together (RU-13)"),
    Phase.BATTLE: PhaseSpec(Phase.BATTLE, "Battle", "MC-6", "gm",
                            "each camp: its scouting test and its report of each battle; the GM: where the camps' "
                            "reports differ",
                            "every battle reported"),
    Phase.AFTERMATH: PhaseSpec(Phase.AFTERMATH, "After the battle", "MC-7", "players",
                               "each side in a battle: wounded and deserter checks; retreats of beaten Forces",
                               "every check rolled and every retreat chosen, the deadline, or the GM"),
    Phase.WILL_TO_FIGHT: PhaseSpec(Phase.WILL_TO_FIGHT, "Will to Fight", "MC-9", "bot",
                                   "nothing: the bot tests each side that must", "the tests"),
    Phase.TIME: PhaseSpec(Phase.TIME, "Time", "MC-10", "bot", "nothing: the calendar advances", "the new date"),
    Phase.REINFORCEMENTS: PhaseSpec(Phase.REINFORCEMENTS, "Reinforcements", "MC-10", "bot",
                                    "nothing: scheduled reinforcements arrive", "their arrival"),
    Phase.EVENTS: PhaseSpec(Phase.EVENTS, "Random events", "MC-10", "bot", "nothing: the bot rolls an event",
                            "the roll", option="random_events"),
}


@dataclass(frozen=True, order=True)
class TurnPosition:
    turn: int
    phase: Phase

    def __str__(self) -> str:
        return Msg("turn {turn}, {phase}", turn=self.turn, phase=self.phase.spec.title)


def phase_enabled(phase: Phase, options: Mapping[str, Any]) -> bool:
    opt = PHASES[phase].option
    return opt is None or bool(options.get(opt, True))


def first_position(options: Mapping[str, Any]) -> TurnPosition:
    pos = TurnPosition(1, Phase.WEATHER)
    return pos if phase_enabled(pos.phase, options) else next_position(pos, options)


def next_position(pos: TurnPosition, options: Mapping[str, Any]) -> TurnPosition:
    """The phase after ``pos``: phases in MC-3 order, skipping options that are off; after the
    last phase, the next turn."""
    turn, phase = pos.turn, int(pos.phase)
    while True:
        phase += 1
        if phase > Phase.EVENTS:
            turn, phase = turn + 1, Phase.WEATHER
        if phase_enabled(Phase(phase), options):
            return TurnPosition(turn, Phase(phase))


@dataclass(frozen=True)
class Pending:
    who: str
    """A side id, or ``gm``."""
    what: str


@dataclass(frozen=True)
class PhaseFacts:
    """What the services know about the current phase."""

    sides: tuple[str, ...]
    done: frozenset[str] = frozenset()
    """Sides that have finished acting in phases 1 and 2."""
    unreported_battles: tuple[str, ...] = ()
    aftermath_due: tuple[tuple[str, str], ...] = ()
    """(side, battle) pairs whose wounded and deserter checks are not rolled yet."""
    retreats_due: tuple[tuple[str, str], ...] = ()
    """(side, Force) pairs that must still choose a retreat square."""
    battle_due: tuple[tuple[str, str, bool], ...] = ()
    """(side, battle, scouted) for each side of a battle not yet reported that has not reported its own
    camp's result: it may scout (MC-6.1) and report (BR) while the GM's report is awaited."""
    camps_report: tuple[str, ...] = ()
    """Battles whose camps are all played and have not all reported (BR): the GM waits for them."""
    rolls_due: tuple[tuple[str, str], ...] = ()
    """(side, rule) pairs: a fallen leader's fate (CC-1) or a trophy attempt (CC-3) its side may still roll
    itself (the bot rolls what is left when the phase ends). No names: the phase card is public."""


def pending(phase: Phase, facts: PhaseFacts) -> tuple[Pending, ...]:
    """Who the phase still waits for, and for what."""
    match phase:
        case Phase.ORDERS | Phase.MOVEMENT:
            what = Msg("give orders, then mark done") if phase is Phase.ORDERS else Msg("declare moves, then mark done")
            return tuple(Pending(s, what) for s in facts.sides if s not in facts.done)
        case Phase.BATTLE:
            # The camps report first (BR): the GM is awaited for a battle only when its camps do not report it
            # (they differ, or a side of it is nobody's).
            due = [Pending("gm", Msg("report battle {battle}", battle=b)) for b in facts.unreported_battles
                   if b not in facts.camps_report]
            due += [Pending(s, Msg("report its camp's result of battle {battle} (BR)", battle=b) if scouted else
                            Msg("scout battle {battle} (MC-6.1), then report its camp's result (BR)", battle=b))
                    for s, b, scouted in facts.battle_due]
            return tuple(due)
        case Phase.AFTERMATH:
            due = [Pending(s, Msg("roll the aftermath of battle {battle}", battle=b)) for s, b in facts.aftermath_due]
            due += [Pending(s, Msg("choose a retreat square for {force}", force=f)) for s, f in facts.retreats_due]
            due += [Pending(s, Msg("roll a leader's fate (CC-1)") if rule == "CC-1" else Msg("roll a trophy attempt (CC-3)"))
                    for s, rule in facts.rolls_due]
            return tuple(due)
    return ()


def can_end(phase: Phase, facts: PhaseFacts, *, forced: bool = False) -> bool:
    """A phase ends when nothing is pending; the GM or a deadline may force phases 1, 2 and 4.

    Battles (phase 3) never end without their reports: the campaign cannot guess a tabletop result.
    """
    missing = pending(phase, facts)
    if not missing:
        return True
    return forced and phase is not Phase.BATTLE


def require_can_end(phase: Phase, facts: PhaseFacts, *, forced: bool = False,
                    names: Mapping[str, str] | None = None) -> None:
    """Refused, saying who the phase still waits for and for what; ``names``: how to call each side (its name,
    never its key) and ``"gm"``."""
    if not can_end(phase, facts, forced=forced):
        named = names or {}
        missing = Msg.join("; ", (Msg("{who}: {what}", who=named.get(p.who, p.who), what=p.what)
                                  for p in pending(phase, facts)))
        raise RuleViolation("{title} is still waiting: {missing}.", title=PHASES[phase].title, missing=missing)
