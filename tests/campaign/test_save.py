"""Save (issue 15): a running campaign's map and Forces as a scenario file, read back by the scenario
parser, start a campaign that stands where the saved one stood (bot/campaign/save.py)."""

from __future__ import annotations

import hashlib
from dataclasses import replace

import pytest
import yaml
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from bot.campaign.dice import Context
from bot.campaign.events import Journal
from bot.campaign.new import from_scenario
from bot.campaign.save import as_scenario, ranges, scenario_yaml
from bot.campaign.state import CampaignState, ForceStatus, LeaderKind, LeaderState
from bot.campaign.turn import resolve
from bot.engine import model
from bot.engine.errors import InvalidInput
from bot.engine.grid import COMPASS, CampaignMap
from bot.engine.model import LeaderStatus, Order, Place, PlaceKind, Square, Terrain, UnitType
from bot.engine.phases import Phase
from bot.engine.seasons import turn_date
from bot.engine.tables import default_rulebook
from bot.generate import Params, generate_scenario
from bot.scenario import Scenario, bundled_scenarios, load_bundled, parse_scenario, parse_scenario_text

GM_ID = 1
CTX = Context(lambda: hashlib.sha256(b"save").digest(), default_rulebook())


def started(spec: Scenario, **options: object) -> CampaignState:
    return from_scenario(spec, campaign_id=7, name="Old Campaign", gm_id=GM_ID, options=dict(options))


def play_to(state: CampaignState, turn: int, phase: Phase = Phase.ORDERS) -> CampaignState:
    """The GM forces every phase (nobody declares anything) until ``turn``'s ``phase``."""
    while (state.turn, state.phase) < (turn, phase):
        state = resolve(state, Journal(), CTX, forced=True).state
    return state


def generated(seed: int = 5, *, sides: int = 3, size: tuple[int, int] = (36, 26)) -> Scenario:
    alliances = (("au", "ru"),) if sides >= 3 else ()
    data = generate_scenario(Params(width=size[0], height=size[1], sides=sides, alliances=alliances, seed=seed))
    return parse_scenario(data, key="generated")


def war_damage(state: CampaignState) -> CampaignState:
    """What a turn of war leaves behind: units worn down and one destroyed, a Force moved, another on new
    orders with scouts spent, a leader wounded, another slain and replaced by a New Leader, one Force
    gone for good."""
    active = sorted((f for f in state.active()), key=lambda f: f.key)
    first, second, third = active[0], active[1], active[-1]
    worn = tuple(replace(u, sp=max(1, u.sp - 2)) for u in first.units)
    if len(worn) > 1:
        worn = (*worn[:-1], replace(worn[-1], sp=0))
    state = state.with_forces([replace(first, units=worn, order=Order.DEFEND, scouts=0)])
    square = state.map.parse(second.square or "")
    target = next(nb for nb in state.map.neighbours(square)
                  if not state.map.cell(nb).terrain.is_water and not any(
                      f.square == str(nb) and state.camps.hostile(f.side, second.side) for f in state.active()))
    state = state.with_force(second.key, square=str(target), order=Order.FORCED_MARCH)
    wounded = state.commander(first.key)
    assert wounded is not None
    state = state.with_leaders([replace(wounded, status=LeaderStatus.LIGHT_WOUND)])
    fallen = state.commander(second.key)
    assert fallen is not None
    state = state.with_leaders([
        replace(fallen, status=LeaderStatus.SLAIN, force=None),
        LeaderState(f"{second.key}-new2", f"New Leader (cavalry) of {second.name}", fallen.cv, LeaderStatus.FIT,
                    LeaderKind.NEW, UnitType.CAVALRY, second.key),
    ])
    return state.with_force(third.key, status=ForceStatus.REMOVED)


def reborn(state: CampaignState) -> tuple[str, CampaignState]:
    text = scenario_yaml(state)
    spec = parse_scenario_text(text, key="saved")
    return text, started(spec)


