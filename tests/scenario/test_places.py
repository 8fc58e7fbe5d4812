"""Place names from the scenario (``map.places``, issue 15): a square's name and kind, read by the parser,
refused with a message naming the square, carried on the map's cells; and the generator's names for its
strongholds, the same for the same seed."""

from __future__ import annotations

from typing import Any

import pytest
import yaml

from bot.engine.model import Cell, Place, PlaceKind, Square, Terrain
from bot.generate import NATIONS, Params, generate_scenario
from bot.scenario import LIMITS, parse_scenario, parse_scenario_text

from .conftest import minimal, refused


def with_places(places: Any) -> dict[str, Any]:
    data = minimal()
    data["map"]["places"] = places
    return data


def test_a_text_names_a_town_and_a_mapping_any_kind() -> None:
    s = parse_scenario(with_places({"A1": "Paris", "B2": {"name": "Po", "kind": "river"},
                                    "c1": {"name": "Mantua", "kind": "Fortress"}, "B3": {"name": "Lodi"},
                                    "D1": {"name": "Ligurian Sea", "kind": "region"}}))
    assert dict(s.map.places()) == {
        Square.parse("A1"): Place("Paris", PlaceKind.TOWN), Square.parse("C1"): Place("Mantua", PlaceKind.FORTRESS),
        Square.parse("D1"): Place("Ligurian Sea", PlaceKind.REGION), Square.parse("B2"): Place("Po", PlaceKind.RIVER),
        Square.parse("B3"): Place("Lodi", PlaceKind.TOWN),
    }
    # A place joins what the square already holds; an open square with a place is stored for it.
    assert s.map.cell(Square.parse("A1")).stronghold == "fr" and s.map.cell(Square.parse("A1")).capital
    assert s.map.cells[Square.parse("B2")] == Cell(Terrain.OPEN, place=Place("Po", PlaceKind.RIVER))


def test_places_are_optional_and_names_may_repeat() -> None:
    assert list(parse_scenario(minimal()).map.places()) == []
    s = parse_scenario(with_places({"A1": {"name": "Po", "kind": "river"}, "B1": {"name": "Po", "kind": "river"}}))
    assert [p.name for _, p in s.map.places()] == ["Po", "Po"]


def test_names_are_stripped_and_up_to_the_limit() -> None:
    s = parse_scenario(with_places({"A1": "  Genoa ", "B1": "x" * LIMITS.place}))
    assert [p.name for _, p in s.map.places()] == ["Genoa", "x" * 40]


def test_places_survive_yaml() -> None:
    text = yaml.safe_dump(with_places({"E2": "Genoa"})).replace("E2: Genoa", "B2: {name: Po, kind: river}\n    A2: Genoa")
    s = parse_scenario_text(text)
    assert dict(s.map.places()) == {Square.parse("B2"): Place("Po", PlaceKind.RIVER),
                                    Square.parse("A2"): Place("Genoa", PlaceKind.TOWN)}


@pytest.mark.parametrize(("places", "message"), [
    ({"A1": {"name": "Lodi", "kind": "castle"}},
     "Scenario field map.places.A1.kind: unknown value 'castle'; allowed: town, fortress, river, pass, region"),
    ({"A1": "x" * 41}, "Scenario field map.places.A1: at most 40 characters, got 41"),
    ({"A1": {"name": "x" * 41, "kind": "town"}}, "Scenario field map.places.A1.name: at most 40 characters, got 41"),
    ({"E1": "Genoa"}, "Scenario field map.places.E1: square E1 is outside the 4x3 map"),
    ({"A4": "Genoa"}, "Scenario field map.places.A4: square A4 is outside the 4x3 map"),
    ({"1A": "Genoa"}, "Scenario field map.places.1A: '1A' is not a square name: use column letters then a row "
                      "number, like D4 or AA12."),
    ({"A1": "Genoa", "a1": "Savona"}, "Scenario field map.places.a1: A1 is also map.places.A1: at most one place "
                                      "per square"),
    ({"B2": "Genoa", " B2": "Savona"}, "Scenario field map.places. B2: B2 is also map.places.B2: at most one place "
                                       "per square"),
    ({"A1": "   "}, "Scenario field map.places.A1: expected text, got '   '"),
    ({"A1": "\u200b"}, "Scenario field map.places.A1: '\\u200b' has no visible character: invisible (format) "
                       "characters and spaces only"),
    ({"A1": "Gen\x00oa"}, "Scenario field map.places.A1: holds the character U+0000: control characters (but "
                          "newline and tab), NUL and lone surrogates are not allowed"),
    ({"A1": None}, "Scenario field map.places.A1: expected a name, or a mapping of name and kind, got null"),
    ({"A1": 12}, "Scenario field map.places.A1: expected a name, or a mapping of name and kind, got int"),
    ({"A1": ["Genoa"]}, "Scenario field map.places.A1: expected a name, or a mapping of name and kind, got list"),
    ({"A1": {"kind": "town"}}, "Scenario field map.places.A1.name: expected text, got None"),
    ({"A1": {"name": "Lodi", "size": 3}}, "Scenario field map.places.A1: unknown field(s) size; allowed: kind, name"),
    (["A1"], "Scenario field map.places: expected a mapping, got list"),
])
def test_a_bad_place_is_refused_by_its_square(places: Any, message: str) -> None:
    assert refused(with_places(places)) == message


