"""Scenario validation (bot/scenario.py): every problem in an uploaded scenario is refused with one
message that names the field, the square and what is allowed. One test per problem, on a small valid
scenario with one thing broken; the messages are pinned because the GM reads them."""

from __future__ import annotations

import copy

import pytest
import yaml

from bot.scenario import MAX_BYTES, parse_scenario, parse_scenario_text

from .conftest import force, minimal, refused, refused_text


def test_the_minimal_scenario_is_valid() -> None:
    s = parse_scenario(minimal(), key="test")
    assert (s.key, s.map.width, s.map.height, [f.key for f in s.forces]) == ("test", 4, 3, ["soult", "mack"])
    assert s.side("au").colour == "#808080"  # the default colour


def test_the_minimal_scenario_survives_a_yaml_round_trip() -> None:
    assert parse_scenario_text(yaml.safe_dump(minimal())).forces == parse_scenario(minimal()).forces


# --- the map -----------------------------------------------------------------------------------


def test_unknown_terrain_character_names_row_and_square() -> None:
    data = minimal()
    data["map"]["rows"][1] = "..xS"
    assert refused(data) == "Scenario field map.rows[1]: unknown terrain character 'x' at C2"


def test_row_of_the_wrong_width() -> None:
    data = minimal()
    data["map"]["rows"][2] = "hh~"
    assert refused(data) == "Scenario field map.rows[2]: row 3 has 3 characters for a map 4 squares wide"


def test_wrong_number_of_rows() -> None:
    data = minimal()
    data["map"]["rows"].append("....")
    assert refused(data) == "Scenario field map.rows: 4 rows given for a map 3 squares high"


def test_legend_keys_are_single_characters() -> None:
    data = minimal()
    data["map"]["legend"] = {"hh": "hill"}
    assert refused(data) == "Scenario field map.legend: legend keys are single characters, got 'hh'"


def test_legend_values_are_terrain_names() -> None:
    data = minimal()
    data["map"]["legend"] = {"x": "tundra"}
    assert refused(data) == (
        "Scenario field map.legend.x: unknown value 'tundra'; allowed: open, cultivated, forest, hill, mountain,"
        " swamp, desert, wasteland, jungle, sea, lake"
    )


def test_square_off_the_map_in_a_feature_list() -> None:
    data = minimal()
    data["map"]["roads"] = ["A1", "E1"]
    assert refused(data) == "Scenario field map.roads[1]: square E1 is outside the 4x3 map"


def test_square_off_the_map_in_a_range() -> None:
    data = minimal()
    data["map"]["territories"] = {"fr": ["A1:B4"]}
    assert refused(data) == "Scenario field map.territories.fr[0]: square B4 is outside the 4x3 map"


def test_square_off_the_map_for_a_force() -> None:
    data = minimal()
    data["forces"][0]["square"] = "A4"
    assert refused(data) == "Scenario field forces[0].square: square A4 is outside the 4x3 map"


def test_a_square_name_must_be_letters_then_a_row_number() -> None:
    data = minimal()
    data["map"]["bridges"] = ["4A"]
    assert refused(data) == (
        "Scenario field map.bridges[0]: '4A' is not a square name: use column letters then a row number, like D4"
        " or AA12."
    )


def test_river_flow_is_a_compass_direction() -> None:
    data = minimal()
    data["map"]["rivers"] = [{"squares": ["B1", "B2"], "flow": "down"}]
    assert refused(data) == "Scenario field map.rivers[0].flow: 'DOWN' is not a direction: N, NE, E, SE, S, SW, W, NW"


def test_adjacency_is_8_or_4() -> None:
    data = minimal()
    data["map"]["adjacency"] = 6
    assert refused(data) == "Scenario field map.adjacency: 8 (default) or 4 (RU-11)"


def test_capital_that_is_not_a_stronghold() -> None:
    data = minimal()
    data["map"]["capitals"]["au"] = "A1"  # France's stronghold
    assert refused(data) == "Scenario field map.capitals.au: A1 must be one of au's strongholds"


