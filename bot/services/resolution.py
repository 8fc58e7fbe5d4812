"""Resolve the current phase (MC-3) and start the next; undo the last resolution.

Resolution is atomic and idempotent: the caller passes the campaign version it saw; inside one
transaction, with the campaign row locked, a different version means somebody resolved (or undid)
first and the call is refused with :class:`AlreadyResolved`. The state before is kept as a
snapshot for undo. Phases that need nobody (the bot's phases, and battle phases without battles)
are resolved in the same step, up to the next phase that waits for people or the start of a turn.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from sqlalchemy import update
from sqlmodel import delete, select
from sqlmodel.ext.asyncio.session import AsyncSession

from bot.engine.attrition import force_attrition
from bot.engine.dice import roll_key
from bot.engine.errors import RuleViolation
from bot.engine.model import Climate, Order, Square
from bot.engine.movement import DeclaredMove, InitiativeResult, resolve_movement, roll_initiative
from bot.engine.phases import Phase, PhaseFacts, TurnPosition, next_position, pending, require_can_end
from bot.engine.rolls import Roll
from bot.engine.seasons import Reinforcement, reinforcement_arrivals, roll_event, roll_weather, season_of, turn_date
from bot.engine.tables import RuleBook, default_rulebook
from bot.engine.text import Msg
from bot.engine.will import Holding, Tallies, WillTriggers, all_forces_lost, will_to_fight
from bot.store.db import Database
from bot.store.dump import PHASE_STATE, restore_campaign_fields, restore_tables, snapshot_state, table_name
from bot.store.models import BattleRow, Campaign, Declaration, LogEntry, SideRow, Snapshot, TurnSeed

from . import faults, sight
from .actors import Actor, require_gm
from .cc import return_leaders
from .errors import AlreadyResolved, NotFound
from .loading import State, get_campaign, load_state, turn_dice
from .logbook import log_event, log_roll, publish_chain_head

SNAPSHOTS_KEPT = 20


@dataclass
class Resolution:
    """What a resolution did, for the channel."""

    campaign_id: int
    before: TurnPosition
    after: TurnPosition
    version: int
    events: list[str] = field(default_factory=list)
    """The public lines: what every side may see (:mod:`.sight`)."""
    private: dict[str, list[str]] = field(default_factory=dict)
    """Each side's own lines, by side key: what only it (or only some sides) may see."""
    rolls: list[Roll] = field(default_factory=list)
    battles: list[int] = field(default_factory=list)
    turn_ended: bool = False


async def phase_facts(s: AsyncSession, campaign: Campaign, state: State | None = None) -> PhaseFacts:
    """What the current phase still waits for, from the rows."""
    state = state or await load_state(s, campaign)
    sides = tuple(k for k, sd in state.sides.items() if not sd.defeated)
    done = frozenset(k for k, sd in state.sides.items() if sd.done)
    battles: list[BattleRow] = []
    if campaign.phase in (Phase.BATTLE, Phase.AFTERMATH):  # only these phases wait on battles
        battles = list((await s.exec(select(BattleRow).where(BattleRow.campaign_id == campaign.id,
                                                             BattleRow.turn == campaign.turn))).all())
    unreported = tuple(str(b.number) for b in battles if b.state == "pending")
    aftermath_due: list[tuple[str, str]] = []
    retreats_due: list[tuple[str, str]] = []
    for b in battles:
        if b.state != "reported":
            continue
        rolled = b.aftermath.get("rolled", {})
        aftermath_due += [(side, str(b.number)) for side in b.side_keys if not rolled.get(side)]
        for fkey, dest in b.aftermath.get("retreats", {}).items():
            if dest is None and fkey in state.forces and state.forces[fkey].state == "active":
                retreats_due.append((state.forces[fkey].side_key, state.forces[fkey].name))
    return PhaseFacts(sides, done, unreported, tuple(aftermath_due), tuple(retreats_due))


