"""Snapshots (bot/render/model.py): plain frozen data, refused with a readable message when it
names a square off the map or a side that is not in it."""

from __future__ import annotations

import dataclasses

import pytest

from bot.render import Arrow, Counter, InvalidSnapshot, RenderError, SideStyle

from .conftest import AUSTRIA, FRANCE, sq


def test_a_snapshot_is_frozen(make_snapshot):
    snap = make_snapshot()
    with pytest.raises(dataclasses.FrozenInstanceError):
        snap.turn = 2


def test_a_counter_off_the_map_is_refused_naming_the_map_bounds(make_snapshot):
    with pytest.raises(InvalidSnapshot) as info:
        make_snapshot(Counter("ney", "VI Corps", "fr", sq("K3"), 10))
    assert str(info.value) == "Counter 'VI Corps' is at K3, off the map: squares run from A1 to H6."


def test_a_counter_of_an_unknown_side_is_refused_listing_the_sides(make_snapshot):
    with pytest.raises(InvalidSnapshot, match=r"Counter 'Kutuzov' names side 'ru': sides are fr, au\."):
        make_snapshot(Counter("k", "Kutuzov", "ru", sq("B2"), 10))


def test_a_move_without_a_path_and_a_battle_off_the_map_are_refused(make_snapshot):
    with pytest.raises(InvalidSnapshot, match="The move from B2 has no path"):
        make_snapshot(moves=(Arrow(sq("B2"), (), "fr"),))
    with pytest.raises(InvalidSnapshot, match="A battle is at Z9, off the map"):
        make_snapshot(battles=(sq("Z9"),))


def test_two_counters_with_one_key_and_two_sides_with_one_key_are_refused(make_snapshot):
    with pytest.raises(InvalidSnapshot, match="Two counters have the key 'x'"):
        make_snapshot(Counter("x", "A", "fr", sq("A1"), 1), Counter("x", "B", "au", sq("B1"), 1))
    with pytest.raises(InvalidSnapshot, match="Side keys must differ"):
        make_snapshot(sides=(FRANCE, SideStyle("fr", "Also France")))


def test_a_side_colour_must_be_hex():
    with pytest.raises(InvalidSnapshot, match=r"Side 'fr' has colour 'blue': use #rrggbb"):
        SideStyle("fr", "France", "blue")


def test_render_errors_share_one_base_and_bad_input_is_a_value_error():
    assert issubclass(InvalidSnapshot, RenderError)
    assert issubclass(InvalidSnapshot, ValueError)


def test_sides_are_found_by_key(make_snapshot):
    snap = make_snapshot()
    assert snap.side("au") == AUSTRIA
    with pytest.raises(InvalidSnapshot, match="Unknown side 'ru'"):
        snap.side("ru")
