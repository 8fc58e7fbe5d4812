"""Where everything goes: the square size chosen from the map size, the window shown, the title
band, the map panel (squares plus coordinate margins) and the legend.

The square size aims at a map about a thousand pixels wide (a 12x9 map gets 83-pixel squares, a
5x5 crop 144), never under 40 pixels while the picture stays within its pixel budget (a 60x40 map
gets 40); very large maps shrink to fit the budget, which keeps the PNG under 2 MB.

A phone layout (``phone=True``) is for a picture Discord shows about 480 pixels wide: it is
:data:`PHONE_WIDTH` pixels wide and shows :data:`PHONE_COLS` x :data:`PHONE_ROWS` squares (around a
square, or where most of the reader's Forces are), and no text in it is drawn smaller than
:attr:`Layout.min_px`, which is 10 pixels once the picture is scaled down to 480 pixels wide.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass

from bot.engine.model import Square
from bot.engine.text import Msg

from . import fonts
from .errors import InvalidSnapshot
from .furniture import LegendEntry, legend_entries, legend_height
from .model import MapSnapshot
from .words import say

TARGET_MAP_WIDTH = 1000
MAX_CELL = 144
MIN_CELL = 40
MIN_CELL_ABS = 6
MAX_SIDE = 3000
MAX_MAP_PIXELS = 4_000_000
MIN_WIDTH = 600
MAX_RADIUS = 50
PHONE_WIDTH = 720
"""Width of a phone picture; Discord shows it 400-550 pixels wide on a phone."""
PHONE_READ_WIDTH = 480
PHONE_MIN_TEXT = 10
"""Smallest text (pixels) once a phone picture is scaled to :data:`PHONE_READ_WIDTH` pixels wide."""
PHONE_COLS = 5
PHONE_ROWS = 7


@dataclass(frozen=True, slots=True)
class Window:
    """The squares drawn: ``cols`` x ``rows`` from (``col0``, ``row0``)."""

    col0: int
    row0: int
    cols: int
    rows: int

    def contains(self, sq: Square) -> bool:
        return self.col0 <= sq.col < self.col0 + self.cols and self.row0 <= sq.row < self.row0 + self.rows


@dataclass(frozen=True, slots=True)
class Layout:
    """Pixel geometry of one picture. Coordinates are canvas pixels, (0, 0) top-left."""

    cell: int
    window: Window
    margin: int
    """Width of the coordinate margins around the squares."""
    panel_x: int
    panel_y: int
    width: int
    height: int
    pad: int
    title_height: int
    legend_y: int
    legend_height: int
    coord_px: int
    title_px: int
    subtitle_px: int
    legend_px: int
    legend: tuple[LegendEntry, ...]
    min_px: int = 0
    """No text is drawn smaller than this (a phone layout); 0: each text its own size."""
    outside: tuple[Square, ...] = ()
    """The squares of the reader's Forces this picture leaves out (one per Force): the note under the map
    names them and arrows at its edge point to them."""
    note: tuple[str, ...] = ()
    """The lines of that note ("+2 Forces outside this view: O18, E22"), in the reader's language."""
    note_y: int = 0

    @property
    def grid_x(self) -> int:
        return self.panel_x + self.margin

    @property
    def grid_y(self) -> int:
        return self.panel_y + self.margin

    @property
    def panel_size(self) -> tuple[int, int]:
        return self.window.cols * self.cell + 2 * self.margin, self.window.rows * self.cell + 2 * self.margin

    @property
    def grid_box(self) -> tuple[int, int, int, int]:
        return (self.grid_x, self.grid_y, self.grid_x + self.window.cols * self.cell,
                self.grid_y + self.window.rows * self.cell)

    def shows(self, sq: Square) -> bool:
        return self.window.contains(sq)

    def box(self, sq: Square) -> tuple[int, int, int, int]:
        x0 = self.grid_x + (sq.col - self.window.col0) * self.cell
        y0 = self.grid_y + (sq.row - self.window.row0) * self.cell
        return x0, y0, x0 + self.cell, y0 + self.cell

    def centre(self, sq: Square) -> tuple[float, float]:
        x0, y0, _, _ = self.box(sq)
        return x0 + self.cell / 2, y0 + self.cell / 2


def square_box(layout: Layout, square: Square) -> tuple[int, int, int, int]:
    """The pixels of ``square`` on the canvas: (x0, y0, x1, y1), x1 and y1 exclusive."""
    if not layout.shows(square):
        w = layout.window
        first, last = Square(w.col0, w.row0), Square(w.col0 + w.cols - 1, w.row0 + w.rows - 1)
        raise InvalidSnapshot(f"Square {square} is not in this picture: it shows {first} to {last}.")
    return layout.box(square)


