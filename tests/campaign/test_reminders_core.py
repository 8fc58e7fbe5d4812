"""What a reminder says a side still has to do, and what the channel says at the deadline (issue 22, item 5),
through the core the scheduler calls."""

from __future__ import annotations

import pytest

from bot.campaign import orders, reminders
from bot.campaign.errors import PermissionDenied
from bot.engine.phases import Phase

from .test_claims_core import AUSTRIAN, FRENCH, at_battle


def test_in_phase_3_a_reminder_names_the_battle_its_scouting_and_its_report() -> None:
    miss = reminders.missing(at_battle(), "fr")
    assert miss.phase is Phase.BATTLE and not miss.can_mark_done
    assert [str(x) for x in miss.lines] == ["battle 1 at J5: your scouting test (MC-6.1)",
                                             "battle 1 at J5: your camp's report, once it is fought (BR)"]


def test_in_phase_2_a_reminder_names_the_forces_with_no_move_and_a_done_side_has_nothing_left() -> None:
    state = at_battle().evolve(phase=Phase.MOVEMENT, battles={})
    miss = reminders.missing(state, "au")
    assert miss.can_mark_done and "Forces with no move declared (MC-5): " in miss.lines[0]
    state, _ = orders.mark_done(state, AUSTRIAN)
    assert reminders.missing(state, "au").lines == () and reminders.did_not_act(state) == (
        "The deadline passed: France did not act; its Forces with no declared move stay where they are (MC-5).",)


def test_my_side_is_done_from_a_dm_is_refused_to_a_player_of_another_side() -> None:
    state = at_battle().evolve(phase=Phase.ORDERS, battles={})
    with pytest.raises(PermissionDenied, match="for France's players; you play Austria"):
        orders.mark_side_done(state, AUSTRIAN, "fr")
    state, everyone = orders.mark_side_done(state, FRENCH, "fr")
    assert state.sides["fr"].done and not everyone
