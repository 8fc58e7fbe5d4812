"""Defeat and the campaign's end (MC-9, RU-25), through the core's own functions as the services call
them: a side in total defeat leaves at once, a side with nothing left is defeated without a test, the
campaign ends when no two hostile camps are left in play (or at the scenario's last turn), and an ended
campaign takes no game command but stays readable."""

from __future__ import annotations

import hashlib
from dataclasses import replace

import pytest

from bot.campaign import ending, lifecycle, orders, views
from bot.campaign.authority import awaited
from bot.campaign.dice import Context
from bot.campaign.errors import PermissionDenied, WrongPhase
from bot.campaign.events import Journal
from bot.campaign.new import from_scenario
from bot.campaign.sight import Reader
from bot.campaign.state import CampaignState, CampaignStatus, ForceStatus
from bot.campaign.turn import resolve
from bot.engine.errors import EngineError
from bot.engine.model import Order
from bot.engine.phases import Phase
from bot.engine.tables import default_rulebook
from bot.scenario import parse_scenario_text

GM, FRENCH, AUSTRIAN, PIEDMONTESE = 1, 2001, 3001, 4001
CTX = Context(lambda: hashlib.sha256(b"the end").digest(), default_rulebook())

ALLIED = """
name: Three sides
start_date: 1796-04-10
{last}
map: {{width: 8, height: 6, territories: {{au: ['A1:C6'], pi: ['D1:E6'], fr: ['F1:H6']}}}}
sides: [{{key: fr, name: France}}, {{key: au, name: Austria}}, {{key: pi, name: Piedmont}}]
alliances: [[au, pi]]
forces:
  - {{key: beaulieu, name: Beaulieu, side: au, square: B2, leader: {{name: Beaulieu, cv: 2}}, units: [{{key: u1, name: Argenteau, sp: 6}}]}}
  - {{key: colli, name: Colli, side: pi, square: D4, leader: {{name: Colli, cv: 2}}, units: [{{key: u2, name: Provera, sp: 6}}]}}
  - {{key: massena, name: Massena, side: fr, square: G5, leader: {{name: Massena, cv: 2}}, units: [{{key: u3, name: Laharpe, sp: 6}}]}}
reinforcements:
  - turn: 3
    force: {{key: sebottendorf, name: Sebottendorf, side: au, square: A1, leader: {{name: Sebottendorf, cv: 1}}, units: [{{key: u4, name: Vukassovich, sp: 4}}]}}
  - turn: 3
    force: {{key: serurier, name: Serurier, side: fr, square: H1, leader: {{name: Serurier, cv: 2}}, units: [{{key: u5, name: Fiorella, sp: 5}}]}}
"""


def allied(last_turn: int | None = None) -> CampaignState:
    """France against Austria and Piedmont (one camp, RU-19), each side played, in Phase 4 of turn 1."""
    spec = parse_scenario_text(ALLIED.format(last=f"last_turn: {last_turn}" if last_turn else ""))
    state = from_scenario(spec, campaign_id=1, name="Three", gm_id=GM)
    return state.evolve(players={FRENCH: "fr", AUSTRIAN: "au", PIEDMONTESE: "pi"}, phase=Phase.AFTERMATH)


def doomed(state: CampaignState, side: str) -> CampaignState:
    """``side`` must test its Will to Fight this turn with seven battles lost: 1D6 - 7 is below zero
    whatever the die (MC-9), so the test is total defeat."""
    return state.with_side(side, must_test="it lost a battle this turn (MC-9)", battles_lost=7)


def test_mc_9_ru_25_a_side_in_total_defeat_leaves_at_once_and_its_ally_fights_on() -> None:
    journal = Journal()
    done = resolve(doomed(allied(), "pi"), journal, CTX)
    state = done.state
    assert state.sides["pi"].defeated
    assert state.forces["colli"].status is ForceStatus.REMOVED  # its Forces leave the map
    assert state.status is CampaignStatus.ACTIVE  # Austria fights on: two hostile camps are still in play
    assert (done.after.turn, done.after.phase) == (2, Phase.ORDERS)
    assert not awaited(state, "pi")
    said = [str(e.text) for e in journal.events]
    assert any("Piedmont is in total defeat and leaves the campaign (RU-25)" in t for t in said)


def test_ru_25_a_defeated_side_gives_no_more_orders_but_its_members_still_read() -> None:
    state = resolve(doomed(allied(), "pi"), Journal(), CTX).state
    assert state.phase is Phase.ORDERS
    with pytest.raises(PermissionDenied, match="RU-25"):
        orders.give_order(state, PIEDMONTESE, "colli", Order.DEFEND, Journal(), CTX)
    with pytest.raises(PermissionDenied, match="RU-25"):
        orders.mark_done(state, PIEDMONTESE)
    status = views.status(state, Reader(side="pi"), rules=default_rulebook())
    assert status.position.turn == 2  # still readable
    with pytest.raises(EngineError, match="RU-25"):
        lifecycle.join_side(state, _Member(5001), "Newcomer", "pi", Journal())


