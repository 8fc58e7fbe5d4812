"""Settings govern what follows (RU-22): a module the GM turns off takes its effects with it from the next
roll on. A Storm rolled in turn 1 (RU-10) no longer slows moves, turns the sea wind or heads the battle
brief once weather is off; a random event's movement modifier goes with random events."""

from __future__ import annotations

from bot.campaign import lifecycle, orders, views
from bot.campaign.events import Journal
from bot.campaign.new import from_scenario
from bot.campaign.sight import Reader
from bot.campaign.state import Battle, CampaignState
from bot.engine.phases import Phase
from bot.engine.tables import default_rulebook
from bot.scenario import load_bundled

RULES = default_rulebook()


class _GM:
    member_id = 1
    roles: frozenset[int] = frozenset()


def stormy() -> CampaignState:
    """The tutorial in Phase 2 after a Storm (movement -2, contrary wind) and a random event that slows France."""
    state = from_scenario(load_bundled("tutorial"), campaign_id=1, name="Ulm", gm_id=1)
    state = state.evolve(phase=Phase.MOVEMENT, weather="storm", players={2001: "fr"})
    return state.with_side("fr", movement_modifier=-1)


def modifiers(state: CampaignState) -> dict[str, int]:
    force = state.engine_force("soult")
    terms = orders.move_terms(state, force, "C5", RULES)
    return {str(m.reason): m.value for m in orders.move_check(state, force, terms, RULES).modifiers}


def test_ru_10_a_storm_and_an_event_slow_a_move_while_their_settings_are_on() -> None:
    mods = modifiers(stormy())
    assert -2 in mods.values() and mods.get("random event (house rule)") == -1


def test_ru_22_turning_weather_off_clears_the_storm_from_the_next_roll_on() -> None:
    state, _ = lifecycle.change_setting(stormy(), _GM(), "weather", "false", Journal(), RULES)
    mods = modifiers(state)
    assert not any("weather" in reason.lower() or "storm" in reason.lower() for reason in mods)
    assert state.weather is None
    assert views.status(state, Reader(side="fr"), rules=RULES).weather is None


def test_ru_22_turning_random_events_off_clears_their_movement_modifier() -> None:
    state, _ = lifecycle.change_setting(stormy(), _GM(), "random_events", "false", Journal(), RULES)
    assert "random event (house rule)" not in modifiers(state)


def test_ru_22_a_running_campaign_with_the_setting_already_off_follows_it_at_its_next_roll() -> None:
    """A campaign stored with weather off but its last Storm kept (the old reading) rolls without it."""
    state = stormy()
    state = state.evolve(settings=state.settings.__class__(**{**{f: getattr(state.settings, f)
                                                                  for f in state.settings.__slots__},
                                                               "weather": False, "random_events": False}))
    mods = modifiers(state)
    assert -2 not in mods.values() and "random event (house rule)" not in mods


def test_ru_22_the_battle_brief_names_no_weather_once_it_is_off() -> None:
    state, _ = lifecycle.change_setting(stormy(), _GM(), "weather", "false", Journal(), RULES)
    state = state.with_force("soult", square="J5").with_force("mack", square="J5").evolve(phase=Phase.BATTLE)
    state = state.with_battle(Battle(1, state.turn, "J5", ("mack", "soult"), ("au", "fr")))
    brief = views.brief(state, state.battles[1], rules=RULES)
    assert "Storm" not in str(brief.weather)
