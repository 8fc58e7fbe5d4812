"""Moves by water on the bot's own path (issue "One campaign core", defect 3; MC-5.3, RU-16).

A river move is one square shorter for embarking and for landing, like a sea move; the odds shown
before the roll are those of the move then allowed; smaller boats and horse rafts can be declared;
upstream or downstream is judged square by square along the path.
"""

from __future__ import annotations

from fractions import Fraction

import pytest

from bot.engine.phases import Phase
from bot.services import campaigns, orders, views

from .conftest import AUSTRIAN, FRENCH, GM
from .test_campaign_flow import advance, fixed_seeds  # noqa: F401  (fixture re-used)

# A river flowing south down column E (no bridge), the sea along row 10; France holds the west.
WATER = """
name: River and sea
start_date: 1805-10-07
options: {weather: false, random_events: false}
map:
  width: 10
  height: 10
  rows:
    - ".........."
    - ".........."
    - ".........."
    - ".........."
    - ".........."
    - ".........."
    - ".........."
    - ".........."
    - ".........."
    - "SSSSSSSSSS"
  rivers:
    - {squares: [E1, E2, E3, E4, E5, E6, E7, E8, E9], flow: S}
  territories: {fr: ["A1:E9"], au: ["F1:J9"]}
sides: [{key: fr, name: France, colour: "#1f4e9c"}, {key: au, name: Austria, colour: "#d9a400"}]
forces:
  - key: boats
    name: River Flotilla
    side: fr
    square: E2
    order: forced_march
    leader: {name: Baste, cv: 0}
    units: [{key: marines, name: Marines of the Guard, sp: 4, type: infantry, quality: average}]
  - key: coast
    name: Coast Division
    side: fr
    square: B9
    leader: {name: Lacoste, cv: 0}
    units: [{key: coastal, name: Coastal Infantry, sp: 6, type: infantry, quality: average}]
  - key: fleet
    name: Flotilla of the Coast
    side: fr
    square: D9
    small_boats: true
    leader: {name: Lhermitte, cv: 0}
    units: [{key: gunboats, name: Gunboat Crews, sp: 3, type: infantry, quality: average}]
  - key: far
    name: Far Corps
    side: au
    square: J1
    leader: {name: Far, cv: 0}
    units: [{key: farinf, name: Far Infantry, sp: 6, type: infantry, quality: average}]
"""


async def at_movement(db) -> int:
    created = await campaigns.create_campaign(db, guild_id=10, channel_id=30, gm=GM, name="Water",
                                              scenario="water", scenario_text=WATER)
    cid = created.campaign_id
    await campaigns.join_side(db, cid, FRENCH, "fr")
    await campaigns.join_side(db, cid, AUSTRIAN, "au")
    while (await views.status(db, cid, GM)).position.phase is not Phase.MOVEMENT:
        await advance(db, cid, forced=True)
    return cid


def squares_for(total: int) -> int:
    """MC-5.3's bands."""
    return 1 if total <= 2 else 2 if total <= 5 else 3 if total <= 8 else 4


async def test_a_river_move_is_shortened_for_embarking_and_landing_and_the_odds_say_so(db) -> None:
    cid = await at_movement(db)
    # Forced March (+2), downstream (+1), from friendly territory (+1): totals 5 to 10, which the
    # bands make 2, 3, 3, 3, 4, 4 squares; embarking and landing cost one square each (RU-16).
    odds = (await orders.move_odds(db, cid, FRENCH, "boats", "E3 E4 E5 E6", by_water=True)).chances()
    assert odds == {2: Fraction(2, 6), 1: Fraction(4, 6)}
    out = await orders.declare_move(db, cid, FRENCH, "boats", "E3 E4 E5 E6", by_water=True)
    assert out.roll.total in range(5, 11)
    assert out.allowance == max(1, squares_for(out.roll.total) - 2) <= 2
    assert out.allowance in odds


async def test_the_odds_shown_for_a_sea_move_are_those_of_the_move_then_allowed(db) -> None:
    cid = await at_movement(db)
    path = "B10 C10 D9"  # embarks at B9, sails, lands at D9
    odds = (await orders.move_odds(db, cid, FRENCH, "coast", path, by_water=True)).chances()
    # friendly territory +1, no wind (weather off): totals 2 to 7, bands 1, 2, 2, 2, 3, 3 squares; from a
    # total of 3 up, embarking and landing take two: one square whatever the die (the raw bands were shown)
    assert odds == {1: Fraction(1)}
    out = await orders.declare_move(db, cid, FRENCH, "coast", path, by_water=True)
    assert out.allowance in odds and out.allowance == max(1, squares_for(out.roll.total) - (2 if out.roll.total >= 3 else 0))


async def test_smaller_boats_and_horse_rafts_can_be_declared_and_count_in_the_odds(db) -> None:
    cid = await at_movement(db)
    plain = (await orders.move_odds(db, cid, FRENCH, "coast", "B10 C10", by_water=True)).chances()
    worse = (await orders.move_odds(db, cid, FRENCH, "coast", "B10 C10", by_water=True, small_boats=True,
                                    horse_rafts=True)).chances()
    assert plain != worse and worse == {1: Fraction(1)}  # -3 in all (MC-5.3: smaller boats -2, horse rafts -1)
    out = await orders.declare_move(db, cid, FRENCH, "coast", "B10 C10", by_water=True, small_boats=True,
                                    horse_rafts=True)
    reasons = " ".join(m.reason for m in out.roll.modifiers)
    assert "smaller" in reasons and "horse" in reasons


@pytest.mark.parametrize(("path", "expected"), [
    ("E3 E4", "downstream"),
    ("E1", "upstream"),
    ("E3 E2 E1", "upstream"),  # RU-16: judged square by square; both ways takes the worse
])
async def test_upstream_and_downstream_are_judged_along_the_path(db, path: str, expected: str) -> None:
    cid = await at_movement(db)
    out = await orders.declare_move(db, cid, FRENCH, "boats", path, by_water=True)
    reasons = [m.reason for m in out.roll.modifiers]
    assert any(expected in r for r in reasons), reasons
    other = "upstream" if expected == "downstream" else "downstream"
    assert not any(other in r for r in reasons), reasons


def reasons(odds) -> list[str]:
    return [str(m.reason) for m in odds.modifiers]


async def test_the_boats_a_scenario_states_for_a_force_count_in_the_odds_and_the_roll(db) -> None:
    """MC-5.3 (issue 21, item 6): "stated by its player when declaring the move, or by the scenario for the
    Force". The scenario's smaller boats are the Force's own: every move by water counts them, whatever the
    player says; the player's word adds what the scenario does not state (the horse rafts)."""
    cid = await at_movement(db)
    plain = await orders.move_odds(db, cid, FRENCH, "fleet", "D10 E10", by_water=True)
    assert "boats smaller than ships" in reasons(plain) and "barges or rafts for the horses" not in reasons(plain)
    both = await orders.move_odds(db, cid, FRENCH, "fleet", "D10 E10", by_water=True, horse_rafts=True)
    assert {"boats smaller than ships", "barges or rafts for the horses"} <= set(reasons(both))
    out = await orders.declare_move(db, cid, FRENCH, "fleet", "D10 E10", by_water=True)
    assert "boats smaller than ships" in [str(m.reason) for m in out.roll.modifiers]
    coast = await orders.move_odds(db, cid, FRENCH, "coast", "B10 C10", by_water=True)
    assert "boats smaller than ships" not in reasons(coast)  # a Force the scenario says nothing of sails in ships
