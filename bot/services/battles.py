"""Phase 3 and 4 use cases: scouting (MC-6.1, RU-5), battle reports (BR), the aftermath rolls
(MC-7.1, MC-7.2), retreats (MC-7.3, RU-8) and reactions (MC-7.4, RU-9)."""

from __future__ import annotations

from dataclasses import dataclass

from sqlmodel import select
from sqlmodel.ext.asyncio.session import AsyncSession

from bot.engine.battle import explore, scouting_winner
from bot.engine.dice import roll_key
from bot.engine.errors import RuleViolation
from bot.engine.phases import Phase
from bot.engine.rolls import Roll
from bot.engine.tables import RuleBook, default_rulebook
from bot.engine.text import Msg
from bot.store.db import Database
from bot.store.models import BattleRow, Campaign

from .actors import Actor, require_player, standing
from .errors import NotFound, PermissionDenied
from .loading import State, get_campaign, load_state, turn_dice
from .logbook import log_event, log_roll
from .orders import require_phase


async def get_battle(s: AsyncSession, campaign: Campaign, number: int | str) -> BattleRow:
    text = str(number).strip().lstrip("#")
    if not (text.isascii() and text.isdigit()) or len(text) > 9:  # not "²", "１" or 5,000 digits
        raise NotFound("{number!r} is not a battle number: battles are numbered 1, 2, 3...", number=number)
    row = (await s.exec(select(BattleRow).where(BattleRow.campaign_id == campaign.id,
                                                BattleRow.number == int(text)))).first()
    if row is None:
        raise NotFound("There is no battle {text} in this campaign.", text=text)
    return row


@dataclass(frozen=True)
class ScoutingOutcome:
    battle: int
    side: str
    score: int
    rolls: tuple[Roll, ...]
    reasons: tuple[str, ...]
    winner: str | None
    """Decided once every side has scouted (RU-5): the side that deploys second and sees the enemy."""
    complete: bool


async def scout(db: Database, campaign_id: int, actor: Actor, battle: int | str,
                *, rules: RuleBook | None = None) -> ScoutingOutcome:
    """Phase 3: the side's exploration test for a battle (MC-6.1, RU-5): each of its Forces there
    tests; the side scores its best result."""
    rules = rules or default_rulebook()
    async with db.transaction() as s:
        campaign = await get_campaign(s, campaign_id, lock=True)
        require_phase(campaign, Phase.BATTLE, "Scouting")
        side = await require_player(s, campaign, actor)
        row = await get_battle(s, campaign, battle)
        if side not in row.side_keys:
            raise PermissionDenied("Your side does not fight battle {number}.", number=row.number)
        if side in row.scouting:
            raise RuleViolation("Your side has already scouted battle {number} (RU-5).", number=row.number)
        state = await load_state(s, campaign)
        dice = await turn_dice(s, campaign)
        best, rolls, reasons = 0, [], []
        for fkey in row.force_keys:
            if state.forces[fkey].side_key != side:
                continue
            force = state.force(fkey)
            ex = explore(force, state.cmap.cell(force.square), dice,
                         roll_key(campaign.turn, 3, f"force:{fkey}", f"battle{row.number}-exploration"), rules=rules)
            best = max(best, ex.score)
            reasons.append(Msg("{force}: {reason}", force=force.name, reason=ex.reason) if ex.roll
                           else Msg("{force}: {reason} (scores 0)", force=force.name, reason=ex.reason))
            if ex.roll:
                rolls.append(ex.roll)
                await log_roll(s, campaign, ex.roll, visibility=f"side:{side}")
        row.scouting = {**row.scouting, side: best}
        complete = set(row.scouting) >= set(row.side_keys)
        winner = scouting_winner(row.scouting) if complete else None
        if complete:
            row.scouting = {**row.scouting, "_winner": winner}
            who = state.sides[winner].name if winner else Msg("nobody (a tie)")
            await log_event(s, campaign, Msg("Battle {number}: the scouting contest goes to {who} (RU-5).",
                                             number=row.number, who=who))
        s.add(row)
        return ScoutingOutcome(row.number, side, best, tuple(rolls), tuple(reasons), winner, complete)


def battle_sides(state: State, battle: BattleRow) -> dict[str, list[str]]:
    out: dict[str, list[str]] = {}
    for fkey in battle.force_keys:
        out.setdefault(state.forces[fkey].side_key, []).append(fkey)
    return out


async def require_in_battle(s: AsyncSession, campaign: Campaign, actor: Actor, battle: BattleRow) -> str | None:
    """The actor's side in this battle (None for the GM); others are refused."""
    st = await standing(s, campaign, actor)
    if st.side in battle.side_keys:
        return st.side
    if st.gm:
        return None
    raise PermissionDenied("Only the sides in battle {number} and the GM can do that.", number=battle.number)


@dataclass(frozen=True)
class BattleLine:
    number: int
    turn: int
    square: str
    sides: tuple[str, ...]
    forces: tuple[str, ...]
    state: str


