"""The tests' databases: migrated once per test process, handed to every test clean.

A migration from empty costs about 0.3 s on SQLite and 0.5 s on PostgreSQL, and hundreds of tests
need a database of their own, so:

- SQLite: the first test of a process migrates a template file (as the bot does, ``Database.upgrade``);
  every test gets a copy of it (:func:`migrated_sqlite`), a file copy.
- PostgreSQL: each test process (each pytest-xdist worker) has a database of its own,
  ``ADC_TEST_POSTGRES_URL``'s with the worker's id appended (``adc_test_gw0``), created when missing.
  The first test that asks for it migrates it from empty; before every later one it is emptied: every
  row deleted but ``alembic_version``'s, every sequence restarted, so ids start at 1 as in a new
  database (:func:`postgres_or_skip`).
- The migration tests ask for an empty database (:func:`empty_sqlite`, ``postgres_or_skip(empty=True)``) and
  migrate it from nothing, as a new deployment does; the worker's PostgreSQL database is then
  migrated afresh for the next test.

PostgreSQL cases are skipped when the server cannot be reached, except under ``CI=true`` where that
is a failure.
"""

from __future__ import annotations

import asyncio
import atexit
import os
import shutil
import sqlite3
import tempfile
from concurrent.futures import ThreadPoolExecutor
from graphlib import TopologicalSorter
from pathlib import Path

import asyncpg
import pytest
from sqlalchemy.engine import make_url

from bot.store.db import Database

DEFAULT_POSTGRES = "postgresql+asyncpg://postgres@127.0.0.1:5432/adc_test"


def sqlite_url(path: Path) -> str:
    return f"sqlite+aiosqlite:///{path}"


async def _migrate(url: str) -> None:
    database = Database(url)
    try:
        await database.upgrade()
    finally:
        await database.dispose()


# --- SQLite -------------------------------------------------------------------------------------

_template: Path | None = None


def sqlite_template() -> Path:
    """This process's migrated SQLite file (made on first use, removed at exit)."""
    global _template
    if _template is None:
        folder = Path(tempfile.mkdtemp(prefix="adc-migrated-"))
        atexit.register(shutil.rmtree, folder, True)
        path = folder / "migrated.db"
        with ThreadPoolExecutor(1) as pool:  # an event loop of its own: the caller may be running one
            pool.submit(asyncio.run, _migrate(sqlite_url(path))).result()
        con = sqlite3.connect(path)  # everything in the one file: the write-ahead log folded in
        con.execute("PRAGMA wal_checkpoint(TRUNCATE)")
        con.close()
        _template = path
    return _template


def migrated_sqlite(path: Path) -> str:
    """The URL of a migrated SQLite database at ``path``: the template copied there, unless a file is
    there already (a bot restarted on its database keeps it)."""
    if not path.exists():
        path.parent.mkdir(parents=True, exist_ok=True)
        shutil.copyfile(sqlite_template(), path)
    return sqlite_url(path)


def empty_sqlite(path: Path) -> str:
    """The URL of a new, empty SQLite database at ``path`` (for the migration tests)."""
    assert not path.exists(), path
    return sqlite_url(path)


# --- PostgreSQL ---------------------------------------------------------------------------------


def postgres_url() -> str:
    """This process's PostgreSQL database: ``ADC_TEST_POSTGRES_URL``'s, with the xdist worker's id."""
    url = make_url(os.environ.get("ADC_TEST_POSTGRES_URL", DEFAULT_POSTGRES))
    worker = os.environ.get("PYTEST_XDIST_WORKER")
    if worker:
        url = url.set(database=f"{url.database}_{worker}")
    return url.render_as_string(hide_password=False)


def _dsn(url: str, database: str | None = None) -> str:
    parsed = make_url(url).set(drivername="postgresql")
    if database is not None:
        parsed = parsed.set(database=database)
    return parsed.render_as_string(hide_password=False)


def _quoted(name: str) -> str:
    return '"' + name.replace('"', '""') + '"'


class _Postgres:
    """What this process knows of its database: whether it exists, and once migrated, the statement
    that empties it."""

    exists = False
    emptying: str | None = None


async def _connect(url: str) -> asyncpg.Connection:
    """A connection to the database, created first (from the server's ``postgres`` database) if missing."""
    if not _Postgres.exists:
        try:
            con = await asyncpg.connect(_dsn(url))
        except asyncpg.InvalidCatalogNameError:
            admin = await asyncpg.connect(_dsn(url, "postgres"))
            try:
                await admin.execute(f"CREATE DATABASE {_quoted(make_url(url).database or '')}")
            except asyncpg.DuplicateDatabaseError:
                pass
            finally:
                await admin.close()
        else:
            _Postgres.exists = True
            return con
        _Postgres.exists = True
    return await asyncpg.connect(_dsn(url))


async def postgres_or_skip(*, empty: bool = False) -> str:
    """This process's database, migrated (from empty, once) and with no rows but the schema version's;
    or, ``empty``, with no schema at all (the next call migrates it again). The test is skipped when
    the server cannot be reached, failed under ``CI=true``."""
    url = postgres_url()
    try:
        con = await _connect(url)
    except (OSError, asyncpg.PostgresError) as exc:  # TimeoutError is an OSError
        if os.environ.get("CI") == "true":
            pytest.fail(f"PostgreSQL is required in CI but unreachable at {url}: {exc}")
        pytest.skip(f"PostgreSQL not reachable at {url}: {exc}")
    try:
        # A transaction a test left open would hold its locks: fail then, rather than wait for ever.
        await con.execute("SET lock_timeout = '30s'")
        if empty or _Postgres.emptying is None:
            _Postgres.emptying = None
            await con.execute("DROP SCHEMA public CASCADE; CREATE SCHEMA public")
        else:
            await con.execute(_Postgres.emptying)
            return url
    finally:
        await con.close()
    if not empty:
        await _migrate(url)
        con = await _connect(url)
        try:
            _Postgres.emptying = await _emptying(con)
        finally:
            await con.close()
    return url


async def _emptying(con: asyncpg.Connection) -> str:
    """One statement that deletes every row but the schema version's, each table after those whose
    foreign keys point to it, and restarts every sequence. (``TRUNCATE`` does the same in 0.4 s: it
    makes every table's files anew; deleting a test's few rows takes 0.03 s.)"""
    tables = [r["tablename"] for r in await con.fetch(
        "SELECT tablename FROM pg_tables WHERE schemaname = 'public' AND tablename <> 'alembic_version'")]
    referenced_by: dict[str, set[str]] = {t: set() for t in tables}
    for r in await con.fetch(
            "SELECT c.relname AS child, p.relname AS parent FROM pg_constraint k"
            " JOIN pg_class c ON c.oid = k.conrelid JOIN pg_class p ON p.oid = k.confrelid"
            " JOIN pg_namespace n ON n.oid = c.relnamespace WHERE k.contype = 'f' AND n.nspname = 'public'"):
        if r["child"] != r["parent"]:
            referenced_by[r["parent"]].add(r["child"])
    order = TopologicalSorter(referenced_by).static_order()  # the referencing tables first
    sequences = [r["sequencename"] for r in await con.fetch(
        "SELECT sequencename FROM pg_sequences WHERE schemaname = 'public'")]
    return "; ".join([*(f"DELETE FROM {_quoted(t)}" for t in order),
                      *(f"ALTER SEQUENCE {_quoted(s)} RESTART" for s in sequences)])
