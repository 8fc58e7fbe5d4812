"""Load and validate the rules tables in ``rules/*.yaml``.

This module is the engine's one edge with the file system: it reads YAML with ``yaml.safe_load``
and turns it into frozen, validated values. Every problem raises :class:`TableError` naming the
file, the path inside it, what was found and what is allowed. The engine fixes the *names* of
conditions and results (code depends on them); the numbers, bands and wording are data.
"""

from __future__ import annotations

import os
import re
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, replace
from fractions import Fraction
from functools import cache
from pathlib import Path
from typing import Any

import yaml

from .errors import TableError
from .model import Climate, Season, Terrain
from .rolls import Band, BandTable, Modifier, Natural
from .text import Msg

RULES_DIR_ENV = "ADC_RULES_DIR"


def rules_dir() -> Path:
    """``rules/`` beside the package, or ``$ADC_RULES_DIR``."""
    env = os.environ.get(RULES_DIR_ENV)
    return Path(env) if env else Path(__file__).resolve().parents[2] / "rules"


LABEL_MAX = 200
"""Characters of a label, a reason or a name in a table (a scenario's own tables are uploads)."""


class TableProblem(TableError):
    """A value of a table refused: where it is (``path`` inside ``source``) and what is wrong (``what``, a
    template: a scenario that carries its own tables names the field in its own terms)."""

    def __init__(self, source: str, path: str, what: Msg) -> None:
        super().__init__("{source}: {path}: {what}", source=source, path=path or Msg("top level"), what=what)
        self.path = path
        self.what = what


class Node:
    """A value read from YAML with its location, for precise error messages."""

    __slots__ = ("path", "source", "value")

    def __init__(self, value: Any, path: str, source: str) -> None:
        self.value, self.path, self.source = value, path, source

    def fail(self, what: str, /, **params: Any) -> TableProblem:
        """The refusal of this value: ``what`` is a template filled with ``params``."""
        return TableProblem(self.source, self.path, what if isinstance(what, Msg) and not params
                            else Msg(what, **params))  # i18n: passes a template on

    def _child(self, value: Any, part: str) -> Node:
        return Node(value, f"{self.path}.{part}" if self.path else part, self.source)

    def mapping(self) -> dict[Any, Any]:
        if not isinstance(self.value, dict):
            raise self.fail("expected a mapping, got {kind}", kind=_kind(self.value))
        return self.value

    def key(self, name: str) -> Node:
        data = self.mapping()
        if name not in data:
            raise self.fail("missing {name!r}", name=name)
        return self._child(data[name], str(name))

    def opt(self, name: str, default: Any = None) -> Node:
        data = self.mapping()
        return self._child(data.get(name, default), str(name))

    def items(self) -> Iterable[tuple[Any, Node]]:
        for k, v in self.mapping().items():
            yield k, self._child(v, str(k))

    def list(self) -> list[Node]:
        if not isinstance(self.value, list):
            raise self.fail("expected a list, got {kind}", kind=_kind(self.value))
        return [self._child(v, f"[{i}]") for i, v in enumerate(self.value)]

    def int(self, low: int | None = None, high: int | None = None) -> int:
        if isinstance(self.value, bool) or not isinstance(self.value, int):
            raise self.fail("expected a whole number, got {value!r}", value=_shown(self.value))
        if (low is not None and self.value < low) or (high is not None and self.value > high):
            raise self.fail("{value} is out of range {low}..{high}", value=self.value, low=str(low), high=str(high))
        return self.value

    def str(self) -> str:
        if not isinstance(self.value, str) or not self.value.strip():
            raise self.fail("expected text, got {value!r}", value=_shown(self.value))
        if len(self.value) > LABEL_MAX:
            raise self.fail("at most {limit} characters, got {n}", limit=LABEL_MAX, n=len(self.value))
        return self.value

    def keys_exactly(self, expected: Iterable[str]) -> None:
        want, got = set(expected), {str(k) for k in self.mapping()}
        if missing := sorted(want - got):
            raise self.fail("missing {names}", names=", ".join(missing))
        self.keys_within(want)

    def keys_within(self, allowed: Iterable[str]) -> None:
        """No key but ``allowed`` (a typo would otherwise be ignored)."""
        want = set(allowed)
        if extra := sorted({str(k) for k in self.mapping()} - want):
            raise self.fail("unknown {extra}; allowed: {allowed}", extra=", ".join(_shown(e) for e in extra),
                            allowed=", ".join(sorted(want)))


