"""Scenario upload benchmark: the largest legal scenario uploaded with ``/campaign create file:``.

Drives the bot through simcord (a virtual Discord, offline) and prints, while the scenario is
uploaded, parsed, validated and its campaign created (the opening map included):

- the longest event-loop stall, measured by a coroutine that ticks every 5 ms (goal: none over 100 ms);
- the time until the interaction is acknowledged (the defer) and until the campaign is announced;
- peak resident memory of the process (``ru_maxrss``; goal: under 300 MB) and the Python heap's
  peak during the upload (``tracemalloc`` in a second, separate run, since tracing slows everything).

The scenario is built from the limits in ``bot/scenario.py`` (``LIMITS``): the widest and tallest
map, every square given by ``rows``, every expansion budget used by ranges, the most sides, and as
many Forces with as many units and names as long as the byte limit leaves room for.
``--attack`` also times the 1.4 KB range bomb of the security issue (refused early once limited).

    .venv/bin/python bench/upload.py [--attack] [--no-tracemalloc]
"""

from __future__ import annotations

import argparse
import asyncio
import gc
import logging
import resource
import sys
import tempfile
import time
import tracemalloc
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

import simcord
import yaml
from heartbeat import Heartbeat as Ticker

from bot import scenario as scenario_module
from bot.app import create_bot
from bot.engine.model import Square
from bot.settings import Settings


def limit(name: str, default: int) -> int:
    """A limit from bot/scenario.py (the defaults are the code before the limits were named)."""
    limits = getattr(scenario_module, "LIMITS", None)
    return getattr(limits, name, default) if limits is not None else default


