"""Random campaigns played through the bot's own services: whatever the players, the GM and the dice
do, the campaign can always go on, and its state stays one the rules can reach.

Hypothesis picks a sequence of actions (orders, moves, battle reports with leader casualties,
aftermath rolls, leader fates, forced resolutions, undo); after each one the invariants below are
checked, and at the end the campaign must still reach two more turns and survive an export and an
import. A modest number of examples runs in CI; ``ADC_PROPERTY_EXAMPLES=500`` runs more.
"""

from __future__ import annotations

import asyncio
import hashlib
import os
import tempfile
from pathlib import Path
from typing import Any

from hypothesis import HealthCheck, event, given, settings
from hypothesis import strategies as st
from sqlmodel import select

from bot.engine.errors import EngineError
from bot.engine.model import Square
from bot.engine.phases import Phase
from bot.engine.verify import verify_log
from bot.services import aftermath, campaigns, cc, exchange, orders, resolution, views
from bot.services.actors import Actor
from bot.services.loading import use_seed_source
from bot.store.db import Database
from bot.store.models import BattleRow, ForceRow, MapSquare, UnitRow
from tests.databases import migrated_sqlite

from .test_battle_flow import SCENARIO

GM = Actor(1001, name="Gina")
PLAYERS = {"fr": Actor(2001, name="Pierre"), "au": Actor(3001, name="Karl")}
EXAMPLES = int(os.environ.get("ADC_PROPERTY_EXAMPLES", "12"))
ORDERS = ("forced_march", "explore", "defend")

action = st.one_of(
    st.tuples(st.just("order"), st.sampled_from(sorted(PLAYERS)), st.integers(0, 9), st.sampled_from(ORDERS)),
    st.tuples(st.just("move"), st.sampled_from(sorted(PLAYERS)), st.integers(0, 9),
              st.lists(st.integers(0, 7), min_size=1, max_size=3)),
    st.tuples(st.just("charge"), st.sampled_from(sorted(PLAYERS)), st.integers(0, 9)),
    st.tuples(st.just("report"), st.integers(0, 99), st.integers(0, 99), st.booleans()),
    st.tuples(st.just("aftermath"), st.sampled_from(sorted(PLAYERS))),
    st.tuples(st.just("fate"), st.sampled_from(sorted(PLAYERS)), st.sampled_from(("melee", "other"))),
    st.tuples(st.just("advance")),
    st.tuples(st.just("undo")),
)
STEPS = [(0, -1), (1, -1), (1, 0), (1, 1), (0, 1), (-1, 1), (-1, 0), (-1, -1)]


