"""Alliances (RU-19) and battles of camps (RU-20) in the engine (bot/engine/camps.py and the procedures
that take ``camps``): movement and contacts (MC-5, MC-6, RU-13), friendly territory (MC-4, MC-5.1,
MC-5.2, MC-6.1), retreats (MC-7.3, RU-8), Will-to-Fight tallies (MC-9, RU-14), reinforcements (RU-10),
battle reports (BR), Glory (CC-4) and the overwhelm check (FC-1).

Two cases throughout: three sides with Austria and Piedmont allied against France (two camps), and
three hostile sides France, Austria, Russia (three camps). Without ``camps`` every side is its own
camp, as before alliances existed.
"""

from __future__ import annotations

import dataclasses
from typing import Any

import pytest

from bot.engine.aftermath import Retreating, check_retreat, choose_retreats, retreat_options, retreat_squares
from bot.engine.attrition import force_attrition
from bot.engine.battle import exploration_check
from bot.engine.camps import NO_CAMPS, Camps, camp_key
from bot.engine.cc_model import Circumstance, GloryKind, Theatre
from bot.engine.dice import ScriptedDice
from bot.engine.errors import InvalidInput, RuleViolation
from bot.engine.field_commander import overwhelm_check
from bot.engine.force_test import force_test_check
from bot.engine.glory import BattleState, GloryEntry, GloryLedger, SpendBattle, spend_anti_guerrilla
from bot.engine.leaders import roll_leader_fate
from bot.engine.model import Cell, Force, Leader, Order, Outcome, Reaction, Square, Terrain, Unit, UnitType
from bot.engine.movement import Contact, declare_land_move, movement_check, resolve_movement
from bot.engine.phases import Phase
from bot.engine.reports import parse_report, plan_aftermath, validate_report
from bot.engine.seasons import Reinforcement, reinforcement_arrivals
from bot.engine.will import Holding, Tallies, stronghold_holder

SIDES = ("france", "austria", "piedmont")
ALLIED = Camps.from_alliances([["austria", "piedmont"]], SIDES)
"""Austria and Piedmont one camp, "austria+piedmont", against France."""
COALITION = "austria+piedmont"
HOSTILE = Camps.none(["france", "austria", "russia"])
"""Three sides, three camps."""


def sq(name: str) -> Square:
    return Square.parse(name)


# --- the Camps value (RU-19) ----------------------------------------------------------------------


def test_ru_19_without_alliances_every_side_is_its_own_camp() -> None:
    for camps in (NO_CAMPS, Camps(), Camps.none(SIDES)):
        assert camps.camp_of("austria") == "austria"
        assert camps.hostile("austria", "piedmont") and not camps.allied("austria", "piedmont")
        assert camps.friendly("austria", "austria") and not camps.allied("austria", "austria")
        assert camps.allies_of("austria") == frozenset()
        assert camps.camps_of(["piedmont", "austria", "austria"]) == ("austria", "piedmont")
        assert not camps.has_alliances and camps.alliances == ()


def test_ru_19_an_alliance_is_one_camp_and_its_sides_are_allies() -> None:
    assert dict(ALLIED) == {"france": "france", "austria": COALITION, "piedmont": COALITION}
    assert ALLIED.camp_of("piedmont") == ALLIED.camp_of("austria") == COALITION == camp_key(["piedmont", "austria"])
    assert ALLIED.allied("austria", "piedmont") and ALLIED.friendly("piedmont", "austria")
    assert not ALLIED.hostile("austria", "piedmont")
    assert ALLIED.hostile("france", "austria") and ALLIED.hostile("piedmont", "france")
    assert ALLIED.allies_of("austria") == {"piedmont"} and ALLIED.allies_of("france") == frozenset()
    assert ALLIED.camps_of(SIDES) == (COALITION, "france")
    assert ALLIED.members(COALITION) == ("austria", "piedmont") and ALLIED.members("france") == ("france",)
    assert ALLIED.group(["piedmont", "france", "austria", "piedmont"]) == {
        COALITION: ("piedmont", "austria"), "france": ("france",)}
    assert ALLIED.has_alliances and ALLIED.alliances == (("austria", "piedmont"),)
    assert ALLIED.camp_of(COALITION) == COALITION  # a camp key is its own camp: passing camps for sides works
    assert hash(ALLIED) == hash(Camps(dict(ALLIED))) and Camps(dict(ALLIED)) == ALLIED
    assert Camps.none(SIDES) != ALLIED


@pytest.mark.parametrize(
    ("alliances", "sides", "message"),
    [
        ([["austria"]], SIDES, "at least two sides"),
        ([["austria", "austria"]], SIDES, "lists a side twice"),
        ([["austria", "piedmont"], ["piedmont", "france"]], SIDES, "in two alliances"),
        ([["austria", "russia"]], SIDES, "unknown side 'russia'"),
    ],
)
def test_ru_19_a_contradictory_alliance_is_refused(alliances: Any, sides: Any, message: str) -> None:
    with pytest.raises(ValueError, match=message):
        Camps.from_alliances(alliances, sides)