async def resolve_phase(db: Database, campaign_id: int, actor: Actor, *, expected_version: int,
                        forced: bool = False, rules: RuleBook | None = None) -> Resolution:
    """GM (or the deadline, with ``actor`` the GM): resolve the current phase and start the next."""
    rules = rules or default_rulebook()
    async with db.transaction() as s:
        campaign = await get_campaign(s, campaign_id, lock=True)
        require_gm(campaign, actor)
        if campaign.status != "active":
            raise RuleViolation("The campaign {name!r} has ended.", name=campaign.name)
        if campaign.version != expected_version:
            raise AlreadyResolved(
                "This phase was already resolved (or undone) by someone else: the campaign is now at {turnposition}.", turnposition=TurnPosition(campaign.turn, Phase(campaign.phase))
            )
        before = TurnPosition(campaign.turn, Phase(campaign.phase))
        state = await load_state(s, campaign)
        require_can_end(before.phase, await phase_facts(s, campaign, state), forced=forced)
        s.add(Snapshot(campaign_id=campaign.id, version=campaign.version, turn=campaign.turn, phase=campaign.phase,
                       state=await snapshot_state(s, campaign)))
        campaign.version += 1
        result = Resolution(campaign_id, before, before, campaign.version)
        while True:
            await _resolve_one(s, campaign, rules, result)
            if faults.armed("resolution"):
                await s.flush()  # push the half-done work to the database, uncommitted, before the crash test
                faults.checkpoint("resolution")
            nxt = next_position(TurnPosition(campaign.turn, Phase(campaign.phase)), campaign.options)
            if nxt.turn != campaign.turn:
                await _end_turn(s, campaign, result)
            campaign.turn, campaign.phase = nxt.turn, int(nxt.phase)
            await s.flush()
            await s.exec(update(SideRow).where(SideRow.campaign_id == campaign.id).values(done=False))  # type: ignore[call-overload]
            if not await _runs_by_itself(s, campaign):
                break
        from .maps import record_sightings

        record_sightings(await load_state(s, campaign))
        result.after = TurnPosition(campaign.turn, Phase(campaign.phase))
        clear_deadline(campaign)
        await log_event(s, campaign, Msg("Now: {after}.", after=str(result.after)))
        s.add(campaign)
        await _trim_snapshots(s, campaign_id)
        return result


def clear_deadline(campaign: Campaign) -> None:
    """A phase's deadline and its reminders end with the phase."""
    campaign.deadline = None
    if "_reminded" in campaign.options:
        campaign.options = {k: v for k, v in campaign.options.items() if k != "_reminded"}


async def _runs_by_itself(s: AsyncSession, campaign: Campaign) -> bool:
    """Whether the phase just entered needs nobody: the bot's phases (but a new turn waits for the GM at its
    start), and the battle phases when there is no battle."""
    phase = Phase(campaign.phase)
    if phase is Phase.WEATHER or (phase is Phase.ORDERS and not campaign.options.get("weather", True)):
        return False
    if phase.spec.actor == "bot":
        return True
    if phase in (Phase.BATTLE, Phase.AFTERMATH):
        return not pending(phase, await phase_facts(s, campaign))
    return False


async def _resolve_one(s: AsyncSession, campaign: Campaign, rules: RuleBook, out: Resolution) -> None:
    handler = {
        Phase.WEATHER: _weather, Phase.ORDERS: _orders, Phase.MOVEMENT: _movement, Phase.BATTLE: _battle,
        Phase.AFTERMATH: _aftermath, Phase.WILL_TO_FIGHT: _will_to_fight, Phase.TIME: _time,
        Phase.REINFORCEMENTS: _reinforcements, Phase.EVENTS: _events,
    }[Phase(campaign.phase)]
    await handler(s, campaign, rules, out)


# --- phase handlers -------------------------------------------------------------------------


