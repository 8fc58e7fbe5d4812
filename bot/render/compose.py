"""The renderer's entry points: a snapshot and keyword options in, a picture or PNG bytes out.

A render copies the cached terrain layer onto a fresh canvas and draws the title band, this
turn's moves, the counters, the battles and the legend over it. Nothing is shared between calls
except the terrain cache (locked), so renders may run in worker threads.
"""

from __future__ import annotations

import io

from PIL import Image, ImageDraw

from bot.engine.errors import InvalidInput
from bot.engine.model import Square
from bot.engine.text import Msg

from .errors import InvalidSnapshot, RenderError
from .furniture import draw_legend, draw_title, subtitle
from .layout import MIN_CELL_ABS, Layout, layout_for
from .model import MapSnapshot
from .overlay import draw_overlays
from .palette import PAPER, RGB, side_colours
from .terrain import terrain_layer
from .words import say

MAX_PNG_BYTES = 2 * 1024 * 1024
"""Discord shows larger images, but a map over 2 MB is slow to open on a phone."""
GM = "gm"


def _square(snapshot: MapSnapshot, around: Square | str | None) -> Square | None:
    if around is None or isinstance(around, Square):
        return around
    try:
        return snapshot.cmap.parse(around)
    except InvalidInput as exc:
        raise InvalidSnapshot(str(exc)) from exc


def _view(snapshot: MapSnapshot, view: str | None, colours: dict[str, RGB]) -> tuple[str, RGB | None]:
    """The label of the view pill and its colour."""
    if view is None:
        return say(snapshot, snapshot.view), None
    if view == GM:
        return say(snapshot, snapshot.view or Msg("GM: all Forces")), None
    if view not in colours:
        allowed = ", ".join([GM, *colours])
        raise InvalidSnapshot(f"Unknown view {view!r}: use a side key or {GM!r} ({allowed}).")
    return say(snapshot, snapshot.view or view_label(snapshot.side(view).name)), colours[view]


def view_label(name: str) -> Msg:
    """``France's view``: whose view a picture is, in the title band and the text report."""
    return Msg("{name}'s view", name=name)


def render_layout(snapshot: MapSnapshot, *, view: str | None = None, around: Square | str | None = None,
                  radius: int = 3, cell: int | None = None) -> tuple[Image.Image, Layout]:
    """The picture and its layout (for tests and callers that need square positions)."""
    colours = side_colours(snapshot.sides)
    label, label_colour = _view(snapshot, view, colours)
    layout = layout_for(snapshot, around=_square(snapshot, around), radius=radius, cell=cell)
    canvas = Image.new("RGB", (layout.width, layout.height), PAPER)
    canvas.paste(terrain_layer(snapshot.cmap, layout, colours), (layout.panel_x, layout.panel_y))
    d = ImageDraw.Draw(canvas, "RGBA")
    draw_title(d, width=layout.width, height=layout.title_height, pad=layout.pad,
               title=snapshot.title or snapshot.campaign, sub=subtitle(snapshot), title_px=layout.title_px,
               subtitle_px=layout.subtitle_px, view=label, view_colour=label_colour)
    keys = [s.key for s in snapshot.sides]
    rank = {k: i for i, k in enumerate(keys)}
    if view in rank:
        rank = {k: (-1 if k == view else i) for k, i in rank.items()}
    draw_overlays(canvas, layout, snapshot, colours, rank)
    draw_legend(canvas, d, layout.legend, x=layout.pad, y=layout.legend_y, width=layout.width - 2 * layout.pad,
                px=layout.legend_px, colours=colours, side_order=keys)
    return canvas, layout


def render_image(snapshot: MapSnapshot, *, view: str | None = None, around: Square | str | None = None,
                 radius: int = 3, cell: int | None = None) -> Image.Image:
    """Draw the map as the snapshot shows it (the caller has already applied fog of war).

    ``view``: the reader's side key (their Forces first in a stack, "France's view" in the title)
    or ``"gm"``; ``around`` and ``radius``: show only the squares within ``radius`` of ``around``
    (a battle brief, a phone); ``cell``: the square size in pixels, chosen from the map when None.
    """
    return render_layout(snapshot, view=view, around=around, radius=radius, cell=cell)[0]


def encode_png(image: Image.Image, *, compress_level: int = 6) -> bytes:
    buf = io.BytesIO()
    image.save(buf, format="PNG", optimize=False, compress_level=compress_level)
    return buf.getvalue()


def render_png(snapshot: MapSnapshot, *, view: str | None = None, around: Square | str | None = None,
               radius: int = 3, cell: int | None = None, max_bytes: int = MAX_PNG_BYTES,
               compress_level: int = 6) -> bytes:
    """:func:`render_image` as PNG bytes, redrawn with smaller squares while it is over ``max_bytes``."""
    while True:
        image, layout = render_layout(snapshot, view=view, around=around, radius=radius, cell=cell)
        data = encode_png(image, compress_level=compress_level)
        if len(data) <= max_bytes:
            return data
        cell = int(layout.cell * 0.8)
        if cell < MIN_CELL_ABS:
            raise RenderError(f"The map does not fit in {max_bytes:,} bytes even with {layout.cell}-pixel squares.")
