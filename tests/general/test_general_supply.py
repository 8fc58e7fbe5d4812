"""The bot general spends what a member may spend to move (RU-26): a forced march bought with supply (FC-2)
for a Force whose Force test for the Forced March order is too risky, and a scout to re-roll a Force test
that would remove the Force or leave it Unsteady, or a strike's movement roll that falls short (FC-3); only
where the campaign's settings allow them, through the members' own core functions."""

from __future__ import annotations

from dataclasses import replace
from fractions import Fraction

from bot.campaign.dice import turn_dice
from bot.campaign.events import Journal
from bot.campaign.general import act, decide, side_view
from bot.campaign.general.decide import Buy, GiveOrder, Move
from bot.campaign.general.decide import test_chances as force_test_chances
from bot.campaign.state import CampaignState
from bot.engine.field_commander import PurchaseKind
from bot.engine.model import Order, Reaction
from bot.engine.phases import Phase

from .test_general_core import CTX, RULES, campaign, general_lines


def tutorial(turn: int, phase: Phase = Phase.ORDERS, **options: object) -> CampaignState:
    """The tutorial at ``turn``, France's Forces away in the corners of their territory."""
    state = campaign("tutorial", **options).evolve(turn=turn, phase=phase)
    return state.with_forces([replace(state.forces["soult"], square="A1"), replace(state.forces["lannes"], square="A9")])


def decisions(state: CampaignState, side: str = "au") -> tuple[object, ...]:
    _, dice = turn_dice(state, Journal(), CTX)
    return decide(side_view(state, side), dice, RULES).items


def test_fc_2_a_force_whose_forced_march_test_is_too_risky_buys_the_forced_march_with_supply() -> None:
    # D5: the road in French territory; Mack (CV 1) tests on 1d6 + 1 - 1: a disaster 1 time in 6 (MC-4)
    state = tutorial(3, supply=True).with_side("au", supply=10)
    state = state.with_forces([replace(state.forces["mack"], square="D5", order=Order.EXPLORE, scouts=1)])
    view = side_view(state, "au")
    mack = next(f for f in view.own if f.key == "mack")
    assert force_test_chances(view, mack, RULES)["disaster"] == Fraction(1, 6)
    made = decisions(state)
    assert not [d for d in made if isinstance(d, GiveOrder) and d.force == "mack"]
    units = sum(1 for u in mack.units if u.sp)
    assert [(d.kind, d.cost) for d in made if isinstance(d, Buy) and d.force == "mack"] == [
        (PurchaseKind.FORCED_MARCH, units)]
    journal = Journal()
    state, acted = act(state, "au", journal, CTX)
    assert acted.refused == ()
    assert [p.kind for p in state.purchases_of("au") if p.force == "mack"] == [PurchaseKind.FORCED_MARCH]
    assert any("force-marches with supply" in line for line in general_lines(journal, "au"))
    # without the supply setting there is nothing to buy it with
    off = tutorial(3).with_forces([replace(state.forces["mack"], square="D5", order=Order.EXPLORE)])
    assert not [d for d in decisions(off) if isinstance(d, Buy)]


def test_fc_3_a_force_test_that_would_remove_the_force_is_rerolled_with_a_scout() -> None:
    # Werneck (CV 2) Confused and holding in French territory rallies on 1d6 + 2 - 1 - 1: at turn 6 its roll
    # of 1 is a disaster (MC-4), and the general re-rolls it with the Force's one scout
    state = tutorial(6, scout_rerolls=True)
    state = state.with_forces([replace(state.forces["werneck"], scouts=1, square="D5", order=Order.DEFEND,
                                       reaction=Reaction.CONFUSED)])
    [test] = [d for d in decisions(state) if isinstance(d, GiveOrder) and d.force == "werneck"]
    assert test.reroll == {"disaster", "unsteady"}
    journal = Journal()
    state, acted = act(state, "au", journal, CTX)
    assert acted.refused == ()
    texts = [str(e.text) for e in journal.events if "Werneck" in str(e.text)]
    first = next(i for i, t in enumerate(texts) if t.startswith("Force test (MC-4)"))
    assert "= 1 -> disaster" in texts[first]
    assert "spends a scout of Werneck's Corps to re-roll its Force test of 1 (FC-3)" in texts[first + 1]
    assert "spends a scout to re-roll its Force test (FC-3): 1 is now" in texts[-1]
    assert state.forces["werneck"].scouts == 0 and "werneck" in {f.key for f in state.active()}
    # without the setting, or without a scout, the test stands
    for other in (tutorial(6), tutorial(6, scout_rerolls=True)):
        scouts = 0 if other.settings.scout_rerolls else 1
        other = other.with_forces([replace(other.forces["werneck"], scouts=scouts, square="D5", order=Order.DEFEND,
                                           reaction=Reaction.CONFUSED)])
        [test] = [d for d in decisions(other) if isinstance(d, GiveOrder) and d.force == "werneck"]
        assert test.reroll == frozenset()


def test_fc_3_a_strike_whose_movement_roll_falls_short_is_rerolled_with_a_scout() -> None:
    # Mack (2 scouts), four times his strength, strikes Soult beside him: the general takes a Force it never
    # fought for one of its own on average, and four 1-SP detachments far away make Mack three times that, an
    # overwhelm (FC-1). The first turn whose roll leaves Mack short of Soult's square, the general spends one
    # scout on the roll (the re-roll stands, whatever it gives).
    for turn in range(2, 30):
        state = tutorial(turn, Phase.MOVEMENT, scout_rerolls=True)
        mack, werneck = state.forces["mack"], state.forces["werneck"]
        small = werneck.with_units({u.key: replace(u, sp=0) for u in werneck.units[1:]})
        small = small.with_units({small.units[0].key: replace(small.units[0], sp=1)})
        state = state.with_forces([
            replace(state.forces["soult"], square="E4"),
            *(replace(small, key=f"detachment{i}", name=f"Detachment {i}", square=f"J{i}") for i in range(1, 5)),
            replace(werneck, square="J9"),
            replace(mack.with_units({u.key: replace(u, sp=4 * u.sp, original_sp=4 * u.sp) for u in mack.units}),
                    square="F4", scouts=2, order=Order.EXPLORE)])
        [strike] = [d for d in decisions(state) if isinstance(d, Move) and d.force == "mack"]
        assert [str(sq) for sq in strike.path] == ["E4"] and strike.reroll
        journal = Journal()
        after, acted = act(state, "au", journal, CTX)
        assert acted.refused == ()
        lines = general_lines(journal, "au")
        if any("re-roll its movement roll, short of the enemy at" in line for line in lines):
            assert after.forces["mack"].scouts == 1
            assert any("spends a scout to re-roll its Movement roll (FC-3)" in line for line in lines)
            return
        assert after.forces["mack"].scouts == 2  # it reached Soult: no scout spent
    raise AssertionError("no turn whose movement roll fell short")
