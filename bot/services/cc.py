"""C&C campaign use cases: leader fate (CC-1, CC-2), trophies (CC-3) and Glory (CC-4)."""

from __future__ import annotations

import hashlib
from dataclasses import dataclass, replace

from sqlmodel import select
from sqlmodel.ext.asyncio.session import AsyncSession

from bot.engine.cc_model import SPEND_KINDS, Circumstance, Commander, GloryKind, Presence
from bot.engine.dice import roll_key
from bot.engine.errors import InvalidInput, RuleViolation
from bot.engine.glory import (
    BattleState,
    GloryLedger,
    GlorySpent,
    SpendBattle,
    spend_anti_guerrilla,
    spend_heroic,
    spend_leadership,
    spend_ordenanza,
    spend_problem,
    spend_rally,
    spend_stragglers,
)
from bot.engine.glory import (
    GloryEntry as EngineGloryEntry,
)
from bot.engine.glory import spend_battle as engine_spend_battle
from bot.engine.leaders import (
    LeaderFate,
    NextBattleCommand,
    next_battle_command,
    recovered_status,
    roll_leader_fate,
    status_after_turns,
)
from bot.engine.leaders import replacement as replacement_for_fate
from bot.engine.model import LeaderStatus, Outcome, Quality, Unit, UnitType, parse_enum
from bot.engine.phases import Phase
from bot.engine.rolls import BatchRoll, Roll
from bot.engine.text import Msg
from bot.engine.trophies import TrophyResult, roll_trophy
from bot.store.db import Database
from bot.store.models import BattleRow, Campaign, GloryEntry, LeaderEvent, LeaderRow, UnitRow

from .actors import Actor, require_player, standing
from .battles import get_battle
from .errors import NotFound
from .loading import State, get_campaign, load_state, turn_dice
from .logbook import battle_visibility, log_event, log_roll
from .orders import require_phase

# --- leader fate ----------------------------------------------------------------------------

KINDS = {"leader": Commander.LEADER, "new": Commander.NEW_LEADER, "temporary": Commander.TEMPORARY_LEADER}
"""``LeaderRow.kind``: the scenario's leader, or a New or Temporary Leader who took command (CC-2)."""


@dataclass(frozen=True)
class FateOutcome:
    leader: str
    fate: LeaderFate
    replacement: str | None
    lines: tuple[str, ...]


def _no_fate_due(leader: str) -> NotFound:
    """The one refusal for a leader with no fate due, of another side, or of no side at all (fog of war)."""
    return NotFound("{leader!r} has no fate roll due: only leaders reported fallen in a battle of this turn roll (CC-1).",
                    leader=leader.strip()[:40])


def _fate_due(state: State, battles: list[BattleRow], leader: str) -> tuple[BattleRow, str, Circumstance]:
    """The reported battle where ``leader`` fell and is still awaiting his fate roll."""
    for b in battles:
        fates = b.aftermath.get("fates", {})
        for name in fates:
            if name.lower() == leader.strip().lower() and fates[name] is None:
                for side in (b.report or {}).get("sides", []):
                    for c in side.get("leader_casualties", []) or []:
                        if str(c.get("leader", "")).lower() == name.lower():
                            return b, name, parse_enum(Circumstance, c.get("fell", "other"), "circumstance")
    raise _no_fate_due(leader)


async def _reported_battles(s: AsyncSession, campaign: Campaign) -> list[BattleRow]:
    return list((await s.exec(select(BattleRow).where(BattleRow.campaign_id == campaign.id,
                                                      BattleRow.turn == campaign.turn,
                                                      BattleRow.state == "reported"))).all())