async def list_battles(db: Database, campaign_id: int, *, turn: int | None = None) -> tuple[BattleLine, ...]:
    """Battles of a turn (this one by default) and their state: public."""
    from .readcache import read  # the campaign's cached rows, checked against the database

    async def lines(s: AsyncSession, state: State) -> tuple[BattleLine, ...]:
        rows = (await s.exec(select(BattleRow).where(BattleRow.campaign_id == campaign_id,
                                                     BattleRow.turn == (turn or state.campaign.turn))
                             .order_by(BattleRow.number))).all()
        return tuple(
            BattleLine(b.number, b.turn, b.square, tuple(state.sides[k].name for k in b.side_keys),
                       tuple(state.forces[k].name for k in b.force_keys), b.state)
            for b in rows
        )

    key = ("battles", turn)
    return (await read(db, campaign_id, {key: lines})).parts[key]  # type: ignore[no-any-return]


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


async def brief(db: Database, campaign_id: int, actor: Actor, battle: int | str,
                *, rules: RuleBook | None = None) -> Brief:
    """The battle brief (for the players in the battle and the GM): Forces, units and strengths, leaders
    and what their status means here (CC-2), field works (RU-21), terrain, weather, reactions, scouting,
    the General Retreat command modifiers (MC-6.2), Glory to spend (CC-4, RU-17)."""
    from bot.engine.battle import field_works, general_retreat_brief
    from bot.engine.cc_model import Presence
    from bot.engine.glory import BattleState, stragglers_allowance
    from bot.engine.model import Square

    from .cc import _glory_rows, _ledger, leader_command, spend_battle_of

    rules = rules or default_rulebook()
    async with db.sessions() as s:
        campaign = await get_campaign(s, campaign_id)
        row = await get_battle(s, campaign, battle)
        await require_in_battle(s, campaign, actor, row)
        state = await load_state(s, campaign)
        glory_rows = await _glory_rows(s, campaign)
    square = Square.parse(row.square)
    cell = state.cmap.cell(square)
    weather = rules.weather.kinds.get(campaign.weather or "")
    lines: list[str] = []
    for side in row.side_keys:
        lines.append(f"**{state.sides[side].name}**")
        for fkey in row.force_keys:
            f = state.forces[fkey]
            if f.side_key != side:
                continue
            units = state.units.get(fkey, [])
            args = {"force": f.name, "sp": sum(u.sp for u in units), "order": f.order.replace("_", " ")}
            lines.append(Msg("{force}: {sp} SP, order {order}, {reaction}: {effect}", reaction=f.reaction,
                             effect=REACTION_AT_START.get(f.reaction, ""), **args) if f.reaction
                         else Msg("{force}: {sp} SP, order {order}", **args))
            works = field_works(state.force(fkey), square, rules=rules) if f.state == "active" and f.square else None
            if works is not None:
                lines.append(Msg("  {works}", works=works.text))
            for u in units:
                marks = [u.quality, u.type] + ([Msg("mercenary")] if u.mercenary else []) \
                    + ([Msg("Heroic")] if u.heroic else []) + ([] if u.flag else [Msg("no flag")])
                lines.append(Msg("  {unit}: {sp}/{original_sp} SP ({marks})", unit=u.name, sp=u.sp,
                                 original_sp=u.original_sp, marks=Msg.join(", ", marks)))
            ld = state.leaders.get(fkey)
            if ld is not None:
                cmd = leader_command(ld)
                args = {"leader": ld.name, "cv": ld.cv, "status": ld.status.replace("_", " ")}
                lines.append(Msg("  Leader {leader} (CV {cv}), {status}", **args)
                             if cmd.presence is Presence.COMMANDS and ld.kind == "leader"
                             else Msg("  Leader {leader} (CV {cv}), {status}: {meaning}", meaning=Msg.join("; ", cmd.lines()),
                                      **args))
    scouting = row.scouting
    if "_winner" in scouting:
        winner = scouting["_winner"]
        lines.append(Msg("Scouting (RU-5): {side} wins: deploys second and sees the enemy deployment",
                         side=state.sides[winner].name) if winner
                     else Msg("Scouting (RU-5): a tie: nobody gains the advantage"))
    else:
        lines.append(Msg("Scouting (RU-5): not complete (/battle scout)."))
    lines.append(general_retreat_brief(rules=rules))
    target = spend_battle_of(state, row)
    for side in row.side_keys:
        ledger = _ledger(side, glory_rows)
        name = state.sides[side].name
        if target.state is BattleState.PENDING:
            allowed = stragglers_allowance(ledger, target)
            lines.append(Msg("{side} has {balance} Glory (Stragglers: {left} more in this battle, at most {limit}: half "
                             "the {held} Glory held when it began; CC-4, RU-17)", side=name, balance=ledger.balance,
                             left=min(allowed.left, ledger.balance), limit=allowed.limit, held=allowed.held))
        else:
            lines.append(Msg("{side} has {balance} Glory (CC-4)", side=name, balance=ledger.balance))
    return Brief(row.number, row.square, cell.terrain.value, tuple(sorted(f.value for f in cell.features)),
                 Msg("{weather} (house rule RU-10)", weather=weather.label) if weather else Msg("not rolled"),
                 tuple(lines))