def _kind(value: Any) -> str:
    return "nothing" if value is None else type(value).__name__


def _shown(value: Any) -> Any:
    """A value short enough to quote in a message (text clipped, a list or mapping by its kind)."""
    if isinstance(value, str):
        return value if len(value) <= 40 else value[:40] + "…"
    return value if value is None or isinstance(value, int | float) else _kind(value)


def read_yaml(path: Path) -> Node:
    try:
        text = path.read_text(encoding="utf-8")
    except OSError as exc:
        raise TableError(f"Cannot read rules table {path}: {exc.strerror or exc}") from exc
    return parse_yaml(text, path.name)


def parse_yaml(text: str, source: str) -> Node:
    try:
        data = yaml.safe_load(text)
    except yaml.YAMLError as exc:
        raise TableError(f"{source}: not valid YAML: {exc}") from exc
    node = Node(data, "", source)
    node.mapping()
    version = node.opt("version", 1).int(1, 1)
    del version
    return node


# --- building blocks ------------------------------------------------------------------------


def read_modifier(node: Node, rule: str) -> Modifier:
    node.keys_exactly({"value", "reason"} | ({"rule"} & set(node.mapping())))
    return Modifier(node.key("value").int(-20, 20), node.opt("rule", rule).str(), node.key("reason").str())


def read_modifiers(node: Node, rule: str, names: Iterable[str]) -> dict[str, Modifier]:
    node.keys_exactly(names)
    return {str(k): read_modifier(v, rule) for k, v in node.items()}


def read_bands(node: Node, results: Iterable[str] | None = None) -> BandTable:
    """Bands must run lowest first, touch without gaps or overlaps, and be open at both ends."""
    rows = node.list()
    if not rows:
        raise node.fail("a table needs at least one row")
    if len(rows) > MAX_ROWS:
        raise node.fail("at most {limit} rows, got {n}", limit=MAX_ROWS, n=len(rows))
    bands: list[Band] = []
    for i, row in enumerate(rows):
        row.keys_within({"min", "max", "result", "label", "value", "effect"})
        low = None if row.opt("min").value is None else row.key("min").int(-MAX_TOTAL, MAX_TOTAL)
        high = None if row.opt("max").value is None else row.key("max").int(-MAX_TOTAL, MAX_TOTAL)
        if i == 0 and low is not None:
            raise row.fail("the first row must have no 'min' (it covers every lower total)")
        if i == len(rows) - 1 and high is not None:
            raise row.fail("the last row must have no 'max' (it covers every higher total)")
        if i > 0 and low is None:
            raise row.fail("only the first row may leave out 'min'")
        if i < len(rows) - 1 and high is None:
            raise row.fail("only the last row may leave out 'max'")
        if low is not None and high is not None and low > high:
            raise row.fail("min {low} is above max {high}", low=low, high=high)
        if bands and low is not None and bands[-1].high is not None and low != bands[-1].high + 1:
            raise row.fail("starts at {low} but the row before ends at {high}: rows must touch", low=low,
                           high=bands[-1].high)
        value = None if row.opt("value").value is None else row.key("value").int(-MAX_TOTAL, MAX_TOTAL)
        bands.append(Band(low, high, row.key("result").str(), row.key("label").str(), value))
    table = BandTable(tuple(bands))
    seen = [b.result for b in bands]
    if len(set(seen)) != len(seen):
        raise node.fail("each result may appear once: {results}", results=", ".join(seen))
    if results is not None and set(seen) != set(results):
        raise node.fail("results must be exactly {expected}; found {found}", expected=", ".join(sorted(results)),
                        found=", ".join(sorted(seen)))
    return table


def read_naturals(node: Node, table: BandTable) -> tuple[Natural, ...]:
    out = []
    for face, result in node.items():
        if isinstance(face, bool) or not isinstance(face, int) or not 1 <= face <= 6:
            raise node.fail("natural faces are 1 to 6, got {face!r}", face=_shown(face))
        if result.str() not in table.results():
            raise result.fail("{result!r} is not a result of this table ({results})", result=result.value,
                              results=", ".join(table.results()))
        out.append(Natural(face, result.value))
    return tuple(out)


