"""The turn (MC-3): resolving the current phase and starting the next, pure and synchronous.

:func:`resolve` takes the state, the dice context and whether the GM forces the phase; it returns
the new state and the events, running on through every phase that needs nobody (the bot's phases,
and battle phases without battles) up to the next phase that waits for people or the start of a turn.
"""

from __future__ import annotations

from dataclasses import dataclass, replace

from bot.engine.attrition import force_attrition
from bot.engine.dice import roll_key
from bot.engine.field_commander import overwhelm_check
from bot.engine.force_test import apply_force_test
from bot.engine.model import Square
from bot.engine.movement import DeclaredMove, resolve_movement, roll_initiative
from bot.engine.phases import Phase, PhaseFacts, TurnPosition, next_position, pending, require_can_end
from bot.engine.seasons import Reinforcement, reinforcement_arrivals, roll_event, roll_weather, season_of, turn_date
from bot.engine.text import Msg
from bot.engine.will import Holding, Tallies, WillTriggers, all_forces_lost, stronghold_holder, will_to_fight

from . import ending, leaders, quick, sight
from .aftermath import finish_battle
from .authority import awaited
from .dice import Context, reveal_turn, turn_dice
from .errors import WrongPhase
from .events import Journal, side_visibility
from .leaders import return_leaders
from .rulebook import rules_for
from .settings import BattleMode, MovementOrder
from .state import (
    Battle,
    BattleStatus,
    CampaignState,
    CampaignStatus,
    DeclarationKind,
    ForceStatus,
    MovePayload,
    OrderPayload,
)
from .supply import credit_income


@dataclass(frozen=True)
class Resolved:
    """What a resolution did, for the channel."""

    state: CampaignState
    before: TurnPosition
    after: TurnPosition
    battles: tuple[int, ...] = ()
    turn_ended: bool = False

    @property
    def ended(self) -> bool:
        """The campaign ended with this resolution (RU-25)."""
        return self.state.status is CampaignStatus.ENDED


def phase_facts(state: CampaignState) -> PhaseFacts:
    """What the current phase still waits for."""
    sides = tuple(k for k in state.sides if awaited(state, k))
    done = frozenset(k for k, sd in state.sides.items() if sd.done)
    battles = state.turn_battles() if state.phase in (Phase.BATTLE, Phase.AFTERMATH) else []
    unreported = tuple(str(b.number) for b in battles if b.status is BattleStatus.PENDING)
    aftermath_due: list[tuple[str, str]] = []
    retreats_due: list[tuple[str, str]] = []
    rolls_due: list[tuple[str, str]] = []
    for b in battles:
        if b.status is not BattleStatus.REPORTED:
            continue
        rolled = b.aftermath.rolled
        aftermath_due += [(side, str(b.number)) for side in b.sides if not rolled.get(side) and side in sides]
        for fkey, dest in b.aftermath.retreats.items():
            f = state.forces.get(fkey)
            if dest is None and f is not None and f.status is ForceStatus.ACTIVE and f.side in sides:
                retreats_due.append((f.side, f.name))
        rolls_due += [(side, rule) for side, rule in leaders.rolls_due(state, b) if side in sides]
    battle_due = tuple((side, str(b.number), side in b.scouting.scores) for b in battles
                       if b.status is BattleStatus.PENDING for side in b.sides
                       if side in sides and side not in b.aftermath.claims)
    camps_report = tuple(str(b.number) for b in battles if b.status is BattleStatus.PENDING
                         and all(side in sides for side in b.sides)
                         and set(b.sides) - set(b.aftermath.claims))
    return PhaseFacts(sides, done, unreported, tuple(aftermath_due), tuple(retreats_due), battle_due=battle_due,
                      camps_report=camps_report, rolls_due=tuple(rolls_due))


def awaited_names(state: CampaignState) -> dict[str, str]:
    """How a refusal names who a phase waits for: each side by its name, and the GM."""
    return {"gm": Msg("the GM"), **{k: sd.name for k, sd in state.sides.items()}}


def waiting_for(state: CampaignState) -> tuple[str, ...]:
    """Who the phase waits for now, each once: side keys, and ``"gm"`` for the GM's reports (Phase 3).
    Empty: nothing is pending, the phase can end (a new campaign's Phase 0 waits for the GM's start)."""
    return tuple(dict.fromkeys(p.who for p in pending(state.phase, phase_facts(state))))


