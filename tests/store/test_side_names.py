"""A side is found by its key before any name: /campaign join and /gm assign never take a side whose
name happens to read like another side's key; names compare without case and invisible characters."""

from __future__ import annotations

import pytest
from sqlmodel import select

from bot.engine.errors import InvalidInput
from bot.services import campaigns
from bot.store.models import Player, SideRow

from .conftest import AUSTRIAN, FRENCH, GM
from .test_battle_flow import SCENARIO


async def _rename(db, cid: int, key: str, name: str) -> None:
    """A campaign whose side names predate the scenario checks (or came in by import)."""
    async with db.transaction() as s:
        row = (await s.exec(select(SideRow).where(SideRow.campaign_id == cid, SideRow.key == key))).one()
        row.name = name
        s.add(row)


async def _side_of(db, cid: int, member_id: int) -> str:
    async with db.sessions() as s:
        return (await s.exec(select(Player.side_key).where(Player.campaign_id == cid,
                                                           Player.member_id == member_id))).one()


async def test_join_takes_the_side_whose_key_was_typed_before_a_side_named_so(db) -> None:
    created = await campaigns.create_campaign(db, guild_id=1, channel_id=7, gm=GM, name="Bridge", scenario_text=SCENARIO)
    cid = created.campaign_id
    await _rename(db, cid, "fr", "au")  # France is listed first and is *named* "au"
    joined = await campaigns.join_side(db, cid, AUSTRIAN, "au")
    assert joined.key == "au" and await _side_of(db, cid, AUSTRIAN.member_id) == "au"
    moved = await campaigns.assign(db, cid, GM, FRENCH.member_id, "AU ")
    assert moved.key == "au"  # a key, as typed in any case


async def test_a_side_name_is_found_without_case_and_invisible_characters(db) -> None:
    created = await campaigns.create_campaign(db, guild_id=1, channel_id=7, gm=GM, name="Bridge", scenario_text=SCENARIO)
    cid = created.campaign_id
    joined = await campaigns.join_side(db, cid, FRENCH, "\u200bFRANCE ")
    assert joined.key == "fr"


async def test_create_refuses_a_scenario_whose_side_is_named_like_another_sides_key(db) -> None:
    bad = SCENARIO.replace("{key: fr, name: France,", "{key: fr, name: au,")
    with pytest.raises(InvalidInput, match=r"sides\[0\]\.name: 'au' is the key of another side \(au\)"):
        await campaigns.create_campaign(db, guild_id=1, channel_id=7, gm=GM, name="Bridge", scenario_text=bad)
