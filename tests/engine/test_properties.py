"""Property tests (hypothesis) over the map-campaign engine: every outcome stays in range for any
input, exact odds sum to one, and a large seeded sample of real dice matches the exact odds.

The sample tests use a fixed seed (``SeededDice.from_int``), so they are deterministic: the same
faces every run, no flakiness. Tolerances are five standard errors (chi-square at p = 0.001 for
the uniformity tests), which the fixed sample passes with room to spare.
"""

from __future__ import annotations

import json
import math
from collections import Counter
from fractions import Fraction

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from bot.engine.aftermath import UnitLosses, deserter_check, unit_aftermath, wounded_check
from bot.engine.attrition import unit_attrition
from bot.engine.battle import explore
from bot.engine.dice import ScriptedDice, SeededDice, derive_faces
from bot.engine.errors import RuleViolation
from bot.engine.force_test import force_test, force_test_check
from bot.engine.grid import CampaignMap
from bot.engine.model import (
    Cell,
    Feature,
    Force,
    Leader,
    Order,
    Outcome,
    Quality,
    Reaction,
    Square,
    Terrain,
    Territory,
    Unit,
)
from bot.engine.movement import (
    WaterRoute,
    declare_land_move,
    movement_check,
    resolve_movement,
    water_allowance,
    water_movement_check,
)
from bot.engine.phases import Phase, TurnPosition, next_position, phase_enabled
from bot.engine.rolls import Check, Modifier, Roll, record_from_dict
from bot.engine.seasons import event_check
from bot.engine.will import Tallies, will_to_fight

PROPS = settings(max_examples=120, deadline=None)
FEW = settings(max_examples=40, deadline=None)

faces = st.integers(1, 6)
cvs = st.integers(-3, 10)
terrains = st.sampled_from(list(Terrain))
features = st.frozensets(st.sampled_from(list(Feature)), max_size=3)
owners = st.sampled_from([None, "france", "austria", "bavaria"])
reactions = st.sampled_from([None, *Reaction])
orders = st.sampled_from(list(Order))
qualities = st.sampled_from(list(Quality))
territories = st.sampled_from(list(Territory))
cells = st.builds(Cell, terrain=terrains, features=features, territory=owners)
allies = st.sampled_from([frozenset(), frozenset({"bavaria"})])


@st.composite
def forces(draw, order=orders):
    return Force(
        "f1",
        "II Corps",
        "france",
        Square(2, 2),
        Leader("Davout", draw(cvs)),
        (Unit("u1", "1st Line", draw(st.integers(0, 30))),),
        order=draw(order),
        reaction=draw(reactions),
        scouts=draw(st.integers(0, 2)),
    )


# --- outcomes stay in range ------------------------------------------------------------------


@PROPS
@given(force=forces(), cell=cells, new_order=orders, face=faces, ally=allies)
def test_mc_4_ru_3_any_force_test_lands_in_the_table_and_never_improves_a_reaction_without_an_ok(
    force, cell, new_order, face, ally
):
    check = force_test_check(force, cell, allies=ally)
    if new_order is force.order and force.reaction is None:
        with pytest.raises(RuleViolation):
            force_test(force, cell, new_order, ScriptedDice([face]), "k", allies=ally)
        return
    result = force_test(force, cell, new_order, ScriptedDice([face]), "k", allies=ally)
    roll = result.roll
    assert roll.total == face + check.modifier_total
    assert roll.result in ("disaster", "unsteady", "confused", "defend", "ok")
    assert result.removed == result.will_to_fight == (roll.result == "disaster")
    if roll.result == "ok":
        assert (result.force.order, result.force.reaction) == (new_order, None)
    else:
        before = force.reaction.severity if force.reaction else 0
        after = result.force.reaction.severity if result.force.reaction else 0
        assert after >= before


