"""The bot general's core (RU-26): what it decides in each phase, only from its side's view (a hidden
enemy Force changes nothing), with the turn's dice (the same dice, the same decisions), through the
members' own core functions (nothing refused), and for the sides it plays only."""

from __future__ import annotations

import hashlib
from dataclasses import replace

import pytest

from bot.campaign.dice import Context, turn_dice
from bot.campaign.errors import PermissionDenied
from bot.campaign.events import Journal
from bot.campaign.general import act, decide, side_view
from bot.campaign.general.decide import GiveOrder, GroupStance, Move, best_strike, groups, strike_chance, win_chance
from bot.campaign.new import from_scenario
from bot.campaign.seats import general_plays, general_sides
from bot.campaign.sight import Reader, visible_force_keys
from bot.campaign.state import CampaignState
from bot.campaign.turn import resolve, waiting_for
from bot.engine.phases import Phase
from bot.engine.tables import default_rulebook
from bot.scenario import load_bundled

GM_ID, MEMBER = 1, 2001
CTX = Context(lambda: hashlib.sha256(b"general").digest(), default_rulebook())
RULES = default_rulebook()


def campaign(scenario: str = "italy1796", **options: object) -> CampaignState:
    """A bundled scenario with every side left to the general, in Phase 1 of turn 1."""
    state = from_scenario(load_bundled(scenario), campaign_id=1, name="G", gm_id=GM_ID,
                          options={"unmanned_sides": "ai", **options})
    return state.evolve(phase=Phase.ORDERS)


def general_lines(journal: Journal, side: str) -> list[str]:
    return [str(e.text) for e in journal.events if e.visibility == f"side:{side}"]


def hidden_changed(state: CampaignState, side: str) -> CampaignState:
    """Every enemy Force ``side`` does not see moved, stronger, and its leader better: what fog hides."""
    seen = visible_force_keys(state, Reader(side=side))
    changed = []
    for f in state.active():
        if f.side != side and f.key not in seen:
            far = next(sq for sq in state.map.squares() if not state.map.cell(sq).terrain.is_water
                       and str(sq) != f.square and all(state.map.distance(sq, state.map.parse(o.square)) > state.sight
                                                       for o in state.active() if o.side == side))
            changed.append(replace(f, square=str(far), units=tuple(replace(u, sp=u.sp * 3) for u in f.units)))
    assert changed, "the test needs an enemy Force the side does not see"
    leaders = [replace(ld, cv=ld.cv + 2) for ld in state.leaders.values() if ld.force in {f.key for f in changed}]
    return state.with_forces(changed).with_leaders(leaders)


def test_ru_26_unmanned_sides_ai_seats_the_general_on_every_side_nobody_plays() -> None:
    state = campaign()
    assert general_sides(state) == tuple(state.sides)
    played = state.evolve(players={MEMBER: "fr"})
    assert not general_plays(played, "fr")  # a member's seat always wins
    assert waiting_for(state) == tuple(state.sides)  # a general's side is awaited until it has acted


@pytest.mark.parametrize("side", ["fr", "au"])
def test_ru_26_phase_1_a_die_per_group_then_the_force_tests_its_stance_asks_for(side: str) -> None:
    state = campaign()
    journal = Journal()
    _, dice = turn_dice(state, journal, CTX)
    made = decide(side_view(state, side), dice, RULES)
    stances = [d for d in made.items if isinstance(d, GroupStance)]
    assert len(stances) == len(groups(side_view(state, side)))
    assert all(d.roll.rule == "RU-26" and d.roll.table for d in stances)  # verifiable: the record carries its table
    for d in made.items:
        if isinstance(d, GiveOrder):
            f = state.forces[d.force]
            assert f.side == side and (d.order is not f.order or f.reaction is not None)
    assert made.done


@pytest.mark.parametrize("scenario", ["tutorial", "italy1796", "peninsula1810", "danube1809"])
def test_ru_26_the_general_plays_two_turns_through_the_members_core_functions_with_nothing_refused(
        scenario: str) -> None:
    state = campaign(scenario)
    journal = Journal()
    for _ in range(12):
        before = state.position
        for side in general_sides(state):
            state, acted = act(state, side, journal, CTX)
            assert acted.refused == ()
        if state.phase is Phase.BATTLE and waiting_for(state):
            break  # battles go to the table: a report is the GM's
        assert waiting_for(state) == (), f"{scenario} {before}: {waiting_for(state)}"
        state = resolve(state, journal, CTX).state
    assert state.players == {}  # the general's seat lasts one call only
    assert any("(RU-26)" in str(e.text) for e in journal.events)