async def _public_roll(s: AsyncSession, campaign: Campaign, roll: Roll, out: Resolution) -> None:
    out.rolls.append(roll)
    await log_roll(s, campaign, roll)


async def _say(s: AsyncSession, campaign: Campaign, text: str, out: Resolution, *, visibility: str = "public") -> None:
    if visibility == "public":
        out.events.append(text)
    elif visibility.startswith("side:"):
        out.private.setdefault(visibility.removeprefix("side:"), []).append(text)
    await log_event(s, campaign, text, visibility=visibility)


async def _tell(s: AsyncSession, campaign: Campaign, told: list[sight.Notice], out: Resolution) -> None:
    """Say each reader's part of what happened, as fog of war allows (:func:`sight.tell`)."""
    for notice in told:
        await _say(s, campaign, notice.text, out, visibility=notice.visibility)


async def _weather(s: AsyncSession, campaign: Campaign, rules: RuleBook, out: Resolution) -> None:
    date = turn_date(campaign.start_date, campaign.turn, rules=rules)
    season = season_of(date, rules=rules)
    dice = await turn_dice(s, campaign)
    w = roll_weather(Climate(campaign.climate), season, dice, roll_key(campaign.turn, 0, "campaign", "weather"), rules=rules)
    campaign.weather = w.kind.name
    await _public_roll(s, campaign, w.roll, out)
    mod = Msg(", movement {value:+d}", value=w.kind.movement) if w.kind.movement else ""
    await _say(s, campaign, Msg("Weather (house rule RU-10): {weather}{mod}, wind {wind}.", weather=w.kind.label, mod=mod,
                                wind=w.kind.wind), out)


async def _declarations(s: AsyncSession, campaign: Campaign, phase: Phase, kind: str) -> list[Declaration]:
    return list((await s.exec(select(Declaration).where(
        Declaration.campaign_id == campaign.id, Declaration.turn == campaign.turn, Declaration.phase == int(phase),
        Declaration.kind == kind).order_by(Declaration.id))).all())


async def _orders(s: AsyncSession, campaign: Campaign, rules: RuleBook, out: Resolution) -> None:
    """Phase 1 ends: each Force test's result takes effect (MC-4, RU-3)."""
    from bot.engine.force_test import apply_force_test

    state = await load_state(s, campaign)
    for d in await _declarations(s, campaign, Phase.ORDERS, "order"):
        row = state.forces.get(d.force_key)
        if row is None or row.state != "active":
            continue
        result = apply_force_test(state.force(row.key), Order(d.payload["order"]), Roll.from_dict(d.payload["roll"]))
        row.order = result.force.order.value
        row.reaction = result.force.reaction.value if result.force.reaction else None
        if result.removed:
            seen_by = sight.seers(state, row.square, also=[row.side_key])
            row.state = "removed"
            side = state.sides[row.side_key]
            side.must_test = Msg("a Force test ended in disaster (MC-4)")
            for other in state.active():
                if other.side_key == row.side_key and other.key != row.key:
                    other.wtf_marker = True
                    s.add(other)
            s.add(side)
            await _tell(s, campaign, sight.tell(
                state, Msg("{force} ({side}) loses control, routs and is removed from the map (MC-4); {side} must test "
                           "its Will to Fight this turn (MC-9).", force=row.name, side=side.name), seen_by=seen_by,
                public=Msg("A Force of {side} loses control, routs and is removed from the map (MC-4); {side} must test "
                           "its Will to Fight this turn (MC-9).", side=side.name)), out)
        s.add(row)
    # Each side's own tests are its own business: the public line does not count them.
    await _say(s, campaign, Msg("Phase 1 resolved: the Force tests taken take effect."), out)