def resolve(state: CampaignState, journal: Journal, ctx: Context, *, forced: bool = False) -> Resolved:
    """Resolve the current phase (the GM, or the deadline) and start the next."""
    if state.status is not CampaignStatus.ACTIVE:
        raise WrongPhase("The campaign {name!r} has ended.", name=state.name)
    before = state.position
    require_can_end(before.phase, phase_facts(state), forced=forced, names=awaited_names(state))
    ctx = replace(ctx, rules=rules_for(state, ctx.rules))  # RU-10: the scenario's own tables, for every phase
    battles: list[int] = []
    turn_ended = False
    while True:
        state = ending.settle(destroy_spent(_PHASES[state.phase](state, journal, ctx, battles), journal), journal)
        nxt = next_position(state.position, state.settings.as_options())
        if state.status is CampaignStatus.ACTIVE and nxt.turn != state.turn and state.last_turn is not None \
                and state.turn >= state.last_turn:
            state = ending.end(state, journal, ending.EndReason.LAST_TURN)  # RU-25: the scenario's last turn is over
        if state.status is not CampaignStatus.ACTIVE:  # RU-25: the campaign is over where it ended
            state = reveal_turn(state, journal)
            turn_ended = True
            break
        if nxt.turn != state.turn:
            state = reveal_turn(state, journal)
            turn_ended = True
        state = state.evolve(turn=nxt.turn, phase=nxt.phase, declarations=tuple(
            d for d in state.declarations if d.turn == nxt.turn))
        state = state.with_sides([replace(sd, done=False) for sd in state.sides.values() if sd.done])
        if state.phase is Phase.BATTLE and state.settings.battles is BattleMode.QUICK:
            state = quick.settle_all(state, journal, ctx)  # RU-27: no table, the battles go straight to Phase 4
        if not _runs_by_itself(state):
            break
    state = sight.record_sightings(state)
    after = state.position
    journal.say(state, Msg("Now: {after}.", after=str(after)), data={"position": [after.turn, int(after.phase)]})
    return Resolved(state, before, after, tuple(battles), turn_ended)


def destroy_spent(state: CampaignState, journal: Journal) -> CampaignState:
    """A Force on the map left with no SP in any unit is destroyed (MC-9: a side whose Forces are all
    destroyed is out, RU-25), once it is in no battle still to report or settle; told to the sides that see it.
    Its units may still be bought back (FC-2)."""
    fighting = {k for b in state.turn_battles() if b.status is not BattleStatus.DONE for k in b.forces}
    for f in [f for f in state.active() if f.units and not f.sp and f.key not in fighting]:
        seen_by = sight.seers(state, f.square, also=[f.side])
        state = state.with_force(f.key, status=ForceStatus.REMOVED, wtf_marker=False)
        sight.say(journal, state, sight.tell(state, Msg("{force} ({side}) has no strength left and is destroyed "
                                                        "(MC-9).", force=f.name, side=state.sides[f.side].name),
                                             seen_by=seen_by))
    return state


def _runs_by_itself(state: CampaignState) -> bool:
    """Whether the phase just entered needs nobody: the bot's phases (a new turn's weather too: the turn
    flows on to the orders of its players), and the battle phases when there is nothing to wait for."""
    phase = state.phase
    if phase.spec.actor == "bot":
        return True
    if phase in (Phase.BATTLE, Phase.AFTERMATH):
        return not pending(phase, phase_facts(state))
    return False


# --- the phases ----------------------------------------------------------------------------


def _weather(state: CampaignState, journal: Journal, ctx: Context, _battles: list[int]) -> CampaignState:
    """Phase 0 (house rule RU-10)."""
    rules = ctx.rules
    date = turn_date(state.start_date, state.turn, rules=rules)
    state, dice = turn_dice(state, journal, ctx)
    w = roll_weather(state.climate, season_of(date, rules=rules), dice, roll_key(state.turn, 0, "campaign", "weather"),
                     rules=rules)
    state = state.evolve(weather=w.kind.name)
    journal.roll(state, w.roll)
    mod = Msg(", movement {value:+d}", value=w.kind.movement) if w.kind.movement else ""
    journal.say(state, Msg("Weather (house rule RU-10): {weather}{mod}; {wind}.", weather=w.kind.label, mod=mod,
                           wind=wind_words(w.kind.wind)))
    return state


