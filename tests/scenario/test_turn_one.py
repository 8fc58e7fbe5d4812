"""No bundled scenario can end a side's campaign before anyone gives an order (issue "Campaigns that
end", items 7 and 8): the chance that any side must take the Will-to-Fight test (MC-9) in turn 1, when
nobody orders or moves anything, is zero.

Each campaign starts through the core (:func:`bot.campaign.new.from_scenario`) and turn 1 is resolved
from Phase 0 to the start of turn 2 as the bot resolves it: once with nobody on a side (the default
``unmanned_sides: hold``: every Force keeps its order, MC-3), once with a member on every side who says
done in Phases 1 and 2 without an order or a move.

The chance is computed, not sampled. With nobody ordering or moving, the only dice rolled before
Phase 5 are the weather's, one 1D6 in Phase 0 (RU-10), and, with ``movement_order: initiative``, the
initiative's in Phase 2 (RU-4), which only orders moves that nobody made; the test checks that no other
roll comes before Phase 5. MC-9's reasons (a Force test's disaster, MC-4: no order, no test; a battle
lost; a stronghold lost to the enemy; every Force lost, RU-25) then follow from where the Forces
stand, whatever those dice show. So the turn is played once for each face of the weather die (seeds
are searched until every face has come up), and the chance is the sum over the faces, each 1/6, of
whether some side had to test."""

from __future__ import annotations

import hashlib
from dataclasses import dataclass, replace
from fractions import Fraction

import pytest

from bot.campaign import lifecycle, orders
from bot.campaign.dice import Context
from bot.campaign.events import EventKind, Journal
from bot.campaign.new import from_scenario
from bot.campaign.state import CampaignState, CampaignStatus, ForceStatus
from bot.campaign.turn import resolve
from bot.engine.model import Square
from bot.engine.phases import Phase
from bot.engine.rolls import Roll
from bot.engine.tables import default_rulebook
from bot.engine.text import Msg
from bot.scenario import Scenario, bundled_scenarios, load_bundled

BUNDLED = sorted(bundled_scenarios())
GM_ID = 1
SEEDS = 200  # more than enough to see each face of one die (the chance of missing one is below 1e-15)


@dataclass(frozen=True)
class Member:
    member_id: int
    roles: frozenset[int] = frozenset()


@dataclass(frozen=True)
class TurnOne:
    """What turn 1 did, played with one seed."""

    weather: int | None
    """The weather die's face (None when the campaign rolls no weather)."""
    early: tuple[str, ...]
    """The keys of the rolls made before Phase 5."""
    tested: tuple[str, ...]
    """The sides that took the Will-to-Fight test (MC-9) in turn 1."""
    reasons: tuple[str, ...]
    """Why each of them tested (its ``must_test``, or every Force lost)."""
    battles: int
    state: CampaignState


def play_turn_one(spec: Scenario, seed: bytes, *, members: bool) -> TurnOne:
    """Turn 1 with nobody ordering or moving; stops at the start of turn 2."""
    ctx = Context(lambda: seed, default_rulebook())
    state = from_scenario(spec, campaign_id=1, name="Turn one", gm_id=GM_ID)
    journal = Journal()
    if members:
        for i, side in enumerate(state.sides, start=2):
            state, _ = lifecycle.join_side(state, Member(i), f"Player {i}", side, journal)
    for _ in range(20):
        if state.turn != 1 or state.status is not CampaignStatus.ACTIVE:
            break
        if state.phase in (Phase.ORDERS, Phase.MOVEMENT):
            for member in state.players:  # done, without an order or a move
                state, _ = orders.mark_done(state, member)
        state = resolve(state, journal, ctx).state
    turn_one = [e for e in journal.events if e.turn == 1]
    rolls = [e.roll for e in turn_one if e.kind is EventKind.ROLL and isinstance(e.roll, Roll)]
    weather = [r.dice[0] for r in rolls if r.key.startswith("t1/p0/")]
    return TurnOne(
        weather=weather[0] if weather else None,
        early=tuple(r.key for r in rolls if int(r.key.split("/")[1][1:]) < Phase.WILL_TO_FIGHT),
        tested=tuple(r.key.split("/")[2] for r in rolls if r.key.startswith("t1/p5/")),
        reasons=tuple(str(e.text.params["why"]) for e in turn_one
                      if isinstance(e.text, Msg) and "why" in e.text.params and "Will to Fight" in e.text.template),
        battles=len(state.battles),
        state=state,
    )


