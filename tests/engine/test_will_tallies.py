"""What the Will-to-Fight tallies count (MC-9, RU-14), when a side has lost all its Forces (MC-9),
and which reinforcements arrive (MC-10 Phase 7, RU-10): the engine functions the resolution calls."""

from __future__ import annotations

import pytest

from bot.engine.errors import InvalidInput
from bot.engine.seasons import Reinforcement, reinforcement_arrivals
from bot.engine.will import Holding, Tallies, WillTriggers, all_forces_lost


def test_ru_14_a_capital_counts_only_as_a_capital() -> None:
    held = [Holding("au", "fr", capital=True), Holding("au", "fr"), Holding("fr", "au")]
    assert Tallies.of("fr", held, battles_won=2) == Tallies(2, 0, strongholds_taken=1, strongholds_lost=1,
                                                            holds_enemy_capital=True)
    assert Tallies.of("au", held, battles_lost=1) == Tallies(0, 1, strongholds_taken=1, strongholds_lost=1,
                                                             lost_capital=True)


def test_ru_14_only_a_sides_own_strongholds_count_for_it() -> None:
    held = [Holding("ru", "fr", capital=True), Holding("ru", "fr")]  # Russia's, taken by France
    assert Tallies.of("au", held) == Tallies()  # Austria (Russia's ally or not) neither lost nor took them
    assert Tallies.of("fr", [Holding("fr", "fr", capital=True)]) == Tallies()  # its own, never lost


@pytest.mark.parametrize(("on_map", "to_arrive", "lost"), [(0, 0, True), (0, 1, False), (2, 0, False), (1, 3, False)])
def test_mc_9_forces_still_to_arrive_are_not_lost(on_map, to_arrive, lost) -> None:
    assert all_forces_lost(on_map=on_map, to_arrive=to_arrive) is lost


def test_mc_9_a_negative_count_of_forces_is_refused() -> None:
    with pytest.raises(InvalidInput, match="0 or more"):
        all_forces_lost(on_map=-1, to_arrive=0)


def test_mc_9_the_reasons_are_said_together() -> None:
    assert WillTriggers().why == ""
    assert WillTriggers(all_forces_lost=True, lost_battle=True).why == (
        "all its Forces are destroyed or lost to reactions; it lost a battle this turn")


def test_ru_10_a_reinforcement_waits_while_another_side_stands_on_its_square() -> None:
    schedule = [Reinforcement(2, "fr", "ney", "A1"), Reinforcement(2, "au", "kienmayer", "J9"),
                Reinforcement(3, "au", "later", "J9"), Reinforcement(1, "fr", "murat", "B2")]
    out = reinforcement_arrivals(schedule, 2, {"A1": {"au"}, "B2": {"fr"}})
    assert [r.force_id for r in out.arriving] == ["kienmayer", "murat"]  # a friend on B2 does not block
    assert [r.force_id for r in out.waiting] == ["ney"]


def test_ru_10_two_enemies_due_on_one_square_do_not_both_arrive() -> None:
    schedule = [Reinforcement(2, "au", "kienmayer", "E5"), Reinforcement(2, "fr", "ney", "E5"),
                Reinforcement(2, "au", "merveldt", "E5")]
    out = reinforcement_arrivals(schedule, 2, {})
    assert [r.force_id for r in out.arriving] == ["kienmayer", "merveldt"]
    assert [r.force_id for r in out.waiting] == ["ney"]