def test_no_more_places_than_squares() -> None:
    # A mapping with more entries than the map has squares is refused before its entries are read.
    places = {f"A{i}": "x" for i in range(1, 14)}
    assert refused(with_places(places)) == "Scenario field map.places: at most one place per square: 12 on this " \
                                           "map, got 13"


def test_the_worked_example_names_places() -> None:
    from .conftest import worked_examples

    s = parse_scenario_text(worked_examples()[0])
    assert {p.name: p.kind for _, p in s.map.places()} == {"Cassano": PlaceKind.TOWN, "Lodi": PlaceKind.FORTRESS,
                                                           "Adda": PlaceKind.RIVER}


# --- generated scenarios ------------------------------------------------------------------------------


@pytest.mark.parametrize("params", [Params(seed=42), Params(sides=3, seed=7, width=60, height=50),
                                    Params(sides=8, seed=3, width=80, height=80)])
def test_the_generator_names_every_stronghold_deterministically(params: Params) -> None:
    data = generate_scenario(params)
    assert generate_scenario(params)["map"]["places"] == data["map"]["places"]  # the same seed, the same names
    s = parse_scenario(data)
    places = dict(s.map.places())
    strongholds = {sq: c for sq, c in s.map.cells.items() if c.stronghold is not None}
    assert set(places) == set(strongholds)
    for sq, cell in strongholds.items():
        nation = next(n for n in NATIONS if n.key == cell.stronghold)
        assert places[sq].name in nation.towns
        assert places[sq].kind is (PlaceKind.TOWN if cell.capital else PlaceKind.FORTRESS)
    for side in params.side_keys:  # a side's towns have different names
        names = [places[sq].name for sq, c in strongholds.items() if c.stronghold == side]
        assert len(names) == len(set(names))


def test_another_seed_draws_other_names_and_names_leave_the_map_alone() -> None:
    drawn = {tuple(sorted(p if isinstance(p, str) else p["name"] for p in generate_scenario(Params(seed=s))["map"]
                          ["places"].values())) for s in range(6)}
    assert len(drawn) > 1
    data = generate_scenario(Params(seed=42))
    del data["map"]["places"]
    plain = parse_scenario(data).map
    named = parse_scenario(generate_scenario(Params(seed=42))).map
    assert {sq: c.place for sq, c in named.cells.items() if c.place} and \
        {sq: Cell(c.terrain, c.features, c.territory, c.stronghold, c.capital, c.river_flow)
         for sq, c in named.cells.items()} == dict(plain.cells)


def test_every_nation_has_a_name_for_each_of_its_strongholds() -> None:
    from bot.generate import MOST_STRONGHOLDS

    towns = [t for n in NATIONS for t in n.towns]
    assert all(len(n.towns) >= MOST_STRONGHOLDS for n in NATIONS)
    assert len(towns) == len(set(towns)) and all(1 <= len(t) <= LIMITS.place for t in towns)


def test_the_schema_takes_places_as_the_parser_does(schema: dict[str, Any]) -> None:
    jsonschema = pytest.importorskip("jsonschema")
    validator = jsonschema.Draft202012Validator(schema)
    good = with_places({"A1": "Paris", "B2": {"name": "Po", "kind": "river"}, "C1": {"name": "Lodi"}})
    assert list(validator.iter_errors(good)) == []
    for bad in ({"A1": {"name": "Lodi", "kind": "castle"}}, {"A1": "x" * 41}, {"A1": "  "}, {"1A": "Lodi"},
                {"A1": {"name": "Lodi", "size": 3}}, {"A1": {"kind": "town"}}, {"A1": None}):
        assert list(validator.iter_errors(with_places(bad))), bad
        with pytest.raises(Exception):  # noqa: B017 (the parser refuses it too)
            parse_scenario(with_places(bad))
