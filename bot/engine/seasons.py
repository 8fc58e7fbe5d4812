"""MC-10 phases 0, 6, 7 and 8: weather, time, reinforcements and random events.

The source refers these to a rulebook it does not include, so the tables are the engine's own
house rules (RU-10), in ``rules/weather.yaml``, ``rules/calendar.yaml`` and ``rules/events.yaml``;
a scenario may replace them. The bot labels them as house rules.
"""

from __future__ import annotations

import datetime as dt
from collections.abc import Iterable, Mapping
from dataclasses import dataclass

from .camps import NO_CAMPS, Camps
from .dice import DiceSource
from .errors import InvalidInput
from .model import Climate, Season
from .rolls import BandTable, Check, Roll
from .tables import RuleBook, WeatherKind, default_rulebook
from .text import Msg

HOUSE_RULE = "RU-10"


def turn_date(start: dt.date, turn: int, *, rules: RuleBook | None = None) -> dt.date:
    """The date of a turn: one turn is one week by default (RU-10 calendar)."""
    if turn < 1:
        raise InvalidInput("Turns are numbered from 1, got {turn!r}.", turn=turn)
    days = (rules or default_rulebook()).calendar.turn_days
    return start + dt.timedelta(days=days * (turn - 1))


def season_of(date: dt.date, *, rules: RuleBook | None = None) -> Season:
    return (rules or default_rulebook()).calendar.season_of_month[date.month]


def weather_check(climate: Climate, season: Season, *, rules: RuleBook | None = None) -> Check:
    """Phase 0 (house rule RU-10): 1D6 read straight off the climate and season's row."""
    w = (rules or default_rulebook()).weather
    row = w.table[(climate, season)]
    labels = {k: v.label for k, v in w.kinds.items()}
    return Check(w.rule, Msg("{name} (house rule)", name=w.name), (), BandTable.by_face(row, labels),
                 subject=Msg("{climate}, {season}", climate=climate.value, season=season.value))


@dataclass(frozen=True)
class WeatherResult:
    roll: Roll
    kind: WeatherKind


def roll_weather(climate: Climate, season: Season, dice: DiceSource, key: str, *, rules: RuleBook | None = None) -> WeatherResult:
    rb = rules or default_rulebook()
    roll = weather_check(climate, season, rules=rb).roll(dice, key)
    return WeatherResult(roll, rb.weather.kinds[roll.result])


@dataclass(frozen=True)
class Reinforcement:
    """A scheduled arrival (from the scenario): a Force id, its side, the turn and the square name."""

    turn: int
    side: str
    force_id: str
    square: str


def due_reinforcements(schedule: Iterable[Reinforcement], turn: int) -> tuple[Reinforcement, ...]:
    """Phase 7: every arrival scheduled for ``turn`` or earlier and not yet placed is due;
    :func:`reinforcement_arrivals` says which of them can arrive (house rule RU-10)."""
    return tuple(r for r in schedule if r.turn <= turn)


@dataclass(frozen=True)
class Arrivals:
    arriving: tuple[Reinforcement, ...]
    waiting: tuple[Reinforcement, ...]
    """Due, but an enemy Force (of another camp) stands on the square: they try again next turn."""


def reinforcement_arrivals(schedule: Iterable[Reinforcement], turn: int,
                           occupied: Mapping[str, Iterable[str]], *, camps: Camps = NO_CAMPS) -> Arrivals:
    """Phase 7 (house rule RU-10): the due reinforcements (:func:`due_reinforcements`), in schedule
    order, arrive on their square unless an enemy Force stands there (``occupied``: square name ->
    sides with a Force on it); those wait for a later turn. An enemy is a side of another of
    ``camps`` (RU-19, default every side its own camp): an ally's Force does not block an arrival. A
    Force that arrives occupies its square for the ones after it, so two enemies never arrive on one
    square together."""
    present: dict[str, set[str]] = {sq: set(sides) for sq, sides in occupied.items()}
    arriving: list[Reinforcement] = []
    waiting: list[Reinforcement] = []
    for r in due_reinforcements(schedule, turn):
        here = present.setdefault(r.square, set())
        if any(camps.hostile(s, r.side) for s in here):
            waiting.append(r)
        else:
            here.add(r.side)
            arriving.append(r)
    return Arrivals(tuple(arriving), tuple(waiting))


def event_check(*, rules: RuleBook | None = None) -> Check:
    ev = (rules or default_rulebook()).events
    return Check(ev.rule, f"{ev.name} (house rule)", (), ev.bands, dice=ev.dice)


@dataclass(frozen=True)
class EventResult:
    roll: Roll
    effect: dict[str, int]


def roll_event(dice: DiceSource, key: str, *, subject: str = "", rules: RuleBook | None = None) -> EventResult:
    rb = rules or default_rulebook()
    check = event_check(rules=rb)
    roll = Check(check.rule, check.name, (), check.table, dice=check.dice, subject=subject).roll(dice, key)
    return EventResult(roll, dict(rb.events.effects.get(roll.result, {})))
