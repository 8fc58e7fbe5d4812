"""Layout (bot/render/layout.py): squares laid out like a spreadsheet, A1 at the top left, and a
square size chosen from the map so a small map and a large one both read on a phone."""

from __future__ import annotations

import pytest

from bot.engine.grid import CampaignMap
from bot.engine.model import Square
from bot.render import choose_cell, layout_for, square_box
from bot.render.layout import MAX_MAP_PIXELS, MIN_CELL, window_around

from .conftest import sq


def test_a1_is_the_top_left_square_and_columns_run_right_rows_down(tutorial):
    layout = layout_for(tutorial)
    a1 = square_box(layout, sq("A1"))
    assert a1[:2] == (layout.grid_x, layout.grid_y)
    boxes = [square_box(layout, s) for s in tutorial.cmap.squares()]
    assert min(b[0] for b in boxes) == a1[0] and min(b[1] for b in boxes) == a1[1]
    b1, a2 = square_box(layout, sq("B1")), square_box(layout, sq("A2"))
    assert (b1[0], b1[1]) == (a1[2], a1[1])
    assert (a2[0], a2[1]) == (a1[0], a1[3])
    l9 = square_box(layout, sq("L9"))
    assert (l9[2], l9[3]) == (layout.grid_x + 12 * layout.cell, layout.grid_y + 9 * layout.cell)


def test_squares_tile_the_map_without_gaps_or_overlaps(tutorial):
    layout = layout_for(tutorial)
    c = layout.cell
    for s in tutorial.cmap.squares():
        x0, y0, x1, y1 = square_box(layout, s)
        assert (x1 - x0, y1 - y0) == (c, c)
        assert (x0 - layout.grid_x, y0 - layout.grid_y) == (s.col * c, s.row * c)


def test_everything_fits_on_the_canvas_in_order_title_map_legend(tutorial):
    layout = layout_for(tutorial)
    _, gy0, _, gy1 = layout.grid_box
    assert layout.title_height < layout.panel_y <= gy0 and gy1 < layout.legend_y
    assert layout.legend_y + layout.legend_height < layout.height
    assert layout.panel_x > 0 and layout.panel_x + layout.panel_size[0] <= layout.width


@pytest.mark.parametrize(("cols", "rows", "low", "high"), [(12, 9, 64, 96), (60, 40, MIN_CELL, MIN_CELL), (5, 5, 100, 144)])
def test_the_square_size_follows_the_map_size(cols, rows, low, high):
    assert low <= choose_cell(cols, rows) <= high


def test_a_huge_map_shrinks_to_its_pixel_budget():
    cell = choose_cell(200, 200)
    assert (200 * cell) ** 2 <= MAX_MAP_PIXELS
    assert cell >= 6


@pytest.mark.parametrize(
    ("around", "window"),
    [("F5", (2, 1, 7, 7)), ("A1", (0, 0, 7, 7)), ("L9", (5, 2, 7, 7))],
)
def test_a_crop_window_is_centred_on_its_square_and_slides_in_at_the_edges(around, window):
    w = window_around(12, 9, Square.parse(around), 3)
    assert (w.col0, w.row0, w.cols, w.rows) == window
    assert w.contains(Square.parse(around))


def test_a_crop_wider_than_the_map_shows_the_whole_map():
    w = window_around(4, 3, Square(1, 1), 5)
    assert (w.col0, w.row0, w.cols, w.rows) == (0, 0, 4, 3)


def test_a_crop_has_bigger_squares_than_the_whole_map(make_snapshot):
    snap = make_snapshot(width=40, height=30)
    assert layout_for(snap, around=sq("T15"), radius=2).cell > 2 * layout_for(snap).cell


def test_row_numbers_of_a_tall_map_fit_their_margin(make_snapshot):
    snap = make_snapshot(cmap=CampaignMap(3, 150))
    layout = layout_for(snap)
    assert layout.margin >= layout.coord_px * 2
