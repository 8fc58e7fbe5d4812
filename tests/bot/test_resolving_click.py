"""The click that resolves a phase, driven through the cogs as the bot runs it (issue 22, item 1): at most
1 whole-state load and 3 transactions, the posting and the bookkeeping after it included (the issue
measured 5 transactions and 3 whole loads). Counts, not times; on SQLite and PostgreSQL. The figures:
bench/click.py."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from bot.settings import Settings
from tests.databases import postgres_or_skip
from tests.store.test_battle_flow import REPORT

from .conftest import make_bot, texts
from .costs import Costs
from .test_turn_flows import bridge, cards


@pytest.fixture(params=["sqlite", "postgresql"])
async def simcord_bot(request: pytest.FixtureRequest, tmp_path: Path):
    if request.param == "sqlite":
        return make_bot(tmp_path)
    from bot.app import create_bot

    url = await postgres_or_skip()
    return create_bot(Settings(database_url=url, data_dir=tmp_path), deadline_interval=600.0, heavy_in_process=False)


async def test_each_resolving_click_makes_1_whole_load_and_at_most_3_transactions(table, simcord_bot) -> None:
    await bridge(table)
    costs = {}
    with Costs(simcord_bot.db) as count:
        odds = await table.fr.slash(table.channel, "order give", force="lannes", order="forced_march")
        await table.fr.click(odds.response, label="Roll")
        await table.fr.slash(table.channel, "order done")
        _, costs["orders"] = await count.of(table.au.slash(table.channel, "order done"))  # Phase 1 resolves
        assert "Phase 2" in texts([cards(table.channel)[-1]])
        odds = await table.fr.slash(table.channel, "order move", force="lannes", path="E4")
        await table.fr.click(odds.response, label="Roll")
        await table.fr.slash(table.channel, "order done")
        _, costs["movement"] = await count.of(table.au.slash(table.channel, "order done"))  # battle 1 at E4
        assert "Phase 3" in texts([cards(table.channel)[-1]])
        preview = await table.gm.slash(table.channel, "battle report", battle="1",
                                       file=("report.json", json.dumps(REPORT).encode()))
        _, costs["battles"] = await count.of(table.gm.click(preview.response, label="Confirm the report"))
        assert "Phase 4" in texts([cards(table.channel)[-1]])
    for phase, cost in costs.items():
        assert cost.loads <= 1, f"{phase}: {cost}"
        assert cost.transactions <= 3, f"{phase}: {cost}"
