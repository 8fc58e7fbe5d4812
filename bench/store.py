"""Store benchmark, for SQLite and PostgreSQL.

Prints: p50 and p99 of `status` over 1,000 campaigns of 20 Forces each; the time to resolve a
movement phase of a campaign with 200 Forces; order submissions per second from 50 concurrent
players. Goals: status p99 under 10 ms; a 200-Force movement phase under 300 ms.

It also prints:

- The SQL statements that 200-Force movement phase runs (every Force but those the Force test put
  on Defend has declared a move), counted by a ``before_cursor_execute`` listener on the engine
  (BEGIN included), and the statements and time of the first `status` after it. The read cache's stamp query runs on a driver connection of its
  own, which SQLAlchemy does not see: it is counted apart ("+ 1 stamp query").
- Status after a write, on a campaign of 20 Forces (in phase 1) and on the 200-Force one (in phase 2,
  moves declared): 20 times, a player marks their side done (or not done again) and reads `status`
  twice. The ratio is the first read after the write (median) over the second, a cache hit on an
  unchanged campaign: the trivial command (median). Goal: 2x (the issue measured 6.7x). The first
  `status` after the 200-Force resolution, over the same trivial command, is printed too.
- A 2,000-Force campaign (map 100x60, 2 units per Force; past the upload limit on Forces, which the
  benchmark raises while it parses this scenario): the time of the first `status` after a
  player's write (median and worst of 5), and the longest the event loop is blocked meanwhile (the
  longest gap of a ticker task sleeping 1 ms in a loop, the 1 ms included). Goal: under 50 ms (the
  issue measured 1.66 s, blocking the event loop 1.18 s).

    .venv/bin/python bench/store.py [--campaigns 1000] [--backend sqlite|postgresql|both] [--only-new]

With the status card (issue 26 item 2), the 2,000-Force figure is taken for both what ``/campaign status``
builds (the card: only the Forces its embed shows) and the whole view, each first after its own write, in
turn, and their ratio printed. ``--only-large`` runs that part alone.

``--only-new`` skips the 1,000 campaigns and their `status` percentiles (the slow part): the 20-Force
status after a write, the 200-Force figures (orders, movement phase, statements, status after a
write) and the 2,000-Force ones remain.

PostgreSQL is read from ADC_BENCH_POSTGRES_URL (default: the local adc_test database, which the
benchmark wipes).
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import dataclasses
import math
import os
import random
import statistics
import sys
import tempfile
import time
from collections.abc import Awaitable, Callable
from pathlib import Path
from typing import Any, TypeVar

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from sqlalchemy import event, text
from sqlalchemy.ext.asyncio import create_async_engine

from bot import scenario as scenario_module
from bot.engine.errors import EngineError
from bot.engine.model import Square
from bot.services import campaigns, orders, resolution, views
from bot.services.actors import Actor
from bot.store import readcache
from bot.store.db import Database

T = TypeVar("T")

GM = Actor(1, name="gm")
PG = os.environ.get("ADC_BENCH_POSTGRES_URL", "postgresql+asyncpg://postgres@127.0.0.1:5432/adc_test")
WRITES = 20
"""Writes, each followed by two `status` reads, for the status-after-a-write ratio."""
LARGE_FORCES, LARGE_WIDTH, LARGE_HEIGHT, LARGE_WRITES = 2000, 100, 60, 5
LARGE_PAIRS = 11
"""Writes each followed by the whole view, and as many by the status card, on the 2,000-Force campaign."""


def scenario(forces: int, width: int = 40, height: int = 30) -> str:
    # Two columns apart in a row; rows 3 apart, closer when the Forces need more rows than that leaves.
    spacing = max(1, min(3, height // math.ceil(forces * 2 / width)))
    lines = []
    for i in range(forces):
        side = "fr" if i % 2 == 0 else "au"
        col, row = (i * 2) % width, (i * 2 // width) * spacing % height
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


def large_spec(forces: int, width: int, height: int) -> scenario_module.Scenario:
    """The scenario of ``scenario(forces, width, height)``, parsed with the scenario limits raised as far as
    it needs (uploads are held to fewer Forces than the 2,000 the issue measured)."""
    yaml_text = scenario(forces, width, height)
    limits = scenario_module.LIMITS
    scenario_module.LIMITS = dataclasses.replace(
        limits, forces=max(limits.forces, forces), units=max(limits.units, 2 * forces),
        file_bytes=max(limits.file_bytes, len(yaml_text.encode())))
    try:
        return scenario_module.parse_scenario_text(yaml_text, key="bench")
    finally:
        scenario_module.LIMITS = limits


class Statements:
    """SQL statements run on ``db``: every cursor execution SQLAlchemy makes on its engine (``sql``), and
    the read cache's stamp queries (``stamps``), made on a driver connection SQLAlchemy does not see."""

    stamps = 0
    _patched = False

    def __init__(self, db: Database) -> None:
        self.sql = 0
        event.listen(db.engine.sync_engine, "before_cursor_execute", self._on_execute)
        if not Statements._patched and hasattr(readcache, "_fetch_stamp"):
            Statements._patched = True
            fetch = readcache._fetch_stamp

            async def counted(*args: Any) -> Any:
                Statements.stamps += 1
                return await fetch(*args)

            readcache._fetch_stamp = counted

    def _on_execute(self, *_args: Any) -> None:
        self.sql += 1

    def now(self) -> tuple[int, int]:
        return self.sql, Statements.stamps

    def since(self, before: tuple[int, int]) -> str:
        sql, stamps = self.sql - before[0], Statements.stamps - before[1]
        return f"{sql} SQL statements" + (f" + {stamps} stamp quer{'y' if stamps == 1 else 'ies'}" if stamps else "")


