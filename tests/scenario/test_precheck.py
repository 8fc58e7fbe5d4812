"""The scenario limits counted while the YAML streams by (issue 24, item 6): a file over one of them is
refused there, before the document is built (``yaml.load``) or parsed (``parse_scenario``), and the
refusal names the field and the limit; a file exactly at the limit goes on to the full parse.

Each limit is tried at its boundary with small limits (``LIMITS`` replaced for the test), so the files
stay a few lines long; the same code counts against the real limits."""

from __future__ import annotations

import copy
import dataclasses
from collections.abc import Callable, Iterator
from typing import Any

import pytest
import yaml

from bot import scenario
from bot.engine.errors import InvalidInput
from bot.engine.uploads import MAX_DEPTH, load_yaml

from .conftest import force, minimal

SMALL = dataclasses.replace(scenario.LIMITS, map_side=6, sides=3, forces=4, units_per_force=3, units=7, legend=2,
                            description=10)


class Spy:
    """Whether the document was built (``yaml.load``) and parsed (``parse_scenario``)."""

    def __init__(self) -> None:
        self.built = self.parsed = 0


@pytest.fixture
def spy(monkeypatch: pytest.MonkeyPatch) -> Iterator[Spy]:
    monkeypatch.setattr(scenario, "LIMITS", SMALL)
    seen = Spy()
    load, parse = yaml.load, scenario.parse_scenario

    def built(*args: Any, **kwargs: Any) -> Any:
        seen.built += 1
        return load(*args, **kwargs)

    def parsed(*args: Any, **kwargs: Any) -> Any:
        seen.parsed += 1
        return parse(*args, **kwargs)

    monkeypatch.setattr(yaml, "load", built)
    monkeypatch.setattr(scenario, "parse_scenario", parsed)
    yield seen


def text(data: dict[str, Any]) -> str:
    return yaml.safe_dump(data, sort_keys=False)


def accepted(spy: Spy, data: dict[str, Any] | str) -> scenario.Scenario:
    spy.built = spy.parsed = 0
    out = scenario.parse_scenario_text(data if isinstance(data, str) else text(data))
    assert spy.built and spy.parsed  # past the pre-check, read and parsed in full
    return out


def refused_early(spy: Spy, data: dict[str, Any] | str) -> str:
    spy.built = spy.parsed = 0
    with pytest.raises(InvalidInput) as exc:
        scenario.parse_scenario_text(data if isinstance(data, str) else text(data))
    assert (spy.built, spy.parsed) == (0, 0), "refused by the full parse, not before it"
    return str(exc.value)


def units(key: str, n: int) -> list[dict[str, Any]]:
    return [{"key": f"{key}-{i}", "name": f"Line {i}", "sp": 4} for i in range(n)]


def with_forces(n: int, *, reinforcements: int = 0) -> dict[str, Any]:
    data = minimal()
    data["forces"] = [force("mack", "au", "C1")] + [force(f"f{i}", "fr", "A2") for i in range(n - 1 - reinforcements)]
    if reinforcements:
        data["reinforcements"] = [{"turn": 2, "force": force(f"r{i}", "fr", "A1")} for i in range(reinforcements)]
    return data


def test_forces_at_the_limit_are_read_and_one_more_is_refused_before_the_parse(spy: Spy) -> None:
    assert len(accepted(spy, with_forces(SMALL.forces)).forces) == SMALL.forces
    message = refused_early(spy, with_forces(SMALL.forces + 1))
    assert message == "Scenario field forces: at most 4 Forces in all (at the start and reinforcements)"


def test_reinforcements_count_with_the_forces(spy: Spy) -> None:
    assert len(accepted(spy, with_forces(SMALL.forces, reinforcements=2)).forces) == SMALL.forces
    message = refused_early(spy, with_forces(SMALL.forces + 1, reinforcements=2))
    assert message == "Scenario field reinforcements: at most 4 Forces in all (at the start and reinforcements)"


def test_units_of_one_force_at_the_limit_and_one_over(spy: Spy) -> None:
    data = minimal()
    data["forces"][0]["units"] = units("big", SMALL.units_per_force)
    assert len(accepted(spy, data).forces[0].units) == SMALL.units_per_force
    data["forces"][0]["units"] = units("big", SMALL.units_per_force + 1)
    assert refused_early(spy, data) == "Scenario field forces[0].units: at most 3 units in a Force"


def test_units_of_a_reinforcement_count_as_a_force_s(spy: Spy) -> None:
    data = with_forces(3, reinforcements=1)
    data["reinforcements"][0]["force"]["units"] = units("r", SMALL.units_per_force + 1)
    assert refused_early(spy, data) == "Scenario field reinforcements[0].force.units: at most 3 units in a Force"


def spread(total: int, recruits: int = 0) -> dict[str, Any]:
    """Units over three Forces (and ``recruits`` in France's pool): ``total`` in all."""
    data = with_forces(3)
    left = total - recruits
    for f in data["forces"]:
        n = min(SMALL.units_per_force, left - (len(data["forces"]) - 1 - data["forces"].index(f)))
        f["units"] = units(f["key"], n)
        left -= n
    assert left == 0
    if recruits:
        data["supply"] = {"recruits": {"fr": [{"key": f"new-{i}", "name": "Recruits", "sp": 2} for i in range(recruits)]}}
    return data


