"""BR: the battle report, its validation, its parser and the aftermath plan derived from it."""

from __future__ import annotations

import copy
import dataclasses
from typing import Any

import pytest

from bot.engine.aftermath import UnitLosses
from bot.engine.cc_model import BattleSystem, Circumstance
from bot.engine.dice import ScriptedDice
from bot.engine.errors import InvalidInput
from bot.engine.leaders import roll_leader_fate
from bot.engine.model import Force, Leader, Order, Outcome, Reaction, Square, Unit, UnitType
from bot.engine.reports import (
    BattleReport,
    SideReport,
    parse_report,
    plan_aftermath,
    validate_report,
)
from bot.engine.trophies import roll_trophy

SQ = Square(3, 3)
FRANCE = Force(
    "F1", "I Corps", "france", SQ, Leader("Ney", 2),
    (
        Unit("u1", "1st Line", 4, UnitType.INFANTRY),
        Unit("u2", "2nd Hussars", 3, UnitType.CAVALRY),
        Unit("u3", "Horse Battery", 2, UnitType.ARTILLERY),
    ),
)
FRANCE2 = Force("F2", "Reserve", "france", SQ, Leader("Lannes", 2), (Unit("u4", "Guard", 4, UnitType.INFANTRY),))
AUSTRIA = Force(
    "A1", "Avantgarde", "austria", SQ, Leader("Charles", 3),
    (
        Unit("a1", "Grenzers", 4, UnitType.INFANTRY),
        Unit("a2", "Swiss", 3, UnitType.INFANTRY, mercenary=True),
        Unit("a3", "Jäger", 3, UnitType.INFANTRY, flag=False),
    ),
    reaction=Reaction.CONFUSED,
)
FORCES = (FRANCE, FRANCE2, AUSTRIA)


def cc_report(**changes: Any) -> dict[str, Any]:
    data: dict[str, Any] = {
        "battle": "b1",
        "system": "cc",
        "banners_required": 7,
        "sides": [
            {"side": "france", "outcome": "won", "banners": 7, "units": [{"unit": "u1", "killed": 2}]},
            {
                "side": "austria", "outcome": "lost", "banners": 4,
                "units": [{"unit": "a1", "killed": 4}, {"unit": "a3", "killed": 1, "rout": 1, "other_order": 1}],
                "leader_casualties": [{"leader": "Charles", "fell": "melee"}],
            },
        ],
        "melee_eliminations": [{"unit": "a1", "by": "u2", "ordered": True, "took_ground": True}],
        "lost_block": ["u2"],
    }
    data.update(changes)
    return data


def side(data: dict[str, Any], i: int) -> dict[str, Any]:
    return data["sides"][i]


def invalid(data: dict[str, Any], forces: tuple[Force, ...] = FORCES) -> str:
    with pytest.raises(InvalidInput) as err:
        validate_report(parse_report(data), forces)
    return str(err.value)


def bad_parse(data: Any) -> str:
    with pytest.raises(InvalidInput) as err:
        parse_report(data)
    return str(err.value)


# --- the model and the parser --------------------------------------------------------------


def test_br_parser_builds_the_report_model():
    r = parse_report(cc_report())
    assert r.system is BattleSystem.CC and r.banners_required == 7
    assert r.side("france") == SideReport("france", Outcome.WON, units=(UnitLosses("u1", 2),), banners=7)
    austria = r.side("austria")
    assert austria.units[1] == UnitLosses("a3", 1, 1, 1)
    assert austria.leader_casualties[0].circumstance is Circumstance.MELEE
    assert r.melee_eliminations[0].by == "u2" and r.melee_eliminations[0].ordered
    assert r.lost_block == ("u2",)


def test_br_parser_refuses_an_unknown_field_naming_its_path():
    data = cc_report()
    side(data, 1)["units"][0]["kiled"] = 2
    assert bad_parse(data) == (
        "sides[1].units[0]: unknown field 'kiled'; allowed: dissolved, killed, other_order, rout, unit"
    )