def test_ru_19_a_camp_key_naming_a_side_of_another_camp_is_refused() -> None:
    with pytest.raises(ValueError, match="also the side"):
        Camps({"austria": "france", "france": "france+x"})


# --- movement and contacts (RU-13, MC-6, RU-19, RU-20) --------------------------------------------


def declare(force: Force, cmap: Any, path: str, squares: int) -> Any:
    """A move whose roll allows exactly ``squares`` squares (1D6 + weather, extension on)."""
    face, weather = {1: (3, 0), 2: (6, 0), 3: (6, 3)}[squares]
    move = declare_land_move(force, cmap, path, ScriptedDice([face]), f"t1/p2/force:{force.id}/movement", weather=weather)
    assert move.allowance == squares
    return move


def test_ru_19_an_allys_force_does_not_stop_a_move(make_force, make_map) -> None:
    cmap = make_map()
    austrians = make_force("au", side="austria", square="C3")
    piedmontese = make_force("pi", side="piedmont", square="E3")
    moves = {"au": declare(austrians, cmap, "D3 E3 F3", 3)}
    allied = resolve_movement([austrians, piedmontese], moves, camps=ALLIED)
    assert allied.positions["au"] == sq("F3") and allied.stopped_by_contact == frozenset()
    assert allied.battles == ()
    # Without the alliance Piedmont is an enemy: the move stops on its square and they fight.
    alone = resolve_movement([austrians, piedmontese], moves)
    assert alone.positions["au"] == sq("E3") and alone.stopped_by_contact == {"au"}
    assert alone.battles == (Contact(sq("E3"), ("au", "pi"), ("austria", "piedmont"), ("austria", "piedmont")),)


def test_ru_19_an_allys_force_does_not_stop_a_move_by_initiative(make_force, make_map) -> None:
    cmap = make_map()
    austrians = make_force("au", side="austria", square="C3")
    piedmontese = make_force("pi", side="piedmont", square="E3")
    moves = {"au": declare(austrians, cmap, "D3 E3 F3", 3)}
    out = resolve_movement([austrians, piedmontese], moves, side_order=["piedmont", "austria"], camps=ALLIED)
    assert out.positions["au"] == sq("F3") and out.battles == ()


def test_ru_19_allied_forces_share_a_square_without_a_battle_even_a_routed_one(make_force, make_map) -> None:
    cmap = make_map()
    austrians = make_force("au", side="austria", square="C3")
    piedmontese = make_force("pi", side="piedmont", square="E3", reaction=Reaction.ROUTED)
    moves = {"au": declare(austrians, cmap, "D3 E3", 2)}
    out = resolve_movement([austrians, piedmontese], moves, camps=ALLIED)
    assert out.positions == {"au": sq("E3"), "pi": sq("E3")}
    assert out.battles == () and out.collapsed == ()


def test_ru_20_two_allies_and_their_enemy_in_one_square_fight_one_battle_of_two_camps(make_force, make_map) -> None:
    cmap = make_map()
    austrians = make_force("au", side="austria", square="C3")
    piedmontese = make_force("pi", side="piedmont", square="G3")
    french = make_force("fr", side="france", square="E3", order=Order.DEFEND)
    moves = {"au": declare(austrians, cmap, "D3 E3", 2), "pi": declare(piedmontese, cmap, "F3 E3", 2)}
    out = resolve_movement([austrians, piedmontese, french], moves, camps=ALLIED)
    assert out.battles == (
        Contact(sq("E3"), ("au", "fr", "pi"), ("austria", "france", "piedmont"), (COALITION, "france")),)


def test_ru_20_three_hostile_camps_in_one_square_are_one_battle(make_force, make_map) -> None:
    cmap = make_map()
    french = make_force("fr", side="france", square="C3")
    austrians = make_force("au", side="austria", square="G3")
    russians = make_force("ru", side="russia", square="E5")
    moves = {"fr": declare(french, cmap, "D3 E3", 2), "au": declare(austrians, cmap, "F3 E3", 2),
             "ru": declare(russians, cmap, "E4 E3", 2)}
    for camps in (HOSTILE, NO_CAMPS):
        out = resolve_movement([french, austrians, russians], moves, camps=camps)
        assert out.battles == (Contact(sq("E3"), ("au", "fr", "ru"), ("austria", "france", "russia"),
                                       ("austria", "france", "russia")),)