@dataclass(frozen=True)
class Procedure:
    """One table of the rules: its ID, name, named modifiers, bands and natural overrides."""

    rule: str
    name: str
    modifiers: Mapping[str, Modifier]
    bands: BandTable
    naturals: tuple[Natural, ...] = ()

    def mod(self, name: str) -> Modifier:
        return self.modifiers[name]


def read_procedure(
    node: Node,
    rule: str,
    modifiers: Iterable[str],
    results: Iterable[str],
    *,
    naturals: bool = False,
) -> Procedure:
    got_rule = node.key("rule").str()
    if got_rule != rule:
        raise node.key("rule").fail("this table implements {rule}, not {got!r}", rule=rule, got=got_rule)
    bands = read_bands(node.key("bands"), results)
    mods = read_modifiers(node.key("modifiers"), rule, modifiers) if modifiers else {}
    nats = read_naturals(node.key("naturals"), bands) if naturals else ()
    return Procedure(rule, node.key("name").str(), mods, bands, nats)


# --- the map campaign -----------------------------------------------------------------------


@dataclass(frozen=True)
class OptionSpec:
    name: str
    rule: str
    default: Any
    choices: tuple[Any, ...]
    help: str


OPTION_NAMES = ("weather", "random_events", "movement_order", "movement_extension", "mercenary_desertion", "adjacency",
                "overwhelm", "supply", "scout_rerolls", "unmanned_sides", "battles", "general")


@dataclass(frozen=True)
class MapCampaignTables:
    options: Mapping[str, OptionSpec]
    force_test: Procedure
    movement: Procedure
    movement_extension: Mapping[str, Modifier]
    water_movement: Procedure
    embark_reduction: int
    embark_min_total: int
    attrition: Procedure
    attrition_terrains: frozenset[Terrain]
    attrition_loss: Modifier
    desertion_threshold: Fraction
    exploration: Procedure
    defend_multiplier: int
    general_retreat_rule: str
    general_retreat_name: str
    general_retreat_hours: Mapping[int, Modifier]
    field_works_rule: str
    field_works_per_sp: int
    """RU-21: points of field works a Force holding the Defend order may have built, per SP."""
    wounded: Procedure
    deserters: Procedure
    will_to_fight: Procedure
    initiative_rule: str

    def default_options(self) -> dict[str, Any]:
        return {name: spec.default for name, spec in self.options.items()}