def test_ru_26_phase_2_moves_head_for_the_enemy_and_each_is_logged_with_its_reason_for_its_side() -> None:
    state = campaign()
    journal = Journal()
    for side in general_sides(state):
        state, _ = act(state, side, journal, CTX)
    state = resolve(state, journal, CTX).state
    assert state.phase is Phase.MOVEMENT
    journal = Journal()
    state, acted = act(state, "fr", journal, CTX)
    moves = [d for d in acted.decisions if isinstance(d, Move)]
    assert moves and acted.refused == ()
    lines = general_lines(journal, "fr")
    assert sum("squares away; odds of arriving this turn" in line for line in lines) == len(moves)
    assert all(e.visibility != "public" for e in journal.events)  # fog of war: the side's own business
    assert state.sides["fr"].done


@pytest.mark.parametrize("phase", [Phase.ORDERS, Phase.MOVEMENT])
def test_ru_26_fog_of_war_hidden_enemy_forces_change_none_of_its_decisions(phase: Phase) -> None:
    state = campaign()
    if phase is Phase.MOVEMENT:
        journal = Journal()
        for side in general_sides(state):
            state, _ = act(state, side, journal, CTX)
        state = resolve(state, journal, CTX).state
    for side in state.sides:
        other = hidden_changed(state, side)
        j1, j2 = Journal(), Journal()
        _, acted_a = act(state, side, j1, CTX)
        _, acted_b = act(other, side, j2, CTX)
        assert acted_a.decisions == acted_b.decisions
        assert general_lines(j1, side) == general_lines(j2, side)


def test_ru_26_the_same_dice_give_the_same_choices() -> None:
    state = campaign()
    j1, j2 = Journal(), Journal()
    _, first = act(state, "fr", j1, CTX)
    _, again = act(state, "fr", j2, CTX)
    assert first.decisions == again.decisions and [e.text for e in j1.events] == [e.text for e in j2.events]


def test_ru_26_nobody_can_make_the_general_act_for_a_side_it_does_not_play() -> None:
    state = campaign().evolve(players={MEMBER: "fr"})
    with pytest.raises(PermissionDenied):
        act(state, "fr", Journal(), CTX)


def test_ru_26_a_side_already_done_is_left_as_it_is() -> None:
    state = campaign()
    state, _ = act(state, "fr", Journal(), CTX)
    journal = Journal()
    again, acted = act(state, "fr", journal, CTX)
    assert acted.decisions == () and journal.events == [] and again.declarations == state.declarations


def test_ru_26_an_allys_force_is_no_enemy_of_the_general() -> None:
    """RU-19: France and Württemberg fight together in danube1809; the French general saw Vandamme's corps
    on its own square as an enemy to attack, and stood still (a stalemate found playing whole campaigns)."""
    state = campaign("danube1809")
    assert not state.camps.hostile("fr", "wu")
    wu = next(f for f in state.active() if f.side == "wu")
    fr = next(f for f in state.active() if f.side == "fr")
    state = state.with_forces([replace(wu, square=fr.square)])
    view = side_view(state, "fr")
    assert all(view.hostile(e.side) for e in view.enemies)
    assert wu.key not in {e.key for e in view.enemies}


def test_ru_26_after_a_battle_it_won_the_general_makes_a_unit_heroic_with_the_glory_gained_there() -> None:
    """CC-4, RU-17: Heroic only by the winner, with the Glory gained in that battle, in Phase 4; through the
    members' own spend (nothing refused), logged with its reason for its side."""
    state = campaign("italy1796", battles="quick")
    spends: list[str] = []
    for _ in range(8 * 12):
        journal = Journal()
        state = resolve(state, journal, CTX, forced=True).state
        state, acted = act(state, "fr", journal, CTX) if "fr" in general_sides(state) else (state, None)
        assert acted is None or acted.refused == ()
        spends += [str(e.text) for e in journal.events if "Heroic" in str(e.text)]
        if any("made Heroic" in s for s in spends):
            break
    assert any("spends the Glory won in battle" in s for s in spends), "no battle won with Glory to spend"
    assert any(u.heroic for f in state.forces.values() if f.side == "fr" for u in f.units)


def test_ru_26_fc_2_the_general_buys_a_destroyed_unit_back_and_a_scout_with_the_points_left() -> None:
    """FC-2, RU-24: beyond refits, a destroyed unit bought back into a Force in its own territory, then a
    scout (FC-3); through the members' own purchase, nothing refused."""
    state = campaign("italy1796", supply=True)
    home = next(f for f in state.active() if f.side == "fr"
                and state.map.cell(state.map.parse(f.square)).territory == "fr")
    lost = home.units[0]
    state = state.with_unit(home.key, replace(lost, sp=0)).with_side("fr", supply=lost.original_sp + 5)
    journal = Journal()
    state, acted = act(state, "fr", journal, CTX)
    assert acted.refused == ()
    bought = [d for d in acted.decisions if type(d).__name__ == "Buy"]
    assert [d.kind.value for d in bought] == ["unit", "scout"], bought
    assert next(u for u in state.forces[home.key].units if u.key == lost.key).sp == lost.original_sp
    assert any("takes a scout" in line for line in general_lines(journal, "fr"))