def wind_words(wind: str) -> Msg:
    """The wind at sea (MC-5.3) as a whole phrase, so each language makes its own agreement ("no wind",
    "pas de vent", "kein Wind"), not "wind none" (issue 23)."""
    if wind == "favourable":
        return Msg("a favourable wind")
    if wind == "contrary":
        return Msg("a contrary wind")
    if wind == "calm":
        return Msg("a dead calm")
    return Msg("no wind")


def _orders(state: CampaignState, journal: Journal, ctx: Context, _battles: list[int]) -> CampaignState:
    """Phase 1 ends: each Force test's result takes effect (MC-4, RU-3)."""
    for d in state.declarations_of(Phase.ORDERS, DeclarationKind.ORDER):
        f = state.forces.get(d.force)
        if f is None or f.status is not ForceStatus.ACTIVE:
            continue
        p = d.payload
        assert isinstance(p, OrderPayload)
        result = apply_force_test(state.engine_force(f.key), p.order, p.roll)
        if not result.removed:
            state = state.with_force(f.key, order=result.force.order, reaction=result.force.reaction)
            continue
        seen_by = sight.seers(state, f.square, also=[f.side])
        side = state.sides[f.side]
        state = state.with_force(f.key, order=result.force.order, reaction=result.force.reaction,
                                 status=ForceStatus.REMOVED)
        state = state.with_side(f.side, must_test=Msg("a Force test ended in disaster (MC-4)"))
        state = state.with_forces([replace(o, wtf_marker=True) for o in state.active()
                                   if o.side == f.side and o.key != f.key])
        sight.say(journal, state, sight.tell(
            state, Msg("{force} ({side}) loses control, routs and is removed from the map (MC-4); {side} must test "
                       "its Will to Fight this turn (MC-9).", force=f.name, side=side.name), seen_by=seen_by,
            public=Msg("A Force of {side} loses control, routs and is removed from the map (MC-4); {side} must test "
                       "its Will to Fight this turn (MC-9).", side=side.name)))
    # Each side's own tests are its own business: the public line does not count them.
    journal.say(state, Msg("Phase 1 resolved: the Force tests taken take effect."))
    return state


def _movement(state: CampaignState, journal: Journal, ctx: Context, battles: list[int]) -> CampaignState:
    """Phase 2 ends: every declared move is followed square by square (RU-13, or by initiative RU-4)."""
    state, dice = turn_dice(state, journal, ctx)
    active = {f.key: state.engine_force(f.key) for f in state.active()}
    moves: dict[str, DeclaredMove] = {}
    for d in state.declarations_of(Phase.MOVEMENT, DeclarationKind.MOVE):
        if d.force not in active:
            continue
        f, p = active[d.force], d.payload
        assert isinstance(p, MovePayload)
        moves[d.force] = DeclaredMove(f.id, f.side, f.square, tuple(Square.parse(sq) for sq in p.path), p.allowance,
                                      p.roll, p.by_water)
    order = None
    if state.settings.movement_order is MovementOrder.INITIATIVE and active:  # RU-4: nobody on the map, nothing to order
        highest: dict[str, int] = {}
        for f in active.values():
            highest[f.side] = max(highest.get(f.side, -99), f.leader.cv)
        ini = roll_initiative(highest, dice, roll_key(state.turn, 2, "campaign", "initiative"))
        for r in ini.rolls:
            journal.roll(state, r)
        order = list(ini.order)
        journal.say(state, Msg("Initiative (RU-4): {sides} move in this order.",
                               sides=Msg.join(", ", (state.sides[k].name for k in order))))
    outcome = resolve_movement(active.values(), moves, side_order=order, camps=state.camps)
    state = state.with_forces([replace(state.forces[k], square=str(sq)) for k, sq in outcome.positions.items()
                               if state.forces[k].square != str(sq)])
    for key, travelled in outcome.travelled.items():
        if not travelled:
            continue
        att = force_attrition(active[key], state.map, travelled, dice,
                              roll_key(state.turn, 2, f"force:{key}", "attrition"), rules=ctx.rules,
                              allies=state.camps.allies_of(active[key].side))
        for step in att.steps:
            for r in step.rolls:
                journal.roll(state, r, visibility=side_visibility(active[key].side))
        if att.steps:
            sp = {u.id: u.sp for u in att.force.units}
            f = state.forces[key]
            state = state.with_forces([replace(f, units=tuple(replace(u, sp=sp.get(u.key, u.sp)) for u in f.units))])
            journal.say(state, Msg("{force} loses {lost} SP crossing hostile ground (MC-5.2).", force=active[key].name,
                                   lost=active[key].sp - att.force.sp), visibility=side_visibility(active[key].side))
    for key in outcome.collapsed:
        f = state.forces[key]
        seen_by = sight.seers(state, f.square, also=[f.side])
        state = state.with_force(key, status=ForceStatus.REMOVED)
        sight.say(journal, state, sight.tell(state, Msg("{force} was Routed and, contacted by the enemy, collapses: "
                                                        "removed without a battle (MC-2).", force=f.name),
                                             seen_by=seen_by))
    before_battles = tuple(state.battles)
    number = max(before_battles, default=0)
    for contact in outcome.battles:
        force_ids, sides = tuple(contact.force_ids), tuple(contact.sides)
        if state.settings.overwhelm:
            state, fought = _overwhelm(state, contact.force_ids, contact.square, journal)
            if not fought:
                continue
            # RU-20: the camps left fight it out; a camp destroyed by FC-1 is no longer in the battle.
            force_ids = tuple(k for k in force_ids if state.forces[k].status is ForceStatus.ACTIVE)
            sides = tuple(sorted({state.forces[k].side for k in force_ids}))
        number += 1
        state = state.with_battle(Battle(number, state.turn, str(contact.square), force_ids, sides))
        battles.append(number)
        names = Msg.join(", ", (state.forces[k].name for k in force_ids))  # each name said in the reader's words
        camps = Msg.join(", ", (state.sides[k].name for k in sides))
        # A battle's square and camps are public news; its Forces go to those who see it (its camps among them).
        sight.say(journal, state, sight.tell(
            state, Msg("Battle {number} at {square}: {names} (MC-6).", number=number, square=contact.square, names=names),
            seen_by=sight.seers(state, str(contact.square), also=sides),
            public=Msg("Battle {number} at {square} between {camps} (MC-6).", number=number, square=contact.square,
                       camps=camps)))
    state = update_holdings(state, journal)
    battles = number - max(before_battles, default=0)
    journal.say(state, Msg.plural(battles, "Phase 2 resolved: {n} battle.", "Phase 2 resolved: {n} battles."))
    return state