def force_view(state: CampaignState, key: str) -> tuple[object, ...]:
    f = state.forces[key]
    ld = state.commander(key)
    assert ld is not None
    units = tuple((u.key, u.name, u.sp, u.type, u.quality, u.mercenary, u.flag) for u in f.units if u.sp > 0)
    return f.side, f.name, f.square, f.order, f.scouts, units, ld.name, ld.cv, f.small_boats, f.horse_rafts


def assert_same_campaign(old: CampaignState, new: CampaignState) -> None:
    assert (new.map.width, new.map.height, new.map.adjacency) == (old.map.width, old.map.height, old.map.adjacency)
    assert dict(new.map.cells) == dict(old.map.cells)
    assert new.sight == old.sight and new.climate is old.climate and new.theatre == old.theatre
    assert new.start_date == turn_date(old.start_date, old.turn)
    assert [(s.key, s.name, s.colour, s.nation, s.capital, s.supply_income) for s in new.sides.values()] == [
        (s.key, s.name, s.colour, s.nation, s.capital, s.supply_income) for s in old.sides.values()]
    assert dict(new.camps) == dict(old.camps)
    assert new.settings == old.settings
    on_map = {f.key for f in old.active() if any(u.sp for u in f.units)}
    assert {f.key for f in new.active()} == on_map
    for key in on_map:
        assert force_view(new, key) == force_view(old, key)
    coming = {f.key: f for f in old.forces.values() if f.status is ForceStatus.PENDING}
    assert {k for k, f in new.forces.items() if f.status is ForceStatus.PENDING} == set(coming)
    for key, f in coming.items():
        assert new.forces[key].arrives_turn == max(2, (f.arrives_turn or 0) - old.turn + 1)
        assert force_view(new, key) == force_view(old, key)


SCENARIOS = sorted(bundled_scenarios())


@pytest.mark.parametrize("key", SCENARIOS)
def test_a_fresh_campaign_saves_as_its_own_scenario(key: str) -> None:
    spec = load_bundled(key)
    state = started(spec)
    text, new = reborn(state)
    assert_same_campaign(state, new)
    again = parse_scenario_text(text)
    assert again.forces == spec.forces and again.sides == spec.sides and again.alliances == spec.alliances
    assert again.map == spec.map and again.supply == spec.supply
    assert scenario_yaml(new) == text  # and the new campaign saves as the same text again


@pytest.mark.parametrize("key", SCENARIOS)
def test_a_campaign_played_a_turn_starts_again_where_it_stood(key: str) -> None:
    state = war_damage(play_to(started(load_bundled(key)), 2))
    assert state.turn == 2
    _, new = reborn(state)
    assert_same_campaign(state, new)
    assert (new.turn, new.phase) == (1, Phase.WEATHER)


def test_a_generated_campaign_played_a_turn_starts_again_where_it_stood() -> None:
    state = war_damage(play_to(started(generated(), supply=True), 2, Phase.MOVEMENT))
    _, new = reborn(state)
    assert_same_campaign(state, new)
    assert new.settings.supply


def test_what_the_file_says_of_a_played_campaign() -> None:
    state = war_damage(play_to(started(load_bundled("tutorial")), 2))
    data = as_scenario(state)
    assert data["name"] == "Old Campaign"
    assert data["start_date"] == turn_date(state.start_date, 2)
    assert "Saved from the campaign 'Old Campaign' at turn 2" in data["description"]
    forces = {f["key"]: f for f in data["forces"]}
    # Lannes (the first by key) is worn down, his last unit destroyed, and holds Defend; Mack moved.
    assert [u["key"] for u in forces["lannes"]["units"]] == ["suchet"]
    assert forces["lannes"]["order"] == "defend" and "scouts" not in forces["lannes"]
    assert forces["lannes"]["leader"] == {"name": "Lannes", "cv": 3}  # lightly wounded: back fit
    assert forces["mack"]["leader"]["name"] == "New Leader (cavalry) of Army of Mack"
    assert "werneck" not in forces  # gone for good
    assert [(r["turn"], r["force"]["key"]) for r in data["reinforcements"]] == [(2, "ney")]  # due this turn
    assert data["map"]["legend"]["."] == "open"


