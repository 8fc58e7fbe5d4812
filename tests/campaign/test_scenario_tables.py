"""A campaign plays by its scenario's own weather, calendar and random-events tables (issue 21, item 6;
RU-10, MC-10): the turn's phases roll them, the odds and the views read them, a saved campaign writes them
back; a campaign without them plays the house rules. Pure: the core from a parsed scenario."""

from __future__ import annotations

import datetime as dt
import hashlib
from typing import Any

from bot.campaign import orders, views
from bot.campaign.dice import Context
from bot.campaign.events import EventKind, Journal
from bot.campaign.new import from_scenario
from bot.campaign.rulebook import rules_for
from bot.campaign.save import as_scenario, scenario_yaml
from bot.campaign.sight import Reader
from bot.campaign.state import CampaignState
from bot.campaign.turn import resolve
from bot.engine.model import Season
from bot.engine.phases import Phase
from bot.engine.tables import default_rulebook
from bot.engine.verify import FORMAT as ROLL_LOG
from bot.engine.verify import OWN_TABLES, verify_log
from bot.scenario import parse_scenario, parse_scenario_text
from tests.scenario.conftest import force, minimal
from tests.scenario.test_house_tables import winter_war

RULES = default_rulebook()
SEED = hashlib.sha256(b"winter").digest()
CTX = Context(lambda: SEED, RULES)
START = dt.date(1812, 11, 7)


def scenario(**tables: Any) -> dict[str, Any]:
    data = minimal() | {"start_date": START.isoformat()} | tables
    data["forces"] = [force("soult", "fr", "A2"), force("mack", "au", "C1")]
    return data


def winter() -> dict[str, Any]:
    """Every face of the scenario's (temperate) row is a blizzard, in every season."""
    tables = winter_war()
    tables["weather"]["table"]["temperate"] = {s.value: ["blizzard"] * 6 for s in Season}
    return tables


def started(data: dict[str, Any]) -> CampaignState:
    return from_scenario(parse_scenario(data), campaign_id=1, name="Moscow", gm_id=1)


def rolls(journal: Journal, name: str) -> list[dict[str, Any]]:
    return [e.data for e in journal.events if e.kind is EventKind.ROLL and e.data and name in e.data["name"]]


def test_the_turn_rolls_the_scenarios_weather_and_events_and_keeps_its_calendar() -> None:
    state = started(scenario(**winter()))
    journal = Journal()
    state = resolve(state, journal, CTX, forced=True).state  # Phase 0: the weather
    assert state.weather == "blizzard"  # the scenario's own kind, off the scenario's row
    [weather] = rolls(journal, "Weather")
    assert {b["result"] for b in weather["table"]["bands"]} == {"blizzard"}
    assert weather["subject"] == "temperate, winter"  # November is winter in the scenario's calendar
    while state.turn == 1:
        state = resolve(state, journal, CTX, forced=True).state
    [event] = [r for r in rolls(journal, "Random event")][:1]
    assert len(event["dice"]) == 1 and event["result"] in ("cossacks", "quiet")  # 1D6, the scenario's bands
    assert any("the calendar advances to 1812-11-21" in str(e.text) for e in journal.events)  # 14 days a turn
    status = views.status(state, Reader(side="fr"), rules=RULES)
    assert (status.date, status.season) == (dt.date(1812, 11, 21), "winter")
    log = roll_log(state, journal)
    report = verify_log(log)
    assert report.ok and report.recomputed == len(log["rolls"]) >= 3  # the scenario's tables verify


def roll_log(state: CampaignState, journal: Journal) -> dict[str, Any]:
    """Turn 1's rolls as ``python -m bot verify`` and the HTML verifier read them (docs/dice.md)."""
    seed = state.seeds[1]
    ended = [r for r in rolls(journal, "") if r["key"].startswith("t1/")]
    return {"format": ROLL_LOG, "version": 2, "current_turn": 2,
            "turns": [{"turn": 1, "seed_sha256": seed.sha256, "seed": seed.seed_hex, "chain_head": seed.chain_head}],
            "rolls": [{**r, "turn": 1, "undone": False} for r in ended],
            "tables": {k: v for k, v in state.tables.to_data().items() if k in OWN_TABLES}}


def winter_log() -> dict[str, Any]:
    """The roll log of a campaign's first turn played by the scenario's own weather and events tables."""
    state, journal = started(scenario(**winter())), Journal()
    while state.turn == 1:
        state = resolve(state, journal, CTX, forced=True).state
    return roll_log(state, journal)


def test_the_odds_of_a_move_count_the_scenarios_weather() -> None:
    state = started(scenario(**winter()))
    state = resolve(state, Journal(), CTX, forced=True).state
    state = state.evolve(phase=Phase.MOVEMENT, players={7: "fr"})
    odds = orders.move_odds(state, 7, "soult", "A3", RULES)
    assert [(m.value, str(m.reason)) for m in odds.modifiers if m.rule == "MC-10"] == [(-3, "weather: Blizzard")]


def test_a_campaign_without_tables_plays_the_house_rules() -> None:
    state = started(scenario())
    assert rules_for(state, RULES) is RULES
    state = resolve(state, Journal(), CTX, forced=True).state
    assert state.weather in RULES.weather.kinds
    assert views.status(state, Reader(), rules=RULES).season == "autumn"  # November, by the house calendar


def test_a_saved_campaign_keeps_its_tables() -> None:
    state = started(scenario(**winter()))
    data = as_scenario(state)
    assert data["calendar"]["turn_days"] == 14 and "blizzard" in data["weather"]["kinds"]
    again = parse_scenario_text(scenario_yaml(state))
    assert again.tables == state.tables
