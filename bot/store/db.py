"""The async database engine and sessions, for SQLite (default) and PostgreSQL.

SQLite: WAL journal, foreign keys on, a busy timeout, and ``BEGIN IMMEDIATE`` for every
transaction, so concurrent writers queue instead of failing on a read-to-write upgrade.
PostgreSQL: asyncpg; write transactions lock their campaign row (``lock_campaign``).
"""

from __future__ import annotations

from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from contextvars import ContextVar
from pathlib import Path
from typing import Any

from sqlalchemy import event
from sqlalchemy.engine import make_url
from sqlalchemy.ext.asyncio import AsyncEngine, async_sessionmaker, create_async_engine
from sqlmodel.ext.asyncio.session import AsyncSession

from .models import json_dumps

# Set while a write transaction opens: SQLite then takes the write lock at BEGIN (IMMEDIATE), so two
# writers queue on the busy timeout instead of deadlocking; reads begin DEFERRED and never block.
_WRITING: ContextVar[bool] = ContextVar("adc_writing", default=False)


def is_sqlite(url: str) -> bool:
    return make_url(url).get_backend_name() == "sqlite"


def create_engine(url: str, **kwargs: Any) -> AsyncEngine:
    """An async engine for ``url`` (``sqlite+aiosqlite:///...`` or ``postgresql+asyncpg://...``)."""
    parsed = make_url(url)
    if parsed.get_backend_name() == "sqlite":
        if parsed.database and parsed.database != ":memory:":
            Path(parsed.database).parent.mkdir(parents=True, exist_ok=True)
        engine = create_async_engine(url, connect_args={"timeout": 30}, json_serializer=json_dumps, **kwargs)
        _sqlite_pragmas(engine)
        return engine
    if parsed.get_backend_name() == "postgresql" and parsed.drivername == "postgresql":
        url = parsed.set(drivername="postgresql+asyncpg").render_as_string(hide_password=False)
    return create_async_engine(url, pool_pre_ping=True, json_serializer=json_dumps, **kwargs)


def _sqlite_pragmas(engine: AsyncEngine) -> None:
    @event.listens_for(engine.sync_engine, "connect")
    def _on_connect(dbapi_connection: Any, _record: Any) -> None:
        # Let SQLAlchemy, not the driver, issue BEGIN (see _on_begin).
        dbapi_connection.isolation_level = None
        cur = dbapi_connection.cursor()
        cur.execute("PRAGMA journal_mode=WAL")
        cur.execute("PRAGMA foreign_keys=ON")
        cur.execute("PRAGMA busy_timeout=30000")
        cur.execute("PRAGMA synchronous=NORMAL")
        cur.close()

    @event.listens_for(engine.sync_engine, "begin")
    def _on_begin(conn: Any) -> None:
        conn.exec_driver_sql("BEGIN IMMEDIATE" if _WRITING.get() else "BEGIN")


def session_factory(engine: AsyncEngine) -> async_sessionmaker[AsyncSession]:
    return async_sessionmaker(engine, class_=AsyncSession, expire_on_commit=False)


class Database:
    """The engine and session factory the services share."""

    def __init__(self, url: str, **engine_kwargs: Any) -> None:
        self.url = url
        self.engine = create_engine(url, **engine_kwargs)
        self.sessions = session_factory(self.engine)

    @property
    def sqlite(self) -> bool:
        return is_sqlite(self.url)

    @asynccontextmanager
    async def transaction(self) -> AsyncIterator[AsyncSession]:
        """One write transaction: committed when the block ends, rolled back on any error."""
        token = _WRITING.set(True)
        try:
            async with self.sessions() as session, session.begin():
                await session.connection()  # BEGIN now, while the flag is set
                _WRITING.reset(token)
                token = None
                yield session
        finally:
            if token is not None:
                _WRITING.reset(token)

    async def upgrade(self) -> None:
        from .migrate import upgrade

        await upgrade(self.engine)

    async def dispose(self) -> None:
        await self.engine.dispose()
