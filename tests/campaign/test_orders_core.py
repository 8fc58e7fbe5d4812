"""The campaign core's orders, moves, GM edits, memberships, settings and scouting, pure: a state in,
a state and events out, no database.

The state is the tutorial scenario as the services create it (loaded once, from SQLite); every test
then works on that value alone.
"""

from __future__ import annotations

import asyncio
import datetime as dt
import hashlib
from dataclasses import dataclass, field, replace
from fractions import Fraction

import pytest

from bot.campaign import edits, lifecycle, orders, scouting
from bot.campaign.dice import Context
from bot.campaign.events import PUBLIC, EventKind, Journal
from bot.campaign.odds import move_result
from bot.campaign.state import (
    Battle,
    CampaignState,
    CampaignStatus,
    Declaration,
    DeclarationKind,
    MovePayload,
    OrderPayload,
    Scouting,
)
from bot.engine.battle import explore
from bot.engine.dice import SeededDice, seed_commitment
from bot.engine.errors import InvalidInput, RuleViolation
from bot.engine.force_test import force_test_check
from bot.engine.model import Order, Reaction, Square
from bot.engine.movement import movement_check, river_route, water_allowance, water_movement_check
from bot.engine.phases import Phase
from bot.engine.rolls import Roll
from bot.engine.tables import default_rulebook
from bot.engine.verify import GENESIS, record_hash
from bot.services.errors import NotFound, PermissionDenied, WrongPhase
from tests.databases import migrated_sqlite

RULES = default_rulebook()
SEED = hashlib.sha256(b"core-test-seed").digest()


@dataclass(frozen=True)
class Member:
    member_id: int
    roles: frozenset[int] = field(default_factory=frozenset)


GM = Member(1001)
FRENCH = Member(2001)
AUSTRIAN = Member(3001)
OUTSIDER = Member(9001)


def ctx(seed: bytes = SEED) -> Context:
    return Context(lambda: seed, RULES)


def dice(state: CampaignState) -> SeededDice:
    return SeededDice(bytes.fromhex(state.seed().seed_hex))


async def _tutorial(url: str) -> CampaignState:
    from bot.services import campaigns
    from bot.services.actors import Actor
    from bot.store import repository
    from bot.store.db import Database

    db = Database(url)
    try:
        created = await campaigns.create_campaign(db, guild_id=1, channel_id=2, gm=Actor(GM.member_id),
                                                  name="Ulm", scenario="tutorial")
        await campaigns.join_side(db, created.campaign_id, Actor(FRENCH.member_id, name="Pierre"), "fr")
        await campaigns.join_side(db, created.campaign_id, Actor(AUSTRIAN.member_id, name="Karl"), "au")
        async with db.sessions() as s:
            return (await repository.load(s, created.campaign_id)).state
    finally:
        await db.dispose()


@pytest.fixture(scope="module")
def tutorial(tmp_path_factory: pytest.TempPathFactory) -> CampaignState:
    """The tutorial at turn 1, Phase 0, France (2001) and Austria (3001) joined, turn 1's seed SEED."""
    url = migrated_sqlite(tmp_path_factory.mktemp("core") / "core.db")
    with pytest.MonkeyPatch.context() as mp:
        mp.setattr("bot.services.loading.new_turn_seed", lambda: SEED)
        return asyncio.run(_tutorial(url))


@pytest.fixture
def in_orders(tutorial: CampaignState) -> CampaignState:
    return tutorial.evolve(phase=Phase.ORDERS)


@pytest.fixture
def in_movement(tutorial: CampaignState) -> CampaignState:
    return tutorial.evolve(phase=Phase.MOVEMENT)


# --- Phase 1: the Force test ---------------------------------------------------------------------


def test_the_tutorial_state_is_what_the_scenario_says(tutorial: CampaignState) -> None:
    assert (tutorial.turn, tutorial.phase) == (1, Phase.WEATHER)
    assert tutorial.players == {FRENCH.member_id: "fr", AUSTRIAN.member_id: "au"}
    assert tutorial.forces["soult"].square == "C4" and tutorial.forces["soult"].side == "fr"
    assert tutorial.seed().sha256 == seed_commitment(SEED)