async def _fallen(s: AsyncSession, campaign: Campaign, state: State, battle: BattleRow, name: str) -> tuple[str, LeaderRow]:
    """The Force a fallen leader led in the battle and his row, whoever commands that Force now (RU-18)."""
    from .aftermath import commanders

    for fkey, c in (await commanders(s, campaign, state, battle)).items():
        if c["name"] == name:
            row = (await s.exec(select(LeaderRow).where(LeaderRow.campaign_id == campaign.id,
                                                        LeaderRow.key == c["key"]))).first()
            if row is not None:
                return fkey, row
    raise NotFound("There is no leader {name!r} in this campaign.", name=name)


def _new_leader_key(force_key: str, turn: int) -> str:
    """A New Leader's key: the Force's, marked with the turn he took command (at most 32 characters)."""
    suffix = f"-new{turn}"
    if len(force_key) + len(suffix) <= 32:
        return force_key + suffix
    digest = hashlib.sha256(force_key.encode()).hexdigest()[:6]
    return f"{force_key[:32 - len(suffix) - 7]}-{digest}{suffix}"


async def _apply_fate(s: AsyncSession, campaign: Campaign, state: State, battle: BattleRow, name: str,
                      circumstance: Circumstance, designation: UnitType | str | None = None) -> FateOutcome:
    force_key, leader_row = await _fallen(s, campaign, state, battle, name)
    dice = await turn_dice(s, campaign)
    key = roll_key(campaign.turn, Phase.AFTERMATH, f"battle:{battle.number}/leader:{leader_row.key}", "fate")
    fate = roll_leader_fate(name, circumstance, dice, key)
    for r in fate.rolls:
        await log_roll(s, campaign, r, visibility=battle_visibility(battle.number))
    leader_row.status = fate.status.value
    s.add(LeaderEvent(campaign_id=campaign.id, leader_key=leader_row.key, turn=campaign.turn, status=fate.status.value,
                      reason=f"fell in battle {battle.number} ({circumstance.label}): {fate.label} (CC-1)"))
    lines = [Msg("{leader}: {fate} (CC-1).", leader=name, fate=fate.label)]
    replacement = None
    current = state.leaders.get(force_key)
    force = state.forces[force_key]
    # RU-18: the fate is his whoever commands now; a replacement takes over only if he still commands.
    rep = (replacement_for_fate(fate.status, state.force(force_key).units, cv=leader_row.cv, designated=designation)
           if current is not None and current.key == leader_row.key else None)
    if rep is not None and not rep.temporary:
        leader_row.force_key = None
        replacement = f"New Leader ({rep.designated.value}) of {force.name}"[:100]
        s.add(LeaderRow(campaign_id=campaign.id, force_key=force_key, key=_new_leader_key(force_key, campaign.turn),
                        name=replacement, cv=rep.cv, kind="new", designation=rep.designated.value))
        lines.append(Msg("{replacement} takes command of {force}, with {leader}'s Command Value ({rule}).",
                         replacement=replacement, force=force.name, leader=name, rule=rep.rule))
    elif rep is not None:
        leader_row.designation = rep.designated.value
        lines.append(Msg("{leader} misses the next battle of {force}: a Temporary Leader ({kind}) commands it with "
                         "{leader}'s Command Value until he returns ({rule}).", leader=name, force=force.name,
                         kind=rep.designated.value, rule=rep.rule))
    elif fate.status is LeaderStatus.SERIOUS_WOUND:
        lines.append(Msg("{leader} commands from an open carriage until the campaign ends (CC-2).", leader=name))
    if fate.status is LeaderStatus.CAPTURED:
        side = next(sd for sd in battle.side_keys if sd != force.side_key)
        s.add(GloryEntry(campaign_id=campaign.id, side_key=side, turn=campaign.turn, amount=1, kind="award",
                         reason=f"enemy leader {name} captured", rule="CC-4", battle=battle.number))
        lines.append(Msg("{side} gains 1 Glory for capturing {leader} (CC-4).", side=state.sides[side].name, leader=name))
    s.add(leader_row)
    battle.aftermath = {**battle.aftermath, "fates": {**battle.aftermath.get("fates", {}), name: fate.status.value}}
    s.add(battle)
    return FateOutcome(name, fate, replacement, tuple(lines))


