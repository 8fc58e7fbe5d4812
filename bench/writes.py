"""Write benchmark (issue 26 items 1 and 3), for SQLite and PostgreSQL, each figure a ratio measured in one run.

- Order submissions under concurrency (200 orders on a 200-Force campaign, 50 concurrent players)
  against bare write transactions on the same database, at the same concurrency (each locks the
  campaign row and inserts one log row, like the smallest write there is). Goal: at least half.
  Also: how many orders started from the read cache (not a whole load), and the statements of one
  order made alone.
- A 200-Force movement resolution: its SQL statements, whole-state loads and transactions, against one
  whole load of the same campaign (goal: no more than one load plus the rows it changes).

    .venv/bin/python bench/writes.py [--backend sqlite|postgresql|both] [--orders 200]

PostgreSQL is read from ADC_BENCH_POSTGRES_URL (default: the local adc_test database, which the
benchmark wipes).
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import datetime as dt
import os
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

sys.path.insert(0, os.environ.get("ADC_BENCH_ROOT") or str(Path(__file__).resolve().parent.parent))

from sqlalchemy import event, insert, text
from sqlalchemy.ext.asyncio import create_async_engine

from bot.engine.errors import EngineError
from bot.services import campaigns, orders, resolution, views
from bot.services.actors import Actor
from bot.store import readcache, repository
from bot.store.db import Database
from bot.store.models import LogEntry

GM = Actor(1, name="gm")
PG = os.environ.get("ADC_BENCH_POSTGRES_URL", "postgresql+asyncpg://postgres@127.0.0.1:5432/adc_test")
CONCURRENCY = 50


def scenario(forces: int, width: int = 40, height: int = 30) -> str:
    lines = []
    for i in range(forces):
        side = "fr" if i % 2 == 0 else "au"
        col, row = (i * 2) % width, (i * 2 // width) * 3 % height
        letters = chr(65 + col % 26) if col < 26 else "A" + chr(65 + col - 26)
        lines.append(f"  - {{key: f{i}, name: Force {i}, side: {side}, square: {letters}{row + 1},"
                     f" leader: {{name: L{i}, cv: 2}}, units: [{{key: u{i}, name: U{i}, sp: 5}}]}}")
    return (f"name: Bench\nstart_date: 1805-10-07\nmap: {{width: {width}, height: {height}}}\n"
            "sides: [{key: fr, name: France}, {key: au, name: Austria}]\nforces:\n" + "\n".join(lines) + "\n")


class Count:
    """Statements SQLAlchemy runs on the engine (BEGIN included), transactions begun, whole-state loads
    and writes that started from the read cache."""

    def __init__(self, db: Database) -> None:
        self.sql = self.begins = self.loads = self.hits = self.tries = 0
        event.listen(db.engine.sync_engine, "before_cursor_execute", self._sql)
        event.listen(db.engine.sync_engine, "begin", self._begin)
        load, for_write = repository.load, readcache.for_write

        async def counted_load(*args: Any, **kwargs: Any) -> Any:
            self.loads += 1
            return await load(*args, **kwargs)

        def counted_for_write(*args: Any, **kwargs: Any) -> Any:
            self.tries += 1
            hit = for_write(*args, **kwargs)
            self.hits += hit is not None
            return hit

        repository.load = counted_load  # type: ignore[assignment]
        readcache.for_write = counted_for_write  # type: ignore[assignment]

    def _sql(self, *_args: Any) -> None:
        self.sql += 1

    def _begin(self, *_args: Any) -> None:
        self.begins += 1

    def now(self) -> tuple[int, int, int]:
        return self.sql, self.begins, self.loads


async def gather_limited(n: int, job: Any) -> float:
    """``n`` calls of ``job(i)``, ``CONCURRENCY`` at a time at most; returns per second."""
    gate = asyncio.Semaphore(CONCURRENCY)

    async def one(i: int) -> None:
        async with gate:
            await job(i)

    t = time.perf_counter()
    await asyncio.gather(*(one(i) for i in range(n)))
    return n / (time.perf_counter() - t)


async def bare_rate(db: Database, cid: int, n: int) -> float:
    """Bare write transactions: lock the campaign row, insert one log row, commit."""
    async def job(i: int) -> None:
        async with db.transaction() as s:
            q = text("SELECT id FROM campaign WHERE id = :c" + ("" if db.sqlite else " FOR UPDATE"))
            conn = await s.connection()
            await conn.execute(q, {"c": cid})
            await conn.execute(insert(LogEntry.__table__), {"campaign_id": cid, "turn": 1, "phase": 1, "kind": "event",
                                                         "visibility": "gm", "text": f"bare {i}", "version": 0,
                                                         "undone": False, "created_at": dt.datetime.now(dt.UTC)})
    return await gather_limited(n, job)


async def run(url: str, label: str, n: int) -> None:
    db = Database(url)
    await db.upgrade()
    count = Count(db)
    created = await campaigns.create_campaign(db, guild_id=1, channel_id=1, gm=GM, name="Big", scenario_text=scenario(200))
    cid = created.campaign_id
    players = {side: Actor(100 + k, name=side) for k, side in enumerate(("fr", "au"))}
    for side, actor in players.items():
        await campaigns.join_side(db, cid, actor, side)
    st = await views.status(db, cid, GM)
    await resolution.resolve_phase(db, cid, GM, expected_version=st.version)  # weather -> orders
    members = [Actor(1000 + i, name=f"p{i}") for i in range(CONCURRENCY)]
    for i, m in enumerate(members):
        await campaigns.assign(db, cid, GM, m.member_id, "fr" if i % 2 == 0 else "au")

    bare = await bare_rate(db, cid, n)
    await views.status(db, cid, GM)
    hits, tries = count.hits, count.tries

    async def order(i: int) -> None:
        actor = members[(i % 2) + 2 * ((i // 2) % (CONCURRENCY // 2))]
        await orders.give_order(db, cid, actor, f"f{i % 200}", "forced_march")

    rate = await gather_limited(n, order)
    hit_share = f"{count.hits - hits}"
    bare_after = await bare_rate(db, cid, n)
    bare = (bare + bare_after) / 2
    print(f"[{label}] order submissions: {rate:.0f}/s against bare write transactions {bare:.0f}/s:"
          f" {rate / bare:.2f}x (goal: at least 0.5x; {n} each, {CONCURRENCY} at once);"
          f" in {count.tries - tries} transactions, {hit_share} started from the read cache")
    await views.status(db, cid, GM)
    before = count.now()
    await orders.mark_done(db, cid, players["fr"], done=True)
    await orders.mark_done(db, cid, players["fr"], done=False)
    sql = (count.sql - before[0]) // 2
    print(f"[{label}] one write alone (a side marked done): {sql} SQL statements")

    st = await views.status(db, cid, GM)
    await resolution.resolve_phase(db, cid, GM, expected_version=st.version, forced=True)  # -> movement
    view = await views.status(db, cid, GM)
    for f in view.forces:
        col = f.square.rstrip("0123456789")
        row = int(f.square[len(col):])
        with contextlib.suppress(EngineError):  # a Force the test put on Defend does not move
            await orders.declare_move(db, cid, players[f.side], f.key, f"{col}{row + 1 if row < 30 else row - 1}")
    st = await views.status(db, cid, GM)
    before = count.now()
    t = time.perf_counter()
    await resolution.resolve_phase(db, cid, GM, expected_version=st.version, forced=True)
    took = (time.perf_counter() - t) * 1000
    sql, begins, loads = (a - b for a, b in zip(count.now(), before, strict=True))
    readcache.clear()
    before = count.now()
    async with db.sessions() as s:
        await repository.load(s, cid)
    one_load = count.sql - before[0]
    print(f"[{label}] movement resolution of 200 Forces: {sql} SQL statements in {begins} transaction(s),"
          f" {loads} whole-state load(s), {took:.0f} ms; one whole load alone: {one_load} statements"
          f" ({sql / one_load:.1f}x)")
    await db.dispose()


async def reset_pg() -> None:
    server = create_async_engine(PG.rsplit("/", 1)[0] + "/postgres", isolation_level="AUTOCOMMIT")
    async with server.connect() as conn:
        name = PG.rsplit("/", 1)[1]
        if not (await conn.execute(text("SELECT 1 FROM pg_database WHERE datname = :n"), {"n": name})).first():
            await conn.execute(text(f'CREATE DATABASE "{name}"'))
    await server.dispose()
    engine = create_async_engine(PG)
    async with engine.begin() as conn:
        await conn.execute(text("DROP SCHEMA public CASCADE"))
        await conn.execute(text("CREATE SCHEMA public"))
    await engine.dispose()


async def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--backend", choices=["sqlite", "postgresql", "both"], default="both")
    parser.add_argument("--orders", type=int, default=200)
    args = parser.parse_args()
    if args.backend in ("sqlite", "both"):
        with tempfile.TemporaryDirectory() as d:
            await run(f"sqlite+aiosqlite:///{d}/bench.db", "sqlite", args.orders)
    if args.backend in ("postgresql", "both"):
        try:
            await reset_pg()
        except Exception as exc:
            print(f"[postgresql] skipped: {exc}")
            return
        await run(PG, "postgresql", args.orders)


if __name__ == "__main__":
    asyncio.run(main())