def largest_scenario() -> bytes:
    """The largest scenario the parser accepts, as YAML bytes just under the byte limit."""
    w = h = limit("map_side", 200)
    sides_n = limit("sides", 8)
    name_n = limit("name", 100)
    max_bytes = limit("file_bytes", scenario_module.MAX_BYTES)
    per_field = limit("squares_per_field", 10**9)
    total = limit("squares_total", 10**9)
    max_forces = limit("forces", 2000)
    max_units_force = limit("units_per_force", 40)
    max_units = limit("units", 10**9)
    chars = "cfhmswdj."
    rows = ["".join(chars[(c + r) % len(chars)] for c in range(w)) for r in range(h)]
    sides = [{"key": f"s{i}", "name": f"Side {i} " + "n" * (name_n - 8), "colour": f"#{i * 30:02x}4e9c",
              "nation": "N" * 40} for i in range(sides_n)]
    band = max(1, h // sides_n)
    budget = min(total, 10**7)
    used = 0

    def take(n: int) -> bool:
        nonlocal used
        if used + n > budget:
            return False
        used += n
        return True

    rivers = [{"squares": [f"{Square(c, 0)}:{Square(c, h - 1)}"], "flow": "S"} for c in range(3, w, 10)]
    roads = [f"A{r + 1}:{Square(w - 1, r)}" for r in range(5, h, 10)]
    bridges = [f"{Square(3, r)}" for r in range(5, h, 10)]
    take(len(rivers) * h + len(roads) * w + len(bridges))
    territories = {}
    strongholds = {}
    capitals = {}
    for i, s in enumerate(sides):
        top, bottom = i * band, (h - 1 if i == sides_n - 1 else (i + 1) * band - 1)
        if take(w * (bottom - top + 1)):
            territories[s["key"]] = [f"A{top + 1}:{Square(w - 1, bottom)}"]
        strongholds[s["key"]] = [f"B{top + 1}", f"C{top + 1}"]
        capitals[s["key"]] = f"B{top + 1}"
        take(2)
    terrain: dict[str, list[str]] = {}
    for kind in ("forest", "hill", "cultivated", "swamp", "mountain"):  # what is left: whole-map ranges
        field = min(per_field, budget - used)
        rows_n = min(h, field // w)
        if rows_n <= 0:
            break
        terrain[kind] = [f"A1:{Square(w - 1, rows_n - 1)}"]
        take(rows_n * w)
    doc = {
        "name": "Largest legal scenario " + "x" * (name_n - 24),
        "description": "d" * limit("description", 4000),
        "climate": "temperate",
        "start_date": "1805-10-07",
        "map": {"width": w, "height": h, "sight": 20, "rows": rows, "terrain": terrain, "rivers": rivers,
                "roads": roads, "bridges": bridges,
                "territories": territories, "strongholds": strongholds, "capitals": capitals},
        "sides": sides,
        "forces": [],
        "supply": {s["key"]: 1000 for s in sides},
    }
    head = yaml.safe_dump(doc, sort_keys=False, width=10**6).encode()
    body = []
    size = len(head)
    units = 0
    for i in range(max_forces):
        side = i % sides_n
        n_units = min(max_units_force, max_units - units)
        if n_units <= 0:
            break
        force = {"key": f"f{i}", "name": f"Force {i} " + "n" * (name_n - 12), "side": f"s{side}",
                 "square": str(Square(1 + (i // h) % (w - 1), side * band + i % band)), "scouts": 20,
                 "leader": {"name": f"Leader {i} " + "l" * (name_n - 12), "cv": 10},
                 "units": [{"key": f"u{i}-{j}", "name": f"Unit {i}/{j} " + "u" * (name_n - 16), "sp": 10_000,
                            "quality": "elite"} for j in range(n_units)]}
        text = yaml.safe_dump([force], sort_keys=False, width=10**6).encode()
        text = b"\n".join(b"  " + line if line else line for line in text.split(b"\n"))
        if size + len(text) + 1 > max_bytes:
            break
        body.append(text)
        size += len(text) + 1
        units += n_units
    out = head.replace(b"forces: []\n", b"forces:\n" + b"\n".join(body) + b"\n")
    assert len(out) <= max_bytes, len(out)
    return out


def over_the_caps(largest: bytes) -> bytes:
    """``largest`` (a scenario with a ``forces:`` list) with Forces of side ``a`` added up to the byte
    limit: refused by the Force and unit caps, the costliest refusal (issue 24: a 514 KB scenario
    stalled the loop 0.25 s, parsed whole before the cap refused it)."""
    max_bytes = limit("file_bytes", scenario_module.MAX_BYTES)
    extra, size, i = [], len(largest), 0
    while True:
        force = (f"- key: x{i}\n  name: X{i}\n  side: a\n  square: A{1 + i % 90}\n  leader: {{name: LX{i}, cv: 2}}\n"
                 f"  units:\n" + "".join(f"  - {{key: x{i}u{j}, name: U{j}, sp: 4, type: infantry}}\n"
                                         for j in range(10))).encode()
        if size + len(force) > max_bytes:
            break
        extra.append(force)
        size += len(force)
        i += 1
    head, _, rest = largest.partition(b"\nforces:\n")
    return head + b"\nforces:\n" + b"".join(extra) + rest


def range_bomb() -> bytes:
    """The issue's 1.4 KB scenario (whole-map ranges repeated under one field), on the largest legal map."""
    side = limit("map_side", 200)
    whole = f"A1:{Square(side - 1, side - 1)}"
    return (f"name: Bomb\nstart_date: 1805-10-07\nmap:\n  width: {side}\n  height: {side}\n  terrain:\n    forest: ["
            + ", ".join([whole] * 140) + "]\nsides: [{key: a, name: A}, {key: b, name: B}]\nforces: []\n").encode()


def rss_peak_mb() -> float:
    return resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024


def rss_now_mb() -> float:
    for line in Path("/proc/self/status").read_text().splitlines():
        if line.startswith("VmRSS:"):
            return int(line.split()[1]) / 1024
    return 0.0


async def upload(raw: bytes, label: str, *, trace: bool) -> None:
    logging.disable(logging.WARNING)
    tmp = Path(tempfile.mkdtemp(prefix="adc-upload-"))
    bot = create_bot(Settings(database_url=f"sqlite+aiosqlite:///{tmp / 'bench.db'}", data_dir=tmp),
                     background_tasks=False)
    async with simcord.run(bot, settle_timeout=600) as env:
        g = env.create_guild("Bench")
        ch = g.create_text_channel("campaign")
        gm = g.add_member(env.create_user("gina"))
        await gm.slash(g.create_text_channel("warm-up"), "campaign create", name="Warm", scenario="tutorial")
        gc.collect()
        before = rss_now_mb()
        if trace:
            tracemalloc.start()
        seen = len(env.http_requests)
        with Ticker() as ticker:
            start = time.perf_counter()
            task = asyncio.ensure_future(gm.slash(ch, "campaign create", name="Big", scenario="big",
                                                  file=("big.yaml", raw)))
            ack = None
            while not task.done():
                await asyncio.sleep(0.002)
                if ack is None and any(isinstance(e.json, dict) and e.json.get("type") in (4, 5)
                                       for e in env.http_requests[seen:]):
                    ack = time.perf_counter() - start
            result = await task
            total = time.perf_counter() - start
        heap = tracemalloc.get_traced_memory()[1] / 2**20 if trace else None
        if trace:
            tracemalloc.stop()
        messages = [m for m in [result.response, *result.followups] if m is not None]
        reply = " | ".join((m.content or "") + " ".join(e.title or "" for e in m.embeds) for m in messages)
        env.errors  # noqa: B018  (acknowledged: a refusal is a result here)
    if trace:
        print(f"[{label}] Python heap peak during the upload (tracemalloc): {heap:.0f} MB")
        return
    print(f"[{label}] {len(raw):,} bytes: acknowledged after {1000 * (ack or total):.0f} ms, done after "
          f"{total:.1f} s; longest event-loop stall {1000 * ticker.worst:.0f} ms ({ticker.stalls} over 100 ms; "
          f"goal: none); peak resident memory {rss_peak_mb():.0f} MB (was {before:.0f} MB before the upload; "
          f"goal: under 300 MB)")
    print(f"[{label}] reply: {reply[:160]!r}")


def describe(raw: bytes) -> str:
    data = yaml.safe_load(raw)
    m = data["map"]
    forces = data["forces"]
    units = sum(len(f["units"]) for f in forces)
    return (f"{m['width']}x{m['height']} map, {len(data['sides'])} sides, {len(forces)} Forces, {units} units, "
            f"{len(raw):,} bytes")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--attack", action="store_true", help="also upload the issue's 1.4 KB range bomb")
    parser.add_argument("--no-tracemalloc", action="store_true", help="skip the second, traced run")
    parser.add_argument("--child", choices=("largest", "bomb", "largest-traced"), help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.child:  # one upload per process, so each peak RSS is its own
        raw = range_bomb() if args.child == "bomb" else largest_scenario()
        asyncio.run(upload(raw, args.child.removesuffix("-traced"), trace=args.child.endswith("-traced")))
        return
    import subprocess

    print(f"largest legal scenario: {describe(largest_scenario())}")
    runs = ["largest"] + ([] if args.no_tracemalloc else ["largest-traced"]) + (["bomb"] if args.attack else [])
    for run in runs:
        subprocess.run([sys.executable, __file__, "--child", run], check=False)


if __name__ == "__main__":
    main()
