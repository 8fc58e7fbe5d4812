"""What a reader may see of a campaign, as plain frozen values: the answers of the read commands
(status, a side's Forces, a Force, the log's visibilities, Glory, leaders, battles, a battle's brief,
the map's markers), pure functions of a :class:`CampaignState` and a :class:`~.sight.Reader`.

Who sees what is decided in :mod:`.sight` (fog of war) and here, never by the services: a service
loads the state, calls one of these and returns the result. Every result is immutable (frozen
dataclasses, tuples), so a read cache may share it between readers of the same standing.
"""

from __future__ import annotations

import datetime as dt
import heapq
from dataclasses import dataclass, field, replace

from bot.engine.battle import field_works, general_retreat_brief
from bot.engine.cc_model import SPEND_KINDS, Presence
from bot.engine.glory import BattleState, spend_problem, stragglers_allowance
from bot.engine.model import Order, Square
from bot.engine.phases import Phase, PhaseFacts, TurnPosition, pending
from bot.engine.seasons import season_of, turn_date
from bot.engine.tables import RuleBook, default_rulebook
from bot.engine.text import Msg

from .ending import summary
from .events import PUBLIC, battle_visibility, side_visibility
from .glory import ledger, spend_battle_of
from .leaders import leader_command
from .odds import move_result
from .reported import battle_outcomes, kept_report, winner
from .rulebook import rules_for
from .scouting import camp_in_battle
from .sight import GM, Reader, a_force, seers, visible_force_keys, visible_squares
from .state import (
    Battle,
    BattleStatus,
    CampaignState,
    Declaration,
    DeclarationKind,
    ForceState,
    LeaderKind,
    LeaderState,
    MovePayload,
)
from .turn import phase_facts

# --- Forces ----------------------------------------------------------------------------------------


@dataclass(frozen=True)
class UnitView:
    key: str
    name: str
    sp: int
    original_sp: int
    type: str
    quality: str
    mercenary: bool
    flag: bool
    heroic: bool
    out_of_ranks: int = 0
    """SP a reported battle took out of the ranks (killed, routed, withdrawn) whose fate the side's
    aftermath has still to roll (MC-7.1, MC-7.2): part of ``sp`` until then."""


@dataclass(frozen=True)
class ForceView:
    key: str
    name: str
    side: str
    square: str
    own: bool
    """Full detail (the reader's side, or the GM)."""
    sp: int | None = None
    order: str | None = None
    reaction: str | None = None
    scouts: int | None = None
    leader: str | None = None
    leader_cv: int | None = None
    leader_status: str | None = None
    units: tuple[UnitView, ...] = ()
    todo: str = ""


def owns(reader: Reader, force: ForceState) -> bool:
    """Whether the reader knows a Force in full: the GM, or its own side."""
    return reader.gm or force.side == reader.side


def force_view(state: CampaignState, key: str, *, own: bool, todo: str = "") -> ForceView:
    """A Force as a reader sees it: in full (``own``), or its name, side and square only."""
    f = state.forces[key]
    if not own:
        return ForceView(f.key, f.name, f.side, f.square or "", False)
    ld = state.commander(key)
    pending = losses_to_roll(state, f.side)
    units = tuple(UnitView(u.key, u.name, u.sp, u.original_sp, u.type.value, u.quality.value, u.mercenary, u.flag,
                           u.heroic, pending.get(u.key, 0)) for u in f.units)
    return ForceView(
        f.key, f.name, f.side, f.square or "", True, sum(u.sp for u in units), f.order.value,
        f.reaction.value if f.reaction else None, f.scouts, ld.name if ld else None, ld.cv if ld else None,
        ld.status.value if ld else None, units, todo,
    )


def losses_to_roll(state: CampaignState, side: str) -> dict[str, int]:
    """Unit key -> SP out of the ranks in this turn's reported battles whose aftermath ``side`` has not
    rolled yet (MC-7): the report's killed, routed and withdrawn SP (BR)."""
    out: dict[str, int] = {}
    for b in state.turn_battles(status=BattleStatus.REPORTED):
        if side not in b.sides or b.aftermath.rolled.get(side):
            continue
        for part in kept_report(b).sides:
            if part.side == side:
                for ul in part.units:
                    out[ul.unit_id] = out.get(ul.unit_id, 0) + ul.killed + ul.rout + ul.other_order
    return out


