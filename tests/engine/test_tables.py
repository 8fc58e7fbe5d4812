"""Rules tables (bot/engine/tables.py, rules/*.yaml): the bundled tables load and say what
RULES.md says; a broken table fails loudly, naming the file and the field; a number changed in
the YAML is the number the procedures use.
"""

from __future__ import annotations

import re
from fractions import Fraction

import pytest

from bot.engine.aftermath import deserter_check
from bot.engine.dice import ScriptedDice
from bot.engine.errors import TableError
from bot.engine.force_test import force_test_check
from bot.engine.model import Cell, Climate, Quality, Season, Terrain
from bot.engine.movement import movement_check
from bot.engine.tables import default_rulebook, parse_yaml, read_yaml, rules_dir


def test_the_bundled_rules_load(rules):
    assert rules.mc.force_test.rule == "MC-4"
    assert set(rules.weather.table) == {(c, s) for c in Climate for s in Season}
    assert sorted(rules.calendar.season_of_month) == list(range(1, 13))
    assert rules.events.dice == 2


def test_the_default_rulebook_is_loaded_once():
    assert default_rulebook() is default_rulebook()


def test_the_bundled_rules_directory_is_beside_the_package():
    assert (rules_dir() / "map_campaign.yaml").is_file()


# --- the bundled numbers are those of RULES.md ----------------------------------------------

MODIFIERS = [
    # MC-4 Force test
    ("force_test", "routed", -3, "MC-4"),
    ("force_test", "unsteady", -2, "MC-4"),
    ("force_test", "confused", -1, "MC-4"),
    ("force_test", "mountain", -3, "MC-4"),
    ("force_test", "enemy_territory", -1, "MC-4"),
    ("force_test", "friendly_territory", 2, "MC-4"),
    # MC-5.1 land movement
    ("movement", "mountain", -3, "MC-5.1"),
    ("movement", "forest", -2, "MC-5.1"),
    ("movement", "river", -1, "MC-5.1"),
    ("movement", "swamp", -1, "MC-5.1"),
    ("movement", "enemy_territory", -1, "MC-5.1"),
    ("movement", "unsteady_or_routed", -2, "MC-5.1"),
    ("movement", "forced_march", 2, "MC-5.1"),
    ("movement", "friendly_territory", 1, "MC-5.1"),
    # MC-5.3 water movement
    ("water_movement", "contrary_wind", -3, "MC-5.3"),
    ("water_movement", "dead_calm", -2, "MC-5.3"),
    ("water_movement", "favourable_wind", 1, "MC-5.3"),
    ("water_movement", "reefs", -1, "MC-5.3"),
    ("water_movement", "small_boats", -2, "MC-5.3"),
    ("water_movement", "rapids", -3, "MC-5.3"),
    ("water_movement", "upstream", -2, "MC-5.3"),
    ("water_movement", "bridge", -1, "MC-5.3"),
    ("water_movement", "downstream", 1, "MC-5.3"),
    ("water_movement", "horse_barges", -1, "MC-5.3"),
    ("water_movement", "enemy_territory", -1, "MC-5.3"),
    ("water_movement", "unsteady_or_routed", -2, "MC-5.3"),
    ("water_movement", "forced_march", 2, "MC-5.3"),
    ("water_movement", "friendly_territory", 1, "MC-5.3"),
    # MC-6.1 exploration
    ("exploration", "friendly_territory", 2, "MC-6.1"),
    ("exploration", "enemy_territory", -1, "MC-6.1"),
    # MC-7.1 wounded
    ("wounded", "friendly_territory", 1, "MC-7.1"),
    ("wounded", "enemy_territory", -1, "MC-7.1"),
    # MC-7.2 deserters with the RU-7 ladder
    ("deserters", "raw", 0, "MC-7.2"),
    ("deserters", "average", 1, "MC-7.2"),
    ("deserters", "veteran", 2, "MC-7.2"),
    ("deserters", "elite", 3, "MC-7.2"),
    ("deserters", "routed", -1, "MC-7.2"),
    # MC-9 Will to Fight
    ("will_to_fight", "battle_won", 1, "MC-9"),
    ("will_to_fight", "battle_lost", -1, "MC-9"),
    ("will_to_fight", "stronghold_taken", 1, "MC-9"),
    ("will_to_fight", "stronghold_lost", -1, "MC-9"),
    ("will_to_fight", "capital_taken", 3, "MC-9"),
    ("will_to_fight", "capital_lost", -3, "MC-9"),
]


