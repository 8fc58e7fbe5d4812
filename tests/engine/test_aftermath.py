"""MC-7 Phase 4 after the battle (bot/engine/aftermath.py): the wounded check (MC-7.1), the
deserter check (MC-7.2) with the quality ladder (RU-7) and mercenaries (RU-6), rolled per SP (RU-1).
"""

from __future__ import annotations

from fractions import Fraction

import pytest

from bot.engine.aftermath import (
    DeserterPool,
    UnitLosses,
    deserter_check,
    deserter_duty,
    unit_aftermath,
    wounded_check,
)
from bot.engine.dice import ScriptedDice
from bot.engine.errors import InvalidInput
from bot.engine.model import Outcome, Quality, Territory

KEY = "t1/p4/battle:1/unit:u1"


def one(check, face):
    return check.roll(ScriptedDice([face]), "k")


# --- MC-7.1 wounded ------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("territory", "results"),
    [
        (Territory.NEUTRAL, ["dead", "dead", "dead", "returns", "returns", "returns"]),
        (Territory.FRIENDLY, ["dead", "dead", "returns", "returns", "returns", "returns"]),
        (Territory.ENEMY, ["dead", "dead", "dead", "dead", "returns", "returns"]),
    ],
)
def test_mc_7_1_totals_1_to_3_are_dead_and_4_to_6_wounded_who_return(territory, results):
    check = wounded_check(territory)
    assert [one(check, f).result for f in range(1, 7)] == results


@pytest.mark.parametrize(
    ("territory", "mods"),
    [
        (Territory.FRIENDLY, [(1, "MC-7.1", "battle in friendly territory")]),
        (Territory.ENEMY, [(-1, "MC-7.1", "battle in enemy territory")]),
        (Territory.NEUTRAL, []),
    ],
)
def test_mc_7_1_the_battles_territory_modifies_the_wounded_check(territory, mods):
    assert [(m.value, m.rule, m.reason) for m in wounded_check(territory).modifiers] == mods


def test_mc_7_1_a_natural_1_is_always_dead():
    roll = one(wounded_check(Territory.FRIENDLY), 1)
    assert (roll.total, roll.result, roll.natural) == (2, "dead", True)


def test_mc_7_1_enemy_territory_minus_1_with_a_natural_6_still_returns():
    roll = one(wounded_check(Territory.ENEMY), 6)
    assert (roll.total, roll.result, roll.natural) == (5, "returns", True)


def test_mc_7_1_a_natural_6_returns_even_when_modifiers_would_make_it_dead(rules_copy):
    rules_copy.edit("map_campaign.yaml", "{value: -1, reason: battle in enemy territory}",
                    "{value: -4, reason: battle in enemy territory}")
    roll = one(wounded_check(Territory.ENEMY, rules=rules_copy.load()), 6)
    assert (roll.total, roll.result, roll.natural) == (2, "returns", True)
    assert str(roll).endswith("= 2 -> natural 6: wounded, return")


def test_mc_7_1_the_exact_chances_of_returning():
    assert wounded_check(Territory.NEUTRAL).odds()["returns"] == Fraction(1, 2)
    assert wounded_check(Territory.FRIENDLY).odds()["returns"] == Fraction(2, 3)
    assert wounded_check(Territory.ENEMY).odds()["returns"] == Fraction(1, 3)


# --- MC-7.2 deserters, RU-7 quality ------------------------------------------------------------


@pytest.mark.parametrize(
    ("quality", "routed", "mods"),
    [
        (Quality.RAW, False, []),
        (Quality.AVERAGE, False, [(1, "average quality")]),
        (Quality.VETERAN, False, [(2, "veteran")]),
        (Quality.ELITE, False, [(3, "elite")]),
        (Quality.RAW, True, [(-1, "left the battle in rout")]),
        (Quality.ELITE, True, [(3, "elite"), (-1, "left the battle in rout")]),
    ],
)
def test_ru_7_mc_7_2_quality_ladder_and_rout_modify_the_deserter_check(quality, routed, mods):
    check = deserter_check(quality, routed=routed)
    assert [(m.value, m.reason) for m in check.modifiers] == mods
    assert all(m.rule == "MC-7.2" for m in check.modifiers)


