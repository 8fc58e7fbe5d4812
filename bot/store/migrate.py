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
    from .db import _WRITING

    token = _WRITING.set(True)
    try:
        async with engine.begin() as conn:
            _WRITING.reset(token)
            token = None
            if conn.dialect.name == "postgresql":
                await conn.execute(text("SELECT pg_advisory_xact_lock(:key)"), {"key": MIGRATION_LOCK})
            await conn.run_sync(_run, target, "upgrade")
    finally:
        if token is not None:
            _WRITING.reset(token)


async def downgrade(engine: AsyncEngine, target: str) -> None:
    async with engine.begin() as conn:
        await conn.run_sync(_run, target, "downgrade")


async def current_revision(engine: AsyncEngine) -> str | None:
    def _current(connection: Any) -> str | None:
        return MigrationContext.configure(connection).get_current_revision()

    async with engine.connect() as conn:
        return await conn.run_sync(_current)