def load_map_campaign(node: Node) -> MapCampaignTables:
    opts: dict[str, OptionSpec] = {}
    options = node.key("options")
    options.keys_exactly(OPTION_NAMES)
    for name, spec in options.items():
        spec.keys_exactly({"rule", "default", "choices", "help"})
        choices = tuple(c.value for c in spec.key("choices").list())
        default = spec.key("default").value
        # Compare types too: YAML's 1 is not the choice `true` (1 == True in Python).
        if not any(type(default) is type(c) and default == c for c in choices):
            raise spec.key("default").fail("{default!r} is not one of the choices {choices}", default=_shown(default),
                                           choices=str(list(choices)))
        opts[name] = OptionSpec(name, spec.key("rule").str(), default, choices, spec.key("help").str())

    mv = node.key("movement")
    water = node.key("water_movement")
    reduction = water.key("embark_land_reduction")
    att = node.key("attrition")
    terrains = set()
    for t in att.key("terrains").list():
        try:
            terrains.add(Terrain(t.str()))
        except ValueError:
            raise t.fail("unknown terrain {terrain!r}; allowed: {allowed}", terrain=t.value,
                         allowed=", ".join(x.value for x in Terrain)) from None
    threshold = att.key("desertion_threshold").value
    if isinstance(threshold, bool) or not isinstance(threshold, (int, float)) or not 0 <= threshold < 1:
        raise att.key("desertion_threshold").fail("expected a fraction from 0 to 1, got {value!r}",
                                                  value=_shown(threshold))
    gr = node.key("general_retreat")
    hours = {}
    for hour, mod in gr.key("hour_modifiers").items():
        if isinstance(hour, bool) or not isinstance(hour, int) or hour < 1:
            raise gr.key("hour_modifiers").fail("hours are whole numbers from 1, got {hour!r}", hour=_shown(hour))
        hours[hour] = read_modifier(mod, "MC-6.2")
    works = node.key("field_works")
    works.keys_exactly({"rule", "points_per_sp"})
    if works.key("rule").str() != "RU-21":
        raise works.key("rule").fail("this table implements {rule}, not {got!r}", rule="RU-21",
                                     got=_shown(works.key("rule").value))

    return MapCampaignTables(
        options=opts,
        force_test=read_procedure(
            node.key("force_test"),
            "MC-4",
            ("routed", "unsteady", "confused", "mountain", "enemy_territory", "friendly_territory"),
            ("disaster", "unsteady", "confused", "defend", "ok"),
        ),
        movement=read_procedure(
            mv,
            "MC-5.1",
            ("mountain", "forest", "river", "swamp", "enemy_territory", "unsteady_or_routed", "forced_march", "friendly_territory"),
            ("stay", "one", "two", "three"),
        ),
        movement_extension=read_modifiers(mv.key("extension"), "MC-5.1", ("desert_or_wasteland", "cultivated", "hill", "road")),
        water_movement=read_procedure(
            water,
            "MC-5.3",
            (
                "contrary_wind", "dead_calm", "favourable_wind", "reefs", "small_boats", "rapids", "upstream",
                "bridge", "downstream", "horse_barges", "enemy_territory", "unsteady_or_routed", "forced_march",
                "friendly_territory",
            ),
            ("one", "two", "three", "four"),
        ),
        embark_reduction=reduction.key("squares").int(0, 3),
        embark_min_total=reduction.key("min_total").int(),
        attrition=read_procedure(att, "MC-5.2", (), ("none", "lose1", "lose2", "lose3", "lose4")),
        attrition_terrains=frozenset(terrains),
        attrition_loss=read_modifier(att.key("loss_modifier"), "MC-5.2"),
        desertion_threshold=Fraction(str(threshold)),
        exploration=read_procedure(
            node.key("exploration"), "MC-6.1", ("friendly_territory", "enemy_territory"), ("none", "scored")
        ),
        defend_multiplier=node.key("exploration").key("defend_multiplier").int(1, 5),
        general_retreat_rule=gr.key("rule").str(),
        general_retreat_name=gr.key("name").str(),
        general_retreat_hours=hours,
        field_works_rule=works.key("rule").str(),
        field_works_per_sp=works.key("points_per_sp").int(0, 10),
        wounded=read_procedure(
            node.key("wounded"), "MC-7.1", ("friendly_territory", "enemy_territory"), ("dead", "returns"), naturals=True
        ),
        deserters=read_procedure(
            node.key("deserters"),
            "MC-7.2",
            ("raw", "average", "veteran", "elite", "routed"),
            ("deserted", "returns"),
            naturals=True,
        ),
        will_to_fight=read_procedure(
            node.key("will_to_fight"),
            "MC-9",
            ("battle_won", "battle_lost", "stronghold_taken", "stronghold_lost", "capital_taken", "capital_lost"),
            ("defeat", "fights_on"),
        ),
        initiative_rule=node.key("initiative").key("rule").str(),
    )


# --- RU-10 house rules ----------------------------------------------------------------------
#
# The engine's own tables for weather, the calendar and random events; a scenario may replace each
# one with its own of the same shape (:class:`ScenarioTables`). What a scenario's upload may hold is
# bounded like the rest of a scenario.

WEATHER_NAME = re.compile(r"^[a-z0-9][a-z0-9_-]{0,19}$")
"""A kind of weather's name: what a campaign keeps as its weather (at most 20 characters)."""
MAX_KINDS = 32
"""Kinds of weather in one table."""
MAX_ROWS = 64
"""Rows of one table of bands (every roll record carries its table)."""
MAX_TOTAL = 10_000
"""The largest total a band's ``min``, ``max`` or ``value`` names."""
MAX_TURN_DAYS = 92
"""The longest turn, in days (a season): the calendar of the longest campaign stays within Python's years."""


@dataclass(frozen=True)
class WeatherKind:
    name: str
    label: str
    movement: int
    wind: str  # favourable, contrary, calm, none


@dataclass(frozen=True)
class WeatherTables:
    rule: str
    name: str
    kinds: Mapping[str, WeatherKind]
    table: Mapping[tuple[Climate, Season], tuple[str, ...]]


WINDS = ("favourable", "contrary", "calm", "none")


