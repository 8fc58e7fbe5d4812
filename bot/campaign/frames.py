"""The campaign turn by turn, for its timelapse: a compact *frame* kept at the end of every turn, and
the campaign as each frame shows it, pure and synchronous.

A frame holds what a map of the turn's end draws: the turn, its date and weather, every Force on the
map (key, side, name, square, SP), the squares of the turn's battles and the strongholds held by a
side other than their owner. Turns that ended before frames were kept have none: a timelapse starts
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
from bot.engine.model import Square
from bot.engine.phases import Phase
from bot.engine.seasons import turn_date
from bot.engine.tables import RuleBook, default_rulebook

from .rulebook import rules_for
from .sight import record_sightings
from .state import Battle, BattleStatus, CampaignState, ForceState, UnitState

FRAME_FORMAT = 1
"""The version of a stored frame's JSON (``"v"``)."""


@dataclass(frozen=True, slots=True)
class FrameForce:
    """A Force on the map at the end of a turn."""

    key: str
    side: str
    name: str
    square: str
    sp: int


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

    def to_json(self) -> dict[str, Any]:
        return {"v": FRAME_FORMAT, "turn": self.turn, "date": self.date, "weather": self.weather,
                "forces": [[f.key, f.side, f.name, f.square, f.sp] for f in self.forces],
                "battles": list(self.battles), "holdings": dict(self.holdings)}

    @classmethod
    def from_json(cls, data: Mapping[str, Any]) -> Frame:
        return cls(int(data["turn"]), str(data.get("date", "")), data.get("weather"),
                   tuple(FrameForce(str(k), str(s), str(n), str(sq), int(sp))
                         for k, s, n, sq, sp in data.get("forces", ())),
                   tuple(str(sq) for sq in data.get("battles", ())),
                   {str(sq): str(side) for sq, side in (data.get("holdings") or {}).items()})


def end_of_turn(before: CampaignState, after: CampaignState, rules: RuleBook | None = None) -> Frame:
    """The frame of the turn a resolution ended: ``before`` is the state the resolution started from
    (in that turn: its date and weather), ``after`` the state it left (the Forces where the turn left
    them, the turn's battles and the strongholds' holders)."""
    turn = before.turn
    date = turn_date(before.start_date, turn, rules=rules_for(before, rules or default_rulebook()))  # RU-10
    forces = tuple(FrameForce(f.key, f.side, f.name, f.square, f.sp) for f in after.active() if f.square)
    battles = tuple(b.square for _, b in sorted(after.battles.items()) if b.turn == turn)
    return Frame(turn, date.isoformat(), before.weather, forces, battles, dict(after.holdings))


def at(state: CampaignState, frame: Frame, last_seen: Mapping[str, Mapping[str, str]] | None = None) -> CampaignState:
    """The campaign as ``frame`` shows it, with the sides, map and sight of ``state``: the frame's Forces
    (their strength as one unit), battles and holdings, no declarations, and each side remembering
    ``last_seen`` (side -> enemy Force -> square). Forces of sides the campaign no longer has are left out."""
    forces = {f.key: ForceState(f.key, f.side, f.name, f.square, units=(UnitState(f"{f.key}.sp", f.name, f.sp, f.sp),))
              for f in frame.forces if f.side in state.sides and _on_map(state, f.square)}
    memory = last_seen or {}
    sides = {k: replace(sd, last_seen=dict(memory.get(k, {}))) for k, sd in state.sides.items()}
    battles = {n: Battle(n, frame.turn, sq, (), (), BattleStatus.DONE)
               for n, sq in enumerate(frame.battles, start=1) if _on_map(state, sq)}
    return state.evolve(turn=frame.turn, phase=Phase.EVENTS, weather=frame.weather, forces=forces, sides=sides,
                        battles=battles, holdings=dict(frame.holdings), declarations=())


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
