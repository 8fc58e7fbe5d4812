"""Load and validate the rules tables in ``rules/*.yaml``.

This module is the engine's one edge with the file system: it reads YAML with ``yaml.safe_load``
and turns it into frozen, validated values. Every problem raises :class:`TableError` naming the
file, the path inside it, what was found and what is allowed. The engine fixes the *names* of
conditions and results (code depends on them); the numbers, bands and wording are data.
"""

from __future__ import annotations

import os
from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from fractions import Fraction
from functools import cache
from pathlib import Path
from typing import Any

import yaml

from .errors import TableError
from .model import Climate, Season, Terrain
from .rolls import Band, BandTable, Modifier, Natural

RULES_DIR_ENV = "ADC_RULES_DIR"


def rules_dir() -> Path:
    """``rules/`` beside the package, or ``$ADC_RULES_DIR``."""
    env = os.environ.get(RULES_DIR_ENV)
    return Path(env) if env else Path(__file__).resolve().parents[2] / "rules"


class Node:
    """A value read from YAML with its location, for precise error messages."""

    __slots__ = ("path", "source", "value")

    def __init__(self, value: Any, path: str, source: str) -> None:
        self.value, self.path, self.source = value, path, source

    def fail(self, what: str) -> TableError:
        return TableError(f"{self.source}: {self.path or 'top level'}: {what}")

    def _child(self, value: Any, part: str) -> Node:
        return Node(value, f"{self.path}.{part}" if self.path else part, self.source)

    def mapping(self) -> dict[Any, Any]:
        if not isinstance(self.value, dict):
            raise self.fail(f"expected a mapping, got {_kind(self.value)}")
        return self.value

    def key(self, name: str) -> Node:
        data = self.mapping()
        if name not in data:
            raise self.fail(f"missing {name!r}")
        return self._child(data[name], str(name))

    def opt(self, name: str, default: Any = None) -> Node:
        data = self.mapping()
        return self._child(data.get(name, default), str(name))

    def items(self) -> Iterable[tuple[Any, Node]]:
        for k, v in self.mapping().items():
            yield k, self._child(v, str(k))

    def list(self) -> list[Node]:
        if not isinstance(self.value, list):
            raise self.fail(f"expected a list, got {_kind(self.value)}")
        return [self._child(v, f"[{i}]") for i, v in enumerate(self.value)]

    def int(self, low: int | None = None, high: int | None = None) -> int:
        if isinstance(self.value, bool) or not isinstance(self.value, int):
            raise self.fail(f"expected a whole number, got {self.value!r}")
        if (low is not None and self.value < low) or (high is not None and self.value > high):
            raise self.fail(f"{self.value} is out of range {low}..{high}")
        return self.value

    def str(self) -> str:
        if not isinstance(self.value, str) or not self.value.strip():
            raise self.fail(f"expected text, got {self.value!r}")
        return self.value

    def keys_exactly(self, expected: Iterable[str]) -> None:
        want, got = set(expected), {str(k) for k in self.mapping()}
        if missing := sorted(want - got):
            raise self.fail(f"missing {', '.join(missing)}")
        if extra := sorted(got - want):
            raise self.fail(f"unknown {', '.join(extra)}; allowed: {', '.join(sorted(want))}")


def _kind(value: Any) -> str:
    return "nothing" if value is None else type(value).__name__


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
    bands: list[Band] = []
    for i, row in enumerate(rows):
        allowed = {"min", "max", "result", "label", "value", "effect"}
        if extra := sorted(set(map(str, row.mapping())) - allowed):
            raise row.fail(f"unknown {', '.join(extra)}; allowed: {', '.join(sorted(allowed))}")
        low = None if row.opt("min").value is None else row.key("min").int()
        high = None if row.opt("max").value is None else row.key("max").int()
        if i == 0 and low is not None:
            raise row.fail("the first row must have no 'min' (it covers every lower total)")
        if i == len(rows) - 1 and high is not None:
            raise row.fail("the last row must have no 'max' (it covers every higher total)")
        if i > 0 and low is None:
            raise row.fail("only the first row may leave out 'min'")
        if i < len(rows) - 1 and high is None:
            raise row.fail("only the last row may leave out 'max'")
        if low is not None and high is not None and low > high:
            raise row.fail(f"min {low} is above max {high}")
        if bands and low is not None and bands[-1].high is not None and low != bands[-1].high + 1:
            raise row.fail(f"starts at {low} but the row before ends at {bands[-1].high}: rows must touch")
        value = None if row.opt("value").value is None else row.key("value").int()
        bands.append(Band(low, high, row.key("result").str(), row.key("label").str(), value))
    table = BandTable(tuple(bands))
    seen = [b.result for b in bands]
    if len(set(seen)) != len(seen):
        raise node.fail(f"each result may appear once: {', '.join(seen)}")
    if results is not None and set(seen) != set(results):
        raise node.fail(f"results must be exactly {', '.join(sorted(results))}; found {', '.join(sorted(seen))}")
    return table