@pytest.mark.parametrize("recruits", [0, 2])
def test_units_in_all_at_the_limit_and_one_over(spy: Spy, recruits: int) -> None:
    spec = accepted(spy, spread(SMALL.units, recruits))
    assert sum(len(f.units) for f in spec.forces) + sum(len(p) for p in spec.recruits.values()) == SMALL.units
    message = refused_early(spy, spread(SMALL.units + 1, recruits))
    assert message.endswith(": at most 7 units in all"), message


def test_sides_at_the_limit_and_one_over(spy: Spy) -> None:
    data = minimal()
    data["sides"].append({"key": "ru", "name": "Russia"})
    assert len(accepted(spy, data).sides) == SMALL.sides
    data["sides"].append({"key": "pr", "name": "Prussia"})
    assert refused_early(spy, data) == "Scenario field sides: at most 3 sides"


def test_legend_entries_at_the_limit_and_one_over(spy: Spy) -> None:
    data = minimal()
    data["map"]["legend"] = {"x": "forest", "y": "hill"}
    accepted(spy, data)
    data["map"]["legend"]["z"] = "swamp"
    assert refused_early(spy, data) == "Scenario field map.legend: at most 2 entries"


@pytest.mark.parametrize("field", ["width", "height"])
def test_map_sides_at_the_limit_and_one_over(spy: Spy, field: str) -> None:
    data = minimal()
    del data["map"]["rows"]
    data["map"][field] = SMALL.map_side
    spec = accepted(spy, data)
    assert getattr(spec.map, field) == SMALL.map_side
    data["map"][field] = SMALL.map_side + 1
    assert refused_early(spy, data) == f"Scenario field map.{field}: 7 is out of range: 2 to 6"


def test_the_description_at_the_limit_and_one_over(spy: Spy) -> None:
    data = minimal()
    data["description"] = "d" * SMALL.description
    assert accepted(spy, data).description == "d" * SMALL.description
    data["description"] = "d" * (SMALL.description + 1)
    assert refused_early(spy, data) == "Scenario field description: at most 10 characters, got 11"


def counted(source: str) -> int:
    """The values the pre-check counts in ``source``."""
    seen: list[scenario._Precheck] = []

    def fresh() -> scenario._Precheck:
        seen.append(scenario._Precheck())
        return seen[-1]

    load_yaml(source, fresh)
    return seen[-1].nodes


def test_values_at_the_limit_and_one_over(spy: Spy, monkeypatch: pytest.MonkeyPatch) -> None:
    source = text(minimal())
    n = counted(source)
    assert n > 30  # every text, number, list and mapping but the keys
    monkeypatch.setattr(scenario, "LIMITS", dataclasses.replace(SMALL, nodes=n))
    accepted(spy, source)
    monkeypatch.setattr(scenario, "LIMITS", dataclasses.replace(SMALL, nodes=n - 1))
    assert f"more than {n - 1:,} values" in refused_early(spy, source)


def nested(depth: int) -> str:
    """The scenario with its description nested ``depth`` levels deep, the top mapping counted."""
    return text(minimal()) + "description: " + "[" * (depth - 1) + "]" * (depth - 1) + "\n"


def test_nesting_at_the_limit_is_read_and_one_deeper_is_refused_before_it_is_built(spy: Spy) -> None:
    with pytest.raises(InvalidInput) as exc:  # read, then refused by the parse for what it is: not text
        scenario.parse_scenario_text(nested(MAX_DEPTH))
    assert spy.built and "expected text" in str(exc.value)
    assert "nested more than 12 levels deep" in refused_early(spy, nested(MAX_DEPTH + 1))


def test_the_pre_check_counts_what_the_parse_counts_in_the_largest_legal_scenarios() -> None:
    """Against the real limits: the largest legal scenarios pass it, with room to spare on values."""
    from tests.campaign.test_largest_export import largest_scenario

    raw = largest_scenario().decode()
    assert counted(raw) < scenario.LIMITS.nodes // 2
    spec = scenario.parse_scenario_text(raw)
    assert len(spec.forces) == scenario.LIMITS.forces


def test_a_refusal_costs_only_the_events_up_to_the_limit(spy: Spy, monkeypatch: pytest.MonkeyPatch) -> None:
    """The pre-check stops at the first item over the limit: the events after it are never read."""
    data = with_forces(SMALL.forces + 1)
    data["forces"][-1]["units"] = units("late", 1)
    read: list[Any] = []
    real_parse: Callable[..., Any] = yaml.parse

    def events(*args: Any, **kwargs: Any) -> Iterator[Any]:
        for e in real_parse(*args, **kwargs):
            read.append(e)
            yield e

    monkeypatch.setattr(yaml, "parse", events)
    refused_early(spy, copy.deepcopy(data))
    assert not any(isinstance(e, yaml.ScalarEvent) and e.value == "late-0" for e in read)