def test_territory_of_an_unknown_side() -> None:
    data = minimal()
    data["map"]["territories"] = {"ru": ["B1"]}
    assert refused(data) == "Scenario field map.territories: B1 names unknown side 'ru'; sides: fr, au"


# --- top level and sides -----------------------------------------------------------------------


def test_unknown_top_level_field() -> None:
    data = minimal()
    data["author"] = "me"
    assert refused(data) == (
        "Scenario field (top): unknown field(s) author; allowed: alliances, calendar, climate, description, events,"
        " forces, last_turn, map, name, options, reinforcements, sides, start_date, supply, theatre, weather"
    )


def _set(data: dict, path: str, value: object) -> dict:
    node = data
    parts = [int(p) if p.isdigit() else p for p in path.split(".")]
    for part in parts[:-1]:
        node = node[part]
    node[parts[-1]] = value
    return data


@pytest.mark.parametrize(("path", "message"), [
    ("map.size", "map: unknown field(s) size; allowed: adjacency, bridges, capitals, height, legend, places, rapids, "
                 "reefs, rivers, roads, rows, sight, strongholds, terrain, territories, tracks, width"),
    ("map.rivers", None),  # set below: a river entry with a typo
    ("sides.0.flag", "sides[0]: unknown field(s) flag; allowed: colour, key, name, nation"),
    ("forces.0.boats", "forces[0]: unknown field(s) boats; allowed: horse_rafts, key, leader, name, order, scouts, "
                       "side, small_boats, square, units"),
    ("forces.0.leader.rank", "forces[0].leader: unknown field(s) rank; allowed: cv, name"),
    ("forces.0.units.0.strength", "forces[0].units[0]: unknown field(s) strength; allowed: flag, key, mercenary, "
                                  "name, quality, sp, type"),
    ("options.fog", "options: unknown field(s) fog; allowed: adjacency, battles, general, mercenary_desertion, "
                    "movement_extension, movement_order, overwhelm, random_events, scout_rerolls, supply, unmanned_sides, "
                    "weather"),
])
def test_an_unknown_field_anywhere_is_refused_with_its_path_and_the_allowed_names(path: str,
                                                                                  message: str | None) -> None:
    """Issue 21, item 6: a field the format does not have is refused, never silently ignored."""
    data = minimal()
    data.setdefault("options", {})
    if path == "map.rivers":
        data["map"]["rivers"] = [{"squares": ["A1"], "flows": "S"}]
        message = "map.rivers[0]: unknown field(s) flows; allowed: flow, squares"
    else:
        _set(data, path, True)
    assert refused(data) == f"Scenario field {message}"


def test_an_unknown_field_of_a_reinforcement_is_refused() -> None:
    data = minimal()
    data["reinforcements"] = [{"turn": 2, "force": force("ney", "fr", "A3"), "when": "later"}]
    assert refused(data) == "Scenario field reinforcements[0]: unknown field(s) when; allowed: force, turn"
    data["reinforcements"] = [{"turn": 2, "force": force("ney", "fr", "A3", boats=True)}]
    assert refused(data).startswith("Scenario field reinforcements[0].force: unknown field(s) boats; allowed: ")


def test_a_force_states_its_boats_and_horse_rafts() -> None:
    """MC-5.3: whether a Force travels in smaller boats and carries its horses on rafts may be stated by the
    scenario for the Force."""
    data = minimal()
    data["forces"][0] |= {"small_boats": True, "horse_rafts": True}
    soult, mack = parse_scenario(data).forces
    assert (soult.small_boats, soult.horse_rafts) == (True, True)
    assert (mack.small_boats, mack.horse_rafts) == (False, False)
    data["forces"][0]["small_boats"] = "yes please"
    assert refused(data) == "Scenario field forces[0].small_boats: expected true or false, got 'yes please'"


