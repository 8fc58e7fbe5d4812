"""The offline demo: scripted turns through the same services the bot uses, no Discord, no token.

    python -m bot demo --scenario tutorial --turns 2 --seed 7 --out DIR

A temporary SQLite database; one scripted GM and one scripted player per side. Each side force-marches
its Forces towards the nearest enemy Force or enemy-held stronghold; battles are "fought" by a stand-in
for the tabletop (the stronger camp wins, losses in proportion) and reported like a GM would; the demo
stops when the campaign ends (RU-25) or after ``--turns``. Writes a PNG per phase
(the GM's full view) and ``log.md`` with every event and roll, plus ``roll-log.json`` that
``python -m bot verify`` checks.
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import hashlib
import itertools
import json
import sys
import tempfile
from collections.abc import Awaitable, Callable, Mapping, Sequence
from pathlib import Path

from bot.campaign.state import Battle, BattleStatus, CampaignState, CampaignStatus
from bot.engine.errors import EngineError
from bot.engine.grid import CampaignMap
from bot.engine.model import Order, Square
from bot.engine.phases import Phase
from bot.scenario import load_bundled
from bot.services.actors import Actor
from bot.store.db import Database

DEMO_GM = 1


def _step_towards(cmap: CampaignMap, start: Square, target: Square, steps: int) -> list[Square]:
    """A greedy land path of up to ``steps`` squares towards ``target``."""
    path: list[Square] = []
    here = start
    for _ in range(steps):
        options = [sq for sq in cmap.neighbours(here) if not cmap.cell(sq).terrain.is_water and sq not in path]
        if not options:
            break
        best = min(options, key=lambda sq: (cmap.distance(sq, target), sq))
        if cmap.distance(best, target) >= cmap.distance(here, target):
            break
        path.append(best)
        here = best
        if here == target:
            break
    return path


def stand_in_report(state: CampaignState, battle: Battle) -> dict:
    """The tabletop's stand-in (BR, RU-20): the camp with more SP wins (ties: the first camp by key) and every
    other camp loses; a loser's units lose a third of their SP killed (rounded up) and a sixth in rout, a
    winner's a tenth killed; 6 banners win, the winning camp's first side holds them, a losing camp scores 2."""
    forces = [state.forces[k] for k in battle.forces if state.forces[k].active]
    camps = state.camps
    strength: dict[str, int] = {}
    for f in forces:
        strength[camps.camp_of(f.side)] = strength.get(camps.camp_of(f.side), 0) + f.sp
    winner = max(sorted(strength), key=lambda c: strength[c])
    out, scored = [], set()
    for side in battle.sides:
        camp = camps.camp_of(side)
        won = camp == winner
        units = []
        for f in forces:
            if f.side != side:
                continue
            for u in f.units:
                killed = u.sp // 10 if won else -(-u.sp // 3)
                rout = 0 if won else min(u.sp - killed, u.sp // 6)
                if killed or rout:
                    units.append({"unit": u.key, "killed": killed, "rout": rout})
        banners = 0 if camp in scored else 6 if won else 2
        scored.add(camp)
        out.append({"side": side, "outcome": "won" if won else "lost", "banners": banners, "units": units})
    return {"system": "cc", "banners_required": 6, "sides": out}


def _targets(state: CampaignState, side: str) -> list[Square]:
    """Where a side's Forces march: the enemy Forces on the map and the strongholds an enemy holds (RU-19)."""
    camps = state.camps
    out = [Square.parse(f.square) for f in state.active() if camps.hostile(f.side, side)]
    for sq, cell in state.map.cells.items():
        holder = state.holdings.get(str(sq), cell.stronghold)
        if holder is not None and holder in state.sides and camps.hostile(holder, side):
            out.append(sq)
    return out


