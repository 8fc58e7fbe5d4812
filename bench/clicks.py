"""Click count: every action the GM and the players take to play one turn with one battle, through
simcord (a virtual Discord), offline.

The turn is the skirmish at the bridge (a tutorial-sized map whose battle is certain: V Corps marches
into the Army of Mack): Phase 1 orders, Phase 2 moves, the battle reported, Phase 4 aftermath, leader
fate, trophy and retreat, until Phase 1 of turn 2. The players do their part as soon as the phase is
theirs; the GM does the report, and whatever else the turn needs of him to go on (each ``/gm advance``
and its confirmation count as two actions). Prints each member's actions, the GM's listed.

    .venv/bin/python bench/clicks.py
"""

from __future__ import annotations

import asyncio
import hashlib
import json
import logging
import sys
import tempfile
from collections import Counter
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

import simcord

from bot.app import create_bot
from bot.engine.phases import Phase
from bot.services import campaigns, views
from bot.services.actors import Actor
from bot.services.loading import use_seed_source
from bot.settings import Settings
from tests.store.test_battle_flow import REPORT, SCENARIO  # the suite's bridge skirmish, played the same way


class Counted:
    """A member whose every slash command and click is counted (and, for the GM, listed)."""

    def __init__(self, name: str, member: Any, tally: Counter[str], listed: list[str]) -> None:
        self.name, self.member, self.tally, self.listed = name, member, tally, listed

    async def slash(self, channel: Any, command: str, **options: Any) -> Any:
        self.tally[self.name] += 1
        self.listed.append(f"{self.name}: /{command}")
        return await self.member.slash(channel, command, **options)

    async def click(self, message: Any, label: str) -> Any:
        self.tally[self.name] += 1
        self.listed.append(f"{self.name}: [{label}]")
        return await self.member.click(message, label=label)


async def main() -> None:
    logging.disable(logging.WARNING)
    # Turn seeds from a counter, as in the suite: the same dice (and weather) on every run.
    counter = iter(range(1, 10_000))
    use_seed_source(lambda: hashlib.sha256(f"test-seed-{next(counter)}".encode()).digest())
    tmp = Path(tempfile.mkdtemp(prefix="adc-clicks-"))
    bot = create_bot(Settings(database_url=f"sqlite+aiosqlite:///{tmp / 'clicks.db'}", data_dir=tmp),
                     background_tasks=False)
    tally: Counter[str] = Counter()
    listed: list[str] = []
    async with simcord.run(bot, settle_timeout=60) as env:
        g = env.create_guild("Club")
        ch = g.create_text_channel("campaign")
        gm = Counted("GM", g.add_member(env.create_user("gina")), tally, listed)
        fr = Counted("France", g.add_member(env.create_user("pierre")), tally, listed)
        au = Counted("Austria", g.add_member(env.create_user("karl")), tally, listed)
        await gm.member.slash(ch, "campaign create", name="Bridge", scenario="bridge",
                              file=("bridge.yaml", SCENARIO.encode()))
        await fr.member.slash(ch, "campaign join", side="fr")
        await au.member.slash(ch, "campaign join", side="au")
        card = await gm.member.slash(ch, "gm advance")  # the campaign's start: not part of the turn
        await gm.member.click(card.response, label="Resolve")
        cid = await campaigns.campaign_of_channel(bot.db, ch.id)

        async def position() -> tuple[int, Phase, bool]:
            sv = await views.status(bot.db, cid, Actor(gm.member.id), rules=bot.rules)
            return sv.position.turn, sv.position.phase, bool(sv.waiting)

        async def until(turn: int, phase: Phase) -> None:
            """The GM moves the campaign on while it stands short of (turn, phase) with nobody to wait for."""
            for _ in range(12):
                now = await position()
                if (now[0], now[1]) >= (turn, phase):
                    return
                card = await gm.slash(ch, "gm advance")
                label = "Resolve" if not now[2] else "Resolve anyway"
                await gm.click(card.response, label)
            raise RuntimeError(f"the campaign never reached turn {turn}, {phase}")

        await until(1, Phase.ORDERS)
        start = len(list(ch.history()))
        odds = await fr.slash(ch, "order give", force="lannes", order="forced_march")
        await fr.click(odds.response, "Roll")
        await fr.slash(ch, "order done")
        await au.slash(ch, "order done")
        await until(1, Phase.MOVEMENT)
        odds = await fr.slash(ch, "order move", force="lannes", path="E4")
        await fr.click(odds.response, "Roll")
        await fr.slash(ch, "order done")
        await au.slash(ch, "order done")
        await until(1, Phase.BATTLE)
        preview = await gm.slash(ch, "battle report", battle="1", file=("report.json", json.dumps(REPORT).encode()))
        await gm.click(preview.response, "Confirm the report")
        await until(1, Phase.AFTERMATH)
        (thread,) = ch.threads
        button = next(m for m in reversed(thread.history()) if m.components)
        await au.click(button, "Roll my aftermath")
        await fr.click(button, "Roll my aftermath")
        await au.slash(thread, "leader fate", leader="Mack", circumstance="melee")
        await fr.slash(thread, "trophy roll", battle="1", unit="hussars", target="jaegers")
        await au.slash(thread, "battle retreat", battle="1", square="F4")
        await until(2, Phase.ORDERS)
        posts = [m for m in list(ch.history())[start:] if int(getattr(m.type, "value", m.type)) in (0, 19)]
        pictures = [await a.read() for m in posts for a in m.attachments]
        in_thread = len(thread.history())

    print("actions to play turn 1 (one battle) through to turn 2's orders:")
    for who in ("GM", "France", "Austria"):
        print(f"  {who:8} {tally[who]:3}")
    print("  the GM's: " + ", ".join(line.split(": ", 1)[1] for line in listed if line.startswith("GM:")))
    print(f"the channel in that turn (issue 22): {len(posts)} posts, {len(pictures)} pictures of "
          f"{sum(map(len, pictures)) // 1024:,} KiB in all; {in_thread} posts in the battle's thread")


if __name__ == "__main__":
    asyncio.run(main())