@pytest.mark.parametrize(("colour", "message"), [
    ("blue", "'blue' is not a colour like #1f4e9c"),
    ("#12345g", "'#12345g' is not a colour like #1f4e9c"),
    ("#1234567", "at most 7 characters, got 8"),
])
def test_bad_colour(colour: str, message: str) -> None:
    data = minimal()
    data["sides"][0]["colour"] = colour
    assert refused(data) == f"Scenario field sides[0].colour: {message}"


def test_bad_date() -> None:
    data = minimal()
    data["start_date"] = "1805-13-45"
    assert refused(data) == "Scenario field start_date: '1805-13-45' is not a date like 1805-09-25"


def test_missing_date() -> None:
    data = minimal()
    del data["start_date"]
    assert refused(data) == "Scenario field start_date: expected a date like 1805-09-25"


def test_unquoted_impossible_date_is_refused_with_a_message() -> None:
    text = yaml.safe_dump(minimal()).replace("start_date: '1805-10-07'", "start_date: 1805-13-45")
    assert refused_text(text) == (
        "Scenario field start_date (line 46): '1805-13-45' cannot be read: quote it, or write a date like 1805-10-07"
    )


def test_bad_climate() -> None:
    data = minimal()
    data["climate"] = "polar"
    assert refused(data) == (
        "Scenario field climate: unknown value 'polar'; allowed: temperate, mediterranean, continental, arid, tropical"
    )


def test_a_campaign_needs_two_sides() -> None:
    data = minimal()
    data["sides"] = data["sides"][:1]
    data["forces"] = []
    data["map"].pop("strongholds")
    data["map"].pop("capitals")
    assert refused(data) == "Scenario field sides: a campaign needs at least two sides"


def test_side_keys_differ() -> None:
    data = minimal()
    data["sides"][1]["key"] = "fr"
    assert refused(data) == "Scenario field sides: side keys must differ: ['fr', 'fr']"


def test_a_key_is_lowercase_letters_digits_dash_underscore() -> None:
    data = minimal()
    data["sides"][0]["key"] = "France"
    assert refused(data) == (
        "Scenario field sides[0].key: 'France' is not a key: lowercase letters, digits, '-' and '_', up to 32"
    )


def test_text_fields_are_text() -> None:
    data = minimal()
    data["name"] = 1805
    assert refused(data) == "Scenario field name: expected text, got 1805"


def test_supply_of_an_unknown_side() -> None:
    data = minimal()
    data["supply"] = {"fr": 3, "ru": 2}
    assert refused(data) == "Scenario field supply.ru: unknown side 'ru'; sides: fr, au"


# --- Forces and units --------------------------------------------------------------------------


def test_unknown_side_in_a_force() -> None:
    data = minimal()
    data["forces"][1]["side"] = "ru"
    assert refused(data) == "Scenario field forces[1].side: unknown side 'ru'; sides: fr, au"


def test_duplicate_force_key() -> None:
    data = minimal()
    data["forces"].append(force("soult", "fr", "B2", {"key": "other", "name": "Other", "sp": 3}))
    assert refused(data) == "Scenario field forces: two Forces have the key 'soult'"


def test_duplicate_force_key_across_reinforcements() -> None:
    data = minimal()
    data["reinforcements"] = [{"turn": 2, "force": force("mack", "au", "C1", {"key": "x", "name": "X", "sp": 2})}]
    assert refused(data) == "Scenario field forces: two Forces have the key 'mack'"


def test_duplicate_unit_key() -> None:
    data = minimal()
    data["forces"][1]["units"] = [{"key": "soult-1", "name": "Borrowed", "sp": 4}]
    assert refused(data) == "Scenario field forces: two units have the key 'soult-1'"


def test_negative_sp() -> None:
    data = minimal()
    data["forces"][0]["units"][0]["sp"] = -1
    assert refused(data) == "Scenario field forces[0].units[0].sp: -1 is out of range: 0 to 10000"


