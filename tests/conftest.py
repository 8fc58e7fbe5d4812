"""Shared by every test directory."""

from __future__ import annotations

from collections.abc import Iterator

import pytest

from bot.i18n import names
from bot.services import shell
from bot.store import readcache


@pytest.fixture(autouse=True)
def no_campaign_names_in_scope() -> Iterator[None]:
    """Each test starts speaking of no campaign (bot.i18n.names): a campaign an earlier test's bot named in
    the same process must not rename what this one shows (issue 23, item 4)."""
    names.use(None)
    yield
    names.use(None)


@pytest.fixture(autouse=True)
def no_cached_campaigns() -> Iterator[None]:
    """Each test starts with no campaign cached and no write queue in the process: a PostgreSQL worker's
    database restarts its ids for every test, so campaign 1 of an earlier test must not be served to this
    one's campaign 1 (bot.store.readcache, bot.services.shell's queues)."""
    readcache.clear()
    shell._QUEUES.clear()
    yield
