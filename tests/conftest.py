"""Shared by every test directory."""

from __future__ import annotations

from collections.abc import Iterator

import pytest

from bot.i18n import names


@pytest.fixture(autouse=True)
def no_campaign_names_in_scope() -> Iterator[None]:
    """Each test starts speaking of no campaign (bot.i18n.names): a campaign an earlier test's bot named in
    the same process must not rename what this one shows (issue 23, item 4)."""
    names.use(None)
    yield
    names.use(None)