def visible_forces(state: CampaignState, reader: Reader) -> frozenset[str]:
    """The keys of the Forces the reader sees (:func:`.sight.visible_force_keys`), to share between reads."""
    return frozenset(visible_force_keys(state, reader))


def force_info(state: CampaignState, reader: Reader, text: str, *,
               visible: frozenset[str] | None = None) -> ForceView | None:
    """The Force named ``text`` (key or name) as the reader sees it; None when the reader does not see
    it (out of sight, off the map) or there is no such Force: the same answer for both (fog of war).
    ``visible``: :func:`visible_forces` for this reader, if already known."""
    f = state.find_force(text)
    if f is None or f.key not in (visible_forces(state, reader) if visible is None else visible):
        return None
    return force_view(state, f.key, own=owns(reader, f))


def declared(state: CampaignState, side: str) -> dict[str, Declaration]:
    """The side's declarations of the current phase (orders or moves), by Force."""
    return {d.force: d for d in state.declarations
            if d.turn == state.turn and d.phase is state.phase and d.side == side}


def todo(phase: Phase, force: ForceState, declaration: Declaration | None) -> str:
    """What a Force still has to do in this phase, for its own side."""
    if phase is Phase.ORDERS:
        return Msg("Force test taken") if declaration else Msg("may change order (/order give)")
    if phase is Phase.MOVEMENT:
        if force.order is Order.DEFEND:
            return Msg("holds the Defend order: does not move")
        if declaration and isinstance(p := declaration.payload, MovePayload):  # where its roll takes it (MC-5)
            return move_result(p.start or str(force.square), p.path, p.allowance)
        return Msg("may move (/order move)")
    return ""


def side_forces(state: CampaignState, side: str) -> tuple[ForceView, ...]:
    """A side's Forces on the map, in full, with what each still has to do this phase."""
    done = declared(state, side)
    return tuple(force_view(state, f.key, own=True, todo=todo(state.phase, f, done.get(f.key)))
                 for f in state.active() if f.side == side)


# --- status --------------------------------------------------------------------------------------


@dataclass(frozen=True)
class Waiting:
    who: str
    what: str


@dataclass(frozen=True)
class StatusView:
    campaign_id: int
    name: str
    position: TurnPosition
    date: dt.date
    season: str
    weather: str | None
    deadline: dt.datetime | None
    version: int
    status: str
    waiting: tuple[Waiting, ...]
    sides: tuple[tuple[str, str, str], ...]
    """(key, name, colour)."""
    reader_side: str | None
    gm: bool
    forces: tuple[ForceView, ...] = field(default=())
    todo: tuple[str, ...] = ()
    """What the phase still waits for from the reader: their side (the GM: the GM), first on their status."""
    ending: str | None = None
    """How the campaign ended (RU-25): the winning camp, or a draw; None while it runs."""
    defeated: tuple[str, ...] = ()
    """The names of the sides in total defeat, out of the campaign (RU-25)."""
    done: tuple[str, ...] = ()
    """The names of the sides that said they are done with this phase (Phases 1 and 2)."""
    counts: tuple[tuple[str, int], ...] | None = None
    """How many Forces of each side the reader sees, when ``forces`` holds only those a status card
    shows (:func:`status_card`); None when ``forces`` holds every Force in sight."""

    def seen_count(self, side: str | None) -> int:
        """How many Forces of ``side`` the reader sees: all of them, not only those in ``forces``."""
        if self.counts is None:
            return sum(1 for f in self.forces if f.side == side)
        return next((n for s, n in self.counts if s == side), 0)


STATUS_FORCES = 10
"""The reader's own Forces a status card shows one a line; past this many, the rest are counted."""
STATUS_NAMES = 3
"""The Forces of each side in sight a status card names; past this many, the rest are counted."""


