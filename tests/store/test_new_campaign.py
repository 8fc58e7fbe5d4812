"""``bot.campaign.new.from_scenario`` builds, without a database, the very state that creating a
campaign through the services and loading it from the repository gives: every part of it but the
campaign's id, and turn 1's seed, which the core draws on first use (here from the same source).

Creation itself builds its state with ``from_scenario`` and saves it through the repository, as every
save of the game (issue 22, item 1): so this is the repository's round trip of a new campaign, the rows
it writes read back into the very state it was given."""

from __future__ import annotations

import hashlib
from dataclasses import fields

import pytest

from bot.campaign.dice import Context, turn_dice
from bot.campaign.events import Journal
from bot.campaign.new import from_scenario
from bot.campaign.state import CampaignState, ForceStatus
from bot.engine.errors import InvalidInput
from bot.engine.phases import Phase
from bot.engine.tables import default_rulebook
from bot.scenario import load_bundled
from bot.services import campaigns
from bot.services.loading import use_seed_source
from bot.store import repository
from bot.store.db import Database

from .conftest import GM

SEED = hashlib.sha256(b"from-scenario").digest()


async def created(db: Database, scenario: str, options: dict | None = None) -> CampaignState:
    use_seed_source(lambda: SEED)
    try:
        c = await campaigns.create_campaign(db, guild_id=1, channel_id=2, gm=GM, name="  Montenotte ",
                                            scenario=scenario, options=options)
    finally:
        use_seed_source(None)
    async with db.sessions() as s:
        return (await repository.load(s, c.campaign_id)).state


def differences(a: CampaignState, b: CampaignState) -> dict[str, tuple[object, object]]:
    return {f.name: (getattr(a, f.name), getattr(b, f.name)) for f in fields(CampaignState)
            if getattr(a, f.name) != getattr(b, f.name)}


@pytest.mark.parametrize(("scenario", "options"), [
    ("tutorial", None),
    ("italy1796", None),
    ("tutorial", {"weather": False, "adjacency": 4, "supply": True, "movement_order": "initiative"}),
    ("italy1796", {"random_events": False, "overwhelm": True, "mercenary_desertion": "lose_all"}),
])
async def test_from_scenario_is_the_state_the_services_create(db: Database, scenario: str,
                                                              options: dict | None) -> None:
    loaded = await created(db, scenario, options)
    built = from_scenario(load_bundled(scenario), campaign_id=loaded.id + 1000, name="  Montenotte ",
                          gm_id=GM.member_id, options=options)
    assert built.id == loaded.id + 1000  # the id is the caller's
    built = built.evolve(id=loaded.id)
    # Turn 1's seed: the services draw it at creation, the core on first use, from the same source.
    assert built.seeds == {} and set(loaded.seeds) == {1}
    assert differences(built, loaded.evolve(seeds={})) == {}
    with_seed, _ = turn_dice(built, Journal(), Context(lambda: SEED, default_rulebook()))
    assert differences(with_seed, loaded) == {}
    # What the comparison rests on is there: leaders, pending reinforcements, capitals, camps, supply.
    assert all(ld.key == f"{ld.force}-leader" for ld in built.leaders.values())
    assert any(f.status is ForceStatus.PENDING for f in built.forces.values())
    assert all(sd.capital for sd in built.sides.values())
    if scenario == "italy1796":
        assert {k: sd.camp for k, sd in built.sides.items()} == {"fr": "", "au": "au+pi", "pi": "au+pi"}
    else:
        assert {k: (sd.supply, sd.supply_income) for k, sd in built.sides.items()} == {"fr": (4, 4), "au": (4, 4)}
    if options and options.get("weather") is False:
        assert built.phase is Phase.ORDERS and built.map.adjacency == 4


def test_from_scenario_refuses_what_the_services_refuse() -> None:
    spec = load_bundled("tutorial")
    with pytest.raises(InvalidInput, match="Unknown campaign option 'fog'"):
        from_scenario(spec, campaign_id=1, name="Ulm", gm_id=1, options={"fog": True})
    with pytest.raises(InvalidInput, match="Option 'adjacency' cannot be 6"):
        from_scenario(spec, campaign_id=1, name="Ulm", gm_id=1, options={"adjacency": 6})
    with pytest.raises(InvalidInput, match="1 to 100 characters"):
        from_scenario(spec, campaign_id=1, name="   ", gm_id=1)