def test_a_force_test_is_rolled_with_its_key_and_kept_for_its_side(in_orders: CampaignState) -> None:
    journal = Journal()
    after, out = orders.give_order(in_orders, FRENCH.member_id, "IV Corps", Order.DEFEND, journal, ctx())
    key = "t1/p1/force:soult/force-test"
    expected = force_test_check(in_orders.engine_force("soult"), in_orders.map.cell(Square.parse("C4")),
                                rules=RULES).roll(dice(in_orders), key)
    assert out.roll == expected and out.roll.key == key
    assert (out.force, out.order, out.summary) == ("IV Corps", Order.DEFEND, expected.label)
    [decl] = after.declarations_of(Phase.ORDERS, DeclarationKind.ORDER)
    assert (decl.force, decl.side, decl.turn) == ("soult", "fr", 1)
    assert decl.payload == OrderPayload(Order.DEFEND, expected)
    [event] = journal.events
    assert event.kind is EventKind.ROLL and event.visibility == "side:fr"
    assert event.data["prev"] == GENESIS and journal.chain_end == record_hash(event.data)
    # The order itself waits for the phase's resolution; nothing else changed, the input state neither.
    assert after.forces is in_orders.forces and after.sides is in_orders.sides
    assert in_orders.declarations == ()


def test_a_force_tests_once_per_turn(in_orders: CampaignState) -> None:
    after, _ = orders.give_order(in_orders, FRENCH.member_id, "soult", Order.DEFEND, Journal(), ctx())
    with pytest.raises(RuleViolation, match="IV Corps has already taken its Force test this turn"):
        orders.give_order(after, FRENCH.member_id, "soult", Order.FORCED_MARCH, Journal(), ctx())
    other, _ = orders.give_order(after, FRENCH.member_id, "lannes", Order.DEFEND, Journal(), ctx())
    assert {d.force for d in other.declarations} == {"soult", "lannes"}


def test_a_force_test_is_refused_to_the_wrong_member_force_or_phase(tutorial: CampaignState,
                                                                   in_orders: CampaignState) -> None:
    with pytest.raises(NotFound, match="You have no Force 'mack'"):  # an enemy Force is not named back
        orders.give_order(in_orders, FRENCH.member_id, "mack", Order.DEFEND, Journal(), ctx())
    with pytest.raises(NotFound, match="You have no Force 'nobody'"):
        orders.give_order(in_orders, FRENCH.member_id, "nobody", Order.DEFEND, Journal(), ctx())
    with pytest.raises(PermissionDenied, match="not on a side in 'Ulm'"):
        orders.give_order(in_orders, OUTSIDER.member_id, "soult", Order.DEFEND, Journal(), ctx())
    with pytest.raises(WrongPhase, match="Giving orders belongs to Phase 1: Orders"):
        orders.give_order(tutorial, FRENCH.member_id, "soult", Order.DEFEND, Journal(), ctx())
    with pytest.raises(RuleViolation, match="no Force test is needed"):
        orders.give_order(in_orders, FRENCH.member_id, "soult", in_orders.forces["soult"].order, Journal(), ctx())
    ended = in_orders.evolve(status=CampaignStatus.ENDED)
    with pytest.raises(WrongPhase, match="The campaign 'Ulm' has ended"):
        orders.give_order(ended, FRENCH.member_id, "soult", Order.DEFEND, Journal(), ctx())
    assert not in_orders.forces["ney"].active  # a reinforcement of turn 2
    with pytest.raises(RuleViolation, match="VI Corps is not on the map"):
        orders.give_order(in_orders, FRENCH.member_id, "ney", Order.DEFEND, Journal(), ctx())


def test_a_shaken_force_tests_even_to_keep_its_order(in_orders: CampaignState) -> None:
    shaken = in_orders.with_force("soult", reaction=Reaction.CONFUSED)
    order = shaken.forces["soult"].order
    after, out = orders.give_order(shaken, FRENCH.member_id, "soult", order, Journal(), ctx())
    assert out.order is order and len(after.declarations) == 1


def test_the_first_roll_of_a_turn_draws_and_publishes_its_seed(in_orders: CampaignState) -> None:
    unseeded = in_orders.evolve(seeds={})
    fresh = hashlib.sha256(b"another").digest()
    journal = Journal()
    after, out = orders.give_order(unseeded, FRENCH.member_id, "soult", Order.DEFEND, journal, ctx(fresh))
    assert after.seed().seed_hex == fresh.hex() and after.seed().sha256 == seed_commitment(fresh)
    seed_event, roll_event = journal.events
    assert seed_event.kind is EventKind.SEED and seed_event.visibility == PUBLIC
    assert seed_event.data == {"turn": 1, "seed_sha256": seed_commitment(fresh)}
    assert roll_event.kind is EventKind.ROLL and out.roll.key == "t1/p1/force:soult/force-test"


