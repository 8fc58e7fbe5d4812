"""Run by test_reliability in a child process: resolve the current phase of a campaign (the test
freezes it mid-transaction with ADC_FAULT_PAUSE and kills it with SIGKILL)."""

from __future__ import annotations

import asyncio
import sys

from bot.services import resolution, views
from bot.services.actors import Actor
from bot.store.db import Database


async def main(url: str, campaign_id: int, gm: int) -> None:
    db = Database(url)
    st = await views.status(db, campaign_id, Actor(gm))
    await resolution.resolve_phase(db, campaign_id, Actor(gm), expected_version=st.version, forced=True)
    await db.dispose()


if __name__ == "__main__":
    asyncio.run(main(sys.argv[1], int(sys.argv[2]), int(sys.argv[3])))
