"""The campaign turn by turn, for its timelapse: a compact *frame* kept at the end of every turn, and
the campaign as each frame shows it, pure and synchronous.

A frame holds what a map of the turn's end draws: the turn, its date and weather, every Force on the
map (key, side, name, square, SP), the squares of the turn's battles, each battle's outcome (public
news) and its retreats (MC-7.3), and the strongholds held by a side other than their owner. It is
kept by the resolution that ends the turn, before the next turn starts, and it is what the turn's
gazette draws (issue 22, item 3). Turns that ended before frames were kept have none: a timelapse starts
at the first frame there is, and nothing is made up for the turns before.

Fog of war applies to a frame exactly as to the campaign (:mod:`.sight`): :func:`timeline` turns the
frames into campaign states, so that each reader's map of a frame is :func:`.views.map_view` of one,
with the faded "last seen" markers a side would have had from the frames before.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field, replace
from typing import Any

from bot.engine.errors import InvalidInput
from bot.engine.model import Outcome, Square
from bot.engine.phases import Phase
from bot.engine.seasons import turn_date
from bot.engine.tables import RuleBook, default_rulebook

from .reported import battle_outcomes
from .rulebook import rules_for
from .sight import record_sightings
from .state import Aftermath, Battle, BattleStatus, CampaignState, ForceState, UnitState

FRAME_FORMAT = 2
"""The version of a stored frame's JSON (``"v"``); version 1 (no outcomes, no retreats) is still read."""


@dataclass(frozen=True, slots=True)
class FrameForce:
    """A Force on the map at the end of a turn."""

    key: str
    side: str
    name: str
    square: str
    sp: int


@dataclass(frozen=True, slots=True)
class FrameBattle:
    """A battle of the turn as its frame keeps it: its outcome for each side (public news, empty when it
    was not reported) and where each Force that had to leave went (MC-7.3)."""

    number: int
    square: str
    outcomes: tuple[tuple[str, Outcome], ...] = ()
    retreats: tuple[tuple[str, str], ...] = ()
    """(Force key, the square it retreated to), in retreat order; a Force that surrendered is not here."""

    def to_json(self) -> list[Any]:
        return [self.number, self.square, {k: o.value for k, o in self.outcomes}, dict(self.retreats)]

    @classmethod
    def from_json(cls, data: Sequence[Any]) -> FrameBattle:
        number, square, outcomes, retreats = data
        return cls(int(number), str(square), tuple((str(k), Outcome(v)) for k, v in dict(outcomes).items()),
                   tuple((str(k), str(v)) for k, v in dict(retreats).items()))


@dataclass(frozen=True)
class Frame:
    """The campaign at the end of turn ``turn``."""

    turn: int
    date: str
    """The turn's date, ISO (``1805-10-07``)."""
    weather: str | None
    forces: tuple[FrameForce, ...] = ()
    battles: tuple[str, ...] = ()
    """The squares of the turn's battles, in battle order."""
    holdings: Mapping[str, str] = field(default_factory=dict)
    """Strongholds held by a side other than their owner: square -> holding side (MC-9)."""
    results: tuple[FrameBattle, ...] = ()
    """The turn's battles with their outcomes and retreats, in battle order (none in a version 1 frame)."""

    def to_json(self) -> dict[str, Any]:
        return {"v": FRAME_FORMAT, "turn": self.turn, "date": self.date, "weather": self.weather,
                "forces": [[f.key, f.side, f.name, f.square, f.sp] for f in self.forces],
                "battles": list(self.battles), "holdings": dict(self.holdings),
                "results": [b.to_json() for b in self.results]}

    @classmethod
    def from_json(cls, data: Mapping[str, Any]) -> Frame:
        return cls(int(data["turn"]), str(data.get("date", "")), data.get("weather"),
                   tuple(FrameForce(str(k), str(s), str(n), str(sq), int(sp))
                         for k, s, n, sq, sp in data.get("forces", ())),
                   tuple(str(sq) for sq in data.get("battles", ())),
                   {str(sq): str(side) for sq, side in (data.get("holdings") or {}).items()},
                   tuple(FrameBattle.from_json(b) for b in data.get("results", ())))


