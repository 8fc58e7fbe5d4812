"""Fog of war on the picture: the squares the reader does not see are veiled (a grey wash and a
diagonal hatch), so that "no enemy there" and "cannot see there" look different. Last-seen markers
are drawn over the veil, as faded counters."""

from __future__ import annotations

from functools import lru_cache
from typing import TYPE_CHECKING

from PIL import Image, ImageChops, ImageDraw

from bot.engine.model import Square

from .model import MapSnapshot
from .palette import INK

if TYPE_CHECKING:
    from .layout import Layout

WASH = (118, 122, 130, 92)
"""The veil's grey, translucent: the ground under it stays readable."""
HATCH = (*INK, 70)


@lru_cache(maxsize=16)
def veil(width: int, height: int, cell: int) -> Image.Image:
    """A veil ``width`` x ``height`` (RGBA, read-only), its hatch spaced for ``cell``-pixel squares and
    aligned to the squares, so that veiled squares side by side join up."""
    im = Image.new("RGBA", (width, height), WASH)
    d = ImageDraw.Draw(im)
    step = max(5, round(cell / 6))
    w = max(1, round(cell / 45))
    for k in range(-height, width + height, step):
        d.line([(k, height), (k + height, 0)], fill=HATCH, width=w)
    return im


def hidden(snapshot: MapSnapshot, layout: Layout) -> list[Square]:
    """The squares of the picture the reader does not see."""
    if snapshot.visible is None:
        return []
    w = layout.window
    return [Square(col, row) for row in range(w.row0, w.row0 + w.rows) for col in range(w.col0, w.col0 + w.cols)
            if Square(col, row) not in snapshot.visible]


def draw_veil(canvas: Image.Image, layout: Layout, snapshot: MapSnapshot) -> None:
    """Veil the squares out of the reader's sight (nothing when the snapshot sees everything)."""
    squares = hidden(snapshot, layout)
    if not squares:
        return
    gx0, gy0, gx1, gy1 = layout.grid_box
    mask = Image.new("L", (gx1 - gx0, gy1 - gy0), 0)
    md = ImageDraw.Draw(mask)
    for sq in squares:
        x0, y0, x1, y1 = layout.box(sq)
        md.rectangle([x0 - gx0, y0 - gy0, x1 - gx0 - 1, y1 - gy0 - 1], fill=255)
    tile = veil(gx1 - gx0, gy1 - gy0, layout.cell)
    alpha = ImageChops.multiply(tile.getchannel("A"), mask)
    layer = tile.copy()
    layer.putalpha(alpha)
    canvas.paste(layer, (gx0, gy0), layer)