def test_mc_2_a_routed_force_collapses_when_an_enemy_contacts_it_and_its_ally_fights_on(make_force, make_map) -> None:
    cmap = make_map()
    french = make_force("fr", side="france", square="C3")
    austrians = make_force("au", side="austria", square="E3", reaction=Reaction.ROUTED)
    piedmontese = make_force("pi", side="piedmont", square="E3")
    out = resolve_movement([french, austrians, piedmontese], {"fr": declare(french, cmap, "D3 E3", 2)}, camps=ALLIED)
    assert out.collapsed == ("au",)
    assert out.battles == (Contact(sq("E3"), ("fr", "pi"), ("france", "piedmont"), (COALITION, "france")),)


def test_ru_20_a_routed_camp_collapses_and_the_two_other_camps_still_fight(make_force, make_map) -> None:
    cmap = make_map()
    french = make_force("fr", side="france", square="C3")
    austrians = make_force("au", side="austria", square="E3", reaction=Reaction.ROUTED)
    russians = make_force("ru", side="russia", square="E3")
    out = resolve_movement([french, austrians, russians], {"fr": declare(french, cmap, "D3 E3", 2)}, camps=HOSTILE)
    assert out.collapsed == ("au",)
    assert [(b.sides, b.camps) for b in out.battles] == [(("france", "russia"), ("france", "russia"))]


# --- friendly territory (MC-4, MC-5.1, MC-5.2, MC-6.1) --------------------------------------------


PIEDMONT_GROUND = Cell(territory="piedmont")


def test_ru_19_an_allys_territory_is_friendly_for_the_movement_roll_mc_5_1(make_force) -> None:
    austrians = make_force("au", side="austria")
    allied = movement_check(austrians, PIEDMONT_GROUND, extension=False, allies=ALLIED.allies_of("austria"))
    alone = movement_check(austrians, PIEDMONT_GROUND, extension=False, allies=NO_CAMPS.allies_of("austria"))
    assert allied.modifier_total == +1 and alone.modifier_total == -1
    french = make_force("fr", side="france")
    assert movement_check(french, PIEDMONT_GROUND, extension=False, allies=ALLIED.allies_of("france")).modifier_total == -1


def test_ru_19_an_allys_territory_is_friendly_for_the_force_test_mc_4_and_exploration_mc_6_1(make_force) -> None:
    austrians = make_force("au", side="austria")
    assert force_test_check(austrians, PIEDMONT_GROUND, allies=ALLIED.allies_of("austria")).modifier_total == +2
    assert force_test_check(austrians, PIEDMONT_GROUND).modifier_total == -1
    explore = exploration_check(austrians, PIEDMONT_GROUND, allies=ALLIED.allies_of("austria"))
    assert explore is not None and explore.modifier_total == +2


def test_ru_19_attrition_on_an_allys_ground_takes_the_friendly_wounded_check_mc_5_2(make_force, make_map, make_unit) -> None:
    cmap = make_map(10, 10, {"D3": Cell(Terrain.DESERT, territory="piedmont")})
    austrians = make_force("au", side="austria", square="C3", units=(make_unit("a", sp=10),))
    # Loses 1D6-2 = 1 SP; its wounded check rolls a 3: dead on enemy ground (3-1), back on friendly ground (3+1).
    allied = force_attrition(austrians, cmap, [sq("D3")], ScriptedDice([3, 3]), "k", allies=ALLIED.allies_of("austria"))
    alone = force_attrition(austrians, cmap, [sq("D3")], ScriptedDice([3, 3]), "k")
    assert allied.force.sp == 10 and alone.force.sp == 9


# --- retreats (MC-7.3, RU-8) ----------------------------------------------------------------------


BATTLE = sq("E5")


def names(squares: Any) -> list[str]:
    return sorted(s.name for s in squares)


def test_ru_19_a_retreat_may_enter_a_square_an_ally_holds_mc_7_3(make_map) -> None:
    cmap = make_map()
    positions = [("piedmont", sq(n)) for n in ("D4", "D5", "D6", "E4", "E6", "F4", "F5")] + [("france", sq("F6"))]
    assert names(retreat_squares(cmap, BATTLE, "austria", positions, camps=ALLIED)) == [
        "D4", "D5", "D6", "E4", "E6", "F4", "F5"]
    assert retreat_squares(cmap, BATTLE, "austria", positions) == ()  # Piedmont an enemy: nowhere to go


def test_ru_8_a_force_hemmed_in_by_two_hostile_camps_surrenders(make_map) -> None:
    cmap = make_map()
    positions = [("france" if i % 2 else "russia", sq(n))
                 for i, n in enumerate(("D4", "D5", "D6", "E4", "E6", "F4", "F5", "F6"))]
    assert retreat_squares(cmap, BATTLE, "austria", positions, camps=HOSTILE) == ()
    assert choose_retreats(cmap, BATTLE, [Retreating("au", "austria", False)], positions, camps=HOSTILE) == {"au": None}


