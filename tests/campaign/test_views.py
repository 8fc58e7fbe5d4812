"""What each reader may see (bot/campaign/views.py), as pure functions of a campaign's state: the GM
sees everything; a side sees its own Forces in full and enemies within sight by name and square
only; a member on no side sees public news only."""

from __future__ import annotations

import datetime as dt
from dataclasses import replace

from hypothesis import given
from hypothesis import strategies as st

from bot.campaign import views
from bot.campaign.glory import ledger
from bot.campaign.settings import Settings, UnmannedSides
from bot.campaign.sight import GM, Reader, within_sight
from bot.campaign.state import (
    Aftermath,
    Battle,
    BattleStatus,
    CampaignState,
    CampaignStatus,
    Declaration,
    DeclarationKind,
    ForceState,
    ForceStatus,
    GloryEntry,
    LeaderState,
    MovePayload,
    OrderPayload,
    SideState,
    UnitState,
)
from bot.engine.cc_model import GloryKind
from bot.engine.grid import CampaignMap
from bot.engine.model import Climate, LeaderStatus, Order, Reaction, Square, UnitType
from bot.engine.phases import Phase
from bot.engine.rolls import Roll

FRENCH, AUSTRIAN, RUSSIAN, OUTSIDER = Reader(side="fr"), Reader(side="au"), Reader(side="ru"), Reader()


ROLL = Roll("MC-5.1", "Movement roll", "t2/p2/force:lannes/movement", (2,), (), 2, "ok", "1 square", value=1)
"""A declaration's roll, where what it rolled does not matter."""


def _state(phase: Phase = Phase.ORDERS) -> CampaignState:
    forces = [
        ForceState("soult", "fr", "IV Corps", "C4", Order.DEFEND, units=(
            UnitState("s1", "Legere", 6, 8), UnitState("s2", "Hussars", 3, 3, UnitType.CAVALRY))),
        ForceState("lannes", "fr", "V Corps", "B2", units=(UnitState("l1", "Line", 5, 5),)),
        ForceState("ferdinand", "au", "Ferdinand", "E4", Order.FORCED_MARCH, Reaction.CONFUSED,
                   units=(UnitState("f1", "Grenzer", 4, 4),)),
        ForceState("mack", "au", "Army of Mack", "J8", units=(UnitState("m1", "Jaegers", 7, 7),)),
        ForceState("kutuzov", "ru", "Kutuzov", "K9", units=(UnitState("k1", "Musketeers", 6, 6),)),
        ForceState("kienmayer", "au", "Kienmayer", "A1", status=ForceStatus.PENDING, arrives_turn=3),
    ]
    leaders = [
        LeaderState("soult-l", "Soult", 3, force="soult"),
        LeaderState("lannes-l", "Lannes", 2, LeaderStatus.LIGHT_WOUND, force="lannes"),
        LeaderState("mack-l", "Mack", 1, force="mack"),
        LeaderState("old", "Nobody", 1),  # commands no Force
    ]
    return CampaignState(
        id=7, name="Ulm", turn=2, phase=phase, status=CampaignStatus.ACTIVE, settings=Settings(),
        climate=Climate.TEMPERATE, theatre="", start_date=dt.date(1805, 10, 7), map=CampaignMap(12, 10), sight=2,
        gm_id=1, gm_role_id=None, weather=None, holdings={},
        sides={"fr": SideState("fr", "France", "#1f4e9c"), "au": SideState("au", "Austria", "#ffffff"),
               "ru": SideState("ru", "Russia", "#00aa00")},
        forces={f.key: f for f in forces}, leaders={ld.key: ld for ld in leaders},
        battles={1: Battle(1, 1, "D4", ("soult", "ferdinand"), ("fr", "au"), BattleStatus.DONE),
                 2: Battle(2, 2, "J9", ("mack", "kutuzov"), ("au", "ru"))},
        glory=(GloryEntry("fr", 1, 2, "won battle 1", battle=1), GloryEntry("au", 1, 1, "fought well", battle=1),
               GloryEntry("fr", 2, -1, "rally", kind="rally", battle=2)),
        players={2001: "fr", 3001: "au"},
    )