def test_br_parser_refuses_a_bad_number_naming_its_path():
    data = cc_report()
    side(data, 1)["units"][1]["rout"] = "two"
    assert bad_parse(data) == "sides[1].units[1].rout: expected a whole number, 0 or more; got 'two'"


@pytest.mark.parametrize(
    ("mutate", "message"),
    [
        (lambda d: side(d, 0).update(outcome="wins"), "sides[0].outcome: Unknown outcome 'wins': use one of won, lost, draw."),
        (lambda d: d.update(system="risk"),
         "system: Unknown battle system 'risk': use one of cc, epic, murat, miniatures."),
        (lambda d: side(d, 1)["leader_casualties"][0].update(fell="cannon"),
         "sides[1].leader_casualties[0].fell: Unknown way a leader fell 'cannon': use one of melee, other."),
        (lambda d: d["melee_eliminations"][0].update(ordered="yes"),
         "melee_eliminations[0].ordered: expected true or false, got 'yes'"),
        (lambda d: d.pop("battle"), "report: missing 'battle'"),
        (lambda d: d.update(sides={"france": {}}), "sides: expected a list, got {'france': {}}"),
        (lambda d: side(d, 0).pop("side"), "sides[0]: missing 'side'"),
        (lambda d: d.update(banners_required=-7), "banners_required: expected a whole number, 0 or more; got -7"),
    ],
)
def test_br_parser_errors_name_the_field_path(mutate, message):
    data = cc_report()
    mutate(data)
    assert bad_parse(data) == message


def test_br_parser_refuses_what_is_not_a_mapping():
    assert bad_parse(["b1"]) == "report: expected a mapping of fields, got ['b1']"


# --- validation ----------------------------------------------------------------------------


def test_br_valid_report_resolves_every_units_losses():
    v = validate_report(parse_report(cc_report()), FORCES)
    assert v.losses["u1"] == UnitLosses("u1", 2)
    assert v.losses["u4"] == UnitLosses("u4")  # Forces present by default: all of the side's
    assert v.side_of_unit("a2") == "austria" and v.enemy_of("france") == "austria"


def test_br_losses_above_the_sp_present_are_refused():
    data = cc_report()
    side(data, 0)["units"] = [{"unit": "u2", "killed": 2, "rout": 2}]
    assert invalid(data) == "2nd Hussars had 3 SP but the report gives 4 SP killed, routed or withdrawn (2 + 2 + 0)."


def test_br_a_unit_not_in_the_battle_is_refused():
    data = cc_report()
    side(data, 0)["units"] = [{"unit": "u9", "killed": 1}]
    assert invalid(data) == "Battle 'b1': unit 'u9' is not in the battle; france's units are u1, u2, u3, u4."


def test_br_a_unit_listed_under_the_wrong_side_is_refused():
    data = cc_report()
    side(data, 0)["units"] = [{"unit": "a2", "killed": 1}]
    assert invalid(data) == "Battle 'b1': unit 'a2' is listed under france but fights for austria."


def test_br_a_unit_listed_twice_is_refused():
    data = cc_report()
    side(data, 0)["units"] = [{"unit": "u1", "killed": 1}, {"unit": "u1", "rout": 1}]
    assert invalid(data) == "Battle 'b1': unit 'u1' is listed twice under france."


def test_br_two_winners_are_refused():
    data = cc_report()
    side(data, 1).update(outcome="won", banners=6)
    assert invalid(data) == (
        "Battle 'b1': both 'france' and 'austria' are reported as won: one side wins and the other loses, or both draw."
    )