def test_the_odds_shown_are_those_of_the_test_rolled(in_orders: CampaignState) -> None:
    odds = orders.order_odds(in_orders, FRENCH.member_id, "soult", "defend", RULES)
    assert sum(odds.chances().values()) == 1
    check = force_test_check(in_orders.engine_force("soult"), in_orders.map.cell(Square.parse("C4")), rules=RULES)
    assert odds.chances() == {r: p for r, p in reversed(check.odds().items()) if p}  # no 0% row, the best first
    assert odds.modifiers == check.modifiers
    _, out = orders.give_order(in_orders, FRENCH.member_id, "soult", Order.DEFEND, Journal(), ctx())
    assert odds.chances()[out.roll.result] > 0
    assert out.roll.dice[0] in next(row.faces for row in odds.rows if row.key == out.roll.result)
    with pytest.raises(NotFound):
        orders.order_odds(in_orders, FRENCH.member_id, "werneck", "defend", RULES)
    with pytest.raises(InvalidInput, match="Unknown order 'charge'"):
        orders.order_odds(in_orders, FRENCH.member_id, "soult", "charge", RULES)


# --- Phase 2: moves -------------------------------------------------------------------------------


def test_a_land_move_is_rolled_when_declared_and_kept_private(in_movement: CampaignState) -> None:
    journal = Journal()
    after, out = orders.declare_move(in_movement, FRENCH.member_id, "soult", "D4 E4", journal, ctx())
    key = "t1/p2/force:soult/movement"
    check = movement_check(in_movement.engine_force("soult"), in_movement.map.cell(Square.parse("C4")), rules=RULES)
    expected = check.roll(dice(in_movement), key)
    assert out.roll == expected and out.allowance == (expected.value or 0)
    assert out.path == ("D4", "E4") and out.reach == out.path[: out.allowance] and not out.by_water
    [decl] = after.declarations_of(Phase.MOVEMENT, DeclarationKind.MOVE)
    assert decl.payload == MovePayload(("D4", "E4"), out.allowance, expected, "C4", by_water=False)
    [event] = journal.events
    assert event.visibility == "side:fr" and event.roll == expected
    assert after.forces["soult"].square == "C4"  # it moves when the phase resolves


def test_a_new_path_replaces_the_old_with_the_same_dice(in_movement: CampaignState) -> None:
    first, out1 = orders.declare_move(in_movement, FRENCH.member_id, "soult", "D4", Journal(), ctx())
    journal = Journal()
    second, out2 = orders.declare_move(first, FRENCH.member_id, "soult", "C5 C6", journal, ctx())
    assert out2.roll == out1.roll and out2.path == ("C5", "C6")
    [decl] = second.declarations
    assert decl.payload.path == ("C5", "C6")
    assert journal.events == []  # the roll was logged once, when first declared


def test_the_move_odds_are_those_of_the_move_rolled(in_movement: CampaignState) -> None:
    odds = orders.move_odds(in_movement, FRENCH.member_id, "soult", "D4 E4", RULES).chances()
    assert sum(odds.values()) == 1 and all(p > 0 for p in odds.values())
    _, out = orders.declare_move(in_movement, FRENCH.member_id, "soult", "D4 E4", Journal(), ctx())
    assert odds[min(out.allowance, 2)] > 0
    # RU-10: a random event's movement modifier shifts the odds the player sees and the roll alike.
    slowed = in_movement.with_side("fr", movement_modifier=-2)
    worse = orders.move_odds(slowed, FRENCH.member_id, "soult", "D4 E4", RULES).chances()
    assert sum(n * p for n, p in worse.items()) < sum(n * p for n, p in odds.items())
    _, late = orders.declare_move(slowed, FRENCH.member_id, "soult", "D4 E4", Journal(), ctx())
    assert any(m.rule == "RU-10" for m in late.roll.modifiers)


def test_a_march_into_water_is_refused(in_movement: CampaignState) -> None:
    with pytest.raises(RuleViolation, match="cannot march into water"):
        orders.declare_move(in_movement, FRENCH.member_id, "lannes", "B8 A9", Journal(), ctx())
    with pytest.raises(RuleViolation, match="cannot march into water"):
        orders.move_odds(in_movement, FRENCH.member_id, "lannes", "B8 A9", RULES)


