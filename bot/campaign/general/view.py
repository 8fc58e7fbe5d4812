"""What the bot general knows of the campaign (RU-26): its side's view, and nothing else.

:func:`side_view` copies out of the state only what a member of the side may read: its own Forces and
leaders in full, the enemy Forces fog of war shows it (name, side and square: :mod:`..sight`), where it
last saw the others, the map with its strongholds and their public holders, its own battles of the
turn and its own supply. Every decision of :mod:`.decide` is a function of this view (and of the
turn's dice), so a hidden enemy Force can change none of them.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from fractions import Fraction
from functools import cached_property

from bot.engine.camps import Camps
from bot.engine.errors import EngineError
from bot.engine.glory import spend_heroic
from bot.engine.grid import CampaignMap
from bot.engine.model import Outcome, Square
from bot.engine.phases import Phase
from bot.engine.tables import default_rulebook

from .. import glory
from ..leaders import NoFateDue, fallen, unit_owner
from ..rulebook import rules_for
from ..settings import Personality, Settings
from ..sight import Reader, visible_force_keys
from ..state import (
    Battle,
    BattleStatus,
    CampaignState,
    ForceState,
    ForceStatus,
    LeaderState,
    Recruit,
    SideState,
    SupplyPurchase,
)


@dataclass(frozen=True)
class Sighting:
    """An enemy Force as the side knows it: where it is (``now``) or was last seen."""

    key: str
    name: str
    side: str
    square: Square
    now: bool


@dataclass(frozen=True)
class Stronghold:
    square: Square
    owner: str
    holder: str
    capital: bool


@dataclass(frozen=True)
class FateDue:
    """A fallen leader of the side whose fate it may roll (CC-1), and the type of his Force's strongest unit."""

    battle: int
    leader: str
    force: str


@dataclass(frozen=True)
class TrophyDue:
    """A trophy attempt of one of the side's units (CC-3)."""

    battle: int
    unit: str
    target: str


@dataclass(frozen=True)
class HeroicDue:
    """A battle its camp won this turn where its Glory gained there may make a unit Heroic (CC-4, RU-17):
    the unit it would choose (of its own, the one with most SP left after the battle)."""

    battle: int
    unit: str
    name: str
    sp: int