@PROPS
@given(force=forces(), cell=cells, face=faces, extension=st.booleans(), weather=st.integers(-3, 3), ally=allies)
def test_mc_5_1_any_land_movement_roll_allows_0_to_3_squares(force, cell, face, extension, weather, ally):
    if force.order is Order.DEFEND:
        with pytest.raises(RuleViolation):
            movement_check(force, cell, extension=extension, weather=weather)
        return
    check = movement_check(force, cell, extension=extension, weather=weather, allies=ally)
    roll = check.roll(ScriptedDice([face]), "k")
    assert roll.value in (0, 1, 2, 3)
    assert roll.total == face + check.modifier_total
    assert all(m.rule in ("MC-5.1", "MC-10") for m in roll.modifiers)
    if not extension:
        assert all(m.rule == "MC-5.1" for m in roll.modifiers)
        assert roll.total >= face - 3 - 1 - 1 - 2  # mountain, river, enemy ground, unsteady
    assert roll.total <= face + 2 + 1 + 1 + max(weather, 0)


@PROPS
@given(
    force=forces(order=st.sampled_from([Order.EXPLORE, Order.FORCED_MARCH])),
    cell=cells,
    face=faces,
    body=st.sampled_from(["sea", "river"]),
    wind=st.sampled_from(["favourable", "contrary", "calm", "none"]),
    flags=st.fixed_dictionaries({k: st.booleans() for k in ("reefs", "small_boats", "horse_barges", "rapids", "bridge")}),
    flow=st.sampled_from(["upstream", "downstream", None]),
    embarking=st.booleans(),
    landing=st.booleans(),
    weather=st.integers(-3, 3),
)
def test_mc_5_3_any_water_move_allows_1_to_4_squares_and_embarking_never_adds(
    force, cell, face, body, wind, flags, flow, embarking, landing, weather
):
    route = WaterRoute(body, wind=wind, upstream=flow == "upstream", downstream=flow == "downstream",
                       embarking=embarking, landing=landing, **flags)
    roll = water_movement_check(force, cell, route, weather=weather).roll(ScriptedDice([face]), "k")
    allowance = water_allowance(roll, route)
    assert roll.value in (1, 2, 3, 4)
    assert 1 <= allowance <= roll.value
    assert roll.value - allowance <= int(embarking) + int(landing)
    if roll.total < 3:
        assert allowance == roll.value == 1


@PROPS
@given(force=forces(), cell=cells, face=faces)
def test_mc_6_1_ru_5_any_exploration_score_is_0_or_more_and_even_for_defend(force, cell, face):
    result = explore(force, cell, ScriptedDice([face]), "k")
    assert result.score >= 0
    if result.roll is None:
        assert result.score == 0
        assert force.reaction in (Reaction.UNSTEADY, Reaction.ROUTED) or force.scouts == 0
    elif force.order is Order.DEFEND:
        assert result.score % 2 == 0
        assert result.score == max(0, 2 * (face + sum(m.value for m in result.roll.modifiers)))


@PROPS
@given(sp=st.integers(0, 40), quality=qualities, territory=territories, seed=st.integers(0, 10**6))
def test_mc_5_2_any_crossing_loses_0_to_4_sp_and_leaves_0_to_the_units_sp(sp, quality, territory, seed):
    unit = Unit("u1", "1st Line", sp, quality=quality)
    result = unit_attrition(unit, Square(0, 0), territory, SeededDice.from_int(seed), "k")
    assert 0 <= result.lost <= min(4, sp)
    assert 0 <= result.unit.sp <= sp
    assert result.unit.sp == sp - result.lost + result.returned_wounded - result.deserted
    if result.deserters is not None:
        assert Fraction(result.lost, sp) > Fraction(1, 4)
        assert len(result.deserters.dice) == sp - result.lost


@st.composite
def reports(draw):
    sp = draw(st.integers(0, 40))
    killed = draw(st.integers(0, sp))
    rout = draw(st.integers(0, sp - killed))
    other = draw(st.integers(0, sp - killed - rout))
    return sp, UnitLosses("u1", killed, rout, other)