@pytest.mark.parametrize(("force", "square", "path", "by_water", "refusal"), [
    # The tutorial: the Iller runs down column F; a lake at A9 and B9.
    pytest.param("soult", "F3", "F4 G5", True, "G5 has no river", id="a-river-move-over-dry-land"),
    pytest.param("soult", "C4", "D4 E4", True, "C4 has no river", id="a-river-move-from-off-the-river"),
    pytest.param("lannes", "C8", "B9 A9 A8 B7", True, "A8 is open", id="a-sea-path-through-a-land-square"),
    pytest.param("lannes", "A9", "B8", False, "A9 is lake", id="a-land-move-from-a-square-at-sea"),
])
def test_water_is_water_the_odds_and_the_roll_refuse_alike(in_movement: CampaignState, force: str, square: str,
                                                            path: str, by_water: bool, refusal: str) -> None:
    """Issue 21, item 3 (MC-5.3): a move by water follows a river or water squares; a Force afloat lands by a
    move by water. Refused with the rule and the square, before the odds are shown and when declared."""
    placed = in_movement.with_force(force, square=square)
    with pytest.raises(RuleViolation, match=refusal) as shown:
        orders.move_odds(placed, FRENCH.member_id, force, path, RULES, by_water=by_water)
    with pytest.raises(RuleViolation, match=refusal) as declared:
        orders.declare_move(placed, FRENCH.member_id, force, path, Journal(), ctx(), by_water=by_water)
    assert "MC-5.3" in str(shown.value) and str(shown.value) == str(declared.value)


def test_a_force_afloat_lands_by_a_move_by_water(in_movement: CampaignState) -> None:
    afloat = in_movement.with_force("lannes", square="A9")
    odds = orders.move_odds(afloat, FRENCH.member_id, "lannes", "B8", RULES, by_water=True).chances()
    assert odds == {1: Fraction(1)}  # one square: the landing square (MC-5.3)
    _, out = orders.declare_move(afloat, FRENCH.member_id, "lannes", "B8", Journal(), ctx(), by_water=True)
    bands = 1 if out.roll.total <= 2 else 2 if out.roll.total <= 5 else 3 if out.roll.total <= 8 else 4
    assert out.by_water and out.reach == ("B8",)
    assert out.allowance == max(1, bands - (out.roll.total >= 3))  # it lands (one square less), it does not embark


def test_a_move_declared_under_the_old_reading_stands_for_its_phase(in_movement: CampaignState) -> None:
    """Nothing stored is lost: a path declared before MC-5.3 was read strictly (a march out of the lake)
    keeps its roll, may still be re-rolled with a scout (FC-3) and resolves; the next declaration follows
    the rule."""
    afloat = in_movement.with_force("lannes", square="A9", scouts=1)
    afloat = afloat.evolve(settings=replace(afloat.settings, scout_rerolls=True))
    roll = movement_check(afloat.engine_force("lannes"), afloat.map.cell(Square.parse("A9")),
                          rules=RULES).roll(dice(afloat), "t1/p2/force:lannes/movement")
    stored = afloat.evolve(declarations=(_old_move(afloat, roll),))
    after, out = orders.reroll(stored, FRENCH.member_id, "lannes", Journal(), ctx())
    assert out.path == ("B8",) and after.forces["lannes"].scouts == 0
    with pytest.raises(RuleViolation, match="A9 is lake"):
        orders.declare_move(after, FRENCH.member_id, "lannes", "B8", Journal(), ctx())


def _old_move(state: CampaignState, roll: Roll) -> Declaration:
    return Declaration(state.turn, state.phase, "lannes", "fr", DeclarationKind.MOVE,
                       MovePayload(("B8",), roll.value or 0, roll, "A9", by_water=False))


