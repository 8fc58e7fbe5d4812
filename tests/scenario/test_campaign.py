"""A campaign made from the Italy 1796 scenario (bot/services/campaigns.py, on SQLite): three sides
with their capitals and supply, every Force on its square, the reinforcements waiting for their turn,
and the first phase resolves."""

from __future__ import annotations

from collections.abc import AsyncIterator

import pytest
from sqlmodel import select

from bot.services import campaigns, resolution, views
from bot.services.actors import Actor
from bot.store.db import Database
from bot.store.models import ForceRow, MapSquare, SideRow
from tests.databases import migrated_sqlite

GM = Actor(1001, name="Gina")
PLAYERS = {"fr": Actor(2001, name="Napoleone"), "au": Actor(3001, name="Johann"), "pi": Actor(4001, name="Vittorio")}


@pytest.fixture
async def db(tmp_path) -> AsyncIterator[Database]:
    database = Database(migrated_sqlite(tmp_path / "italy.db"))
    yield database
    await database.dispose()


async def test_a_campaign_from_italy1796(db: Database) -> None:
    created = await campaigns.create_campaign(db, guild_id=1, channel_id=2, gm=GM, name="Armée d'Italie",
                                              scenario="italy1796")
    assert created.sides == (("fr", "France"), ("au", "Austria"), ("pi", "Piedmont-Sardinia"))
    for side, actor in PLAYERS.items():
        await campaigns.join_side(db, created.campaign_id, actor, side)
    async with db.sessions() as s:
        sides = {r.key: r for r in (await s.exec(select(SideRow))).all()}
        forces = {r.key: r for r in (await s.exec(select(ForceRow))).all()}
        squares = (await s.exec(select(MapSquare))).all()
    assert {k: (r.capital, r.supply) for k, r in sides.items()} == {
        "fr": ("C26", 4), "au": ("R6", 5), "pi": ("F11", 3)}
    assert len(squares) == 36 * 26
    assert {k for k, r in forces.items() if r.state == "pending"} == {"kilmaine", "tyrol"}
    assert (forces["massena"].square, forces["colli"].square, forces["beaulieu"].square) == ("K19", "I18", "P17")
    st = await views.status(db, created.campaign_id, GM)
    assert [key for key, _, _ in st.sides] == ["fr", "au", "pi"]
    assert (st.position.turn, st.position.phase.name) == (1, "WEATHER")
    await resolution.resolve_phase(db, created.campaign_id, GM, expected_version=st.version)
    after = await views.status(db, created.campaign_id, GM)
    assert (after.position.turn, after.position.phase.name) == (1, "ORDERS")
    assert "Spring" in after.season.title()