@pytest.mark.parametrize(("table", "name", "value", "rule"), MODIFIERS)
def test_every_bundled_modifier_has_the_value_and_rule_id_of_rules_md(rules, table, name, value, rule):
    mod = getattr(rules.mc, table).mod(name)
    assert (mod.value, mod.rule) == (value, rule)
    assert mod.reason


@pytest.mark.parametrize(
    ("name", "value"), [("desert_or_wasteland", -1), ("cultivated", -1), ("hill", -2), ("road", 1)]
)
def test_the_mc_5_1_extension_modifiers_have_the_values_of_rules_md(rules, name, value):
    mod = rules.mc.movement_extension[name]
    assert (mod.value, mod.rule) == (value, "MC-5.1")


@pytest.mark.parametrize(
    ("table", "spans"),
    [
        ("force_test", [("disaster", None, 1), ("unsteady", 2, 2), ("confused", 3, 3), ("defend", 4, 5), ("ok", 6, None)]),
        ("movement", [("stay", None, 2), ("one", 3, 5), ("two", 6, 8), ("three", 9, None)]),
        ("water_movement", [("one", None, 2), ("two", 3, 5), ("three", 6, 8), ("four", 9, None)]),
        ("wounded", [("dead", None, 3), ("returns", 4, None)]),
        ("deserters", [("deserted", None, 3), ("returns", 4, None)]),
        ("will_to_fight", [("defeat", None, -1), ("fights_on", 0, None)]),
        ("exploration", [("none", None, 0), ("scored", 1, None)]),
    ],
)
def test_every_bundled_band_table_has_the_rows_of_rules_md(rules, table, spans):
    bands = getattr(rules.mc, table).bands.bands
    assert [(b.result, b.low, b.high) for b in bands] == spans


def test_the_bundled_attrition_table_is_1d6_minus_2_on_jungle_desert_and_wasteland(rules):
    mc = rules.mc
    assert mc.attrition.rule == "MC-5.2"
    assert mc.attrition_terrains == {Terrain.JUNGLE, Terrain.DESERT, Terrain.WASTELAND}
    assert mc.attrition_loss.value == -2
    assert mc.desertion_threshold == Fraction(1, 4)


def test_the_bundled_natural_faces_are_1_lost_and_6_back(rules):
    assert {(n.face, n.result) for n in rules.mc.wounded.naturals} == {(1, "dead"), (6, "returns")}
    assert {(n.face, n.result) for n in rules.mc.deserters.naturals} == {(1, "deserted"), (6, "returns")}


def test_the_bundled_embark_and_landing_reduction_is_one_square_from_a_total_of_three(rules):
    assert (rules.mc.embark_reduction, rules.mc.embark_min_total) == (1, 3)


def test_the_bundled_general_retreat_hours_are_minus_three_two_one(rules):
    assert {h: m.value for h, m in rules.mc.general_retreat_hours.items()} == {1: -3, 2: -2, 3: -1}
    assert rules.mc.defend_multiplier == 2


def test_the_bundled_options_have_the_defaults_of_rules_md(rules):
    assert rules.mc.default_options() == {
        "weather": True,
        "random_events": True,
        "movement_order": "simultaneous",
        "movement_extension": True,
        "mercenary_desertion": "check_all",
        "adjacency": 8,
        "overwhelm": False,
        "supply": False,
        "scout_rerolls": False,
        "unmanned_sides": "hold",
        "battles": "table",
        "general": "balanced",
    }
    assert rules.mc.options["mercenary_desertion"].rule == "RU-6"
    # RU-22: the Field Commander modules are settings, off unless the scenario or the GM turns them on.
    assert [rules.mc.options[k].rule for k in ("overwhelm", "supply", "scout_rerolls")] == ["FC-1", "FC-2", "FC-3"]
    assert rules.mc.options["adjacency"].rule == "RU-11"


# --- broken tables ------------------------------------------------------------------------