def test_a_river_move_loses_squares_to_embarking_and_landing_in_the_odds_and_the_roll(
        in_movement: CampaignState) -> None:
    on_river = in_movement.with_force("soult", square="F3")
    odds = orders.move_odds(on_river, FRENCH.member_id, "soult", "F4 F5 F6", RULES, by_water=True,
                            horse_rafts=True).chances()
    after, out = orders.declare_move(on_river, FRENCH.member_id, "soult", "F4 F5 F6", Journal(), ctx(), by_water=True,
                                     horse_rafts=True)
    route = river_route(on_river.map, Square.parse("F3"), tuple(Square.parse(s) for s in ("F4", "F5", "F6")),
                        horse_barges=True, embarking=True, landing=True)
    assert route.downstream and route.horse_barges
    check = water_movement_check(on_river.engine_force("soult"), on_river.map.cell(Square.parse("F3")), route,
                                 rules=RULES)
    assert out.roll == check.roll(dice(on_river), "t1/p2/force:soult/movement")
    assert out.by_water and out.allowance == water_allowance(out.roll, route, RULES)
    assert odds[out.allowance] > 0 and sum(odds.values()) == 1
    assert after.declarations[0].payload.by_water is True


def test_moves_belong_to_phase_2(in_orders: CampaignState) -> None:
    with pytest.raises(WrongPhase, match="Declaring moves belongs to Phase 2: Movement"):
        orders.declare_move(in_orders, FRENCH.member_id, "soult", "D4", Journal(), ctx())


def test_a_side_is_done_and_the_phase_knows_when_all_are(in_orders: CampaignState, tutorial: CampaignState) -> None:
    one, everyone = orders.mark_done(in_orders, FRENCH.member_id)
    assert one.sides["fr"].done and not everyone
    both, everyone = orders.mark_done(one, AUSTRIAN.member_id)
    assert everyone
    back, everyone = orders.mark_done(both, FRENCH.member_id, done=False)
    assert not back.sides["fr"].done and not everyone
    beaten = in_orders.with_side("au", defeated=True)
    assert orders.mark_done(beaten, FRENCH.member_id)[1]  # a defeated side is waited for no more
    with pytest.raises(WrongPhase, match="does not wait for players to be done"):
        orders.mark_done(tutorial, FRENCH.member_id)
    with pytest.raises(PermissionDenied):
        orders.mark_done(in_orders, OUTSIDER.member_id)


# --- the GM's corrections ---------------------------------------------------------------------------


def test_a_gm_correction_is_told_as_far_as_fog_allows(tutorial: CampaignState) -> None:
    journal = Journal()
    after, fix = edits.edit_force(tutorial, GM, "IV Corps", journal, square="d5", reaction="confused",
                                  unit="vandamme", sp=9)
    assert fix.changes == ("square C4 -> D5", "reaction none -> confused", "Vandamme's Division 12 -> 9 SP")
    soult = after.forces["soult"]
    assert soult.square == "D5" and soult.reaction is Reaction.CONFUSED
    assert {u.key: u.sp for u in soult.units}["vandamme"] == 9
    told = {n.visibility: str(n.text) for n in fix.notices}
    assert told["side:fr"].startswith("GM correction to IV Corps: square C4 -> D5")
    assert "IV Corps" not in told[PUBLIC] and "The GM corrected a Force of France" in told[PUBLIC]
    assert "side:au" not in told  # Austria sees neither square: it has the public news only
    assert [(e.kind, e.visibility) for e in journal.events] == [(EventKind.GM, n.visibility) for n in fix.notices]


def test_a_gm_correction_in_everyones_sight_is_public(tutorial: CampaignState) -> None:
    near = tutorial.with_force("mack", square="E4")  # within two squares of Soult
    _, fix = edits.edit_force(near, GM, "soult", Journal(), square="D4")
    assert [n.visibility for n in fix.notices] == [PUBLIC]  # France's own text is the same: told once
    assert str(fix.notices[0].text) == "GM correction to IV Corps: square C4 -> D4."


def test_gm_corrections_are_checked(tutorial: CampaignState) -> None:
    with pytest.raises(PermissionDenied, match="Only the GM of 'Ulm'"):
        edits.edit_force(tutorial, FRENCH, "soult", Journal(), square="D4")
    role = tutorial.evolve(gm_role_id=77)  # a member with the GM role corrects too
    after, fix = edits.edit_force(role, Member(5, frozenset({77})), "soult", Journal(), order="defend")
    assert fix.changes == ("order explore -> defend",) and after.forces["soult"].order is Order.DEFEND
    with pytest.raises(NotFound, match="There is no Force 'nobody'"):
        edits.edit_force(tutorial, GM, "nobody", Journal(), square="D4")
    with pytest.raises(InvalidInput, match="A9 is water"):
        edits.edit_force(tutorial, GM, "soult", Journal(), square="A9")
    with pytest.raises(InvalidInput, match="Nothing to correct"):
        edits.edit_force(tutorial, GM, "soult", Journal())
    with pytest.raises(InvalidInput, match="give both the unit and its SP"):
        edits.edit_force(tutorial, GM, "soult", Journal(), unit="vandamme")
    with pytest.raises(InvalidInput, match="has no unit 'riesch'"):
        edits.edit_force(tutorial, GM, "soult", Journal(), unit="riesch", sp=3)
    with pytest.raises(InvalidInput, match="Unknown reaction 'panicked'"):
        edits.edit_force(tutorial, GM, "soult", Journal(), reaction="panicked")


