"""Rendering (bot/render): a snapshot in, a picture out. The checks look at pixels where the layout
says a square is: a Force shows in its side's colour in its own square and nowhere it is not."""

from __future__ import annotations

import io
import threading
from concurrent.futures import ThreadPoolExecutor

import pytest
from PIL import Image

from bot.render import (
    MAX_PNG_BYTES,
    Arrow,
    Counter,
    InvalidSnapshot,
    RenderError,
    cache_info,
    render_image,
    render_layout,
    render_png,
    square_box,
)
from bot.render.overlay import counter_region
from bot.render.palette import BATTLE, PAPER, mix

from .conftest import BLUE, GOLD, count, sq


def test_a_force_is_drawn_in_its_side_colour_inside_its_square(make_snapshot):
    image, layout = render_layout(make_snapshot(Counter("ney", "VI Corps", "fr", sq("C4"), 12)))
    x0, y0, x1, y1 = square_box(layout, sq("C4"))
    assert count(image, (x0, y0, x1, y1), BLUE) > 0.3 * (x1 - x0) * (y1 - y0)
    assert count(image, square_box(layout, sq("D4")), BLUE) == 0


def test_a_force_left_out_of_the_snapshot_leaves_no_side_colour_in_its_square(make_snapshot):
    seen = make_snapshot(Counter("ney", "VI Corps", "fr", sq("C4"), 12), Counter("mack", "Mack", "au", sq("F2"), 20))
    hidden = make_snapshot(Counter("ney", "VI Corps", "fr", sq("C4"), 12))
    image, layout = render_layout(hidden)
    assert count(image, square_box(layout, sq("F2")), GOLD) == 0
    image, layout = render_layout(seen)
    assert count(image, square_box(layout, sq("F2")), GOLD) > 0


def test_the_tutorial_forces_stand_in_their_scenario_squares(tutorial):
    image, layout = render_layout(tutorial)
    colours = {"fr": BLUE, "au": GOLD}
    for c in tutorial.counters:
        assert count(image, tuple(round(v) for v in counter_region(layout, c.square)), colours[c.side]) > 200, c.name


def test_a_last_seen_marker_is_a_pale_wash_of_its_side_colour_not_the_colour_itself(make_snapshot):
    snap = make_snapshot(Counter("mack", "Mack", "au", sq("F2"), None, faded=True))
    image, layout = render_layout(snap)
    box = square_box(layout, sq("F2"))
    assert count(image, box, GOLD) == 0
    assert count(image, box, mix(GOLD, PAPER, 0.62)) > 100


def test_forces_of_both_sides_in_one_square_are_all_visible_as_a_stack(make_snapshot):
    snap = make_snapshot(Counter("a", "IV Corps", "fr", sq("D3"), 28), Counter("b", "Mack", "au", sq("D3"), 22),
                         Counter("c", "V Corps", "fr", sq("D3"), 14))
    image, layout = render_layout(snap)
    box = square_box(layout, sq("D3"))
    assert count(image, box, BLUE) > 200
    assert count(image, box, GOLD) > 100


def test_a_stack_too_tall_for_its_square_still_draws_within_the_square(make_snapshot):
    many = [Counter(f"f{i}", f"Division {i}", "fr", sq("D3"), i + 1) for i in range(9)]
    image, layout = render_layout(make_snapshot(*many))
    x0, y0, x1, y1 = square_box(layout, sq("D3"))
    assert count(image, (x0, y0, x1, y1), BLUE) > 0
    for name in ("C3", "E3", "D2", "D4"):
        assert count(image, square_box(layout, sq(name)), BLUE) == 0, name


def test_a_move_is_drawn_through_the_squares_of_its_path(make_snapshot):
    snap = make_snapshot(Counter("ney", "VI Corps", "fr", sq("F4"), 12),
                         moves=(Arrow(sq("B2"), (sq("C3"), sq("D4"), sq("E4"), sq("F4")), "fr"),))
    image, layout = render_layout(snap)
    for name in ("C3", "D4", "E4"):
        assert count(image, square_box(layout, sq(name)), BLUE) > 0, name
    assert count(image, square_box(layout, sq("B5")), BLUE) == 0


def test_a_battle_is_marked_in_its_square_only(make_snapshot):
    image, layout = render_layout(make_snapshot(battles=(sq("E3"),)))
    assert count(image, square_box(layout, sq("E3")), BATTLE) > 50
    assert count(image, square_box(layout, sq("B3")), BATTLE) == 0


