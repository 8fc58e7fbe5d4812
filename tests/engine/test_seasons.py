"""MC-10 phases 0, 6, 7 and 8 (bot/engine/seasons.py): weather, time, reinforcements and random
events, from the engine's own house-rule tables (RU-10).
"""

from __future__ import annotations

import datetime as dt
import re
from fractions import Fraction

import pytest

from bot.engine.dice import ScriptedDice
from bot.engine.errors import InvalidInput
from bot.engine.model import Cell, Climate, Season
from bot.engine.movement import movement_check
from bot.engine.seasons import (
    HOUSE_RULE,
    Reinforcement,
    due_reinforcements,
    event_check,
    roll_event,
    roll_weather,
    season_of,
    turn_date,
    weather_check,
)

START = dt.date(1805, 9, 25)


# --- phase 6: time ------------------------------------------------------------------------


@pytest.mark.parametrize(("turn", "date"), [(1, dt.date(1805, 9, 25)), (2, dt.date(1805, 10, 2)), (15, dt.date(1806, 1, 1))])
def test_mc_10_ru_10_one_turn_is_one_week(turn, date):
    assert turn_date(START, turn) == date


def test_mc_10_turns_are_numbered_from_1():
    with pytest.raises(InvalidInput, match=re.escape("Turns are numbered from 1, got 0.")):
        turn_date(START, 0)


@pytest.mark.parametrize(
    ("month", "season"),
    [(12, Season.WINTER), (1, Season.WINTER), (2, Season.WINTER), (3, Season.SPRING), (5, Season.SPRING),
     (6, Season.SUMMER), (8, Season.SUMMER), (9, Season.AUTUMN), (11, Season.AUTUMN)],
)
def test_ru_10_each_month_belongs_to_a_season(month, season):
    assert season_of(dt.date(1805, month, 1)) is season


def test_ru_10_the_turn_length_is_a_yaml_edit(rules_copy):
    rules_copy.edit("calendar.yaml", "turn_days: 7", "turn_days: 3")
    assert turn_date(START, 3, rules=rules_copy.load()) == dt.date(1805, 10, 1)


# --- phase 0: weather ---------------------------------------------------------------------


@pytest.mark.parametrize(
    ("face", "kind", "movement", "wind"),
    [(1, "rain", -1, "none"), (3, "overcast", 0, "none"), (6, "fair", 0, "favourable")],
)
def test_mc_10_ru_10_the_weather_is_read_off_the_climate_and_season_row(face, kind, movement, wind):
    result = roll_weather(Climate.TEMPERATE, Season.SPRING, ScriptedDice([face]), "t1/p0/weather")
    assert result.roll.result == kind
    assert (result.kind.movement, result.kind.wind) == (movement, wind)


def test_ru_10_the_weather_roll_is_labelled_a_house_rule():
    roll = weather_check(Climate.CONTINENTAL, Season.WINTER).roll(ScriptedDice([1]), "k")
    assert roll.rule == HOUSE_RULE == "RU-10"
    assert str(roll) == "Weather (house rule) (RU-10) for continental, winter: 1d6 [1] = 1 -> Snow"


def test_ru_10_weather_odds_merge_faces_that_give_the_same_weather():
    odds = weather_check(Climate.CONTINENTAL, Season.WINTER).odds()
    assert odds == {"snow": Fraction(1, 2), "fog": Fraction(1, 6), "overcast": Fraction(1, 6), "fair": Fraction(1, 6)}


def test_mc_10_the_weathers_movement_modifier_feeds_the_movement_roll(make_force):
    weather = roll_weather(Climate.TEMPERATE, Season.WINTER, ScriptedDice([1]), "t1/p0/weather").kind
    check = movement_check(make_force(), Cell(), weather=weather.movement, weather_label=weather.label)
    assert [(m.value, m.rule, m.reason) for m in check.modifiers] == [(-2, "MC-10", "weather: Snow")]


# --- phase 7: reinforcements ---------------------------------------------------------------


def test_mc_10_reinforcements_due_this_turn_or_earlier_arrive():
    schedule = [
        Reinforcement(2, "france", "guard", "A1"),
        Reinforcement(3, "austria", "iv", "J10"),
        Reinforcement(5, "france", "cav", "B1"),
    ]
    assert [r.force_id for r in due_reinforcements(schedule, 3)] == ["guard", "iv"]
    assert due_reinforcements(schedule, 1) == ()


# --- phase 8: random events ---------------------------------------------------------------


@pytest.mark.parametrize(
    ("faces", "result", "effect"),
    [
        ((1, 1), "epidemic", {"sp_loss": 2}),
        ((1, 2), "bad_roads", {"movement": -1}),
        ((3, 4), "quiet", {}),
        ((4, 5), "local_guides", {"scouts": 1}),
        ((6, 6), "good_roads", {"movement": 1}),
    ],
)
def test_mc_10_ru_10_random_events_are_rolled_on_2d6(faces, result, effect):
    event = roll_event(ScriptedDice(faces), "t1/p8/side:france/event", subject="France")
    assert (event.roll.result, event.effect) == (result, effect)
    assert event.roll.dice == faces
    assert event.roll.subject == "France"


def test_ru_10_random_event_totals_follow_the_2d6_triangle():
    odds = event_check().odds()
    assert odds["quiet"] == Fraction(16, 36)
    assert odds["epidemic"] == odds["good_roads"] == Fraction(1, 36)
    assert sum(odds.values()) == 1
