"""Heavy work under abuse (issue 24): what a hostile member's requests cost, with a heartbeat on the
event loop (a task that ticks every 5 ms; the longest gap between ticks is the loop's longest stall).

- timelapse: the largest legal campaign (100x100, 500 Forces, 5,000 units) with ``--turns`` ended turns
  of frames (each Force one square further every turn), drawn for a side: wall time, the loop's longest
  stall, the process's peak memory growth; then the same request again (the GIF kept until the next
  turn ends); ``--before`` also times what the code before issue 24 did on the loop (the fog-of-war
  views of every frame) to show the stall it caused.
- painting: peak resident memory of reading the largest painting now accepted (2000x2000) and of the
  4096x4096 one accepted before, each in a fresh process; the time to refuse a 17 KB RLE8 BMP now, and
  to decode it as before.
- import: the largest legal campaign's export (packed), imported: wall time and the loop's longest stall.

The first line is the control, a loop doing nothing for 5 s in the same run (the machine may be shared);
the last lines a table of every stall measured. ``ADC_BENCH_ROOT=/other/checkout`` measures another
checkout's bot (its code before a change, say).

    .venv/bin/python bench/abuse.py [--turns 120] [--before] [--skip-timelapse]
"""

from __future__ import annotations

import argparse
import asyncio
import gc
import io
import os
import resource
import subprocess
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, os.environ.get("ADC_BENCH_ROOT") or str(Path(__file__).resolve().parent.parent))

import contextlib

from heartbeat import STALL, Heartbeat, baseline
from sqlalchemy import text

from bot.campaign.frames import Frame, FrameForce
from bot.engine.model import Square
from bot.scenario import parse_scenario_text
from bot.services import campaigns, exchange, timelapse
from bot.services.actors import Actor
from bot.store.db import Database
from bot.store.frames import save_frame
from tests.campaign.test_largest_export import largest_scenario

GM = Actor(1)
ROWS: list[tuple[str, float, float]] = []
"""(what, seconds, longest stall in seconds) of each measure, for the table at the end."""
PLAYER = Actor(2)


def rss_mb() -> float:
    return resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024