def test_ru_19_after_a_draw_allies_may_stay_in_contact_and_only_hostile_camps_keep_apart(make_map) -> None:
    cmap = make_map()
    # Piedmont has left the draw to D5; Austria may end next to it, not next to France's F5.
    options = retreat_options(cmap, BATTLE, "austria", [], apart_from=[sq("F5")], camps=ALLIED)
    assert "D4" in names(options) and "E4" not in names(options)
    assert check_retreat(cmap, BATTLE, "austria", sq("D4"), [("piedmont", sq("D5"))], apart_from=[sq("F5")],
                         camps=ALLIED) == sq("D4")
    with pytest.raises(RuleViolation, match="one square apart"):
        check_retreat(cmap, BATTLE, "austria", sq("E4"), [], apart_from=[sq("F5")], camps=ALLIED)


def test_ru_20_on_a_draw_every_camp_leaves_and_allies_may_end_side_by_side(make_map) -> None:
    cmap = make_map()
    movers = [Retreating("fr", "france", True), Retreating("au", "austria", True), Retreating("pi", "piedmont", True)]
    picks = choose_retreats(cmap, BATTLE, movers, [], camps=ALLIED)
    fr, au, pi = picks["fr"], picks["au"], picks["pi"]
    assert fr is not None and au is not None and pi is not None
    assert cmap.distance(fr, au) >= 2 and cmap.distance(fr, pi) >= 2  # hostile camps one square apart
    # Without the alliance Piedmont must also keep apart from Austria.
    alone = choose_retreats(cmap, BATTLE, movers, [])
    assert all(cmap.distance(a, b) >= 2 for a, b in ((alone["fr"], alone["au"]), (alone["fr"], alone["pi"]),
                                                     (alone["au"], alone["pi"])))


def test_ru_20_three_hostile_camps_leaving_a_draw_end_apart_from_one_another(make_map) -> None:
    cmap = make_map()
    movers = [Retreating("fr", "france", True), Retreating("au", "austria", True), Retreating("ru", "russia", True)]
    picks = choose_retreats(cmap, BATTLE, movers, [], camps=HOSTILE)
    squares = [picks["fr"], picks["au"], picks["ru"]]
    assert all(s is not None for s in squares)
    assert all(cmap.distance(a, b) >= 2 for i, a in enumerate(squares) for b in squares[i + 1:])


# --- Will to Fight (MC-9, RU-14, RU-19) -----------------------------------------------------------


def test_ru_19_a_stronghold_held_by_its_owners_ally_is_neither_lost_nor_taken_mc_9() -> None:
    held = [Holding("piedmont", "austria"), Holding("piedmont", "austria", capital=True)]
    for side in SIDES:
        assert Tallies.of(side, held, camps=ALLIED) == Tallies()
    # Without the alliance Austria took them from Piedmont.
    assert Tallies.of("austria", held) == Tallies(strongholds_taken=1, holds_enemy_capital=True)
    assert Tallies.of("piedmont", held) == Tallies(strongholds_lost=1, lost_capital=True)


def test_ru_14_a_stronghold_the_enemy_takes_from_an_ally_counts_only_for_its_owner_mc_9() -> None:
    held = [Holding("piedmont", "france"), Holding("austria", "france", capital=True), Holding("france", "piedmont")]
    assert Tallies.of("france", held, camps=ALLIED) == Tallies(strongholds_taken=1, strongholds_lost=1,
                                                               holds_enemy_capital=True)
    assert Tallies.of("piedmont", held, camps=ALLIED) == Tallies(strongholds_taken=1, strongholds_lost=1)
    assert Tallies.of("austria", held, camps=ALLIED) == Tallies(lost_capital=True)


def test_mc_9_a_third_camp_holding_a_stronghold_is_the_enemy_of_its_owner() -> None:
    held = [Holding("austria", "russia")]
    assert Tallies.of("austria", held, camps=HOSTILE) == Tallies(strongholds_lost=1)
    assert Tallies.of("russia", held, camps=HOSTILE) == Tallies(strongholds_taken=1)
    assert Tallies.of("france", held, camps=HOSTILE) == Tallies()


@pytest.mark.parametrize(
    ("owner", "holder", "present", "after"),
    [
        ("piedmont", "piedmont", ["austria"], "piedmont"),  # an ally stands in it: no change
        ("piedmont", "piedmont", ["france"], "france"),  # the enemy alone: taken
        ("piedmont", "france", ["austria"], "piedmont"),  # an ally frees it for its owner
        ("piedmont", "france", ["piedmont"], "piedmont"),
        ("piedmont", "france", ["austria", "france"], "france"),  # contested: no change
        ("piedmont", "piedmont", [], "piedmont"),
        ("france", "france", ["piedmont", "austria"], "austria"),  # two allies take it: the first by key
        ("france", "austria", ["piedmont"], "austria"),  # allies never take one from another
    ],
)
def test_mc_9_who_holds_a_stronghold_with_allies(owner: str, holder: str, present: list[str], after: str) -> None:
    assert stronghold_holder(owner, holder, present, camps=ALLIED) == after


