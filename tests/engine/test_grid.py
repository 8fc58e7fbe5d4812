"""The campaign map (bot/engine/grid.py): squares named like spreadsheet cells (MC-0), adjacency
in 8 or 4 directions (RU-11), and paths that must step square by square.
"""

from __future__ import annotations

import re

import pytest

from bot.engine.errors import EngineError, InvalidInput
from bot.engine.grid import CampaignMap
from bot.engine.model import Cell, Square, Terrain


@pytest.mark.parametrize(
    ("text", "col", "row"),
    [("A1", 0, 0), ("D4", 3, 3), ("d4", 3, 3), (" J10 ", 9, 9), ("Z1", 25, 0), ("AA12", 26, 11), ("AZ3", 51, 2)],
)
def test_mc_0_squares_are_named_with_column_letters_then_a_row_number(text, col, row):
    sq = Square.parse(text)
    assert (sq.col, sq.row) == (col, row)
    assert sq.name == text.strip().upper()
    assert str(sq) == sq.name


@pytest.mark.parametrize("text", ["", "4D", "D", "12", "D0", "D-4", "D4E", "Ä4", "D 4 5"])
def test_a_bad_square_name_is_refused_with_an_example_of_a_good_one(text):
    with pytest.raises(InvalidInput) as info:
        Square.parse(text)
    message = str(info.value)
    assert message.startswith(f"{text!r} is not a square name")
    assert "D4" in message or "letters A to Z" in message


def test_a_square_off_the_map_is_refused_naming_the_map_bounds(make_map):
    cmap = make_map(10, 10)
    with pytest.raises(InvalidInput) as info:
        cmap.parse("K3")
    assert str(info.value) == "Square K3 is off the map: squares run from A1 to J10."
    with pytest.raises(InvalidInput, match="Square C11 is off the map"):
        cmap.cell(Square.parse("C11"))


@pytest.mark.parametrize(
    ("width", "height", "adjacency", "message"),
    [
        (0, 5, 8, "A map of 0x5 squares is not allowed: 1x1 to 702x999."),
        (5, 1000, 8, "A map of 5x1000 squares is not allowed"),
        (5, 5, 6, "Adjacency 6 is not allowed: 8 (default) or 4 (RU-11)."),
    ],
)
def test_an_impossible_map_is_refused(width, height, adjacency, message):
    with pytest.raises(InvalidInput) as info:
        CampaignMap(width, height, adjacency=adjacency)
    assert str(info.value).startswith(message)


def test_a_scenario_cell_outside_the_map_is_refused():
    with pytest.raises(InvalidInput, match=re.escape("Square F1 is outside the 5x5 map.")):
        CampaignMap(5, 5, {Square.parse("F1"): Cell()})


def test_squares_not_described_by_the_scenario_are_open_ground(make_map):
    cmap = make_map(5, 5, {"B2": Cell(Terrain.FOREST)})
    assert cmap.cell(Square.parse("B2")).terrain is Terrain.FOREST
    assert cmap.cell(Square.parse("C3")) == Cell()


def test_squares_are_listed_row_by_row():
    assert [s.name for s in CampaignMap(2, 2).squares()] == ["A1", "B1", "A2", "B2"]


def test_squares_are_adjacent_in_eight_directions_by_default_ru_11(make_map):
    cmap = make_map(5, 5)
    assert sorted(s.name for s in cmap.neighbours(Square.parse("C3"))) == [
        "B2", "B3", "B4", "C2", "C4", "D2", "D3", "D4",
    ]
    assert cmap.adjacent(Square.parse("C3"), Square.parse("D4"))
    assert cmap.distance(Square.parse("A1"), Square.parse("C2")) == 2


def test_with_the_four_direction_option_diagonals_are_not_adjacent_ru_11(make_map):
    cmap = make_map(5, 5, adjacency=4)
    assert sorted(s.name for s in cmap.neighbours(Square.parse("C3"))) == ["B3", "C2", "C4", "D3"]
    assert not cmap.adjacent(Square.parse("C3"), Square.parse("D4"))
    assert cmap.distance(Square.parse("A1"), Square.parse("C2")) == 3


def test_a_corner_square_has_three_neighbours_and_an_edge_square_five(make_map):
    cmap = make_map(5, 5)
    assert len(list(cmap.neighbours(Square.parse("A1")))) == 3
    assert len(list(cmap.neighbours(Square.parse("A3")))) == 5
    assert len(list(make_map(5, 5, adjacency=4).neighbours(Square.parse("A1")))) == 2


def test_a_path_is_read_from_text_with_or_without_its_starting_square(make_map):
    cmap = make_map()
    start = Square.parse("D4")
    expected = tuple(map(Square.parse, ("E5", "E6")))
    assert cmap.parse_path(start, "D4 E5 E6") == expected
    assert cmap.parse_path(start, "e5, e6") == expected
    assert cmap.parse_path(start, ["E5", "E6"]) == expected


def test_a_path_with_a_gap_is_refused_naming_the_gap(make_map):
    cmap = make_map()
    with pytest.raises(InvalidInput) as info:
        cmap.parse_path(Square.parse("D4"), "E5 G7")
    assert str(info.value) == (
        "The path has a gap between E5 and G7: each step must be to an adjacent square (8 directions, RU-11)."
    )


def test_a_diagonal_step_is_a_gap_with_four_direction_adjacency_ru_11(make_map):
    cmap = make_map(adjacency=4)
    with pytest.raises(EngineError, match=r"gap between D4 and E5: .*4 directions \(no diagonals\), RU-11"):
        cmap.parse_path(Square.parse("D4"), "E5")


def test_a_path_that_names_a_square_twice_in_a_row_is_refused(make_map):
    with pytest.raises(InvalidInput, match="The path names E5 twice in a row"):
        make_map().parse_path(Square.parse("D4"), "E5 E5")


def test_an_empty_path_is_refused(make_map):
    with pytest.raises(InvalidInput, match="The path is empty"):
        make_map().parse_path(Square.parse("D4"), "  ")
    with pytest.raises(InvalidInput, match="The path goes nowhere"):
        make_map().parse_path(Square.parse("D4"), "D4")


def test_a_path_leaving_the_map_is_refused(make_map):
    with pytest.raises(InvalidInput, match="Square K10 is off the map"):
        make_map().parse_path(Square.parse("J10"), "K10")


@pytest.mark.parametrize(("to", "direction"), [("C2", "N"), ("D2", "NE"), ("D3", "E"), ("B4", "SW"), ("B2", "NW")])
def test_the_compass_direction_of_a_step(make_map, to, direction):
    assert make_map().direction(Square.parse("C3"), Square.parse(to)) == direction


def test_squares_that_are_not_adjacent_have_no_direction(make_map):
    with pytest.raises(InvalidInput, match="C3 and E3 are not adjacent"):
        make_map().direction(Square.parse("C3"), Square.parse("E3"))