@PROPS
@given(
    report=reports(),
    quality=qualities,
    mercenary=st.booleans(),
    outcome=st.sampled_from(list(Outcome)),
    territory=territories,
    setting=st.sampled_from(["check_all", "lose_all"]),
    seed=st.integers(0, 10**6),
)
def test_mc_7_any_aftermath_leaves_between_0_and_the_units_sp(report, quality, mercenary, outcome, territory, setting, seed):
    sp, losses = report
    unit = Unit("u1", "1st Line", sp, quality=quality, mercenary=mercenary)
    result = unit_aftermath(unit, losses, outcome, territory, SeededDice.from_int(seed), "k", mercenary=setting)
    assert 0 <= result.unit.sp <= sp
    assert result.dead + result.returned_wounded == losses.killed
    checked = sum(len(r.dice) for r in result.deserters)
    assert result.deserted == result.lost_outright + (checked - result.returned)
    assert checked + result.lost_outright <= sp - losses.killed
    if outcome is not Outcome.LOST:
        assert checked == losses.rout and result.lost_outright == 0


@PROPS
@given(
    won=st.integers(0, 20), lost=st.integers(0, 20), taken=st.integers(0, 5), gone=st.integers(0, 5),
    capital=st.booleans(), lost_capital=st.booleans(), face=faces,
)
def test_mc_9_any_will_to_fight_total_below_zero_is_defeat_and_otherwise_the_side_fights_on(
    won, lost, taken, gone, capital, lost_capital, face
):
    tallies = Tallies(won, lost, taken, gone, capital, lost_capital)
    roll = will_to_fight(tallies, ScriptedDice([face]), "k")
    assert roll.total == face + won - lost + taken - gone + 3 * capital - 3 * lost_capital
    assert roll.result == ("defeat" if roll.total < 0 else "fights_on")


@FEW
@given(turn=st.integers(1, 50), phase=st.sampled_from(list(Phase)), weather=st.booleans(), events=st.booleans())
def test_mc_3_the_next_phase_is_always_later_enabled_and_within_one_turn(turn, phase, weather, events):
    options = {"weather": weather, "random_events": events}
    pos = TurnPosition(turn, phase)
    nxt = next_position(pos, options)
    assert nxt > pos
    assert phase_enabled(nxt.phase, options)
    assert nxt.turn in (turn, turn + 1)
    if nxt.turn == turn + 1:
        assert all(not phase_enabled(Phase(p), options) for p in range(int(phase) + 1, 9))


# --- RU-13 resolution for random moves --------------------------------------------------------

DIRS = [(-1, -1), (0, -1), (1, -1), (-1, 0), (1, 0), (-1, 1), (0, 1), (1, 1)]


@st.composite
def scenarios(draw):
    """Up to five Forces of two sides on a 6x6 map, each with a random walk of 1 to 3 squares."""
    cmap = CampaignMap(6, 6)
    n = draw(st.integers(2, 5))
    out, moves = [], {}
    for i in range(n):
        start = Square(draw(st.integers(0, 5)), draw(st.integers(0, 5)))
        force = Force(
            f"f{i}", f"Force {i}", draw(st.sampled_from(["france", "austria"])), start, Leader("L", 0),
            order=Order.EXPLORE, reaction=draw(st.sampled_from([None, Reaction.ROUTED])),
        )
        out.append(force)
        path, here = [], start
        for _ in range(draw(st.integers(0, 3))):
            options = [Square(here.col + dc, here.row + dr) for dc, dr in DIRS
                       if 0 <= here.col + dc < 6 and 0 <= here.row + dr < 6]
            here = draw(st.sampled_from(options))
            path.append(here)
        if path:
            face = draw(st.integers(3, 6))  # routed: -2 may leave it in place
            moves[force.id] = declare_land_move(force, cmap, path, ScriptedDice([face]), f"k{i}", weather=draw(st.integers(0, 3)))
    return out, moves


