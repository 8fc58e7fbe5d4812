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
    [("IV Corps", "IV"), ("Army of Mack", "Mack"), ("Werneck's Corps", "Werneck"), ("Imperial Guard", "Imperial Guard"),
     ("Armée d'Italie", "Italie"), ("Württemberg Korps", "Württemberg")],
)
def test_a_force_name_is_shortened_to_what_names_it(name, first):
    assert short_forms(name)[0] == first


def test_a_long_name_is_cut_to_fit_the_counter():
    label = fit("Hohenzollern-Hechingen's Division", 16, 60)
    assert width(label, 16) <= 60
    assert label.startswith("Hohe")


@pytest.mark.parametrize("name", ["Armée d'Italie", "Württemberg — Lützen", "Mondovì", "Łódź", "Ségur», «Ñuño",
                                  "Œuvres, Ærø, Şumnu, Dąbrowski"])
def test_names_in_latin_scripts_draw_as_written(name):
    assert drawable(name) == name
    assert width(name, 16) > width("", 16)


def test_an_accent_is_drawn_not_dropped():
    assert width("Mondovì", 16) == width("Mondovi", 16)  # the same advance...
    assert _ink("Mondovì") != _ink("Mondovi")  # ...but another picture: the grave is there


def test_what_the_bundled_font_lacks_is_folded_or_marked():
    assert drawable("Mondovi\u0300") == "Mondovì"  # composed, then drawn
    assert drawable("中国") == "??"
    assert drawable("a\u2029b\x07") == "a b?"  # line breaks and controls are never drawn


def test_the_font_is_the_bundled_dejavu_with_its_licence():
    from bot.render import fonts

    assert fonts.FONT_FILE.exists() and (fonts.FONT_FILE.parent / "LICENSE-DejaVu.txt").exists()
    assert "DejaVu" in fonts.font(16).getname()[0]
    assert fonts.has("é") and fonts.has("ł") and not fonts.has("中")


def _ink(text: str) -> bytes:
    from bot.render.fonts import font

    return bytes(font(24).getmask(text))