class Player:
    """Plays one campaign in a database of its own."""

    def __init__(self, db: Database, cid: int) -> None:
        self.db, self.cid = db, cid

    async def rows(self) -> tuple[list[ForceRow], list[UnitRow], list[BattleRow], dict[tuple[int, int], str]]:
        async with self.db.sessions() as s:
            forces = list((await s.exec(select(ForceRow).where(ForceRow.campaign_id == self.cid))).all())
            units = list((await s.exec(select(UnitRow).where(UnitRow.campaign_id == self.cid))).all())
            battles = list((await s.exec(select(BattleRow).where(BattleRow.campaign_id == self.cid))).all())
            terrain = {(m.col, m.row): m.terrain
                       for m in (await s.exec(select(MapSquare).where(MapSquare.campaign_id == self.cid))).all()}
        return forces, units, battles, terrain

    async def position(self) -> tuple[int, Phase, int]:
        sv = await views.status(self.db, self.cid, GM)
        return sv.position.turn, sv.position.phase, sv.version

    async def own_force(self, side: str, i: int) -> ForceRow | None:
        forces = [f for f in (await self.rows())[0] if f.side_key == side and f.state == "active"]
        return forces[i % len(forces)] if forces else None

    async def act(self, step: tuple[Any, ...]) -> None:
        kind = step[0]
        try:
            if kind == "order" and (f := await self.own_force(step[1], step[2])):
                await orders.give_order(self.db, self.cid, PLAYERS[step[1]], f.key, step[3])
            elif kind == "move" and (f := await self.own_force(step[1], step[2])) and f.square:
                sq, path = Square.parse(f.square), []
                for d in step[3]:
                    dc, dr = STEPS[d]
                    sq = Square(sq.col + dc, sq.row + dr)
                    path.append(str(sq))
                await orders.declare_move(self.db, self.cid, PLAYERS[step[1]], f.key, " ".join(path))
            elif kind == "charge" and (f := await self.own_force(step[1], step[2])) and f.square:
                await orders.declare_move(self.db, self.cid, PLAYERS[step[1]], f.key, await self.towards_enemy(f))
            elif kind == "report":
                await self.report(step[1], step[2], step[3])
            elif kind == "aftermath":
                for b in (await self.rows())[2]:
                    if b.state == "reported":
                        await aftermath.roll_aftermath(self.db, self.cid, PLAYERS[step[1]], b.number)
            elif kind == "fate":
                for b in (await self.rows())[2]:
                    for name in (b.aftermath or {}).get("fates", {}):
                        await cc.leader_fate(self.db, self.cid, PLAYERS[step[1]], name, step[2])
            elif kind == "advance":
                await self.advance()
            elif kind == "undo":
                await resolution.undo(self.db, self.cid, GM, expected_version=(await self.position())[2])
        except EngineError:
            pass  # a refusal with a reason is a fine answer to a random action

    async def towards_enemy(self, force: ForceRow) -> str:
        """A path of up to three squares straight at the nearest enemy Force (to make battles)."""
        enemies = [Square.parse(f.square) for f in (await self.rows())[0]
                   if f.state == "active" and f.square and f.side_key != force.side_key]
        here = Square.parse(force.square or "A1")
        if not enemies:
            return str(here)
        goal = min(enemies, key=lambda e: max(abs(e.col - here.col), abs(e.row - here.row)))
        path = []
        while here != goal and len(path) < 3:
            here = Square(here.col + (goal.col > here.col) - (goal.col < here.col),
                          here.row + (goal.row > here.row) - (goal.row < here.row))
            path.append(str(here))
        return " ".join(path) or str(here)

    async def report(self, killed: int, casualty: int, winner_first: bool) -> None:
        """A report the table could bring: one side won with the banners required, losses within the
        units' SP, maybe a leader fallen in melee."""
        forces, units, battles, _ = await self.rows()
        pending = [b for b in battles if b.state == "pending"]
        if not pending:
            return
        b = pending[0]
        by_force = {f.key: f for f in forces}
        sides = sorted(b.side_keys)
        won, lost = (sides[0], sides[1]) if winner_first else (sides[1], sides[0])
        report: dict[str, Any] = {"system": "cc", "banners_required": 7, "sides": []}
        for side, outcome, banners in ((won, "won", 7), (lost, "lost", killed % 7)):
            own = [u for u in units if u.force_key in b.force_keys and by_force[u.force_key].side_key == side]
            entry: dict[str, Any] = {"side": side, "outcome": outcome, "banners": banners,
                                     "units": [{"unit": u.key, "killed": min(u.sp, (killed + i) % 3)}
                                               for i, u in enumerate(own) if u.sp]}
            if casualty % 3 == 0 and side == lost:
                async with self.db.sessions() as s:
                    from bot.campaign.aftermath import commanders
                    from bot.store import repository

                    state = (await repository.load(s, self.cid)).state
                    _, _, led = commanders(state, state.battles[b.number])
                names = [c.name for key, c in led.items() if by_force[key].side_key == side]
                if names:
                    entry["leader_casualties"] = [{"leader": names[0], "fell": "melee"}]
            report["sides"].append(entry)
        await aftermath.report_battle(self.db, self.cid, GM, b.number, report)

    async def advance(self) -> None:
        """The GM resolves the phase, forced. Phase 3 waits for reports, Phase 4 for the aftermath:
        the GM reports what is pending first, as he would."""
        turn, phase, _version = await self.position()
        if phase is Phase.BATTLE:
            for _ in range(10):
                if not [b for b in (await self.rows())[2] if b.state == "pending"]:
                    break
                await self.report(turn + 2, 3 * (turn % 2), turn % 3 != 0)  # a leader falls every other turn
        await resolution.resolve_phase(self.db, self.cid, GM, expected_version=(await self.position())[2],
                                       forced=True)

    async def check(self) -> None:
        """The state is one the rules can reach."""
        forces, units, battles, terrain = await self.rows()
        sv = await views.status(self.db, self.cid, GM)
        for side in PLAYERS:
            await views.status(self.db, self.cid, PLAYERS[side])  # every reader's view can be built
        width, height = 8, 8
        squares: dict[str, set[str]] = {}
        for f in forces:
            if f.state != "active":
                continue
            assert f.square, f
            sq = Square.parse(f.square)
            assert 0 <= sq.col < width and 0 <= sq.row < height, f
            assert terrain.get((sq.col, sq.row), "open") not in ("sea", "lake"), f
            squares.setdefault(f.square, set()).add(f.side_key)
        for u in units:
            assert 0 <= u.sp <= max(u.original_sp, u.sp), u
        fighting = {b.square for b in battles if b.turn == sv.position.turn and b.state != "done"}
        for square, sides in squares.items():
            if len(sides) > 1:  # hostile Forces share a square only in a battle
                assert square in fighting or sv.position.phase in (Phase.MOVEMENT,), (square, sides, sv.position)