async def _movement(s: AsyncSession, campaign: Campaign, rules: RuleBook, out: Resolution) -> None:
    """Phase 2 ends: every declared move is followed square by square (RU-13, or by initiative RU-4)."""
    state = await load_state(s, campaign)
    dice = await turn_dice(s, campaign)
    active = {f.key: state.force(f.key) for f in state.active()}
    moves: dict[str, DeclaredMove] = {}
    for d in await _declarations(s, campaign, Phase.MOVEMENT, "move"):
        if d.force_key not in active:
            continue
        f = active[d.force_key]
        moves[d.force_key] = DeclaredMove(
            f.id, f.side, f.square, tuple(Square.parse(p) for p in d.payload["path"]), int(d.payload["allowance"]),
            Roll.from_dict(d.payload["roll"]), bool(d.payload.get("by_water")),
        )
    order = None
    if campaign.options.get("movement_order") == "initiative":
        highest: dict[str, int] = {}
        for f in active.values():
            highest[f.side] = max(highest.get(f.side, -99), f.leader.cv)
        ini: InitiativeResult = roll_initiative(highest, dice, roll_key(campaign.turn, 2, "campaign", "initiative"))
        for r in ini.rolls:
            await _public_roll(s, campaign, r, out)
        order = list(ini.order)
        await _say(s, campaign, "Initiative (RU-4): " + ", ".join(state.sides[k].name for k in order) + " move in this order.", out)
    outcome = resolve_movement(active.values(), moves, side_order=order)
    for key, sq in outcome.positions.items():
        row = state.forces[key]
        row.square = str(sq)
        s.add(row)
    for key, travelled in outcome.travelled.items():
        if not travelled:
            continue
        att = force_attrition(active[key], state.cmap, travelled, dice,
                              roll_key(campaign.turn, 2, f"force:{key}", "attrition"), rules=rules)
        for step in att.steps:
            for r in step.rolls:
                await log_roll(s, campaign, r, visibility=f"side:{active[key].side}")  # type: ignore[arg-type]
        if att.steps:
            for unit in att.force.units:
                for urow in state.units.get(key, []):
                    if urow.key == unit.id:
                        urow.sp = unit.sp
                        s.add(urow)
            lost = active[key].sp - att.force.sp
            await _say(s, campaign, Msg("{force} loses {lost} SP crossing hostile ground (MC-5.2).", force=active[key].name,
                                        lost=lost), out,
                       visibility=f"side:{active[key].side}")
    for key in outcome.collapsed:
        row = state.forces[key]
        seen_by = sight.seers(state, row.square, also=[row.side_key])
        row.state = "removed"
        s.add(row)
        await _tell(s, campaign, sight.tell(state, Msg("{force} was Routed and, contacted by the enemy, collapses: removed "
                                                       "without a battle (MC-2).", force=row.name), seen_by=seen_by), out)
    number = (await s.exec(select(BattleRow.number).where(BattleRow.campaign_id == campaign.id)
                           .order_by(BattleRow.number.desc()))).first() or 0  # type: ignore[union-attr]
    for contact in outcome.battles:
        number += 1
        s.add(BattleRow(campaign_id=campaign.id, number=number, turn=campaign.turn, square=str(contact.square),
                        force_keys=list(contact.force_ids), side_keys=list(contact.sides)))
        out.battles.append(number)
        names = ", ".join(state.forces[k].name for k in contact.force_ids)
        camps = Msg.join(", ", (state.sides[k].name for k in contact.sides))
        # A battle's square and camps are public news; its Forces go to those who see it (its camps among them).
        await _tell(s, campaign, sight.tell(
            state, Msg("Battle {number} at {square}: {names} (MC-6).", number=number, square=contact.square, names=names),
            seen_by=sight.seers(state, str(contact.square), also=contact.sides),
            public=Msg("Battle {number} at {square} between {camps} (MC-6).", number=number, square=contact.square,
                       camps=camps)), out)
    await s.flush()
    await _update_holdings(s, campaign, out)
    await _say(s, campaign, Msg("Phase 2 resolved: {battles} battle(s).", battles=len(outcome.battles)), out)


