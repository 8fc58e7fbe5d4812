"""A campaign as one typed, immutable value: :class:`CampaignState` and its parts.

Every part is a frozen dataclass; closed sets are enums. A change builds a new value
(:meth:`CampaignState.evolve`, :meth:`CampaignState.with_forces`, ...) and leaves the old one as it
was, so the repository (:mod:`bot.store.repository`) saves exactly the parts whose identity changed,
and a rule can never alter its caller's state behind its back.

The state holds the game (what the rules read and change); the bot's bookkeeping (channels,
threads, deadlines, reminders, language) stays with the campaign row and never passes through the
core.
"""

from __future__ import annotations

import datetime as dt
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field, replace
from enum import StrEnum
from functools import cached_property
from typing import Any

from bot.engine.camps import Camps
from bot.engine.field_commander import PurchaseKind
from bot.engine.grid import CampaignMap
from bot.engine.model import (
    Climate,
    Force,
    Leader,
    LeaderStatus,
    Order,
    Outcome,
    Quality,
    Reaction,
    Square,
    Unit,
    UnitType,
)
from bot.engine.phases import Phase, TurnPosition
from bot.engine.reports import BattleReport
from bot.engine.rolls import Roll
from bot.engine.tables import NO_TABLES, ScenarioTables

from .settings import Settings


class ForceStatus(StrEnum):
    ACTIVE = "active"
    PENDING = "pending"
    """A scheduled reinforcement, not yet on the map (MC-10)."""
    REMOVED = "removed"
    """Off the map for good: MC-4 disaster, RU-8 surrender, MC-2 collapse, FC-1."""


class BattleStatus(StrEnum):
    PENDING = "pending"
    """Awaiting its report (Phase 3)."""
    REPORTED = "reported"
    DONE = "done"


class CampaignStatus(StrEnum):
    ACTIVE = "active"
    ENDED = "ended"


class LeaderKind(StrEnum):
    LEADER = "leader"
    NEW = "new"
    """CC-2 New Leader."""
    TEMPORARY = "temporary"
    """CC-2 Temporary Leader."""


class DeclarationKind(StrEnum):
    ORDER = "order"
    MOVE = "move"


@dataclass(frozen=True, slots=True)
class UnitState:
    key: str
    name: str
    sp: int
    original_sp: int
    type: UnitType = UnitType.INFANTRY
    quality: Quality = Quality.AVERAGE
    mercenary: bool = False
    flag: bool = True
    heroic: bool = False

    def engine(self) -> Unit:
        return Unit(self.key, self.name, self.sp, self.type, self.quality, self.mercenary, self.flag)


@dataclass(frozen=True, slots=True)
class LeaderState:
    key: str
    name: str
    cv: int = 0
    status: LeaderStatus = LeaderStatus.FIT
    kind: LeaderKind = LeaderKind.LEADER
    designation: UnitType | None = None
    force: str | None = None
    """The Force he commands (None: he commands none, e.g. replaced by a New Leader)."""


@dataclass(frozen=True, slots=True)
class ForceState:
    key: str
    side: str
    name: str
    square: str | None
    """Where it stands; for a pending reinforcement, where it will arrive."""
    order: Order = Order.EXPLORE
    reaction: Reaction | None = None
    scouts: int = 0
    status: ForceStatus = ForceStatus.ACTIVE
    arrives_turn: int | None = None
    wtf_marker: bool = False
    units: tuple[UnitState, ...] = ()
    small_boats: bool = False
    """It travels by water in boats smaller than ships, as its scenario states (MC-5.3)."""
    horse_rafts: bool = False
    """It carries its horses on barges or rafts by water, as its scenario states (MC-5.3)."""

    @property
    def active(self) -> bool:
        return self.status is ForceStatus.ACTIVE and self.square is not None

    @property
    def sp(self) -> int:
        return sum(u.sp for u in self.units)

    def with_units(self, changed: Mapping[str, UnitState]) -> ForceState:
        return replace(self, units=tuple(changed.get(u.key, u) for u in self.units))


@dataclass(frozen=True, slots=True)
class Recruit:
    """A new unit a side may still buy with supply points (FC-2, RU-24), from the scenario's
    ``supply.recruits``: the unit as it joins a Force, and its price."""

    unit: UnitState
    cost: int


@dataclass(frozen=True, slots=True)
class SupplyPurchase:
    """One FC-2 purchase a side made in Phase 1 of ``turn`` (its supply phase): what it bought, for which
    of its Forces (and unit), and what it cost. The engine's supply phase is rebuilt from them."""

    turn: int
    kind: PurchaseKind
    force: str
    unit: str = ""
    """The unit refitted or bought back (its key)."""
    count: int = 1
    """Scouts bought, or units that force-march."""
    reduced: bool = False
    """A unit bought back on its reduced side."""
    cost: int = 0


