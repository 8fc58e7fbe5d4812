"""Rivers flow along their own squares (MC-5.3, RU-16): a move along a river is judged square by
square by the flow of the square each step leaves, so every step of a drawn river must be up- or
downstream, never neither. A scenario lists a river's entries from source to mouth, each entry's
squares in order (docs/scenario-format.md, "Rivers"): every step from one listed square to the next,
across entries too, goes downstream. The bundled maps and the format's own examples are checked."""

from __future__ import annotations

from collections.abc import Iterator
from itertools import pairwise
from typing import Any

import pytest
import yaml

from bot.engine.grid import CampaignMap
from bot.engine.model import Square
from bot.engine.movement import river_route
from bot.scenario import bundled_scenarios, load_bundled, parse_scenario

from .conftest import worked_examples

BUNDLED = sorted(bundled_scenarios())


def touch(a: Square, b: Square) -> bool:
    return a != b and max(abs(a.col - b.col), abs(a.row - b.row)) == 1


def courses(data: dict[str, Any]) -> list[list[Square]]:
    """Each river of ``data['map']['rivers']`` as its squares from source to mouth: an entry whose
    first square touches the last square of the entry before goes on the same river."""
    out: list[list[Square]] = []
    for entry in data["map"].get("rivers", []):
        given = entry["squares"] if isinstance(entry["squares"], list) else [entry["squares"]]
        assert not any(":" in str(s) for s in given), "list a river's squares one by one, in order, not as a range"
        squares = [Square.parse(str(s)) for s in given]
        if out and touch(out[-1][-1], squares[0]):
            out[-1].extend(squares)
        else:
            out.append(squares)
    return out


def steps(data: dict[str, Any], cmap: CampaignMap) -> Iterator[tuple[Square, Square, str | None, str]]:
    """Every step of every river: from, to, the flow of the square it leaves, the step's direction."""
    for course in courses(data):
        for a, b in pairwise(course):
            assert touch(a, b), f"{a} and {b} follow each other on a river but do not touch"
            yield a, b, cmap.cell(a).river_flow, cmap.direction(a, b)


def neither(data: dict[str, Any], cmap: CampaignMap) -> list[str]:
    """The steps that are neither up- nor downstream (RU-16 would give them no modifier)."""
    out = []
    for a, b, flow, step in steps(data, cmap):
        move = river_route(cmap, a, [b])
        if not (move.upstream or move.downstream):
            out.append(f"{a}->{b}: flow {flow}, step {step}")
    return out


def raw(key: str) -> dict[str, Any]:
    return yaml.safe_load(bundled_scenarios()[key].read_text(encoding="utf-8"))


@pytest.mark.parametrize("key", BUNDLED)
def test_every_river_step_of_a_bundled_map_is_up_or_downstream_mc_5_3(key: str) -> None:
    """The issue's count on italy1796 was 25 of 112 steps with a flow matching neither direction."""
    data, cmap = raw(key), load_bundled(key).map
    assert list(steps(data, cmap)), "a bundled map draws rivers"
    assert neither(data, cmap) == []


@pytest.mark.parametrize("key", BUNDLED)
def test_every_river_of_a_bundled_map_flows_from_its_first_square_to_its_last_ru_16(key: str) -> None:
    """Listed from source to mouth, every step goes downstream: a move down a bundled river earns MC-5.3's +1
    all the way, and one up it the −2."""
    data, cmap = raw(key), load_bundled(key).map
    upstream = [f"{a}->{b}: flow {flow}, step {step}" for a, b, flow, step in steps(data, cmap) if flow != step]
    assert upstream == []


def test_italy1796_river_steps_are_counted_as_the_issue_counts_them() -> None:
    """13 rivers, 125 squares: 112 steps, every one of them now downstream."""
    data, cmap = raw("italy1796"), load_bundled("italy1796").map
    assert len(courses(data)) == 13
    assert len(list(steps(data, cmap))) == 112


@pytest.mark.parametrize("block", range(len(worked_examples())))
def test_the_formats_worked_examples_draw_rivers_that_flow_along_their_squares(block: int) -> None:
    """Authors copy the examples of docs/scenario-format.md: their rivers must be right too."""
    data = yaml.safe_load(worked_examples()[block])  # a painted example without its image: open ground
    cmap = parse_scenario(data).map
    assert [(str(a), str(b)) for a, b, flow, step in steps(data, cmap) if flow != step] == []


def test_a_bend_listed_as_one_stretch_per_direction_is_what_the_issue_found() -> None:
    """The defect itself, on a small map: a stretch's last square keeps the stretch's flow, so the step
    round the bend to the next stretch is neither up- nor downstream; giving the bend square its own
    flow (the direction of that step) makes every step downstream."""
    def scenario(rivers: list[dict[str, Any]]) -> dict[str, Any]:
        return {"name": "Bend", "start_date": "1796-05-10",
                "map": {"width": 6, "height": 6, "rivers": rivers},
                "sides": [{"key": "fr", "name": "France"}, {"key": "au", "name": "Austria"}],
                "forces": []}

    bent = scenario([{"squares": ["A1", "A2", "A3"], "flow": "S"}, {"squares": ["B4", "C5"], "flow": "SE"}])
    assert neither(bent, parse_scenario(bent).map) == ["A3->B4: flow S, step SE"]
    fixed = scenario([{"squares": ["A1", "A2"], "flow": "S"}, {"squares": ["A3", "B4", "C5"], "flow": "SE"}])
    assert neither(fixed, parse_scenario(fixed).map) == []