async def _battle(s: AsyncSession, campaign: Campaign, rules: RuleBook, out: Resolution) -> None:
    """Phase 3 ends when every battle of the turn has its report (checked before resolving)."""
    await _say(s, campaign, "Phase 3 resolved: every battle is reported.", out)


async def _aftermath(s: AsyncSession, campaign: Campaign, rules: RuleBook, out: Resolution) -> None:
    """Phase 4 ends: checks nobody rolled are rolled by the bot (same keyed dice), retreats nobody chose
    go to the first legal square (or the Force surrenders, RU-8), and reactions are applied (MC-7.4)."""
    from .aftermath import finish_battle

    battles = (await s.exec(select(BattleRow).where(BattleRow.campaign_id == campaign.id,
                                                    BattleRow.turn == campaign.turn, BattleRow.state == "reported"))).all()
    for b in battles:
        # What the aftermath does to a battle's Forces goes to those who see the battle (its camps among them),
        # as they stood before it moved them.
        state = await load_state(s, campaign)
        seen_by = sight.seers(state, b.square, also=b.side_keys)
        for text in await finish_battle(s, campaign, b, rules):
            await _tell(s, campaign, sight.tell(state, text, seen_by=seen_by), out)
    await _update_holdings(s, campaign, out)
    await _say(s, campaign, "Phase 4 resolved.", out)


async def _update_holdings(s: AsyncSession, campaign: Campaign, out: Resolution) -> None:
    """Strongholds change hands when only enemy Forces stand in them (MC-9 tallies)."""
    state = await load_state(s, campaign)
    holdings = dict(campaign.holdings)
    for sq, cell in state.cmap.cells.items():
        if cell.stronghold is None:
            continue
        present = {f.side_key for f in state.active() if f.square == str(sq)}
        if len(present) != 1:
            continue
        (holder,) = present
        previous = holdings.get(str(sq), cell.stronghold)
        if holder == previous:
            continue
        if holder == cell.stronghold:
            holdings.pop(str(sq), None)
        else:
            holdings[str(sq)] = holder
        owner = state.sides[cell.stronghold]
        if holder != cell.stronghold:
            owner.must_test = owner.must_test or (
                Msg("it lost its capital at {square} (MC-9)", square=str(sq)) if cell.capital
                else Msg("it lost its stronghold at {square} (MC-9)", square=str(sq)))
            s.add(owner)
        await _say(s, campaign, (Msg("{side} takes the capital at {square}.", side=state.sides[holder].name, square=str(sq))
                                if cell.capital else
                                Msg("{side} takes the stronghold at {square}.", side=state.sides[holder].name,
                                    square=str(sq))), out)
    campaign.holdings = holdings
    # Tallies follow from who holds what (MC-9, RU-14: the engine counts them).
    held = _held(state, holdings)
    for key, side in state.sides.items():
        t = Tallies.of(key, held)
        side.strongholds_taken, side.strongholds_lost = t.strongholds_taken, t.strongholds_lost
        side.holds_enemy_capital, side.lost_capital = t.holds_enemy_capital, t.lost_capital
        s.add(side)


def _held(state: State, holdings: dict[str, str]) -> list[Holding]:
    """The strongholds held by a side other than their owner, as the engine counts them (MC-9)."""
    out = []
    for sq, holder in holdings.items():
        cell = state.cmap.cell(Square.parse(sq))
        if cell.stronghold is not None:
            out.append(Holding(cell.stronghold, holder, cell.capital))
    return out


