"""Linear turns (issue 26 item 2): the movement phase resolved by the campaign core for 20, 200 and 2,000
Forces (every Force not put on Defend by its Force test has declared a one-square move), the time per
Force, and the first status after it, all on the same machine in one run. Goal: 2,000 Forces under
1 s, and the time per Force flat from 200 to 2,000.

Setup goes through the services on a temporary SQLite database; the times are the core's own
(:func:`bot.campaign.turn.resolve` on the cached state, median of 3; the core is pure, so each run
resolves the same phase), and ``status`` built from the resolved state for one side.

    .venv/bin/python bench/turns.py [--sizes 20,200,2000]
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import os
import statistics
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, os.environ.get("ADC_BENCH_ROOT") or str(Path(__file__).resolve().parent.parent))

from bot.campaign import turn, views
from bot.campaign.events import Journal
from bot.campaign.sight import Reader
from bot.engine.errors import EngineError
from bot.services import campaigns, orders, resolution, shell
from bot.services import views as view_service
from bot.services.actors import Actor
from bot.store import readcache
from bot.store.db import Database

GM = Actor(1, name="gm")
MAPS = {20: (40, 30), 200: (40, 30), 2000: (100, 60)}


async def at_movement(db: Database, forces: int) -> int:
    """A campaign of ``forces`` Forces in Phase 2 with its moves declared; its id."""
    from store import large_spec  # bench/store.py's scenario (imported late: after the bot under test)

    width, height = MAPS.get(forces, (100, 60))
    created = await campaigns.create_campaign(db, guild_id=1, channel_id=forces, gm=GM, name=f"M{forces}",
                                              spec=large_spec(forces, width, height))
    cid = created.campaign_id
    players = {side: Actor(100 + k, name=side) for k, side in enumerate(("fr", "au"))}
    for side, actor in players.items():
        await campaigns.join_side(db, cid, actor, side)
    for _ in range(2):  # weather -> orders -> movement
        st = await view_service.status(db, cid, GM)
        await resolution.resolve_phase(db, cid, GM, expected_version=st.version, forced=True)
    state = await shell.state(db, cid)

    gate = asyncio.Semaphore(1)  # one at a time: the code before the write queue timed out on SQLite

    async def move(key: str) -> None:
        f = state.forces[key]
        nxt = f"{f.square.rstrip('0123456789')}{int(f.square.lstrip('ABCDEFGHIJKLMNOPQRSTUVWXYZ')) + 1}"
        async with gate:
            with contextlib.suppress(EngineError):  # on Defend, or off the map's edge
                await orders.declare_move(db, cid, players[f.side], key, nxt)

    await asyncio.gather(*(move(k) for k in state.forces))
    return cid


async def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--sizes", default="20,200,2000")
    args = parser.parse_args()
    sizes = [int(x) for x in args.sizes.split(",")]
    per_force: dict[int, float] = {}
    with tempfile.TemporaryDirectory() as d:
        db = Database(f"sqlite+aiosqlite:///{d}/turns.db")
        await db.upgrade()
        for n in sizes:
            cid = await at_movement(db, n)
            cr = await readcache.read(db, cid)
            ctx = shell.context()
            times = []
            for _ in range(3):
                t = time.perf_counter()
                done = turn.resolve(cr.state, Journal(), ctx, forced=True)
                times.append((time.perf_counter() - t) * 1000)
            took = statistics.median(times)
            t = time.perf_counter()
            views.status(done.state, Reader(False, "fr"), deadline=None, version=1)
            status_ms = (time.perf_counter() - t) * 1000
            card = ""
            if hasattr(views, "status_card"):  # what /campaign status builds since issue 26 item 2
                t = time.perf_counter()
                views.status_card(done.state, Reader(False, "fr"), deadline=None, version=1)
                card = f" (the whole view; /campaign status's card {(time.perf_counter() - t) * 1000:.1f} ms)"
            per_force[n] = took / n
            moves = sum(1 for d in cr.state.declarations if d.kind.value == "move")
            print(f"{n:>5} Forces ({moves} moves): movement resolved by the core in {took:7.1f} ms,"
                  f" {took / n * 1000:6.0f} us per Force; first status after it {status_ms:6.1f} ms{card}")
        await db.dispose()
    if 200 in per_force and 2000 in per_force:
        print(f"time per Force at 2,000 over at 200: {per_force[2000] / per_force[200]:.2f}x (goal: flat, 1x)")


if __name__ == "__main__":
    asyncio.run(main())