@pytest.mark.parametrize(
    ("quality", "routed", "results"),
    [
        (Quality.RAW, False, ["deserted"] * 3 + ["returns"] * 3),
        (Quality.RAW, True, ["deserted"] * 4 + ["returns"] * 2),
        (Quality.AVERAGE, False, ["deserted"] * 2 + ["returns"] * 4),
        (Quality.VETERAN, False, ["deserted"] * 1 + ["returns"] * 5),
        (Quality.ELITE, False, ["deserted"] * 1 + ["returns"] * 5),
    ],
)
def test_mc_7_2_totals_1_to_3_desert_and_4_to_6_return(quality, routed, results):
    check = deserter_check(quality, routed=routed)
    assert [one(check, f).result for f in range(1, 7)] == results


def test_mc_7_2_an_elite_plus_3_with_a_natural_1_still_deserts():
    roll = one(deserter_check(Quality.ELITE, routed=False), 1)
    assert (roll.total, roll.result, roll.natural) == (4, "deserted", True)


def test_mc_7_2_a_natural_6_returns_even_when_modifiers_would_make_it_desert(rules_copy):
    rules_copy.edit("map_campaign.yaml", "routed:  {value: -1,", "routed:  {value: -4,")
    roll = one(deserter_check(Quality.RAW, routed=True, rules=rules_copy.load()), 6)
    assert (roll.total, roll.result, roll.natural) == (2, "returns", True)


def test_mc_7_2_faces_between_the_naturals_are_read_off_the_table():
    roll = one(deserter_check(Quality.AVERAGE, routed=True), 3)
    assert (roll.total, roll.result, roll.natural) == (3, "deserted", False)


# --- MC-7.2 who is checked ---------------------------------------------------------------------

LOSSES = UnitLosses("u1", killed=2, rout=3, other_order=4)


def pools(duty):
    return [(p.sp, p.routed) for p in duty.pools]


@pytest.mark.parametrize("outcome", [Outcome.WON, Outcome.DRAW])
def test_mc_7_2_a_side_that_won_or_drew_checks_only_the_sp_that_left_in_rout(make_unit, outcome):
    duty = deserter_duty(make_unit(sp=12), LOSSES, outcome)
    assert pools(duty) == [(3, True)]
    assert duty.lost_outright == 0


def test_mc_7_2_a_side_that_lost_checks_sp_that_left_in_rout_or_under_another_order(make_unit):
    duty = deserter_duty(make_unit(sp=12), LOSSES, Outcome.LOST)
    assert pools(duty) == [(3, True), (4, False)]


def test_mc_7_2_nobody_is_checked_when_nobody_left_the_battle(make_unit):
    assert deserter_duty(make_unit(sp=12), UnitLosses("u1", killed=5), Outcome.LOST).pools == ()


def test_ru_6_on_a_lost_battle_every_surviving_sp_of_a_mercenary_unit_takes_the_check(make_unit):
    duty = deserter_duty(make_unit(sp=12, mercenary=True), LOSSES, Outcome.LOST, mercenary="check_all")
    # 12 - 2 killed = 10 survivors: 3 in rout (with the -1) and the 7 others
    assert duty.pools == (
        DeserterPool(3, True, "left in rout (mercenary)"),
        DeserterPool(7, False, "mercenary unit on a lost battle (RU-6)"),
    )
    assert duty.lost_outright == 0


def test_ru_6_check_all_is_the_default_mercenary_setting(make_unit, rules):
    assert rules.mc.options["mercenary_desertion"].default == "check_all"
    duty = deserter_duty(make_unit(sp=12, mercenary=True), LOSSES, Outcome.LOST)
    assert sum(p.sp for p in duty.pools) == 10


def test_ru_6_with_lose_all_every_surviving_mercenary_sp_deserts_without_a_roll(make_unit):
    duty = deserter_duty(make_unit(sp=12, mercenary=True), LOSSES, Outcome.LOST, mercenary="lose_all")
    assert duty.pools == ()
    assert duty.lost_outright == 10


