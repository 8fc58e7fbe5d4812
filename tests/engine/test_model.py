"""Domain values (bot/engine/model.py): orders (MC-1), reactions (MC-2), terrain and territory
(MC-0), units in strength points (RU-1), quality ladder (RU-7). Bad input is refused with a
message a player can act on.
"""

from __future__ import annotations

import pytest

from bot.engine.errors import EngineError, InvalidInput
from bot.engine.model import (
    Cell,
    Feature,
    Leader,
    Order,
    Quality,
    Reaction,
    Square,
    Terrain,
    Territory,
    Unit,
    parse_enum,
    territory_for,
    worse_reaction,
)


def test_a_unit_with_negative_sp_is_refused_with_a_readable_message():
    with pytest.raises(InvalidInput) as info:
        Unit("u1", "1st Line", -2)
    assert str(info.value) == "Unit '1st Line' cannot have -2 SP: strength is 0 or more."


def test_a_unit_strength_must_be_a_whole_number_of_sp():
    with pytest.raises(InvalidInput, match=r"Unit '1st Line': strength must be a whole number of SP, got 2\.5"):
        Unit("u1", "1st Line", 2.5)  # type: ignore[arg-type]


def test_a_unit_may_be_reduced_to_zero_sp():
    assert Unit("u1", "1st Line", 6).with_sp(0).sp == 0


def test_a_force_counts_its_strength_in_sp_across_its_units(make_force, make_unit):
    force = make_force(units=(make_unit("a", sp=4), make_unit("b", sp=7)))
    assert force.sp == 11


def test_a_force_cannot_hold_negative_scouts(make_force):
    with pytest.raises(InvalidInput, match="cannot have -1 scouts"):
        make_force(scouts=-1)


@pytest.mark.parametrize("cv", [-4, 11])
def test_a_leader_command_value_out_of_range_is_refused(cv):
    with pytest.raises(InvalidInput, match=rf"Leader 'Mack' has a Command Value of {cv}: use -3 to 10\."):
        Leader("Mack", cv)


def test_an_unknown_terrain_is_refused_listing_the_terrains_of_mc_0():
    with pytest.raises(InvalidInput) as info:
        parse_enum(Terrain, "tundra", "terrain")
    assert str(info.value) == (
        "Unknown terrain 'tundra': use one of open, cultivated, forest, hill, mountain, swamp, desert, "
        "wasteland, jungle, sea, lake."
    )
    assert isinstance(info.value, EngineError) and isinstance(info.value, ValueError)


@pytest.mark.parametrize(
    ("kind", "text", "member"),
    [
        (Order, "Forced March", Order.FORCED_MARCH),
        (Order, "forced-march", Order.FORCED_MARCH),
        (Reaction, " UNSTEADY ", Reaction.UNSTEADY),
        (Terrain, "Mountain", Terrain.MOUNTAIN),
        (Feature, "caravan track", Feature.CARAVAN_TRACK),
        (Quality, Quality.ELITE, Quality.ELITE),
    ],
)
def test_enum_values_are_read_from_player_text_leniently(kind, text, member):
    assert parse_enum(kind, text, "value") is member


def test_an_unknown_order_is_refused_listing_the_orders_of_mc_1():
    with pytest.raises(InvalidInput, match=r"Unknown order 'charge': use one of forced_march, explore, defend\."):
        parse_enum(Order, "charge", "order")


def test_reactions_run_from_confused_to_routed_mc_2():
    assert [r.severity for r in (Reaction.CONFUSED, Reaction.UNSTEADY, Reaction.ROUTED)] == [1, 2, 3]
    assert Reaction.ROUTED.label == "Routed"
    assert Order.FORCED_MARCH.label == "Forced March"


@pytest.mark.parametrize(
    ("a", "b", "worse"),
    [
        (None, None, None),
        (None, Reaction.CONFUSED, Reaction.CONFUSED),
        (Reaction.UNSTEADY, None, Reaction.UNSTEADY),
        (Reaction.ROUTED, Reaction.CONFUSED, Reaction.ROUTED),
        (Reaction.CONFUSED, Reaction.UNSTEADY, Reaction.UNSTEADY),
    ],
)
def test_the_worse_of_two_reactions_is_kept_ru_3(a, b, worse):
    assert worse_reaction(a, b) is worse


@pytest.mark.parametrize(
    ("owner", "territory"),
    [(None, Territory.NEUTRAL), ("france", Territory.FRIENDLY), ("bavaria", Territory.FRIENDLY), ("austria", Territory.ENEMY)],
)
def test_mc_0_a_square_is_friendly_enemy_or_neutral_ground_seen_from_a_side(owner, territory):
    assert territory_for(Cell(territory=owner), "france", frozenset({"bavaria"})) is territory


def test_mc_0_only_sea_and_lake_are_water():
    assert {t for t in Terrain if t.is_water} == {Terrain.SEA, Terrain.LAKE}


def test_a_cell_reports_its_features():
    cell = Cell(Terrain.HILL, frozenset({Feature.ROAD}))
    assert cell.has(Feature.ROAD) and not cell.has(Feature.RIVER)


def test_a_square_off_the_map_edge_cannot_exist():
    with pytest.raises(InvalidInput, match=r"Square \(-1, 0\) is off the map\."):
        Square(-1, 0)