async def leader_fate(db: Database, campaign_id: int, actor: Actor, leader: str,
                      circumstance: str | Circumstance | None = None,
                      designation: str | UnitType | None = None) -> FateOutcome:
    """Phase 4: roll a fallen leader's fate (CC-1) and apply his replacement (CC-2, RU-18), designated
    ``designation`` if he needs one (default: the type of the Force's strongest unit)."""
    async with db.transaction() as s:
        campaign = await get_campaign(s, campaign_id, lock=True)
        require_phase(campaign, Phase.AFTERMATH, "Rolling a leader's fate")
        st = await standing(s, campaign, actor)
        state = await load_state(s, campaign)
        battle, name, reported = _fate_due(state, await _reported_battles(s, campaign), leader)
        force_key, _ = await _fallen(s, campaign, state, battle, name)
        if not st.gm and st.side != state.forces[force_key].side_key:  # fog of war: as if he had not fallen
            raise _no_fate_due(leader)
        if circumstance is not None and parse_enum(Circumstance, circumstance, "circumstance") is not reported:
            raise RuleViolation("The report says {name} fell in {label}: the fate uses that table (CC-1).", name=name, label=reported.label)
        out = await _apply_fate(s, campaign, state, battle, name, reported,
                                None if designation is None else parse_enum(UnitType, designation, "designation"))
        await log_event(s, campaign, Msg.join(" ", out.lines))
        return out


async def _set_leader_status(s: AsyncSession, campaign: Campaign, ld: LeaderRow, status: LeaderStatus,
                             reason: str) -> None:
    ld.status = status.value
    if KINDS.get(ld.kind) is Commander.LEADER:
        ld.designation = None  # he commands himself again: nobody stands in for him (CC-2)
    s.add(ld)
    s.add(LeaderEvent(campaign_id=campaign.id, leader_key=ld.key, turn=campaign.turn, status=status.value,
                      reason=reason))


async def leaders_after_battle(s: AsyncSession, campaign: Campaign, state: State, battle: BattleRow) -> list[Msg]:
    """RU-18, when a battle is reported: a leader wounded before it is back, fit (:func:`recovered_status`):
    a Moderate wound missed it (a Temporary Leader stood in), a Light wound fought it."""
    lines = []
    for fkey in battle.force_keys:
        ld = state.leaders.get(fkey)
        if ld is None:
            continue
        before, after = LeaderStatus(ld.status), recovered_status(ld.status)
        if after is before:
            continue
        await _set_leader_status(s, campaign, ld, after, f"back after battle {battle.number} (RU-18)")
        force = state.forces[fkey].name
        lines.append(Msg("{leader} returns from his Moderate wound and takes command of {force} again (RU-18)",
                         leader=ld.name, force=force) if before is LeaderStatus.MODERATE_WOUND
                     else Msg("{leader} of {force} is fit again after his Light wound (RU-18)", leader=ld.name,
                              force=force))
    return lines


async def return_leaders(s: AsyncSession, campaign: Campaign, state: State, *,
                         turn: int) -> list[tuple[str, Msg]]:
    """RU-18, when ``turn`` begins (the Time phase, MC-10): a wounded leader whose Force fought no battle
    since his wound is back once 3 turns have passed (:func:`status_after_turns`). Returns one line per
    leader back, with the Force's key, for the caller to tell as fog of war allows."""
    wounded: dict[str, int] = {}
    for ev in (await s.exec(select(LeaderEvent).where(LeaderEvent.campaign_id == campaign.id)
                            .order_by(LeaderEvent.id))).all():  # type: ignore[arg-type]
        wounded[ev.leader_key] = ev.turn
    lines = []
    for fkey, ld in sorted(state.leaders.items()):
        if ld.key not in wounded or state.forces[fkey].state == "removed":
            continue
        before = LeaderStatus(ld.status)
        after = status_after_turns(before, wounded_turn=wounded[ld.key], turn=turn)
        if after is before:
            continue
        wound = leader_command(ld).label
        await _set_leader_status(s, campaign, ld, after, f"back after {turn - wounded[ld.key]} turns (RU-18)")
        lines.append((fkey, Msg("{leader} is back after {turns} turns, his {wound} healed, and commands {force} again "
                                "(RU-18).", leader=ld.name, turns=turn - wounded[ld.key], wound=wound,
                                force=state.forces[fkey].name)))
    return lines


