"""RU-24 through the services the bot calls, on SQLite and PostgreSQL: a scenario's recruit pool
(``supply.recruits``) is kept with each side from creation, a recruit bought joins a Force on its
side's own ground and leaves the pool for good (a new transaction sees it), and the pool survives an
export and import and a /campaign save."""

from __future__ import annotations

import pytest

from bot.campaign.new import from_scenario
from bot.engine.errors import RuleViolation
from bot.scenario import parse_scenario_text
from bot.services import campaigns, exchange, supply
from bot.services.errors import NotFound
from bot.store import repository

from .conftest import AUSTRIAN, FRENCH, GM
from .test_campaign_flow import fixed_seeds  # noqa: F401  (fixture re-used)

RECRUITING = """
name: Recruiting
start_date: 1805-10-07
options: {weather: false, random_events: false, supply: true}
map:
  width: 8
  height: 4
  rows: ["........", "........", "........", "........"]
  territories: {fr: ["A1:D4"], au: ["E1:H4"]}
  strongholds: {fr: [A1], au: [H4]}
  capitals: {fr: A1, au: H4}
sides: [{key: fr, name: France, colour: "#1f4e9c"}, {key: au, name: Austria, colour: "#d9a400"}]
forces:
  - {key: soult, name: IV Corps, side: fr, square: B2, leader: {name: Soult, cv: 2},
     units: [{key: vandamme, name: Vandamme's Division, sp: 8}]}
  - {key: abroad, name: Light Column, side: fr, square: E2, leader: {name: Lasalle, cv: 1},
     units: [{key: hussars, name: 5th Hussars, sp: 3, type: cavalry}]}
  - {key: mack, name: Army of Mack, side: au, square: G3, leader: {name: Mack, cv: 0},
     units: [{key: riesch, name: Riesch's Division, sp: 9}]}
supply:
  fr: 4
  au: 2
  recruits:
    fr:
      - {key: conscripts, name: Conscripts of 1805, sp: 4, quality: raw, cost: 3}
      - {key: guard-cav, name: Guard Chasseurs, sp: 2, type: cavalry, quality: elite}
"""


async def state_of(db, cid):
    async with db.sessions() as s:
        return (await repository.load(s, cid)).state


async def recruiting(db) -> int:
    created = await campaigns.create_campaign(db, guild_id=11, channel_id=31, gm=GM, name="Recruits",
                                              scenario="recruiting", scenario_text=RECRUITING)
    cid = created.campaign_id
    await campaigns.join_side(db, cid, FRENCH, "fr")
    await campaigns.join_side(db, cid, AUSTRIAN, "au")
    assert (await state_of(db, cid)).phase.value == 1  # weather off: the campaign starts in Phase 1, the supply phase
    return cid


async def test_the_recruit_pool_is_kept_bought_from_once_and_joins_a_force_on_its_own_ground(db) -> None:
    cid = await recruiting(db)
    state = await state_of(db, cid)
    built = from_scenario(parse_scenario_text(RECRUITING), campaign_id=cid, name="Recruits", gm_id=GM.member_id)
    assert state.sides["fr"].recruits == built.sides["fr"].recruits  # the services and the core agree
    assert [(r.unit.key, r.unit.sp, r.cost) for r in state.sides["fr"].recruits] == [("conscripts", 4, 3),
                                                                                    ("guard-cav", 2, 2)]
    assert state.sides["au"].recruits == ()
    assert [u.key for u in await supply.units(db, cid, FRENCH, "unit", None)] == ["conscripts", "guard-cav"]
    assert await supply.units(db, cid, AUSTRIAN, "unit", None) == []

    with pytest.raises(RuleViolation, match=r"Light Column stands at E2, outside France's territory.*\(RU-24\)"):
        await supply.buy(db, cid, FRENCH, "unit", "abroad", unit="Conscripts of 1805")
    out = await supply.buy(db, cid, FRENCH, "unit", "IV Corps", unit="Conscripts of 1805")
    assert (out.cost, out.left) == (3, 1)
    with pytest.raises(RuleViolation, match="already bought in this supply phase"):  # a new transaction sees it
        await supply.buy(db, cid, FRENCH, "unit", "soult", unit="conscripts")
    with pytest.raises(RuleViolation, match="it costs 2 supply points and France has 1 left of 4"):
        await supply.buy(db, cid, FRENCH, "unit", "soult", unit="guard-cav")
    with pytest.raises(NotFound, match="Austria has no destroyed unit or recruit 'guard-cav'"):
        await supply.buy(db, cid, AUSTRIAN, "unit", "mack", unit="guard-cav")

    state = await state_of(db, cid)
    assert [u.key for u in state.forces["soult"].units] == ["vandamme", "conscripts"]
    assert [r.unit.key for r in state.sides["fr"].recruits] == ["guard-cav"]

    # The pool, as it now stands, goes with an export and comes back with an import ...
    doc = await exchange.export_campaign(db, cid, GM)
    back = await exchange.import_campaign(db, doc, guild_id=11, channel_id=32, gm=GM)
    again = await state_of(db, back.campaign_id)
    assert again.sides["fr"].recruits == state.sides["fr"].recruits
    # ... and with a saved scenario, as what France may still raise.
    _, saved = await exchange.save_scenario(db, cid, GM)
    spec = parse_scenario_text(saved)
    assert [(r.unit.key, r.unit.sp, r.cost) for r in spec.recruits["fr"]] == [("guard-cav", 2, 2)]