@pytest.mark.parametrize(
    ("a", "b", "message"),
    [
        ("won", "draw", "Battle 'b1': 'france' won but 'austria' draw: one side wins and the other loses, or both draw."),
        ("lost", "lost", "Battle 'b1': both 'france' and 'austria' are reported as lost: one side wins and the other loses, or both draw."),
        ("draw", "lost", "Battle 'b1': 'france' draw but 'austria' lost: one side wins and the other loses, or both draw."),
    ],
)
def test_br_inconsistent_outcomes_are_refused(a, b, message):
    data = cc_report(system="miniatures", banners_required=None, melee_eliminations=[])
    side(data, 0).update(outcome=a, banners=None)
    side(data, 1).update(outcome=b, banners=None)
    assert invalid(data) == message


def test_br_report_needs_exactly_two_sides():
    data = cc_report()
    data["sides"] = data["sides"][:1]
    assert invalid(data) == "Battle 'b1': a report gives exactly two sides, got 1 (france)."
    data = cc_report()
    side(data, 1)["side"] = "france"
    assert invalid(data) == "Battle 'b1': side 'france' is listed twice."


def test_br_a_side_or_force_not_in_the_battle_is_refused():
    data = cc_report()
    side(data, 1)["side"] = "russia"
    assert invalid(data) == "Battle 'b1': side 'russia' has no Force in this battle; the sides are austria, france."
    data = cc_report()
    side(data, 0)["forces"] = ["F1", "X9"]
    assert invalid(data) == "Battle 'b1': Force 'X9' is not in this battle; its Forces are F1, F2, A1."
    data = cc_report()
    side(data, 0)["forces"] = ["F1", "A1"]
    assert invalid(data) == "Battle 'b1': Force 'A1' fights for 'austria', not 'france'."
    data = cc_report()
    side(data, 0)["forces"] = ["F1"]
    assert invalid(data) == "Battle 'b1': Force 'F2' (france) fought in this battle but the report leaves it out."


@pytest.mark.parametrize(
    ("mutate", "message"),
    [
        (lambda d: side(d, 0).update(banners=8),
         "Battle 'b1': france won 8 Victory Banners but 7 win the battle: a side stops at 7."),
        (lambda d: side(d, 1).update(banners=7),
         "Battle 'b1': both sides reached the 7 Victory Banners required: only the winner can."),
        (lambda d: [side(d, 0).update(outcome="lost", banners=7), side(d, 1).update(outcome="won", banners=6)],
         "Battle 'b1': france reached the 7 Victory Banners required but is reported as lost: a side that reaches them wins."),
        (lambda d: d.pop("banners_required"),
         "Battle 'b1': a C&C Napoleonics battle reports the Victory Banners required to win."),
        (lambda d: side(d, 1).pop("banners"),
         "Battle 'b1': a C&C Napoleonics battle reports the Victory Banners austria won."),
        (lambda d: d.update(banners_required=0),
         "Battle 'b1': Victory Banners required must be 1 or more, got 0."),
        (lambda d: d.update(system="murat"),
         "Battle 'b1': a Murat battle has no Victory Banners; leave the banners out."),
    ],
)
def test_br_banners_above_what_is_possible_are_refused(mutate, message):
    data = cc_report()
    mutate(data)
    assert invalid(data) == message


def test_br_a_winner_below_the_banners_required_is_allowed():
    data = cc_report()
    side(data, 0)["banners"] = 5
    assert validate_report(parse_report(data), FORCES).outcome("france") is Outcome.WON


def test_br_leader_casualty_must_lead_a_force_of_that_side():
    data = cc_report()
    side(data, 1)["leader_casualties"] = [{"leader": "Ney", "fell": "other"}]
    assert invalid(data) == "Battle 'b1': leader 'Ney' does not lead a Force of austria here; its leaders are Charles."


def test_br_a_leader_both_captured_and_a_casualty_is_refused():
    data = cc_report()
    side(data, 0)["leaders_captured"] = ["Charles"]
    assert invalid(data) == (
        "Battle 'b1': leader 'Charles' is reported both captured and a casualty: a casualty's capture comes from "
        "his fate roll (CC-1)."
    )


