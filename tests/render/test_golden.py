"""Golden pictures: the bundled tutorial as players first see it, a battle brief cropped from
it on turn 3, the whole turn 3 map as an Italian reader sees it and as France sees it through the fog
of war, and Italy 1796 on a phone as France sees it (a crop around its Forces, place names, the
veil, the arrows and note naming the Forces the crop leaves out), Italy 1796's turn 1 as its gazette
draws it (the battle of Montenotte ringed in the winner's colour, a retreat), compared with committed PNGs within a tolerance (font rasterising may differ a
little between FreeType builds). After an intended change of look, regenerate them with

    ADC_UPDATE_GOLDEN=1 .venv/bin/python -m pytest tests/render/test_golden.py

and look at the new files before committing them.
"""

from __future__ import annotations

import os
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
from PIL import Image, ImageChops, ImageStat

from bot.render import MapSnapshot, render_image

from .conftest import render_words_translated
from .samples import (
    italy_gazette_snapshot,
    italy_phone_snapshot,
    tutorial_battle_snapshot,
    tutorial_battle_snapshot_it,
    tutorial_fog_snapshot,
    tutorial_snapshot,
)

GOLDEN = Path(__file__).parent / "golden"
TOLERANCE = 2.0
"""Largest mean absolute difference per channel (0-255) still taken as the same picture."""
MAX_GOLDEN_BYTES = 300_000

CASES: list[tuple[str, Callable[[], MapSnapshot], dict[str, Any]]] = [
    ("tutorial", tutorial_snapshot, {}),
    ("tutorial-battle", tutorial_battle_snapshot, {"view": "fr", "around": "F5", "radius": 2}),
    ("tutorial-battle-it", tutorial_battle_snapshot_it, {"view": "au"}),
    ("tutorial-fog", tutorial_fog_snapshot, {"view": "fr"}),
    ("italy-phone-fr", italy_phone_snapshot, {"view": "fr", "phone": True}),
    ("italy-gazette", italy_gazette_snapshot, {"around": "K18", "phone": True}),
]


def mean_difference(a: Image.Image, b: Image.Image) -> float:
    stat = ImageStat.Stat(ImageChops.difference(a.convert("RGB"), b.convert("RGB")))
    return sum(stat.mean) / len(stat.mean)


@pytest.mark.parametrize(("name", "make", "options"), CASES, ids=[c[0] for c in CASES])
def test_the_picture_matches_its_golden_image(name, make, options, tmp_path):
    snapshot = make()
    if snapshot.lang != "en" and not render_words_translated(snapshot.lang):
        pytest.skip(f"the map's words are not in the {snapshot.lang} catalogue yet")
    image = render_image(snapshot, **options)
    path = GOLDEN / f"{name}.png"
    if os.environ.get("ADC_UPDATE_GOLDEN") == "1":
        image.save(path, optimize=True)
        pytest.skip(f"golden image {path.name} written")
    assert path.exists(), f"{path} is missing: run with ADC_UPDATE_GOLDEN=1 to create it"
    with Image.open(path) as golden:
        assert golden.size == image.size, f"{name}: {image.size} drawn, {golden.size} in the golden image"
        diff = mean_difference(image, golden)
    if diff >= TOLERANCE:
        image.save(tmp_path / f"{name}.png")
        pytest.fail(f"{name}: mean difference {diff:.2f} >= {TOLERANCE}; the new picture is {tmp_path / name}.png")


@pytest.mark.parametrize("name", [c[0] for c in CASES])
def test_golden_images_stay_small(name):
    path = GOLDEN / f"{name}.png"
    if path.exists():
        assert path.stat().st_size < MAX_GOLDEN_BYTES


def test_the_comparison_notices_a_moved_force(make_snapshot):
    from bot.render import Counter

    from .conftest import sq

    a = render_image(make_snapshot(Counter("n", "VI Corps", "fr", sq("B2"), 10)))
    b = render_image(make_snapshot(Counter("n", "VI Corps", "fr", sq("F5"), 10)))
    assert mean_difference(a, a) == 0
    assert mean_difference(a, b) > 0.2