async def _will_to_fight(s: AsyncSession, campaign: Campaign, rules: RuleBook, out: Resolution) -> None:
    """Phase 5 (MC-9): each side that must, tests; below zero ends its campaign in total defeat."""
    state = await load_state(s, campaign)
    dice = await turn_dice(s, campaign)
    held = _held(state, dict(campaign.holdings))
    for key, side in state.sides.items():
        if side.defeated:
            continue
        lost_all = all_forces_lost(on_map=sum(1 for f in state.active() if f.side_key == key),
                                   to_arrive=sum(1 for f in state.forces.values()
                                                 if f.side_key == key and f.state == "pending"))
        side.must_test = side.must_test or WillTriggers(all_forces_lost=lost_all).why
        if not side.must_test:
            continue
        tallies = Tallies.of(key, held, battles_won=side.battles_won, battles_lost=side.battles_lost)
        roll = will_to_fight(tallies, dice, roll_key(campaign.turn, 5, f"side:{key}", "will-to-fight"),
                             subject=side.name, rules=rules)
        await _public_roll(s, campaign, roll, out)
        await _say(s, campaign, Msg("{side} tests its Will to Fight because {why}: {outcome}.", side=side.name, why=side.must_test,
                                    outcome=roll.label), out)
        if roll.result == "defeat":
            side.defeated = True
        side.must_test = ""
        s.add(side)
    for f in state.forces.values():
        if f.wtf_marker:
            f.wtf_marker = False
            s.add(f)
    standing = [sd for sd in state.sides.values() if not sd.defeated]
    if len(standing) <= 1:
        campaign.status = "ended"
        winner = standing[0].name if standing else "nobody"
        await _say(s, campaign, Msg("The campaign is over: {winner} prevails.", winner=winner), out)


async def _time(s: AsyncSession, campaign: Campaign, rules: RuleBook, out: Resolution) -> None:
    date = turn_date(campaign.start_date, campaign.turn + 1, rules=rules)
    await _say(s, campaign, Msg("Time (house rule RU-10): the calendar advances to {date} ({season}).", date=date.isoformat(),
                                season=season_of(date, rules=rules).value), out)
    state = await load_state(s, campaign)
    for force, line in await return_leaders(s, campaign, state, turn=campaign.turn + 1):
        # RU-18: a wounded leader whose Force fought no battle is back; told to whoever sees the Force
        row = state.forces[force]
        seen_by = sight.seers(state, row.square or "", also=[row.side_key])
        await _tell(s, campaign, sight.tell(state, line, seen_by=seen_by), out)


async def _reinforcements(s: AsyncSession, campaign: Campaign, rules: RuleBook, out: Resolution) -> None:
    """Phase 7: scheduled Forces arrive; one whose square the enemy holds waits (house rule RU-10)."""
    state = await load_state(s, campaign)
    schedule = [Reinforcement(f.arrives_turn, f.side_key, f.key, f.square) for f in state.forces.values()
                if f.state == "pending" and f.arrives_turn is not None and f.square]
    occupied: dict[str, set[str]] = {}
    for o in state.active():
        occupied.setdefault(str(o.square), set()).add(o.side_key)
    arrivals = reinforcement_arrivals(schedule, campaign.turn, occupied)
    for r in arrivals.waiting:
        f = state.forces[r.force_id]
        await _say(s, campaign, Msg("{force} cannot arrive at {square}: the enemy holds it (RU-10).", force=f.name,
                                    square=f.square), out,
                   visibility=f"side:{f.side_key}")
    arrived = [state.forces[r.force_id] for r in arrivals.arriving]
    for f in arrived:
        f.state = "active"
        s.add(f)
    for f in arrived:  # told to the sides that see the square now (its own among them), public if all do
        await _tell(s, campaign, sight.tell(
            state, Msg("{force} arrives at {square} ({side}).", force=f.name, square=f.square,
                       side=state.sides[f.side_key].name),
            seen_by=sight.seers(state, f.square, also=[f.side_key])), out)
    # Whether anything arrived out of sight is nobody else's business: the public line is always the same.
    await _say(s, campaign, Msg("Phase 7 resolved."), out)


