"""Event-loop stalls (issue 24 item 6, issue 26 item 4): the longest the bot's event loop goes without
running a heartbeat task (a coroutine asking to wake every 5 ms, on the bot's own loop) while the bot,
driven through simcord (a virtual Discord, offline), serves the heaviest legal inputs and the costliest
refused one:

- the largest legal upload (bench/upload.py's scenario: 100x100 map, 8 sides, 3,000 units);
- a refused upload: the largest legal campaign's scenario with Forces added up to the byte limit
  (over the Force and unit caps);
- the scenario generator at 100x100 with 8 sides (``/campaign create scenario:generated``);
- the whole map of that 100x100 campaign (``/campaign map extent:whole``);
- the largest legal campaign (100x100, 500 Forces, 5,000 units) uploaded, its public whole map, and
  its export (packed) imported back (``/campaign create file:``);
- the bot general seated on a side of 250 Forces in Phase 1 (``/gm assign side general:bot``: it gives
  every order at once, RU-26);
- a movement resolution of 2,000 Forces (a 100x60 campaign set up through the services, the GM's
  ``/gm advance`` and its Resolve button).

Goal: no stall over 100 ms. The machine may be shared: the first line is the control, a loop doing
nothing for 5 s in the same run; a stall of that size is the machine's, not the bot's. The timelapse
is measured by bench/abuse.py. ``ADC_STALL_TRACE=1`` prints where the stalls come from
(bench/heartbeat.py); ``ADC_BENCH_ROOT=/other/checkout`` measures another checkout's bot.

    .venv/bin/python bench/stalls.py
"""

from __future__ import annotations

import asyncio
import contextlib
import gc
import hashlib
import logging
import os
import sys
import tempfile
import time
from collections.abc import Awaitable
from pathlib import Path
from typing import Any

sys.path.insert(0, os.environ.get("ADC_BENCH_ROOT") or str(Path(__file__).resolve().parent.parent))

import simcord
from heartbeat import STALL, Heartbeat, baseline

from bot.app import create_bot
from bot.engine.errors import EngineError
from bot.services import campaigns, exchange, orders, resolution, shell, views
from bot.services.actors import Actor
from bot.services.loading import use_seed_source
from bot.settings import Settings

ROOT = sys.path[0]
ROWS: list[tuple[str, float, float, int, str]] = []


async def measured(label: str, call: Awaitable[Any]) -> Any:
    with Heartbeat() as beat:
        start = time.perf_counter()
        result = await call
        took = time.perf_counter() - start
    said = ""
    for m in [getattr(result, "response", None), *getattr(result, "followups", [])]:
        if m is not None:
            said = (m.content or "") + " ".join(e.title or e.description or "" for e in m.embeds)
            break
    ROWS.append((label, took, beat.worst, beat.stalls, said[:60].replace("\n", " ")))
    print(f"  {label:<44} {took:6.2f} s  longest stall {1000 * beat.worst:5.0f} ms ({beat.stalls} over 100 ms)",
          flush=True)
    return result


