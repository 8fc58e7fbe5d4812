"""Hostile scenarios (security issue, items 2 and 6): a few KB must not buy seconds of CPU or
gigabytes of memory, and malformed values must be refused with the field named, never crash.

Against the classes of attack: ranges that expand past any sensible total, lists longer than the
limits (refused before their items are read), nesting deeper than the limit in any syntax, control
characters and lone surrogates in any text, numbers and dates Python cannot read, and start dates
that would overflow the calendar."""

from __future__ import annotations

import copy
import datetime as dt
import json
import time
from typing import Any

import pytest
import yaml

from bot.engine.seasons import turn_date
from bot.engine.uploads import MAX_DEPTH
from bot.scenario import LIMITS, START_DATE_RANGE, parse_scenario, parse_scenario_text

from .conftest import force, minimal, refused, refused_text


def big_map(side: int) -> dict[str, Any]:
    data = minimal()
    data["map"] = {"width": side, "height": side}
    return data


# --- item 2: limits, checked before the work they bound -------------------------------------------


@pytest.mark.parametrize("field", ["terrain.forest", "roads", "rivers", "territories.fr", "strongholds.au"])
def test_ranges_that_expand_past_the_budget_are_refused_early_naming_the_limit(field: str) -> None:
    side = LIMITS.map_side
    data = big_map(side)
    whole = f"A1:{_corner(side)}"
    many = [whole] * 400  # 400 whole maps: millions of squares from a few KB
    if field == "rivers":
        data["map"]["rivers"] = [{"squares": many, "flow": "S"}]
    elif "." in field:
        group, key = field.split(".")
        data["map"][group] = {key: many}
    else:
        data["map"][field] = many
    text = yaml.safe_dump(data)
    assert len(text) < 10_000
    start = time.perf_counter()
    message = refused_text(text)
    assert time.perf_counter() - start < 2  # refused before expanding (the old code took minutes)
    assert f"{LIMITS.squares_per_field:,}" in message or f"{LIMITS.squares_total:,}" in message, message
    assert "Scenario field map." in message


def test_ranges_across_many_fields_share_one_total_budget() -> None:
    side = LIMITS.map_side
    data = big_map(side)
    whole = f"A1:{_corner(side)}"
    fields = LIMITS.squares_total // (side * side) + 1
    data["map"]["rivers"] = [{"squares": [whole]} for _ in range(fields)]
    message = refused_text(yaml.safe_dump(data))
    assert f"{LIMITS.squares_total:,}" in message and "map.rivers[" in message


def _corner(side: int) -> str:
    from bot.engine.model import Square

    return Square(side - 1, side - 1).name


@pytest.mark.parametrize("dimension", ["width", "height"])
def test_the_map_size_limit_is_named(dimension: str) -> None:
    data = minimal()
    data["map"][dimension] = LIMITS.map_side + 1
    message = refused(data)
    assert f"map.{dimension}" in message and f"{LIMITS.map_side}" in message


def test_too_many_forces_are_refused_before_any_is_read() -> None:
    data = minimal()
    data["forces"] = ["not a force"] * (LIMITS.forces + 1)
    message = refused(data)
    assert message.startswith("Scenario field forces:") and f"{LIMITS.forces:,}" in message


def test_forces_and_reinforcements_count_together() -> None:
    data = minimal()
    data["reinforcements"] = [{"turn": 2, "force": "x"}] * (LIMITS.forces - 1)
    message = refused(data)
    assert "reinforcements" in message and f"{LIMITS.forces:,}" in message


def test_too_many_units_in_one_force_are_refused_before_any_is_read() -> None:
    data = minimal()
    data["forces"][0]["units"] = ["not a unit"] * (LIMITS.units_per_force + 1)
    message = refused(data)
    assert message.startswith("Scenario field forces[0].units:") and f"{LIMITS.units_per_force}" in message


def test_too_many_units_in_all_are_refused() -> None:
    data = minimal()
    per = LIMITS.units_per_force
    n_forces = LIMITS.units // per + 1
    data["forces"] = [force(f"f{i}", "fr", "A2", *({"key": f"u{i}-{j}", "name": "U", "sp": 1} for j in range(per)))
                      for i in range(n_forces)]
    message = refused(data)
    assert "units" in message and f"{LIMITS.units:,}" in message


