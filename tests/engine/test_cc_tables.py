"""Tables as data: rules/cc_campaign.yaml (CC-1..CC-4) and rules/field_commander.yaml (FC-1..FC-3)
load, and broken files are refused with messages naming the file, the path and what is allowed."""

from __future__ import annotations

import shutil
from fractions import Fraction
from pathlib import Path

import pytest

from bot.engine.cc_model import BattleDieFace, Circumstance, Presence, StragglerEffect, Theatre
from bot.engine.cc_tables import (
    default_cc_tables,
    default_fc_tables,
    load_cc_tables,
    load_fc_tables,
    parse_cc_tables,
    parse_fc_tables,
)
from bot.engine.errors import TableError
from bot.engine.model import LeaderStatus, Quality, UnitType
from bot.engine.tables import rules_dir

CC_TEXT = (rules_dir() / "cc_campaign.yaml").read_text(encoding="utf-8")
FC_TEXT = (rules_dir() / "field_commander.yaml").read_text(encoding="utf-8")


def broken_cc(old: str, new: str) -> str:
    assert old in CC_TEXT, old
    return CC_TEXT.replace(old, new, 1)


def broken_fc(old: str, new: str) -> str:
    assert old in FC_TEXT, old
    return FC_TEXT.replace(old, new, 1)


# --- the bundled files ------------------------------------------------------------------------


def test_bundled_cc_campaign_yaml_loads_with_the_rule_numbers_cc1_to_cc4():
    cc = load_cc_tables()
    assert cc.leaders.fate_rule == "CC-1"
    assert cc.leaders.status_rule == "CC-2"
    assert cc.trophy.rule == cc.battle_die.rule == "CC-3"
    assert cc.glory.rule == "CC-4"
    assert cc.leaders.fate[Circumstance.MELEE].first.results() == ("slain", "mortal_wound", "roll_again")
    assert cc.leaders.statuses[LeaderStatus.SERIOUS_WOUND].next_battle is Presence.CARRIAGE
    assert cc.leaders.statuses[LeaderStatus.MODERATE_WOUND].next_battle is Presence.MISSES
    assert cc.leaders.command.range == 3 and cc.leaders.command.reduced_range == 2
    assert cc.battle_die.faces == (
        BattleDieFace.INFANTRY, BattleDieFace.INFANTRY, BattleDieFace.CAVALRY,
        BattleDieFace.ARTILLERY, BattleDieFace.FLAG, BattleDieFace.SABRE,
    )
    assert cc.trophy.captures[UnitType.ARTILLERY] == frozenset()
    assert cc.glory.award.loser_banner_share == Fraction(1, 2)
    assert cc.glory.spend.anti_guerrilla_theatre is Theatre.SPAIN
    assert cc.glory.stragglers[BattleDieFace.FLAG].effect is StragglerEffect.RETREAT


def test_bundled_field_commander_yaml_loads_fc1_fc2_fc3_and_the_quality_order():
    fc = load_fc_tables()
    assert (fc.overwhelm_rule, fc.overwhelm_ratio) == ("FC-1", 3)
    assert (fc.supply_rule, fc.refit_cost, fc.scout_cost, fc.forced_march_cost) == ("FC-2", 2, 2, 1)
    assert (fc.scout_rule, fc.scouts_per_reroll) == ("FC-3", 1)
    assert fc.quality_order == ("C", "P", "L", "V", "E")
    assert fc.quality_ladder["E"] is Quality.ELITE


def test_default_loaders_are_cached():
    assert default_cc_tables() is default_cc_tables()
    assert default_fc_tables() is default_fc_tables()


def test_tables_load_from_another_directory(tmp_path: Path):
    for name in ("cc_campaign.yaml", "field_commander.yaml"):
        shutil.copy(rules_dir() / name, tmp_path / name)
    assert load_cc_tables(tmp_path).glory.award.winner_divisor == 2
    assert load_fc_tables(tmp_path).overwhelm_ratio == 3


def test_missing_file_is_a_table_error(tmp_path: Path):
    with pytest.raises(TableError, match="Cannot read rules table"):
        load_cc_tables(tmp_path)


def test_version_may_be_left_out():
    assert parse_cc_tables(broken_cc("version: 1\n", "")).glory.rule == "CC-4"


