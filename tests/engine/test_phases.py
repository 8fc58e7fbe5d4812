"""MC-3 the sequence of a campaign turn (bot/engine/phases.py): phases in order, optional phases
0 and 8 skipped when off, the last phase wrapping to the next turn, and what each phase waits for.
"""

from __future__ import annotations

import pytest

from bot.engine.errors import RuleViolation
from bot.engine.phases import (
    PHASES,
    Phase,
    PhaseFacts,
    TurnPosition,
    can_end,
    first_position,
    next_position,
    pending,
    phase_enabled,
    require_can_end,
)

ALL_ON = {"weather": True, "random_events": True}


def walk(options, start, steps):
    out, pos = [], start
    for _ in range(steps):
        pos = next_position(pos, options)
        out.append((pos.turn, int(pos.phase)))
    return out


def test_mc_3_the_turn_runs_through_phases_0_to_8_in_order():
    assert [int(p) for p in Phase] == list(range(9))
    assert [PHASES[p].name for p in Phase] == [
        "Weather", "Orders and Force tests", "Movement", "Battle", "After the battle", "Will to Fight",
        "Time", "Reinforcements", "Random events",
    ]


@pytest.mark.parametrize(
    ("phase", "rule"),
    [
        (Phase.WEATHER, "MC-10"), (Phase.ORDERS, "MC-4"), (Phase.MOVEMENT, "MC-5"), (Phase.BATTLE, "MC-6"),
        (Phase.AFTERMATH, "MC-7"), (Phase.WILL_TO_FIGHT, "MC-9"), (Phase.TIME, "MC-10"),
        (Phase.REINFORCEMENTS, "MC-10"), (Phase.EVENTS, "MC-10"),
    ],
)
def test_mc_3_each_phase_names_the_rule_it_runs(phase, rule):
    assert phase.spec.rule == rule
    assert phase.spec.title == f"Phase {int(phase)}: {phase.spec.name} ({rule})"


def test_mc_3_with_every_option_on_the_turn_starts_with_the_weather_and_wraps_after_events():
    start = first_position(ALL_ON)
    assert start == TurnPosition(1, Phase.WEATHER)
    assert walk(ALL_ON, start, 10) == [(1, p) for p in range(1, 9)] + [(2, 0), (2, 1)]


def test_mc_3_with_the_weather_off_the_turn_starts_with_orders():
    options = {"weather": False, "random_events": True}
    assert first_position(options) == TurnPosition(1, Phase.ORDERS)
    assert walk(options, TurnPosition(1, Phase.REINFORCEMENTS), 2) == [(1, 8), (2, 1)]


def test_mc_3_with_random_events_off_the_turn_wraps_after_reinforcements():
    options = {"weather": True, "random_events": False}
    assert walk(options, TurnPosition(3, Phase.TIME), 3) == [(3, 7), (4, 0), (4, 1)]


def test_mc_3_with_both_options_off_reinforcements_are_followed_by_the_next_turns_orders():
    options = {"weather": False, "random_events": False}
    assert walk(options, TurnPosition(1, Phase.ORDERS), 7) == [(1, 2), (1, 3), (1, 4), (1, 5), (1, 6), (1, 7), (2, 1)]


def test_mc_3_only_weather_and_random_events_are_optional():
    off = {"weather": False, "random_events": False}
    assert [p for p in Phase if not phase_enabled(p, off)] == [Phase.WEATHER, Phase.EVENTS]
    assert all(phase_enabled(p, {}) for p in Phase)  # options default to on


def test_mc_3_the_bundled_options_turn_both_optional_phases_on(rules):
    assert first_position(rules.mc.default_options()) == TurnPosition(1, Phase.WEATHER)


def test_mc_3_positions_order_by_turn_then_phase_and_read_as_text():
    assert TurnPosition(1, Phase.EVENTS) < TurnPosition(2, Phase.WEATHER)
    assert str(TurnPosition(2, Phase.MOVEMENT)) == "turn 2, Phase 2: Movement (MC-5)"


# --- what a phase waits for ------------------------------------------------------------------


def test_mc_3_orders_and_movement_wait_for_every_side_not_yet_done():
    facts = PhaseFacts(sides=("austria", "france"), done=frozenset({"france"}))
    assert [(p.who, p.what) for p in pending(Phase.ORDERS, facts)] == [("austria", "give orders, then mark done")]
    assert [(p.who, p.what) for p in pending(Phase.MOVEMENT, facts)] == [("austria", "declare moves, then mark done")]


def test_mc_3_the_battle_phase_waits_for_the_gms_reports():
    facts = PhaseFacts(sides=("austria", "france"), unreported_battles=("1", "2"))
    assert [(p.who, p.what) for p in pending(Phase.BATTLE, facts)] == [("gm", "report battle 1"), ("gm", "report battle 2")]


def test_mc_3_the_aftermath_waits_for_checks_and_retreats():
    facts = PhaseFacts(sides=("austria",), aftermath_due=(("austria", "1"),), retreats_due=(("austria", "III Corps"),))
    assert [(p.who, p.what) for p in pending(Phase.AFTERMATH, facts)] == [
        ("austria", "roll the aftermath of battle 1"),
        ("austria", "choose a retreat square for III Corps"),
    ]


@pytest.mark.parametrize("phase", [Phase.WEATHER, Phase.WILL_TO_FIGHT, Phase.TIME, Phase.REINFORCEMENTS, Phase.EVENTS])
def test_mc_3_phases_the_bot_runs_wait_for_nobody(phase):
    assert pending(phase, PhaseFacts(sides=("austria", "france"))) == ()


def test_mc_3_a_phase_with_nothing_pending_can_end():
    assert can_end(Phase.ORDERS, PhaseFacts(sides=("france",), done=frozenset({"france"})))


@pytest.mark.parametrize("phase", [Phase.ORDERS, Phase.MOVEMENT, Phase.AFTERMATH])
def test_mc_3_the_gm_or_a_deadline_may_force_player_phases_to_end(phase):
    facts = PhaseFacts(sides=("france",), aftermath_due=(("france", "1"),))
    assert not can_end(phase, facts)
    assert can_end(phase, facts, forced=True)


def test_mc_3_a_battle_phase_never_ends_without_its_reports():
    facts = PhaseFacts(sides=("france",), unreported_battles=("1",))
    assert not can_end(Phase.BATTLE, facts, forced=True)
    with pytest.raises(RuleViolation) as info:
        require_can_end(Phase.BATTLE, facts, forced=True)
    assert str(info.value) == "Phase 3: Battle (MC-6) is still waiting: gm: report battle 1."


def test_mc_3_require_can_end_lists_who_is_still_missing():
    facts = PhaseFacts(sides=("austria", "france", "russia"), done=frozenset({"france"}))
    with pytest.raises(RuleViolation) as info:
        require_can_end(Phase.ORDERS, facts)
    assert str(info.value) == (
        "Phase 1: Orders and Force tests (MC-4) is still waiting: austria: give orders, then mark done; "
        "russia: give orders, then mark done."
    )
    require_can_end(Phase.ORDERS, facts, forced=True)