# --- trophies -------------------------------------------------------------------------------


@dataclass(frozen=True)
class TrophyOutcome:
    battle: int
    result: TrophyResult
    text: str


def _attempt(battle: BattleRow, unit: str, target: str) -> tuple[str, dict[str, bool]]:
    for m in (battle.report or {}).get("melee_eliminations", []) or []:
        if str(m.get("by")) == unit and str(m.get("unit")) == target:
            return f"{unit}>{target}", {"ordered": bool(m.get("ordered")), "took_ground": bool(m.get("took_ground"))}
    raise NotFound("Battle {number}'s report has no melee in which {unit!r} eliminated {target!r} (CC-3).", number=battle.number, unit=unit, target=target)


async def _roll_trophy(s: AsyncSession, campaign: Campaign, state: State, battle: BattleRow, unit: str,
                       target: str) -> TrophyOutcome:
    key, flags = _attempt(battle, unit, target)
    units = {u.key: (fk, u) for fk, rows in state.units.items() for u in rows}
    if unit not in units or target not in units:
        raise NotFound("Unknown unit {unit!r} or {target!r}.", unit=unit, target=target)
    forces = {k: state.force(k) for k in battle.force_keys}
    captor = next(u for f in forces.values() for u in f.units if u.id == unit)
    victim_force = state.force(units[target][0])
    victim = next(u for u in victim_force.units if u.id == target)
    dice = await turn_dice(s, campaign)
    result = roll_trophy(captor, victim, dice,
                         roll_key(campaign.turn, Phase.AFTERMATH, f"battle:{battle.number}/unit:{unit}", f"trophy:{target}"),
                         **flags)
    await log_roll(s, campaign, result.roll, visibility=battle_visibility(battle.number))
    side = state.forces[units[unit][0]].side_key
    text: str = (Msg("{captor} tries for the flag of {victim}: trophy taken!", captor=captor.name, victim=victim.name)
                 if result.taken else
                 Msg("{captor} tries for the flag of {victim}: no trophy.", captor=captor.name, victim=victim.name))
    if result.taken:
        s.add(GloryEntry(campaign_id=campaign.id, side_key=side, turn=campaign.turn, amount=1, kind="award",
                         reason=f"trophy of {victim.name} taken", rule="CC-4", battle=battle.number))
        text = Msg.join(" ", [text, Msg("{side} gains 1 Glory (CC-4).", side=state.sides[side].name)])
    battle.aftermath = {**battle.aftermath, "trophies": {**battle.aftermath.get("trophies", {}), key: result.taken}}
    s.add(battle)
    return TrophyOutcome(battle.number, result, text)


async def trophy_roll(db: Database, campaign_id: int, actor: Actor, battle: int | str, unit: str,
                      target: str) -> TrophyOutcome:
    """Phase 4: a unit that eliminated an enemy in melee tries for its flag (CC-3)."""
    async with db.transaction() as s:
        campaign = await get_campaign(s, campaign_id, lock=True)
        require_phase(campaign, Phase.AFTERMATH, "Trophy rolls")
        side = await require_player(s, campaign, actor)
        row = await get_battle(s, campaign, battle)
        state = await load_state(s, campaign)
        owner = next((fk for fk, rows in state.units.items() for u in rows if u.key == unit), None)
        if owner is None or state.forces[owner].side_key != side:  # fog of war: one answer for any other unit
            raise NotFound("You have no unit {unit!r}.", unit=unit.strip()[:40])
        key, _ = _attempt(row, unit, target)
        pending = row.aftermath.get("trophies", {})
        if key not in pending:
            raise RuleViolation("{unit} cannot take a trophy from {target}: see the battle report's summary (CC-3).", unit=unit, target=target)
        if pending[key] is not None:
            raise RuleViolation("{unit} has already tried for {target}'s flag.", unit=unit, target=target)
        out = await _roll_trophy(s, campaign, state, row, unit, target)
        await log_event(s, campaign, out.text)
        return out