@pytest.mark.parametrize("outcome", [Outcome.WON, Outcome.DRAW])
def test_ru_6_mercenaries_on_a_won_or_drawn_battle_are_checked_like_anyone(make_unit, outcome):
    for setting in ("check_all", "lose_all"):
        duty = deserter_duty(make_unit(sp=12, mercenary=True), LOSSES, outcome, mercenary=setting)
        assert pools(duty) == [(3, True)]
        assert duty.lost_outright == 0


def test_ru_6_an_unknown_mercenary_setting_is_refused(make_unit):
    with pytest.raises(InvalidInput, match=r"Unknown mercenary desertion setting 'keep_all': check_all or lose_all \(RU-6\)."):
        deserter_duty(make_unit(), UnitLosses("u1"), Outcome.LOST, mercenary="keep_all")  # type: ignore[arg-type]


def test_a_battle_report_cannot_lose_more_sp_than_the_unit_had(make_unit):
    with pytest.raises(InvalidInput) as info:
        deserter_duty(make_unit(name="1st Line", sp=5), UnitLosses("u1", killed=3, rout=2, other_order=1), Outcome.LOST)
    assert str(info.value) == "1st Line had 5 SP but the report gives 6 SP killed, routed or withdrawn (3 + 2 + 1)."


@pytest.mark.parametrize(("field", "value"), [("killed", -1), ("rout", -2), ("other_order", 1.5)])
def test_a_battle_report_with_a_negative_or_fractional_loss_is_refused(make_unit, field, value):
    losses = UnitLosses("u1", **{field: value})
    with pytest.raises(InvalidInput, match=f"1st Line: SP {field.replace('_', ' ')} must be 0 or more, got {value!r}."):
        deserter_duty(make_unit(name="1st Line"), losses, Outcome.LOST)


# --- a unit's whole aftermath ----------------------------------------------------------------


def test_mc_7_a_units_aftermath_rolls_wounded_then_deserters_and_works_out_its_sp(make_unit):
    unit = make_unit(sp=12, quality=Quality.VETERAN)
    dice = ScriptedDice(
        [
            *(1, 5),  # 2 killed, neutral ground: 1 dead, 1 returns
            *(1, 2, 6),  # 3 in rout, veteran +2 -1: natural 1 deserts, 2 -> 3 deserts, 6 returns
            *(1, 2, 3, 4),  # 4 under another order, veteran +2: natural 1 deserts, the rest return
        ]
    )
    result = unit_aftermath(unit, LOSSES, Outcome.LOST, Territory.NEUTRAL, dice, KEY)
    assert (result.dead, result.returned_wounded) == (1, 1)
    assert (result.deserted, result.returned) == (3, 4)
    assert result.unit.sp == 12 - 2 + 1 - 3
    assert [k for k, _, _ in dice.keys] == [f"{KEY}/wounded", f"{KEY}/deserters/rout", f"{KEY}/deserters/other"]
    assert [len(r.dice) for r in result.rolls] == [2, 3, 4]  # RU-1: one die per SP


def test_mc_7_2_sp_that_are_not_checked_return_to_their_unit(make_unit):
    # a won battle: the 4 SP that left under another order are not checked and come back
    dice = ScriptedDice([6, 6, 6, 6, 6])  # 2 wounded, then the 3 in rout
    result = unit_aftermath(make_unit(sp=12), LOSSES, Outcome.WON, Territory.NEUTRAL, dice, KEY)
    assert result.unit.sp == 12
    assert len(result.deserters) == 1


def test_ru_6_lose_all_mercenaries_leave_without_rolling(make_unit):
    dice = ScriptedDice([1, 1])  # only the 2 killed roll
    unit = make_unit(sp=12, mercenary=True)
    result = unit_aftermath(unit, LOSSES, Outcome.LOST, Territory.NEUTRAL, dice, KEY, mercenary="lose_all")
    assert result.lost_outright == 10
    assert result.deserters == ()
    assert result.unit.sp == 0


def test_mc_7_1_nothing_is_rolled_for_a_unit_that_lost_nothing(make_unit):
    dice = ScriptedDice([])
    result = unit_aftermath(make_unit(sp=6), UnitLosses("u1"), Outcome.LOST, Territory.ENEMY, dice, KEY)
    assert result.rolls == ()
    assert result.unit.sp == 6
