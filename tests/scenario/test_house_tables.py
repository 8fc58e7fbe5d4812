"""A scenario's own weather, calendar and random-events tables (issue 21, item 6; RU-10, MC-10): optional
sections of the shape of rules/weather.yaml, rules/calendar.yaml and rules/events.yaml, read by the same
readers (bot/engine/tables.py), each refusal naming the scenario's field."""

from __future__ import annotations

import copy
from pathlib import Path
from typing import Any

import pytest
import yaml

from bot.engine.model import Climate, Season
from bot.engine.tables import NO_TABLES, default_rulebook, read_scenario_tables
from bot.scenario import parse_scenario, parse_scenario_text

from .conftest import minimal, refused

RULES = Path(__file__).resolve().parents[2] / "rules"


def winter_war() -> dict[str, Any]:
    """Weather: a Russian winter for the scenario's climate (temperate) in every season; a calendar of
    fortnights with a long winter; events on one die."""
    weather = yaml.safe_load((RULES / "weather.yaml").read_text(encoding="utf-8"))
    weather["kinds"]["blizzard"] = {"label": "Blizzard", "movement": -3, "wind": "contrary"}
    weather["table"]["temperate"] = {s.value: ["blizzard", "blizzard", "snow", "snow", "fog", "overcast"]
                                     for s in Season}
    return {
        "weather": weather,
        "calendar": {"turn_days": 14, "seasons": {"winter": [11, 12, 1, 2, 3], "spring": [4, 5],
                                                  "summer": [6, 7, 8], "autumn": [9, 10]}},
        "events": {"dice": 1, "bands": [
            {"max": 2, "result": "cossacks", "label": "Cossacks harry the columns", "effect": {"sp_loss": 1}},
            {"min": 3, "result": "quiet", "label": "A quiet fortnight", "effect": {}},
        ]},
    }


def test_a_scenario_without_tables_plays_the_house_rules() -> None:
    assert parse_scenario(minimal()).tables is NO_TABLES


def test_a_scenario_carries_its_own_weather_calendar_and_events() -> None:
    spec = parse_scenario(minimal() | winter_war())
    t = spec.tables
    assert t.weather is not None and t.calendar is not None and t.events is not None
    assert t.weather.table[(Climate.TEMPERATE, Season.SUMMER)][:2] == ("blizzard", "blizzard")
    assert t.weather.kinds["blizzard"].movement == -3
    assert (t.weather.rule, t.weather.name) == ("RU-10", default_rulebook().weather.name)  # left out: the house's
    assert t.calendar.turn_days == 14 and t.calendar.season_of_month[11] is Season.WINTER
    assert (t.events.dice, t.events.effects["cossacks"]) == (1, {"sp_loss": 1})
    rules = t.apply(default_rulebook())
    assert rules.weather is t.weather and rules.calendar is t.calendar and rules.events is t.events
    assert rules.mc is default_rulebook().mc  # the rest of the rules are the engine's
    assert read_scenario_tables(t.to_data(), default_rulebook()) == t  # what a campaign keeps reads back the same


def test_one_table_replaces_only_its_own() -> None:
    only = parse_scenario(minimal() | {"calendar": winter_war()["calendar"]}).tables
    assert only.weather is None and only.events is None
    rules = only.apply(default_rulebook())
    assert rules.weather is default_rulebook().weather and rules.calendar.turn_days == 14


@pytest.mark.parametrize("name", ["weather", "calendar", "events"])
def test_the_house_rules_file_itself_is_a_valid_section(name: str) -> None:
    """The same shape: a GM may copy rules/<name>.yaml into the scenario and edit it."""
    text = yaml.safe_dump(minimal()) + f"{name}:\n" + "".join(
        f"  {line}\n" for line in (RULES / f"{name}.yaml").read_text(encoding="utf-8").splitlines())
    tables = parse_scenario_text(text).tables
    assert getattr(tables, name) == getattr(default_rulebook(), name)


def broken(path: str, value: Any) -> dict[str, Any]:
    data = minimal() | copy.deepcopy(winter_war())
    node = data
    parts = [int(p) if p.isdigit() else p for p in path.split(".")]
    for part in parts[:-1]:
        node = node[part]
    if value is DELETE:
        del node[parts[-1]]
    else:
        node[parts[-1]] = value
    return data


DELETE = object()


@pytest.mark.parametrize(("path", "value", "message"), [
    ("weather.kinds.blizzard.wind", "gale",
     "weather.kinds.blizzard.wind: unknown wind 'gale'; allowed: favourable, contrary, calm, none"),
    ("weather.kinds.blizzard.movement", -9, "weather.kinds.blizzard.movement: -9 is out of range -5..5"),
    ("weather.kinds.blizzard.colour", "white",
     "weather.kinds.blizzard: unknown colour; allowed: label, movement, wind"),
    ("weather.kinds.Big Storm", {"label": "Storm", "movement": 0, "wind": "none"},
     "weather.kinds.Big Storm: 'Big Storm' is not a weather's name: lowercase letters, digits, '-' and '_', at most 20"),
    ("weather.table.temperate.summer.2", "hail",
     "weather.table.temperate.summer[2]: unknown weather 'hail'; defined: fair, overcast, calm, rain, heat, storm, "
     "snow, fog, blizzard"),
    ("weather.table.temperate.summer", ["snow"], "weather.table.temperate.summer: give the weather for each face 1 "
                                                 "to 6: 1 given"),
    ("weather.table.arid", DELETE, "weather.table: missing arid"),
    ("weather.rule", "MC-5.3", "weather.rule: this table implements RU-10, not 'MC-5.3'"),
    ("weather.author", "me", "weather: unknown author; allowed: kinds, name, rule, table, version"),
    ("calendar.turn_days", 400, "calendar.turn_days: 400 is out of range 1..92"),
    ("calendar.seasons.spring", [4], "calendar.seasons: months without a season: 5"),
    ("calendar.seasons.summer", [6, 7, 8, 1], "calendar.seasons.summer[3]: month 1 is already in winter"),
    ("calendar", "weekly", "calendar: expected a mapping, got str"),
    ("events.dice", 4, "events.dice: 4 is out of range 1..3"),
    ("events.bands.1.effect", {"morale": 1},
     "events.bands[1].effect: unknown effect 'morale'; allowed: movement, sp_loss, scouts, supply"),
    ("events.bands.1.min", 4, "events.bands[1]: starts at 4 but the row before ends at 2: rows must touch"),
    ("events.bands.0.label", "x" * 300, "events.bands[0].label: at most 200 characters, got 300"),
])
def test_a_broken_table_is_refused_naming_the_scenarios_field(path: str, value: Any, message: str) -> None:
    assert refused(broken(path, value)) == f"Scenario field {message}"