async def play(actions: list[tuple[Any, ...]]) -> None:
    counter = iter(range(1, 10_000))  # the same actions give the same dice (hypothesis replays examples)
    use_seed_source(lambda: hashlib.sha256(f"property-{next(counter)}".encode()).digest())
    with tempfile.TemporaryDirectory() as tmp:
        db = Database(migrated_sqlite(Path(tmp) / "p.db"))
        try:
            created = await campaigns.create_campaign(db, guild_id=1, channel_id=2, gm=GM, name="Prop",
                                                      scenario="bridge", scenario_text=SCENARIO)
            p = Player(db, created.campaign_id)
            for side, actor in PLAYERS.items():
                await campaigns.join_side(db, p.cid, actor, side)
            for step in actions:
                await p.act(step)
                await p.check()
            # A campaign can always be finished: two more turns, whatever was left pending.
            start = (await p.position())[0]
            for _ in range(60):
                turn, phase, _version = await p.position()
                if turn >= start + 2:
                    break
                if phase is Phase.MOVEMENT:  # everybody marches on the enemy: battles, reports, fates
                    for side in PLAYERS:
                        for i in range(3):
                            await p.act(("charge", side, i))
                elif phase is Phase.AFTERMATH:
                    for side in PLAYERS:
                        await p.act(("aftermath", side))
                        await p.act(("fate", side, "melee"))
                await p.advance()
                await p.check()
            assert (await p.position())[0] >= start + 2
            battles = (await p.rows())[2]
            event(f"battles: {min(len(battles), 3)}{'+' if len(battles) > 3 else ''}")
            event(f"leader fates: {sum(bool((b.aftermath or {}).get('fates')) for b in battles)}")
            exported = await exchange.export_campaign(db, p.cid, GM)
            assert verify_log(exported).ok
            await exchange.import_campaign(db, exchange.export_bytes(exported), guild_id=1, channel_id=3, gm=GM)
        finally:
            await db.dispose()
            use_seed_source(None)


@settings(max_examples=EXAMPLES, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.lists(action, max_size=25))
def test_a_random_campaign_can_always_go_on_and_stays_in_reach_of_the_rules(actions) -> None:
    asyncio.run(play(actions))