def test_ru_26_a_strike_counts_every_set_of_its_forces_that_may_arrive_and_leaves_back_one_that_would_come_alone(
) -> None:
    """RU-26 with RU-27's battle table: Forces that strike together but may arrive one by one are judged by
    the battles their movement rolls may bring about; a small Force whose roll could bring it in alone stays
    back when that raises the chance of winning (no more strikes lost piecemeal)."""
    view = side_view(campaign("tutorial"), "au")
    mack, werneck = sorted(view.own, key=lambda f: -f.sp)  # 22 and 14 SP
    together = win_chance(view, [mack, werneck], 12, False)
    assert strike_chance(view, [(mack, 1.0), (werneck, 1.0)], 12, False) == together
    # werneck alone when mack's roll fails: a worse battle than both, counted
    assert strike_chance(view, [(mack, 0.5), (werneck, 1.0)], 12, False) < together
    chosen, chance = best_strike(view, [(mack, 0.2), (werneck, 1.0)], 30, False)  # werneck would come alone
    assert [f.key for f, _ in chosen] == [mack.key] and chance == win_chance(view, [mack], 30, False)


def test_ru_26_an_enemy_force_is_known_by_its_camps_last_battle_report_never_by_the_force_itself() -> None:
    """BR: what its camp read in the report of its last battle against an enemy Force (its SP as it fought,
    less its losses) is what the general knows of it; the Force's SP now changes nothing."""
    state = campaign("italy1796", battles="quick")
    for _ in range(8 * 12):
        state = resolve(state, Journal(), CTX, forced=True).state
        state, _ = act(state, "fr", Journal(), CTX) if "fr" in general_sides(state) else (state, None)
        if side_view(state, "fr").known:
            break
    known = side_view(state, "fr").known
    assert known, "no battle fought"
    key = next(iter(known))
    f = state.forces[key]
    changed = state.with_forces([replace(f, units=tuple(replace(u, sp=u.sp * 3 + 1) for u in f.units))])
    assert side_view(changed, "fr").known == known


def test_ru_26_every_decision_of_a_battle_is_logged_with_its_reason_for_its_side() -> None:
    """Issue 25: each decision logged with a one-line reason a player can read: its exploration before a
    battle (MC-6.1) and its camp's wounded and deserter rolls after it (MC-7.1, MC-7.2) too, which were
    made with no line of their own. Battles at the table, reported by the demo's stand-in."""
    from bot.campaign.general import act_all
    from bot.campaign.general.decide import RollAftermath, Scout
    from bot.demo import stand_in_report
    state = campaign("italy1796")
    made: dict[str, int] = {"Scout": 0, "RollAftermath": 0}
    for _ in range(60):
        journal = Journal()
        state, acted = act_all(state, journal, CTX, report_battle=stand_in_report)
        for a in acted:
            lines = general_lines(journal, a.side)
            scouts = [d for d in a.decisions if isinstance(d, Scout)]
            rolls = [d for d in a.decisions if isinstance(d, RollAftermath)]
            assert [f"The bot general explores before battle {d.battle}" in " ".join(lines) for d in scouts] \
                == [True] * len(scouts)
            assert [f"The bot general rolls its camp's wounded and deserters of battle {d.battle}" in " ".join(lines)
                    for d in rolls] == [True] * len(rolls)
            made["Scout"] += len(scouts)
            made["RollAftermath"] += len(rolls)
        if made["RollAftermath"] >= 2:
            break
        state = resolve(state, journal, CTX, forced=True).state
    assert made["Scout"] >= 2 and made["RollAftermath"] >= 2, made


@pytest.mark.parametrize(("personality", "stances"), [
    ("cautious", ["hold", "hold", "hold", "advance", "advance", "advance", "attack", "attack"]),
    ("balanced", ["hold", "hold", "advance", "advance", "attack", "attack", "attack", "attack"]),
    ("bold", ["hold", "advance", "advance", "attack", "attack", "attack", "attack", "attack"]),
])
def test_ru_26_each_personalitys_orders_table_at_every_band_boundary(personality: str, stances: list[str]) -> None:
    """docs/general.md's table: Hold / Advance / Attack on 1d6 plus modifiers, totals 0 to 7."""
    from bot.campaign.general.policy import policy
    from bot.campaign.settings import Personality
    table = policy().tempers[Personality(personality)].table
    assert [table.lookup(total).result for total in range(8)] == stances


