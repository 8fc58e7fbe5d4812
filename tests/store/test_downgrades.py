"""A downgrade keeps the game: on SQLite a batch operation (dropping a column) copies the table and drops
the old one, and with foreign keys on, dropping the ``campaign`` table would first delete every row that
refers to it (``ON DELETE CASCADE``): sides, Forces, units, the map, the log. Migrations run with the
foreign keys off on SQLite, and checked before they commit. On SQLite and PostgreSQL."""

from __future__ import annotations

from sqlalchemy import text

from bot.services import campaigns
from bot.store.db import Database

from .conftest import GM
from .test_battle_flow import SCENARIO

TABLES = ("campaign", "side", "force", "unit", "leader", "map_square", "log_entry", "turn_seed")


async def _counts(database: Database) -> dict[str, int]:
    async with database.engine.connect() as conn:
        return {t: (await conn.execute(text(f"SELECT count(*) FROM {t}"))).scalar_one() for t in TABLES}


async def test_downgrading_past_column_drops_keeps_every_row_and_upgrading_again_loads_the_same_campaign(
        empty_db_url: str) -> None:
    from bot.store.migrate import downgrade, upgrade

    database = Database(empty_db_url)
    try:
        await upgrade(database.engine, "head")
        created = await campaigns.create_campaign(database, guild_id=1, channel_id=7, gm=GM, name="Bridge",
                                                  scenario_text=SCENARIO)
        before = await _counts(database)
        assert all(before[t] > 0 for t in TABLES), before
        await downgrade(database.engine, "0014")  # 0016 and 0015 drop columns of campaign, side and battle
        assert await _counts(database) == before
        await upgrade(database.engine, "head")
        assert await _counts(database) == before
        async with database.engine.connect() as conn:
            name = (await conn.execute(text("SELECT name FROM campaign WHERE id = :id"),
                                       {"id": created.campaign_id})).scalar_one()
        assert name == "Bridge"
        if database.sqlite:  # and the connections the bot goes on with enforce foreign keys again
            async with database.engine.connect() as conn:
                assert (await conn.execute(text("PRAGMA foreign_keys"))).scalar_one() == 1
    finally:
        await database.dispose()