async def roll_pending_fates_and_trophies(s: AsyncSession, campaign: Campaign, state: State,
                                          battle: BattleRow) -> list[str]:
    """End of Phase 4: the bot rolls fates and trophies nobody rolled (same keyed dice)."""
    lines: list[str] = []
    for name, status in list(battle.aftermath.get("fates", {}).items()):
        if status is None:
            _, _, circ = _fate_due(state, [battle], name)
            out = await _apply_fate(s, campaign, state, battle, name, circ)
            lines.append(Msg("Rolled by the bot: {what}", what=Msg.join(" ", out.lines)))
    for key, taken in list(battle.aftermath.get("trophies", {}).items()):
        if taken is None:
            unit, target = key.split(">", 1)
            out2 = await _roll_trophy(s, campaign, state, battle, unit, target)
            lines.append(Msg("Rolled by the bot: {what}", what=out2.text))
    return lines


# --- glory ----------------------------------------------------------------------------------


@dataclass(frozen=True)
class SideGlory:
    side: str
    name: str
    balance: int
    lines: tuple[str, ...]


def _ledger(side: str, rows: list[GloryEntry]) -> GloryLedger:
    return GloryLedger(side, tuple(
        EngineGloryEntry(r.amount, GloryKind(r.kind), r.reason, r.rule, None if r.battle is None else str(r.battle),
                         r.subject, r.turn)
        for r in rows if r.side_key == side
    ))


async def _glory_rows(s: AsyncSession, campaign: Campaign) -> list[GloryEntry]:
    return list((await s.exec(select(GloryEntry).where(GloryEntry.campaign_id == campaign.id)
                              .order_by(GloryEntry.id))).all())  # type: ignore[arg-type]


async def glory_balance(db: Database, campaign_id: int) -> tuple[SideGlory, ...]:
    """Glory per side with its history (public, CC-4)."""
    from .readcache import read  # the campaign's cached rows, checked against the database

    async def balances(s: AsyncSession, state: State) -> tuple[SideGlory, ...]:
        rows = await _glory_rows(s, state.campaign)
        out = []
        for key, sd in state.sides.items():
            ledger = _ledger(key, rows)
            out.append(SideGlory(key, sd.name, ledger.balance, ledger.lines()))
        return tuple(out)

    return (await read(db, campaign_id, {"glory": balances})).parts["glory"]  # type: ignore[no-any-return]


SPENDS = tuple(k.value for k in SPEND_KINDS)


@dataclass(frozen=True)
class SpendOutcome:
    kind: str
    battle: int
    text: str
    balance: int
    roll: Roll | BatchRoll | None = None


def _outcomes(battle: BattleRow) -> dict[str, Outcome]:
    """Each side's outcome in a reported battle, from its report."""
    return {str(e.get("side")): parse_enum(Outcome, e.get("outcome"), "battle outcome")
            for e in ((battle.report or {}).get("sides", []) if battle.state != "pending" else [])}