@pytest.mark.parametrize(("path", "limit"), [
    (("name",), "name"), (("sides", 0, "name"), "name"), (("forces", 0, "name"), "name"),
    (("forces", 0, "leader", "name"), "name"), (("forces", 0, "units", 0, "name"), "name"),
    (("sides", 0, "nation"), "nation"), (("description",), "description"),
])
def test_names_longer_than_the_limit_are_refused_naming_the_field(path: tuple[Any, ...], limit: str) -> None:
    data = copy.deepcopy(minimal())
    here = data
    for p in path[:-1]:
        here = here[p]
    n = getattr(LIMITS, limit)
    here[path[-1]] = "x" * (n + 1)
    message = refused(data)
    assert ".".join(str(p) for p in path if isinstance(p, str)).split(".")[-1] in message and f"{n:,}" in message


def test_too_many_sides_are_refused() -> None:
    data = minimal()
    data["sides"] = [{"key": f"s{i}", "name": f"S{i}"} for i in range(LIMITS.sides + 1)]
    assert f"at most {LIMITS.sides} sides" in refused(data)


def test_the_largest_legal_map_parses_within_the_budget() -> None:
    side = LIMITS.map_side
    data = big_map(side)
    data["map"]["rows"] = ["f" * side] * side
    data["map"]["territories"] = {"fr": [f"A1:{_corner(side)}"]}
    data["map"]["strongholds"] = {"fr": ["A1"], "au": ["C2"]}
    s = parse_scenario_text(yaml.safe_dump(data))
    assert len(s.map.cells) == side * side


def test_open_squares_with_nothing_on_them_are_not_stored() -> None:
    data = big_map(10)
    data["map"]["rows"] = ["." * 10] * 9 + ["f" * 10]
    s = parse_scenario(data)
    assert len(s.map.cells) == 10
    assert s.map.cell(s.map.parse("A1")).terrain.value == "open"


# --- item 6: malformed input, refused with the field named ---------------------------------------


@pytest.mark.parametrize(("depth", "style"), [
    (depth, style) for depth in (MAX_DEPTH + 1, 200, 5000, 100_000)
    for style in ("flow-list", "flow-map", "block", "json")
    if not (style == "block" and depth > 1000)  # block nesting that deep needs more than the byte limit
])
def test_nesting_deeper_than_the_limit_is_refused_naming_the_limit(depth: int, style: str) -> None:
    if style == "flow-list":
        text = "name: " + "[" * depth + "]" * depth + "\n"
    elif style == "flow-map":
        text = "name: " + "{a: " * depth + "1" + "}" * depth + "\n"
    elif style == "block":
        text = "".join("  " * i + "a:\n" for i in range(depth)) + "  " * depth + "b: 1\n"
    else:
        text = '{"name": ' + "[" * depth + "]" * depth + "}"
    message = refused_text(text)
    assert f"nested more than {MAX_DEPTH} levels deep" in message, message
    assert message.startswith("Scenario field")


def test_nesting_at_the_limit_is_read_and_then_judged_as_a_field() -> None:
    levels = MAX_DEPTH - 1  # under the top-level mapping
    text = yaml.safe_dump(minimal()) + "description: " + "[" * levels + "]" * levels + "\n"
    assert refused_text(text) == "Scenario field description: expected text, got list"


@pytest.mark.parametrize("char", ["\x00", "\x07", "\x1b", "\x7f", "\x9b", "\ud800", "\udfff"])
@pytest.mark.parametrize(("path", "where"), [
    (("name",), "name"), (("sides", 0, "name"), "sides[0].name"), (("forces", 1, "units", 0, "name"),
                                                                    "forces[1].units[0].name"),
    (("forces", 0, "leader", "name"), "forces[0].leader.name"), (("description",), "description"),
    (("sides", 1, "nation"), "sides[1].nation"),
])
def test_control_characters_and_lone_surrogates_are_refused_naming_the_field(char: str, path: tuple[Any, ...],
                                                                             where: str) -> None:
    data = copy.deepcopy(minimal())
    here = data
    for p in path[:-1]:
        here = here[p]
    here[path[-1]] = f"Fr{char}ance"
    code = f"U+{ord(char):04X}"
    for message in (refused(data), refused_text(yaml.safe_dump(data, allow_unicode=False))):
        assert f"Scenario field {where}" in message and code in message, message


