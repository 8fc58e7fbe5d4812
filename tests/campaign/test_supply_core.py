"""FC-2 supply points and FC-3 scout re-rolls on the campaign core, pure: a state in, a state and events
out, no database (the tutorial as the services create it, loaded once from SQLite).

France holds IV Corps (soult: St-Hilaire 12 SP, Vandamme 12, Margaron 4; 1 scout) and V Corps (lannes),
4 supply points in hand and 4 a turn. Costs (rules/field_commander.yaml): refit 2, scout 2, forced
march 1 per unit, a unit bought back at its SP (reduced: half, rounded up).
"""

from __future__ import annotations

import asyncio
from dataclasses import replace

import pytest

from bot.campaign import orders, supply, turn
from bot.campaign.events import EventKind, Journal
from bot.campaign.state import (
    CampaignState,
    DeclarationKind,
    ForceStatus,
    OrderPayload,
    Recruit,
    SupplyPurchase,
    UnitState,
)
from bot.engine.dice import SeededDice
from bot.engine.errors import RuleViolation
from bot.engine.field_commander import PurchaseKind
from bot.engine.force_test import force_test_check
from bot.engine.model import Order, Quality, Square
from bot.engine.movement import movement_check
from bot.engine.phases import Phase
from bot.engine.rolls import Modifier
from bot.services.errors import NotFound, WrongPhase
from tests.campaign.test_orders_core import AUSTRIAN, FRENCH, RULES, SEED, _tutorial, ctx
from tests.databases import migrated_sqlite

REFIT, SCOUT, UNIT, MARCH = PurchaseKind.REFIT, PurchaseKind.SCOUT, PurchaseKind.UNIT, PurchaseKind.FORCED_MARCH
FC2_MARCH = Modifier(2, "FC-2", "Forced March bought with supply")


@pytest.fixture(scope="module")
def tutorial(tmp_path_factory: pytest.TempPathFactory) -> CampaignState:
    url = migrated_sqlite(tmp_path_factory.mktemp("supply") / "core.db")
    with pytest.MonkeyPatch.context() as mp:
        mp.setattr("bot.services.loading.new_turn_seed", lambda: SEED)
        return asyncio.run(_tutorial(url))


def with_settings(state: CampaignState, **changes) -> CampaignState:
    return state.evolve(settings=replace(state.settings, **changes))


@pytest.fixture
def phase1(tutorial: CampaignState) -> CampaignState:
    """Phase 1 with supply and scout re-rolls on."""
    return with_settings(tutorial.evolve(phase=Phase.ORDERS), supply=True, scout_rerolls=True)


def dice(state: CampaignState) -> SeededDice:
    return SeededDice(bytes.fromhex(state.seed().seed_hex))


def points(state: CampaignState, n: int) -> CampaignState:
    return state.with_side("fr", supply=n)


def unit(state: CampaignState, key: str):
    return next(u for f in state.forces.values() for u in f.units if u.key == key)


def set_unit(state: CampaignState, force: str, key: str, **changes) -> CampaignState:
    return state.with_unit(force, replace(unit(state, key), **changes))


def buy(state: CampaignState, kind: PurchaseKind, force: str = "soult", journal: Journal | None = None, **kw):
    return supply.buy(state, FRENCH.member_id, kind, force, journal or Journal(), **kw)


# --- the settings and the phase --------------------------------------------------------------------


def test_supply_and_rerolls_are_refused_while_their_settings_are_off(tutorial: CampaignState) -> None:
    off = tutorial.evolve(phase=Phase.ORDERS)
    with pytest.raises(RuleViolation, match=r"Supply points \(FC-2\) are off in this campaign"):
        buy(off, SCOUT)
    after, _ = orders.give_order(off, FRENCH.member_id, "soult", Order.DEFEND, Journal(), ctx())
    with pytest.raises(RuleViolation, match=r"Scout re-rolls \(FC-3\) are off in this campaign"):
        orders.reroll(after, FRENCH.member_id, "soult", Journal(), ctx())
    # Nothing offers a re-roll while FC-3 is off; with it on, the Force's scouts are said.
    assert orders.give_order(off, FRENCH.member_id, "soult", Order.DEFEND, Journal(), ctx())[1].scouts == 0
    on = with_settings(off, scout_rerolls=True)
    assert orders.give_order(on, FRENCH.member_id, "soult", Order.DEFEND, Journal(), ctx())[1].scouts == 1


