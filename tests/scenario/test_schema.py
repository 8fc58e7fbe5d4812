"""The JSON Schema of the scenario format (docs/scenario.schema.json), checked with the `jsonschema`
package when it is installed (the tests skip without it): the schema is valid draft 2020-12, accepts
every bundled scenario and the worked example, and rejects broken ones."""

from __future__ import annotations

from typing import Any

import pytest
import yaml

from bot.engine.errors import InvalidInput
from bot.scenario import bundled_scenarios, parse_scenario

from .conftest import force, minimal, plain, worked_examples

jsonschema = pytest.importorskip("jsonschema")


@pytest.fixture(scope="module")
def validator(schema: dict[str, Any]) -> Any:
    cls = jsonschema.Draft202012Validator
    cls.check_schema(schema)
    return cls(schema, format_checker=cls.FORMAT_CHECKER)


def errors(validator: Any, data: Any) -> list[str]:
    return sorted(e.message for e in validator.iter_errors(plain(data)))


def test_the_schema_is_draft_2020_12(schema: dict[str, Any]) -> None:
    assert schema["$schema"] == "https://json-schema.org/draft/2020-12/schema"
    jsonschema.Draft202012Validator.check_schema(schema)


@pytest.mark.parametrize("key", sorted(bundled_scenarios()))
def test_every_bundled_scenario_is_valid(validator: Any, key: str) -> None:
    data = yaml.safe_load(bundled_scenarios()[key].read_text(encoding="utf-8"))
    assert errors(validator, data) == []


def test_a_scenario_with_boats_and_its_own_tables_is_valid(validator: Any) -> None:
    from .test_house_tables import winter_war

    data = minimal() | winter_war()
    data["forces"][0] |= {"small_boats": True, "horse_rafts": False}
    assert errors(validator, data) == []
    parse_scenario(data)


def test_the_worked_example_and_the_test_scenario_are_valid(validator: Any) -> None:
    for text in worked_examples():
        assert errors(validator, yaml.safe_load(text)) == []
    assert errors(validator, minimal()) == []


BROKEN: dict[str, tuple[tuple[str | int, ...], Any]] = {
    # problem: (where in the minimal scenario, the broken value)
    "unknown field": (("author",), "me"),
    "one side": (("sides",), [{"key": "fr", "name": "France"}]),
    "bad colour": (("sides", 0, "colour"), "blue"),
    "bad date": (("start_date",), "7 October 1805"),
    "bad terrain": (("map", "terrain"), {"tundra": ["A1"]}),
    "bad flow": (("map", "rivers"), [{"squares": ["B1"], "flow": "down"}]),
    "bad key": (("forces", 0, "key"), "Soult"),
    "bad square": (("forces", 0, "square"), "4A"),
    "no units": (("forces", 0, "units"), []),
    "negative sp": (("forces", 0, "units", 0, "sp"), -1),
    "sp not whole": (("forces", 0, "units", 0, "sp"), 2.5),
    "turn 1": (("reinforcements",), [{"turn": 1, "force": force("ney", "fr", "B1")}]),
    # the limits and malformed input of the security issue (items 2 and 6)
    "map too wide": (("map", "width"), 101),
    "too many units": (("forces", 0, "units"), [{"key": f"u{i}", "name": "U", "sp": 1} for i in range(51)]),
    "NUL in a name": (("sides", 0, "name"), "Fr\x00ance"),
    "escape in a nation": (("sides", 0, "nation"), "Fr\x1bance"),
    "start in 9999": (("start_date",), "9999-12-31"),
    "start before 1600": (("start_date",), "1599-12-31"),
    "superscript row": (("forces", 0, "square"), "A\u00b2"),
    "fullwidth row": (("forces", 0, "square"), "A\uff11"),
    "row of 5,000 digits": (("forces", 0, "square"), "A" + "1" * 5000),
    # issue 21, item 6: a Force's boats, the scenario's own tables
    "boats not a boolean": (("forces", 0, "small_boats"), "yes"),
    "unknown field of a Force": (("forces", 0, "boats"), True),
    "turn of 400 days": (("calendar",), {"turn_days": 400, "seasons": {"winter": [12, 1, 2], "spring": [3, 4, 5],
                                                                      "summer": [6, 7, 8], "autumn": [9, 10, 11]}}),
    "weather of another rule": (("weather",), {"rule": "MC-5.3", "kinds": {}, "table": {}}),
    "events on four dice": (("events",), {"dice": 4, "bands": [{"result": "quiet", "label": "Quiet"}]}),
}


def broken(change: str) -> dict[str, Any]:
    data = minimal()
    path, value = BROKEN[change]
    node: Any = data
    for part in path[:-1]:
        node = node[part]
    node[path[-1]] = value
    return data


@pytest.mark.parametrize("change", BROKEN)
def test_the_schema_rejects_what_the_parser_rejects(validator: Any, change: str) -> None:
    data = broken(change)
    assert errors(validator, data), change
    with pytest.raises(InvalidInput):
        parse_scenario(data)


def test_the_schema_and_the_parser_refuse_unknown_options_and_fields(validator: Any) -> None:
    data = minimal()
    data["options"] = {"fog_of_war": True}
    data["map"]["rivers"] = [{"squares": ["B1"], "flows": "S"}]  # a typo for flow
    assert errors(validator, data) == [
        "Additional properties are not allowed ('flows' was unexpected)",
        "Additional properties are not allowed ('fog_of_war' was unexpected)",
    ]
    with pytest.raises(InvalidInput, match=r"map\.rivers\[0\]: unknown field\(s\) flows; allowed: flow, squares"):
        parse_scenario(data)  # issue 21: a typo no longer changes nothing, silently
    del data["map"]["rivers"]
    with pytest.raises(InvalidInput, match=r"Scenario field options: unknown field\(s\) fog_of_war; allowed: adjacency"):
        parse_scenario(data)
