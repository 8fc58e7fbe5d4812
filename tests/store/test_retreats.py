"""Retreats the bot picks at the end of Phase 4 (MC-7.3, RU-8, RU-11): a beaten Force surrenders only
when no adjacent land square is free of the enemy; after a draw only opposing camps must end apart,
and friendly Forces may stay in contact."""

from __future__ import annotations

from bot.engine.errors import RuleViolation
from bot.engine.phases import Phase
from bot.services import aftermath, campaigns, orders, views

from .conftest import AUSTRIAN, FRENCH, GM
from .test_campaign_flow import advance, fixed_seeds  # noqa: F401  (fixture re-used)

CORNER = """
name: Cornered at A1
start_date: 1805-10-07
map: {width: 6, height: 6}
sides: [{key: fr, name: France, colour: "#1f4e9c"}, {key: au, name: Austria, colour: "#d9a400"}]
forces:
  - {key: soult, name: IV Corps, side: fr, square: A1, leader: {name: Soult, cv: 3},
     units: [{key: legrand, name: Legrand, sp: 8, type: infantry}]}
  - {key: davout, name: III Corps, side: fr, square: A1, leader: {name: Davout, cv: 3},
     units: [{key: friant, name: Friant, sp: 8, type: infantry}]}
  - {key: mack, name: Army of Mack, side: au, square: B2, leader: {name: Mack, cv: 5},
     units: [{key: riesch, name: Riesch, sp: 12, type: infantry}]}
  - {key: kienmayer, name: Kienmayer's Corps, side: au, square: B1, leader: {name: Kienmayer, cv: 1},
     units: [{key: merveldt, name: Merveldt, sp: 6, type: infantry}]}
"""

OPEN = """
name: Meeting at E4
start_date: 1805-10-07
map: {width: 8, height: 8}
sides: [{key: fr, name: France, colour: "#1f4e9c"}, {key: au, name: Austria, colour: "#d9a400"}]
forces:
  - {key: soult, name: IV Corps, side: fr, square: D4, leader: {name: Soult, cv: 5},
     units: [{key: legrand, name: Legrand, sp: 8, type: infantry}]}
  - {key: davout, name: III Corps, side: fr, square: D4, leader: {name: Davout, cv: 5},
     units: [{key: friant, name: Friant, sp: 8, type: infantry}]}
  - {key: mack, name: Army of Mack, side: au, square: E4, leader: {name: Mack, cv: 1},
     units: [{key: riesch, name: Riesch, sp: 12, type: infantry}]}
"""


def outcome_report(fr: str, au: str) -> dict:
    return {"system": "cc", "banners_required": 7, "sides": [
        {"side": "fr", "outcome": fr, "banners": 4, "units": [{"unit": "legrand", "killed": 1}]},
        {"side": "au", "outcome": au, "banners": 4, "units": [{"unit": "riesch", "killed": 1}]}]}


async def corner_battle(db) -> int:
    """Mack marches from B2 onto IV and III Corps at A1; Kienmayer holds B1."""
    created = await campaigns.create_campaign(db, guild_id=1, channel_id=7, gm=GM, name="Corner", scenario_text=CORNER)
    cid = created.campaign_id
    await campaigns.join_side(db, cid, FRENCH, "fr")
    await campaigns.join_side(db, cid, AUSTRIAN, "au")
    await advance(db, cid)  # weather
    assert (await orders.give_order(db, cid, AUSTRIAN, "mack", "forced_march")).roll.result == "ok"  # CV 5 (MC-4)
    await advance(db, cid, forced=True)
    assert (await orders.declare_move(db, cid, AUSTRIAN, "mack", "A1")).reach == ("A1",)
    assert (await advance(db, cid, forced=True)).battles == [1]
    return cid


async def open_battle(db) -> int:
    """IV and III Corps march from D4 onto Mack at E4."""
    created = await campaigns.create_campaign(db, guild_id=1, channel_id=7, gm=GM, name="Open", scenario_text=OPEN)
    cid = created.campaign_id
    await campaigns.join_side(db, cid, FRENCH, "fr")
    await campaigns.join_side(db, cid, AUSTRIAN, "au")
    await advance(db, cid)
    for force in ("soult", "davout"):
        assert (await orders.give_order(db, cid, FRENCH, force, "forced_march")).roll.result == "ok"
    await advance(db, cid, forced=True)
    for force in ("soult", "davout"):
        assert (await orders.declare_move(db, cid, FRENCH, force, "E4")).reach == ("E4",)
    assert (await advance(db, cid, forced=True)).battles == [1]
    return cid