def spend_battle_of(state: State, battle: BattleRow) -> SpendBattle:
    """A battle as a Glory spend sees it (RU-17): its turn and state, its sides' nations, the units of its
    Forces, and its outcomes once reported."""
    units = {u.key: state.forces[fk].side_key for fk in battle.force_keys for u in state.units.get(fk, [])}
    return SpendBattle(str(battle.number), battle.turn, parse_enum(BattleState, battle.state, "battle state"),
                       {k: state.sides[k].nation for k in battle.side_keys}, units, _outcomes(battle),
                       {k: state.sides[k].name for k in battle.side_keys})


async def _turn_battles(s: AsyncSession, campaign: Campaign) -> list[BattleRow]:
    return list((await s.exec(select(BattleRow).where(BattleRow.campaign_id == campaign.id,
                                                      BattleRow.turn == campaign.turn)
                              .order_by(BattleRow.number))).all())  # type: ignore[arg-type]


def _as_fought(state: State, battle: BattleRow, unit: UnitRow) -> Unit:
    """``unit`` with the SP it had left at the end of a reported battle (its SP before, less what the report
    says it lost), or as it is now if it did not fight there."""
    from bot.engine.reports import validate_report

    from .aftermath import _battle_forces, _report_for

    validated = validate_report(_report_for(battle, battle.report), _battle_forces(state, battle).values())
    if unit.key not in validated.force_of_unit:
        return _engine_unit(unit)
    before = validated.unit(unit.key)
    lost = validated.losses[unit.key]
    return before.with_sp(max(0, before.sp - lost.killed - lost.rout - lost.other_order))


async def spend_glory(db: Database, campaign_id: int, actor: Actor, kind: str, *, battle: int | str | None = None,
                      unit: str | None = None, points: int | None = None, ordered: bool | None = None,
                      terrain_reduces_dice: bool = False) -> SpendOutcome:
    """Spend Glory (CC-4) for a battle of the side's (RU-17): heroic (the winner, from the report until
    Phase 4 ends), rally, leadership, stragglers (rolls the dice), anti_guerrilla, ordenanza (a pending
    battle). Without ``battle``, the one battle where the spend may be made now. ``ordered`` and
    ``terrain_reduces_dice`` describe the Leadership unit at the table. Every rule is the engine's."""
    spend = kind.strip().lower().replace("-", "_").replace(" ", "_")
    if spend not in SPENDS:
        raise InvalidInput("Unknown Glory spend {kind!r}: choose {spends}.", kind=spend, spends=', '.join(SPENDS))
    what = GloryKind(spend)
    async with db.transaction() as s:
        campaign = await get_campaign(s, campaign_id, lock=True)
        side = await require_player(s, campaign, actor)
        if what in (GloryKind.HEROIC, GloryKind.RALLY, GloryKind.LEADERSHIP) and not unit:
            raise InvalidInput("Say which unit the {kind} spend is for.", kind=spend)
        if what is GloryKind.LEADERSHIP and ordered is None:
            raise InvalidInput("Say whether {unit} is ordered: Leadership helps only an ordered unit (CC-4).", unit=unit)
        if what is GloryKind.STRAGGLERS and not points:
            raise InvalidInput("Say how many Glory points to spend on Stragglers (at most half your Glory).")
        state = await load_state(s, campaign)
        ledger = _ledger(side, await _glory_rows(s, campaign))
        when = {"turn": campaign.turn, "phase": campaign.phase}
        if battle is not None:
            row = await get_battle(s, campaign, battle)
            target = spend_battle_of(state, row)
        else:
            rows = {str(b.number): b for b in await _turn_battles(s, campaign) if side in b.side_keys}
            target = engine_spend_battle(what, side, [spend_battle_of(state, b) for b in rows.values()],
                                         name=state.sides[side].name, **when)
            row = rows[target.id]
        unit_row = None
        if unit:
            unit_row = next((u for fk, urows in state.units.items() for u in urows
                             if u.key == unit and state.forces[fk].side_key == side), None)
            if unit_row is None:
                raise NotFound("{unit!r} is not one of your side's units.", unit=unit)
        roll = None
        if what is GloryKind.HEROIC:
            assert unit_row is not None
            fought = _as_fought(state, row, unit_row) if row.state != "pending" else _engine_unit(unit_row)
            spent = spend_heroic(ledger, fought, battle=target, already_heroic=unit_row.heroic, **when)
            unit_row.heroic = True
            s.add(unit_row)
        elif what is GloryKind.RALLY:
            assert unit_row is not None
            spent = spend_rally(ledger, _engine_unit(unit_row), battle=target, **when)  # never the campaign's SP (RU-17)
        elif what is GloryKind.LEADERSHIP:
            assert unit_row is not None and ordered is not None
            spent = spend_leadership(ledger, _engine_unit(unit_row), ordered=ordered,
                                     terrain_reduces_dice=terrain_reduces_dice, battle=target, **when)
        elif what is GloryKind.STRAGGLERS:
            assert points is not None
            dice = await turn_dice(s, campaign)
            done = len(ledger.spent_on(GloryKind.STRAGGLERS, target.id))
            key = roll_key(campaign.turn, campaign.phase, f"battle:{row.number}/side:{side}", f"stragglers{done}")
            result = spend_stragglers(ledger, points, dice, key, battle=target, **when)
            spent, roll = result.spent, result.roll
            await log_roll(s, campaign, roll, visibility=battle_visibility(row.number))
            spent = GlorySpent(spent.ledger, spent.entry, Msg.join(" ", [spent.text, *result.lines()]))
        elif what is GloryKind.ANTI_GUERRILLA:
            spent = spend_anti_guerrilla(ledger, theatre=campaign.theatre, battle=target, **when)
        else:
            spent = spend_ordenanza(ledger, theatre=campaign.theatre, battle=target, **when)
        e = spent.entry
        s.add(GloryEntry(campaign_id=campaign.id, side_key=side, turn=campaign.turn, amount=e.amount, kind=e.kind.value,
                         reason=str(e.reason)[:200], rule=e.rule, battle=row.number, subject=e.subject))
        await log_event(s, campaign, Msg("{side} spends Glory in battle {number}: {text}", side=state.sides[side].name,
                                         number=row.number, text=spent.text))
        return SpendOutcome(spend, row.number, spent.text, spent.ledger.balance, roll)