def facts_for(state: CampaignState, reader: Reader, facts: PhaseFacts) -> PhaseFacts:
    """What a phase waits for, as the reader may know it: a retreat still due names its Force only
    to a reader who sees that Force (the camp's duty to retreat is public, with the battle's outcome)."""
    if reader.gm or not facts.retreats_due:
        return facts
    seen = {state.forces[k].name for k in visible_force_keys(state, reader)}
    due: list[tuple[str, str]] = []
    for side, name in facts.retreats_due:
        item = (side, name if name in seen else a_force())
        if item not in due:
            due.append(item)
    return replace(facts, retreats_due=tuple(due))


def waiting(state: CampaignState, reader: Reader) -> tuple[Waiting, ...]:
    """Who the phase still waits for, and for what, as the reader may know it."""
    return tuple(
        Waiting("GM" if p.who == "gm" else state.sides[p.who].name if p.who in state.sides else p.who, p.what)
        for p in pending(state.phase, facts_for(state, reader, phase_facts(state)))
    )


def _weather_label(rules: RuleBook, kind: str | None) -> str | None:
    """The weather's label (``Overcast``), which the catalogue translates, not its key (``overcast``)."""
    if kind is None:
        return None
    known = rules.weather.kinds.get(kind)
    return known.label if known is not None else kind


def status(state: CampaignState, reader: Reader, *, deadline: dt.datetime | None = None, version: int = 0,
           rules: RuleBook | None = None) -> StatusView:
    """The campaign as the reader sees it: the turn, what the phase still waits for from the reader, who
    else it waits for, the Forces in sight (in full for the reader's own side, with what each declared
    this phase; all of them, in full, for the GM). ``deadline`` and ``version``
    are the bot's bookkeeping, kept with the campaign's row, not in its state."""
    visible = visible_force_keys(state, reader)
    shown = sorted(((k, state.forces[k]) for k in visible), key=lambda kf: (kf[1].side, kf[1].name))
    return _status(state, reader, shown, None, deadline=deadline, version=version, rules=rules)


def status_card(state: CampaignState, reader: Reader, *, deadline: dt.datetime | None = None, version: int = 0,
                rules: RuleBook | None = None) -> StatusView:
    """:func:`status` holding only the Forces a member's status card shows (``/campaign status``): the
    reader's first :data:`STATUS_FORCES` Forces by name, and the first :data:`STATUS_NAMES` of each
    other side in sight (of every side, for the GM), with how many of each side the reader sees
    (``counts``). A side of 1,000 Forces builds 10 views of its own, not 1,000 (issue 26 item 2)."""
    by_side: dict[str, list[tuple[str, ForceState]]] = {}
    if reader.gm or reader.side is not None:  # a member on no side is shown no Force
        for k in visible_force_keys(state, reader):
            f = state.forces[k]
            by_side.setdefault(f.side, []).append((k, f))
    shown: list[tuple[str, ForceState]] = []
    for side in sorted(by_side):
        n = STATUS_FORCES if not reader.gm and side == reader.side else STATUS_NAMES
        # the first n of sorted(), ties kept in the same order: heapq.nsmallest is documented as sorted()[:n]
        shown += heapq.nsmallest(n, by_side[side], key=lambda kf: kf[1].name)
    counts = tuple((side, len(fs)) for side, fs in sorted(by_side.items()))
    return _status(state, reader, shown, counts, deadline=deadline, version=version, rules=rules)


