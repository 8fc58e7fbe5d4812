"""Command benchmark: the bot driven through simcord (a virtual Discord), offline.

Prints p50 and p99 of each command next to a trivial command measured in the same run (simcord's
own polling costs every call the same few tens of milliseconds, so the ratio is what counts; goal:
every command within 2x the trivial one), the time until ``/campaign map`` is acknowledged (goal:
under 3 s; the render itself follows), and resident memory after N campaigns have each rendered a
map (goal: under 250 MB).

Reads are served from the per-process read cache (bot/store/readcache.py) while the campaign does
not change; the line "after a write" times ``/campaign status`` right after another member's write,
when the campaign's rows are read again (not part of the 2x goal).

    .venv/bin/python bench/commands.py [--calls 40] [--campaigns 100]
"""

from __future__ import annotations

import argparse
import asyncio
import gc
import logging
import sys
import tempfile
import time
from collections.abc import Awaitable, Callable
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

import simcord

from bot.app import create_bot
from bot.limits import Limits
from bot.settings import Settings


def pct(values: list[float], p: float) -> float:
    values = sorted(values)
    return values[min(len(values) - 1, round(p / 100 * (len(values) - 1)))]


def rss_mb() -> float:
    """Resident memory now (VmRSS), in MB."""
    for line in Path("/proc/self/status").read_text().splitlines():
        if line.startswith("VmRSS:"):
            return int(line.split()[1]) / 1024
    import resource

    return resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024


async def timed(call: Callable[[], Awaitable[object]], n: int) -> list[float]:
    out = []
    for _ in range(n):
        start = time.perf_counter()
        await call()
        out.append((time.perf_counter() - start) * 1000)
    return out


async def main(calls: int, campaigns: int) -> None:
    logging.disable(logging.WARNING)
    tmp = Path(tempfile.mkdtemp(prefix="adc-bench-"))
    # The bot-wide limits are lifted: one GM creates every campaign of the memory figure below.
    unlimited = Limits(max_active_campaigns=10**6, max_gm_campaigns=10**6, max_new_campaigns_per_day=10**6)
    bot = create_bot(Settings(database_url=f"sqlite+aiosqlite:///{tmp / 'bench.db'}", data_dir=tmp,
                              limits=unlimited), background_tasks=False)
    async with simcord.run(bot, settle_timeout=60) as env:
        g = env.create_guild("Bench")
        ch = g.create_text_channel("campaign")
        gm = g.add_member(env.create_user("gina"))
        fr = g.add_member(env.create_user("pierre"))
        au = g.add_member(env.create_user("karl"))
        await gm.slash(ch, "campaign create", name="Ulm", scenario="tutorial")
        await fr.slash(ch, "campaign join", side="fr")
        await au.slash(ch, "campaign join", side="au")
        card = await gm.slash(ch, "gm advance")
        await gm.click(card.response, label="Resolve")  # Phase 1: orders

        cases: list[tuple[str, Callable[[], Awaitable[object]]]] = [
            ("trivial: /roll dice 1d6", lambda: fr.slash(ch, "roll dice", expression="1d6")),
            ("/campaign status", lambda: fr.slash(ch, "campaign status")),
            ("/order list", lambda: fr.slash(ch, "order list")),
            ("/order give (odds)", lambda: fr.slash(ch, "order give", force="soult", order="defend")),
            ("/force info", lambda: fr.slash(ch, "force info", force="soult")),
            ("/campaign log", lambda: fr.slash(ch, "campaign log")),
            ("/battle list", lambda: fr.slash(ch, "battle list")),
            ("/leader roster", lambda: fr.slash(ch, "leader roster")),
            ("/glory balance", lambda: fr.slash(ch, "glory balance")),
            ("/gm advance (card)", lambda: gm.slash(ch, "gm advance")),
            ("/roll cc 10", lambda: fr.slash(ch, "roll cc", count=10)),
            ("autocomplete force", lambda: fr.autocomplete(ch, "order give", "force", "")),
            ("autocomplete path", lambda: fr.autocomplete(ch, "order move", "path", "D4", force="soult")),
        ]
        for _, call in cases:  # warm up caches and code paths
            await call()
        # Round robin: simcord's own bookkeeping grows with every message, so each round times every
        # command once, under the same conditions as the trivial one.
        results: dict[str, list[float]] = {name: [] for name, _ in cases}
        for _ in range(calls):
            for name, call in cases:
                results[name] += await timed(call, 1)
        trivial = pct(results[cases[0][0]], 50)
        read = pct(results["/campaign status"], 50)
        print(f"{'command':28} {'p50 ms':>8} {'p99 ms':>8} {'x trivial':>10} {'x status':>9}")
        worst = worst_read = 0.0
        for name, values in results.items():
            ratio, ratio_read = pct(values, 50) / trivial, pct(values, 50) / read
            worst, worst_read = max(worst, ratio), max(worst_read, ratio_read)
            print(f"{name:28} {pct(values, 50):8.1f} {pct(values, 99):8.1f} {ratio:10.2f} {ratio_read:9.2f}")
        print(f"worst p50: {worst:.1f}x the trivial command (goal: at most 2x), "
              f"{worst_read:.1f}x the simplest campaign read (/campaign status)")

        # The first read after a write loads the campaign's rows again (a cache miss).
        after_write = []
        for _ in range(calls):
            await au.slash(ch, "campaign away", days=0)  # a write by another member
            after_write += await timed(lambda: fr.slash(ch, "campaign status"), 1)
        print(f"/campaign status after a write: p50 {pct(after_write, 50):.1f} ms, p99 {pct(after_write, 99):.1f} ms "
              f"({pct(after_write, 50) / trivial:.1f}x the trivial command)")

        # /campaign map: the acknowledgement (the defer) and the whole render.
        acks, totals = [], []
        for _ in range(max(5, calls // 4)):
            seen = len(env.http_requests)
            start = time.perf_counter()
            task = asyncio.ensure_future(fr.slash(ch, "campaign map"))
            ack = None
            while not task.done():
                await asyncio.sleep(0.001)
                if ack is None and any(isinstance(e.json, dict) and e.json.get("type") == 5
                                       for e in env.http_requests[seen:]):
                    ack = (time.perf_counter() - start) * 1000
            await task
            totals.append((time.perf_counter() - start) * 1000)
            acks.append(ack if ack is not None else totals[-1])
        print(f"/campaign map: acknowledged p50 {pct(acks, 50):.0f} ms, p99 {pct(acks, 99):.0f} ms (goal: under 3000 ms); "
              f"map delivered p50 {pct(totals, 50):.0f} ms, p99 {pct(totals, 99):.0f} ms")

        # Memory: N campaigns, each renders a map.
        gc.collect()
        before = rss_mb()
        start = time.perf_counter()
        for i in range(campaigns):
            c = g.create_text_channel(f"c{i}")
            await gm.slash(c, "campaign create", name=f"C{i}", scenario="tutorial")  # posts the opening map
            await gm.slash(c, "campaign map", view="full")
        gc.collect()
        after = rss_mb()
        print(f"{campaigns} campaigns each rendering maps: {time.perf_counter() - start:.1f} s; resident memory "
              f"{after:.0f} MB (was {before:.0f} MB before them; goal: under 250 MB)")


if __name__ == "__main__":
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--calls", type=int, default=40)
    parser.add_argument("--campaigns", type=int, default=100)
    args = parser.parse_args()
    asyncio.run(main(args.calls, args.campaigns))
