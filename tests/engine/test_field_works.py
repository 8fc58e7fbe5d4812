"""RU-21 field works and the MC-6.2 General Retreat modifiers, as the battle brief states them."""

from __future__ import annotations

import pytest

from bot.engine.battle import field_works, general_retreat_brief
from bot.engine.model import Force, Leader, Order, Square, Unit
from bot.engine.tables import TableError

E4 = Square.parse("E4")


def force(order: Order, square: Square = E4, sps: tuple[int, ...] = (12, 2)) -> Force:
    units = tuple(Unit(f"u{i}", f"Unit {i}", sp) for i, sp in enumerate(sps))
    return Force("mack", "Army of Mack", "au", square, Leader("Mack", 1), units, order)


def test_ru_21_a_force_holding_defend_in_the_battle_square_may_have_field_works_worth_1_per_sp():
    works = field_works(force(Order.DEFEND), E4)
    assert works is not None and works.points == 14 and works.force == "mack"
    assert works.text == ("Army of Mack holds the Defend order: field works worth up to 14 points (1 per SP, RU-21); "
                          "lost when it moves")


@pytest.mark.parametrize("order", [Order.EXPLORE, Order.FORCED_MARCH])
def test_ru_21_no_field_works_without_the_defend_order(order):
    assert field_works(force(order), E4) is None


def test_ru_21_field_works_are_lost_when_the_force_moves():
    assert field_works(force(Order.DEFEND, Square.parse("F4")), E4) is None


def test_ru_21_points_per_sp_come_from_the_rules_table(rules_copy):
    rules_copy.edit("map_campaign.yaml", "points_per_sp: 1", "points_per_sp: 2")
    works = field_works(force(Order.DEFEND), E4, rules=rules_copy.load())
    assert works is not None and works.points == 28 and "(2 per SP, RU-21)" in works.text


def test_ru_21_the_field_works_table_names_its_rule(rules_copy):
    rules_copy.edit("map_campaign.yaml", "  rule: RU-21\n", "  rule: RU-22\n")
    with pytest.raises(TableError, match=r"field_works\.rule: this table implements RU-21"):
        rules_copy.load()


def test_mc_6_2_the_brief_gives_the_general_retreat_modifiers_hour_by_hour():
    assert general_retreat_brief() == (
        "General Retreat (MC-6.2): the Command test to give or withdraw it takes -3 first hour of the battle (MC-6.2), "
        "-2 second hour of the battle (MC-6.2), -1 third hour of the battle (MC-6.2); a result of 0 is confusion, and "
        "a withdrawn order stands again"
    )