def test_the_status_shows_own_forces_in_full_enemies_in_sight_by_name_only_and_nothing_else() -> None:
    state = _state()
    french = views.status(state, FRENCH, version=4)
    shown = {f.key: f for f in french.forces}
    assert set(shown) == {"soult", "lannes", "ferdinand"}  # Mack and Kutuzov are out of sight
    assert shown["soult"].own and shown["soult"].sp == 9 and shown["soult"].order == "defend"
    assert shown["soult"].leader == "Soult" and shown["soult"].units[1].type == "cavalry"
    assert shown["ferdinand"] == views.ForceView("ferdinand", "Ferdinand", "au", "E4", False)
    assert (french.reader_side, french.gm, french.version, french.status) == ("fr", False, 4, "active")
    assert [w.who for w in french.waiting] == ["France", "Austria"]  # nobody plays Russia: not awaited (MC-3)
    waiting_for_all = replace(state, settings=replace(state.settings, unmanned_sides=UnmannedSides.WAIT))
    assert [w.who for w in views.status(waiting_for_all, FRENCH).waiting] == ["France", "Austria", "Russia"]

    everything = views.status(state, GM)
    assert {f.key for f in everything.forces} == {"soult", "lannes", "ferdinand", "mack", "kutuzov"}
    assert all(f.own for f in everything.forces)
    assert views.status(state, OUTSIDER).forces == ()


def test_a_retreat_due_names_its_force_only_to_readers_who_see_it() -> None:
    state = _state(Phase.AFTERMATH)
    state = state.with_battle(replace(state.battles[2], status=BattleStatus.REPORTED,
                                      aftermath=Aftermath(rolled={"au": True, "ru": True}, retreats={"mack": None})))
    assert [w.what for w in views.waiting(state, GM)] == ["choose a retreat square for Army of Mack"]
    assert [w.what for w in views.waiting(state, FRENCH)] == ["choose a retreat square for a Force"]
    assert [w.what for w in views.waiting(state, AUSTRIAN)] == ["choose a retreat square for Army of Mack"]


def test_a_hidden_enemy_force_is_answered_as_one_that_does_not_exist() -> None:
    state = _state()
    assert views.force_info(state, FRENCH, "Army of Mack") is None
    assert views.force_info(state, FRENCH, "nobody") is None
    assert views.force_info(state, FRENCH, "ferdinand") == views.ForceView("ferdinand", "Ferdinand", "au", "E4", False)
    assert views.force_info(state, FRENCH, " iv corps ").own
    assert views.force_info(state, GM, "mack").sp == 7
    assert views.force_info(state, OUTSIDER, "soult") is None


def test_a_side_reads_the_dice_of_the_battles_it_fought_and_no_other() -> None:
    state = _state()
    assert views.log_visibilities(state, GM) is None
    assert views.log_visibilities(state, FRENCH) == {"public", "side:fr", "battle:1"}
    assert views.log_visibilities(state, AUSTRIAN) == {"public", "side:au", "battle:1", "battle:2"}
    assert views.log_visibilities(state, OUTSIDER) == {"public"}


def test_what_each_force_still_has_to_do_follows_its_declarations() -> None:
    state = _state(Phase.MOVEMENT)
    state = state.evolve(declarations=(
        Declaration(2, Phase.MOVEMENT, "lannes", "fr", DeclarationKind.MOVE, MovePayload(("C2", "D2"), 1, ROLL)),
        Declaration(2, Phase.ORDERS, "soult", "fr", DeclarationKind.ORDER, OrderPayload(Order.DEFEND, ROLL)),
    ))
    todo = {f.key: f.todo for f in views.side_forces(state, "fr")}
    assert todo == {"soult": "holds the Defend order: does not move", "lannes": "moves 1 square and stops at C2, short of D2"}
    assert [f.key for f in views.side_forces(state, "au")] == ["ferdinand", "mack"]  # Kienmayer is not on the map