def _status(state: CampaignState, reader: Reader, shown: list[tuple[str, ForceState]],
            counts: tuple[tuple[str, int], ...] | None, *, deadline: dt.datetime | None, version: int,
            rules: RuleBook | None) -> StatusView:
    """:func:`status` and :func:`status_card` with the Forces they show (key and state, in order)."""
    rules = rules_for(state, rules or default_rulebook())  # RU-10: the scenario's own tables
    done = declared(state, reader.side) if reader.side is not None else {}
    forces = tuple(force_view(state, k, own=owns(reader, f), todo=todo(state.phase, f, done[k]) if k in done else "")
                   for k, f in shown)
    me = "gm" if reader.gm else reader.side
    mine = tuple(p.what for p in pending(state.phase, facts_for(state, reader, phase_facts(state)))
                 if me is not None and p.who == me)
    date = turn_date(state.start_date, state.turn, rules=rules)
    return StatusView(
        campaign_id=state.id, name=state.name, position=state.position, date=date,
        season=season_of(date, rules=rules).value, weather=_weather_label(rules, state.weather_now), deadline=deadline,
        version=version,
        status=state.status.value, waiting=waiting(state, reader),
        sides=tuple((k, sd.name, sd.colour) for k, sd in state.sides.items()), reader_side=reader.side,
        gm=reader.gm, forces=forces, todo=mine, ending=summary(state),
        defeated=tuple(sd.name for sd in state.sides.values() if sd.defeated),
        done=tuple(sd.name for sd in state.sides.values() if sd.done), counts=counts,
    )


# --- the log -------------------------------------------------------------------------------------


def log_visibilities(state: CampaignState, reader: Reader) -> frozenset[str] | None:
    """The log visibilities the reader may read (None: all of them, the GM's): public entries, their
    side's own, and the dice of every battle their side fought (``battle:N``, read by its camps)."""
    if reader.gm:
        return None
    if reader.side is None:
        return frozenset({PUBLIC})
    return frozenset({PUBLIC, side_visibility(reader.side)}
                     | {battle_visibility(b.number) for b in state.battles.values() if reader.side in b.sides})


# --- battles -------------------------------------------------------------------------------------


@dataclass(frozen=True)
class BattleLine:
    number: int
    turn: int
    square: str
    sides: tuple[str, ...]
    forces: tuple[str, ...]
    state: str


def battle_lines(state: CampaignState, turn: int | None = None, reader: Reader | None = None) -> tuple[BattleLine, ...]:
    """The battles of a turn (the current one by default) and where each stands. A battle's number,
    square, camps and state are public news; its Forces are named only to ``reader`` when it fought
    there or sees the square (fog of war; no ``reader``: every name, for the bot's own use)."""
    turn = turn or state.turn
    return tuple(
        BattleLine(b.number, b.turn, b.square, tuple(state.sides[k].name for k in b.sides),
                   tuple(state.forces[k].name for k in b.forces) if reader is None or knows_battle(state, b, reader)
                   else (), b.status.value)
        for b in sorted(state.battles.values(), key=lambda b: b.number) if b.turn == turn
    )


def knows_battle(state: CampaignState, battle: Battle, reader: Reader) -> bool:
    """Whether ``reader`` may read a battle's Forces: the GM, its camps, and whoever sees its square."""
    if reader.gm:
        return True
    if reader.side is None:
        return False
    return reader.side in battle.sides or reader.side in seers(state, battle.square)


def battle_sides(state: CampaignState, battle: Battle) -> dict[str, list[str]]:
    """The battle's Forces by side."""
    out: dict[str, list[str]] = {}
    for fkey in battle.forces:
        out.setdefault(state.forces[fkey].side, []).append(fkey)
    return out


REACTION_AT_START = {
    "confused": Msg("all its units start the battle disordered (MC-2)"),
    "unsteady": Msg("all its units start the battle demoralised and disordered (MC-2)"),
}


@dataclass(frozen=True)
class Brief:
    """Everything the tabletop needs to set up a battle."""

    number: int
    square: str
    terrain: str
    features: tuple[str, ...]
    weather: str
    lines: tuple[str, ...]


def leader_line(ld: LeaderState, where: str | None = None) -> str:
    """A leader, his status, and what it means at his Force's next battle (CC-2)."""
    cmd = leader_command(ld)
    args = {"leader": ld.name, "cv": ld.cv, "status": ld.status.value.replace("_", " ")}
    plain = cmd.presence is Presence.COMMANDS and ld.kind is LeaderKind.LEADER
    if where is None:
        return (Msg("  Leader {leader} (CV {cv}), {status}", **args) if plain
                else Msg("  Leader {leader} (CV {cv}), {status}: {meaning}", meaning=Msg.join("; ", cmd.lines()), **args))
    return (Msg("{leader} ({where}, CV {cv}): {status}", where=where, **args) if plain
            else Msg("{leader} ({where}, CV {cv}): {status}; {meaning}", where=where,
                     meaning=Msg.join("; ", cmd.lines()), **args))


