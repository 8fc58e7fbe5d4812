"""A bundled scenario's names in the reader's language (issue 23, item 4): stored with the campaign (its
own column, migration 0015), read back after a restart, and drawn on the map in the reader's words."""

from __future__ import annotations

from bot.i18n import names
from bot.services import campaigns, maps
from bot.store.repository import load

from .conftest import FRENCH, GM
from .test_campaign_flow import tutorial


async def test_the_names_are_stored_read_back_and_drawn_in_the_readers_language(db) -> None:
    cid = await tutorial(db)
    names._BOOKS.clear()  # a restart: the process has read nothing yet
    async with db.transaction() as s:
        loaded = await load(s, cid)
    assert loaded.state.names["side:au"]["de"] == "Österreich" and loaded.state.names["title"]["fr"].startswith("Didact")
    assert names._BOOKS[cid]["fr"]["Austria"] == "Autriche"
    snap, _ = await maps.snapshot(db, cid, GM, view="full", lang="de")
    assert {s.name for s in snap.sides} == {"Frankreich", "Österreich"}
    assert any(c.name == "Armee Mack" for c in snap.counters)
    english, _ = await maps.snapshot(db, cid, GM, view="full", lang="en")
    assert {s.name for s in english.sides} == {"France", "Austria"}
    _png, report = await maps.map_png(db, cid, FRENCH, lang="fr")
    assert "France" in report and "Austria" not in report


async def test_a_campaign_from_a_scenario_without_names_has_none(db) -> None:
    created = await campaigns.create_campaign(db, guild_id=10, channel_id=21, gm=GM, name="Plain", scenario_text="""
name: Plain
start_date: 1805-10-07
map: {width: 4, height: 4}
sides: [{key: fr, name: France}, {key: au, name: Austria}]
forces:
  - {key: a, name: A, side: fr, square: A1, leader: {name: L, cv: 1}, units: [{key: u, name: U, sp: 3}]}
  - {key: b, name: B, side: au, square: D4, leader: {name: M, cv: 1}, units: [{key: v, name: V, sp: 3}]}
""")
    async with db.transaction() as s:
        assert (await load(s, created.campaign_id)).state.names == {}
