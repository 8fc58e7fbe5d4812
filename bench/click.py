"""The click that resolves a phase, through simcord (a virtual Discord) and the bot's cogs: what each
resolving action costs the database (issue 22, item 1): transactions begun (reads included), whole-state
loads and SQL statements (BEGIN counted on SQLite; the read cache's stamp queries, on a connection of their
own, counted apart). The bridge skirmish of the suite: the last "/order done" of Phase 1 and of Phase 2
(the movement that makes battle 1) and the GM's "Confirm the report" that ends Phase 3; SQLite, then
PostgreSQL (``--postgres URL``, an empty database the script may wipe; default: none).

    .venv/bin/python bench/click.py [--postgres postgresql+asyncpg://postgres@127.0.0.1:5432/adc_bench]

Run from the repository to measure (its ``bot`` is the one imported).
"""

from __future__ import annotations

import argparse
import asyncio
import hashlib
import json
import logging
import sys
import tempfile
from pathlib import Path

sys.path.insert(0, str(Path.cwd()))

import asyncpg
import simcord
from sqlalchemy.engine import make_url

from bot.app import create_bot
from bot.services.loading import use_seed_source
from bot.settings import Settings
from tests.bot.costs import Cost, Costs
from tests.store.test_battle_flow import REPORT, SCENARIO


async def clicks(url: str, tmp: Path) -> dict[str, Cost]:
    counter = iter(range(1, 10_000))
    use_seed_source(lambda: hashlib.sha256(f"test-seed-{next(counter)}".encode()).digest())
    bot = create_bot(Settings(database_url=url, data_dir=tmp), background_tasks=False)
    out: dict[str, Cost] = {}
    async with simcord.run(bot, settle_timeout=60) as env:
        g = env.create_guild("Club")
        ch = g.create_text_channel("campaign")
        gm, fr, au = (g.add_member(env.create_user(n)) for n in ("gina", "pierre", "karl"))
        await gm.slash(ch, "campaign create", name="Bridge", scenario="bridge", file=("bridge.yaml", SCENARIO.encode()))
        await fr.slash(ch, "campaign join", side="fr")
        await au.slash(ch, "campaign join", side="au")
        card = await gm.slash(ch, "gm advance")
        await gm.click(card.response, label="Resolve")  # the campaign's start: turn 1's orders
        with Costs(bot.db) as count:
            odds = await fr.slash(ch, "order give", force="lannes", order="forced_march")
            await fr.click(odds.response, label="Roll")
            await fr.slash(ch, "order done")
            _, out["Phase 1 (orders), the last /order done"] = await count.of(au.slash(ch, "order done"))
            odds = await fr.slash(ch, "order move", force="lannes", path="E4")
            await fr.click(odds.response, label="Roll")
            await fr.slash(ch, "order done")
            _, out["Phase 2 (movement, battle 1), the last /order done"] = await count.of(au.slash(ch, "order done"))
            preview = await gm.slash(ch, "battle report", battle="1", file=("report.json", json.dumps(REPORT).encode()))
            _, out["Phase 3 (battles), Confirm the report"] = await count.of(
                gm.click(preview.response, label="Confirm the report"))
    await bot.db.dispose()
    return out


async def wipe(url: str) -> None:
    dsn = make_url(url).set(drivername="postgresql").render_as_string(hide_password=False)
    try:
        con = await asyncpg.connect(dsn)
    except asyncpg.InvalidCatalogNameError:
        admin = await asyncpg.connect(make_url(dsn).set(database="postgres").render_as_string(hide_password=False))
        await admin.execute(f'CREATE DATABASE "{make_url(url).database}"')
        await admin.close()
        return
    await con.execute("DROP SCHEMA public CASCADE; CREATE SCHEMA public")
    await con.close()


async def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--postgres", default=None, help="an empty PostgreSQL database the script may wipe")
    args = parser.parse_args()
    logging.disable(logging.WARNING)
    tmp = Path(tempfile.mkdtemp(prefix="adc-click-"))
    runs = [("sqlite", f"sqlite+aiosqlite:///{tmp / 'click.db'}")]
    if args.postgres:
        await wipe(args.postgres)
        runs.append(("postgresql", args.postgres))
    for label, url in runs:
        for name, cost in (await clicks(url, tmp)).items():
            print(f"[{label}] {name}: {cost}")


if __name__ == "__main__":
    asyncio.run(main())
