"""Store and service tests run against SQLite and PostgreSQL (TESTING.md).

PostgreSQL comes from ``ADC_TEST_POSTGRES_URL`` (``.ci/run`` sets it and creates the database);
when it cannot be reached the PostgreSQL cases are skipped, except under ``CI=true`` where they fail.
"""

from __future__ import annotations

import os
from collections.abc import AsyncIterator

import pytest
from sqlalchemy import text
from sqlalchemy.ext.asyncio import create_async_engine

from bot.services.actors import Actor
from bot.store.db import Database

PG_URL = os.environ.get("ADC_TEST_POSTGRES_URL", "postgresql+asyncpg://postgres@127.0.0.1:5432/adc_test")

GM = Actor(1001, name="Gina")
FRENCH = Actor(2001, name="Pierre")
AUSTRIAN = Actor(3001, name="Karl")
OUTSIDER = Actor(9001, name="Olga")


async def reset_postgres(url: str) -> None:
    engine = create_async_engine(url)
    try:
        async with engine.begin() as conn:
            await conn.execute(text("DROP SCHEMA public CASCADE"))
            await conn.execute(text("CREATE SCHEMA public"))
    finally:
        await engine.dispose()


async def postgres_or_skip() -> str:
    try:
        await reset_postgres(PG_URL)
    except Exception as exc:
        if os.environ.get("CI") == "true":
            pytest.fail(f"PostgreSQL is required in CI but unreachable at {PG_URL}: {exc}")
        pytest.skip(f"PostgreSQL not reachable at {PG_URL}: {exc}")
    return PG_URL


@pytest.fixture(params=["sqlite", "postgresql"])
async def db_url(request: pytest.FixtureRequest, tmp_path) -> str:
    if request.param == "sqlite":
        return f"sqlite+aiosqlite:///{tmp_path / 'test.db'}"
    return await postgres_or_skip()


@pytest.fixture
async def db(db_url: str) -> AsyncIterator[Database]:
    database = Database(db_url)
    await database.upgrade()
    yield database
    await database.dispose()