async def timed(call: Awaitable[T]) -> tuple[T, float]:
    """``call``'s result and how long it took, in ms."""
    t = time.perf_counter()
    result = await call
    return result, (time.perf_counter() - t) * 1000


async def blocking(call: Awaitable[T]) -> tuple[T, float, float]:
    """``call``'s result, how long it took and the longest gap of a ticker sleeping 1 ms meanwhile (ms)."""
    running = True

    async def tick() -> float:
        worst, last = 0.0, time.perf_counter()
        while running:
            await asyncio.sleep(0.001)
            now = time.perf_counter()
            worst, last = max(worst, now - last), now
        return worst * 1000

    ticker = asyncio.create_task(tick())
    await asyncio.sleep(0)  # the ticker takes its first sleep
    try:
        result, took = await timed(call)
    finally:
        running = False
    return result, took, await ticker


@dataclasses.dataclass
class Reads:
    """Reads after writes (ms): the first read after each write, the longest the event loop was blocked
    during it, the second read (a cache hit); the statements of the last first read."""

    first: list[float]
    blocked: list[float]
    second: list[float]
    statements: str

    def ratio(self, label: str, forces: int, extra: str = "") -> None:
        first_ms, cached_ms = statistics.median(self.first), statistics.median(self.second)
        print(f"[{label}] status after a write ({forces} Forces, a player's mark_done, median of {len(self.first)}):"
              f" first {first_ms:.2f} ms ({self.statements}), cached {cached_ms:.2f} ms, ratio"
              f" {first_ms / cached_ms:.1f}x (goal: 2x; issue: 6.7x){extra}")


async def after_writes(counter: Statements, write: Callable[[int], Awaitable[Any]],
                       read: Callable[[], Awaitable[Any]], n: int) -> Reads:
    """``n`` times: ``write(k)``, then ``read()`` twice."""
    out = Reads([], [], [], "")
    for k in range(n):
        await write(k)
        before = counter.now()
        _, took, gap = await blocking(read())
        out.statements = counter.since(before)
        out.first.append(took)
        out.blocked.append(gap)
        out.second.append((await timed(read()))[1])
    return out