@dataclass(frozen=True)
class GloryBattle:
    """A battle where a side may spend Glory now (RU-17), for the /glory spend suggestions."""

    number: int
    square: str
    sides: tuple[str, ...]
    kinds: tuple[str, ...]
    """The spends the side may make there now."""


async def glory_battles(db: Database, campaign_id: int, actor: Actor, kind: str | None = None) -> tuple[GloryBattle, ...]:
    """The battles where ``actor``'s side may spend Glory now (on ``kind``, or on anything): exactly the
    moments :func:`spend_glory` accepts (RU-17). None for a member on no side."""
    from .readcache import read  # the campaign's cached rows, checked against the database

    async def battles(s: AsyncSession, state: State) -> tuple[tuple[str, SpendBattle], ...]:
        return tuple((b.square, spend_battle_of(state, b)) for b in await _turn_battles(s, state.campaign))

    cr = await read(db, campaign_id, {"glory_battles": battles})
    side = cr.standing(actor).side
    if side is None:
        return ()
    campaign = cr.campaign
    wanted = str(kind or "").strip().lower().replace("-", "_").replace(" ", "_")
    kinds = [k for k in SPEND_KINDS if not wanted or k.value == wanted]
    out = []
    for square, b in cr.parts["glory_battles"]:
        if side not in b.sides:
            continue
        ok = tuple(k.value for k in kinds
                   if spend_problem(k, side, b, turn=campaign.turn, phase=Phase(campaign.phase)) is None)
        if ok:
            out.append(GloryBattle(int(b.id), square, tuple(b.name(k) for k in b.nations), ok))
    return tuple(out)