def brief(state: CampaignState, battle: Battle, *, rules: RuleBook | None = None) -> Brief:
    """The battle brief (for its camps and the GM): Forces, units and strengths, leaders and what their
    status means here (CC-2), field works (RU-21), terrain, weather, reactions, scouting, the General
    Retreat command modifiers (MC-6.2), Glory to spend (CC-4, RU-17)."""
    rules = rules_for(state, rules or default_rulebook())  # RU-10: the scenario's own tables
    square = Square.parse(battle.square)
    cell = state.map.cell(square)
    weather = rules.weather.kinds.get(state.weather_now or "")
    lines: list[str] = []
    for side in battle.sides:
        lines.append(Msg("**{side}**", side=state.sides[side].name))  # the name in the reader's words
        for fkey in battle.forces:
            f = state.forces[fkey]
            if f.side != side:
                continue
            args = {"force": f.name, "sp": f.sp, "order": f.order.value.replace("_", " ")}
            lines.append(Msg("{force}: {sp} SP, order {order}, {reaction}: {effect}", reaction=f.reaction.value,
                             effect=REACTION_AT_START.get(f.reaction.value, ""), **args) if f.reaction
                         else Msg("{force}: {sp} SP, order {order}", **args))
            works = field_works(state.engine_force(fkey), square, rules=rules) if f.active else None
            if works is not None:
                lines.append(Msg("  {works}", works=works.text))
            for u in f.units:
                marks = [u.quality.value, u.type.value] + ([Msg("mercenary")] if u.mercenary else []) \
                    + ([Msg("Heroic")] if u.heroic else []) + ([] if u.flag else [Msg("no flag")])
                lines.append(Msg("  {unit}: {sp}/{original_sp} SP ({marks})", unit=u.name, sp=u.sp,
                                 original_sp=u.original_sp, marks=Msg.join(", ", marks)))
            ld = state.commander(fkey)
            if ld is not None:
                lines.append(leader_line(ld))
    if battle.scouting.decided:
        winner = battle.scouting.winner
        lines.append(Msg("Scouting (RU-5): {side} wins: deploys second and sees the enemy deployment",
                         side=camp_in_battle(state, battle, winner)) if winner
                     else Msg("Scouting (RU-5): a tie: nobody gains the advantage"))
    else:
        lines.append(Msg("Scouting (RU-5): not complete (/battle scout)."))
    lines.append(general_retreat_brief(rules=rules))
    target = spend_battle_of(state, battle)
    for side in battle.sides:
        book = ledger(state, side)
        name = state.sides[side].name
        if target.state is BattleState.PENDING:
            allowed = stragglers_allowance(book, target)
            lines.append(Msg("{side} has {balance} Glory (Stragglers: {left} more in this battle, at most {limit}: half "
                             "the {held} Glory held when it began; CC-4, RU-17)", side=name, balance=book.balance,
                             left=min(allowed.left, book.balance), limit=allowed.limit, held=allowed.held))
        else:
            lines.append(Msg("{side} has {balance} Glory (CC-4)", side=name, balance=book.balance))
    return Brief(battle.number, battle.square, cell.terrain.value, tuple(sorted(f.value for f in cell.features)),
                 Msg("{weather} (house rule RU-10)", weather=weather.label) if weather else Msg("not rolled"),
                 tuple(lines))


# --- Glory ---------------------------------------------------------------------------------------


@dataclass(frozen=True)
class SideGlory:
    side: str
    name: str
    balance: int
    lines: tuple[str, ...]