def test_a_reader_knows_only_their_own_sides_leaders() -> None:
    state = _state()
    assert views.leader_roster(state, FRENCH) == ("Lannes (V Corps, CV 2): light wound", "Soult (IV Corps, CV 3): fit")
    assert views.leader_roster(state, GM) == ("Lannes (V Corps, CV 2): light wound", "Mack (Army of Mack, CV 1): fit",
                                              "Soult (IV Corps, CV 3): fit")  # a leader in command of no Force: none
    assert views.leader_roster(state, OUTSIDER) == ()


def test_glory_balances_add_each_sides_entries() -> None:
    state = _state()
    assert [(g.side, g.balance) for g in views.glory_balances(state)] == [("fr", 1), ("au", 1), ("ru", 0)]
    assert [e.amount for e in ledger(state, "fr").spent_on(GloryKind.RALLY)] == [-1]


def test_trophy_attempts_are_those_of_the_sides_own_units_not_yet_rolled() -> None:
    state = _state(Phase.AFTERMATH)
    state = state.with_battle(replace(state.battles[2], status=BattleStatus.REPORTED,
                                      aftermath=Aftermath(trophies={("m1", "k1"): None, ("k1", "m1"): True})))
    assert views.trophy_attempts(state, "au") == (views.TrophyAttempt(2, "m1", "Jaegers", "k1", "Musketeers"),)
    assert views.trophy_attempts(state, "ru") == ()  # already rolled
    assert views.trophy_attempts(state, "fr") == ()
    assert views.trophy_attempts(state.evolve(phase=Phase.BATTLE), "au") == ()


def test_the_map_shows_enemies_in_sight_without_detail_and_where_others_were_last_seen() -> None:
    state = _state(Phase.BATTLE)
    state = state.with_side("fr", last_seen={"mack": "F5", "kienmayer": "A1"})
    state = state.evolve(declarations=(
        Declaration(2, Phase.MOVEMENT, "lannes", "fr", DeclarationKind.MOVE,
                    MovePayload(("B2", "C2"), 1, ROLL, "A2")),
        Declaration(2, Phase.MOVEMENT, "mack", "au", DeclarationKind.MOVE,
                    MovePayload(("J8",), 1, ROLL, "J7")),
    ))
    french = views.map_view(state, FRENCH)
    markers = {m.force: m for m in french.markers}
    assert set(markers) == {"soult", "lannes", "ferdinand", "mack"}
    assert markers["ferdinand"].sp is None and markers["ferdinand"].order is None
    assert markers["mack"].faded and markers["mack"].square == "F5"  # Kienmayer is not on the map: no marker
    assert french.moves == (views.MoveLine("fr", "A2", ("B2",)),)
    assert french.battles == ("J9",)
    assert {m.force for m in views.map_view(state, GM).markers} == {"soult", "lannes", "ferdinand", "mack", "kutuzov"}
    assert len(views.map_view(state, GM).moves) == 2
    public = views.map_view(state, OUTSIDER)
    assert public.markers == () and public.moves == () and public.battles == ("J9",)


def test_battles_of_a_turn_are_public_news() -> None:
    state = _state()
    assert views.battle_lines(state) == (views.BattleLine(2, 2, "J9", ("Austria", "Russia"),
                                                          ("Army of Mack", "Kutuzov"), "pending"),)
    assert [b.number for b in views.battle_lines(state, 1)] == [1]
    assert views.battle_sides(state, state.battles[2]) == {"au": ["mack"], "ru": ["kutuzov"]}


@given(st.integers(0, 5), st.sampled_from([4, 8]), st.lists(st.tuples(st.integers(0, 29), st.integers(0, 19)), max_size=12),
       st.lists(st.tuples(st.integers(0, 29), st.integers(0, 19)), min_size=1, max_size=12))
def test_what_is_within_sight_is_what_is_within_sight_of_some_own_square(sight: int, adjacency: int, own: list,
                                                                          others: list) -> None:
    state = _state().evolve(sight=sight, map=CampaignMap(30, 20, adjacency=adjacency))
    own_squares = [Square(c, r) for c, r in own]
    in_sight = within_sight(state, own_squares)
    for c, r in others:
        sq = Square(c, r)
        assert in_sight(sq) == any(state.map.distance(sq, o) <= sight for o in own_squares)