def test_br_captured_leader_must_be_an_enemy_leader_here():
    data = cc_report()
    side(data, 0)["leaders_captured"] = ["Lannes"]
    assert invalid(data) == "Battle 'b1': france captured 'Lannes', who is not an enemy leader here; they are Charles."


def test_br_melee_elimination_between_units_of_one_side_is_refused():
    data = cc_report(melee_eliminations=[{"unit": "u1", "by": "u2"}])
    assert invalid(data) == "Battle 'b1': 'u2' and 'u1' fight on the same side: a melee is against the enemy."


def test_br_unit_eliminated_in_melee_must_have_lost_all_its_sp():
    data = cc_report()
    side(data, 1)["units"][0]["killed"] = 3
    assert invalid(data) == (
        "Battle 'b1': Grenzers ('a1') is reported eliminated in melee but its losses add up to 3 of its 4 SP: "
        "report all 4 SP."
    )


def test_br_melee_elimination_of_a_unit_not_in_the_battle_is_refused():
    data = cc_report(melee_eliminations=[{"unit": "z1", "by": "u2"}])
    assert invalid(data) == (
        "Battle 'b1': unit eliminated in melee 'z1' is not in the battle; the units are u1, u2, u3, u4, a1, a2, a3."
    )


def test_br_lost_block_of_a_unit_not_in_the_battle_is_refused():
    data = cc_report(lost_block=["u1", "zz"])
    assert invalid(data).startswith("Battle 'b1': unit that lost a block 'zz' is not in the battle")


def test_br_validation_works_on_a_report_built_in_code():
    report = BattleReport(
        "b2", BattleSystem.MINIATURES,
        (SideReport("france", Outcome.DRAW), SideReport("austria", Outcome.DRAW)),
    )
    v = validate_report(report, FORCES)
    assert all(ul == UnitLosses(ul.unit_id) for ul in v.losses.values())


def test_br_murat_dissolved_unit_leaves_in_rout():
    data = {
        "battle": "m1", "system": "murat",
        "sides": [
            {"side": "france", "outcome": "won"},
            {"side": "austria", "outcome": "lost", "units": [{"unit": "a1", "killed": 1, "dissolved": True}]},
        ],
    }
    v = validate_report(parse_report(data), FORCES)
    assert v.losses["a1"] == UnitLosses("a1", killed=1, rout=3, other_order=0)


# --- the aftermath plan --------------------------------------------------------------------


def plan(data: dict[str, Any] | None = None, forces: tuple[Force, ...] = FORCES, **kw: Any):
    return plan_aftermath(validate_report(parse_report(data or cc_report()), forces), **kw)


def test_br_plan_wounded_checks_for_every_sp_killed():
    p = plan()
    assert [(w.unit_id, w.sp) for w in p.wounded] == [("u1", 2), ("a1", 4), ("a3", 1)]


def test_br_plan_deserter_checks_per_side_with_deserter_duty():
    p = plan()
    assert p.deserters_for("france") == ()
    austria = {d.unit_id: d.duty for d in p.deserters_for("austria")}
    assert set(austria) == {"a2", "a3"}
    assert [(pool.sp, pool.routed) for pool in austria["a3"].pools] == [(1, True), (1, False)]
    assert [pool.reason for pool in austria["a2"].pools] == ["mercenary unit on a lost battle (RU-6)"]
    lose_all = {d.unit_id: d.duty for d in plan(mercenary="lose_all").deserters}
    assert lose_all["a2"].lost_outright == 3


def test_br_winner_checks_only_sp_in_rout():
    data = cc_report()
    side(data, 0)["units"] = [{"unit": "u1", "rout": 1, "other_order": 2}]
    p = plan(data)
    [due] = p.deserters_for("france")
    assert [(pool.sp, pool.routed) for pool in due.duty.pools] == [(1, True)]


