"""Store benchmark, for SQLite and PostgreSQL.

Prints: p50 and p99 of `status` over 1,000 campaigns of 20 Forces each; the time to resolve a
movement phase of a campaign with 200 Forces; order submissions per second from 50 concurrent
players. Goals: status p99 under 10 ms; a 200-Force movement phase under 300 ms.

    .venv/bin/python bench/store.py [--campaigns 1000] [--backend sqlite|postgresql|both]

PostgreSQL is read from ADC_BENCH_POSTGRES_URL (default: the local adc_test database, which the
benchmark wipes).
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import os
import random
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from sqlalchemy import text
from sqlalchemy.ext.asyncio import create_async_engine

from bot.engine.errors import EngineError
from bot.engine.model import Square
from bot.services import campaigns, orders, resolution, views
from bot.services.actors import Actor
from bot.store.db import Database

GM = Actor(1, name="gm")
PG = os.environ.get("ADC_BENCH_POSTGRES_URL", "postgresql+asyncpg://postgres@127.0.0.1:5432/adc_test")


def scenario(forces: int, width: int = 40, height: int = 30) -> str:
    lines = []
    for i in range(forces):
        side = "fr" if i % 2 == 0 else "au"
        col, row = (i * 2) % width, (i * 2 // width) * 3 % height
        sq = Square(col, row).name
        lines.append(
            f"  - {{key: f{i}, name: Force {i}, side: {side}, square: {sq}, leader: {{name: L{i}, cv: 2}},"
            f" units: [{{key: u{i}a, name: U{i}a, sp: 10}}, {{key: u{i}b, name: U{i}b, sp: 6, type: cavalry}}]}}"
        )
    return (
        f"name: Bench\nstart_date: 1805-10-07\nmap: {{width: {width}, height: {height}, terrain: {{forest: ['C3:F6']}}}}\n"
        "sides: [{key: fr, name: France}, {key: au, name: Austria}]\nforces:\n" + "\n".join(lines) + "\n"
    )


def pct(values: list[float], p: float) -> float:
    values = sorted(values)
    return values[min(len(values) - 1, round(p / 100 * (len(values) - 1)))]


async def reset_pg() -> None:
    engine = create_async_engine(PG)
    async with engine.begin() as conn:
        await conn.execute(text("DROP SCHEMA public CASCADE"))
        await conn.execute(text("CREATE SCHEMA public"))
    await engine.dispose()


async def run(url: str, label: str, n_campaigns: int) -> None:
    db = Database(url)
    await db.upgrade()
    small = scenario(20)
    t0 = time.perf_counter()
    ids = []
    for i in range(n_campaigns):
        created = await campaigns.create_campaign(db, guild_id=1, channel_id=10_000 + i, gm=GM, name=f"C{i}", scenario_text=small)
        ids.append(created.campaign_id)
    setup = time.perf_counter() - t0
    rng = random.Random(1)
    for cid in ids[:20]:
        await views.status(db, cid, GM)  # warm up
    samples = []
    for _ in range(1000):
        cid = rng.choice(ids)
        t = time.perf_counter()
        await views.status(db, cid, GM)
        samples.append((time.perf_counter() - t) * 1000)
    print(f"[{label}] {n_campaigns} campaigns x 20 Forces created in {setup:.1f} s")
    print(f"[{label}] status: p50 {pct(samples, 50):.2f} ms, p99 {pct(samples, 99):.2f} ms (goal: p99 < 10 ms)")

    big = await campaigns.create_campaign(db, guild_id=1, channel_id=1, gm=GM, name="Big", scenario_text=scenario(200))
    cid = big.campaign_id
    players = {side: Actor(100 + k, name=side) for k, side in enumerate(("fr", "au"))}
    for side, actor in players.items():
        await campaigns.join_side(db, cid, actor, side)
    st = await views.status(db, cid, GM)
    await resolution.resolve_phase(db, cid, GM, expected_version=st.version)  # weather -> orders

    # 50 concurrent players, each giving orders to Forces of its side (one player per side row here).
    members = [Actor(1000 + i, name=f"p{i}") for i in range(50)]
    for i, m in enumerate(members):
        await campaigns.assign(db, cid, GM, m.member_id, "fr" if i % 2 == 0 else "au")
    jobs = []
    for i in range(200):
        actor = members[(i % 2) + 2 * ((i // 2) % 25)]
        jobs.append(orders.give_order(db, cid, actor, f"f{i}", "forced_march"))
    t = time.perf_counter()
    await asyncio.gather(*jobs)
    elapsed = time.perf_counter() - t
    print(f"[{label}] order submissions: {len(jobs) / elapsed:.0f} per second (200 orders, 50 concurrent players)")

    st = await views.status(db, cid, GM)
    await resolution.resolve_phase(db, cid, GM, expected_version=st.version, forced=True)  # -> movement
    view = await views.status(db, cid, GM)
    for f in view.forces:
        side_actor = players[f.side]
        col = f.square.rstrip("0123456789")
        row = int(f.square[len(col):])
        nxt = f"{col}{row + 1 if row < 30 else row - 1}"
        with contextlib.suppress(EngineError):  # a Force the test put on Defend does not move
            await orders.declare_move(db, cid, side_actor, f.key, nxt)
    st = await views.status(db, cid, GM)
    t = time.perf_counter()
    res = await resolution.resolve_phase(db, cid, GM, expected_version=st.version, forced=True)
    took = (time.perf_counter() - t) * 1000
    print(f"[{label}] movement phase of 200 Forces resolved in {took:.0f} ms, {len(res.battles)} battles (goal: < 300 ms)")
    await db.dispose()


async def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--campaigns", type=int, default=1000)
    parser.add_argument("--backend", choices=["sqlite", "postgresql", "both"], default="both")
    args = parser.parse_args()
    if args.backend in ("sqlite", "both"):
        with tempfile.TemporaryDirectory() as d:
            await run(f"sqlite+aiosqlite:///{d}/bench.db", "sqlite", args.campaigns)
    if args.backend in ("postgresql", "both"):
        try:
            await reset_pg()
        except Exception as exc:
            print(f"[postgresql] skipped: {exc}")
            return
        await run(PG, "postgresql", args.campaigns)


if __name__ == "__main__":
    asyncio.run(main())
