"""The Italy 1796 map drawn with its Forces (bot/render): a whole-map PNG at the renderer's own square
size, under 2 MB without shrinking, and a battle-brief window around Lodi."""

from __future__ import annotations

import io

import pytest
from PIL import Image

from bot.render import clear_cache, encode_png, render_layout, render_png
from bot.scenario import load_bundled
from tests.render.samples import scenario_snapshot

LIMIT = 2 * 1000 * 1000


@pytest.fixture(autouse=True)
def fresh_cache():
    clear_cache()
    yield
    clear_cache()


def test_italy_renders_with_its_forces_under_2_mb() -> None:
    snapshot = scenario_snapshot(load_bundled("italy1796"))
    assert len(snapshot.counters) == 20
    image, layout = render_layout(snapshot)
    png = render_png(snapshot)
    assert png.startswith(b"\x89PNG\r\n\x1a\n")
    assert len(png) < LIMIT
    assert png == encode_png(image)  # drawn at the chosen square size: render_png did not have to shrink it
    with Image.open(io.BytesIO(png)) as im:
        assert im.size == (layout.width, layout.height)
        assert im.width >= layout.cell * 36 and im.height >= layout.cell * 26


def test_italy_battle_brief_around_lodi() -> None:
    snapshot = scenario_snapshot(load_bundled("italy1796"))
    png = render_png(snapshot, around="U8", radius=3, view="fr")
    with Image.open(io.BytesIO(png)) as im:
        assert im.width < 1600 and len(png) < LIMIT