BROKEN = [
    pytest.param(
        "map_campaign.yaml",
        "{min: 4, max: 5, result: defend",
        "{min: 5, max: 5, result: defend",
        "map_campaign.yaml: force_test.bands.[3]: starts at 5 but the row before ends at 3: rows must touch",
        id="band-gap",
    ),
    pytest.param(
        "map_campaign.yaml",
        "{min: 4, max: 5, result: defend",
        "{min: 3, max: 5, result: defend",
        "map_campaign.yaml: force_test.bands.[3]: starts at 3 but the row before ends at 3",
        id="band-overlap",
    ),
    pytest.param(
        "map_campaign.yaml",
        "    swamp:              {value: -1, reason: starts in swamp}\n",
        "",
        "map_campaign.yaml: movement.modifiers: missing swamp",
        id="missing-modifier",
    ),
    pytest.param(
        "map_campaign.yaml",
        "    confused:           {value: -1, reason: Force is Confused}\n",
        "    confused:           {value: -1, reason: Force is Confused}\n    drunk: {value: -1, reason: wine}\n",
        "map_campaign.yaml: force_test.modifiers: unknown drunk; allowed: confused, enemy_territory,",
        id="unknown-modifier",
    ),
    pytest.param(
        "map_campaign.yaml",
        "routed:             {value: -3,",
        "routed:             {value: -1.5,",
        "map_campaign.yaml: force_test.modifiers.routed.value: expected a whole number, got -1.5",
        id="non-integer-value",
    ),
    pytest.param(
        "map_campaign.yaml",
        "routed:             {value: -3,",
        "routed:             {value: minus three,",
        "map_campaign.yaml: force_test.modifiers.routed.value: expected a whole number, got 'minus three'",
        id="text-value",
    ),
    pytest.param(
        "map_campaign.yaml",
        "terrains: [jungle, desert, wasteland]",
        "terrains: [jungle, desert, tundra]",
        "map_campaign.yaml: attrition.terrains.[2]: unknown terrain 'tundra'; allowed: open,",
        id="unknown-attrition-terrain",
    ),
    pytest.param(
        "map_campaign.yaml",
        "default: simultaneous",
        "default: alphabetical",
        "map_campaign.yaml: options.movement_order.default: 'alphabetical' is not one of the choices "
        "['simultaneous', 'initiative']",
        id="default-not-in-choices",
    ),
    pytest.param(
        "map_campaign.yaml",
        "weather:              {rule: MC-3,   default: true,",
        "weather:              {rule: MC-3,   default: 1,",
        "map_campaign.yaml: options.weather.default: 1 is not one of the choices [True, False]",
        id="default-of-another-type",
    ),
    pytest.param(
        "map_campaign.yaml",
        "result: ok,",
        "result: fine,",
        "map_campaign.yaml: force_test.bands: results must be exactly confused, defend, disaster, ok, unsteady",
        id="unknown-result",
    ),
    pytest.param(
        "map_campaign.yaml",
        "{max: 1,         result: disaster",
        "{min: 0, max: 1, result: disaster",
        "map_campaign.yaml: force_test.bands.[0]: the first row must have no 'min'",
        id="first-row-closed",
    ),
    pytest.param(
        "map_campaign.yaml",
        "naturals: {1: dead, 6: returns}",
        "naturals: {1: dead, 6: alive}",
        "map_campaign.yaml: wounded.naturals.6: 'alive' is not a result of this table (dead, returns)",
        id="natural-unknown-result",
    ),
    pytest.param(
        "map_campaign.yaml",
        "rule: MC-4\n",
        "rule: MC-5\n",
        "map_campaign.yaml: force_test.rule: this table implements MC-4, not 'MC-5'",
        id="wrong-rule-id",
    ),
    pytest.param(
        "map_campaign.yaml",
        "desertion_threshold: 0.25",
        "desertion_threshold: 25",
        "map_campaign.yaml: attrition.desertion_threshold: expected a fraction from 0 to 1, got 25",
        id="threshold-not-a-fraction",
    ),
    pytest.param(
        "map_campaign.yaml",
        "version: 1\n",
        "version: 1\nbroken: [unclosed\n",
        "map_campaign.yaml: not valid YAML",
        id="not-yaml",
    ),
    pytest.param(
        "weather.yaml",
        "spring: [rain, rain, overcast, overcast, fair, fair]",
        "spring: [rain, rain, overcast, overcast, fair, hail]",
        "weather.yaml: table.temperate.spring.[5]: unknown weather 'hail'; defined: fair,",
        id="weather-unknown-kind",
    ),
    pytest.param(
        "weather.yaml",
        "spring: [rain, rain, overcast, overcast, fair, fair]",
        "spring: [rain, rain, overcast, overcast, fair]",
        "weather.yaml: table.temperate.spring: give the weather for each face 1 to 6: 5 given",
        id="weather-short-row",
    ),
    pytest.param(
        "calendar.yaml",
        "winter: [12, 1, 2]",
        "winter: [12, 1]",
        "calendar.yaml: seasons: months without a season: 2",
        id="calendar-month-missing",
    ),
    pytest.param(
        "events.yaml",
        "effect: {movement: 1}",
        "effect: {morale: 1}",
        "events.yaml: bands.[6].effect: unknown effect 'morale'; allowed: movement, sp_loss, scouts, supply",
        id="event-unknown-effect",
    ),
]