def load_weather(node: Node) -> WeatherTables:
    node.keys_within({"version", "rule", "name", "kinds", "table"})
    kinds = {}
    knode = node.key("kinds")
    if len(knode.mapping()) > MAX_KINDS:
        raise knode.fail("at most {limit} kinds of weather, got {n}", limit=MAX_KINDS, n=len(knode.mapping()))
    for name, spec in knode.items():
        if not isinstance(name, str) or not WEATHER_NAME.match(name):
            raise spec.fail("{name!r} is not a weather's name: lowercase letters, digits, '-' and '_', at most 20",
                            name=_shown(name))
        spec.keys_exactly({"label", "movement", "wind"})
        wind = spec.key("wind").str()
        if wind not in WINDS:
            raise spec.key("wind").fail("unknown wind {wind!r}; allowed: {allowed}", wind=_shown(wind),
                                        allowed=", ".join(WINDS))
        kinds[name] = WeatherKind(name, spec.key("label").str(), spec.key("movement").int(-5, 5), wind)
    table = {}
    tnode = node.key("table")
    tnode.keys_exactly(c.value for c in Climate)
    for climate, seasons in tnode.items():
        seasons.keys_exactly(s.value for s in Season)
        for season, row in seasons.items():
            faces = row.list()
            if len(faces) != 6:
                raise row.fail("give the weather for each face 1 to 6: {n} given", n=len(faces))
            for r in faces:
                if r.str() not in kinds:
                    raise r.fail("unknown weather {kind!r}; defined: {defined}", kind=r.value,
                                 defined=", ".join(kinds))
            table[(Climate(climate), Season(season))] = tuple(r.value for r in faces)
    return WeatherTables(node.key("rule").str(), node.key("name").str(), kinds, table)


def weather_data(w: WeatherTables) -> dict[str, Any]:
    """``w`` as the plain data :func:`load_weather` reads (weather.yaml's shape)."""
    return {"rule": w.rule, "name": w.name,
            "kinds": {k.name: {"label": k.label, "movement": k.movement, "wind": k.wind} for k in w.kinds.values()},
            "table": {c.value: {s.value: list(w.table[(c, s)]) for s in Season} for c in Climate}}


@dataclass(frozen=True)
class CalendarTables:
    rule: str
    turn_days: int
    season_of_month: Mapping[int, Season]


def load_calendar(node: Node) -> CalendarTables:
    node.keys_within({"version", "rule", "name", "turn_days", "seasons"})
    months: dict[int, Season] = {}
    seasons = node.key("seasons")
    seasons.keys_exactly(s.value for s in Season)
    for season, mlist in seasons.items():
        for m in mlist.list():
            month = m.int(1, 12)
            if month in months:
                raise m.fail("month {month} is already in {season}", month=month, season=months[month].value)
            months[month] = Season(season)
    if missing := sorted(set(range(1, 13)) - set(months)):
        raise seasons.fail("months without a season: {months}", months=", ".join(map(str, missing)))
    return CalendarTables(node.key("rule").str(), node.key("turn_days").int(1, MAX_TURN_DAYS), months)


def calendar_data(c: CalendarTables) -> dict[str, Any]:
    """``c`` as the plain data :func:`load_calendar` reads (calendar.yaml's shape)."""
    return {"rule": c.rule, "turn_days": c.turn_days,
            "seasons": {s.value: [m for m, of in c.season_of_month.items() if of is s] for s in Season}}


EVENT_EFFECTS = ("movement", "sp_loss", "scouts", "supply")


@dataclass(frozen=True)
class EventTables:
    rule: str
    name: str
    dice: int
    bands: BandTable
    effects: Mapping[str, Mapping[str, int]]


def load_events(node: Node) -> EventTables:
    node.keys_within({"version", "rule", "name", "dice", "bands"})
    dice = node.key("dice").int(1, 3)
    bands = read_bands(node.key("bands"))
    effects: dict[str, dict[str, int]] = {}
    for row in node.key("bands").list():
        eff = row.opt("effect", {})
        for k, v in eff.items():
            if k not in EVENT_EFFECTS:
                raise eff.fail("unknown effect {effect!r}; allowed: {allowed}", effect=_shown(k),
                               allowed=", ".join(EVENT_EFFECTS))
            v.int(-10, 10)
        effects[row.key("result").value] = {str(k): v.value for k, v in eff.items()}
    return EventTables(node.key("rule").str(), node.key("name").str(), dice, bands, effects)