def test_mc_9_who_holds_a_stronghold_without_alliances() -> None:
    assert stronghold_holder("piedmont", "piedmont", ["austria"]) == "austria"
    assert stronghold_holder("piedmont", "austria", ["piedmont"]) == "piedmont"
    assert stronghold_holder("piedmont", "austria", ["france"]) == "france"
    assert stronghold_holder("piedmont", "piedmont", ["austria", "france"]) == "piedmont"


# --- reinforcements (RU-10) -----------------------------------------------------------------------


def test_ru_10_a_square_an_ally_holds_does_not_block_an_arrival() -> None:
    schedule = [Reinforcement(2, "austria", "wukassovich", "A1"), Reinforcement(2, "piedmont", "colli", "B2")]
    occupied = {"A1": {"piedmont"}, "B2": {"austria", "piedmont"}}
    out = reinforcement_arrivals(schedule, 2, occupied, camps=ALLIED)
    assert [r.force_id for r in out.arriving] == ["wukassovich", "colli"] and out.waiting == ()
    alone = reinforcement_arrivals(schedule, 2, occupied)
    assert alone.arriving == () and [r.force_id for r in alone.waiting] == ["wukassovich", "colli"]


def test_ru_10_an_enemy_still_blocks_and_allies_arrive_together() -> None:
    schedule = [Reinforcement(2, "austria", "a", "C3"), Reinforcement(2, "piedmont", "p", "C3"),
                Reinforcement(2, "france", "f", "C3"), Reinforcement(2, "piedmont", "q", "D4")]
    out = reinforcement_arrivals(schedule, 2, {"D4": {"france"}}, camps=ALLIED)
    assert [r.force_id for r in out.arriving] == ["a", "p"]
    assert [r.force_id for r in out.waiting] == ["f", "q"]


def test_ru_10_three_hostile_camps_block_one_another() -> None:
    schedule = [Reinforcement(2, "russia", "r", "C3")]
    assert reinforcement_arrivals(schedule, 2, {"C3": {"austria"}}, camps=HOSTILE).waiting == tuple(schedule)


# --- battle reports (BR, RU-20) -------------------------------------------------------------------


SQ = sq("D4")


def force(fid: str, side: str, *units: Unit, leader: str | None = None, order: Order = Order.EXPLORE) -> Force:
    return Force(fid, fid, side, SQ, Leader(leader or f"{fid} leader", 1),
                 units or (Unit(f"{fid}-u", f"{fid} line", 4, UnitType.INFANTRY),), order=order)


FR = force("FR", "france", Unit("fr-u", "French line", 4), Unit("fr-c", "French hussars", 3, UnitType.CAVALRY),
           leader="Masséna")
AU = force("AU", "austria", Unit("au-u", "Austrian line", 4), leader="Beaulieu")
PI = force("PI", "piedmont", Unit("pi-u", "Piedmontese line", 4), leader="Colli")
RU = force("RU", "russia", Unit("ru-u", "Russian line", 4), leader="Suvorov")


def report(*sides: tuple[str, str, int | None], system: str = "cc", **extra: Any) -> Any:
    """A report of ``sides`` as (side, outcome, banners); banners None for a battle without them."""
    data: dict[str, Any] = {"battle": "b1", "system": system,
                            "sides": [{"side": s, "outcome": o, **({} if b is None else {"banners": b})}
                                      for s, o, b in sides]}
    if system in ("cc", "epic"):
        data["banners_required"] = 6
    for key, value in extra.items():
        if key.startswith("side_"):
            side_name, field = key[5:].split("__")
            next(s for s in data["sides"] if s["side"] == side_name)[field] = value
        else:
            data[key] = value
    return parse_report(data)


def refused(rep: Any, forces: tuple[Force, ...], camps: Camps = NO_CAMPS) -> str:
    with pytest.raises(InvalidInput) as err:
        validate_report(rep, forces, camps=camps)
    return str(err.value)


def test_ru_20_a_two_camp_battle_with_allies_has_one_winner_camp() -> None:
    rep = report(("france", "lost", 3), ("austria", "won", 4), ("piedmont", "won", 2))
    v = validate_report(rep, (FR, AU, PI), camps=ALLIED)
    plan = plan_aftermath(v)
    assert plan.outcomes == (("france", Outcome.LOST), ("austria", Outcome.WON), ("piedmont", Outcome.WON))
    assert plan.camp_outcomes == (("france", Outcome.LOST), (COALITION, Outcome.WON))
    assert plan.must_retreat == ("FR",)
    assert [r.force_id for r in plan.reactions] == ["FR"]
    assert v.enemies_of("austria") == ("france",) and v.enemies_of("france") == ("austria", "piedmont")
    # Without the alliance the same report is three sides with two winners: refused.
    assert refused(rep, (FR, AU, PI)) == (
        "Battle 'b1': france lost, austria won, piedmont won: one camp wins and every other camp loses, or all draw "
        "(RU-20).")