async def squares(db, cid: int) -> dict[str, str | None]:
    st = await views.status(db, cid, GM)
    return {f.key: f.square for f in st.forces}


async def test_ru_8_two_beaten_forces_of_one_side_both_retreat_while_free_land_is_left(db) -> None:
    cid = await corner_battle(db)
    await aftermath.report_battle(db, cid, GM, 1, outcome_report("lost", "won"))
    assert (await advance(db, cid)).after.phase is Phase.AFTERMATH
    res = await advance(db, cid, forced=True)  # nobody chose: the bot picks both retreats
    assert not any("surrenders" in e for e in res.events), res.events
    where = await squares(db, cid)
    # Around A1 only A2 and B2 are free of the enemy (Kienmayer holds B1); friends may stay in contact.
    assert where["soult"] in ("A2", "B2") and where["davout"] in ("A2", "B2")
    assert where["mack"] == "A1" and where["kienmayer"] == "B1"


async def test_mc_7_3_a_player_may_retreat_next_to_a_friendly_force_after_a_defeat(db) -> None:
    cid = await corner_battle(db)
    await aftermath.report_battle(db, cid, GM, 1, outcome_report("lost", "won"))
    await advance(db, cid)
    assert (await aftermath.retreat(db, cid, FRENCH, 1, "soult", "A2")).square == "A2"
    assert (await aftermath.retreat(db, cid, FRENCH, 1, "davout", "B2")).square == "B2"
    await advance(db, cid, forced=True)
    where = await squares(db, cid)
    assert (where["soult"], where["davout"]) == ("A2", "B2")


async def test_mc_7_3_after_a_draw_the_bot_keeps_opposing_camps_apart_and_friends_may_touch(db) -> None:
    cid = await open_battle(db)
    await aftermath.report_battle(db, cid, GM, 1, outcome_report("draw", "draw"))
    await advance(db, cid)
    res = await advance(db, cid, forced=True)
    assert not any("surrenders" in e for e in res.events), res.events
    where = await squares(db, cid)
    assert all(where[k] != "E4" for k in ("soult", "davout", "mack"))  # a draw: every Force leaves

    def dist(a: str, b: str) -> int:
        return max(abs(ord(a[0]) - ord(b[0])), abs(int(a[1:]) - int(b[1:])))

    assert all(dist(where[k], "E4") == 1 for k in ("soult", "davout", "mack"))
    assert dist(where["soult"], where["mack"]) >= 2 and dist(where["davout"], where["mack"]) >= 2  # MC-7.3


async def test_mc_7_3_after_a_draw_a_player_must_end_one_square_from_the_enemy_but_not_from_a_friend(db) -> None:
    cid = await open_battle(db)
    await aftermath.report_battle(db, cid, GM, 1, outcome_report("draw", "draw"))
    await advance(db, cid)
    await aftermath.retreat(db, cid, FRENCH, 1, "soult", "D4")
    assert (await aftermath.retreat(db, cid, FRENCH, 1, "davout", "D5")).square == "D5"  # a friend in contact
    try:
        await aftermath.retreat(db, cid, AUSTRIAN, 1, "mack", "E5")
    except RuleViolation as exc:
        assert "After a draw the Forces must end one square apart (MC-7.3)" in str(exc)
    else:
        raise AssertionError("E5 touches D4 and D5")
    assert (await aftermath.retreat(db, cid, AUSTRIAN, 1, "mack", "F4")).square == "F4"


async def test_mc_7_3_a_draw_in_a_corner_leaves_no_square_apart_but_nobody_surrenders(db) -> None:
    cid = await corner_battle(db)
    await aftermath.report_battle(db, cid, GM, 1, outcome_report("draw", "draw"))
    await advance(db, cid)
    res = await advance(db, cid, forced=True)
    assert not any("surrenders" in e for e in res.events), res.events  # free land around each: RU-8 does not apply
    where = await squares(db, cid)
    assert where["mack"] in ("A2", "B2") or where["mack"] == "B1"
    assert where["soult"] in ("A2", "B2") and where["davout"] in ("A2", "B2")