@pytest.mark.parametrize(("filename", "old", "new", "message"), BROKEN)
def test_a_broken_table_raises_a_table_error_naming_the_file_and_field(rules_copy, filename, old, new, message):
    rules_copy.edit(filename, old, new)
    with pytest.raises(TableError) as info:
        rules_copy.load()
    assert str(info.value).startswith(message)


def test_a_missing_rules_file_is_a_table_error_naming_the_file(rules_copy):
    (rules_copy.path / "weather.yaml").unlink()
    with pytest.raises(TableError, match=r"Cannot read rules table .*weather\.yaml"):
        rules_copy.load()


def test_a_rules_file_that_is_not_a_mapping_is_a_table_error():
    with pytest.raises(TableError, match=re.escape("x.yaml: top level: expected a mapping, got list")):
        parse_yaml("- 1\n- 2\n", "x.yaml")


def test_a_rules_file_of_an_unknown_version_is_refused():
    with pytest.raises(TableError, match=r"x.yaml: version: 2 is out of range 1\.\.1"):
        parse_yaml("version: 2\n", "x.yaml")


def test_read_yaml_names_the_file_it_reads(tmp_path):
    bad = tmp_path / "custom.yaml"
    bad.write_text("just text", encoding="utf-8")
    with pytest.raises(TableError, match=re.escape("custom.yaml: top level: expected a mapping, got str")):
        read_yaml(bad)


# --- changing a number is a YAML edit --------------------------------------------------------


def test_changing_a_force_test_modifier_is_a_yaml_edit(rules_copy, make_force):
    rules_copy.edit("map_campaign.yaml", "friendly_territory: {value: 2,  reason: in friendly territory}\n  bands:\n    - {max: 1,",
                    "friendly_territory: {value: 3,  reason: in friendly territory}\n  bands:\n    - {max: 1,")
    edited = rules_copy.load()
    force, cell = make_force(cv=0), Cell(territory="france")
    bundled = force_test_check(force, cell).roll(ScriptedDice([3]), "k")
    changed = force_test_check(force, cell, rules=edited).roll(ScriptedDice([3]), "k")
    assert (bundled.total, bundled.result) == (5, "defend")
    assert (changed.total, changed.result) == (6, "ok")
    assert "+3 in friendly territory (MC-4)" in str(changed)


def test_changing_a_movement_band_is_a_yaml_edit(rules_copy, make_force):
    rules_copy.edit("map_campaign.yaml", "- {max: 2,         result: stay,", "- {max: 3,         result: stay,")
    rules_copy.edit("map_campaign.yaml", "- {min: 3, max: 5, result: one,", "- {min: 4, max: 5, result: one,")
    roll = movement_check(make_force(), Cell(), rules=rules_copy.load()).roll(ScriptedDice([3]), "k")
    assert (roll.total, roll.result, roll.value) == (3, "stay", 0)


def test_changing_a_deserter_quality_bonus_is_a_yaml_edit(rules_copy):
    rules_copy.edit("map_campaign.yaml", "elite:   {value: 3,", "elite:   {value: 4,")
    check = deserter_check(Quality.ELITE, routed=False, rules=rules_copy.load())
    assert [m.value for m in check.modifiers] == [4]
