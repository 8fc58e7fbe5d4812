"""Maps on a phone (issue 15): a crop around the reader's Forces legible at 480 pixels wide, place names
where they fit, and the fog of war's veil over the squares the reader does not see."""

from __future__ import annotations

import dataclasses

import pytest
from PIL import Image

from bot.engine.model import Square
from bot.render import Counter, places, render_image, render_layout, text_report
from bot.render.layout import PHONE_MIN_TEXT, PHONE_READ_WIDTH, PHONE_WIDTH
from bot.render.overlay import _region, stacks
from bot.render.veil import hidden

from .samples import (
    drawn_text_sizes,
    fogged,
    italy_phone_snapshot,
    italy_snapshot,
    tutorial_battle_snapshot,
    with_places,
)

sq = Square.parse


@pytest.fixture
def text_sizes():
    """Every text drawn during the test (:func:`drawn_text_sizes`)."""
    with drawn_text_sizes() as drawn:
        yield drawn


def smallest_at_phone_width(drawn: list[tuple[float, str]], width: int) -> tuple[float, str]:
    size, text = min(drawn)
    return size * PHONE_READ_WIDTH / width, text


@pytest.mark.parametrize("side", ["fr", "au", "pi"])
def test_the_crop_for_a_side_is_legible_at_480_pixels(side, text_sizes):
    snapshot = fogged(italy_snapshot(), side)
    image, _ = render_layout(snapshot, view=side, phone=True)
    assert image.width == PHONE_WIDTH
    assert text_sizes, "no text recorded"
    smallest, text = smallest_at_phone_width(text_sizes, image.width)
    assert smallest >= PHONE_MIN_TEXT, f"{text!r} is {smallest:.1f} px high at {PHONE_READ_WIDTH} px wide"


def test_stacks_reactions_and_unknown_strengths_stay_legible_on_a_phone(text_sizes):
    base = tutorial_battle_snapshot()
    crowd = tuple(Counter(f"x{i}", f"Brigade {i}", "au", sq("F5"), i, "defend", "confused") for i in range(6))
    snapshot = dataclasses.replace(base, counters=(*base.counters, *crowd),
                                   cmap=with_places(base, {"G4": ("Ulm", "fortress"), "F6": ("Danube", "river"),
                                                           "C2": ("Swabia", "region")}).cmap)
    image, _ = render_layout(snapshot, view="fr", around="F5", phone=True)
    smallest, text = smallest_at_phone_width(text_sizes, image.width)
    assert smallest >= PHONE_MIN_TEXT, f"{text!r} is {smallest:.1f} px high at {PHONE_READ_WIDTH} px wide"
    assert any("more" in t for _, t in text_sizes)  # the crowded stack says how many more


def test_the_phone_crop_holds_the_readers_forces():
    snapshot = italy_phone_snapshot()
    _, layout = render_layout(snapshot, view="fr", phone=True)
    own = [c.square for c in snapshot.counters if c.side == "fr"]
    shown = sum(layout.shows(s) for s in own)
    assert shown >= 6 and layout.window.cols == 5 and layout.window.rows == 7
    _, layout = render_layout(snapshot, view="fr", around="AE10", phone=True)
    assert layout.shows(sq("AE10")) and layout.width == PHONE_WIDTH


def test_with_nothing_to_centre_on_a_phone_gets_the_whole_map():
    _, layout = render_layout(italy_snapshot(), view="gm", phone=True)
    assert (layout.window.cols, layout.window.rows) == (36, 26) and layout.min_px == 0


def test_place_names_are_drawn_where_they_fit_and_never_over_counters():
    snapshot = italy_phone_snapshot()
    _, layout = render_layout(snapshot, view="fr", phone=True)
    rank = {"fr": -1, "au": 1, "pi": 2}
    counters = [_region(layout, snapshot, s, len(cs), frozenset()) for s, cs in stacks(snapshot, layout, rank).items()]
    labels = places.place_labels(snapshot, layout, counters)
    names = {lb.text for lb in labels}
    assert {"Dego", "Montenotte", "Savona", "Cadibona", "Vado", "Bormida"} <= names
    assert any(lb.kind == "region" for lb in labels) and any(lb.kind == "river" for lb in labels)
    for lb in labels:
        assert not any(places._overlaps(lb.box, c) for c in counters), lb
    for a in labels:
        assert not any(places._overlaps(a.box, b.box) for b in labels if b is not a)


def test_place_names_that_would_collide_are_left_out(make_snapshot):
    names = {"B2": ("Alessandria", "town"), "C2": ("Valenza", "town"), "B3": ("Tortona", "town"),
             "C3": ("Novi", "town")}
    snapshot = with_places(make_snapshot(width=5, height=5), names)
    _, layout = render_layout(snapshot, cell=40)
    labels = places.place_labels(snapshot, layout, [])
    assert 1 <= len(labels) < 4 or all(not places._overlaps(a.box, b.box) for a in labels for b in labels if a is not b)


def test_the_report_names_the_place_a_force_stands_in():
    snapshot = with_places(italy_snapshot(), {"K19": ("Carcare", "town")})
    assert "Carcare" in text_report(snapshot)


def test_squares_out_of_sight_are_veiled_and_the_seen_ones_are_not():
    snapshot = italy_phone_snapshot()
    clear = dataclasses.replace(snapshot, visible=None)
    _, layout = render_layout(snapshot, view="fr")
    veiled, plain = render_image(snapshot, view="fr"), render_image(clear, view="fr")
    out, seen = sq("AD3"), sq("K21")
    assert out in hidden(snapshot, layout) and seen not in hidden(snapshot, layout)

    def box(s: Square) -> tuple[int, int, int, int]:
        x0, y0, x1, y1 = layout.box(s)
        return x0 + 3, y0 + 3, x1 - 3, y1 - 3

    def mean(im: Image.Image, s: Square) -> float:
        return sum(im.crop(box(s)).convert("L").getdata()) / ((box(s)[2] - box(s)[0]) * (box(s)[3] - box(s)[1]))

    assert mean(veiled, out) < mean(plain, out) - 8  # darker: the veil
    assert veiled.crop(box(seen)).tobytes() == plain.crop(box(seen)).tobytes()
    assert any(e.kind == "fog" for e in layout.legend)
    assert not any(e.kind == "fog" for e in render_layout(clear, view="fr")[1].legend)


def test_the_public_and_gm_views_veil_nothing(tutorial):
    _, layout = render_layout(tutorial)
    assert hidden(tutorial, layout) == []


def test_the_phase_cards_fingerprint_follows_what_the_map_shows_not_its_title_band(tutorial):
    from bot.services.maps import content_hash

    same = dataclasses.replace(tutorial, turn=2, phase="Phase 2: Movement", weather="Rain", date="8 October 1805")
    assert content_hash(same) == content_hash(tutorial)
    assert content_hash(dataclasses.replace(tutorial, battles=(sq("F5"),))) != content_hash(tutorial)
    moved = tuple(dataclasses.replace(c, square=sq("A1")) if i == 0 else c for i, c in enumerate(tutorial.counters))
    assert content_hash(dataclasses.replace(tutorial, counters=moved)) != content_hash(tutorial)