@PROPS
@given(scenario=scenarios())
def test_ru_13_any_simultaneous_resolution_stops_at_first_contact_and_leaves_no_unfought_contact(scenario):
    forces, moves = scenario
    by_id = {f.id: f for f in forces}
    out = resolve_movement(forces, moves)
    for fid, move in moves.items():
        enemy_start = {f.square for f in forces if f.side != by_id[fid].side}
        walked = out.travelled[fid]
        assert walked == move.reach[: len(walked)]
        assert not any(s in enemy_start for s in walked[:-1])  # only the last square may be a contact
        if len(walked) < len(move.reach):
            assert walked[-1] in enemy_start and fid in out.stopped_by_contact
    for fid in out.collapsed:
        assert by_id[fid].reaction is Reaction.ROUTED
    fought = {c.square for c in out.battles}
    here: dict[Square, set[str]] = {}
    for fid, square in out.positions.items():
        here.setdefault(square, set()).add(by_id[fid].side)
    for square, sides in here.items():
        assert (len(sides) > 1) == (square in fought)
    for fid, square in out.positions.items():
        if fid not in moves:
            assert square == by_id[fid].square


# --- exact odds -------------------------------------------------------------------------------

bundled_checks = st.one_of(
    st.builds(lambda t: wounded_check(t), territories),
    st.builds(lambda q, r: deserter_check(q, routed=r), qualities, st.booleans()),
    st.builds(lambda f, c: force_test_check(f, c), forces(), cells),
    st.builds(lambda f, c, e, w: movement_check(f, c, extension=e, weather=w),
              forces(order=st.sampled_from([Order.EXPLORE, Order.FORCED_MARCH])), cells, st.booleans(), st.integers(-3, 3)),
    st.just(event_check()),
)


@st.composite
def random_checks(draw):
    """A check built from a bundled table with any modifiers, dice, multiplier and floor."""
    base = draw(bundled_checks)
    mods = tuple(Modifier(v, "X-1", "any") for v in draw(st.lists(st.integers(-6, 6), max_size=4)))
    return Check(
        base.rule, base.name, base.modifiers + mods, base.table,
        dice=draw(st.integers(1, 3)), naturals=base.naturals, multiplier=draw(st.integers(1, 3)),
        floor=draw(st.one_of(st.none(), st.integers(-5, 5))),
    )


@PROPS
@given(check=random_checks())
def test_exact_odds_and_total_odds_of_any_check_sum_to_one(check):
    odds = check.odds()
    assert sum(odds.values()) == 1
    assert list(odds) == list(dict.fromkeys(check.table.results()))
    assert all(0 <= p <= 1 for p in odds.values())
    totals = check.total_odds()
    assert sum(totals.values()) == 1
    if check.floor is not None:
        assert min(totals) >= check.floor


@PROPS
@given(check=bundled_checks, sp=st.integers(0, 200), seed=st.integers(0, 10**6))
def test_any_per_sp_roll_counts_add_up_to_the_sp_rolled(check, sp, seed):
    if check.dice != 1:
        return
    batch = check.roll_many(SeededDice.from_int(seed), "k", sp)
    assert len(batch.dice) == sp
    assert sum(n for _, n in batch.counts) == sp
    assert record_from_dict(json.loads(json.dumps(batch.to_dict()))) == batch


@PROPS
@given(check=bundled_checks, seed=st.integers(0, 10**6), key=st.text(min_size=1, max_size=30))
def test_any_roll_survives_json_and_renders_as_one_line_naming_its_rule(check, seed, key):
    roll = check.roll(SeededDice.from_int(seed), key)
    assert Roll.from_dict(json.loads(json.dumps(roll.to_dict()))) == roll
    line = str(roll)
    assert "\n" not in line
    assert f"({roll.rule})" in line
    assert line.endswith(roll.label)
    for m in roll.modifiers:
        assert str(m) in line