async def marking(db: Database, counter: Statements, cid: int, player: Actor, n: int) -> Reads:
    """:func:`after_writes` with ``player`` marking their side done, then not done, ... (phase 1 or 2),
    and reading ``status``; the side is left not done."""

    async def mark(k: int) -> None:
        await orders.mark_done(db, cid, player, done=k % 2 == 0)

    out = await after_writes(counter, mark, lambda: views.status(db, cid, player), n)
    await orders.mark_done(db, cid, player, done=False)
    return out


async def small_ratio(db: Database, label: str, counter: Statements, forces: int = 20) -> None:
    """Status after a write on a campaign of ``forces`` Forces, in phase 1 (Orders)."""
    created = await campaigns.create_campaign(db, guild_id=1, channel_id=3, gm=GM, name="Small",
                                              scenario_text=scenario(forces))
    cid = created.campaign_id
    player = Actor(300, name="fr")
    await campaigns.join_side(db, cid, player, "fr")
    await campaigns.join_side(db, cid, Actor(301, name="au"), "au")
    st = await views.status(db, cid, GM)
    await resolution.resolve_phase(db, cid, GM, expected_version=st.version)  # weather -> orders
    (await marking(db, counter, cid, player, WRITES)).ratio(label, forces)


async def reset_pg() -> None:
    engine = create_async_engine(PG)
    async with engine.begin() as conn:
        await conn.execute(text("DROP SCHEMA public CASCADE"))
        await conn.execute(text("CREATE SCHEMA public"))
    await engine.dispose()


async def status_percentiles(db: Database, label: str, n_campaigns: int) -> None:
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


async def movement_phase(db: Database, label: str, counter: Statements) -> None:
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
    declared, defend = 0, sum(f.order == "defend" for f in view.forces)
    for f in view.forces:
        side_actor = players[f.side]
        col = f.square.rstrip("0123456789")
        row = int(f.square[len(col):])
        nxt = f"{col}{row + 1 if row < 30 else row - 1}"
        with contextlib.suppress(EngineError):  # a Force the test put on Defend does not move
            await orders.declare_move(db, cid, side_actor, f.key, nxt)
            declared += 1

    # Status after a write: a player marks their side done, then not done, ... and reads status twice.
    player = players["fr"]
    reads = await marking(db, counter, cid, player, WRITES)

    st = await views.status(db, cid, GM)
    before = counter.now()
    res, took = await timed(resolution.resolve_phase(db, cid, GM, expected_version=st.version, forced=True))
    resolved = counter.since(before)
    before = counter.now()
    _, after_ms = await timed(views.status(db, cid, player))
    read = counter.since(before)
    print(f"[{label}] movement phase of 200 Forces resolved in {took:.0f} ms, {len(res.battles)} battles (goal: < 300 ms)")
    print(f"[{label}] movement phase of 200 Forces ({declared} moves declared, {defend} Forces on Defend):"
          f" {resolved} in {took:.0f} ms; the first status after it: {read} in {after_ms:.1f} ms")
    cached_ms = statistics.median(reads.second)
    reads.ratio(label, 200, f"; after the resolution {after_ms:.2f} ms, {after_ms / cached_ms:.1f}x")


