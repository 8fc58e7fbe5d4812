"""RU-19 on the player's own rolls: an ally's territory is friendly ground for the Force test (MC-4)
and the movement roll (MC-5.1), as it is for the engine's other procedures."""

from __future__ import annotations

from bot.campaign import orders
from bot.campaign.new import from_scenario
from bot.engine.tables import default_rulebook
from bot.scenario import parse_scenario_text

ALLIED = """
name: Allied ground
start_date: 1796-04-10
map: {width: 6, height: 6, territories: {au: ['A1:C6'], fr: ['D1:F6']}}
sides: [{key: fr, name: France}, {key: au, name: Austria}, {key: pi, name: Piedmont}]
alliances: [[au, pi]]
forces:
  - {key: colli, name: Colli, side: pi, square: B2, leader: {name: Colli, cv: 2}, units: [{key: provera, name: Provera, sp: 6}]}
  - {key: massena, name: Massena, side: fr, square: E5, leader: {name: Massena, cv: 2}, units: [{key: laharpe, name: Laharpe, sp: 6}]}
"""


def _state():
    return from_scenario(parse_scenario_text(ALLIED), campaign_id=1, name="Allied", gm_id=1)


def test_ru_19_an_allys_territory_gives_the_friendly_force_test_modifier() -> None:
    state = _state()
    check = orders.order_check(state, state.engine_force("colli"), default_rulebook())
    reasons = [m.reason for m in check.modifiers]
    assert "in friendly territory" in reasons and "in enemy territory" not in reasons


def test_ru_19_an_allys_territory_gives_the_friendly_movement_modifier() -> None:
    state = _state()
    force = state.engine_force("colli")
    terms = orders.move_terms(state, force, "B3", default_rulebook())
    check = orders.move_check(state, force, terms, default_rulebook())
    reasons = [m.reason for m in check.modifiers]
    assert "starts in friendly territory" in reasons and "starts in enemy territory" not in reasons