def test_br_plan_trophy_attempts_with_eligibility():
    [attempt] = plan().trophy_attempts
    assert (attempt.side, attempt.captor_id, attempt.victim_id) == ("france", "u2", "a1")
    assert attempt.eligibility.eligible
    data = cc_report(melee_eliminations=[{"unit": "a1", "by": "u3"}])
    [attempt] = plan(data).trophy_attempts
    assert attempt.eligibility.reasons[0] == "Horse Battery is artillery: artillery never takes a trophy (CC-3)."


def test_br_plan_leader_fate_rolls_due():
    [due] = plan().leader_fates
    assert (due.side, due.force_id, due.leader, due.circumstance) == ("austria", "A1", "Charles", Circumstance.MELEE)


def test_br_plan_heroic_status_lost_for_units_that_lost_a_block():
    p = plan(heroic_units={"u2", "u3", "u1"})
    assert p.lost_block == ("u1", "u2", "a1", "a3")  # listed, or with SP killed
    assert p.heroic_lost == ("u1", "u2")


def test_br_plan_reactions_for_the_beaten_side():
    [r] = plan().reactions
    assert (r.force_id, r.before, r.after) == ("A1", Reaction.CONFUSED, Reaction.UNSTEADY)


def test_br_plan_which_forces_must_retreat():
    assert plan().must_retreat == ("A1",)
    draw = cc_report(system="miniatures", banners_required=None, melee_eliminations=[])
    for s in draw["sides"]:
        s.update(outcome="draw", banners=None)
    assert plan(draw).must_retreat == ("F1", "F2", "A1")
    assert plan(draw, holds_stronghold={"austria"}).must_retreat == ("F1", "F2")


def test_br_plan_draw_with_both_sides_defending_moves_nobody():
    forces = tuple(dataclasses.replace(f, order=Order.DEFEND) for f in FORCES)
    draw = cc_report(system="miniatures", banners_required=None, melee_eliminations=[])
    for s in draw["sides"]:
        s.update(outcome="draw", banners=None)
    assert plan(draw, forces).must_retreat == ()


def test_br_plan_glory_awards_with_the_worked_example_7_to_4():
    p = plan()
    awards = {a.side: a.total for a in p.glory_awards()}
    assert awards == {"france": 2, "austria": 1}


def test_br_plan_glory_adds_trophies_taken_and_leaders_captured_by_fate():
    p = plan()
    trophy = roll_trophy(FRANCE.units[1], AUSTRIA.units[0], ScriptedDice([5, 6]), "k", ordered=True, took_ground=True)
    fate = roll_leader_fate("Charles", Circumstance.MELEE, ScriptedDice([3, 1]), "k")
    awards = {a.side: a.total for a in p.glory_awards(trophies=[trophy], fates=[fate])}
    assert awards == {"france": 2 + 1 + 1, "austria": 1}


def test_br_plan_glory_counts_leaders_captured_on_the_table():
    data = cc_report()
    side(data, 1)["leader_casualties"] = []
    side(data, 1)["leaders_captured"] = ["Lannes"]
    awards = {a.side: a.total for a in plan(data).glory_awards()}
    assert awards == {"france": 2, "austria": 2}


def test_br_plan_glory_refuses_rolls_from_another_battle():
    p = plan()
    stray = roll_leader_fate("Ney", Circumstance.OTHER, ScriptedDice([1]), "k")
    with pytest.raises(InvalidInput, match="Leader 'Ney' is not a casualty of battle 'b1'"):
        p.glory_awards(fates=[stray])


def test_br_no_glory_without_victory_banners():
    data = {"battle": "m1", "system": "murat", "sides": [{"side": "france", "outcome": "won"}, {"side": "austria", "outcome": "lost"}]}
    assert plan(data).glory == ()
    assert plan(data).glory_awards() == ()


def test_br_epic_napoleonics_reports_final_banner_totals_like_cc():
    p = plan(cc_report(system="epic"))
    assert {a.side: a.total for a in p.glory_awards()} == {"france": 2, "austria": 1}


def test_br_report_is_not_changed_by_the_plan():
    data = cc_report()
    before = copy.deepcopy(data)
    plan(data)
    assert data == before