def test_the_boats_and_horse_rafts_a_scenario_states_are_saved() -> None:
    """MC-5.3 (issue 21, item 6): what the scenario states for a Force's moves by water is the Force's own,
    and a saved campaign keeps it."""
    state = started(load_bundled("tutorial"))
    state = state.with_force("soult", small_boats=True).with_force("ney", horse_rafts=True)
    data = as_scenario(state)
    forces = {f["key"]: f for f in data["forces"]} | {r["force"]["key"]: r["force"] for r in data["reinforcements"]}
    assert forces["soult"]["small_boats"] is True and "horse_rafts" not in forces["soult"]
    assert forces["ney"]["horse_rafts"] is True and "small_boats" not in forces["ney"]
    assert not {"small_boats", "horse_rafts"} & set(forces["lannes"])  # nothing stated: nothing written
    _, new = reborn(state)
    assert_same_campaign(state, new)
    assert (new.forces["soult"].small_boats, new.forces["ney"].horse_rafts) == (True, True)


def test_a_reinforcement_still_to_come_keeps_its_distance_in_turns() -> None:
    state = started(load_bundled("tutorial"))
    state = state.with_force("ney", arrives_turn=4)
    state = play_to(state, 2)
    data = as_scenario(state)
    assert [(r["turn"], r["force"]["key"]) for r in data["reinforcements"]] == [(3, "ney")]
    due_now = as_scenario(state.with_force("ney", arrives_turn=2))  # due in this turn's Phase 7 (or held off)
    assert [r["turn"] for r in due_now["reinforcements"]] == [2]


def test_a_force_whose_leader_fell_with_nobody_in_his_place_gets_a_new_leader_named_after_it() -> None:
    state = started(load_bundled("tutorial"))
    ld = state.commander("soult")
    assert ld is not None
    state = state.with_leaders([replace(ld, status=LeaderStatus.CAPTURED)])
    force = next(f for f in as_scenario(state)["forces"] if f["key"] == "soult")
    assert force["leader"] == {"name": "New Leader of IV Corps", "cv": ld.cv}
    _, new = reborn(state)
    assert new.commander("soult").name == "New Leader of IV Corps"  # type: ignore[union-attr]


def test_enemies_on_one_square_are_refused_naming_them() -> None:
    state = started(load_bundled("tutorial")).with_force("soult", square="J5")
    with pytest.raises(InvalidInput, match="IV Corps, Army of Mack stand on J5"):
        as_scenario(state)


def test_a_force_on_water_is_refused() -> None:
    state = started(load_bundled("tutorial")).with_force("soult", square="A9")
    assert state.map.cell(Square.parse("A9")).terrain is Terrain.LAKE
    with pytest.raises(InvalidInput, match="IV Corps is on water at A9"):
        as_scenario(state)


def test_allies_may_share_a_square() -> None:
    spec = load_bundled("italy1796")
    state = started(spec)
    allied = [s for s in state.sides if state.camps[s] != s]
    a, b = (next(f for f in state.active() if f.side == side) for side in allied[:2])
    state = state.with_force(b.key, square=a.square)
    _, new = reborn(state)
    assert new.forces[b.key].square == a.square


def test_the_yaml_has_no_alias_and_one_row_per_line() -> None:
    state = started(load_bundled("italy1796"))
    text = scenario_yaml(state)
    assert "&" not in text and "*id" not in text
    rows = yaml.safe_load(text)["map"]["rows"]
    assert all(f'  - "{row}"\n' in text for row in rows)


def test_places_are_saved_when_the_map_names_them() -> None:
    state = started(load_bundled("tutorial"))
    cells = dict(state.map.cells)
    b5, f1 = Square.parse("B5"), Square.parse("F1")
    cells[b5] = replace(state.map.cell(b5), place=Place("Ulm", PlaceKind.FORTRESS))
    cells[f1] = replace(state.map.cell(f1), place=Place("Danube", PlaceKind.RIVER))
    cells[Square.parse("D2")] = model.Cell(place=Place("Günzburg"))
    state = state.evolve(map=replace(state.map, cells=cells))
    data = as_scenario(state)
    assert data["map"]["places"] == {"F1": {"name": "Danube", "kind": "river"}, "D2": "Günzburg",
                                     "B5": {"name": "Ulm", "kind": "fortress"}}
    _, new = reborn(state)
    assert dict(new.map.cells) == cells