def _engine_unit(row: UnitRow) -> Unit:
    return Unit(row.key, row.name, row.sp, UnitType(row.type), Quality(row.quality), row.mercenary, row.flag)


async def leader_roster(db: Database, campaign_id: int, actor: Actor) -> list[str]:
    """Leaders the reader knows (own side's; all for the GM: an enemy's leader stays hidden even when
    his Force is in sight), their status and what it means at the next battle (CC-2)."""
    from .readcache import read  # the campaign's cached rows, checked against the database

    cr = await read(db, campaign_id)
    st = cr.standing(actor)
    state = cr.state

    def lines() -> tuple[str, ...]:
        known = {k: ld for k, ld in state.leaders.items()
                 if st.gm or (k in state.forces and state.forces[k].side_key == st.side)}
        return tuple(leader_roster_lines(replace(state, leaders=known)))

    return list(cr.memo(("leader_roster", st.gm, st.side), lines))


def leader_roster_lines(state: State) -> list[str]:
    """Each leader, his status, and what it means at the next battle (CC-2)."""
    out = []
    for fkey, ld in sorted(state.leaders.items()):
        cmd = leader_command(ld)
        where = state.forces[fkey].name if fkey in state.forces else "-"
        args = {"leader": ld.name, "where": where, "cv": ld.cv, "status": ld.status.replace("_", " ")}
        out.append(Msg("{leader} ({where}, CV {cv}): {status}", **args)
                   if cmd.presence is Presence.COMMANDS and ld.kind == "leader"
                   else Msg("{leader} ({where}, CV {cv}): {status}; {meaning}", meaning=Msg.join("; ", cmd.lines()), **args))
    return out


# --- trophy attempts due (the /trophy roll suggestions) ---------------------------------------


@dataclass(frozen=True)
class TrophyAttempt:
    """An attempt a side may roll now (CC-3): in battle ``battle``, its unit ``unit`` tries for the flag
    of the enemy unit ``target`` it eliminated in melee. Keys, as :func:`trophy_roll` takes them."""

    battle: int
    unit: str
    unit_name: str
    target: str
    target_name: str


async def trophy_attempts(db: Database, campaign_id: int, actor: Actor) -> tuple[TrophyAttempt, ...]:
    """The trophy attempts ``actor``'s side may roll now: exactly what :func:`trophy_roll` accepts (Phase 4,
    a reported battle of this turn whose report made the attempt eligible, not yet rolled, the captor one
    of the side's units), read from the battles' state, never from the log. None for a member on no side."""
    from .readcache import read  # the campaign's cached rows, checked against the database

    async def due(s: AsyncSession, state: State) -> tuple[tuple[int, str, str], ...]:
        if state.campaign.phase != Phase.AFTERMATH:
            return ()
        out = []
        for b in sorted(await _reported_battles(s, state.campaign), key=lambda b: b.number):
            for key, taken in (b.aftermath or {}).get("trophies", {}).items():
                unit, _, target = key.partition(">")
                if taken is None and target:
                    out.append((b.number, unit, target))
        return tuple(out)

    cr = await read(db, campaign_id, {"trophy_attempts": due})
    side = cr.standing(actor).side
    if side is None:
        return ()
    state = cr.state
    units = {u.key: (fk, u.name) for fk, rows in state.units.items() for u in rows}
    out = []
    for number, unit, target in cr.parts["trophy_attempts"]:
        if unit not in units or target not in units or units[unit][0] not in state.forces:
            continue
        if state.forces[units[unit][0]].side_key == side:
            out.append(TrophyAttempt(number, unit, units[unit][1], target, units[target][1]))
    return tuple(out)


def leader_command(ld: LeaderRow) -> NextBattleCommand:
    """What a leader's status means at his Force's next battle (CC-2): who commands, designated how."""
    return next_battle_command(LeaderStatus(ld.status), designated=UnitType(ld.designation) if ld.designation else None,
                               kind=KINDS.get(ld.kind, Commander.LEADER))
