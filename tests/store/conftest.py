"""Store and service tests run against SQLite and PostgreSQL (TESTING.md).

PostgreSQL comes from ``ADC_TEST_POSTGRES_URL`` (``.ci/run`` sets it and creates the database; each
pytest-xdist worker uses its own, created when missing); when it cannot be reached the PostgreSQL
cases are skipped, except under ``CI=true`` where they fail. The databases are migrated once per
test process and handed to each test clean (tests/databases.py).
"""

from __future__ import annotations

from collections.abc import AsyncIterator
from pathlib import Path

import pytest

from bot.services.actors import Actor
from bot.store.db import Database
from tests.databases import empty_sqlite, migrated_sqlite, postgres_or_skip

GM = Actor(1001, name="Gina")
FRENCH = Actor(2001, name="Pierre")
AUSTRIAN = Actor(3001, name="Karl")
OUTSIDER = Actor(9001, name="Olga")


@pytest.fixture(params=["sqlite", "postgresql"])
async def db_url(request: pytest.FixtureRequest, tmp_path: Path) -> str:
    """A migrated database with no campaign in it (tests/databases.py)."""
    if request.param == "sqlite":
        return migrated_sqlite(tmp_path / "test.db")
    return await postgres_or_skip()


@pytest.fixture(params=["sqlite", "postgresql"])
async def empty_db_url(request: pytest.FixtureRequest, tmp_path: Path) -> str:
    """An empty database, not even migrated: for the migration tests."""
    if request.param == "sqlite":
        return empty_sqlite(tmp_path / "test.db")
    return await postgres_or_skip(empty=True)


@pytest.fixture
async def db(db_url: str) -> AsyncIterator[Database]:
    database = Database(db_url)
    yield database
    await database.dispose()