async def large_status(db: Database, label: str, counter: Statements) -> None:
    t = time.perf_counter()
    created = await campaigns.create_campaign(db, guild_id=1, channel_id=2, gm=GM, name="Large",
                                              spec=large_spec(LARGE_FORCES, LARGE_WIDTH, LARGE_HEIGHT))
    cid = created.campaign_id
    players = {side: Actor(200 + k, name=side) for k, side in enumerate(("fr", "au"))}
    for side, actor in players.items():
        await campaigns.join_side(db, cid, actor, side)
    st = await views.status(db, cid, GM)
    await resolution.resolve_phase(db, cid, GM, expected_version=st.version)  # weather -> orders
    setup = time.perf_counter() - t
    if not hasattr(views, "status_card"):  # the code before issue 26 item 2: /campaign status built the whole view
        r = await marking(db, counter, cid, players["fr"], LARGE_WRITES)
        print(f"[{label}] {LARGE_FORCES} Forces ({LARGE_WIDTH}x{LARGE_HEIGHT} map, set up in {setup:.1f} s), first status"
              f" after a player's write: median {statistics.median(r.first):.0f} ms, worst {max(r.first):.0f} ms"
              f" ({r.statements}); blocks the event loop up to {max(r.blocked):.0f} ms (median"
              f" {statistics.median(r.blocked):.0f} ms); cached status {statistics.median(r.second):.2f} ms"
              f" (goal: < 50 ms; issue: 1.66 s, blocking 1.18 s)")
        return
    # The whole view (what /campaign status built before issue 26 item 2, and the autocompletes still read)
    # and the status card (what it builds now), each read first after its own write, in turn.
    player = players["fr"]
    reads = {"whole": Reads([], [], [], ""), "card": Reads([], [], [], "")}
    readers = {"whole": views.status, "card": views.status_card}
    for k in range(LARGE_PAIRS):
        for i, which in enumerate(("whole", "card") if k % 2 == 0 else ("card", "whole")):
            await orders.mark_done(db, cid, player, done=i == 0)  # done, then not done: each a write
            out = reads[which]
            before = counter.now()
            _, took, gap = await blocking(readers[which](db, cid, player))
            out.statements = counter.since(before)
            out.first.append(took)
            out.blocked.append(gap)
    await orders.mark_done(db, cid, player, done=False)
    for which, what in (("whole", "the whole view"), ("card", "/campaign status's card")):
        r = reads[which]
        print(f"[{label}] {LARGE_FORCES} Forces ({LARGE_WIDTH}x{LARGE_HEIGHT} map, set up in {setup:.1f} s), {what}"
              f" first after a player's write: median {statistics.median(r.first):.1f} ms, worst {max(r.first):.0f} ms"
              f" ({r.statements}); blocks the event loop up to {max(r.blocked):.0f} ms")
    whole, card = statistics.median(reads["whole"].first), statistics.median(reads["card"].first)
    print(f"[{label}] {LARGE_FORCES} Forces: /campaign status after a write {card:.1f} ms against the whole view's"
          f" {whole:.1f} ms: {card / whole:.2f}x (goal: < 50 ms; issue: 22-25 ms, the whole view)")


async def run(url: str, label: str, n_campaigns: int, *, only_new: bool = False, only_large: bool = False) -> None:
    db = Database(url)
    await db.upgrade()
    counter = Statements(db)
    if only_large:
        await large_status(db, label, counter)
        await db.dispose()
        return
    if not only_new:
        await status_percentiles(db, label, n_campaigns)
    await small_ratio(db, label, counter)
    await movement_phase(db, label, counter)
    await large_status(db, label, counter)
    await db.dispose()


async def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--campaigns", type=int, default=1000)
    parser.add_argument("--backend", choices=["sqlite", "postgresql", "both"], default="both")
    parser.add_argument("--only-new", action="store_true",
                        help="skip the 1,000-campaign status percentiles (the other figures remain)")
    parser.add_argument("--only-large", action="store_true",
                        help="only the 2,000-Force status after a write (issue 26 item 2)")
    args = parser.parse_args()
    if args.backend in ("sqlite", "both"):
        with tempfile.TemporaryDirectory() as d:
            await run(f"sqlite+aiosqlite:///{d}/bench.db", "sqlite", args.campaigns, only_new=args.only_new,
                      only_large=args.only_large)
    if args.backend in ("postgresql", "both"):
        try:
            await reset_pg()
        except Exception as exc:
            print(f"[postgresql] skipped: {exc}")
            return
        await run(PG, "postgresql", args.campaigns, only_new=args.only_new, only_large=args.only_large)


if __name__ == "__main__":
    asyncio.run(main())