def glory_balances(state: CampaignState, reader: Reader = GM) -> tuple[SideGlory, ...]:
    """Each side's Glory and its history (CC-4). Balances are public; an entry of a battle the reader
    may not read (:func:`knows_battle`) shows its amount, battle and rule, not the units or leaders it
    names (fog of war). A side reads its own ledger in full."""
    out = []
    for key, sd in state.sides.items():
        book = ledger(state, key)
        lines = [str(e) if reader.side == key or not _hidden_battle(state, e.battle_id, reader)
                 else Msg("{amount:+d} Glory in battle {battle} ({rule})", amount=e.amount, battle=e.battle_id,
                          rule=e.rule)
                 for e in book.entries]
        lines.append(Msg("Balance: {balance} Glory", balance=book.balance))
        out.append(SideGlory(key, sd.name, book.balance, tuple(lines)))
    return tuple(out)


def _hidden_battle(state: CampaignState, battle_id: str | None, reader: Reader) -> bool:
    battle = state.battles.get(int(battle_id)) if battle_id and battle_id.isdigit() else None
    return battle is not None and not knows_battle(state, battle, reader)


@dataclass(frozen=True)
class GloryBattle:
    """A battle where a side may spend Glory now (RU-17), for the /glory spend suggestions."""

    number: int
    square: str
    sides: tuple[str, ...]
    kinds: tuple[str, ...]
    """The spends the side may make there now."""


def spend_kind(kind: str | None) -> str:
    """A spend's name as typed (``Anti-guerrilla``), as the spends are keyed (``anti_guerrilla``)."""
    return str(kind or "").strip().lower().replace("-", "_").replace(" ", "_")


def glory_battles(state: CampaignState, side: str, kind: str | None = None) -> tuple[GloryBattle, ...]:
    """The battles of this turn where ``side`` may spend Glory now (on ``kind``, or on anything): exactly
    the moments a spend is accepted (RU-17)."""
    wanted = spend_kind(kind)
    kinds = [k for k in SPEND_KINDS if not wanted or k.value == wanted]
    out = []
    for battle in sorted(state.turn_battles(), key=lambda b: b.number):
        b = spend_battle_of(state, battle)
        if side not in b.sides:
            continue
        ok = tuple(k.value for k in kinds if spend_problem(k, side, b, turn=state.turn, phase=state.phase) is None)
        if ok:
            out.append(GloryBattle(battle.number, battle.square, tuple(b.name(k) for k in b.nations), ok))
    return tuple(out)


# --- leaders and trophies ------------------------------------------------------------------------


def known_commanders(state: CampaignState, reader: Reader) -> dict[str, LeaderState]:
    """The leaders in command the reader knows, by Force: their own side's (all for the GM). An enemy's
    leader stays hidden even when his Force is in sight."""
    return {k: ld for k, ld in state.commanders.items()
            if k in state.forces and (reader.gm or (reader.side is not None and state.forces[k].side == reader.side))}


def leader_roster(state: CampaignState, reader: Reader = GM) -> tuple[str, ...]:
    """Each leader in command the reader knows, his status, and what it means at the next battle (CC-2)."""
    return tuple(leader_line(ld, state.forces[fkey].name)
                 for fkey, ld in sorted(known_commanders(state, reader).items()))


@dataclass(frozen=True)
class TrophyAttempt:
    """An attempt a side may roll now (CC-3): in battle ``battle``, its unit ``unit`` tries for the flag
    of the enemy unit ``target`` it eliminated in melee. Keys, as ``/trophy roll`` takes them."""

    battle: int
    unit: str
    unit_name: str
    target: str
    target_name: str


def trophy_attempts(state: CampaignState, side: str) -> tuple[TrophyAttempt, ...]:
    """The trophy attempts ``side`` may roll now: Phase 4, a reported battle of this turn whose report
    made the attempt eligible, not yet rolled, the captor one of the side's units. From the battles'
    state, never from the log."""
    if state.phase is not Phase.AFTERMATH:
        return ()
    units = {u.key: (f, u.name) for f in state.forces.values() for u in f.units}
    out = []
    for b in sorted(state.turn_battles(status=BattleStatus.REPORTED), key=lambda b: b.number):
        for (unit, target), taken in b.aftermath.trophies.items():
            if taken is not None or not target or unit not in units or target not in units:
                continue
            if units[unit][0].side == side:
                out.append(TrophyAttempt(b.number, unit, units[unit][1], target, units[target][1]))
    return tuple(out)


