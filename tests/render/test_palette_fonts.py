"""Colours and labels (bot/render/palette.py, fonts.py): side colours that colour-blind readers can
tell apart, text the bundled font can draw, and Force names short enough for a counter."""

from __future__ import annotations

import itertools

import pytest

from bot.render import OKABE_ITO, SideStyle, side_colours
from bot.render.fonts import drawable, fit, short_forms, width
from bot.render.palette import MIN_DELTA_E, SIDE_DEFAULTS, cvd_distance, hex_to_rgb, text_on


def test_scenario_colours_that_differ_for_every_reader_are_kept():
    colours = side_colours([SideStyle("fr", "France", "#1f4e9c"), SideStyle("au", "Austria", "#d9a400")])
    assert colours == {"fr": (31, 78, 156), "au": (217, 164, 0)}


def test_red_and_green_sides_are_told_apart_by_replacing_the_later_colour():
    red, green = "#cc3311", "#44aa22"
    assert cvd_distance(hex_to_rgb(red), hex_to_rgb(green)) < MIN_DELTA_E  # alike for a deuteranope
    colours = side_colours([SideStyle("a", "A", red), SideStyle("b", "B", green)])
    assert colours["a"] == hex_to_rgb(red)
    assert colours["b"] != hex_to_rgb(green) and colours["b"] in OKABE_ITO.values()
    assert cvd_distance(colours["a"], colours["b"]) >= MIN_DELTA_E


def test_sides_without_colours_get_distinct_okabe_ito_colours():
    colours = side_colours([SideStyle(k, k) for k in "abcdefgh"])
    assert sorted(colours.values()) == sorted(SIDE_DEFAULTS)
    for a, b in itertools.combinations(colours.values(), 2):
        assert cvd_distance(a, b) >= MIN_DELTA_E
    for a, b in itertools.combinations(list(colours.values())[:3], 2):  # the usual two or three sides: far apart
        assert cvd_distance(a, b) >= 30


def test_text_on_a_colour_is_black_or_white_whichever_reads_better():
    assert text_on((31, 78, 156)) == (255, 255, 255)
    assert text_on((217, 164, 0)) == (0, 0, 0)


@pytest.mark.parametrize(
    ("name", "first"),
    [("IV Corps", "IV"), ("Army of Mack", "Mack"), ("Werneck's Corps", "Werneck"), ("Imperial Guard", "Imperial Guard")],
)
def test_a_force_name_is_shortened_to_what_names_it(name, first):
    assert short_forms(name)[0] == first


def test_a_long_name_is_cut_to_fit_the_counter():
    label = fit("Hohenzollern-Hechingen's Division", 16, 60)
    assert width(label, 16) <= 60
    assert label.startswith("Hohe")


def test_text_is_folded_to_what_the_bundled_font_draws():
    assert drawable("Württemberg — Lützen") == "Wurttemberg - Lutzen"
    assert drawable("Москва") == "??????"