async def largest_campaign(db: Database, turns: int) -> int:
    spec = parse_scenario_text(largest_scenario(), key="largest")
    made = await campaigns.create_campaign(db, guild_id=1, channel_id=1, gm=GM, name="Largest", scenario="largest",
                                           spec=spec)
    cid = made.campaign_id
    await campaigns.join_side(db, cid, PLAYER, "a")
    forces = [(f.key, f.side, f.name, Square.parse(f.square)) for f in spec.forces]
    async with db.transaction() as s:
        for t in range(1, turns + 1):
            moved = tuple(FrameForce(k, side, name, str(Square(min(99, sq.col + t // 2), sq.row)), 40)
                          for k, side, name, sq in forces)
            await save_frame(s, cid, Frame(t, f"1805-10-{7 + t % 20:02d}", None, moved))
        await s.exec(text("UPDATE campaign SET turn = :t WHERE id = :c").bindparams(t=turns + 1, c=cid))  # type: ignore[call-overload]
    return cid


async def bench_timelapse(db: Database, turns: int, before: bool) -> None:
    cid = await largest_campaign(db, turns)
    timelapse.forget_cached()
    gc.collect()
    gc.freeze()  # as the bot does once it is set up (bot/app.py)
    if before:  # the code before issue 24: every frame's fog-of-war view built on the loop
        from bot.services.readcache import read

        with Heartbeat() as hb:
            t0 = time.perf_counter()
            cr = await read(db, cid, {timelapse.FRAMES: timelapse._frames})
            reader, _key, label = timelapse.reader_of(cr.state, cr.standing(PLAYER))
            timelapse.snapshots(cr.state, cr.parts[timelapse.FRAMES], reader, label)
            took = time.perf_counter() - t0
        print(f"[timelapse, before] the views of {turns + 1} frames built on the loop: {took:.2f} s, "
              f"longest stall {hb.longest * 1000:.0f} ms")
    from bot.services import views

    with Heartbeat() as hb:  # the campaign read once, as a member's /campaign status does (the store's work)
        t0 = time.perf_counter()
        await views.status(db, cid, PLAYER)
        took = time.perf_counter() - t0
    print(f"[timelapse] (the campaign's first read, as for any command: {took:.2f} s, longest stall "
          f"{hb.longest * 1000:.0f} ms)")
    start_rss = rss_mb()
    with Heartbeat() as hb:
        t0 = time.perf_counter()
        lapse = await timelapse.timelapse_gif(db, cid, PLAYER, in_process=True)
        took = time.perf_counter() - t0
    assert lapse is not None
    ROWS.append((f"timelapse, {turns} turns, for a side (worker process)", took, hb.longest))
    print(f"[timelapse] largest legal campaign, {turns} ended turns, drawn for a side in a worker process: "
          f"{lapse.frames} frames, "
          f"{len(lapse.gif) / 1024:.0f} KiB in {took:.1f} s; longest event-loop stall {hb.longest * 1000:.0f} ms; "
          f"the bot's peak memory +{rss_mb() - start_rss:.0f} MB")
    with Heartbeat() as hb:
        t0 = time.perf_counter()
        threaded = await timelapse.timelapse_gif(db, cid, Actor(3), in_process=False)  # the public view, in a thread
        took = time.perf_counter() - t0
    assert threaded is not None
    ROWS.append(("timelapse, public view (in a thread)", took, hb.longest))
    print(f"[timelapse] the public view drawn in a thread instead: {took:.1f} s, longest event-loop stall "
          f"{hb.longest * 1000:.0f} ms")
    with Heartbeat() as hb:
        t0 = time.perf_counter()
        again = await timelapse.timelapse_gif(db, cid, PLAYER, admit=lambda: _refuse(), in_process=True)
        took = time.perf_counter() - t0
    assert again is lapse
    print(f"[timelapse] the same request again (kept until the next turn ends, no gate): {took * 1000:.1f} ms, "
          f"longest stall {hb.longest * 1000:.0f} ms")


def _refuse():  # type: ignore[no-untyped-def]
    raise AssertionError("a kept timelapse must not be drawn again")


PAINT_PROBE = """
import io, resource, sys
sys.path.insert(0, {root!r})
from PIL import Image
from bot import paint
paint.MAX_SIDE = 4096; paint.MAX_PIXELS = 4096 * 4096; paint.MAX_BYTES = 64 * 1024 * 1024
side = {side}
im = Image.new("RGB", (side, side), (0, 128, 0))
im.paste((255, 255, 0), (0, 0, side // 2, side // 3))
out = io.BytesIO(); im.save(out, "PNG"); data = out.getvalue(); del im, out
before = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
paint.read_painting(data, width=100, height=100)
print((resource.getrusage(resource.RUSAGE_SELF).ru_maxrss - before) / 1024)
"""


def bench_painting() -> None:
    root = str(Path(__file__).resolve().parent.parent)
    for side, when in ((2000, "now, the largest accepted"), (4096, "before, the largest accepted then")):
        out = subprocess.run([sys.executable, "-c", PAINT_PROBE.format(root=root, side=side)], capture_output=True,
                             text=True, check=True)
        print(f"[painting] {side}x{side} image read ({when}): peak memory +{float(out.stdout):.0f} MB")
    from PIL import Image

    from bot import paint
    from bot.engine.errors import InvalidInput

    im = Image.new("P", (4096, 4096))
    raw = io.BytesIO()
    im.save(raw, "BMP")
    data = raw.getvalue()
    # RLE8: a header saying so, and runs that each paint a pixel: Pillow decodes them one by one
    body = bytes([1, 0]) * 8000 + b"\x00\x01"
    header = bytearray(data[:54 + 1024])
    header[30:34] = (1).to_bytes(4, "little")
    header[34:38] = len(body).to_bytes(4, "little")
    bmp = bytes(header) + body
    t0 = time.perf_counter()
    with contextlib.suppress(Exception):
        Image.open(io.BytesIO(bmp), formats=("BMP",)).load()
    decoded = time.perf_counter() - t0
    t0 = time.perf_counter()
    with contextlib.suppress(InvalidInput):
        paint.read_painting(bmp)
    refused = time.perf_counter() - t0
    print(f"[painting] a {len(bmp) / 1024:.0f} KB RLE8 BMP: decoded as before in {decoded:.2f} s; refused now in "
          f"{refused * 1000:.2f} ms")


async def bench_import(db: Database) -> None:
    spec = parse_scenario_text(largest_scenario(), key="largest")
    made = await campaigns.create_campaign(db, guild_id=2, channel_id=2, gm=GM, name="Exported", scenario="largest",
                                           spec=spec)
    data = await exchange.export_campaign(db, made.campaign_id, GM)
    plain, packed = exchange.export_bytes(data), exchange.packed(data)
    from bot.services.budget import quietly

    with Heartbeat() as hb:
        t0 = time.perf_counter()
        parsed = await asyncio.to_thread(quietly, exchange.parse_export, packed)
        await exchange.import_campaign(db, parsed, guild_id=3, channel_id=3, gm=GM)
        took = time.perf_counter() - t0
    ROWS.append(("import, the largest legal campaign", took, hb.longest))
    print(f"[import] the largest legal campaign at its start: export {len(plain) / 1e6:.1f} MB, packed "
          f"{len(packed) / 1e6:.2f} MB (default limit 2 MiB); imported in {took:.1f} s, longest event-loop stall "
          f"{hb.longest * 1000:.0f} ms")


def over_the_unit_cap() -> bytes:
    """The largest legal campaign's scenario with Forces added up to the byte limit (bench/upload.py):
    over the Force and unit caps, as the issue's 514 KB refusal."""
    from upload import over_the_caps

    return over_the_caps(largest_scenario())


async def bench_scenarios() -> None:
    from bot import scenario as scenarios
    from bot.services.budget import quietly

    for name, raw in (("the largest legal scenario", largest_scenario()), ("one over the unit cap", over_the_unit_cap())):
        for how, run in (("paused collector", quietly), ("as before", None)):
            with Heartbeat() as hb:
                t0 = time.perf_counter()
                try:
                    if run is None:
                        await asyncio.to_thread(scenarios.parse_scenario_text, raw, key="x")
                    else:
                        await asyncio.to_thread(run, scenarios.parse_scenario_text, raw, key="x")
                    said = "accepted"
                except Exception as exc:  # the refusal is the point
                    said = f"refused ({str(exc)[:60]})"
                took = time.perf_counter() - t0
            ROWS.append((f"scenario: {name}, {how}", took, hb.longest))
            print(f"[scenario] {name} ({len(raw) / 1024:.0f} KiB), {how}: {said} in {took:.2f} s; longest event-loop "
                  f"stall {hb.longest * 1000:.0f} ms")


async def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--turns", type=int, default=120)
    parser.add_argument("--before", action="store_true")
    parser.add_argument("--skip-timelapse", action="store_true")
    args = parser.parse_args()
    gc.collect()
    gc.freeze()  # as the bot does once it is set up (bot/app.py)
    idle, load = await baseline()  # the control: what the machine's other work costs a loop doing nothing
    print(f"[baseline] the loop doing nothing for 5 s: longest stall {idle * 1000:.0f} ms ({load})", flush=True)
    bench_painting()
    await bench_scenarios()
    with tempfile.TemporaryDirectory() as tmp:
        db = Database(f"sqlite+aiosqlite:///{tmp}/abuse.db")
        await db.upgrade()
        await bench_import(db)
        if not args.skip_timelapse:
            await bench_timelapse(db, args.turns, args.before)
        await db.dispose()
    print(f"\nEvent-loop stalls (goal: none over {STALL * 1000:.0f} ms), one run; control (idle loop, 5 s): "
          f"{idle * 1000:.0f} ms, {load}")
    print(f"| {'what was served':<56} | {'time':>7} | {'longest stall':>13} |")
    print(f"|{'-' * 58}|{'-' * 9}|{'-' * 15}|")
    for label, took, worst in ROWS:
        print(f"| {label:<56} | {took:5.2f} s | {worst * 1000:10.0f} ms |")


if __name__ == "__main__":
    asyncio.run(main())