def test_ru_26_the_gm_s_personality_changes_the_same_dice_s_stances_and_marching_orders() -> None:
    """The same turn and dice: a cautious general's every group holds or advances no more than a balanced
    one's, a bold one's no less; cautious marches in Explore (never Forced March), the others in Forced March."""
    from bot.engine.model import Order
    rank = {"hold": 0, "advance": 1, "attack": 2}
    made = {}
    for personality in ("cautious", "balanced", "bold"):
        state = campaign("danube1809", general=personality)
        _, dice = turn_dice(state, Journal(), CTX)
        made[personality] = decide(side_view(state, "au"), dice, RULES)
    stances = {p: [rank[d.stance.value] for d in m.items if isinstance(d, GroupStance)] for p, m in made.items()}
    assert all(c <= m <= b for c, m, b in zip(stances["cautious"], stances["balanced"], stances["bold"], strict=True))
    assert sum(stances["cautious"]) < sum(stances["bold"])
    orders = {p: {d.order for d in m.items if isinstance(d, GiveOrder)} for p, m in made.items()}
    assert Order.FORCED_MARCH not in orders["cautious"] and Order.FORCED_MARCH in orders["bold"]


def test_ru_26_fog_of_war_hidden_enemy_forces_change_none_of_its_battle_and_aftermath_decisions() -> None:
    """Phases 3 and 4 too: its exploration, its camp's report, its aftermath rolls, retreats and Glory spends
    stay the same when every enemy Force its side does not see is moved, strengthened and re-led. Battles at
    the table, reported by the demo's stand-in; the first ten turns of italy1796."""
    from bot.campaign.general import act_all
    from bot.campaign.general.decide import Retreat, Scout
    from bot.demo import stand_in_report
    state = campaign("italy1796")
    seen: set[str] = set()
    while state.turn <= 10:
        journal = Journal()
        if state.phase in (Phase.BATTLE, Phase.AFTERMATH):
            for side in general_sides(state):
                other = hidden_changed(state, side)
                j1, j2 = Journal(), Journal()
                _, acted_a = act(state, side, j1, CTX, report_battle=stand_in_report)
                _, acted_b = act(other, side, j2, CTX, report_battle=stand_in_report)
                assert acted_a.decisions == acted_b.decisions
                assert general_lines(j1, side) == general_lines(j2, side)
                seen |= {type(d).__name__ for d in acted_a.decisions}
        state, _ = act_all(state, journal, CTX, report_battle=stand_in_report)
        state = resolve(state, journal, CTX, forced=True).state
    assert {Scout.__name__, Retreat.__name__, "Claim", "RollAftermath"} <= seen, seen


def test_ru_26_a_force_afloat_sails_and_lands_by_a_move_by_water() -> None:
    """MC-5.3: a Force on the tutorial's lake (A9) has no land move; the general sails it to a landing
    towards its objective, through the members' own declaration by water, logged as a sailing."""
    from bot.campaign.general.decide import Move
    state = campaign("tutorial").evolve(phase=Phase.MOVEMENT)
    state = state.with_force("lannes", square="A9")
    journal = Journal()
    after, acted = act(state, "fr", journal, CTX)
    assert acted.refused == ()
    sailed = next(d for d in acted.decisions if isinstance(d, Move) and d.force == "lannes")
    assert sailed.by_water and sailed.verb == "sails"
    assert not state.map.cell(sailed.path[-1]).terrain.is_water  # it lands
    name = state.forces["lannes"].name
    assert any(line.startswith(f"{name} sails for") for line in general_lines(journal, "fr"))
    declared = next(d for d in after.declarations if d.force == "lannes")
    assert declared.payload.by_water and declared.payload.path[-1] == str(sailed.path[-1])


def test_ru_26_a_fallen_leader_s_fate_is_rolled_with_the_arm_its_replacement_would_command() -> None:
    """CC-1, CC-2: after a quick battle in which one of its leaders fell, the general rolls his fate through
    the members' own roll, naming the arm of the Force's strongest unit for a replacement, logged for its
    side; the fate's rolls follow."""
    from bot.campaign.general import act_all
    from bot.campaign.general.decide import Fate
    state = campaign("italy1796", battles="quick")
    for _ in range(8 * 10):
        journal = Journal()
        state, acted = act_all(state, journal, CTX)
        fates = [(a.side, d) for a in acted for d in a.decisions if isinstance(d, Fate)]
        if fates:
            break
        state = resolve(state, journal, CTX, forced=True).state
    else:
        pytest.fail("no leader fell in ten turns")
    assert all(a.refused == () for a in acted)
    side, fate = fates[0]
    assert f"The general rolls {fate.leader}'s fate (CC-1)" in " ".join(general_lines(journal, side))
    assert any(f"(CC-1) for {fate.leader}:" in str(e.text) for e in journal.events)