async def _events(s: AsyncSession, campaign: Campaign, rules: RuleBook, out: Resolution) -> None:
    """Phase 8 (house rule RU-10): one random event per side."""
    state = await load_state(s, campaign)
    dice = await turn_dice(s, campaign)
    for key, side in state.sides.items():
        if side.defeated:
            continue
        ev = roll_event(dice, roll_key(campaign.turn, 8, f"side:{key}", "event"), subject=side.name, rules=rules)
        await _public_roll(s, campaign, ev.roll, out)
        side.movement_modifier = ev.effect.get("movement", 0)
        side.supply += ev.effect.get("supply", 0)
        forces = sorted((f for f in state.active() if f.side_key == key),
                        key=lambda f: -sum(u.sp for u in state.units.get(f.key, [])))
        if forces and ev.effect.get("scouts"):
            forces[0].scouts += ev.effect["scouts"]
            s.add(forces[0])
        if forces and ev.effect.get("sp_loss"):
            units = sorted(state.units.get(forces[0].key, []), key=lambda u: -u.sp)
            if units:
                units[0].sp = max(0, units[0].sp - ev.effect["sp_loss"])
                s.add(units[0])
        s.add(side)
        await _say(s, campaign, Msg("{side}: {event} (house rule RU-10).", side=side.name, event=ev.roll.label), out)


async def _end_turn(s: AsyncSession, campaign: Campaign, out: Resolution) -> None:
    """The turn ends: its seed is revealed so anyone can verify its rolls."""
    seed = (await s.exec(select(TurnSeed).where(TurnSeed.campaign_id == campaign.id,
                                                TurnSeed.turn == campaign.turn))).first()
    if seed is not None and not seed.revealed:
        seed.revealed = True
        s.add(seed)
        await log_event(s, campaign, Msg("Turn {turn} is over; its dice seed was {seed} (SHA-256 {sha256}). Check every roll "
                                         "with `python -m bot verify`.", turn=campaign.turn, seed=seed.seed_hex,
                                         sha256=seed.sha256),
                        kind="seed", data={"turn": campaign.turn, "seed": seed.seed_hex, "seed_sha256": seed.sha256})
        await publish_chain_head(s, campaign, seed)
    out.turn_ended = True


async def _trim_snapshots(s: AsyncSession, campaign_id: int) -> None:
    ids = (await s.exec(select(Snapshot.id).where(Snapshot.campaign_id == campaign_id)
                        .order_by(Snapshot.id.desc()).offset(SNAPSHOTS_KEPT))).all()  # type: ignore[union-attr]
    if ids:
        await s.exec(delete(Snapshot).where(Snapshot.id.in_(ids)))  # type: ignore[union-attr,call-overload]


# --- undo -----------------------------------------------------------------------------------


async def _keeping_settings(s: AsyncSession, campaign_id: int, tables: dict[str, Any]) -> dict[str, Any]:
    """The snapshot's rows with the bot's settings that live in them as they are now: each side's
    channel and each battle's thread (bookkeeping, not game state; undo restores the game only)."""
    channels = {r.key: r.channel_id for r in (await s.exec(select(SideRow).where(SideRow.campaign_id == campaign_id))).all()}
    threads = {r.number: r.thread_id for r in (await s.exec(select(BattleRow).where(BattleRow.campaign_id == campaign_id))).all()}
    out = dict(tables)
    side, battle = table_name(SideRow), table_name(BattleRow)
    out[side] = [{**row, "channel_id": channels.get(row.get("key"), row.get("channel_id"))} for row in tables.get(side, [])]
    out[battle] = [{**row, "thread_id": threads.get(row.get("number"), row.get("thread_id"))} for row in tables.get(battle, [])]
    return out


@dataclass(frozen=True)
class Undone:
    campaign_id: int
    back_to: TurnPosition
    version: int
    entries_marked: int


@dataclass(frozen=True)
class UndoPreview:
    """What ``/gm undo`` can do, said before the GM tries."""

    back_to: TurnPosition | None
    """Where undoing the last resolution goes back to (None: nothing to undo)."""
    sealed_turn: int | None
    """The last resolution ended this turn and revealed its seed: it cannot be undone."""
    undoable: int
    """How many resolutions can be undone one after the other."""
    earliest: TurnPosition | None
    """The furthest back those undos can go."""