async def main() -> None:
    logging.disable(logging.WARNING)
    gc.collect()
    gc.freeze()  # as the bot does once it is set up (bot/app.py)
    idle, load = await baseline()
    print(f"bot under test: {ROOT}\n  {'control: the loop doing nothing for 5 s':<44} {'':8}  longest stall "
          f"{1000 * idle:5.0f} ms ({load})", flush=True)
    counter = iter(range(1, 100_000))
    use_seed_source(lambda: hashlib.sha256(f"stall-seed-{next(counter)}".encode()).digest())
    tmp = Path(tempfile.mkdtemp(prefix="adc-stalls-"))
    bot = create_bot(Settings(database_url=f"sqlite+aiosqlite:///{tmp / 'stalls.db'}", data_dir=tmp),
                     background_tasks=False)
    from store import large_spec  # bench/store.py's 2,000-Force scenario (imported after the bot under test)
    from upload import largest_scenario, over_the_caps  # bench/upload.py's largest legal scenario, and one refused

    from tests.campaign.test_largest_export import largest_scenario as largest_campaign

    async with simcord.run(bot, settle_timeout=600) as env:
        g = env.create_guild("Bench")
        gm = g.add_member(env.create_user("gina"))
        outsider = g.add_member(env.create_user("olga"))
        await gm.slash(g.create_text_channel("warm-up"), "campaign create", name="Warm", scenario="tutorial")

        await measured("largest upload (100x100, 8 sides)", gm.slash(
            g.create_text_channel("upload"), "campaign create", name="Big", scenario="big",
            file=("big.yaml", largest_scenario())))
        refused = over_the_caps(largest_campaign())
        await measured(f"refused upload ({len(refused) / 1000:.0f} KB, over the caps)", gm.slash(
            g.create_text_channel("refused"), "campaign create", name="Over", scenario="over",
            file=("over.yaml", refused)))
        env.errors  # noqa: B018  (acknowledged: the refusal is the point)
        gen = g.create_text_channel("generated")
        await measured("generator, 100x100, 8 sides", gm.slash(
            gen, "campaign create", name="Gen", scenario="generated", size="100x100", sides=8, seed=7))
        await measured("whole map of 100x100", gm.slash(gen, "campaign map", extent="whole"))

        big = g.create_text_channel("largest")
        await measured("largest campaign upload (500 Forces)", gm.slash(
            big, "campaign create", name="Largest", scenario="largest", file=("largest.yaml", largest_campaign())))
        await measured("public whole map, 500 Forces", outsider.slash(big, "campaign map", view="public",
                                                                       extent="whole"))
        cid = await campaigns.campaign_of_channel(bot.db, big.id)
        packed = exchange.packed(await exchange.export_campaign(bot.db, cid, Actor(gm.id, name="gina")))
        await measured(f"import of its export ({len(packed) / 1000:.0f} KB packed)", gm.slash(
            g.create_text_channel("imported"), "campaign create", name="Back", scenario="back",
            file=("largest.json.gz", packed)))

        admin = Actor(gm.id, name="gina")
        gch = g.create_text_channel("general")  # RU-26: the GM seats the bot general on a side mid-phase
        cid = (await campaigns.create_campaign(bot.db, guild_id=g.id, channel_id=gch.id, gm=admin, name="General",
                                               spec=large_spec(500, 100, 60))).campaign_id
        st = await views.status(bot.db, cid, admin)  # weather -> orders
        await resolution.resolve_phase(bot.db, cid, admin, expected_version=st.version, forced=True)
        await measured("bot general seated mid-phase, 250 Forces", gm.slash(gch, "gm assign", side="au",
                                                                            general="bot"))

        ch = g.create_text_channel("large")
        created = await campaigns.create_campaign(bot.db, guild_id=g.id, channel_id=ch.id, gm=admin, name="Large",
                                                  spec=large_spec(2000, 100, 60))
        cid = created.campaign_id
        players = {side: Actor(900 + k, name=side) for k, side in enumerate(("fr", "au"))}
        for side, actor in players.items():
            await campaigns.join_side(bot.db, cid, actor, side)
        for _ in range(2):  # weather -> orders -> movement
            st = await views.status(bot.db, cid, admin)
            await resolution.resolve_phase(bot.db, cid, admin, expected_version=st.version, forced=True)
        state = await shell.state(bot.db, cid)
        gate = asyncio.Semaphore(1)

        async def move(key: str) -> None:
            f = state.forces[key]
            nxt = f"{f.square.rstrip('0123456789')}{int(f.square.lstrip('ABCDEFGHIJKLMNOPQRSTUVWXYZ')) + 1}"
            async with gate:
                with contextlib.suppress(EngineError):
                    await orders.declare_move(bot.db, cid, players[f.side], key, nxt)

        await asyncio.gather(*(move(k) for k in state.forces))
        card = await gm.slash(ch, "gm advance")

        async def resolve() -> Any:
            labels = [c.get("label") or "" for row in card.response.components for c in row.get("components", [])]
            return await gm.click(card.response, label=next(x for x in labels if x.startswith("Resolve")))

        await measured("movement resolution, 2,000 Forces", resolve())

    print(f"\nEvent-loop stalls (goal: none over {STALL * 1000:.0f} ms), one run; control (idle loop, 5 s): "
          f"{1000 * idle:.0f} ms, {load}")
    print(f"| {'what the bot served':<44} | {'time':>7} | {'longest stall':>13} | {'over 100 ms':>11} |")
    print(f"|{'-' * 46}|{'-' * 9}|{'-' * 15}|{'-' * 13}|")
    for label, took, worst, n, _said in ROWS:
        print(f"| {label:<44} | {took:5.2f} s | {1000 * worst:10.0f} ms | {n:>11} |")
    print("replies: " + "; ".join(f"{label.split(' (')[0]}: {said!r}" for label, _t, _w, _n, said in ROWS if said))


if __name__ == "__main__":
    asyncio.run(main())