# --- broken CC files ------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("old", "new", "message"),
    [
        pytest.param(
            "leader_fate:\n  rule: CC-1", "leader_fate:\n  rule: CC-9",
            "cc_campaign.yaml: leader_fate.rule: this table implements CC-1, not 'CC-9'", id="CC-1 rule id",
        ),
        pytest.param(
            "{min: 2, max: 2, result: mortal_wound,   label: Mortal wound}",
            "{min: 2, max: 2, result: wounded,   label: Mortal wound}",
            "cc_campaign.yaml: leader_fate.tables.melee.first: results must be exactly mortal_wound, roll_again, slain; "
            "found roll_again, slain, wounded",
            id="CC-1 unknown result",
        ),
        pytest.param(
            "        - {min: 6,         result: light_wound,    label: Light wound}",
            "        - {min: 6, max: 6, result: light_wound,    label: Light wound}\n"
            "        - {min: 7,         result: captured,       label: Captured again}",
            "cc_campaign.yaml: leader_fate.tables.melee.second: each result may appear once",
            id="CC-1 repeated result",
        ),
        pytest.param(
            "        - {min: 5,         result: light_wound,    label: Light wound}",
            "        - {min: 5, max: 6, result: serious_wound2, label: x}\n        - {min: 7, result: light_wound, label: Light wound}",
            "cc_campaign.yaml: leader_fate.tables.other.second: results must be exactly",
            id="CC-1 other second results",
        ),
        pytest.param(
            "  tables:\n    melee:", "  tables:\n    melée:",
            "cc_campaign.yaml: leader_fate.tables: missing melee", id="CC-1 circumstance names",
        ),
        pytest.param(
            "slain:          {label: Slain,          next_battle: gone,",
            "slain:          {label: Slain,          next_battle: commands,",
            "cc_campaign.yaml: leader_status.statuses.slain.next_battle: a slain leader is gone for good (CC-2)",
            id="CC-2 slain is gone",
        ),
        pytest.param(
            "next_battle: carriage,", "next_battle: litter,",
            "cc_campaign.yaml: leader_status.statuses.serious_wound.next_battle: unknown presence 'litter'; "
            "allowed: commands, carriage, misses, gone",
            id="CC-2 presence",
        ),
        pytest.param(
            "    reduced_range: 2 ", "    reduced_range: 4 ",
            "cc_campaign.yaml: leader_status.command.reduced_range: 4 is above the normal range 3",
            id="CC-2 reduced range",
        ),
        pytest.param(
            "faces: [infantry, infantry, cavalry, artillery, flag, sabre]",
            "faces: [infantry, cavalry, artillery, flag, sabre]",
            "cc_campaign.yaml: battle_die.faces: give the symbol of each face 1 to 6: 5 given",
            id="CC-3 five faces",
        ),
        pytest.param(
            "faces: [infantry, infantry, cavalry, artillery, flag, sabre]",
            "faces: [infantry, infantry, cavalry, artillery, flag, eagle]",
            "cc_campaign.yaml: battle_die.faces.[5]: unknown battle die symbol 'eagle'; "
            "allowed: infantry, cavalry, artillery, flag, sabre",
            id="CC-3 unknown symbol",
        ),
        pytest.param(
            "faces: [infantry, infantry, cavalry, artillery, flag, sabre]",
            "faces: [infantry, infantry, cavalry, artillery, flag, flag]",
            "cc_campaign.yaml: battle_die.faces: every symbol must be on some face; missing sabre",
            id="CC-3 missing symbol",
        ),
        pytest.param(
            "- {faces: [flag, flag],  label:", "- {faces: [flag],  label:",
            "cc_campaign.yaml: trophy.combinations.[0].faces: a combination names one symbol per die: 2 expected, 1 given",
            id="CC-3 combination size",
        ),
        pytest.param(
            "captor: cavalry, flag_of: infantry,", "captor: hussars, flag_of: infantry,",
            "cc_campaign.yaml: trophy.combinations.[1].captor: unknown unit type 'hussars'; "
            "allowed: infantry, cavalry, artillery",
            id="CC-3 captor type",
        ),
        pytest.param(
            "unit_types: [infantry, cavalry]", "unit_types: [infantry, artillery]",
            "cc_campaign.yaml: glory.spend.heroic.unit_types: artillery units may not be Heroic (CC-4)",
            id="CC-4 heroic artillery",
        ),
        pytest.param(
            "    loser_banner_share: 0.5", "    loser_banner_share: 1.5",
            "cc_campaign.yaml: glory.award.loser_banner_share: expected a fraction above 0 and at most 1, got 1.5",
            id="CC-4 share",
        ),
        pytest.param(
            "    winner_divisor: 2", "    winner_divisor: 0",
            "cc_campaign.yaml: glory.award.winner_divisor: 0 is out of range 1..20",
            id="CC-4 divisor",
        ),
        pytest.param(
            "flag:      {effect: retreat,", "flag:      {effect: remove_block,",
            "cc_campaign.yaml: glory.stragglers.flag.effect: only a unit symbol says which type loses a block, not 'flag'",
            id="CC-4 stragglers effect",
        ),
        pytest.param(
            "ordenanza:      {cost: 1, theatre: portugal}", "ordenanza:      {cost: 1, theatre: brazil}",
            "cc_campaign.yaml: glory.spend.ordenanza.theatre: unknown theatre 'brazil'; allowed: spain, portugal, other",
            id="CC-4 theatre",
        ),
        pytest.param(
            "rally:          {cost: 1, blocks: 1}", "rally:          {cost: 1, blocks: 1, free: true}",
            "cc_campaign.yaml: glory.spend.rally: unknown free; allowed: blocks, cost",
            id="CC-4 unknown key",
        ),
    ],
)
def test_broken_cc_campaign_yaml_is_refused_with_a_clear_message(old: str, new: str, message: str):
    with pytest.raises(TableError) as err:
        parse_cc_tables(broken_cc(old, new))
    assert str(err.value).startswith(message)