@pytest.mark.parametrize("phase", [Phase.WEATHER, Phase.MOVEMENT, Phase.BATTLE, Phase.REINFORCEMENTS])
def test_supply_is_spent_in_phase_1_only(phase1: CampaignState, phase: Phase) -> None:
    with pytest.raises(WrongPhase, match=r"Spending supply points \(FC-2\) belongs to Phase 1"):
        buy(phase1.evolve(phase=phase), SCOUT)


def test_an_enemy_force_and_no_force_are_refused_in_the_same_words_and_so_is_a_foreign_unit(
        phase1: CampaignState) -> None:
    with pytest.raises(NotFound) as enemy:
        buy(phase1, SCOUT, "mack")
    with pytest.raises(NotFound) as nothing:
        buy(phase1, SCOUT, "ghost")
    assert str(enemy.value) == "You have no Force 'mack'." and str(nothing.value) == "You have no Force 'ghost'."
    with pytest.raises(NotFound, match=r"^IV Corps has no unit 'riesch'\.$"):  # Austria's, not in IV Corps
        buy(phase1, REFIT, unit="riesch")
    with pytest.raises(NotFound, match=r"^IV Corps has no unit 'suchet'\.$"):  # French, but of V Corps
        buy(phase1, REFIT, unit="suchet")
    with pytest.raises(NotFound, match="Name the unit of IV Corps"):
        buy(phase1, REFIT)


# --- what each purchase costs and does --------------------------------------------------------------


def test_fc2_refit_costs_2_exactly_enough_is_enough_one_short_is_refused(phase1: CampaignState) -> None:
    reduced = set_unit(phase1, "soult", "vandamme", sp=5)
    with pytest.raises(RuleViolation, match=r"it costs 2 supply points and France has 1 left of 1 \(FC-2\)"):
        buy(points(reduced, 1), REFIT, unit="vandamme")
    journal = Journal()
    after, out = buy(points(reduced, 2), REFIT, journal=journal, unit="vandamme")
    # RU-24: a refit gives back up to half the original SP (12 -> 6), so 5 becomes 11, still reduced.
    assert unit(after, "vandamme").sp == 11 and after.sides["fr"].supply == 0
    assert (out.cost, out.left, out.text) == (2, 0, "refit Vandamme's Division from 5 to 11 of its 12 SP (RU-24)")
    assert after.purchases_of("fr") == (SupplyPurchase(1, REFIT, "soult", "vandamme", cost=2),)
    [event] = journal.events
    assert event.visibility == "side:fr" and event.text == ("France spends 2 supply points (FC-2): refit Vandamme's "
                                                            "Division from 5 to 11 of its 12 SP (RU-24). Left: 0.")
    # Once per supply phase, though it is still reduced (RU-24).
    with pytest.raises(RuleViolation, match=r"already refitted in this supply phase \(FC-2, RU-24\)"):
        buy(points(after, 10), REFIT, unit="vandamme")
    with pytest.raises(RuleViolation, match="is not a reduced unit of France"):
        buy(points(after, 10), REFIT, unit="st-hilaire")


@pytest.mark.parametrize(("original", "sp", "refitted"), [
    (12, 1, 7), (12, 6, 12), (12, 7, 12), (12, 11, 12),  # half of 12 is 6, never above the original
    (5, 1, 4), (5, 2, 5), (5, 4, 5),  # half of 5, rounded up, is 3
    (2, 1, 2), (1, 0, 0),  # a unit at 0 SP is destroyed: no refit (below)
])
def test_ru24_a_refit_restores_up_to_half_the_original_sp_rounded_up(phase1: CampaignState, original: int, sp: int,
                                                                   refitted: int) -> None:
    state = set_unit(points(phase1, 2), "soult", "vandamme", sp=sp, original_sp=original)
    if sp == 0:
        with pytest.raises(RuleViolation, match="is not a reduced unit of France"):
            buy(state, REFIT, unit="vandamme")
        return
    after, _ = buy(state, REFIT, unit="vandamme")
    assert unit(after, "vandamme").sp == refitted


