"""The renderer's entry points: a snapshot and keyword options in, a picture or PNG bytes out.

A render copies the cached terrain layer onto a fresh canvas and draws the title band, the fog of
war's veil, the place names, this turn's moves and retreats, the counters, the battles, the arrows to
the reader's Forces out of a phone picture and the legend over it. Nothing is shared between calls
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
from .outside import draw_outside, edge_marks
from .overlay import LABELS_FROM, _region, draw_overlays, stacks
from .palette import PAPER, RGB, side_colours
from .places import draw_places, place_labels
from .terrain import terrain_layer
from .veil import draw_veil
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


def focus_of(snapshot: MapSnapshot, view: str | None) -> list[Square]:
    """The squares of the reader's own Forces (a side's view), which a phone picture is drawn around."""
    if view is None or view == GM:
        return []
    return [c.square for c in snapshot.counters if c.side == view and not c.faded]


def _avoid(snapshot: MapSnapshot, layout: Layout, rank: dict[str, int]) -> list[tuple[float, float, float, float]]:
    """What a place name must not cover: counters and battle marks."""
    battles = frozenset(snapshot.battles)
    out: list[tuple[float, float, float, float]] = [
        _region(layout, snapshot, sq, len(cs), battles) for sq, cs in stacks(snapshot, layout, rank).items()]
    out += [box for mark in edge_marks(layout) for box in mark.boxes]
    c = layout.cell
    for sq in battles:
        if layout.shows(sq):
            _, y0, x1, _ = layout.box(sq)
            b = max(14, round(c * 0.3))
            out.append((x1 - b - c * 0.06, y0, x1, y0 + b + c * 0.04) if c >= LABELS_FROM
                       else (x1 - b / 2, y0 - b / 2, x1 + b / 2, y0 + b / 2))
    return out


def render_layout(snapshot: MapSnapshot, *, view: str | None = None, around: Square | str | None = None,
                  radius: int = 3, cell: int | None = None, phone: bool = False) -> tuple[Image.Image, Layout]:
    """The picture and its layout (for tests and callers that need square positions)."""
    colours = side_colours(snapshot.sides)
    label, label_colour = _view(snapshot, view, colours)
    layout = layout_for(snapshot, around=_square(snapshot, around), radius=radius, cell=cell, phone=phone,
                        focus=focus_of(snapshot, view) if phone and cell is None else ())
    canvas = Image.new("RGB", (layout.width, layout.height), PAPER)
    canvas.paste(terrain_layer(snapshot.cmap, layout, colours), (layout.panel_x, layout.panel_y))
    d = ImageDraw.Draw(canvas, "RGBA")
    draw_veil(canvas, layout, snapshot)
    draw_title(d, width=layout.width, height=layout.title_height, pad=layout.pad,
               title=snapshot.title or snapshot.campaign, sub=subtitle(snapshot), title_px=layout.title_px,
               subtitle_px=layout.subtitle_px, view=label, view_colour=label_colour)
    keys = [s.key for s in snapshot.sides]
    rank = {k: i for i, k in enumerate(keys)}
    if view in rank:
        rank = {k: (-1 if k == view else i) for k, i in rank.items()}
    draw_places(canvas, place_labels(snapshot, layout, _avoid(snapshot, layout, rank)))
    draw_overlays(canvas, layout, snapshot, colours, rank)
    draw_outside(canvas, layout, snapshot, colours, view if view in colours else None)
    draw_legend(canvas, d, layout.legend, x=layout.pad, y=layout.legend_y, width=layout.width - 2 * layout.pad,
                px=layout.legend_px, colours=colours, side_order=keys, min_px=layout.min_px)
    return canvas, layout


def render_image(snapshot: MapSnapshot, *, view: str | None = None, around: Square | str | None = None,
                 radius: int = 3, cell: int | None = None, phone: bool = False) -> Image.Image:
    """Draw the map as the snapshot shows it (the caller has already applied fog of war).

    ``view``: the reader's side key (their Forces first in a stack, "France's view" in the title)
    or ``"gm"``; ``around`` and ``radius``: show only the squares within ``radius`` of ``around``
    (a battle brief); ``cell``: the square size in pixels, chosen from the map when None.
    ``phone``: a picture legible at phone width (:mod:`bot.render.layout`): a few squares around
    ``around`` (``radius`` is not used), else around most of the ``view`` side's Forces, else the
    whole map as usual.
    """
    return render_layout(snapshot, view=view, around=around, radius=radius, cell=cell, phone=phone)[0]


def encode_png(image: Image.Image, *, compress_level: int = 6) -> bytes:
    buf = io.BytesIO()
    image.save(buf, format="PNG", optimize=False, compress_level=compress_level)
    return buf.getvalue()


def render_png(snapshot: MapSnapshot, *, view: str | None = None, around: Square | str | None = None,
               radius: int = 3, cell: int | None = None, max_bytes: int = MAX_PNG_BYTES,
               compress_level: int = 6, phone: bool = False) -> bytes:
    """:func:`render_image` as PNG bytes, redrawn with smaller squares while it is over ``max_bytes``."""
    while True:
        image, layout = render_layout(snapshot, view=view, around=around, radius=radius, cell=cell, phone=phone)
        data = encode_png(image, compress_level=compress_level)
        if len(data) <= max_bytes:
            return data
        cell = int(layout.cell * 0.8)
        if cell < MIN_CELL_ABS:
            raise RenderError(f"The map does not fit in {max_bytes:,} bytes even with {layout.cell}-pixel squares.")