def test_cc1_row_that_no_d6_face_can_reach_is_refused():
    text = broken_cc(
        "        - {min: 5, max: 5, result: moderate_wound, label: Moderate wound}\n"
        "        - {min: 6,         result: light_wound,    label: Light wound}",
        "        - {min: 5, max: 6, result: moderate_wound, label: Moderate wound}\n"
        "        - {min: 7,         result: light_wound,    label: Light wound}",
    )
    with pytest.raises(TableError) as err:
        parse_cc_tables(text)
    assert str(err.value) == (
        "cc_campaign.yaml: leader_fate.tables.melee.second.[4]: row 'light_wound' (7 or more) can never be rolled on 1D6"
    )


def test_not_yaml_at_all_is_a_table_error():
    with pytest.raises(TableError, match=r"^cc_campaign.yaml: not valid YAML"):
        parse_cc_tables("leader_fate: [unclosed")


# --- broken FC files ------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("old", "new", "message"),
    [
        pytest.param(
            "  ratio: 3", "  ratio: 1",
            "field_commander.yaml: overwhelm.ratio: 1 is out of range 2..10", id="FC-1 ratio",
        ),
        pytest.param(
            "  rule: FC-2", "  rule: FC-1",
            "field_commander.yaml: supply.rule: this table implements FC-2, not 'FC-1'", id="FC-2 rule id",
        ),
        pytest.param(
            "    refit: 2 ", "    refit: -2 ",
            "field_commander.yaml: supply.costs.refit: -2 is out of range 0..20", id="FC-2 negative cost",
        ),
        pytest.param(
            "    scout: 2 ", "    scouts: 2 ",
            "field_commander.yaml: supply.costs: missing scout", id="FC-2 missing cost",
        ),
        pytest.param(
            "  per_reroll: 1", "  per_reroll: 0",
            "field_commander.yaml: scouts.per_reroll: 0 is out of range 1..5", id="FC-3 per reroll",
        ),
        pytest.param(
            "ladder: {C: raw, P: raw, L: average, V: veteran, E: elite}",
            "ladder: {C: raw, P: average, L: raw, V: veteran, E: elite}",
            "field_commander.yaml: quality.ladder: 'L' (raw) comes after 'P' (average) but is lower on the RU-7 ladder: "
            "the order runs lowest first",
            id="FC quality order",
        ),
        pytest.param(
            "order: [C, P, L, V, E]", "order: [C, P, L, V, E, E]",
            "field_commander.yaml: quality.order: each letter may appear once: C, P, L, V, E, E", id="FC quality letters",
        ),
        pytest.param(
            "ladder: {C: raw,", "ladder: {C: rookie,",
            "field_commander.yaml: quality.ladder.C: unknown quality 'rookie'; allowed: raw, average, veteran, elite",
            id="FC quality ladder",
        ),
        pytest.param(
            "overwhelm:\n", "overwhelming:\n",
            "field_commander.yaml: top level: missing overwhelm", id="FC sections",
        ),
    ],
)
def test_broken_field_commander_yaml_is_refused_with_a_clear_message(old: str, new: str, message: str):
    with pytest.raises(TableError) as err:
        parse_fc_tables(broken_fc(old, new))
    assert str(err.value).startswith(message)