async def play(db: Database, cid: int, gm: Actor, players: Mapping[str, Actor], *, until_turn: int,
               after_phase: Callable[[int, Phase], Awaitable[None]] | None = None) -> CampaignState:
    """Scripted members play the campaign through the services until it ends or ``until_turn`` is over:
    every Force force-marches on the nearest enemy Force or enemy-held stronghold, every side scouts its
    battles and rolls its aftermath, the stand-in reports every battle, and the GM resolves each phase."""
    from bot.services import aftermath, battles, orders, resolution, shell, views

    while True:
        state = await shell.state(db, cid)
        if state.status is not CampaignStatus.ACTIVE or state.turn > until_turn:
            return state
        phase = state.phase
        in_play = [k for k, sd in state.sides.items() if not sd.defeated]
        if phase is Phase.ORDERS:
            for side in in_play:
                for f in state.side_forces(side):
                    if f.active and (f.order is not Order.FORCED_MARCH or f.reaction is not None):
                        with contextlib.suppress(EngineError):
                            await orders.give_order(db, cid, players[side], f.key, "forced_march")
        elif phase is Phase.MOVEMENT:
            for side in in_play:
                targets = _targets(state, side)
                for f in state.side_forces(side):
                    if not f.active or f.order is Order.DEFEND or not targets:
                        continue
                    here = Square.parse(f.square)
                    target = min(targets, key=lambda sq, here=here: (state.map.distance(here, sq), sq))
                    path = _step_towards(state.map, here, target, 3)
                    if path:
                        with contextlib.suppress(EngineError):
                            await orders.declare_move(db, cid, players[side], f.key, " ".join(map(str, path)))
        elif phase is Phase.BATTLE:
            for b in state.turn_battles():
                if b.status is not BattleStatus.PENDING:
                    continue
                for side in b.sides:
                    with contextlib.suppress(EngineError):
                        await battles.scout(db, cid, players[side], b.number)
                now = await shell.state(db, cid)
                await aftermath.report_battle(db, cid, gm, b.number, stand_in_report(now, now.battles[b.number]))
        elif phase is Phase.AFTERMATH:
            for b in state.turn_battles():
                for side in b.sides:
                    with contextlib.suppress(EngineError):  # already rolled
                        await aftermath.roll_aftermath(db, cid, players[side], b.number)
        st = await views.status(db, cid, gm)
        await resolution.resolve_phase(db, cid, gm, expected_version=st.version, forced=True)
        if after_phase is not None:
            await after_phase(state.turn, phase)


async def play_generals(db: Database, cid: int, gm: Actor, *, until_turn: int,
                        after_phase: Callable[[int, Phase], Awaitable[None]] | None = None) -> CampaignState:
    """Bot generals (RU-26) play every side and the bot settles every battle quickly (RU-27): the GM only
    resolves each phase, until the campaign ends or ``until_turn`` is over."""
    from bot.services import resolution, shell, views

    while True:
        state = await shell.state(db, cid)
        if state.status is not CampaignStatus.ACTIVE or state.turn > until_turn:
            return state
        st = await views.status(db, cid, gm)
        await resolution.resolve_phase(db, cid, gm, expected_version=st.version, forced=True)
        if after_phase is not None:
            await after_phase(state.turn, state.phase)


async def run_demo(scenario: str, turns: int, seed: int, out: Path, *, pictures: bool = True,
                   generals: bool = False) -> list[Path]:
    from bot.services import loading

    counter = itertools.count(1)
    loading.use_seed_source(lambda: hashlib.sha256(f"aide-de-camp/demo/{seed}/{next(counter)}".encode()).digest())
    try:
        return await _play(scenario, turns, seed, out, pictures=pictures, generals=generals)
    finally:
        loading.use_seed_source(None)