# --- the map -------------------------------------------------------------------------------------


@dataclass(frozen=True)
class Marker:
    """A Force on the map as the reader knows it: its strength, order and reaction only when it is its
    own (or the reader is the GM); ``faded``: where an enemy Force was last seen, not where it is."""

    force: str
    name: str
    side: str
    square: str
    sp: int | None = None
    order: str | None = None
    reaction: str | None = None
    faded: bool = False


@dataclass(frozen=True)
class MoveLine:
    """A move declared this turn, as far as it goes: from ``start`` along ``path``."""

    side: str
    start: str
    path: tuple[str, ...]


@dataclass(frozen=True)
class BattleMark:
    """A battle of the turn on the map (public news): its square and, once reported, the side whose colour
    marks the winner (None for a draw); ``reported`` False while it waits for its report."""

    number: int
    square: str
    winner: str | None = None
    reported: bool = False


@dataclass(frozen=True)
class MapView:
    markers: tuple[Marker, ...]
    moves: tuple[MoveLine, ...]
    battles: tuple[str, ...]
    """The squares of this turn's battles (public news)."""
    results: tuple[BattleMark, ...] = ()
    """This turn's battles with their winners, in battle order."""
    retreats: tuple[MoveLine, ...] = ()
    """This turn's retreats (MC-7.3) the reader may know of: each from its battle's square to where the Force
    went, coloured by the Force's side."""
    visible: frozenset[Square] | None = None
    """The squares the reader sees (:func:`.sight.visible_squares`); None: nothing is veiled."""


def map_view(state: CampaignState, reader: Reader) -> MapView:
    """What a reader's map shows: the Forces they see (a side's, with faded markers where enemies were
    last seen), this turn's moves once Movement is over (their own side's; all for the GM), and the
    battles. A reader on no side sees the map and the battles only."""
    shown = visible_force_keys(state, reader)
    markers = []
    for key in sorted(shown):
        f = state.forces[key]
        own = owns(reader, f)
        markers.append(Marker(key, f.name, f.side, f.square or "A1", f.sp if own else None,
                              f.order.value if own else None, f.reaction.value if own and f.reaction else None))
    if not reader.gm and reader.side is not None:
        for fk, sq in state.sides[reader.side].last_seen.items():
            f = state.forces.get(fk)
            if fk not in shown and f is not None and f.active:
                markers.append(Marker(fk, f.name, f.side, sq, faded=True))
    moves = []
    if state.phase > Phase.MOVEMENT:
        for d in state.declarations_of(Phase.MOVEMENT, DeclarationKind.MOVE):
            if not (reader.gm or d.side == reader.side):
                continue
            p = d.payload
            path = p.path[: p.allowance] if isinstance(p, MovePayload) else ()
            start = p.start if isinstance(p, MovePayload) else None
            if path and start:
                moves.append(MoveLine(d.side, start, path))
    fought = sorted(state.turn_battles(), key=lambda b: b.number)
    results = tuple(BattleMark(b.number, b.square, winner(b), bool(battle_outcomes(b))) for b in fought)
    return MapView(tuple(markers), tuple(moves), tuple(b.square for b in state.turn_battles()), results,
                   retreat_lines(state, reader, fought), visible_squares(state, reader))


def retreat_lines(state: CampaignState, reader: Reader, battles: list[Battle]) -> tuple[MoveLine, ...]:
    """The retreats of ``battles`` the reader was told of (MC-7.3): the GM all; a side those of the battles
    it fought or sees (:func:`.sight.battle_notices`); everybody those every side sees (public news)."""
    out = []
    everyone = frozenset(state.sides)
    for b in battles:
        told = seers(state, b.square, also=b.sides)
        if not (reader.gm or everyone <= told or (reader.side is not None and reader.side in told)):
            continue
        for fk, dest in b.aftermath.retreats.items():
            f = state.forces.get(fk)
            if dest and f is not None and dest != b.square:
                out.append(MoveLine(f.side, b.square, (dest,)))
    return tuple(out)