def test_a_crop_shows_the_square_around_with_its_real_coordinates(tutorial):
    image, layout = render_layout(tutorial, around=sq("J5"), radius=2)
    assert layout.shows(sq("J5"))
    assert (layout.window.col0, layout.window.row0) == (7, 2)  # H3 to L7: slid in from the map's right edge
    assert (layout.window.cols, layout.window.rows) == (5, 5)
    x0, y0, x1, y1 = square_box(layout, sq("J5"))
    assert 0 <= x0 < x1 <= image.width and 0 <= y0 < y1 <= image.height
    assert count(image, (x0, y0, x1, y1), GOLD) > 0
    with pytest.raises(InvalidSnapshot, match=r"Square C4 is not in this picture: it shows H3 to L7"):
        square_box(layout, sq("C4"))


def test_a_crop_accepts_a_square_name_and_is_smaller_than_the_whole_map(tutorial):
    whole = render_image(tutorial, cell=40)
    crop = render_image(tutorial, around="F5", radius=1, cell=40)
    assert crop.width * crop.height < whole.width * whole.height


def test_a_crop_draws_moves_that_leave_it_without_spilling_over_the_margins(make_snapshot):
    snap = make_snapshot(moves=(Arrow(sq("A1"), (sq("B2"), sq("C3"), sq("D4"), sq("E5"), sq("F6")), "fr"),),
                         width=10, height=10)
    image, layout = render_layout(snap, around=sq("D4"), radius=1)
    gx0, gy0, gx1, gy1 = layout.grid_box
    assert count(image, (gx0, gy0, gx1, gy1), BLUE) > 0
    assert count(image, (0, 0, image.width, gy0 - 3), BLUE) == 0
    assert count(image, (0, gy1 + 3, image.width, layout.legend_y), BLUE) == 0  # the legend shows France below


def test_render_png_returns_png_bytes_of_the_rendered_size(tutorial):
    png = render_png(tutorial)
    assert png.startswith(b"\x89PNG\r\n\x1a\n")
    image, _ = render_layout(tutorial)
    assert Image.open(io.BytesIO(png)).size == image.size


def test_a_60x40_map_with_200_forces_stays_under_2_mb(large):
    png = render_png(large)
    assert len(large.counters) == 200
    assert len(png) < MAX_PNG_BYTES


def test_a_png_over_the_byte_limit_is_redrawn_with_smaller_squares(tutorial):
    full = render_png(tutorial)
    small = render_png(tutorial, max_bytes=len(full) // 2)
    assert len(small) <= len(full) // 2
    assert Image.open(io.BytesIO(small)).width < Image.open(io.BytesIO(full)).width
    with pytest.raises(RenderError, match="does not fit in 100 bytes"):
        render_png(tutorial, max_bytes=100)


def test_the_view_names_the_reader_and_an_unknown_view_is_refused(tutorial):
    assert render_image(tutorial, view="fr").size == render_image(tutorial).size
    render_image(tutorial, view="gm")
    with pytest.raises(InvalidSnapshot, match=r"Unknown view 'ru': use a side key or 'gm' \(gm, fr, au\)"):
        render_image(tutorial, view="ru")


@pytest.mark.parametrize(
    ("options", "message"),
    [
        ({"around": "M1"}, "'M1'|M1 is off the map"),
        ({"around": "F5", "radius": -1}, "A radius of -1 squares is not allowed: use 0 to 50"),
        ({"cell": 2}, "A square of 2 pixels is not allowed: use 6 to 200"),
    ],
)
def test_bad_options_are_refused_with_what_is_allowed(tutorial, options, message):
    with pytest.raises(InvalidSnapshot, match=message):
        render_image(tutorial, **options)


def test_the_terrain_layer_is_drawn_once_per_map_and_size(tutorial):
    render_png(tutorial)
    render_png(tutorial, view="fr")
    info = cache_info()
    assert (info.misses, info.hits) == (1, 1)
    render_png(tutorial, around=sq("F5"), radius=2)
    assert cache_info().misses == 2


def test_renders_in_worker_threads_agree_with_a_render_on_the_main_thread(tutorial, large):
    expected = {id(s): render_png(s) for s in (tutorial, large)}
    from bot.render import clear_cache

    clear_cache()
    start = threading.Barrier(8)

    def work(i: int) -> tuple[int, bytes]:
        snap = tutorial if i % 2 else large
        start.wait()
        return id(snap), render_png(snap)

    with ThreadPoolExecutor(max_workers=8) as pool:
        results = list(pool.map(work, range(8)))
    assert all(png == expected[key] for key, png in results)
    assert cache_info().misses == 2  # each layer built once, though four threads asked at once
