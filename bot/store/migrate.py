"""Run Alembic migrations from code: the bot upgrades its schema at start."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from alembic import command
from alembic.config import Config
from alembic.runtime.migration import MigrationContext
from alembic.script import ScriptDirectory
from sqlalchemy import text
from sqlalchemy.ext.asyncio import AsyncEngine

MIGRATIONS = Path(__file__).resolve().parent / "migrations"


def alembic_config(url: str | None = None) -> Config:
    cfg = Config()
    cfg.set_main_option("script_location", str(MIGRATIONS))
    if url:
        cfg.set_main_option("sqlalchemy.url", url)
    return cfg


def head_revision() -> str:
    head = ScriptDirectory.from_config(alembic_config()).get_current_head()
    assert head is not None
    return head


def all_revisions() -> list[str]:
    """Every revision, oldest first."""
    script = ScriptDirectory.from_config(alembic_config())
    return [rev.revision for rev in reversed(list(script.walk_revisions()))]


def _run(connection: Any, target: str, action: str) -> None:
    cfg = alembic_config()
    cfg.attributes["connection"] = connection
    if action == "upgrade":
        command.upgrade(cfg, target)
    else:
        command.downgrade(cfg, target)


MIGRATION_LOCK = 0x41444301
"""PostgreSQL advisory lock key: several bot processes starting at once migrate one after another."""


async def upgrade(engine: AsyncEngine, target: str = "head") -> None:
    """Upgrade to ``target`` holding the database's write lock (SQLite ``BEGIN IMMEDIATE``, PostgreSQL
    an advisory lock), so processes that start together do not run the same migration twice."""
    await _migrate(engine, target, "upgrade")


async def downgrade(engine: AsyncEngine, target: str) -> None:
    await _migrate(engine, target, "downgrade")


async def _migrate(engine: AsyncEngine, target: str, action: str) -> None:
    from .db import _WRITING

    async with engine.connect() as conn:
        sqlite = conn.dialect.name == "sqlite"
        if sqlite:  # outside any transaction, where SQLite takes the pragma (see _foreign_keys)
            await conn.run_sync(_foreign_keys, False)
        try:
            token = _WRITING.set(True)
            try:
                async with conn.begin():
                    _WRITING.reset(token)
                    token = None
                    if conn.dialect.name == "postgresql":
                        await conn.execute(text("SELECT pg_advisory_xact_lock(:key)"), {"key": MIGRATION_LOCK})
                    await conn.run_sync(_run, target, action)
                    if sqlite:
                        await conn.run_sync(_check_foreign_keys)
            finally:
                if token is not None:
                    _WRITING.reset(token)
        finally:
            if sqlite:  # the pooled connection goes back to the bot as it came: enforcing them
                await conn.run_sync(_foreign_keys, True)


def _foreign_keys(connection: Any, on: bool) -> None:
    """SQLite's foreign keys on or off, on the driver's connection (no BEGIN: SQLite ignores the pragma in
    a transaction). Off while migrating: a batch operation (a dropped column) copies a table and drops
    the old one, and dropping ``campaign`` with them on would first delete every row that refers to it
    (``ON DELETE CASCADE``: sides, Forces, units, the map, the log), as SQLite's documentation warns."""
    cursor = connection.connection.dbapi_connection.cursor()
    try:
        cursor.execute(f"PRAGMA foreign_keys={'ON' if on else 'OFF'}")
    finally:
        cursor.close()


def _check_foreign_keys(connection: Any) -> None:
    """What SQLite would have enforced: refused before the migration commits."""
    broken = connection.exec_driver_sql("PRAGMA foreign_key_check").fetchall()
    if broken:
        raise RuntimeError(f"the migration left {len(broken)} rows referring to missing ones: {broken[:5]}")


async def current_revision(engine: AsyncEngine) -> str | None:
    def _current(connection: Any) -> str | None:
        return MigrationContext.configure(connection).get_current_revision()

    async with engine.connect() as conn:
        return await conn.run_sync(_current)
