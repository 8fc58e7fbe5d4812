"""The scenario format's documentation (docs/scenario-format.md) and JSON Schema stay in step with the
parser and the rules: every top-level field and campaign option is documented, the schema's words are
the engine's words, and the worked example is a scenario the parser accepts."""

from __future__ import annotations

from typing import Any

import pytest

from bot.engine.errors import InvalidInput
from bot.engine.grid import COMPASS
from bot.engine.model import Climate, Order, Quality, Terrain, UnitType
from bot.engine.tables import default_rulebook
from bot.scenario import DEFAULT_LEGEND, parse_scenario, parse_scenario_text

from .conftest import doc, worked_examples


def top_level_fields() -> list[str]:
    with pytest.raises(InvalidInput) as exc:
        parse_scenario({"zzz": 1})
    return str(exc.value).split("allowed: ", 1)[1].split(", ")


def test_the_worked_example_parses() -> None:
    examples = worked_examples()
    assert examples
    for text in examples:
        s = parse_scenario_text(text, key="example")
        assert s.forces and any(f.arrives_turn for f in s.forces)


def test_every_top_level_field_is_documented() -> None:
    fields = top_level_fields()
    assert "forces" in fields and "options" in fields
    for name in fields:
        assert f"| `{name}` |" in doc(), name


def test_every_campaign_option_is_documented_and_in_the_schema(schema: dict[str, Any]) -> None:
    options = default_rulebook().mc.options
    props = schema["$defs"]["options"]["properties"]
    assert set(props) == set(options)
    for name, spec in options.items():
        assert f"| `{name}` |" in doc(), name
        assert props[name]["default"] == spec.default, name
        allowed = props[name].get("enum") or ([True, False] if props[name].get("type") == "boolean" else [])
        assert sorted(map(str, allowed)) == sorted(map(str, spec.choices)), name


def test_schema_words_are_the_engine_words(schema: dict[str, Any]) -> None:
    defs = schema["$defs"]
    assert defs["terrain"]["enum"] == [t.value for t in Terrain]
    assert defs["direction"]["enum"] == list(COMPASS)
    assert schema["properties"]["climate"]["enum"] == [c.value for c in Climate]
    assert defs["force"]["properties"]["order"]["enum"] == [o.value for o in Order]
    assert defs["unit"]["properties"]["quality"]["enum"] == [q.value for q in Quality]
    assert defs["unit"]["properties"]["type"]["enum"] == [u.value for u in UnitType]


def test_the_default_legend_is_documented() -> None:
    for ch, terrain in DEFAULT_LEGEND.items():
        assert f"| `{ch}` | {terrain}" in doc(), (ch, terrain)