def test_ranges_name_each_square_once_as_rectangles() -> None:
    squares = [Square(c, r) for r in range(3) for c in range(4)] + [Square(6, 0), Square(6, 2), Square(2, 5)]
    assert ranges(squares) == ["A1:D3", "G1", "G3", "C6"]
    assert ranges([]) == []


@st.composite
def square_sets(draw: st.DrawFn) -> tuple[int, int, set[Square]]:
    w, h = draw(st.integers(1, 12)), draw(st.integers(1, 12))
    picked = draw(st.sets(st.tuples(st.integers(0, w - 1), st.integers(0, h - 1)), max_size=60))
    return w, h, {Square(c, r) for c, r in picked}


@settings(max_examples=60, deadline=None)
@given(square_sets())
def test_ranges_expand_to_exactly_the_squares(given_: tuple[int, int, set[Square]]) -> None:
    _, _, squares = given_
    named: list[Square] = []
    for item in ranges(squares):
        a, _, b = item.partition(":")
        sa, sb = Square.parse(a), Square.parse(b or a)
        named += [Square(c, r) for r in range(sa.row, sb.row + 1) for c in range(sa.col, sb.col + 1)]
    assert sorted(named, key=lambda q: (q.row, q.col)) == sorted(squares, key=lambda q: (q.row, q.col))


@settings(max_examples=8, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(seed=st.integers(0, 10_000), sides=st.integers(2, 4), width=st.integers(10, 40), height=st.integers(10, 40),
       adjacency=st.sampled_from([4, 8]))
def test_save_then_parse_is_the_identity_on_a_generated_map(seed: int, sides: int, width: int, height: int,
                                                            adjacency: int) -> None:
    if width * height < 30 * sides:
        width = height = 20
    spec = parse_scenario(generate_scenario(Params(width=width, height=height, sides=sides, seed=seed)))
    state = started(spec, adjacency=adjacency)
    again = parse_scenario_text(scenario_yaml(state))
    assert again.map == state.map
    assert again.sight == spec.sight and again.sides == spec.sides and again.forces == spec.forces


@st.composite
def random_maps(draw: st.DrawFn) -> CampaignMap:
    """Any map the scenario format can say: every terrain, feature, flow, territory, stronghold, capital and
    place, anywhere."""
    w, h = draw(st.integers(2, 14)), draw(st.integers(2, 14))
    sides = [None, "fr", "au"]
    cells: dict[Square, model.Cell] = {}
    for sq in draw(st.sets(st.tuples(st.integers(0, w - 1), st.integers(0, h - 1)), max_size=w * h)):
        features = frozenset(draw(st.sets(st.sampled_from(list(model.Feature)))))
        flow = draw(st.sampled_from([None, *COMPASS])) if model.Feature.RIVER in features else None
        place = draw(st.none() | st.builds(Place, st.sampled_from(["Ulm", "Po", "Col di Tenda", "Brescia"]),
                                           st.sampled_from(list(PlaceKind))))
        cell = model.Cell(draw(st.sampled_from(list(Terrain))), features, draw(st.sampled_from(sides)),
                          draw(st.sampled_from(sides)), False, flow, place)
        if cell != model.Cell():
            cells[Square(*sq)] = cell
    for side in ("fr", "au"):
        own = sorted((sq for sq, c in cells.items() if c.stronghold == side), key=lambda q: (q.row, q.col))
        if own and draw(st.booleans()):
            sq = draw(st.sampled_from(own))
            cells[sq] = replace(cells[sq], capital=True)
    return CampaignMap(w, h, cells, draw(st.sampled_from([4, 8])))


@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(cmap=random_maps(), sight=st.integers(0, 20))
def test_save_then_parse_is_the_identity_on_any_map(cmap: CampaignMap, sight: int) -> None:
    state = started(load_bundled("tutorial")).evolve(map=cmap, sight=sight, forces={}, leaders={})
    again = parse_scenario_text(scenario_yaml(state))
    assert again.map == cmap and again.sight == sight and again.forces == ()