def test_sp_is_a_whole_number() -> None:
    data = minimal()
    data["forces"][0]["units"][0]["sp"] = 2.5
    assert refused(data) == "Scenario field forces[0].units[0].sp: expected a whole number, got 2.5"


def test_a_force_needs_a_unit() -> None:
    data = minimal()
    data["forces"][0]["units"] = []
    assert refused(data) == "Scenario field forces[0].units: a Force needs at least one unit"


def test_leader_command_value_range() -> None:
    data = minimal()
    data["forces"][0]["leader"]["cv"] = 11
    assert refused(data) == "Scenario field forces[0].leader.cv: 11 is out of range: -3 to 10"


def test_unit_quality_is_a_rung_of_the_ladder() -> None:
    data = minimal()
    data["forces"][0]["units"][0]["quality"] = "guard"
    assert refused(data) == (
        "Scenario field forces[0].units[0].quality: unknown value 'guard'; allowed: raw, average, veteran, elite"
    )


def test_mercenary_is_true_or_false() -> None:
    data = minimal()
    data["forces"][0]["units"][0]["mercenary"] = "sometimes"
    assert refused(data) == "Scenario field forces[0].units[0].mercenary: expected true or false, got 'sometimes'"


def test_force_order_is_an_mc1_order() -> None:
    data = minimal()
    data["forces"][0]["order"] = "charge"
    assert refused(data) == "Scenario field forces[0].order: unknown value 'charge'; allowed: forced_march, explore, defend"


@pytest.mark.parametrize("square", ["D2", "C3"], ids=["sea", "lake"])
def test_force_on_water(square: str) -> None:
    data = minimal()
    data["forces"][0]["square"] = square
    assert refused(data) == f"Scenario field forces[0].square: {square} is water: Forces start on land"


def test_a_reinforcement_on_water_names_the_reinforcement() -> None:
    data = minimal()
    data["reinforcements"] = [{"turn": 3, "force": force("ney", "fr", "D1")}]
    assert refused(data) == "Scenario field reinforcements[0].force.square: D1 is water: Forces start on land"


def test_reinforcement_turn_is_2_or_later() -> None:
    data = minimal()
    data["reinforcements"] = [{"turn": 1, "force": force("ney", "fr", "B1")}]
    assert refused(data) == "Scenario field reinforcements[0].turn: 1 is out of range: 2 to 1000"


def test_reinforcement_problems_name_the_reinforcement() -> None:
    data = minimal()
    data["reinforcements"] = [{"turn": 2, "force": force("ney", "ru", "B1")}]
    assert refused(data) == "Scenario field reinforcements[0].force.side: unknown side 'ru'; sides: fr, au"


# --- the file ----------------------------------------------------------------------------------


def test_too_big_file() -> None:
    text = yaml.safe_dump(minimal())
    text += "#" * (MAX_BYTES + 1 - len(text))
    assert refused_text(text) == "The scenario file is 524,289 bytes: at most 524,288 are accepted."
    assert refused_text(text.encode()) == "The scenario file is 524,289 bytes: at most 524,288 are accepted."


def test_a_file_of_exactly_the_limit_is_read() -> None:
    text = yaml.safe_dump(minimal())
    text += "#" * (MAX_BYTES - len(text))
    assert parse_scenario_text(text.encode()).name == "Test"


def test_yaml_tag_is_refused() -> None:
    text = "name: !!python/object/apply:os.system ['echo pwned']\n"
    assert refused_text(text) == (
        "The scenario is not valid YAML (line 1): could not determine a constructor for the tag"
        " 'tag:yaml.org,2002:python/object/apply:os.system'"
    )


def test_custom_yaml_tag_is_refused() -> None:
    assert refused_text("name: !foo Test\n") == (
        "The scenario is not valid YAML (line 1): could not determine a constructor for the tag '!foo'"
    )


def test_not_yaml() -> None:
    assert refused_text("name: [unclosed\n") == (
        "The scenario is not valid YAML (line 2): expected ',' or ']', but got '<stream end>'"
    )