def test_deadlines_and_absences_are_checked_and_announced(tutorial: CampaignState) -> None:
    now = dt.datetime(2026, 11, 21, 12, 0, tzinfo=dt.UTC)
    journal = Journal()
    assert edits.set_deadline(tutorial, GM, 48, now, journal) == now + dt.timedelta(hours=48)
    assert str(journal.events[0].text) == "The GM set the phase deadline to 2026-11-23 12:00 UTC."
    with pytest.raises(InvalidInput, match="A deadline is 1 minute to 1440 hours away"):
        edits.set_deadline(tutorial, GM, 0, now, Journal())
    with pytest.raises(PermissionDenied):
        edits.set_deadline(tutorial, FRENCH, 2, now, Journal())
    journal = Journal()
    assert edits.declare_away(tutorial, FRENCH.member_id, "Pierre", 3, now, journal) == now + dt.timedelta(days=3)
    assert edits.declare_away(tutorial, FRENCH.member_id, "", 0, now, journal) is None
    assert [str(e.text) for e in journal.events] == ["Pierre is away for 3 days.", "A player is back."]
    with pytest.raises(PermissionDenied):
        edits.declare_away(tutorial, OUTSIDER.member_id, "Olga", 3, now, Journal())


# --- members, settings, the end -----------------------------------------------------------------------


def test_members_join_one_side_and_the_gm_moves_them(tutorial: CampaignState) -> None:
    journal = Journal()
    joined, side = lifecycle.join_side(tutorial, OUTSIDER, "Olga", "\u200bAUSTRIA ", journal)
    assert side.key == "au" and joined.players[OUTSIDER.member_id] == "au"
    assert str(journal.events[0].text) == "Olga joined Austria."
    with pytest.raises(InvalidInput, match="You already play Austria"):
        lifecycle.join_side(joined, OUTSIDER, "Olga", "au", Journal())
    with pytest.raises(PermissionDenied, match="You already play another side"):
        lifecycle.join_side(joined, OUTSIDER, "Olga", "fr", Journal())
    with pytest.raises(NotFound, match="There is no side 'prussia': sides are France, Austria"):
        lifecycle.join_side(tutorial, OUTSIDER, "Olga", "prussia", Journal())
    journal = Journal()
    gm_plays, _ = lifecycle.join_side(tutorial, GM, "Gina", "fr", journal)
    assert str(journal.events[0].text) == "Gina, a GM of this campaign, joined France and plays it."
    assert gm_plays.players[GM.member_id] == "fr"
    journal = Journal()
    moved, side = lifecycle.assign(joined, GM, OUTSIDER.member_id, "fr", journal, member_name="Olga")
    assert moved.players[OUTSIDER.member_id] == "fr" and journal.events[0].kind is EventKind.GM
    with pytest.raises(PermissionDenied, match="Only the GM"):
        lifecycle.assign(joined, FRENCH, OUTSIDER.member_id, "fr", Journal())
    ended = tutorial.evolve(status=CampaignStatus.ENDED)
    with pytest.raises(InvalidInput, match="has ended"):
        lifecycle.join_side(ended, OUTSIDER, "Olga", "fr", Journal())