def test_ru_20_allied_sides_report_their_camps_one_outcome() -> None:
    rep = report(("france", "lost", 3), ("austria", "won", 4), ("piedmont", "lost", 2))
    assert refused(rep, (FR, AU, PI), ALLIED) == (
        "Battle 'b1': 'austria' won but its ally 'piedmont' lost: allies share their camp's outcome (RU-20).")


@pytest.mark.parametrize(
    ("outcomes", "valid"),
    [
        (("won", "lost", "lost"), True),
        (("lost", "lost", "won"), True),
        (("draw", "draw", "draw"), True),
        (("won", "won", "lost"), False),
        (("won", "draw", "lost"), False),
        (("lost", "lost", "lost"), False),
        (("draw", "draw", "lost"), False),
        (("won", "draw", "draw"), False),
    ],
)
def test_ru_20_three_camps_at_most_one_winner_every_other_camp_lost_or_all_drew(outcomes: Any, valid: bool) -> None:
    rep = report(*((s, o, None) for s, o in zip(("france", "austria", "russia"), outcomes, strict=True)),
                 system="miniatures")
    for camps in (HOSTILE, NO_CAMPS):
        if valid:
            plan = plan_aftermath(validate_report(rep, (FR, AU, RU), camps=camps))
            assert [o for _, o in plan.camp_outcomes] == [Outcome(o) for o in outcomes]
        else:
            assert "one camp wins and every other camp loses, or all draw (RU-20)" in refused(rep, (FR, AU, RU), camps)


def test_ru_20_every_beaten_camp_retreats_and_on_a_draw_every_camp_leaves_mc_7_3() -> None:
    won = plan_aftermath(validate_report(report(("france", "lost", None), ("austria", "won", None),
                                                ("russia", "lost", None), system="murat"), (FR, AU, RU), camps=HOSTILE))
    assert won.must_retreat == ("FR", "RU") and [r.force_id for r in won.reactions] == ["FR", "RU"]
    drew = plan_aftermath(validate_report(report(("france", "draw", None), ("austria", "draw", None),
                                                 ("russia", "draw", None), system="murat"), (FR, AU, RU), camps=HOSTILE))
    assert drew.must_retreat == ("FR", "AU", "RU") and drew.reactions == ()


def test_ru_19_an_allys_stronghold_keeps_the_whole_camp_in_place_on_a_draw_mc_7_3() -> None:
    rep = report(("france", "draw", None), ("austria", "draw", None), ("piedmont", "draw", None), system="murat")
    v = validate_report(rep, (FR, AU, PI), camps=ALLIED)
    assert plan_aftermath(v, holds_stronghold={"piedmont"}).must_retreat == ("FR",)
    assert plan_aftermath(v, holds_stronghold={"france"}).must_retreat == ("AU", "PI")
    alone = validate_report(report(("france", "draw", None), ("austria", "draw", None), system="murat"), (FR, AU))
    assert plan_aftermath(alone, holds_stronghold={"piedmont"}).must_retreat == ("FR", "AU")


def test_ru_19_a_battle_of_allies_only_is_refused() -> None:
    rep = report(("austria", "won", None), ("piedmont", "lost", None), system="murat")
    assert refused(rep, (AU, PI), ALLIED) == (
        "Battle 'b1': its sides (austria, piedmont) are all of one camp, and allies never fight one another (RU-19).")
    validate_report(rep, (AU, PI))  # without the alliance they are enemies


def test_ru_19_allies_never_fight_a_melee_nor_capture_one_anothers_leaders() -> None:
    melee = report(("france", "lost", 3), ("austria", "won", 6), ("piedmont", "won", 0),
                   melee_eliminations=[{"unit": "pi-u", "by": "au-u"}],
                   side_piedmont__units=[{"unit": "pi-u", "killed": 4}])
    assert refused(melee, (FR, AU, PI), ALLIED) == (
        "Battle 'b1': 'au-u' and 'pi-u' fight on the same side: a melee is against the enemy.")
    capture = report(("france", "lost", 3), ("austria", "won", 6), ("piedmont", "won", 0),
                     side_austria__leaders_captured=["Colli"])
    assert "who is not an enemy leader here; they are Masséna" in refused(capture, (FR, AU, PI), ALLIED)
    validate_report(report(("france", "lost", 3), ("austria", "won", 6), ("piedmont", "won", 0),
                           side_austria__leaders_captured=["Masséna"]), (FR, AU, PI), camps=ALLIED)