# --- dice ------------------------------------------------------------------------------------


@PROPS
@given(
    seed=st.binary(min_size=16, max_size=32),
    key=st.text(min_size=1, max_size=40),
    count=st.integers(0, 300),
    sides=st.sampled_from([6, 20, 100, 1000]),
)
def test_derived_faces_of_d6_d20_d100_and_d1000_stay_on_the_die(seed, key, count, sides):
    out = derive_faces(seed, key, count, sides)
    assert len(out) == count
    assert all(1 <= f <= sides for f in out)
    assert derive_faces(seed, key, count, sides) == out


@PROPS
@given(col=st.integers(0, 701), row=st.integers(0, 998))
def test_any_square_name_reads_back_as_the_same_square(col, row):
    sq = Square(col, row)
    assert Square.parse(sq.name) == sq
    assert Square.parse(sq.name.lower()) == sq


# --- a large seeded sample matches the exact odds -------------------------------------------

SAMPLE = 60_000
SAMPLE_DICE = SeededDice.from_int(7)

CHI2_P001 = {5: 20.515, 19: 43.820, 99: 148.230}
"""Chi-square critical values at p = 0.001 by degrees of freedom."""


def chi_square(observed: Counter[int], sides: int, n: int) -> float:
    expected = n / sides
    return sum((observed.get(f, 0) - expected) ** 2 / expected for f in range(1, sides + 1))


@pytest.mark.parametrize("sides", [6, 20, 100])
def test_sixty_thousand_seeded_dice_are_uniform_by_chi_square(sides):
    faces_ = SAMPLE_DICE.faces(f"sample/uniform/d{sides}", SAMPLE, sides)
    assert chi_square(Counter(faces_), sides, SAMPLE) < CHI2_P001[sides - 1]


def assert_close(counts: dict, odds: dict, n: int) -> None:
    """Each observed count within five standard errors of its exact expectation."""
    for result, p in odds.items():
        expected = n * p
        se = math.sqrt(n * p * (1 - p))
        observed = counts.get(result, 0)
        if p == 0:
            assert observed == 0, result
        else:
            assert abs(observed - expected) <= 5 * se, (result, observed, float(expected))


def _force(**kw):
    return Force("f1", "II Corps", "france", Square(2, 2), Leader("Davout", kw.pop("cv", 0)), **kw)


SAMPLED_CHECKS = [
    pytest.param(wounded_check(Territory.ENEMY), id="wounded-enemy-territory"),
    pytest.param(deserter_check(Quality.ELITE, routed=True), id="deserters-elite-routed"),
    pytest.param(deserter_check(Quality.RAW, routed=True), id="deserters-raw-routed"),
    pytest.param(force_test_check(_force(cv=1, reaction=Reaction.CONFUSED), Cell(Terrain.MOUNTAIN, territory="france")),
                 id="force-test"),
    pytest.param(movement_check(_force(order=Order.FORCED_MARCH), Cell(Terrain.FOREST, territory="austria")),
                 id="movement"),
]


@pytest.mark.parametrize("check", SAMPLED_CHECKS)
def test_a_large_seeded_sample_of_results_matches_the_exact_odds(check):
    batch = check.roll_many(SAMPLE_DICE, f"sample/{check.rule}/{check.modifier_total}", SAMPLE)
    assert_close(dict(batch.counts), check.odds(), SAMPLE)


def test_a_large_seeded_sample_of_2d6_totals_matches_the_exact_total_odds():
    check = event_check()
    faces_ = SAMPLE_DICE.faces("sample/RU-10/events", SAMPLE)
    n = SAMPLE // 2
    totals = Counter(check.total_for(faces_[i : i + 2]) for i in range(0, SAMPLE, 2))
    assert_close(totals, check.total_odds(), n)
    results = Counter(check.band_for(faces_[i : i + 2])[1].result for i in range(0, SAMPLE, 2))
    assert_close(results, check.odds(), n)