def events_data(e: EventTables) -> dict[str, Any]:
    """``e`` as the plain data :func:`load_events` reads (events.yaml's shape)."""
    rows = []
    for b in e.bands.bands:
        row: dict[str, Any] = {} if b.low is None else {"min": b.low}
        if b.high is not None:
            row["max"] = b.high
        row |= {"result": b.result, "label": b.label}
        if b.value is not None:
            row["value"] = b.value
        rows.append(row | {"effect": dict(e.effects.get(b.result, {}))})
    return {"rule": e.rule, "name": e.name, "dice": e.dice, "bands": rows}


HOUSE_RULE = "RU-10"
HOUSE_TABLES = ("weather", "calendar", "events")
"""The tables of RU-10 a scenario may replace, by their section's (and rules file's) name."""


@dataclass(frozen=True)
class ScenarioTables:
    """A scenario's own RU-10 tables, each replacing the house rule's table of ``rules/`` (None: the house
    rule's). What a campaign keeps and plays with (:meth:`apply`)."""

    weather: WeatherTables | None = None
    calendar: CalendarTables | None = None
    events: EventTables | None = None

    @property
    def empty(self) -> bool:
        return self.weather is None and self.calendar is None and self.events is None

    def apply(self, rules: RuleBook) -> RuleBook:
        """``rules`` with this scenario's tables in place of the house rules'."""
        if self.empty:
            return rules
        return replace(rules, weather=self.weather or rules.weather, calendar=self.calendar or rules.calendar,
                       events=self.events or rules.events)

    def to_data(self) -> dict[str, Any]:
        """The tables given, as plain data in the shape :func:`read_scenario_tables` reads (``{}``: none)."""
        out: dict[str, Any] = {}
        if self.weather is not None:
            out["weather"] = weather_data(self.weather)
        if self.calendar is not None:
            out["calendar"] = calendar_data(self.calendar)
        if self.events is not None:
            out["events"] = events_data(self.events)
        return out


NO_TABLES = ScenarioTables()


def read_scenario_tables(data: Mapping[str, Any], rules: RuleBook, *, root: str = "") -> ScenarioTables:
    """The sections of ``data`` named ``weather``, ``calendar`` and ``events`` (each may be left out), each
    of the shape of its rules file and checked by the same reader; ``version``, ``rule`` (RU-10) and ``name``
    may be left out (the name is then the house rule's, from ``rules``). A refusal is a
    :class:`TableProblem` whose path starts at ``root`` (``weather.table.arid.summer.[2]``)."""
    found: dict[str, Any] = {}
    for name, load in (("weather", load_weather), ("calendar", load_calendar), ("events", load_events)):
        if name not in data:
            continue
        where = f"{root}.{name}" if root else name
        node = Node(data[name], where, "")
        given = node.mapping()
        node.opt("version", 1).int(1, 1)
        rule = node.opt("rule", HOUSE_RULE)
        if rule.str() != HOUSE_RULE:
            raise rule.fail("this table implements {rule}, not {got!r}", rule=HOUSE_RULE, got=_shown(rule.value))
        house = getattr(rules, name)
        defaults = {"rule": HOUSE_RULE} | ({"name": house.name} if hasattr(house, "name") else {})
        found[name] = load(Node({**defaults, **given}, where, ""))
    return ScenarioTables(**found) if found else NO_TABLES


# --- the rule book --------------------------------------------------------------------------


@dataclass(frozen=True)
class RuleBook:
    """All tables the engine needs, loaded once and passed to the procedures."""

    mc: MapCampaignTables
    weather: WeatherTables
    calendar: CalendarTables
    events: EventTables


def load_rulebook(directory: Path | None = None) -> RuleBook:
    d = directory or rules_dir()
    return RuleBook(
        mc=load_map_campaign(read_yaml(d / "map_campaign.yaml")),
        weather=load_weather(read_yaml(d / "weather.yaml")),
        calendar=load_calendar(read_yaml(d / "calendar.yaml")),
        events=load_events(read_yaml(d / "events.yaml")),
    )


@cache
def default_rulebook() -> RuleBook:
    """The bundled tables, loaded on first use."""
    return load_rulebook()
