"""The offline demo: scripted turns through the same services the bot uses, no Discord, no token.

    python -m bot demo --scenario tutorial --turns 2 --seed 7 --out DIR

A temporary SQLite database; one scripted GM and one scripted player per side. Each side marches
its Forces towards the nearest enemy; battles are "fought" by a stand-in for the tabletop (the
stronger side wins, losses in proportion) and reported like a GM would. Writes a PNG per phase
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
from collections.abc import Sequence
from pathlib import Path

from bot.engine.errors import EngineError
from bot.engine.grid import CampaignMap
from bot.engine.model import Square
from bot.engine.phases import Phase
from bot.scenario import load_bundled

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


def stand_in_report(state_forces: dict[str, dict], sides: Sequence[str]) -> dict:
    """The tabletop's stand-in: the side with more SP wins; the loser loses a quarter killed and a tenth
    in rout, the winner a tenth killed; 7 banners win, the loser scores 3."""
    strength = {s: sum(f["sp"] for f in state_forces.values() if f["side"] == s) for s in sides}
    winner = max(sides, key=lambda s: (strength[s], s))
    out = []
    for s in sides:
        won = s == winner
        units = []
        for f in state_forces.values():
            if f["side"] != s:
                continue
            for u in f["units"]:
                killed = u["sp"] // (10 if won else 4)
                rout = 0 if won else u["sp"] // 10
                if killed or rout:
                    units.append({"unit": u["key"], "killed": killed, "rout": rout})
        out.append({"side": s, "outcome": "won" if won else "lost", "banners": 7 if won else 3, "units": units})
    return {"system": "cc", "banners_required": 7, "sides": out}


async def run_demo(scenario: str, turns: int, seed: int, out: Path) -> list[Path]:
    from bot.services import loading

    counter = itertools.count(1)
    loading.use_seed_source(lambda: hashlib.sha256(f"aide-de-camp/demo/{seed}/{next(counter)}".encode()).digest())
    try:
        return await _play(scenario, turns, seed, out)
    finally:
        loading.use_seed_source(None)


async def _play(scenario: str, turns: int, seed: int, out: Path) -> list[Path]:
    from bot.services import aftermath, battles, campaigns, logbook, maps, orders, resolution, views
    from bot.services.actors import Actor
    from bot.store.db import Database

    out.mkdir(parents=True, exist_ok=True)
    written: list[Path] = []
    spec = load_bundled(scenario)
    gm = Actor(DEMO_GM, name="GM")
    players = {s.key: Actor(100 + i, name=f"{s.name} player") for i, s in enumerate(spec.sides)}
    with tempfile.TemporaryDirectory() as tmp:
        db = Database(f"sqlite+aiosqlite:///{tmp}/demo.db")
        await db.upgrade()
        created = await campaigns.create_campaign(db, guild_id=0, channel_id=0, gm=gm, name=f"Demo: {spec.name}",
                                                  scenario=scenario)
        cid = created.campaign_id
        for side, actor in players.items():
            await campaigns.join_side(db, cid, actor, side)
        log_lines: list[str] = [f"# {spec.name}: an offline demo", "",
                                f"Scenario `{scenario}`, {turns} turn(s), seed {seed}. Every roll names its rule.", ""]

        async def snap(turn: int, phase: int, label: str) -> None:
            png, _ = await maps.map_png(db, cid, gm, view="full")
            name = f"turn{turn}-phase{phase}-{label}.png"
            (out / name).write_bytes(png)
            written.append(out / name)
            print(f"  wrote {name}", file=sys.stderr)

        await snap(1, 0, "start")
        while True:
            st = await views.status(db, cid, gm)
            if st.status != "active" or st.position.turn > turns:
                break
            phase = st.position.phase
            print(f"turn {st.position.turn}, {phase.spec.title}", file=sys.stderr)
            if phase is Phase.ORDERS:
                for actor in players.values():
                    for f in await views.my_forces(db, cid, actor):
                        if f.order != "forced_march":
                            try:
                                await orders.give_order(db, cid, actor, f.key, "forced_march")
                            except EngineError as exc:
                                print(f"  {f.name}: {exc}", file=sys.stderr)
            elif phase is Phase.MOVEMENT:
                full = await views.status(db, cid, gm)
                cmap = await maps.campaign_map(db, cid)
                for side, actor in players.items():
                    enemies = [Square.parse(f.square) for f in full.forces if f.side != side]
                    for f in await views.my_forces(db, cid, actor):
                        if f.order == "defend" or not enemies:
                            continue
                        here = Square.parse(f.square)
                        target = min(enemies, key=lambda sq: cmap.distance(here, sq))
                        path = _step_towards(cmap, here, target, 3)
                        if path:
                            try:
                                await orders.declare_move(db, cid, actor, f.key, " ".join(map(str, path)))
                            except EngineError as exc:
                                print(f"  {f.name}: {exc}", file=sys.stderr)
            elif phase is Phase.BATTLE:
                full = await views.status(db, cid, gm)
                for b in await battles.list_battles(db, cid):
                    if b.state != "pending":
                        continue
                    row_sides = [k for k, name, _ in full.sides if name in b.sides]
                    for side in row_sides:
                        await battles.scout(db, cid, players[side], b.number)
                    fought = {f.key: {"side": f.side, "sp": f.sp or 0,
                                      "units": [{"key": u.key, "sp": u.sp} for u in f.units]}
                              for f in full.forces if f.name in b.forces}
                    await aftermath.report_battle(db, cid, gm, b.number, stand_in_report(fought, row_sides))
            elif phase is Phase.AFTERMATH:
                for b in await battles.list_battles(db, cid):
                    for actor in players.values():
                        with contextlib.suppress(EngineError):  # not in this battle
                            await aftermath.roll_aftermath(db, cid, actor, b.number)
            st = await views.status(db, cid, gm)
            await resolution.resolve_phase(db, cid, gm, expected_version=st.version, forced=True)
            await snap(st.position.turn, int(phase), f"after-{phase.name.lower().replace('_', '-')}")
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
    parser.add_argument("--turns", type=int, default=2)
    parser.add_argument("--seed", type=int, default=7)
    parser.add_argument("--out", default="out/demo")
    args = parser.parse_args(argv)
    if not 1 <= args.turns <= 20:
        parser.error("--turns is 1 to 20")
    try:
        files = asyncio.run(run_demo(args.scenario, args.turns, args.seed, Path(args.out)))
    except EngineError as exc:
        print(f"demo: {exc}", file=sys.stderr)
        return 2
    print(f"Wrote {len(files)} files to {args.out}: open log.md, and check the dice with "
          f"`python -m bot verify {Path(args.out) / 'roll-log.json'}`.")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