def test_yaml_that_is_not_a_mapping() -> None:
    assert refused_text("- a list\n- of things\n") == "Scenario field (top): expected a mapping, got list"
    assert refused_text("just some words\n") == "Scenario field (top): expected a mapping, got str"


def test_two_yaml_documents() -> None:
    text = yaml.safe_dump(minimal())
    assert refused_text(text + "---\n" + text).startswith("The scenario is not valid YAML (line ")


def test_not_utf8() -> None:
    assert refused_text("name: Caf\xe9\n".encode("latin-1")) == "The scenario file is not UTF-8 text."


def test_description_must_be_text() -> None:
    data = copy.deepcopy(minimal())
    data["description"] = [["laugh"] * 9] * 9
    assert refused(data) == "Scenario field description: expected text, got list"


def test_yaml_aliases_are_refused_before_they_can_expand() -> None:
    bomb = "a: &a [x, x, x, x, x, x, x, x, x]\nb: &b [*a, *a, *a, *a, *a, *a, *a, *a, *a]\nname: *b\n"
    assert refused_text(bomb) == "Scenario field b[0] (line 2): YAML anchors and aliases are not allowed (&name, *name)"


def test_ru_25_last_turn_is_a_turn_from_1_to_1000() -> None:
    data = minimal()
    data["last_turn"] = 0
    assert refused(data) == "Scenario field last_turn: 0 is out of range: 1 to 1000"


# --- supply.recruits (RU-24) ---------------------------------------------------------------------


def test_a_sides_recruit_pool_is_read_with_its_costs() -> None:
    """RU-24: the new units a side may buy with supply points come from the scenario's pool, each a unit
    as under a Force with an optional cost (its SP when left out)."""
    data = minimal()
    data["supply"] = {"fr": 3, "recruits": {"fr": [{"key": "conscripts", "name": "Conscripts", "sp": 4, "cost": 3},
                                                   {"key": "guard", "name": "Guard", "sp": 2, "quality": "elite"}]}}
    s = parse_scenario(data)
    assert s.supply == {"fr": 3}
    assert [(r.unit.key, r.unit.sp, r.unit.quality.value, r.cost) for r in s.recruits["fr"]] == [
        ("conscripts", 4, "average", 3), ("guard", 2, "elite", 2)]
    assert "au" not in s.recruits


@pytest.mark.parametrize(("recruits", "message"), [
    ({"xx": []}, "Scenario field supply.recruits.xx: unknown side 'xx'; sides: fr, au"),
    ({"fr": {"key": "a"}}, "Scenario field supply.recruits.fr: expected a list, got dict"),
    ({"fr": [{"key": "c", "name": "C", "sp": 0}]}, "Scenario field supply.recruits.fr[0].sp: "),
    ({"fr": [{"key": "c", "name": "C", "sp": 2, "price": 1}]},
     "Scenario field supply.recruits.fr[0]: unknown field(s) price; allowed: "),
    ({"fr": [{"key": "c", "name": "C", "sp": 2, "cost": -1}]}, "Scenario field supply.recruits.fr[0].cost: "),
    ({"fr": [{"key": "c", "name": "C", "sp": 2}, {"key": "c", "name": "D", "sp": 2}]},
     "Scenario field supply.recruits.fr[1].key: two units have the key 'c'"),
])
def test_a_faulty_recruit_pool_is_refused_naming_the_field(recruits: dict, message: str) -> None:
    data = minimal()
    data["supply"] = {"recruits": recruits}
    assert refused(data).startswith(message)


def test_a_recruit_may_not_take_the_key_of_a_forces_unit() -> None:
    data = minimal()
    taken = data["forces"][0]["units"][0]["key"]
    data["supply"] = {"recruits": {"au": [{"key": taken, "name": "Another", "sp": 2}]}}
    assert refused(data) == f"Scenario field supply.recruits.au[0].key: two units have the key {taken!r}"