def _position(snap: Snapshot) -> TurnPosition:
    return TurnPosition(snap.state["campaign"]["turn"], Phase(snap.state["campaign"]["phase"]))


async def _undo_points(s: AsyncSession, campaign_id: int) -> tuple[list[Snapshot], set[int]]:
    snaps = list((await s.exec(select(Snapshot).where(Snapshot.campaign_id == campaign_id)
                               .order_by(Snapshot.id.desc()))).all())  # type: ignore[union-attr]
    revealed = set((await s.exec(select(TurnSeed.turn).where(TurnSeed.campaign_id == campaign_id,
                                                            TurnSeed.revealed == True))).all())  # noqa: E712
    return snaps, revealed


async def undo_preview(db: Database, campaign_id: int, actor: Actor) -> UndoPreview:
    """GM: how far back undo can go. A resolution that ended a turn revealed that turn's seed, so
    undoing it would replay the rest of the turn on dice everybody knows: it cannot be undone."""
    async with db.sessions() as s:
        require_gm(await get_campaign(s, campaign_id), actor)
        snaps, revealed = await _undo_points(s, campaign_id)
    undoable = 0
    for snap in snaps:
        if _position(snap).turn in revealed:
            break
        undoable += 1
    return UndoPreview(
        _position(snaps[0]) if snaps else None,
        _position(snaps[0]).turn if snaps and _position(snaps[0]).turn in revealed else None,
        undoable,
        _position(snaps[undoable - 1]) if undoable else None,
    )


async def undo(db: Database, campaign_id: int, actor: Actor, *, expected_version: int) -> Undone:
    """GM: revert the last phase resolution. The log keeps everything, marking what was undone; doing
    the same things again draws the same dice (the rolls are keyed, not counted). A resolution that
    revealed a turn's seed cannot be undone (:func:`undo_preview`)."""
    async with db.transaction() as s:
        campaign = await get_campaign(s, campaign_id, lock=True)
        require_gm(campaign, actor)
        if campaign.version != expected_version:
            raise AlreadyResolved("The campaign changed since you looked (someone resolved or undid a phase): look again.")
        snaps, revealed = await _undo_points(s, campaign_id)
        if not snaps:
            raise NotFound("There is no phase resolution to undo.")
        snap = snaps[0]
        if (sealed := _position(snap).turn) in revealed:
            raise RuleViolation(
                "The last resolution ended turn {turn} and revealed the dice of turn {turn}: undoing it would replay "
                "the rest of that turn on dice everybody knows. Correct the campaign with /gm edit instead.",
                turn=sealed)
        await restore_tables(s, campaign_id, await _keeping_settings(s, campaign_id, snap.state["tables"]), PHASE_STATE)
        # The game goes back; the settings stay as they are now: the options (rule options, RU-22, and the
        # bot's own under "_"), like the language and GM role, which the snapshot does not hold.
        restore_campaign_fields(campaign, {k: v for k, v in snap.state["campaign"].items() if k != "options"})
        entries = (await s.exec(select(LogEntry).where(LogEntry.campaign_id == campaign_id,
                                                       LogEntry.version > snap.version,
                                                       LogEntry.undone == False,  # noqa: E712
                                                       LogEntry.kind != "undo"))).all()
        for e in entries:
            e.undone = True
            s.add(e)
        await s.delete(snap)
        clear_deadline(campaign)
        campaign.version += 1
        s.add(campaign)
        back = TurnPosition(campaign.turn, Phase(campaign.phase))
        await log_event(s, campaign, Msg("The GM undid the last phase resolution: back to {back}. {entries} log entries are marked "
                                         "undone; repeated rolls give the same dice.", back=str(back), entries=len(entries)),
                        kind="undo")
        return Undone(campaign_id, back, campaign.version, len(entries))