def end_of_turn(before: CampaignState, after: CampaignState, rules: RuleBook | None = None) -> Frame:
    """The frame of the turn a resolution ended: ``before`` is the state the resolution started from
    (in that turn: its date and weather), ``after`` the state it left (the Forces where the turn left
    them, the turn's battles with their outcomes and retreats, and the strongholds' holders)."""
    turn = before.turn
    date = turn_date(before.start_date, turn, rules=rules_for(before, rules or default_rulebook()))  # RU-10
    forces = tuple(FrameForce(f.key, f.side, f.name, f.square, f.sp) for f in after.active() if f.square)
    fought = [b for _, b in sorted(after.battles.items()) if b.turn == turn]
    results = tuple(FrameBattle(b.number, b.square, tuple(battle_outcomes(b).items()),
                                tuple((str(k), str(sq)) for k, sq in b.aftermath.retreats.items() if sq))
                    for b in fought)
    return Frame(turn, date.isoformat(), before.weather, forces, tuple(b.square for b in fought),
                 dict(after.holdings), results)


def at(state: CampaignState, frame: Frame, last_seen: Mapping[str, Mapping[str, str]] | None = None) -> CampaignState:
    """The campaign as ``frame`` shows it, with the sides, map and sight of ``state``: the frame's Forces
    (their strength as one unit), battles and holdings, no declarations, and each side remembering
    ``last_seen`` (side -> enemy Force -> square). Forces of sides the campaign no longer has are left out.
    Its battles carry their outcomes and retreats as the frame kept them, so that each reader's map of it
    shows the winners and the retreats it may see (:func:`.views.map_view`)."""
    forces = {f.key: ForceState(f.key, f.side, f.name, f.square, units=(UnitState(f"{f.key}.sp", f.name, f.sp, f.sp),))
              for f in frame.forces if f.side in state.sides and _on_map(state, f.square)}
    memory = last_seen or {}
    sides = {k: replace(sd, last_seen=dict(memory.get(k, {}))) for k, sd in state.sides.items()}
    kept = frame.results or tuple(FrameBattle(n, sq) for n, sq in enumerate(frame.battles, start=1))
    battles = {b.number: _battle(frame.turn, b, forces) for b in kept if _on_map(state, b.square)}
    return state.evolve(turn=frame.turn, phase=Phase.EVENTS, weather=frame.weather, forces=forces, sides=sides,
                        battles=battles, holdings=dict(frame.holdings), declarations=())


def _battle(turn: int, kept: FrameBattle, forces: Mapping[str, ForceState]) -> Battle:
    """A frame's battle as the state holds one: its sides are those of its outcomes, its Forces those that
    retreated (and are still in the frame), each retreat where it went."""
    retreats = {k: sq for k, sq in kept.retreats if k in forces}
    return Battle(kept.number, turn, kept.square, tuple(retreats), tuple(k for k, _ in kept.outcomes),
                  BattleStatus.DONE, aftermath=Aftermath(retreats=retreats, outcomes=dict(kept.outcomes)))


def _on_map(state: CampaignState, square: str) -> bool:
    try:
        return state.map.contains(Square.parse(square))
    except InvalidInput:
        return False


def timeline(state: CampaignState, frames: Sequence[Frame], *, remember: bool = True) -> list[CampaignState]:
    """The campaign at the end of every turn with a frame (those before the current turn, in order),
    then as it is now. In the frames, each side remembers where it last saw each enemy Force in the
    frames before (faded on its map); the last state is ``state`` itself, with the sides' own memory.
    ``remember=False`` skips the sightings (a reader on no side, or the GM, is shown no memory)."""
    out: list[CampaignState] = []
    memory: dict[str, dict[str, str]] = {}
    for frame in sorted((f for f in frames if f.turn < state.turn), key=lambda f: f.turn):
        if not remember:
            out.append(at(state, frame))
            continue
        seen = record_sightings(at(state, frame, memory))
        memory = {k: dict(sd.last_seen) for k, sd in seen.sides.items()}
        out.append(seen)  # its memory holds the Forces it sees too: the map draws those where they are
    out.append(state)
    return out