def every_weather(spec: Scenario, *, members: bool) -> dict[int | None, TurnOne]:
    """Turn 1 once for each face the weather die can show (seeds searched until each has come up)."""
    seen: dict[int | None, TurnOne] = {}
    for n in range(SEEDS):
        played = play_turn_one(spec, hashlib.sha256(f"turn one {n}".encode()).digest(), members=members)
        seen.setdefault(played.weather, played)
        if played.weather is None or len(seen) == 6:
            break
    return seen


def chance_of_a_test(seen: dict[int | None, TurnOne]) -> Fraction:
    """The chance that some side must test its Will to Fight (MC-9) in turn 1 with nobody moving: over
    the faces of the weather die, each 1/6, whether a side tested with it."""
    assert set(seen) in ({None}, {1, 2, 3, 4, 5, 6}), sorted(seen, key=str)
    for played in seen.values():
        # Nothing else is rolled before Phase 5: the weather (RU-10) and, at most, the initiative (RU-4).
        assert {key.split("/", 3)[3] for key in played.early} <= {"weather", "initiative"}, played.early
    faces = Fraction(1, len(seen))
    return sum((faces for played in seen.values() if played.tested or played.reasons), Fraction(0))


@pytest.mark.parametrize("members", [False, True], ids=["nobody-plays", "every-side-done"])
@pytest.mark.parametrize("key", BUNDLED)
def test_no_side_can_be_made_to_test_its_will_to_fight_in_turn_one_with_nobody_moving_mc_9(
        key: str, members: bool) -> None:
    spec = load_bundled(key)
    seen = every_weather(spec, members=members)
    for face, played in seen.items():
        assert played.reasons == (), (face, played.reasons)
        assert played.tested == (), (face, played.tested)
        assert played.battles == 0, face  # nobody moved: no Forces of two camps share a square (MC-6)
        assert played.state.status is CampaignStatus.ACTIVE, face
        assert not any(sd.defeated for sd in played.state.sides.values()), face  # RU-25
        assert (played.state.turn, played.state.phase) == (2, Phase.ORDERS), face
    assert chance_of_a_test(seen) == 0


@pytest.mark.parametrize("key", BUNDLED)
def test_every_force_still_stands_where_it_started_after_turn_one(key: str) -> None:
    """Nobody moved: every Force on the map at the start is still there, on its own square (no rout,
    MC-4; no collapse, MC-2; no battle, MC-6)."""
    spec = load_bundled(key)
    played = play_turn_one(spec, hashlib.sha256(b"turn one 0").digest(), members=False)
    start = {f.key: str(f.square) for f in spec.forces if f.arrives_turn is None}
    after = {k: f.square for k, f in played.state.forces.items() if k in start}
    assert after == start
    assert all(played.state.forces[k].status is ForceStatus.ACTIVE for k in start)


def test_the_chance_is_computed_over_the_weather_die_and_finds_a_side_that_must_test() -> None:
    """The computation sees a side that must test: danube1809 as it was, with Jellačić on Munich
    (Bavaria's capital), had Bavaria test after Phase 2 whatever the weather: a chance of 1."""
    spec = load_bundled("danube1809")
    spec = replace(spec, forces=tuple(replace(f, square=Square.parse("N19")) if f.key == "jellacic" else f
                                      for f in spec.forces))
    seen = every_weather(spec, members=False)
    assert chance_of_a_test(seen) == 1
    assert seen[1].tested == ("side:ba",)
    assert seen[1].reasons == ("it lost its capital at N19 (MC-9)",)