def read_naturals(node: Node, table: BandTable) -> tuple[Natural, ...]:
    out = []
    for face, result in node.items():
        if isinstance(face, bool) or not isinstance(face, int) or not 1 <= face <= 6:
            raise node.fail(f"natural faces are 1 to 6, got {face!r}")
        if result.str() not in table.results():
            raise result.fail(f"{result.value!r} is not a result of this table ({', '.join(table.results())})")
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
        raise node.key("rule").fail(f"this table implements {rule}, not {got_rule!r}")
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
                "overwhelm", "supply", "scout_rerolls", "unmanned_sides")


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
            raise spec.key("default").fail(f"{default!r} is not one of the choices {list(choices)}")
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
            raise t.fail(f"unknown terrain {t.value!r}; allowed: {', '.join(x.value for x in Terrain)}") from None
    threshold = att.key("desertion_threshold").value
    if isinstance(threshold, bool) or not isinstance(threshold, (int, float)) or not 0 <= threshold < 1:
        raise att.key("desertion_threshold").fail(f"expected a fraction from 0 to 1, got {threshold!r}")
    gr = node.key("general_retreat")
    hours = {}
    for hour, mod in gr.key("hour_modifiers").items():
        if isinstance(hour, bool) or not isinstance(hour, int) or hour < 1:
            raise gr.key("hour_modifiers").fail(f"hours are whole numbers from 1, got {hour!r}")
        hours[hour] = read_modifier(mod, "MC-6.2")
    works = node.key("field_works")
    works.keys_exactly({"rule", "points_per_sp"})
    if works.key("rule").str() != "RU-21":
        raise works.key("rule").fail(f"this table implements RU-21, not {works.key('rule').value!r}")

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
    kinds = {}
    for name, spec in node.key("kinds").items():
        spec.keys_exactly({"label", "movement", "wind"})
        wind = spec.key("wind").str()
        if wind not in WINDS:
            raise spec.key("wind").fail(f"unknown wind {wind!r}; allowed: {', '.join(WINDS)}")
        kinds[str(name)] = WeatherKind(str(name), spec.key("label").str(), spec.key("movement").int(-5, 5), wind)
    table = {}
    tnode = node.key("table")
    tnode.keys_exactly(c.value for c in Climate)
    for climate, seasons in tnode.items():
        seasons.keys_exactly(s.value for s in Season)
        for season, row in seasons.items():
            faces = [r.str() for r in row.list()]
            if len(faces) != 6:
                raise row.fail(f"give the weather for each face 1 to 6: {len(faces)} given")
            for r, f in zip(row.list(), faces, strict=True):
                if f not in kinds:
                    raise r.fail(f"unknown weather {f!r}; defined: {', '.join(kinds)}")
            table[(Climate(climate), Season(season))] = tuple(faces)
    return WeatherTables(node.key("rule").str(), node.key("name").str(), kinds, table)


@dataclass(frozen=True)
class CalendarTables:
    rule: str
    turn_days: int
    season_of_month: Mapping[int, Season]


def load_calendar(node: Node) -> CalendarTables:
    months: dict[int, Season] = {}
    seasons = node.key("seasons")
    seasons.keys_exactly(s.value for s in Season)
    for season, mlist in seasons.items():
        for m in mlist.list():
            month = m.int(1, 12)
            if month in months:
                raise m.fail(f"month {month} is already in {months[month].value}")
            months[month] = Season(season)
    if missing := sorted(set(range(1, 13)) - set(months)):
        raise seasons.fail(f"months without a season: {missing}")
    return CalendarTables(node.key("rule").str(), node.key("turn_days").int(1, 366), months)


EVENT_EFFECTS = ("movement", "sp_loss", "scouts", "supply")


@dataclass(frozen=True)
class EventTables:
    rule: str
    name: str
    dice: int
    bands: BandTable
    effects: Mapping[str, Mapping[str, int]]


def load_events(node: Node) -> EventTables:
    dice = node.key("dice").int(1, 3)
    bands = read_bands(node.key("bands"))
    effects: dict[str, dict[str, int]] = {}
    for row in node.key("bands").list():
        eff = row.opt("effect", {})
        for k, v in eff.items():
            if k not in EVENT_EFFECTS:
                raise eff.fail(f"unknown effect {k!r}; allowed: {', '.join(EVENT_EFFECTS)}")
            v.int(-10, 10)
        effects[row.key("result").value] = {str(k): v.value for k, v in eff.items()}
    return EventTables(node.key("rule").str(), node.key("name").str(), dice, bands, effects)


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
