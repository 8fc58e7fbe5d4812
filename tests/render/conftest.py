"""Fixtures for the map renderer tests (bot/render): snapshots of the tutorial, of a generated
60x40 map, and small hand-made maps; helpers that count pixels of one colour in a square."""

from __future__ import annotations

from collections.abc import Callable

import pytest
from PIL import Image

from bot.engine.grid import CampaignMap
from bot.engine.model import Cell, Square, Terrain
from bot.render import Counter, MapSnapshot, SideStyle, clear_cache
from bot.render.palette import hex_to_rgb

from .samples import large_snapshot, tutorial_snapshot

FRANCE = SideStyle("fr", "France", "#1f4e9c")
AUSTRIA = SideStyle("au", "Austria", "#d9a400")
BLUE, GOLD = hex_to_rgb(FRANCE.colour or ""), hex_to_rgb(AUSTRIA.colour or "")


@pytest.fixture(autouse=True)
def fresh_cache():
    clear_cache()
    yield
    clear_cache()


@pytest.fixture(scope="session")
def tutorial() -> MapSnapshot:
    return tutorial_snapshot()


@pytest.fixture(scope="session")
def large() -> MapSnapshot:
    return large_snapshot()


@pytest.fixture
def make_snapshot() -> Callable[..., MapSnapshot]:
    """A small open map (8x6 unless told), France and Austria, with the counters given."""

    def make(*counters: Counter, width: int = 8, height: int = 6, cells: dict[Square, Cell] | None = None,
             **fields: object) -> MapSnapshot:
        cmap = CampaignMap(width, height, cells or {})
        base: dict[str, object] = dict(campaign="Test", turn=1, date="1 May 1809", season="spring", weather="Fine",
                                       phase="Phase 1: Orders", cmap=cmap, sides=(FRANCE, AUSTRIA),
                                       counters=counters)
        base.update(fields)
        return MapSnapshot(**base)  # type: ignore[arg-type]

    return make


def render_words_translated(lang: str) -> bool:
    """Whether the catalogue of ``lang`` has the map's own words yet (``Stronghold``, ``Turn {turn}``):
    they come into it when ``python -m bot.i18n extract`` and ``update`` have run over bot/render."""
    from bot.engine.text import Msg
    from bot.i18n.text import tr

    return tr(lang, Msg("Stronghold")) != "Stronghold" and tr(lang, Msg("Turn {turn}", turn=1)) != "Turn 1"


def sq(name: str) -> Square:
    return Square.parse(name)


def count(image: Image.Image, box: tuple[int, int, int, int], colour: tuple[int, int, int]) -> int:
    """Pixels of exactly ``colour`` inside ``box``."""
    colours = image.crop(box).getcolors(maxcolors=1 << 20) or []
    return next((n for n, c in colours if c[:3] == colour), 0)


def woods(*names: str) -> dict[Square, Cell]:
    return {sq(n): Cell(Terrain.FOREST) for n in names}
