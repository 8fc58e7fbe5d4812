"""Event-loop stalls (issue 26 item 4): the longest the bot's event loop goes without running a
heartbeat task (a coroutine asking to wake every 5 ms, on the bot's own loop) while the bot, driven
through simcord (a virtual Discord, offline), serves the heaviest legal inputs:

- the largest legal upload (bench/upload.py's scenario: 100x100 map, 8 sides, 3,000 units);
- the scenario generator at 100x100 with 8 sides (``/campaign create scenario:generated``);
- the whole map of that 100x100 campaign (``/campaign map extent:whole``);
- a movement resolution of 2,000 Forces (a 100x60 campaign set up through the services, the GM's
  ``/gm advance`` and its Resolve button).

Goal: no stall over 100 ms. (The timelapse is measured by its own benchmark.)

    .venv/bin/python bench/stalls.py
"""

from __future__ import annotations

import asyncio
import contextlib
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
from heartbeat import Heartbeat

from bot.app import create_bot
from bot.engine.errors import EngineError
from bot.services import campaigns, orders, resolution, shell, views
from bot.services.actors import Actor
from bot.services.loading import use_seed_source
from bot.settings import Settings


async def measured(label: str, call: Awaitable[Any]) -> Any:
    with Heartbeat() as beat:
        start = time.perf_counter()
        result = await call
        took = time.perf_counter() - start
    print(f"{label:<44} done in {took:6.2f} s; longest event-loop stall {1000 * beat.worst:5.0f} ms"
          f" ({beat.stalls} over 100 ms; goal: none)")
    return result


async def main() -> None:
    logging.disable(logging.WARNING)
    counter = iter(range(1, 100_000))
    use_seed_source(lambda: hashlib.sha256(f"stall-seed-{next(counter)}".encode()).digest())
    tmp = Path(tempfile.mkdtemp(prefix="adc-stalls-"))
    bot = create_bot(Settings(database_url=f"sqlite+aiosqlite:///{tmp / 'stalls.db'}", data_dir=tmp),
                     background_tasks=False)
    from store import large_spec  # bench/store.py's 2,000-Force scenario (imported after the bot under test)
    from upload import largest_scenario  # bench/upload.py's largest legal scenario

    async with simcord.run(bot, settle_timeout=600) as env:
        g = env.create_guild("Bench")
        gm = g.add_member(env.create_user("gina"))
        await gm.slash(g.create_text_channel("warm-up"), "campaign create", name="Warm", scenario="tutorial")

        await measured("largest upload (100x100, 8 sides)", gm.slash(
            g.create_text_channel("upload"), "campaign create", name="Big", scenario="big",
            file=("big.yaml", largest_scenario())))
        gen = g.create_text_channel("generated")
        await measured("generator, 100x100, 8 sides", gm.slash(
            gen, "campaign create", name="Gen", scenario="generated", size="100x100", sides=8, seed=7))
        await measured("whole map of 100x100", gm.slash(gen, "campaign map", extent="whole"))

        ch = g.create_text_channel("large")
        admin = Actor(gm.id, name="gina")
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

        async def resolve() -> None:
            labels = [c.get("label") or "" for row in card.response.components for c in row.get("components", [])]
            await gm.click(card.response, label=next(x for x in labels if x.startswith("Resolve")))

        await measured("movement resolution, 2,000 Forces", resolve())


if __name__ == "__main__":
    asyncio.run(main())