def test_fc2_a_scout_costs_2(phase1: CampaignState) -> None:
    with pytest.raises(RuleViolation, match="it costs 2 supply points and France has 1 left"):
        buy(points(phase1, 1), SCOUT)
    after, out = buy(points(phase1, 2), SCOUT)
    assert after.forces["soult"].scouts == 2 and after.sides["fr"].supply == 0 and out.cost == 2
    assert out.text == "buy 1 scout for IV Corps"


def test_fc2_a_destroyed_unit_is_bought_back_at_its_sp_or_reduced_at_half_rounded_up(phase1: CampaignState) -> None:
    destroyed = set_unit(phase1, "soult", "margaron", sp=0)  # 4 SP when full
    with pytest.raises(RuleViolation, match="it costs 4 supply points and France has 3 left"):
        buy(points(destroyed, 3), UNIT, unit="margaron")
    full, out = buy(points(destroyed, 4), UNIT, unit="margaron")
    assert unit(full, "margaron").sp == 4 and full.sides["fr"].supply == 0 and out.cost == 4
    with pytest.raises(RuleViolation, match="already bought in this supply phase"):
        buy(points(full, 9), UNIT, unit="margaron")

    odd = set_unit(phase1, "soult", "vandamme", sp=0, original_sp=5)  # reduced: 3 SP for 3 points
    with pytest.raises(RuleViolation, match="it costs 3 supply points and France has 2 left"):
        buy(points(odd, 2), UNIT, unit="vandamme", reduced=True)
    half, out = buy(points(odd, 3), UNIT, unit="vandamme", reduced=True)
    assert unit(half, "vandamme").sp == 3 and half.sides["fr"].supply == 0 and out.cost == 3
    # A unit bought reduced cannot be refitted in the same supply phase (FC-2), whatever the points.
    with pytest.raises(RuleViolation, match="was bought reduced in this supply phase: it cannot be refitted"):
        buy(points(half, 20), REFIT, unit="vandamme")
    # A unit on the map with SP left is no unit on offer.
    with pytest.raises(RuleViolation, match=r"St-Hilaire's Division is not destroyed \(12 SP\): a purchase of a unit "
                                           r"buys a destroyed unit back or a recruit of the side's pool \(RU-24\)"):
        buy(points(phase1, 20), UNIT, unit="st-hilaire")