@dataclass(frozen=True, slots=True)
class SideState:
    key: str
    name: str
    colour: str = "#888888"
    nation: str = ""
    capital: str | None = None
    battles_won: int = 0
    battles_lost: int = 0
    strongholds_taken: int = 0
    strongholds_lost: int = 0
    holds_enemy_capital: bool = False
    lost_capital: bool = False
    supply: int = 0
    """Supply points in hand (FC-2)."""
    movement_modifier: int = 0
    done: bool = False
    must_test: str = ""
    """Why the side must test its Will to Fight this turn (empty: it need not), MC-9."""
    defeated: bool = False
    last_seen: Mapping[str, str] = field(default_factory=dict)
    """Enemy Forces this side saw and no longer sees: Force key -> square."""
    camp: str = ""
    """Its camp (RU-19); empty: its own."""
    supply_income: int = 0
    """Supply points received each turn when the supply setting is on (FC-2)."""
    purchases: tuple[SupplyPurchase, ...] = ()
    """What the side bought with supply this turn (FC-2); done with in Phase 7."""
    recruits: tuple[Recruit, ...] = ()
    """The new units it may still buy (FC-2, RU-24), in the scenario's order; one bought leaves the pool."""


@dataclass(frozen=True, slots=True)
class OrderPayload:
    """A Force test taken in Phase 1 (MC-4): the order it tested for and its roll (a scout's re-roll, FC-3,
    once made)."""

    order: Order
    roll: Roll


@dataclass(frozen=True, slots=True)
class MovePayload:
    """A move declared in Phase 2 (MC-5.1, MC-5.3): its path, the squares its roll allows, the roll."""

    path: tuple[str, ...]
    allowance: int
    roll: Roll
    start: str | None = None
    """Where the Force stood when it declared (None: declared by a bot that did not keep it)."""
    by_water: bool = False
    small_boats: bool = False
    """By water: it sails in boats smaller than ships (MC-5.3), for a scout's re-roll (FC-3)."""
    horse_rafts: bool = False
    """By water: it carries its horses on rafts (MC-5.3)."""


@dataclass(frozen=True, slots=True)
class Declaration:
    """An order or move declared this phase (private until the phase resolves)."""

    turn: int
    phase: Phase
    force: str
    side: str
    kind: DeclarationKind
    payload: OrderPayload | MovePayload


@dataclass(frozen=True, slots=True)
class Scouting:
    """Phase 3 scouting of a battle (MC-6.1, RU-5): each side's best exploration score, and the contest's
    winner once every side has scouted."""

    scores: Mapping[str, int] = field(default_factory=dict)
    decided: bool = False
    """Every side has scouted and the contest is decided."""
    winner: str | None = None
    """The side that deploys second and sees the enemy (None: a tie, or not decided)."""


@dataclass(frozen=True, slots=True)
class Commander:
    """The leader who led a Force in a battle (RU-18)."""

    key: str
    name: str


@dataclass(frozen=True, slots=True)
class DisputeChoices:
    """The GM's choices so far in a disputed report (BR): for the claims whose fingerprint is ``of``, the
    camp taken for each differing field (by the field's index)."""

    of: str
    fields: Mapping[int, str] = field(default_factory=dict)


@dataclass(frozen=True, slots=True)
class Aftermath:
    """What a battle keeps between its report and its end: the camps' claims and the GM's draft while it is
    pending (BR), then Phase 4's progress (:mod:`bot.campaign.aftermath`)."""

    sp_before: Mapping[str, int] = field(default_factory=dict)
    """The units' SP as they fought, by unit key (empty: not reported)."""
    commanders: Mapping[str, Commander] | None = None
    """Who led each Force, by Force key (None: reported before they were kept, RU-18)."""
    rolled: Mapping[str, bool] = field(default_factory=dict)
    """Each side's wounded and deserter checks made (MC-7.1, MC-7.2)."""
    retreats: Mapping[str, str | None] = field(default_factory=dict)
    """Forces that must leave the square, and where they went (MC-7.3)."""
    fates: Mapping[str, LeaderStatus | None] = field(default_factory=dict)
    """Fallen leaders by name and their fate (None: still to roll, CC-1)."""
    trophies: Mapping[tuple[str, str], bool | None] = field(default_factory=dict)
    """Eligible trophy attempts, (captor, victim) unit keys, and whether the trophy was taken (None: still to
    roll, CC-3)."""
    claims: Mapping[str, BattleReport] = field(default_factory=dict)
    """Each side's own part of the report (:mod:`bot.campaign.claims`), while the battle is pending."""
    draft: BattleReport | None = None
    """The GM's report, previewed and waiting for "Confirm the report"."""
    taken: DisputeChoices | None = None
    """The GM's choices in a disputed report (:mod:`bot.campaign.disputes`)."""
    agreed: tuple[str, ...] = ()
    """The sides that agreed to resolve the battle quickly (RU-27)."""
    outcomes: Mapping[str, Outcome] | None = None
    """A past turn's battle (a frame's, :func:`bot.campaign.frames.at`): its outcomes as the frame kept them,
    in place of its report. Never stored."""