def _overwhelm(state: CampaignState, force_ids: tuple[str, ...], square: Square,
               journal: Journal) -> tuple[CampaignState, bool]:
    """FC-1 (a setting, RU-22), when Forces meet: a camp the strongest outnumbers 3 to 1 or more is
    destroyed without a battle (RU-20: each weaker camp against the strongest). Returns whether a
    battle is still fought (two camps or more left)."""
    forces = [state.engine_force(k) for k in force_ids]
    if not any(f.sp for f in forces):
        return state, True  # nothing to compare (FC-1 weighs SP): the camps fight it out at the table
    result = overwhelm_check(forces, camps=state.camps)
    seen_by = sight.seers(state, str(square), also={state.forces[k].side for k in force_ids})
    before = state
    state = state.with_forces([replace(state.forces[k], status=ForceStatus.REMOVED) for k in result.destroyed])
    sight.say(journal, state, sight.tell(before, Msg("Overwhelm check at {square} (FC-1): {text}", square=str(square),
                                                     text=result.text), seen_by=seen_by))
    left = {state.camps.camp_of(state.forces[k].side) for k in force_ids if k not in result.destroyed}
    return state, len(left) >= 2


def _battle(state: CampaignState, journal: Journal, ctx: Context, _battles: list[int]) -> CampaignState:
    """Phase 3 ends when every battle of the turn has its report (checked before resolving)."""
    journal.say(state, Msg("Phase 3 resolved: every battle is reported.") if state.turn_battles()
                else Msg("Phase 3 resolved: no battle this turn."))
    return state


def _aftermath(state: CampaignState, journal: Journal, ctx: Context, _battles: list[int]) -> CampaignState:
    """Phase 4 ends: checks nobody rolled are rolled by the bot (same keyed dice), retreats nobody chose
    go to the first legal square (or the Force surrenders, RU-8), and reactions are applied (MC-7.4)."""
    for b in state.turn_battles(status=BattleStatus.REPORTED):
        # What the aftermath does to a battle's Forces goes to those who see the battle (its camps among
        # them), as they stood before it moved them.
        seen_by = sight.seers(state, b.square, also=b.sides)
        before = state
        state, lines = finish_battle(state, b.number, journal, ctx)
        for text in lines:
            sight.say(journal, state, sight.tell(before, text, seen_by=seen_by), battle=b.number)
    state = update_holdings(state, journal)
    journal.say(state, Msg("Phase 4 resolved."))
    return state