def test_ru_25_a_defeated_sides_reinforcements_never_arrive() -> None:
    state = allied()
    state = resolve(doomed(state, "au"), Journal(), CTX).state
    assert state.forces["sebottendorf"].status is ForceStatus.REMOVED  # cancelled, not pending
    for _ in range(2):  # through turn 3's reinforcements
        state = resolve(state, Journal(), CTX, forced=True).state
        state = resolve(state, Journal(), CTX, forced=True).state
        state = resolve(state, Journal(), CTX, forced=True).state
    assert state.turn >= 3 and state.forces["serurier"].status is ForceStatus.ACTIVE
    assert state.forces["sebottendorf"].status is ForceStatus.REMOVED


def test_ru_25_the_campaign_ends_when_the_last_enemy_camp_falls_and_names_the_winning_camp() -> None:
    journal = Journal()
    done = resolve(doomed(allied(), "fr"), journal, CTX)
    state = done.state
    assert state.status is CampaignStatus.ENDED
    assert done.turn_ended and state.seed(1) is not None and state.seed(1).revealed  # its dice can be checked
    assert done.after == done.before.__class__(1, Phase.WILL_TO_FIGHT)  # it ends where it ended
    result = ending.result(state)
    assert result is not None and result.reason is ending.EndReason.VICTORY
    assert result.camp == state.camps.camp_of("au") and result.sides == ("au", "pi")
    said = [str(e.text) for e in journal.events]
    assert "The campaign is over: Austria, Piedmont won (RU-25)." in said


def test_ru_25_an_ended_campaign_takes_no_game_command_but_stays_readable() -> None:
    state = resolve(doomed(allied(), "fr"), Journal(), CTX).state
    with pytest.raises(WrongPhase):
        resolve(state, Journal(), CTX, forced=True)
    with pytest.raises(WrongPhase):
        orders.give_order(state, AUSTRIAN, "beaulieu", Order.DEFEND, Journal(), CTX)
    with pytest.raises(WrongPhase):
        orders.mark_done(state, AUSTRIAN)
    for reader in (Reader(side="fr"), Reader(side="au"), Reader(), Reader(gm=True)):
        assert views.status(state, reader, rules=default_rulebook()).position.turn == 1


def test_ru_25_a_side_with_no_force_on_the_map_and_none_to_come_is_defeated_without_a_test() -> None:
    state = allied()
    state = state.with_force("colli", status=ForceStatus.REMOVED)  # Piedmont's only Force surrendered (RU-8)
    journal = Journal()
    state = resolve(state, journal, CTX).state
    assert state.sides["pi"].defeated
    rolls = [e for e in journal.events if e.roll is not None and "side:pi" in (e.roll.key or "")]
    assert not rolls  # no Will-to-Fight test: nothing left to test
    assert any("Piedmont has no Force left on the map and none to come" in str(e.text) for e in journal.events)


def test_ru_25_a_side_waiting_for_a_reinforcement_is_not_defeated() -> None:
    state = allied().with_force("beaulieu", status=ForceStatus.REMOVED)  # Austria's Sebottendorf still to come
    state = resolve(state, Journal(), CTX).state
    assert not state.sides["au"].defeated


def test_ru_25_the_scenarios_last_turn_ends_the_campaign_in_a_draw() -> None:
    journal = Journal()
    done = resolve(allied(last_turn=1), journal, CTX)
    state = done.state
    assert state.status is CampaignStatus.ENDED and state.turn == 1
    result = ending.result(state)
    assert result is not None and result.reason is ending.EndReason.LAST_TURN and result.camp is None
    assert any("turn 1 was its last, and it ends in a draw" in str(e.text) for e in journal.events)


def test_ru_25_before_the_last_turn_the_campaign_goes_on() -> None:
    done = resolve(allied(last_turn=2), Journal(), CTX)
    assert done.state.status is CampaignStatus.ACTIVE and (done.after.turn, done.after.phase) == (2, Phase.ORDERS)


class _Member:
    def __init__(self, member_id: int) -> None:
        self.member_id = member_id
        self.roles: frozenset[int] = frozenset()


def test_mc_9_a_side_whose_test_passes_stays_in_play() -> None:
    state = allied().with_side("pi", must_test="it lost a battle this turn (MC-9)", battles_won=7)
    state = resolve(state, Journal(), CTX).state
    assert not state.sides["pi"].defeated and state.forces["colli"].status is ForceStatus.ACTIVE
    assert replace(state.sides["pi"]).must_test == ""


def test_mc_9_a_force_left_with_no_strength_is_destroyed_and_its_side_with_nothing_left_is_out() -> None:
    state = allied()
    colli = state.forces["colli"]
    state = state.with_forces([replace(colli, units=tuple(replace(u, sp=0) for u in colli.units))])
    journal = Journal()
    state = resolve(state, journal, CTX).state
    assert state.forces["colli"].status is ForceStatus.REMOVED
    assert state.sides["pi"].defeated  # RU-25: Piedmont had nothing else, on the map or to come
    assert any("Colli (Piedmont) has no strength left and is destroyed (MC-9)." in str(e.text) for e in journal.events)