def test_ru24_a_unit_of_a_force_off_the_map_is_bought_back_into_a_force_on_its_own_ground(
        phase1: CampaignState) -> None:
    # V Corps is taken off the map for good (say, FC-1): its units are destroyed and on offer to France.
    gone = points(phase1.with_force("lannes", status=ForceStatus.REMOVED), 20)
    suchet = unit(gone, "suchet")
    assert {u.key for u in supply.units_for(gone, FRENCH.member_id, UNIT, "soult")} == {"suchet", "treilhard"}
    after, out = buy(gone, UNIT, "soult", unit="suchet")
    assert out.cost == suchet.original_sp and out.force == "IV Corps"
    joined = unit(after, "suchet")
    assert joined.sp == suchet.original_sp and "suchet" in {u.key for u in after.forces["soult"].units}
    assert "suchet" not in {u.key for u in after.forces["lannes"].units}
    assert after.purchases_of("fr")[-1] == SupplyPurchase(1, UNIT, "soult", "suchet", cost=suchet.original_sp)
    # The phase rebuilt from the purchase prices it as it was bought, and it is bought once.
    assert supply.supply_phase_of(after, "fr").spent == suchet.original_sp
    with pytest.raises(RuleViolation, match="already bought in this supply phase"):
        buy(after, UNIT, "soult", unit="suchet")
    # Reduced: half the SP, rounded up, for half the cost.
    reduced, out = buy(gone, UNIT, "soult", unit="treilhard", reduced=True)
    assert unit(reduced, "treilhard").sp == out.cost == -(-unit(gone, "treilhard").original_sp // 2)


def test_ru24_a_bought_unit_joins_a_force_in_its_sides_own_territory_only(phase1: CampaignState) -> None:
    destroyed = points(set_unit(phase1, "soult", "margaron", sp=0), 20)
    abroad = destroyed.with_force("soult", square="G4")  # Austrian ground
    assert abroad.map.cell(Square.parse("G4")).territory == "au"
    with pytest.raises(RuleViolation, match=r"IV Corps stands at G4, outside France's territory: a unit bought "
                                           r"joins a Force in its side's own territory \(RU-24\)"):
        buy(abroad, UNIT, unit="margaron")
    assert buy(destroyed, UNIT, unit="margaron")[0].sides["fr"].supply == 16


def test_ru24_a_new_unit_comes_from_the_sides_recruit_pool_at_its_stated_sp_and_cost(phase1: CampaignState) -> None:
    conscripts = UnitState("conscripts-1805", "Conscripts of 1805", 6, 6, quality=Quality.RAW)
    pooled = points(phase1, 5).with_side("fr", recruits=(Recruit(conscripts, 5),))
    assert [u.key for u in supply.units_for(pooled, FRENCH.member_id, UNIT, None)] == ["conscripts-1805"]
    with pytest.raises(RuleViolation, match="it costs 5 supply points and France has 4 left"):
        buy(points(pooled, 4), UNIT, unit="Conscripts of 1805")
    with pytest.raises(RuleViolation, match="cannot be bought on its reduced side"):
        buy(pooled, UNIT, unit="conscripts-1805", reduced=True)
    journal = Journal()
    after, out = buy(pooled, UNIT, "lannes", journal=journal, unit="conscripts of 1805")
    assert out.cost == 5 and after.sides["fr"].supply == 0 and after.sides["fr"].recruits == ()
    assert after.forces["lannes"].units[-1] == conscripts
    assert supply.supply_phase_of(after, "fr").spent == 5  # rebuilt at the recruit's own cost
    assert "buy Conscripts of 1805 at its combat value 5" in journal.events[0].text
    # Anything not destroyed and not in the pool is no new unit: the scenario says what may be raised.
    with pytest.raises(NotFound, match="France has no destroyed unit or recruit 'Imperial Guard' to buy"):
        buy(points(after, 30), UNIT, unit="Imperial Guard")


def test_fc2_the_supply_phase_is_rebuilt_from_the_turns_purchases(phase1: CampaignState) -> None:
    state = set_unit(points(phase1, 9), "soult", "vandamme", sp=6)
    state, _ = buy(state, REFIT, unit="vandamme")
    state, _ = buy(state, SCOUT, "lannes")
    phase = supply.supply_phase_of(state, "fr")
    assert (phase.points, phase.spent, phase.left) == (9, 4, 5) == (9, 4, state.sides["fr"].supply)
    st = supply.status(state, FRENCH.member_id)
    assert st.enabled and st.open and (st.points, st.income) == (5, 4)
    assert st.bought == (("refit Vandamme's Division", 2), ("buy 1 scout for V Corps", 2))
    assert dict(st.scouts) == {"IV Corps": 1, "V Corps": 1}
    assert supply.status(state, AUSTRIAN.member_id).bought == ()  # each side its own


def test_fc2_a_forced_march_costs_1_per_unit_and_gives_the_move_an_fc2_bonus(phase1: CampaignState) -> None:
    with pytest.raises(RuleViolation, match="force-march 3 units of IV Corps: it costs 3 supply points and France "
                                           "has 2 left"):
        buy(points(phase1, 2), MARCH)
    bought, out = buy(points(phase1, 3), MARCH)
    assert out.cost == 3 and bought.sides["fr"].supply == 0
    assert bought.purchases_of("fr") == (SupplyPurchase(1, MARCH, "soult", count=3, cost=3),)
    with pytest.raises(RuleViolation, match="IV Corps already force-marches this turn"):
        buy(points(bought, 9), MARCH)

    moving = bought.evolve(phase=Phase.MOVEMENT)
    _, move = orders.declare_move(moving, FRENCH.member_id, "soult", "D4 E4", Journal(), ctx())
    cell = moving.map.cell(Square.parse("C4"))
    check = movement_check(moving.engine_force("soult"), cell, extra=(FC2_MARCH,), rules=RULES)
    assert move.roll == check.roll(dice(moving), "t1/p2/force:soult/movement")
    assert FC2_MARCH in move.roll.modifiers and move.allowance == (move.roll.value or 0)
    # The odds the player sees are those of that check.
    odds = orders.move_odds(moving, FRENCH.member_id, "soult", "D4 E4", RULES)
    assert FC2_MARCH in odds.modifiers
    allowed = _allowances(check)  # 1d6 +1 +2: 1, 2 or 3 squares; along D4 E4, 3 squares are the whole path
    assert odds.chances() == {2: allowed[2] + allowed[3], 1: allowed[1]}


def _allowances(check) -> dict:
    out: dict = {}
    for total, p in check.total_odds().items():
        n = check.table.lookup(total).value or 0
        out[n] = out.get(n, 0) + p
    return {n: p for n, p in out.items() if p}


def test_fc2_a_force_holding_forced_march_buys_no_second_bonus(phase1: CampaignState) -> None:
    marching = phase1.with_force("soult", order=Order.FORCED_MARCH)
    with pytest.raises(RuleViolation, match="IV Corps holds the Forced March order"):
        buy(points(marching, 9), MARCH)
    # ... unless its Force test this phase is for another order.
    tested, _ = orders.give_order(marching, FRENCH.member_id, "soult", Order.EXPLORE, Journal(), ctx())
    assert buy(points(tested, 9), MARCH)[1].cost == 3


# --- FC-3: a scout re-rolls the phase's own die -----------------------------------------------------


def test_fc3_a_force_test_is_rerolled_for_a_scout_and_the_reroll_stands(phase1: CampaignState) -> None:
    with pytest.raises(RuleViolation, match="IV Corps has nothing to re-roll in Phase 1: Orders"):
        orders.reroll(phase1, FRENCH.member_id, "soult", Journal(), ctx())
    abroad = phase1.with_force("soult", square="G4")  # enemy territory: -1 (MC-4)
    given, first = orders.give_order(abroad, FRENCH.member_id, "soult", Order.FORCED_MARCH, Journal(), ctx())
    journal = Journal()
    after, out = orders.reroll(given, FRENCH.member_id, "IV Corps", journal, ctx())
    check = force_test_check(abroad.engine_force("soult"), abroad.map.cell(Square.parse("G4")), rules=RULES)
    expected = check.roll(dice(abroad), "t1/p1/force:soult/force-test/reroll1")
    assert out.original == first.roll and out.roll == expected and out.kind is DeclarationKind.ORDER
    assert out.scouts == 0 and after.forces["soult"].scouts == 0 and out.dropped == () and out.allowance is None
    [decl] = after.declarations_of(Phase.ORDERS, DeclarationKind.ORDER)
    assert decl.payload == OrderPayload(Order.FORCED_MARCH, expected)
    roll, line = journal.events
    assert roll.kind is EventKind.ROLL and roll.roll == expected and roll.visibility == "side:fr"
    assert line.visibility == "side:fr" and "IV Corps spends a scout to re-roll its Force test (FC-3): 3 is now 4" \
        in line.text
    with pytest.raises(RuleViolation, match=r"No scout left to spend for a re-roll \(FC-3\): 0 held"):
        orders.reroll(after, FRENCH.member_id, "soult", Journal(), ctx())
    # With this seed the first roll (3) made the Force Confused; the re-roll (4) stands: Defend (MC-4).
    assert (first.roll.result, expected.result) == ("confused", "defend")
    resolved = turn.resolve(after, Journal(), ctx(), forced=True).state.forces["soult"]
    assert (resolved.order, resolved.reaction) == (Order.DEFEND, None)


def test_fc3_a_move_reroll_drops_the_forced_march_bought_and_recomputes_the_allowance(phase1: CampaignState) -> None:
    bought, _ = buy(points(phase1, 9), MARCH)
    bought, _ = buy(bought, SCOUT)  # 2 scouts now
    moving = bought.evolve(phase=Phase.MOVEMENT)
    declared, move = orders.declare_move(moving, FRENCH.member_id, "soult", "D4 E4 F4", Journal(), ctx())
    journal = Journal()
    after, out = orders.reroll(declared, FRENCH.member_id, "soult", journal, ctx())
    plain = movement_check(moving.engine_force("soult"), moving.map.cell(Square.parse("C4")), rules=RULES)
    expected = plain.roll(dice(moving), "t1/p2/force:soult/movement/reroll1")
    assert out.original == move.roll and out.roll == expected and FC2_MARCH not in out.roll.modifiers
    assert out.dropped == (FC2_MARCH,) and out.scouts == 1 and after.forces["soult"].scouts == 1
    assert out.allowance == (expected.value or 0) and out.reach == ("D4", "E4", "F4")[: out.allowance]
    [decl] = after.declarations_of(Phase.MOVEMENT, DeclarationKind.MOVE)
    assert decl.payload.allowance == out.allowance and decl.payload.roll == expected
    assert journal.events[0].roll == expected and journal.events[0].visibility == "side:fr"

    # A second scout re-rolls again, off the original key; nothing is left to drop.
    again, second = orders.reroll(after, FRENCH.member_id, "soult", Journal(), ctx())
    assert second.roll == plain.roll(dice(moving), "t1/p2/force:soult/movement/reroll2") and second.dropped == ()
    assert again.forces["soult"].scouts == 0

    # A new path after a re-roll keeps the re-roll's die and takes no bought modifier: never a free roll.
    redeclared, moved = orders.declare_move(after, FRENCH.member_id, "soult", "C5 C6", Journal(), ctx())
    assert moved.roll.dice == expected.dice and moved.roll.key == expected.key and FC2_MARCH not in moved.roll.modifiers
    assert redeclared.forces["soult"].scouts == 1


def test_fc3_rerolls_belong_to_phases_1_and_2(phase1: CampaignState) -> None:
    for phase in (Phase.WEATHER, Phase.BATTLE, Phase.AFTERMATH):
        with pytest.raises(WrongPhase, match=r"A scout re-rolls a Force test \(Phase 1\) or a movement roll"):
            orders.reroll(phase1.evolve(phase=phase), FRENCH.member_id, "soult", Journal(), ctx())
    with pytest.raises(RuleViolation, match="IV Corps has nothing to re-roll in Phase 2: Movement"):
        orders.reroll(phase1.evolve(phase=Phase.MOVEMENT), FRENCH.member_id, "soult", Journal(), ctx())
    with pytest.raises(NotFound, match="You have no Force 'mack'"):
        orders.reroll(phase1, FRENCH.member_id, "mack", Journal(), ctx())


# --- Phase 7: income --------------------------------------------------------------------------------


@pytest.mark.parametrize("on", [True, False])
def test_fc2_phase_7_credits_each_sides_income_only_when_supply_is_on(tutorial: CampaignState, on: bool) -> None:
    state = with_settings(tutorial.evolve(phase=Phase.ORDERS), supply=True)
    state, _ = buy(state, SCOUT)  # France: 4 - 2 = 2 in hand
    state = with_settings(state.evolve(phase=Phase.TIME), supply=on, random_events=False)
    journal = Journal()
    done = turn.resolve(state, journal, ctx())
    after = done.state
    assert (after.turn, after.phase) == (2, Phase.ORDERS)  # the new turn's weather rolls by itself
    assert (after.sides["fr"].supply, after.sides["au"].supply) == ((6, 8) if on else (2, 4))
    assert after.sides["fr"].purchases == ()  # the turn's purchases are done with
    credits = [e for e in journal.events if "supply points (FC-2)" in e.text]
    if on:
        assert [(e.visibility, e.phase, e.text) for e in credits] == [
            ("side:fr", Phase.REINFORCEMENTS, "France receives 4 supply points (FC-2): 6 in hand."),
            ("side:au", Phase.REINFORCEMENTS, "Austria receives 4 supply points (FC-2): 8 in hand."),
        ]
    else:
        assert credits == []