@dataclass(frozen=True)
class SideView:
    side: str
    turn: int
    phase: Phase
    settings: Settings
    personality: Personality
    map: CampaignMap
    camps: Camps
    own: tuple[ForceState, ...]
    """The side's Forces on the map, in full."""
    commanders: Mapping[str, LeaderState]
    """The leader of each of its Forces, by Force key."""
    enemies: tuple[Sighting, ...]
    strongholds: tuple[Stronghold, ...]
    battles: tuple[Battle, ...]
    """This turn's battles the side fights (its own camps' business)."""
    supply: int
    purchases: tuple[SupplyPurchase, ...]
    recruits: tuple[Recruit, ...]
    capital: Square | None
    sight: int
    fates: tuple[FateDue, ...] = ()
    trophies: tuple[TrophyDue, ...] = ()
    others: tuple[tuple[str, Square], ...] = ()
    """Where the Forces of its allies stand (an ally's square is free to retreat into, RU-19)."""
    quiet: int = 0
    """Turns since the side last fought a battle (since the campaign began, if it never did)."""
    heroics: tuple[HeroicDue, ...] = ()
    lost: tuple[tuple[str, str, int], ...] = ()
    """Its destroyed units it may buy back (FC-2, RU-24): key, name and original SP."""
    known: Mapping[str, int] = field(default_factory=dict)
    """Enemy Forces' SP as its camp last met them: what they had left at the end of their last reported
    battle against it (the battle's report is its camp's to read, BR); never read from the Force itself."""
    weather: int = 0
    """The weather's movement modifier now (public, MC-10), and ``event`` its own random event's (RU-10)."""
    event: int = 0
    tally: int = 0
    standing: frozenset[str] = frozenset()
    """The sides still in play (RU-25: a side's total defeat is public news)."""
    tallies: Mapping[str, int] = field(default_factory=dict)
    """Every side's Will-to-Fight modifiers (MC-9): battles won and lost and strongholds held are public news."""
    """Its side's Will-to-Fight modifiers now (MC-9: battles won and lost, strongholds and capital taken and
    lost), its own record."""

    @cached_property
    def occupied(self) -> frozenset[Square]:
        """Squares where the side sees an enemy Force now."""
        return frozenset(e.square for e in self.enemies if e.now)

    @cached_property
    def mean_sp(self) -> int:
        """What the general assumes an enemy Force it has not fought is worth: one of its own Forces on average
        (it never reads an enemy's SP, which fog of war hides). Not what the Forces it fought have left: the
        remnants of the Forces it beat say nothing of a fresh one."""
        own = [f.sp for f in self.own if f.sp]
        return max(1, sum(own) // len(own) if own else 1)

    @cached_property
    def garrison_sp(self) -> int:
        """What the general assumes an enemy Force it has not fought is worth on a stronghold of its camp's
        enemies: its own strongest Force (a side holds its strongholds with its main Forces: in danube1809
        Davout's 47 SP stand on Regensburg and Masséna's 33 on Ingolstadt, where a corps of Austria's average
        20 SP is no guide)."""
        return max(self.mean_sp, max((f.sp for f in self.own), default=1))

    def strength(self, key: str, stronghold: bool = False) -> int:
        """An enemy Force's estimated SP: as its camp last met it in battle, else :attr:`mean_sp`, or
        :attr:`garrison_sp` on an enemy ``stronghold``."""
        return self.known.get(key, self.garrison_sp if stronghold else self.mean_sp)

    def break_chance(self, side: str) -> Fraction:
        """The chance that one more battle lost breaks ``side`` (MC-9: its Will-to-Fight total below zero)."""
        after = self.tallies.get(side, 0) - 1
        return Fraction(sum(1 for face in range(1, 7) if face + after < 0), 6)

    def hostile(self, other: str) -> bool:
        return self.camps.hostile(self.side, other)


def side_view(state: CampaignState, side: str) -> SideView:
    """The view of ``side``: what one of its members may read now."""
    seen = visible_force_keys(state, Reader(side=side))
    own = tuple(f for f in state.active() if f.side == side)
    enemies: list[Sighting] = []
    for key in sorted(seen):
        f = state.forces[key]
        if state.camps.hostile(f.side, side) and f.square:  # an ally's Force is no enemy (RU-19)
            enemies.append(Sighting(f.key, f.name, f.side, state.map.parse(f.square), True))
    for key, square in sorted(state.sides[side].last_seen.items()):
        if key not in seen and key in state.forces and state.camps.hostile(state.forces[key].side, side):
            f = state.forces[key]
            enemies.append(Sighting(key, f.name, f.side, state.map.parse(square), False))
    holds: list[Stronghold] = []
    for sq, cell in state.map.cells.items():
        if cell.stronghold is not None:
            holder = state.holdings.get(str(sq), cell.stronghold)
            holds.append(Stronghold(sq, cell.stronghold, holder, cell.capital))
    sd = state.sides[side]
    battles = tuple(b for b in state.turn_battles() if side in b.sides)
    commanders = {f.key: ld for f in own if (ld := state.commander(f.key)) is not None}
    return SideView(
        side, state.turn, state.phase, state.settings, state.settings.general, state.map, state.camps, own,
        commanders, tuple(enemies), tuple(sorted(holds, key=lambda h: h.square)),
        battles, sd.supply, state.purchases_of(side), sd.recruits,
        state.map.parse(sd.capital) if sd.capital else next(
            (h.square for h in holds if h.capital and h.owner == side), None),
        state.sight, _fates(state, side, battles), _trophies(state, side, battles),
        tuple((f.side, state.map.parse(f.square)) for f in state.active()
              if f.side != side and f.square and not state.camps.hostile(f.side, side)),
        state.turn - max((b.turn for b in state.battles.values() if side in b.sides), default=0),
        _heroics(state, side, battles) if state.phase is Phase.AFTERMATH else (),
        tuple((u.key, u.name, u.original_sp) for f in state.side_forces(side) for u in f.units
              if (f.active and u.sp == 0) or f.status is ForceStatus.REMOVED),
        _known(state, side), _weather(state), state.event_modifier(side), _tally(sd),
        frozenset(k for k, other in state.sides.items() if not other.defeated),
        {k: _tally(other) for k, other in state.sides.items()})


def _tally(sd: SideState) -> int:
    """A side's Will-to-Fight modifiers over the campaign so far (MC-9, RU-14)."""
    return (sd.battles_won - sd.battles_lost + sd.strongholds_taken - sd.strongholds_lost
            + 3 * sd.holds_enemy_capital - 3 * sd.lost_capital)


def _weather(state: CampaignState) -> int:
    """The movement modifier of the weather in force (public, MC-10; none when the setting is off)."""
    if not state.settings.movement_extension:
        return 0
    kind = rules_for(state, default_rulebook()).weather.kinds.get(state.weather_now or "")
    return kind.movement if kind else 0


def _known(state: CampaignState, side: str) -> dict[str, int]:
    """Each enemy Force's SP at the end of its last reported battle against ``side``'s camp: its units' SP as
    they fought (kept with the battle) less the report's losses. Only the battle's record is read: what its
    camp read in the report (BR), never the Force as it is now."""
    camp = state.camps.camp_of(side)
    out: dict[str, int] = {}
    for b in sorted(state.battles.values(), key=lambda b: b.number):
        if b.report is None or not b.aftermath.sp_before or not any(state.camps.camp_of(s) == camp for s in b.sides):
            continue
        lost: dict[str, int] = {}
        for sr in b.report.sides:
            for u in sr.units:
                lost[u.unit_id] = u.killed + u.rout + u.other_order
        for key in b.forces:
            f = state.forces.get(key)
            if f is None or not state.camps.hostile(f.side, side):
                continue
            fought = [u.key for u in f.units if u.key in b.aftermath.sp_before]
            out[key] = sum(max(0, b.aftermath.sp_before[u] - lost.get(u, 0)) for u in fought)
    return out


def _heroics(state: CampaignState, side: str, battles: tuple[Battle, ...]) -> tuple[HeroicDue, ...]:
    """Its won battles of the turn where a Heroic spend of its Glory would be accepted now (CC-4, RU-17),
    each with its own surviving infantry or cavalry unit that has most SP left (the spend's own checks)."""
    out: list[HeroicDue] = []
    book = glory.ledger(state, side)
    for b in battles:
        if b.status is not BattleStatus.REPORTED or glory.outcomes(b).get(side) is not Outcome.WON:
            continue
        target = glory.spend_battle_of(state, b)
        fought = [(glory.as_fought(state, b, u), u) for k in b.forces if state.forces[k].side == side
                  for u in state.forces[k].units if not u.heroic]
        for engine_unit, u in sorted(fought, key=lambda t: (-t[0].sp, t[1].key)):
            try:
                spend_heroic(book, engine_unit, battle=target, turn=state.turn, phase=state.phase)
            except EngineError:
                continue
            out.append(HeroicDue(b.number, u.key, u.name, engine_unit.sp))
            break
    return tuple(out)


def _fates(state: CampaignState, side: str, battles: tuple[Battle, ...]) -> tuple[FateDue, ...]:
    """The side's own fallen leaders whose fate nobody rolled yet (CC-1)."""
    out: list[FateDue] = []
    for b in battles:
        for name, status in b.aftermath.fates.items():
            if status is not None:
                continue
            try:
                _, _, force_key, _ = fallen(state, b, name)
            except NoFateDue:
                continue
            if state.forces[force_key].side == side:
                out.append(FateDue(b.number, name, force_key))
    return tuple(out)


def _trophies(state: CampaignState, side: str, battles: tuple[Battle, ...]) -> tuple[TrophyDue, ...]:
    """The side's own units' trophy attempts nobody rolled yet (CC-3)."""
    out: list[TrophyDue] = []
    for b in battles:
        for (unit, target), taken in b.aftermath.trophies.items():
            owner = unit_owner(state, unit) if taken is None else None
            if owner is not None and state.forces[owner].side == side:
                out.append(TrophyDue(b.number, unit, target))
    return tuple(out)