NO_AFTERMATH = Aftermath()
NOT_SCOUTED = Scouting()


@dataclass(frozen=True, slots=True)
class Battle:
    number: int
    turn: int
    square: str
    forces: tuple[str, ...]
    sides: tuple[str, ...]
    status: BattleStatus = BattleStatus.PENDING
    report: BattleReport | None = None
    scouting: Scouting = NOT_SCOUTED
    aftermath: Aftermath = NO_AFTERMATH
    """The claims, then Phase 4's progress: see :class:`Aftermath`."""


@dataclass(frozen=True, slots=True)
class GloryEntry:
    """One credit or debit of a side's Glory (CC-4)."""

    side: str
    turn: int
    amount: int
    reason: str
    kind: str = "award"
    rule: str = "CC-4"
    battle: int | None = None
    subject: str = ""


@dataclass(frozen=True, slots=True)
class LeaderEvent:
    """A change of a leader's status (CC-1, CC-2, RU-18)."""

    leader: str
    turn: int
    status: LeaderStatus
    reason: str


@dataclass(frozen=True, slots=True)
class JoinRequest:
    """A member's request to play a side, waiting for the GM (the bot setting ``join_approval``)."""

    member: int
    side: str
    name: str = ""
    """The member's name when they asked (for the log when the GM answers)."""


@dataclass(frozen=True, slots=True)
class TurnSeed:
    """The secret seed of a turn: its hash is public, the seed once revealed (docs/dice.md)."""

    turn: int
    seed_hex: str
    sha256: str
    revealed: bool = False
    chain_head: str | None = None
    reseeded_after: str | None = None