def test_ru_20_a_three_side_battle_without_alliances_was_refused_and_now_reports() -> None:
    rep = report(("france", "won", 6), ("austria", "lost", 2), ("russia", "lost", 5))
    v = validate_report(rep, (FR, AU, RU))
    assert plan_aftermath(v).camp_outcomes == (("france", Outcome.WON), ("austria", Outcome.LOST), ("russia", Outcome.LOST))


def test_br_a_two_side_report_keeps_its_checks() -> None:
    assert refused(report(("france", "won", 6)), (FR, AU)) == (
        "Battle 'b1': a report gives exactly two sides, got 1 (france).")
    assert refused(report(("france", "won", 6), ("austria", "lost", 2), ("russia", "lost", 1)), (FR, AU)) == (
        "Battle 'b1': a report gives exactly two sides, got 3 (france, austria, russia).")
    assert refused(report(("france", "won", 6), ("austria", "lost", 2)), (FR, AU, RU)) == (
        "Battle 'b1': side 'russia' fought in this battle but the report leaves it out.")
    assert refused(report(("france", "won", 6), ("austria", "lost", 2), ("france", "lost", 1)), (FR, AU, RU)) == (
        "Battle 'b1': side 'france' is listed twice.")


def test_ru_20_banners_count_per_camp() -> None:
    over = report(("france", "lost", 3), ("austria", "won", 4), ("piedmont", "won", 3))
    assert refused(over, (FR, AU, PI), ALLIED) == (
        "Battle 'b1': the camp austria+piedmont won 7 Victory Banners together but 6 win the battle: a camp stops at "
        "6 (RU-20).")
    reached = report(("france", "won", 2), ("austria", "lost", 4), ("piedmont", "lost", 2))
    assert refused(reached, (FR, AU, PI), ALLIED) == (
        "Battle 'b1': austria+piedmont reached the 6 Victory Banners required but is reported as lost: a side that "
        "reaches them wins.")
    three = report(("france", "won", 6), ("austria", "lost", 6), ("russia", "lost", 6))
    assert refused(three, (FR, AU, RU), HOSTILE) == (
        "Battle 'b1': france, austria, russia all reached the 6 Victory Banners required: only the winner can (RU-20).")
    two = report(("france", "won", 6), ("austria", "lost", 6), ("russia", "lost", 1))
    assert refused(two, (FR, AU, RU), HOSTILE) == (
        "Battle 'b1': both sides reached the 6 Victory Banners required: only the winner can.")


# --- Glory (CC-4, RU-20) --------------------------------------------------------------------------


def test_cc_4_ru_20_the_winner_scores_against_the_best_of_the_others_each_other_camp_as_a_loser() -> None:
    rep = report(("france", "won", 6), ("austria", "lost", 3), ("russia", "lost", 1))
    plan = plan_aftermath(validate_report(rep, (FR, AU, RU), camps=HOSTILE))
    assert [(g.side, g.outcome, g.banners, g.enemy_banners) for g in plan.glory] == [
        ("france", Outcome.WON, 6, 3), ("austria", Outcome.LOST, 3, 6), ("russia", Outcome.LOST, 1, 6)]
    # France 1 + (6 - 3) // 2 = 2 (against the best of the others, not 1 + (6 - 1) // 2 = 3); Austria won half
    # the banners required (1), Russia less (0).
    assert {a.side: a.total for a in plan.glory_awards()} == {"france": 2, "austria": 1, "russia": 0}


def test_cc_4_ru_20_ru_23_an_allied_winner_scores_once_its_camps_banners_added_up_against_the_others() -> None:
    rep = report(("france", "lost", 4), ("austria", "won", 5), ("piedmont", "won", 1))
    plan = plan_aftermath(validate_report(rep, (FR, AU, PI), camps=ALLIED))
    assert [(g.side, g.banners, g.enemy_banners) for g in plan.glory] == [("france", 4, 6), ("austria", 6, 4)]
    # RU-23: the camp's 1 + (6 - 4) // 2 = 2 once, to its strongest side; France lost with 4 of 6 (at least half).
    assert {a.side: a.total for a in plan.glory_awards()} == {"france": 1, "austria": 2}


def test_cc_4_ru_15_all_camps_drawing_score_as_losers() -> None:
    rep = report(("france", "draw", 3), ("austria", "draw", 2), ("russia", "draw", 4))
    plan = plan_aftermath(validate_report(rep, (FR, AU, RU), camps=HOSTILE))
    assert {a.side: a.total for a in plan.glory_awards()} == {"france": 1, "austria": 0, "russia": 1}