def held(state: CampaignState) -> list[Holding]:
    """The strongholds held by a side other than their owner, as the engine counts them (MC-9)."""
    out = []
    for sq, holder in state.holdings.items():
        cell = state.map.cell(Square.parse(sq))
        if cell.stronghold is not None:
            out.append(Holding(cell.stronghold, holder, cell.capital))
    return out


def update_holdings(state: CampaignState, journal: Journal) -> CampaignState:
    """Strongholds change hands when only enemy Forces stand in them (MC-9 tallies)."""
    holdings = dict(state.holdings)
    present_at: dict[str, set[str]] = {}
    for f in state.active():
        present_at.setdefault(str(f.square), set()).add(f.side)
    sides = dict(state.sides)
    for sq, cell in state.map.cells.items():
        if cell.stronghold is None:
            continue
        present = present_at.get(str(sq), set())
        previous = holdings.get(str(sq), cell.stronghold)
        # RU-19: it changes hands only to a camp hostile to its holder; an ally frees it for its owner.
        holder = stronghold_holder(cell.stronghold, previous, present, camps=state.camps)
        if holder == previous:
            continue
        if holder == cell.stronghold:
            holdings.pop(str(sq), None)
        else:
            holdings[str(sq)] = holder
        owner = sides[cell.stronghold]
        if not state.camps.friendly(holder, cell.stronghold) and not owner.must_test and not owner.defeated:
            sides[owner.key] = replace(owner, must_test=(
                Msg("it lost its capital at {square} (MC-9)", square=str(sq)) if cell.capital
                else Msg("it lost its stronghold at {square} (MC-9)", square=str(sq))))
        journal.say(state, (Msg("{side} takes the capital at {square}.", side=sides[holder].name, square=str(sq))
                            if cell.capital else
                            Msg("{side} takes the stronghold at {square}.", side=sides[holder].name, square=str(sq))))
    if holdings != dict(state.holdings):
        state = state.evolve(holdings=holdings)
    # Tallies follow from who holds what (MC-9, RU-14: the engine counts them).
    h = held(state)
    changed = []
    for key, side in sides.items():
        t = Tallies.of(key, h, camps=state.camps)
        new = replace(side, strongholds_taken=t.strongholds_taken, strongholds_lost=t.strongholds_lost,
                      holds_enemy_capital=t.holds_enemy_capital, lost_capital=t.lost_capital)
        if new != state.sides[key]:
            changed.append(new)
    return state.with_sides(changed) if changed else state


MUST_TEST = ("it lost its capital at {square} (MC-9)", "it lost its stronghold at {square} (MC-9)")
"""Why a side must test its Will to Fight, where the reason names a square (:func:`_will_to_fight` reads
it back from the store as one of these)."""


def _will_to_fight(state: CampaignState, journal: Journal, ctx: Context, _battles: list[int]) -> CampaignState:
    """Phase 5 (MC-9): each side that must, tests; below zero ends its campaign in total defeat."""
    state, dice = turn_dice(state, journal, ctx)
    h = held(state)
    for key in list(state.sides):
        side = state.sides[key]
        if side.defeated:
            continue
        lost_all = all_forces_lost(on_map=sum(1 for f in state.active() if f.side == key),
                                   to_arrive=sum(1 for f in state.forces.values()
                                                 if f.side == key and f.status is ForceStatus.PENDING))
        why = side.must_test or WillTriggers(all_forces_lost=lost_all).why
        if not why:
            continue
        if not isinstance(why, Msg):  # kept as plain English once stored: a message again, said in any language
            why = Msg.reparse(why, MUST_TEST) or why
        tallies = Tallies.of(key, h, battles_won=side.battles_won, battles_lost=side.battles_lost, camps=state.camps)
        roll = will_to_fight(tallies, dice, roll_key(state.turn, 5, f"side:{key}", "will-to-fight"),
                             subject=side.name, rules=ctx.rules)
        journal.roll(state, roll)
        journal.say(state, Msg("{side} tests its Will to Fight because {why}: {outcome}.", side=side.name, why=why,
                               outcome=roll.label))
        state = state.with_side(key, must_test="")
        if roll.result == "defeat":  # RU-25: total defeat, the side leaves the campaign at once
            state = ending.defeat(state, key, journal)
    return state.with_forces([replace(f, wtf_marker=False) for f in state.forces.values() if f.wtf_marker])


