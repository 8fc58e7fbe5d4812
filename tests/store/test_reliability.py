"""Crashes, concurrent resolution, migrations and backups."""

from __future__ import annotations

import asyncio
import datetime as dt
import os
import signal
import sqlite3
import subprocess
import sys
import time
from pathlib import Path

import pytest
from sqlalchemy import inspect, text

from bot.engine.phases import Phase
from bot.services import orders, resolution, views
from bot.services.errors import AlreadyResolved
from bot.store.backup import backup_sqlite
from bot.store.db import Database
from bot.store.migrate import all_revisions, current_revision, downgrade, head_revision, upgrade

from .conftest import FRENCH, GM
from .test_campaign_flow import advance, fixed_seeds, tutorial  # noqa: F401  (fixture re-used)

ROOT = Path(__file__).resolve().parents[2]


async def test_a_process_killed_mid_resolution_leaves_the_campaign_before_it_and_the_next_carries_on(
    db: Database, db_url: str, tmp_path: Path
) -> None:
    cid = await tutorial(db)
    await advance(db, cid)  # weather -> orders
    await orders.give_order(db, cid, FRENCH, "soult", "forced_march")
    await advance(db, cid, forced=True)  # -> movement
    await orders.declare_move(db, cid, FRENCH, "soult", "D4")
    before = await views.status(db, cid, GM)
    marker = tmp_path / "paused"
    env = {**os.environ, "ADC_FAULT_PAUSE": "resolution", "ADC_FAULT_MARKER": str(marker), "PYTHONPATH": str(ROOT)}
    child = subprocess.Popen([sys.executable, "-m", "tests.store.crash_worker", db_url, str(cid), str(GM.member_id)],
                             cwd=ROOT, env=env, stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    try:
        deadline = time.monotonic() + 60
        while not marker.exists():
            if child.poll() is not None:
                pytest.fail(f"worker ended early: {child.stderr.read().decode()[-2000:]}")  # type: ignore[union-attr]
            if time.monotonic() > deadline:
                pytest.fail("worker never reached the resolution checkpoint")
            await asyncio.sleep(0.05)
        child.send_signal(signal.SIGKILL)
        child.wait(timeout=30)
    finally:
        if child.poll() is None:
            child.kill()
    assert child.returncode == -signal.SIGKILL
    after_crash = await views.status(db, cid, GM)
    assert (after_crash.position, after_crash.version) == (before.position, before.version)
    assert [(f.key, f.square) for f in after_crash.forces] == [(f.key, f.square) for f in before.forces]
    done = await resolution.resolve_phase(db, cid, GM, expected_version=before.version, forced=True)
    assert done.before.phase is Phase.MOVEMENT and done.after.phase is not Phase.MOVEMENT


async def test_two_resolutions_racing_apply_once(db: Database) -> None:
    cid = await tutorial(db)
    version = (await views.status(db, cid, GM)).version
    results = await asyncio.gather(
        *(resolution.resolve_phase(db, cid, GM, expected_version=version) for _ in range(5)), return_exceptions=True
    )
    assert sum(isinstance(r, resolution.Resolution) for r in results) == 1
    assert all(isinstance(r, AlreadyResolved) for r in results if not isinstance(r, resolution.Resolution))
    st = await views.status(db, cid, GM)
    assert st.version == version + 1 and st.position.phase is Phase.ORDERS


async def test_migrations_take_an_empty_database_and_every_earlier_revision_to_head(empty_db_url: str) -> None:
    revisions = all_revisions()
    assert revisions[-1] == head_revision()
    for start in [None, *revisions[:-1]]:
        database = Database(empty_db_url)
        try:
            await downgrade(database.engine, "base")
            if start is not None:
                await upgrade(database.engine, start)
                async with database.engine.begin() as conn:  # a campaign made under the old schema survives
                    await conn.execute(text(
                        "INSERT INTO campaign (guild_id, channel_id, name, scenario, gm_id, options, language, climate,"
                        " start_date, turn, phase, version, status, holdings, map_width, map_height, adjacency, sight,"
                        " created_at) VALUES (1, 2, 'Old', 'tutorial', 3, '{}', 'en', 'temperate', '1805-10-07', 4, 2, 9,"
                        " 'active', '{}', 12, 9, 8, 2, '2026-01-01 00:00:00+00:00')"
                    ))
            await database.upgrade()
            assert await current_revision(database.engine) == head_revision()
            async with database.engine.connect() as conn:
                tables = await conn.run_sync(lambda c: set(inspect(c).get_table_names()))
            assert {"campaign", "force", "unit", "log_entry", "snapshot"} <= tables
            if start is not None:
                async with database.engine.connect() as conn:
                    rows = (await conn.execute(text("SELECT name, turn, theatre FROM campaign"))).all()
                assert [tuple(r) for r in rows] == [("Old", 4, "other")]
        finally:
            await database.dispose()


def test_backups_use_the_online_api_and_keep_the_newest(tmp_path: Path) -> None:
    db_path = tmp_path / "live.db"
    con = sqlite3.connect(db_path)
    con.execute("CREATE TABLE t (x)")
    con.execute("INSERT INTO t VALUES (42)")
    con.commit()
    start = dt.datetime(2026, 1, 1, tzinfo=dt.UTC)
    made = [backup_sqlite(db_path, tmp_path / "backups", keep=3, now=start + dt.timedelta(days=i)) for i in range(5)]
    con.close()
    kept = sorted(p.name for p in (tmp_path / "backups").glob("*.db"))
    assert kept == sorted(p.name for p in made[-3:])
    copy = sqlite3.connect(made[-1])
    assert copy.execute("SELECT x FROM t").fetchall() == [(42,)]
    copy.close()