def test_cc_1_a_leader_captured_by_fate_is_credited_to_the_winning_enemy_camp() -> None:
    rep = report(("france", "lost", 2), ("austria", "won", 6), ("russia", "lost", 1),
                 side_france__leader_casualties=[{"leader": "Masséna", "fell": "melee"}])
    plan = plan_aftermath(validate_report(rep, (FR, AU, RU), camps=HOSTILE))
    captured = roll_leader_fate("Masséna", Circumstance.MELEE, ScriptedDice([3, 1]), "k")
    assert plan.captor_of("france") == "austria"
    awards = {a.side: a.total for a in plan.glory_awards(fates=[captured])}
    assert awards == {"france": 0, "austria": 1 + 2 + 1, "russia": 0}  # 1 + (6 - 2) // 2, + Masséna
    allied = plan_aftermath(validate_report(
        report(("france", "won", 6), ("austria", "lost", 2), ("piedmont", "lost", 1),
               side_austria__leader_casualties=[{"leader": "Beaulieu", "fell": "other"}]), (FR, AU, PI), camps=ALLIED))
    assert allied.captor_of("austria") == "france" and allied.captor_of("france") == "austria"


GLORY = GloryLedger("france", (GloryEntry(1, GloryKind.AWARD, "earlier battles", "CC-4", "b0"),))


def test_ru_17_ru_19_an_allied_spaniard_is_not_the_enemy_the_anti_guerrilla_faces() -> None:
    nations = {"france": "French", "spain": "Spanish", "britain": "British"}
    allied = Camps.from_alliances([["france", "spain"]], nations)
    battle = SpendBattle("b1", 2, BattleState.PENDING, nations, camps=allied)
    assert battle.enemies_of("france") == {"britain"}
    with pytest.raises(RuleViolation, match="no enemy of france in battle b1 is Spanish"):
        spend_anti_guerrilla(GLORY, theatre=Theatre.SPAIN, battle=battle, turn=2, phase=Phase.BATTLE)
    hostile = dataclasses.replace(battle, camps=NO_CAMPS)
    assert hostile.enemies_of("france") == {"spain", "britain"}
    assert spend_anti_guerrilla(GLORY, theatre=Theatre.SPAIN, battle=hostile, turn=2, phase=Phase.BATTLE).ledger.balance == 0


# --- FC-1 overwhelm (RU-20) -----------------------------------------------------------------------


def sp(fid: str, side: str, n: int) -> Force:
    return force(fid, side, Unit(f"{fid}-u", fid, n))


def test_fc_1_allied_sides_add_up_as_one_camp() -> None:
    forces = [sp("F", "france", 3), sp("A", "austria", 5), sp("P", "piedmont", 4)]
    allied = overwhelm_check(forces, camps=ALLIED)
    assert allied.totals == ((COALITION, 9), ("france", 3))
    assert allied.overwhelmed and allied.destroyed == ("F",) and allied.overwhelmed_camps == ("france",)
    assert (allied.stronger, allied.weaker) == (COALITION, "france")
    assert allied.text == (
        "austria+piedmont has 9 SP against france's 3, at least 3x: france's Forces are destroyed without a battle (FC-1).")


def test_fc_1_ru_20_each_weaker_camp_is_checked_against_the_strongest() -> None:
    forces = [sp("F", "france", 12), sp("A", "austria", 5), sp("R", "russia", 4)]
    result = overwhelm_check(forces, camps=HOSTILE)
    assert result.totals == (("france", 12), ("austria", 5), ("russia", 4))
    assert result.overwhelmed and result.overwhelmed_camps == ("russia",) and result.destroyed == ("R",)
    assert (result.stronger, result.weaker) == ("france", "russia")
    assert result.text == (
        "france has 12 SP against austria's 5, less than 3x: the battle is fought. "
        "france has 12 SP against russia's 4, at least 3x: russia's Forces are destroyed without a battle (FC-1).")
    everyone = overwhelm_check([sp("F", "france", 15), sp("A", "austria", 5), sp("R", "russia", 1)], camps=HOSTILE)
    assert everyone.overwhelmed_camps == ("austria", "russia") and everyone.destroyed == ("A", "R")


def test_fc_1_ru_20_a_camp_as_strong_as_the_strongest_is_never_overwhelmed() -> None:
    tied = overwhelm_check([sp("F", "france", 6), sp("A", "austria", 6), sp("R", "russia", 2)], camps=HOSTILE)
    assert tied.overwhelmed_camps == ("russia",) and tied.stronger == "austria"
    equal = overwhelm_check([sp("F", "france", 4), sp("A", "austria", 4), sp("R", "russia", 4)], camps=HOSTILE)
    assert not equal.overwhelmed and equal.stronger is None and equal.weaker is None and equal.destroyed == ()


def test_fc_1_forces_of_one_camp_have_nothing_to_compare() -> None:
    with pytest.raises(InvalidInput) as err:
        overwhelm_check([sp("A", "austria", 5), sp("P", "piedmont", 1)], camps=ALLIED)
    assert str(err.value) == (
        "The overwhelm check (FC-1) compares at least two camps (RU-20); the Forces given belong to: austria, piedmont.")
    assert overwhelm_check([sp("A", "austria", 5), sp("P", "piedmont", 1)]).overwhelmed  # enemies without it