@pytest.mark.parametrize("char", ["\x00", "\x01", "\x1f", "\x7f", "\x80"])
def test_a_raw_control_character_in_the_file_names_its_field(char: str) -> None:
    text = yaml.safe_dump(minimal()).replace("name: France", f"name: Fr{char}ance")
    message = refused_text(text.encode("utf-8"))
    assert "sides[0].name" in message and f"U+{ord(char):04X}" in message, message


def test_a_mapping_key_with_a_control_character_is_refused() -> None:
    text = yaml.safe_dump(minimal()).replace("forces:", '"for\\0ces":')
    assert "U+0000" in refused_text(text)


@pytest.mark.parametrize("value", ["1" * 5000, "-" + "9" * 4400, "0x" + "f" * 5000, "1" * 40])
def test_numbers_python_cannot_read_quickly_are_refused_naming_the_field(value: str) -> None:
    text = yaml.safe_dump(minimal()).replace("sp: 6", f"sp: {value}", 1)
    message = refused_text(text)
    assert "forces[0].units[0].sp" in message and "at most" in message, message


@pytest.mark.parametrize("value", ["0000-01-01", "2023-02-30", "!!timestamp 1805", "!!bool maybe", "!!float x1"])
def test_values_yaml_cannot_build_are_refused_naming_the_field(value: str) -> None:
    text = yaml.safe_dump(minimal()).replace("start_date: '1805-10-07'", f"start_date: {value}")
    message = refused_text(text)
    assert "start_date" in message and value.split()[-1] in message and "cannot be read" in message, message


@pytest.mark.parametrize("value", ["9999-12-31", "1599-12-31", "0001-01-01", "2101-01-01", dt.date(9999, 12, 31)])
def test_start_dates_outside_the_range_are_refused_so_the_calendar_cannot_overflow(value: Any) -> None:
    data = minimal()
    data["start_date"] = value
    message = refused(data)
    first, last = START_DATE_RANGE
    assert message.startswith("Scenario field start_date") and str(first) in message and str(last) in message


def test_the_last_legal_start_date_advances_for_thousands_of_turns() -> None:
    first, last = START_DATE_RANGE
    data = minimal()
    data["start_date"] = str(last)
    assert parse_scenario(data).start_date == last
    assert turn_date(last, 100_000) > last
    data["start_date"] = str(first)
    assert parse_scenario(data).start_date == first


@pytest.mark.parametrize("square", ["A²", "A１", "Ａ1", "A٣", "A" + "1" * 5000, "A1\x00"])
def test_a_malformed_square_in_a_scenario_names_its_field(square: str) -> None:
    data = minimal()
    data["forces"][0]["square"] = square
    message = refused(data)
    assert message.startswith("Scenario field forces[0].square:") and len(message) < 300
    data = minimal()
    data["map"]["roads"] = ["A1", square]
    assert refused(data).startswith("Scenario field map.roads[1]:")


def test_a_json_scenario_is_held_to_the_same_limits() -> None:
    data = minimal()
    data["sides"][0]["name"] = "Fr\x00ance"
    assert "U+0000" in refused_text(json.dumps(data))


def test_every_limit_is_documented_with_its_value() -> None:
    from dataclasses import fields

    from .conftest import doc

    section = doc().split("## Limits", 1)[1].split("\n## ", 1)[0]
    for f in fields(LIMITS):
        assert f"| `{f.name}` | {getattr(LIMITS, f.name):,} |" in section, f.name
    first, last = START_DATE_RANGE
    assert f"{first} to {last}" in section


HOSTILE_TEXTS = [
    "name: " + "[" * 5000 + "]" * 5000 + "\n",
    yaml.safe_dump(minimal()).replace("name: France", "name: Fr\x00ance"),
    yaml.safe_dump(minimal()).replace("name: France", 'name: "Fr\\x1bance"'),
    yaml.safe_dump(minimal()).replace("sp: 6", "sp: " + "1" * 5000, 1),
    yaml.safe_dump(minimal()).replace("start_date: '1805-10-07'", "start_date: 1805-13-45"),
    "a: &a [x]\nb: *a\n",
    "name: [unclosed\n",
]


@pytest.mark.parametrize("text", HOSTILE_TEXTS)
def test_the_same_refusal_with_or_without_libyaml(text: str, monkeypatch: pytest.MonkeyPatch) -> None:
    import bot.engine.uploads

    with_libyaml = refused_text(text)
    monkeypatch.setattr(bot.engine.uploads, "_FAST", yaml.SafeLoader)
    assert refused_text(text) == with_libyaml
