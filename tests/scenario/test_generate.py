"""Generated scenarios (MC-0, bot/generate.py): the same seed draws the same scenario; every one passes the
scenario validation, has rivers that run downhill to the sea, a lake or the edge, roads on land, a capital
per side in its territory, Forces that never start beside an enemy in one square (RU-19), and can be
played for a turn through the campaign core."""

from __future__ import annotations

import hashlib
import itertools
import os
import re

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from bot import generate
from bot.campaign.dice import Context
from bot.campaign.events import Journal
from bot.campaign.new import from_scenario
from bot.campaign.turn import resolve
from bot.cli import scenario_yaml
from bot.engine.errors import InvalidInput
from bot.engine.grid import COMPASS
from bot.engine.model import Climate, Season, Square
from bot.engine.tables import default_rulebook
from bot.generate import Params, World, generate_scenario, generate_world, scenario_data
from bot.scenario import parse_scenario, parse_scenario_text

EXAMPLES = int(os.environ.get("ADC_GENERATE_EXAMPLES", "25"))
CTX = Context(lambda: hashlib.sha256(b"generated").digest(), default_rulebook())


def test_the_same_seed_gives_byte_identical_yaml() -> None:
    params = Params(Climate.CONTINENTAL, Season.WINTER, 30, 20, 3, (("au", "ru"),), 42)
    assert scenario_yaml(generate_scenario(params)) == scenario_yaml(generate_scenario(params))


def test_different_seeds_give_different_scenarios() -> None:
    a, b = (scenario_yaml(generate_scenario(Params(seed=seed))) for seed in (1, 2))
    assert a != b


def test_the_yaml_reads_back_as_the_same_scenario() -> None:
    data = generate_scenario(Params(seed=7))
    assert parse_scenario_text(scenario_yaml(data), key="g") == parse_scenario(data, key="g")


def test_the_description_names_every_parameter_and_the_seed() -> None:
    data = generate_scenario(Params(Climate.ARID, Season.AUTUMN, 24, 18, 3, (("fr", "ru"),), 99))
    text = data["description"]
    assert "Generated" in text and all(word in text for word in ("arid", "autumn", "24x18", "3 sides", "fr, ru",
                                                                  "seed 99"))


def test_the_season_sets_the_start_date_in_that_season() -> None:
    from bot.engine.seasons import season_of

    for season in Season:
        spec = parse_scenario(generate_scenario(Params(season=season, seed=3)))
        assert season_of(spec.start_date) is season


@pytest.mark.parametrize(("params", "needle"), [
    ({"width": 5, "height": 40}, "10 to 100 squares"),
    ({"width": 101, "height": 40}, "10 to 100 squares"),
    ({"width": 10, "height": 10, "sides": 4}, "too small for 4 sides"),
    ({"sides": 1}, "2 to 8 sides"),
    ({"sides": 9}, "2 to 8 sides"),
    ({"seed": -1}, "from 0"),
    ({"alliances": (("fr", "xx"),)}, "unknown side 'xx'"),
    ({"alliances": (("fr",),)}, "two or more different sides"),
    ({"alliances": (("fr", "au"),)}, "at least two camps (RU-19)"),
    ({"sides": 3, "alliances": (("fr", "au"), ("au", "ru"))}, "in two alliances"),
])
def test_bad_parameters_are_refused_naming_what_is_allowed(params, needle) -> None:
    with pytest.raises(InvalidInput, match=re.escape(needle)):
        Params(**params)


@pytest.mark.parametrize(("text", "wanted"), [("36x26", (36, 26)), (" 60 X 40 ", (60, 40))])
def test_a_size_is_width_x_height(text, wanted) -> None:
    assert generate.parse_size(text) == wanted


def test_unknown_climate_season_or_size_text_is_refused() -> None:
    with pytest.raises(InvalidInput, match="climates are temperate"):
        generate.parse_climate("polar")
    with pytest.raises(InvalidInput, match="seasons are spring"):
        generate.parse_season("monsoon")
    with pytest.raises(InvalidInput, match="like 36x26"):
        generate.parse_size("big")


# --- the property test --------------------------------------------------------------------------------


