"""Phase 5, the Will-to-Fight test (MC-9), through the services as the bot runs them: what a side's
tallies count (RU-14) and when a side must test."""

from __future__ import annotations

from bot.campaign.state import ForceStatus
from bot.engine.phases import Phase
from bot.services import campaigns, orders, views
from bot.store import repository

from .conftest import AUSTRIAN, FRENCH, GM
from .test_campaign_flow import advance, fixed_seeds  # noqa: F401  (fixture re-used)

CAPITAL = """
name: The road to the capital
start_date: 1805-10-07
map:
  width: 8
  height: 8
  strongholds: {fr: [A1], au: [E4, E6]}
  capitals: {fr: A1, au: E4}
sides: [{key: fr, name: France, colour: "#1f4e9c"}, {key: au, name: Austria, colour: "#d9a400"}]
forces:
  - key: lannes
    name: V Corps
    side: fr
    square: D4
    leader: {name: Lannes, cv: 5}
    units: [{key: suchet, name: Suchet, sp: 10, type: infantry, quality: veteran}]
  - key: soult
    name: IV Corps
    side: fr
    square: D6
    leader: {name: Soult, cv: 5}
    units: [{key: vandamme, name: Vandamme, sp: 10, type: infantry, quality: veteran}]
  - key: mack
    name: Army of Mack
    side: au
    square: H1
    leader: {name: Mack, cv: 1}
    units: [{key: riesch, name: Riesch, sp: 12, type: infantry, quality: raw}]
"""

LATE = """
name: The Austrians are late
start_date: 1805-10-07
map: {width: 8, height: 8}
sides: [{key: fr, name: France, colour: "#1f4e9c"}, {key: au, name: Austria, colour: "#d9a400"}]
forces:
  - key: lannes
    name: V Corps
    side: fr
    square: D4
    leader: {name: Lannes, cv: 5}
    units: [{key: suchet, name: Suchet, sp: 10, type: infantry, quality: veteran}]
reinforcements:
  - turn: 2
    force:
      key: mack
      name: Army of Mack
      side: au
      square: H8
      leader: {name: Mack, cv: 1}
      units: [{key: riesch, name: Riesch, sp: 12, type: infantry, quality: raw}]
"""


async def _create(db, text: str) -> int:
    created = await campaigns.create_campaign(db, guild_id=1, channel_id=7, gm=GM, name="Will", scenario_text=text)
    await campaigns.join_side(db, created.campaign_id, FRENCH, "fr")
    await campaigns.join_side(db, created.campaign_id, AUSTRIAN, "au")
    return created.campaign_id


async def test_ru_14_a_captured_capital_counts_only_as_a_capital_in_the_will_to_fight_test(db) -> None:
    cid = await _create(db, CAPITAL)
    await advance(db, cid)  # weather
    for force in ("lannes", "soult"):
        assert (await orders.give_order(db, cid, FRENCH, force, "forced_march")).roll.result == "ok"  # CV 5 (MC-4)
    await advance(db, cid, forced=True)
    assert (await orders.declare_move(db, cid, FRENCH, "lannes", "E4")).reach == ("E4",)  # the capital
    assert (await orders.declare_move(db, cid, FRENCH, "soult", "E6")).reach == ("E6",)  # a plain stronghold
    res = await advance(db, cid, forced=True)  # movement, then phases 3-8 run by themselves
    assert res.turn_ended  # turn 2 begins, or Austria's defeat ended the campaign in Phase 5 (RU-25)
    (austria,) = [r for r in res.rolls if r.key == "t1/p5/side:au/will-to-fight"]
    # -1 for the stronghold at E6, -3 for the capital at E4, and nothing more: the capital is not also
    # a stronghold lost (RU-14).
    assert sorted(m.value for m in austria.modifiers) == [-3, -1]
    assert all(m.rule == "MC-9" for m in austria.modifiers)
    assert not [r for r in res.rolls if r.key == "t1/p5/side:fr/will-to-fight"]  # France lost nothing
    async with db.sessions() as s:
        state = (await repository.load(s, cid)).state
    fr, au = state.sides["fr"], state.sides["au"]
    assert (fr.strongholds_taken, fr.holds_enemy_capital) == (1, True)
    assert (au.strongholds_lost, au.lost_capital) == (1, True)


async def test_mc_9_a_side_whose_forces_are_still_to_arrive_has_not_lost_them_all(db) -> None:
    cid = await _create(db, LATE)
    await advance(db, cid)  # weather
    await advance(db, cid, forced=True)  # orders
    res = await advance(db, cid, forced=True)  # movement, then phases 3-8 run by themselves
    assert res.after.turn == 2
    assert not [r for r in res.rolls if r.rule == "MC-9"]  # Austria's Army of Mack arrives on turn 2: nobody tests
    assert not any("Will to Fight" in e for e in res.events)
    st = await views.status(db, cid, GM)
    assert st.position.phase is Phase.ORDERS and st.status == "active"  # turn 2's weather rolled by itself


async def test_ru_25_a_side_with_no_force_left_and_none_to_come_is_out_without_a_test(db) -> None:
    """The other half of MC-9's "all Forces destroyed" now reads RU-25: Forces all removed and none
    scheduled, the side is in total defeat without a test; France alone is left, and the campaign ends."""
    cid = await _create(db, LATE)
    async with db.transaction() as s:  # the GM's table: Army of Mack never comes (taken off the schedule)
        loaded = await repository.load(s, cid, lock=True)
        await repository.save(s, loaded, loaded.state.with_force("mack", status=ForceStatus.REMOVED))
    res = await advance(db, cid)
    assert not [r for r in res.rolls if r.rule == "MC-9"]
    assert any("Austria has no Force left on the map and none to come" in e for e in res.events)
    assert res.ended and "The campaign is over: France won (RU-25)." in res.events