def _time(state: CampaignState, journal: Journal, ctx: Context, _battles: list[int]) -> CampaignState:
    date = turn_date(state.start_date, state.turn + 1, rules=ctx.rules)
    journal.say(state, Msg("Time (house rule RU-10): the calendar advances to {date} ({season}).", date=date.isoformat(),
                           season=season_of(date, rules=ctx.rules).value))
    before = state
    state, back = return_leaders(state, journal, turn=state.turn + 1)
    for force, line in back:
        # RU-18: a wounded leader whose Force fought no battle is back; told to whoever sees the Force
        f = before.forces[force]
        sight.say(journal, state, sight.tell(before, line, seen_by=sight.seers(before, f.square or "", also=[f.side])))
    return state


def _reinforcements(state: CampaignState, journal: Journal, ctx: Context, _battles: list[int]) -> CampaignState:
    """Phase 7: scheduled Forces arrive; one whose square the enemy holds waits (house rule RU-10); with the
    supply setting, each side receives its supply income (FC-2)."""
    schedule = [Reinforcement(f.arrives_turn, f.side, f.key, f.square) for f in state.forces.values()
                if f.status is ForceStatus.PENDING and f.arrives_turn is not None and f.square]
    occupied: dict[str, set[str]] = {}
    for o in state.active():
        occupied.setdefault(str(o.square), set()).add(o.side)
    arrivals = reinforcement_arrivals(schedule, state.turn, occupied, camps=state.camps)
    for r in arrivals.waiting:
        f = state.forces[r.force_id]
        journal.say(state, Msg("{force} cannot arrive at {square}: the enemy holds it (RU-10).", force=f.name,
                               square=f.square), visibility=side_visibility(f.side))
    arrived = [r.force_id for r in arrivals.arriving]
    state = state.with_forces([replace(state.forces[k], status=ForceStatus.ACTIVE) for k in arrived])
    for k in arrived:  # told to the sides that see the square now (its own among them), public if all do
        f = state.forces[k]
        sight.say(journal, state, sight.tell(
            state, Msg("{force} arrives at {square} ({side}).", force=f.name, square=f.square,
                       side=state.sides[f.side].name),
            seen_by=sight.seers(state, f.square, also=[f.side])))
    state = credit_income(state, journal)
    # Whether anything arrived out of sight is nobody else's business: the public line is always the same.
    journal.say(state, Msg("Phase 7 resolved."))
    return state


def _events(state: CampaignState, journal: Journal, ctx: Context, _battles: list[int]) -> CampaignState:
    """Phase 8 (house rule RU-10): one random event per side."""
    state, dice = turn_dice(state, journal, ctx)
    for key in list(state.sides):
        side = state.sides[key]
        if side.defeated:
            continue
        ev = roll_event(dice, roll_key(state.turn, 8, f"side:{key}", "event"), subject=side.name, rules=ctx.rules)
        journal.roll(state, ev.roll)
        state = state.with_side(key, movement_modifier=ev.effect.get("movement", 0),
                                supply=side.supply + ev.effect.get("supply", 0))
        forces = sorted((f for f in state.active() if f.side == key), key=lambda f: -f.sp)
        if forces and ev.effect.get("scouts"):
            state = state.with_force(forces[0].key, scouts=forces[0].scouts + ev.effect["scouts"])
        if forces and ev.effect.get("sp_loss"):
            f = state.forces[forces[0].key]
            if f.units:
                biggest = max(f.units, key=lambda u: u.sp)  # the first of the strongest, as listed
                state = state.with_unit(f.key, replace(biggest, sp=max(0, biggest.sp - ev.effect["sp_loss"])))
        journal.say(state, Msg("{side}: {event} (house rule RU-10).", side=side.name, event=ev.roll.label))
    return state


_PHASES = {
    Phase.WEATHER: _weather, Phase.ORDERS: _orders, Phase.MOVEMENT: _movement, Phase.BATTLE: _battle,
    Phase.AFTERMATH: _aftermath, Phase.WILL_TO_FIGHT: _will_to_fight, Phase.TIME: _time,
    Phase.REINFORCEMENTS: _reinforcements, Phase.EVENTS: _events,
}