def choose_cell(cols: int, rows: int) -> int:
    """Square size in pixels for a window of ``cols`` x ``rows`` squares (see the module doc)."""
    cell = min(MAX_CELL, max(MIN_CELL, TARGET_MAP_WIDTH // cols))
    budget = math.isqrt(MAX_MAP_PIXELS // (cols * rows))
    return max(MIN_CELL_ABS, min(cell, MAX_SIDE // cols, MAX_SIDE // rows, budget))


def window_around(width: int, height: int, around: Square, radius: int, rows_radius: int | None = None) -> Window:
    """The ``2 * radius + 1`` squares each way (``2 * rows_radius + 1`` rows if given) centred on
    ``around``, slid inwards at the map's edges."""
    rr = radius if rows_radius is None else rows_radius
    cols, rows = min(2 * radius + 1, width), min(2 * rr + 1, height)
    col0 = min(max(0, around.col - radius), width - cols)
    row0 = min(max(0, around.row - rr), height - rows)
    return Window(col0, row0, cols, rows)


def window_over(width: int, height: int, squares: Sequence[Square], cols: int, rows: int) -> Window:
    """The ``cols`` x ``rows`` window holding most of ``squares`` (a square listed twice counts twice),
    the nearest to their middle among equals."""
    cols, rows = min(cols, width), min(rows, height)
    mc = sum(sq.col for sq in squares) / len(squares) - (cols - 1) / 2
    mr = sum(sq.row for sq in squares) / len(squares) - (rows - 1) / 2
    best: tuple[int, float, int, int] | None = None
    cs = sorted({sq.col for sq in squares})
    rs = sorted({sq.row for sq in squares})
    starts_c = sorted({min(max(0, c - k), width - cols) for c in cs for k in range(cols)} | {min(max(0, round(mc)), width - cols)})
    starts_r = sorted({min(max(0, r - k), height - rows) for r in rs for k in range(rows)} | {min(max(0, round(mr)), height - rows)})
    for c0 in starts_c:
        for r0 in starts_r:
            n = sum(1 for sq in squares if c0 <= sq.col < c0 + cols and r0 <= sq.row < r0 + rows)
            key = (-n, abs(c0 - mc) + abs(r0 - mr), c0, r0)
            if best is None or key < best:
                best = key
    assert best is not None
    return Window(best[2], best[3], cols, rows)


def _clamp(v: float, low: int, high: int) -> int:
    return int(max(low, min(high, round(v))))


def layout_for(snapshot: MapSnapshot, *, around: Square | None = None, radius: int = 3,
               cell: int | None = None, phone: bool = False, focus: Sequence[Square] = ()) -> Layout:
    """The layout :func:`render_image` uses for these options. ``phone``: a phone layout (see the module
    doc) centred on ``around``, else over most of ``focus`` (the reader's Forces); with neither, the
    whole map as usual (a whole map cannot be legible at phone width)."""
    cmap = snapshot.cmap
    if phone and cell is None and (around is not None or focus):
        if around is not None and not cmap.contains(around):
            last = Square(cmap.width - 1, cmap.height - 1)
            raise InvalidSnapshot(f"Cannot centre the picture on {around}: squares run from A1 to {last}.")
        window = (window_around(cmap.width, cmap.height, around, PHONE_COLS // 2, PHONE_ROWS // 2)
                  if around is not None else window_over(cmap.width, cmap.height, focus, PHONE_COLS, PHONE_ROWS))
        return _phone_layout(snapshot, window, tuple(sq for sq in focus if not window.contains(sq)))
    if around is None:
        window = Window(0, 0, cmap.width, cmap.height)
    else:
        if not cmap.contains(around):
            last = Square(cmap.width - 1, cmap.height - 1)
            raise InvalidSnapshot(f"Cannot centre the picture on {around}: squares run from A1 to {last}.")
        if not 0 <= radius <= MAX_RADIUS:
            raise InvalidSnapshot(f"A radius of {radius!r} squares is not allowed: use 0 to {MAX_RADIUS}.")
        window = window_around(cmap.width, cmap.height, around, radius)
    if cell is None:
        cell = choose_cell(window.cols, window.rows)
    elif not MIN_CELL_ABS <= cell <= 200:
        raise InvalidSnapshot(f"A square of {cell!r} pixels is not allowed: use {MIN_CELL_ABS} to 200.")

    coord_px = _clamp(cell * 0.3, 11, 20)
    last_row = str(window.row0 + window.rows)
    margin = max(round(coord_px * 1.9), math.ceil(fonts.width(last_row, coord_px)) + coord_px)
    panel_w = window.cols * cell + 2 * margin
    pad = _clamp(panel_w / 80, 8, 24)
    width = max(panel_w + 2 * pad, MIN_WIDTH)
    return _assemble(snapshot, window, cell=cell, margin=margin, pad=pad, width=width, coord_px=coord_px)


def outside_note(snapshot: MapSnapshot, outside: Sequence[Square]) -> str:
    """``+2 Forces outside this view: O18, E22``, in the snapshot's language; empty when none is."""
    if not outside:
        return ""
    squares = ", ".join(dict.fromkeys(sq.name for sq in outside))
    return say(snapshot, Msg.plural(len(outside), "+{n} Force outside this view: {squares}",
                                    "+{n} Forces outside this view: {squares}", squares=squares))


def wrap(text: str, px: int, width: float) -> tuple[str, ...]:
    """``text`` in lines no wider than ``width`` at ``px`` (a word longer than that has a line of its own)."""
    lines: list[str] = []
    for word in fonts.drawable(text).split():
        if lines and fonts.width(f"{lines[-1]} {word}", px) <= width:
            lines[-1] = f"{lines[-1]} {word}"
        else:
            lines.append(word)
    return tuple(lines)


def _phone_layout(snapshot: MapSnapshot, window: Window, outside: tuple[Square, ...] = ()) -> Layout:
    """A layout exactly :data:`PHONE_WIDTH` wide whose smallest text is :data:`PHONE_MIN_TEXT` pixels at
    :data:`PHONE_READ_WIDTH`: squares as large as the width allows, every font at least ``min_px``;
    ``outside``: the reader's Forces' squares the window leaves out, named under the map."""
    width = PHONE_WIDTH
    min_px = math.ceil(PHONE_MIN_TEXT * width / PHONE_READ_WIDTH)
    coord_px = 20
    last_row = str(window.row0 + window.rows)
    margin = max(round(coord_px * 1.9), math.ceil(fonts.width(last_row, coord_px)) + coord_px)
    pad = 10
    cell = min(MAX_CELL, (width - 2 * pad - 2 * margin) // max(PHONE_COLS, window.cols))
    coord_px = max(min_px, _clamp(cell * 0.3, 11, 20))
    return _assemble(snapshot, window, cell=cell, margin=margin, pad=pad, width=width, coord_px=coord_px,
                     min_px=min_px, outside=outside)


def _assemble(snapshot: MapSnapshot, window: Window, *, cell: int, margin: int, pad: int, width: int,
              coord_px: int, min_px: int = 0, outside: tuple[Square, ...] = ()) -> Layout:
    """The layout of a picture ``width`` wide with squares of ``cell`` pixels: the title band, the
    panel of squares, the note of the Forces ``outside`` it and the legend below, every font at least
    ``min_px`` (0: the usual sizes)."""
    panel_w = window.cols * cell + 2 * margin
    panel_h = window.rows * cell + 2 * margin
    title_px = max(min_px, _clamp(width / 28, 20, 44))
    subtitle_px = max(min_px, 12, round(title_px * 0.6))
    title_height = round(title_px * 1.25 + subtitle_px * 1.35 + 1.6 * pad)
    legend_px = max(min_px, _clamp(width / 50, 13, 22))
    entries = legend_entries(snapshot, window.col0, window.row0, window.cols, window.rows)
    legend_h = legend_height(entries, width - 2 * pad, legend_px)
    panel_x = (width - panel_w) // 2
    panel_y = title_height + pad
    note = wrap(outside_note(snapshot, outside), legend_px, width - 2 * pad) if outside else ()
    note_y = panel_y + panel_h + pad
    legend_y = note_y + (round(len(note) * legend_px * 1.35 + pad) if note else 0)
    return Layout(
        cell=cell, window=window, margin=margin, panel_x=panel_x, panel_y=panel_y, width=width,
        height=legend_y + legend_h + pad, pad=pad, title_height=title_height, legend_y=legend_y,
        legend_height=legend_h, coord_px=coord_px, title_px=title_px, subtitle_px=subtitle_px,
        legend_px=legend_px, legend=entries, min_px=min_px, outside=outside, note=note, note_y=note_y,
    )
