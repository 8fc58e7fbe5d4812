"""The turn flows by itself (issue "The turn flows by itself"): a side nobody plays is not awaited
(MC-3, setting ``unmanned_sides``), and a phase with nothing to wait for resolves on its own."""

from __future__ import annotations

import hashlib
from dataclasses import replace

from bot.campaign import aftermath, orders
from bot.campaign.dice import Context
from bot.campaign.events import Journal
from bot.campaign.new import from_scenario
from bot.campaign.state import Battle, BattleStatus, CampaignState, Scouting
from bot.campaign.turn import phase_facts, resolve
from bot.engine.phases import Phase, pending
from bot.engine.tables import default_rulebook
from bot.scenario import load_bundled

GM_ID, FRENCH = 1, 2001
CTX = Context(lambda: hashlib.sha256(b"flow").digest(), default_rulebook())


def tutorial(**options: object) -> CampaignState:
    """The tutorial with France played and Austria played by nobody, in Phase 1 of turn 1."""
    state = from_scenario(load_bundled("tutorial"), campaign_id=1, name="Ulm", gm_id=GM_ID, options=dict(options))
    return state.evolve(players={FRENCH: "fr"}, phase=Phase.ORDERS)


def test_a_side_nobody_plays_is_not_awaited_and_the_one_player_ends_the_phase() -> None:
    state = tutorial()
    assert [p.who for p in pending(Phase.ORDERS, phase_facts(state))] == ["fr"]
    state, everyone = orders.mark_done(state, FRENCH)
    assert everyone  # Austria holds its orders: nobody plays it (MC-3)


def test_with_unmanned_sides_wait_every_side_is_awaited() -> None:
    state = tutorial(unmanned_sides="wait")
    assert [p.who for p in pending(Phase.ORDERS, phase_facts(state))] == ["fr", "au"]
    assert not orders.mark_done(state, FRENCH)[1]


def test_a_defeated_side_is_never_awaited_whatever_the_setting() -> None:
    state = tutorial(unmanned_sides="wait")
    state = state.with_sides([replace(state.sides["au"], defeated=True)])
    assert [p.who for p in pending(Phase.ORDERS, phase_facts(state))] == ["fr"]


def reported(state: CampaignState) -> CampaignState:
    """Soult and Mack fought at J5; France lost: the report is in, Phase 4 is next."""
    state = state.with_force("soult", square="J5").with_force("mack", square="J5").evolve(phase=Phase.BATTLE)
    state = state.with_battle(Battle(1, state.turn, "J5", ("mack", "soult"), ("au", "fr")))
    state, _ = aftermath.report(state, 1, {"system": "miniatures", "sides": [
        {"side": "fr", "outcome": "lost"}, {"side": "au", "outcome": "won"}]}, Journal())
    return state


def test_phase_4_waits_only_for_the_played_side_and_the_bot_rolls_the_other() -> None:
    state = reported(tutorial())
    state = resolve(state, Journal(), CTX).state
    assert state.phase is Phase.AFTERMATH
    assert {p.who for p in pending(Phase.AFTERMATH, phase_facts(state))} == {"fr"}  # France's checks and retreat
    state, _ = aftermath.roll_side(state, 1, "fr", Journal(), CTX)
    state, _ = aftermath.retreat(state, 1, state.forces["soult"], "J6", Journal())
    assert not pending(Phase.AFTERMATH, phase_facts(state))
    done = resolve(state, Journal(), CTX)  # nothing is pending: no force needed
    assert done.state.battles[1].status is BattleStatus.DONE
    assert done.state.battles[1].aftermath.rolled == {"au": True, "fr": True}  # the bot rolled Austria's


def test_once_nothing_is_pending_the_turn_flows_on_to_the_next_turns_orders() -> None:
    """Phase 4 with every check of the played side rolled resolves without force, then the bot's phases,
    then the next turn's weather (Phase 0 no longer waits for the GM): it stops at Phase 1 of turn 2."""
    state = resolve(reported(tutorial()), Journal(), CTX).state
    state, _ = aftermath.roll_side(state, 1, "fr", Journal(), CTX)
    state, _ = aftermath.retreat(state, 1, state.forces["soult"], "J6", Journal())
    done = resolve(state, Journal(), CTX)
    assert (done.after.turn, done.after.phase) == (2, Phase.ORDERS)
    assert done.turn_ended and done.state.weather is not None  # turn 2's weather was rolled on the way


def test_phase_3_shows_each_camp_it_may_scout_and_report_until_the_battle_is_reported() -> None:
    """Scouting (MC-6.1) and a camp's own report (BR) are shown as awaited beside the GM's report; none of
    them outlives the report."""
    state = tutorial()
    state = state.with_force("soult", square="J5").evolve(phase=Phase.BATTLE)
    state = state.with_battle(Battle(1, state.turn, "J5", ("mack", "soult"), ("au", "fr")))
    waits = {(p.who, str(p.what)) for p in pending(Phase.BATTLE, phase_facts(state))}
    assert waits == {("gm", "report battle 1"),
                     ("fr", "scout battle 1 (MC-6.1), then report its camp's result (BR)")}  # nobody plays Austria
    state = state.with_battle(replace(state.battles[1], scouting=Scouting({"fr": 4})))
    assert ("fr", "report its camp's result of battle 1 (BR)") in {
        (p.who, str(p.what)) for p in pending(Phase.BATTLE, phase_facts(state))}
    state, _ = aftermath.report(state, 1, {"system": "miniatures", "sides": [
        {"side": "fr", "outcome": "won"}, {"side": "au", "outcome": "lost"}]}, Journal())
    assert not pending(Phase.BATTLE, phase_facts(state))