async def _play(scenario: str, turns: int, seed: int, out: Path, *, pictures: bool, generals: bool) -> list[Path]:
    from bot.campaign.ending import summary
    from bot.services import campaigns, logbook, maps

    out.mkdir(parents=True, exist_ok=True)
    written: list[Path] = []
    spec = load_bundled(scenario)
    gm = Actor(DEMO_GM, name="GM")
    players = {s.key: Actor(100 + i, name=f"{s.name} player") for i, s in enumerate(spec.sides)}
    with tempfile.TemporaryDirectory() as tmp:
        db = Database(f"sqlite+aiosqlite:///{tmp}/demo.db")
        await db.upgrade()
        options = {"unmanned_sides": "ai", "battles": "quick"} if generals else None  # RU-26, RU-27
        created = await campaigns.create_campaign(db, guild_id=0, channel_id=0, gm=gm, name=f"Demo: {spec.name}",
                                                  scenario=scenario, options=options)
        cid = created.campaign_id
        if not generals:
            for side, actor in players.items():
                await campaigns.join_side(db, cid, actor, side)
        log_lines: list[str] = [f"# {spec.name}: an offline demo", "",
                                f"Scenario `{scenario}`, {turns} turn(s) at most, seed {seed}"
                                + (", bot generals on every side and quick battles (RU-26, RU-27)" if generals else "")
                                + ". Every roll names its rule.", ""]

        async def snap(turn: int, phase: Phase) -> None:
            print(f"turn {turn}, {phase.spec.title}", file=sys.stderr)
            if not pictures:
                return
            png, _ = await maps.map_png(db, cid, gm, view="full")
            label = "start" if phase is Phase.WEATHER and turn == 1 and not written else \
                f"after-{phase.name.lower().replace('_', '-')}"
            name = f"turn{turn}-phase{int(phase)}-{label}.png"
            (out / name).write_bytes(png)
            written.append(out / name)
            print(f"  wrote {name}", file=sys.stderr)

        if pictures:
            png, _ = await maps.map_png(db, cid, gm, view="full")
            (out / "turn1-phase0-start.png").write_bytes(png)
            written.append(out / "turn1-phase0-start.png")
        final = (await play_generals(db, cid, gm, until_turn=turns, after_phase=snap) if generals
                 else await play(db, cid, gm, players, until_turn=turns, after_phase=snap))
        if (ended := summary(final)) is not None:
            print(str(ended), file=sys.stderr)
        entries, rolls = await logbook.full_record(db, cid)
        turn_phase = None
        for e in entries:
            if (e.turn, e.phase) != turn_phase:
                turn_phase = (e.turn, e.phase)
                log_lines += ["", f"## Turn {e.turn}, {Phase(e.phase).spec.title}", ""]
            who = "" if e.visibility == "public" else f" *({e.visibility.replace('side:', 'private to ')})*"
            text = f"`{e.text}`" if e.kind == "roll" else e.text
            log_lines.append(f"- {text}{who}")
        (out / "log.md").write_text("\n".join(log_lines) + "\n", encoding="utf-8")
        (out / "roll-log.json").write_text(json.dumps(rolls, indent=1), encoding="utf-8")
        written += [out / "log.md", out / "roll-log.json"]
        await db.dispose()
    return written


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m bot demo", description="Play scripted turns offline.")
    parser.add_argument("--scenario", default="tutorial")
    parser.add_argument("--turns", type=int, default=2, help="the most turns to play (it stops sooner if the "
                        "campaign ends)")
    parser.add_argument("--seed", type=int, default=7)
    parser.add_argument("--out", default="out/demo")
    parser.add_argument("--generals", action="store_true", help="bot generals play every side and battles are "
                        "settled quickly (RU-26, RU-27) instead of the scripted members and the tabletop stand-in")
    args = parser.parse_args(argv)
    if not 1 <= args.turns <= 60:
        parser.error("--turns is 1 to 60")
    try:
        files = asyncio.run(run_demo(args.scenario, args.turns, args.seed, Path(args.out), generals=args.generals))
    except EngineError as exc:
        print(f"demo: {exc}", file=sys.stderr)
        return 2
    print(f"Wrote {len(files)} files to {args.out}: open log.md, and check the dice with "
          f"`python -m bot verify {Path(args.out) / 'roll-log.json'}`.")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
