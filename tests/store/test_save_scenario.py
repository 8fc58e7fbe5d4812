"""Save (issue 15) through the services: the GM downloads a running campaign as a scenario file and a new
campaign starts from it where the old one stood; nobody else may download it. SQLite and PostgreSQL."""

from __future__ import annotations

import hashlib

import pytest
import yaml

from bot.engine.errors import InvalidInput
from bot.engine.phases import Phase
from bot.generate import Params, generate_scenario
from bot.scenario import parse_scenario, parse_scenario_text
from bot.services import campaigns, exchange, readcache, resolution, views
from bot.services.errors import PermissionDenied
from tests.campaign.test_save import assert_same_campaign

from .conftest import AUSTRIAN, FRENCH, GM, OUTSIDER


@pytest.fixture(autouse=True)
def fixed_seeds(monkeypatch: pytest.MonkeyPatch) -> None:
    counter = iter(range(1, 10_000))
    monkeypatch.setattr(
        "bot.services.loading.new_turn_seed", lambda: hashlib.sha256(f"save-seed-{next(counter)}".encode()).digest()
    )


async def play_to_turn(db, cid: int, turn: int) -> None:
    """The GM forces every phase until ``turn``'s Orders."""
    while True:
        st = await views.status(db, cid, GM)
        if (st.position.turn, st.position.phase) >= (turn, Phase.ORDERS):
            return
        await resolution.resolve_phase(db, cid, GM, expected_version=st.version, forced=True)


async def create(db, channel: int, **source: object) -> int:
    created = await campaigns.create_campaign(db, guild_id=10, channel_id=channel, gm=GM, name="Old Campaign",
                                              **source)  # type: ignore[arg-type]
    return created.campaign_id


async def round_trip(db, cid: int) -> None:
    await play_to_turn(db, cid, 2)
    name, raw = await exchange.save_scenario(db, cid, GM)
    assert name == f"campaign-{cid}-turn-2.yaml"
    spec = parse_scenario_text(raw, key="saved")
    assert spec.description.startswith("Saved from the campaign 'Old Campaign' at turn 2")
    new_id = await create(db, 99, scenario_text=raw)
    old = (await readcache.read(db, cid)).state
    new = (await readcache.read(db, new_id)).state
    assert_same_campaign(old, new)
    assert (new.turn, new.name) == (1, "Old Campaign")


async def test_the_tutorial_played_a_turn_is_saved_and_started_again(db) -> None:
    cid = await create(db, 20, scenario="tutorial")
    await campaigns.join_side(db, cid, FRENCH, "fr")
    await campaigns.join_side(db, cid, AUSTRIAN, "au")
    await round_trip(db, cid)


async def test_italy_played_a_turn_is_saved_and_started_again(db) -> None:
    await round_trip(db, await create(db, 21, scenario="italy1796"))


async def test_a_generated_campaign_played_a_turn_is_saved_and_started_again(db) -> None:
    params = Params(width=30, height=24, sides=3, alliances=(("au", "ru"),), seed=11)
    await round_trip(db, await create(db, 22, spec=parse_scenario(generate_scenario(params), key="generated")))


async def test_only_the_gm_may_save_the_campaign_as_a_scenario(db) -> None:
    cid = await create(db, 23, scenario="tutorial")
    await campaigns.join_side(db, cid, FRENCH, "fr")
    for who in (FRENCH, OUTSIDER):
        with pytest.raises(PermissionDenied, match="Only the GM of 'Old Campaign'"):
            await exchange.save_scenario(db, cid, who)
    _, raw = await exchange.save_scenario(db, cid, GM)
    data = yaml.safe_load(raw)
    assert {f["key"] for f in data["forces"]} == {"soult", "lannes", "mack", "werneck"}  # hidden ones too (GM)


async def test_a_campaign_with_enemies_on_one_square_is_refused_naming_them(db, monkeypatch) -> None:
    cid = await create(db, 24, scenario="tutorial")
    real = readcache.read

    async def clashing(db_, cid_, parts=None):
        cr = await real(db_, cid_, parts)  # a copy: the cached entry is shared and stays as it is
        return readcache.CampaignRead(cr.stamp, cr.campaign, cr.state.with_force("soult", square="J5"), cr.ids)

    monkeypatch.setattr(readcache, "read", clashing)
    with pytest.raises(InvalidInput, match="IV Corps, Army of Mack stand on J5"):
        await exchange.save_scenario(db, cid, GM)
