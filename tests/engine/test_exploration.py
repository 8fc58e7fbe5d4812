"""MC-6 Phase 3, the exploration test before a battle (bot/engine/battle.py): MC-6.1 and RU-5,
with who may explore from MC-1 (orders), MC-2 (reactions) and RU-2 (scouts).
"""

from __future__ import annotations

import pytest

from bot.engine.battle import exploration_ability, exploration_check, explore, scouting_winner
from bot.engine.dice import ScriptedDice
from bot.engine.errors import InvalidInput
from bot.engine.model import Cell, Order, Reaction

KEY = "t1/p3/force:f1/exploration"


@pytest.mark.parametrize(
    ("territory", "face", "score", "mods"),
    [
        (None, 4, 4, []),
        ("france", 4, 6, [(2, "MC-6.1", "in friendly territory")]),
        ("austria", 4, 3, [(-1, "MC-6.1", "in enemy territory")]),
    ],
)
def test_mc_6_1_explore_order_gives_full_exploration_with_territory_modifiers(make_force, territory, face, score, mods):
    result = explore(make_force(order=Order.EXPLORE), Cell(territory=territory), ScriptedDice([face]), KEY)
    assert result.score == score
    assert [(m.value, m.rule, m.reason) for m in result.roll.modifiers] == mods
    assert result.reason == "full exploration"


@pytest.mark.parametrize(
    ("territory", "face", "score"),
    [(None, 3, 6), ("france", 3, 10), ("austria", 3, 4), ("austria", 1, 0)],
)
def test_mc_1_ru_5_defend_doubles_the_exploration_result_after_modifiers(make_force, territory, face, score):
    result = explore(make_force(order=Order.DEFEND), Cell(territory=territory), ScriptedDice([face]), KEY)
    assert result.score == score
    assert result.roll.multiplier == 2
    assert result.reason == "full exploration, doubled for Defend"


def test_ru_5_a_total_of_zero_scores_nothing(make_force):
    result = explore(make_force(), Cell(territory="austria"), ScriptedDice([1]), KEY)
    assert (result.score, result.roll.result) == (0, "none")


@pytest.mark.parametrize(
    ("force_kwargs", "reason"),
    [
        ({"order": Order.FORCED_MARCH}, "on Forced March, it may explore only with scouts, and has none (MC-6.1)"),
        ({"reaction": Reaction.CONFUSED}, "Confused, it may explore only with scouts, and has none (MC-6.1)"),
        ({"reaction": Reaction.UNSTEADY}, "Unsteady Forces cannot explore (MC-2)"),
        ({"reaction": Reaction.ROUTED}, "Routed Forces cannot explore (MC-2)"),
        ({"reaction": Reaction.UNSTEADY, "scouts": 2}, "Unsteady Forces cannot explore (MC-2)"),
        ({"reaction": Reaction.ROUTED, "scouts": 2}, "Routed Forces cannot explore (MC-2)"),
    ],
)
def test_ru_5_a_force_that_may_not_explore_scores_0_without_rolling(make_force, force_kwargs, reason):
    dice = ScriptedDice([])
    force = make_force(side="france", **force_kwargs)
    result = explore(force, Cell(territory="france"), dice, KEY)
    assert (result.side, result.score, result.roll, result.reason) == ("france", 0, None, reason)
    assert exploration_check(force, Cell()) is None
    assert dice.keys == []


@pytest.mark.parametrize(
    "force_kwargs",
    [{"order": Order.FORCED_MARCH, "scouts": 1}, {"reaction": Reaction.CONFUSED, "scouts": 1}],
    ids=["forced-march", "confused"],
)
def test_ru_2_a_forced_march_or_confused_force_explores_with_its_scouts(make_force, force_kwargs):
    force = make_force(**force_kwargs)
    assert exploration_ability(force).reason == "explores with its scouts (MC-6.1, RU-2)"
    result = explore(force, Cell(territory="france"), ScriptedDice([4]), KEY)
    assert result.score == 6


def test_ru_5_a_confused_defender_with_scouts_still_doubles_its_result(make_force):
    force = make_force(order=Order.DEFEND, reaction=Reaction.CONFUSED, scouts=1)
    assert explore(force, Cell(), ScriptedDice([5]), KEY).score == 10


def test_mc_6_1_exploration_rolls_one_die_under_its_key(make_force):
    dice = ScriptedDice([2])
    explore(make_force(), Cell(), dice, KEY)
    assert dice.keys == [(KEY, 1, 6)]


# --- the scouting contest ------------------------------------------------------------------


def test_ru_5_the_side_with_the_higher_result_wins_the_scouting_contest():
    assert scouting_winner({"france": 7, "austria": 4}) == "france"
    assert scouting_winner({"france": 0, "austria": 1}) == "austria"


@pytest.mark.parametrize("scores", [{"france": 5, "austria": 5}, {"france": 0, "austria": 0}])
def test_ru_5_a_tie_in_the_scouting_contest_gives_it_to_nobody(scores):
    assert scouting_winner(scores) is None


def test_ru_5_a_tie_at_the_top_among_three_sides_gives_nobody():
    assert scouting_winner({"france": 6, "austria": 6, "russia": 2}) is None
    assert scouting_winner({"france": 6, "austria": 3, "russia": 3}) == "france"


def test_ru_5_a_scouting_contest_needs_scores():
    with pytest.raises(InvalidInput, match="A scouting contest needs the scores"):
        scouting_winner({})


def test_ru_5_a_force_that_may_not_explore_loses_to_any_score(make_force):
    routed = explore(make_force("a", side="austria", reaction=Reaction.ROUTED), Cell(), ScriptedDice([]), KEY)
    scout = explore(make_force("f", side="france"), Cell(), ScriptedDice([1]), KEY)
    assert scouting_winner({routed.side: routed.score, scout.side: scout.score}) == "france"