@dataclass(frozen=True)
class CampaignState:
    id: int
    name: str
    turn: int
    phase: Phase
    status: CampaignStatus
    settings: Settings
    climate: Climate
    theatre: str
    start_date: dt.date
    map: CampaignMap
    sight: int
    gm_id: int
    gm_role_id: int | None
    weather: str | None
    holdings: Mapping[str, str]
    """Strongholds held by a side other than their owner: square -> holding side (MC-9)."""
    sides: Mapping[str, SideState]
    forces: Mapping[str, ForceState]
    leaders: Mapping[str, LeaderState]
    """Every leader, by key (in command or not)."""
    declarations: tuple[Declaration, ...] = ()
    """The current turn's declarations."""
    battles: Mapping[int, Battle] = field(default_factory=dict)
    glory: tuple[GloryEntry, ...] = ()
    leader_events: tuple[LeaderEvent, ...] = ()
    seeds: Mapping[int, TurnSeed] = field(default_factory=dict)
    players: Mapping[int, str] = field(default_factory=dict)
    """Member id -> side key."""
    requests: Mapping[int, JoinRequest] = field(default_factory=dict)
    """Members who asked to join a side and wait for the GM's answer (not players yet), by member id."""
    options: Mapping[str, Any] = field(default_factory=dict)
    """The campaign row's options as stored (rule options and the bot's own, under ``_``)."""
    last_turn: int | None = None
    """The scenario's last turn: once it is over, the campaign ends (a draw if several camps stand, RU-25)."""
    tables: ScenarioTables = NO_TABLES
    """The scenario's own weather, calendar and random-events tables (RU-10): :func:`.rulebook.rules_for`."""
    names: Mapping[str, Mapping[str, str]] = field(default_factory=dict)
    """The scenario's names in other languages (issue 23, item 4): ``title``, ``side:KEY``, ``force:KEY``,
    ``place:SQUARE`` -> language -> name; said to each reader in theirs (:mod:`bot.i18n.names`)."""

    # --- reading -------------------------------------------------------------------------------

    @property
    def position(self) -> TurnPosition:
        return TurnPosition(self.turn, self.phase)

    @cached_property
    def camps(self) -> Camps:
        """Who is allied with whom (RU-19): every side its own camp unless the scenario says otherwise."""
        return Camps({k: s.camp or k for k, s in self.sides.items()})

    @cached_property
    def played_sides(self) -> frozenset[str]:
        """The sides some member plays."""
        return frozenset(self.players.values())

    @cached_property
    def commanders(self) -> Mapping[str, LeaderState]:
        """The leader in command of each Force, by Force key."""
        return {ld.force: ld for ld in self.leaders.values() if ld.force is not None}

    def commander(self, force: str) -> LeaderState | None:
        return self.commanders.get(force)

    def active(self) -> list[ForceState]:
        return [f for f in self.forces.values() if f.active]

    def side_forces(self, side: str) -> list[ForceState]:
        return [f for f in self.forces.values() if f.side == side]

    def engine_force(self, key: str) -> Force:
        """The rules engine's view of a Force."""
        f = self.forces[key]
        ld = self.commander(key)
        return Force(
            id=f.key, name=f.name, side=f.side,
            square=Square.parse(f.square) if f.square else Square(0, 0),
            leader=Leader(ld.name, ld.cv, ld.status) if ld else Leader("(no leader)", 0),
            units=tuple(u.engine() for u in f.units), order=f.order, reaction=f.reaction, scouts=f.scouts,
        )

    def find_force(self, text: str) -> ForceState | None:
        """A Force by key or (case-insensitive) name, as a member types it."""
        t = text.strip()
        if t in self.forces:
            return self.forces[t]
        low = t.lower()
        return next((f for f in self.forces.values() if f.name.lower() == low), None)

    def purchases_of(self, side: str) -> tuple[SupplyPurchase, ...]:
        """What ``side`` bought with supply in this turn's Phase 1 (FC-2)."""
        return tuple(p for p in self.sides[side].purchases if p.turn == self.turn)

    def declarations_of(self, phase: Phase, kind: DeclarationKind) -> list[Declaration]:
        return [d for d in self.declarations if d.turn == self.turn and d.phase is phase and d.kind is kind]

    def turn_battles(self, *, status: BattleStatus | None = None) -> list[Battle]:
        return [b for b in self.battles.values() if b.turn == self.turn and (status is None or b.status is status)]

    def standing_sides(self) -> list[SideState]:
        return [s for s in self.sides.values() if not s.defeated]

    @property
    def weather_now(self) -> str | None:
        """The weather in force (RU-10): the last roll while the weather setting is on, none once the GM turned
        it off (RU-22: a setting governs every roll that follows)."""
        return self.weather if self.settings.weather else None

    def event_modifier(self, side: str) -> int:
        """The movement modifier of ``side``'s last random event (RU-10), while random events are on (RU-22)."""
        return self.sides[side].movement_modifier if self.settings.random_events else 0

    def seed(self, turn: int | None = None) -> TurnSeed | None:
        return self.seeds.get(self.turn if turn is None else turn)

    # --- changing ------------------------------------------------------------------------------

    def evolve(self, **changes: Any) -> CampaignState:
        return replace(self, **changes)

    def with_forces(self, changed: Mapping[str, ForceState] | Iterable[ForceState]) -> CampaignState:
        items = changed.values() if isinstance(changed, Mapping) else changed
        return replace(self, forces={**self.forces, **{f.key: f for f in items}})

    def with_force(self, key: str, **changes: Any) -> CampaignState:
        return self.with_forces([replace(self.forces[key], **changes)])

    def with_sides(self, changed: Iterable[SideState]) -> CampaignState:
        return replace(self, sides={**self.sides, **{s.key: s for s in changed}})

    def with_side(self, key: str, **changes: Any) -> CampaignState:
        return self.with_sides([replace(self.sides[key], **changes)])

    def with_leaders(self, changed: Iterable[LeaderState]) -> CampaignState:
        return replace(self, leaders={**self.leaders, **{ld.key: ld for ld in changed}})

    def with_battle(self, battle: Battle) -> CampaignState:
        return replace(self, battles={**self.battles, battle.number: battle})

    def with_seed(self, seed: TurnSeed) -> CampaignState:
        return replace(self, seeds={**self.seeds, seed.turn: seed})

    def with_unit(self, force: str, unit: UnitState) -> CampaignState:
        return self.with_forces([self.forces[force].with_units({unit.key: unit})])

    def plus_glory(self, *entries: GloryEntry) -> CampaignState:
        return replace(self, glory=(*self.glory, *entries))

    def plus_leader_events(self, *events: LeaderEvent) -> CampaignState:
        return replace(self, leader_events=(*self.leader_events, *events))