def test_a_rule_option_is_typed_and_checked(tutorial: CampaignState) -> None:
    journal = Journal()
    four, merged = lifecycle.change_setting(tutorial, GM, "adjacency", "4", journal, RULES)
    assert merged["adjacency"] == 4 and four.settings.adjacency == 4 and four.map.adjacency == 4
    assert set(merged) == set(RULES.mc.options)
    assert str(journal.events[0].text) == "The GM set Adjacent squares to 4."
    quiet, _ = lifecycle.change_setting(tutorial, GM, "random_events", "FALSE", Journal(), RULES)
    assert quiet.settings.random_events is False and quiet.settings.adjacency == 8
    with pytest.raises(InvalidInput, match="Option 'adjacency' cannot be '6'"):
        lifecycle.change_setting(tutorial, GM, "adjacency", "6", Journal(), RULES)
    with pytest.raises(InvalidInput, match="Unknown campaign option 'fog'"):
        lifecycle.change_setting(tutorial, GM, "fog", "on", Journal(), RULES)
    with pytest.raises(PermissionDenied):
        lifecycle.change_setting(tutorial, FRENCH, "adjacency", "4", Journal(), RULES)
    # The MC-5.1 extension off: the move's roll loses its terrain and weather modifiers.
    plain, _ = lifecycle.change_setting(tutorial, GM, "movement_extension", "false", Journal(), RULES)
    odds = orders.move_odds(plain.evolve(phase=Phase.MOVEMENT), FRENCH.member_id, "soult", "D4", RULES)
    check = movement_check(plain.engine_force("soult"), plain.map.cell(Square.parse("C4")), extension=False,
                           rules=RULES)
    assert odds.modifiers == check.modifiers and sum(odds.chances().values()) == Fraction(1)
    assert odds.chances() == _along(_allowances(check), 1)  # a one-square path: never a row for more


def _allowances(check) -> dict[int, Fraction]:
    out: dict[int, Fraction] = {}
    for total, p in check.total_odds().items():
        n = check.table.lookup(total).value or 0
        out[n] = out.get(n, Fraction(0)) + p
    return out


def _along(allowed: dict[int, Fraction], length: int) -> dict[int, Fraction]:
    """Squares allowed, counted along a path of ``length`` squares (no 0% row)."""
    out: dict[int, Fraction] = {}
    for n, p in allowed.items():
        out[min(n, length)] = out.get(min(n, length), Fraction(0)) + p
    return {n: p for n, p in out.items() if p}


# --- the odds say why (MC-4, MC-5.1) ---------------------------------------------------------------


def test_the_force_test_odds_name_the_modifiers_and_the_die_each_result_needs(in_orders: CampaignState) -> None:
    # Soult (CV 2) in the Austrian mountains at L4: 1d6 +2 -3 -1, so OK would need 8 and disaster is 1-3.
    cornered = in_orders.with_force("soult", square="L4")
    odds = orders.order_odds(cornered, FRENCH.member_id, "soult", "forced_march", RULES)
    assert odds.expression == ("1d6 +2 Soult's Command Value (MC-4) -3 in a mountain square (MC-4) "
                               "-1 in enemy territory (MC-4)")
    assert odds.needs == "no roll is enough for OK: the Force takes the new order (it would need 8 on 1d6)"
    assert [(row.key, row.faces) for row in odds.rows] == [
        ("defend", (6,)), ("confused", (5,)), ("unsteady", (4,)), ("disaster", (1, 2, 3))]
    assert odds.worst_chance == Fraction(1, 2) and odds.danger
    # At home (C4): 1d6 +2 +2, Defend on a 1, OK from 2; no disaster, no danger.
    home = orders.order_odds(in_orders, FRENCH.member_id, "soult", "forced_march", RULES)
    assert [(row.key, row.faces) for row in home.rows] == [("ok", (2, 3, 4, 5, 6)), ("defend", (1,))]
    assert home.needs == "needs 2 or more for OK: the Force takes the new order" and not home.danger


@pytest.mark.parametrize(("path", "rows"), [
    ("D4", [(1, (2, 3, 4, 5, 6)), (0, (1,))]),
    ("D4 E4", [(2, (5, 6)), (1, (2, 3, 4)), (0, (1,))]),
    ("D4 E4 F4", [(2, (5, 6)), (1, (2, 3, 4)), (0, (1,))]),  # 3 squares would need 8: no row for them
])
def test_the_move_odds_follow_the_declared_path(in_movement: CampaignState, path: str, rows) -> None:
    # IV Corps at C4, in friendly territory (+1, MC-5.1): 1d6 +1.
    odds = orders.move_odds(in_movement, FRENCH.member_id, "soult", path, RULES)
    assert odds.expression == "1d6 +1 starts in friendly territory (MC-5.1)"
    assert [(row.key, row.faces) for row in odds.rows] == rows
    assert odds.worst == "does not move: it stays at C4" and odds.worst_chance == Fraction(1, 6) and not odds.danger
    squares = path.split()
    assert [row.label for row in odds.rows] == [move_result("C4", squares, n) for n, _ in rows]
    assert odds.goal_face == (2, 5, 8)[len(squares) - 1]  # 8 is past the die: the whole path is out of reach


