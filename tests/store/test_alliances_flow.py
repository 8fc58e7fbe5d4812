"""Alliances on the bot's path (RU-19, RU-20) and the FC-1 overwhelm setting (RU-22): allied Forces
share a square without a battle; three camps in one square are one battle; a camp outnumbered 3 to 1
is destroyed without a battle when the GM turns the check on."""

from __future__ import annotations

from bot.campaign.state import ForceStatus
from bot.services import campaigns
from bot.store import repository

from .conftest import AUSTRIAN, FRENCH, GM
from .test_campaign_flow import advance, fixed_seeds  # noqa: F401  (fixture re-used)

THREE = """
name: Three camps
start_date: 1796-04-10
map: {width: 8, height: 8}
sides: [{key: fr, name: France}, {key: au, name: Austria}, {key: pi, name: Piedmont}]
alliances: [[au, pi]]
forces:
  - {key: massena, name: Massena, side: fr, square: D4, order: defend, leader: {name: Massena, cv: 5},
     units: [{key: laharpe, name: Laharpe, sp: 8}]}
  - {key: beaulieu, name: Beaulieu, side: au, square: C4, order: defend, leader: {name: Beaulieu, cv: 5},
     units: [{key: argenteau, name: Argenteau, sp: 8}]}
  - {key: colli, name: Colli, side: pi, square: C4, order: defend, leader: {name: Colli, cv: 5},
     units: [{key: provera, name: Provera, sp: 8}]}
"""

PIEDMONT = 3


async def _create(db, options=None, text: str = THREE) -> int:
    created = await campaigns.create_campaign(db, guild_id=1, channel_id=2, gm=GM, name="Three", scenario_text=text,
                                              options={"weather": False, "random_events": False, **(options or {})})
    await campaigns.join_side(db, created.campaign_id, FRENCH, "fr")
    await campaigns.join_side(db, created.campaign_id, AUSTRIAN, "au")
    return created.campaign_id


async def _meet(db, cid) -> None:
    """Resolve Phase 1 and put Massena at C4, as if he had marched there: a scenario cannot start
    enemies in one square (RU-19)."""
    await advance(db, cid, forced=True)
    async with db.transaction() as s:
        loaded = await repository.load(s, cid)
        await repository.save(s, loaded, loaded.state.with_force("massena", square="C4"))


async def _state(db, cid):
    async with db.transaction() as s:
        return (await repository.load(s, cid)).state


async def test_ru_19_allies_share_a_square_and_are_one_camp(db) -> None:
    cid = await _create(db)
    state = await _state(db, cid)
    assert state.camps.allied("au", "pi") and state.camps.hostile("fr", "au") and state.camps.hostile("fr", "pi")
    await advance(db, cid, forced=True)  # orders: everyone holds
    await advance(db, cid, forced=True)  # movement: nobody moves; the allies at C4 fight nobody
    state = await _state(db, cid)
    assert not state.battles


STRONG = THREE.replace("{key: argenteau, name: Argenteau, sp: 8}", "{key: argenteau, name: Argenteau, sp: 18}")


async def test_ru_20_three_sides_in_one_square_make_one_battle(db) -> None:
    cid = await _create(db, text=THREE)
    await _meet(db, cid)
    await advance(db, cid, forced=True)
    state = await _state(db, cid)
    (battle,) = state.battles.values()
    assert set(battle.sides) == {"fr", "au", "pi"} and set(battle.forces) == {"massena", "beaulieu", "colli"}


async def test_fc_1_overwhelm_is_off_by_default(db) -> None:
    cid = await _create(db, text=STRONG)
    await _meet(db, cid)
    await advance(db, cid, forced=True)
    state = await _state(db, cid)
    assert len(state.battles) == 1 and state.forces["massena"].status is ForceStatus.ACTIVE


async def test_fc_1_overwhelm_destroys_a_camp_outnumbered_3_to_1_by_the_allies(db) -> None:
    cid = await _create(db, {"overwhelm": True}, text=STRONG)  # 26 SP of allies against 8: 3.25 to 1
    await _meet(db, cid)
    res = await advance(db, cid, forced=True)
    state = await _state(db, cid)
    assert not state.battles
    assert state.forces["massena"].status is ForceStatus.REMOVED
    assert any("FC-1" in str(t) for t in res.events)


async def test_fc_1_a_camp_short_of_3_to_1_fights(db) -> None:
    cid = await _create(db, {"overwhelm": True}, text=THREE)  # 16 against 8: 2 to 1
    await _meet(db, cid)
    await advance(db, cid, forced=True)
    state = await _state(db, cid)
    assert len(state.battles) == 1 and state.forces["massena"].status is ForceStatus.ACTIVE