@st.composite
def parameters(draw: st.DrawFn) -> Params:
    sides = draw(st.integers(2, 4))
    width = draw(st.integers(generate.MIN_SIDE, 60))
    low = max(generate.MIN_SIDE, -(-generate.MIN_SQUARES_PER_SIDE * sides // width))
    height = draw(st.integers(low, 40))
    keys = list(generate.SIDE_KEYS[:sides])
    alliances: tuple[tuple[str, ...], ...] = ()
    if sides >= 3 and draw(st.booleans()):
        allied = draw(st.lists(st.sampled_from(keys), min_size=2, max_size=sides - 1, unique=True))
        alliances = (tuple(allied),)
    return Params(draw(st.sampled_from(list(Climate))), draw(st.sampled_from(list(Season))), width, height, sides,
                  alliances, draw(st.integers(0, 2**32)))


@settings(max_examples=EXAMPLES, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(parameters())
def test_every_generated_scenario_is_valid_plausible_and_playable(params: Params) -> None:
    world = generate_world(params)
    data = scenario_data(world, params)
    spec = parse_scenario(data, key="generated")  # MC-0: the validation every upload passes
    check_rivers(world)
    check_roads(world)
    check_sides(world, params)
    # RU-19: no two enemy Forces start in one square (parse_scenario refuses that too).
    squares = [f.square for f in spec.forces]
    assert len(squares) == len(set(squares))
    assert {f.side for f in spec.forces} == set(params.side_keys)
    for f in spec.forces:
        assert not spec.map.cell(f.square).terrain.is_water
        assert all(1 <= u.sp <= 12 for u in f.units)
    play_one_turn(spec)


def check_rivers(world: World) -> None:
    """MC-0: every river runs on land, never uphill, one square at a time, and ends in the sea, a lake,
    another river or off the map's edge."""
    for river in world.rivers:
        for here in river:
            assert world.is_land(here)
            dc, dr = world.flow[here]
            there = (here[0] + dc, here[1] + dr)
            if not world.on_map(there):
                assert world.on_edge(here)
                continue
            assert world.height_at(there) <= world.height_at(here), (here, there)
            assert world.terrain_at(there).is_water or there in world.flow
        for a, b in itertools.pairwise(river):
            assert world.height_at(b) < world.height_at(a)
    for here in world.flow:  # following any river down always ends, at water or the edge
        seen = set()
        while here in world.flow:
            assert here not in seen
            seen.add(here)
            here = (here[0] + world.flow[here][0], here[1] + world.flow[here][1])
        assert not world.on_map(here) or world.terrain_at(here).is_water


def check_roads(world: World) -> None:
    """MC-0: every road step is between two adjacent land squares, and a road joins two strongholds."""
    for road in world.roads:
        assert road[0] in world.strongholds and road[-1] in world.strongholds
        assert all(world.is_land(q) for q in road)
        for a, b in itertools.pairwise(road):
            assert max(abs(a[0] - b[0]), abs(a[1] - b[1])) == 1


def check_sides(world: World, params: Params) -> None:
    """MC-0: one capital per side, in its own territory and one of its strongholds."""
    assert set(world.capitals) == set(params.side_keys)
    for side, capital in world.capitals.items():
        assert world.territory[capital] == side and world.strongholds[capital] == side


def play_one_turn(spec) -> None:
    """The campaign starts and its first turn ends, the GM forcing every phase (as the core tests do)."""
    state = from_scenario(spec, campaign_id=1, name="Generated", gm_id=1)
    for _ in range(20):
        if state.turn > 1:
            return
        state = resolve(state, Journal(), CTX, forced=True).state
    pytest.fail(f"turn 1 did not end: {state.phase}")


def test_the_flow_directions_written_are_the_rivers_steps() -> None:
    params = Params(Climate.TROPICAL, Season.SUMMER, 40, 30, 2, (), 5)
    world = generate_world(params)
    spec = parse_scenario(scenario_data(world, params))
    assert world.rivers
    for here, step in world.flow.items():
        assert COMPASS[spec.map.cell(Square(*here)).river_flow] == step




async def test_a_large_map_is_drawn_in_the_worker_process_and_is_the_one_a_thread_draws(monkeypatch) -> None:
    """Issue 24 item 6: from ``IN_PROCESS_SQUARES`` the generator runs in a worker process (no share of
    the event loop's interpreter lock); the scenario is the same as drawn in a thread."""
    from bot.cogs import campaign as cog
    from bot.services import workers

    params = Params(Climate.CONTINENTAL, Season.AUTUMN, 20, 16, 3, (), 11)
    sent: list[object] = []
    real = workers.in_process

    async def in_process(fn, *args):  # type: ignore[no-untyped-def]
        sent.append(fn)
        return await real(fn, *args)

    monkeypatch.setattr(workers, "in_process", in_process)
    monkeypatch.setattr(cog, "IN_PROCESS_SQUARES", 10**9)
    in_thread = await cog._generated(params)
    assert not sent
    monkeypatch.setattr(cog, "IN_PROCESS_SQUARES", 20 * 16)
    in_worker = await cog._generated(params)
    assert sent == [generate.generate_scenario]
    assert in_worker == in_thread