def test_a_move_that_cannot_happen_is_said_in_plain_words(in_movement: CampaignState) -> None:
    # Unsteady in the mountains of enemy territory: 1d6 -3 -1 -2, never more than 2: it does not move.
    stuck = in_movement.with_force("soult", square="L4", reaction=Reaction.UNSTEADY)
    odds = orders.move_odds(stuck, FRENCH.member_id, "soult", "L5", RULES)
    assert [(str(row.label), row.chance) for row in odds.rows] == [("does not move: it stays at L4", 1)]
    assert odds.danger and odds.needs == "no roll is enough for L5, the end of the path (it would need 9 on 1d6)"
    _, out = orders.declare_move(stuck, FRENCH.member_id, "soult", "L5", Journal(), ctx())
    assert out.allowance == 0 and out.result == "does not move: it stays at L4"


def test_the_gm_ends_the_campaign_and_then_nothing_is_played(in_orders: CampaignState) -> None:
    with pytest.raises(PermissionDenied):
        lifecycle.end_campaign(in_orders, FRENCH, Journal())
    journal = Journal()
    ended = lifecycle.end_campaign(in_orders, GM, journal)
    assert ended.status is CampaignStatus.ENDED and any(e.kind is EventKind.GM for e in journal.events)
    with pytest.raises(WrongPhase, match="has ended"):
        orders.give_order(ended, FRENCH.member_id, "soult", Order.DEFEND, Journal(), ctx())


# --- Phase 3: scouting ---------------------------------------------------------------------------------


@pytest.fixture
def battle(tutorial: CampaignState) -> CampaignState:
    """Soult and Mack meet in D4: battle 1, in Phase 3."""
    state = tutorial.evolve(phase=Phase.BATTLE).with_force("soult", square="D4").with_force("mack", square="D4")
    return state.with_battle(Battle(1, 1, "D4", ("mack", "soult"), ("au", "fr")))


def test_each_side_scouts_once_and_the_contest_is_decided_when_all_have(battle: CampaignState) -> None:
    journal = Journal()
    one, fr = scouting.scout(battle, FRENCH.member_id, "#1", journal, ctx())
    assert (fr.battle, fr.side, fr.complete, fr.winner) == (1, "fr", False, None)
    assert one.battles[1].scouting == Scouting({"fr": fr.score})
    ex = explore(battle.engine_force("soult"), battle.map.cell(Square.parse("D4")), dice(battle),
                 "t1/p3/force:soult/battle1-exploration", rules=RULES)
    assert fr.rolls == (ex.roll,) and fr.score == ex.score > 0
    assert fr.reasons == (f"IV Corps: {ex.reason}",)
    assert all(e.visibility == "side:fr" for e in journal.events)
    with pytest.raises(RuleViolation, match="already scouted battle 1"):
        scouting.scout(one, FRENCH.member_id, 1, Journal(), ctx())
    journal = Journal()
    both, au = scouting.scout(one, AUSTRIAN.member_id, "1", journal, ctx())
    assert au.complete and both.battles[1].scouting.scores["au"] == au.score
    expected = None if au.score == fr.score else ("fr" if fr.score > au.score else "au")
    assert au.winner == expected and both.battles[1].scouting.decided and both.battles[1].scouting.winner == expected
    last = journal.events[-1]
    assert last.visibility == PUBLIC and "scouting contest goes to" in str(last.text)


def test_scouting_is_refused_outside_the_battle(battle: CampaignState, tutorial: CampaignState) -> None:
    with pytest.raises(NotFound, match="There is no battle 2"):
        scouting.scout(battle, FRENCH.member_id, 2, Journal(), ctx())
    with pytest.raises(NotFound, match="is not a battle number"):
        scouting.scout(battle, FRENCH.member_id, "²", Journal(), ctx())
    with pytest.raises(WrongPhase, match="Scouting belongs to Phase 3"):
        scouting.scout(tutorial, FRENCH.member_id, 1, Journal(), ctx())
    neutral = battle.with_sides([replace(battle.sides["fr"], key="xx", name="Bavaria")])
    neutral = neutral.evolve(players={**neutral.players, 4001: "xx"})
    with pytest.raises(PermissionDenied, match="Your side does not fight battle 1"):
        scouting.scout(neutral, 4001, 1, Journal(), ctx())
