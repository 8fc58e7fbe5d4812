"""The reader's Forces a phone picture leaves out (issue 22, item 6): an arrow at the edge of the map
towards each, with its square's name, and the note under the map that names them all ("+2 Forces
outside this view: O18, E22"), so that a crop never hides a Force of the reader's without saying so."""

from __future__ import annotations

import math
from collections.abc import Mapping
from dataclasses import dataclass

from PIL import Image, ImageDraw

from bot.engine.model import Square

from . import fonts, symbols
from .layout import Layout
from .model import MapSnapshot
from .palette import INK, PAPER, RGB

Pt = tuple[float, float]


def edge_point(layout: Layout, target: Square, inset: float) -> tuple[Pt, Pt]:
    """Where the ray from the picture's middle towards ``target`` (outside it) leaves the map, ``inset``
    pixels inside its edge, and the ray's unit direction."""
    gx0, gy0, gx1, gy1 = layout.grid_box
    cx, cy = (gx0 + gx1) / 2, (gy0 + gy1) / 2
    w = layout.window
    tx = layout.grid_x + (target.col - w.col0 + 0.5) * layout.cell
    ty = layout.grid_y + (target.row - w.row0 + 0.5) * layout.cell
    dx, dy = tx - cx, ty - cy
    n = math.hypot(dx, dy) or 1.0
    ux, uy = dx / n, dy / n
    half_w, half_h = (gx1 - gx0) / 2 - inset, (gy1 - gy0) / 2 - inset
    t = min(half_w / abs(ux) if ux else math.inf, half_h / abs(uy) if uy else math.inf)
    return (cx + ux * t, cy + uy * t), (ux, uy)


@dataclass(frozen=True, slots=True)
class EdgeMark:
    """An arrow at the map's edge towards some of the reader's Forces out of the picture, and its label."""

    head: tuple[Pt, ...]
    text: str
    px: int
    label: tuple[float, float, float, float]

    @property
    def boxes(self) -> list[tuple[float, float, float, float]]:
        """What a place name must not cover."""
        xs, ys = [p[0] for p in self.head], [p[1] for p in self.head]
        return [(min(xs), min(ys), max(xs), max(ys)), self.label]


def edge_marks(layout: Layout) -> list[EdgeMark]:
    """The edge arrows of the picture's :attr:`~.layout.Layout.outside` squares: arrows close together share
    one head, their squares' names joined."""
    if not layout.outside:
        return []
    c = layout.cell
    size = max(14.0, c * 0.26)
    px = max(layout.min_px, round(c * 0.16), 11)
    placed: list[tuple[Pt, Pt, list[str]]] = []
    for sq in dict.fromkeys(layout.outside):
        at, unit = edge_point(layout, sq, size * 0.6)
        near = next((p for p in placed if math.dist(p[0], at) < size * 1.6), None)
        if near is None:
            placed.append((at, unit, [sq.name]))
        else:
            near[2].append(sq.name)
    gx0, gy0, gx1, gy1 = layout.grid_box
    out = []
    for (x, y), (ux, uy), names in placed:
        tip = (x + ux * size * 0.5, y + uy * size * 0.5)
        head = tuple(symbols.arrowhead(tip, (x - ux, y - uy), size, size * 0.55))
        text = fonts.drawable(", ".join(names))
        w, h = fonts.width(text, px) + 6, px * 1.3
        # the name on the map's side of the arrow
        lx = min(max(x - ux * (size * 0.5 + w / 2), gx0 + w / 2 + 2), gx1 - w / 2 - 2)
        ly = min(max(y - uy * (size * 0.5 + h / 2), gy0 + h / 2 + 2), gy1 - h / 2 - 2)
        out.append(EdgeMark(head, text, px, (lx - w / 2, ly - h / 2, lx + w / 2, ly + h / 2)))
    return out


def draw_outside(canvas: Image.Image, layout: Layout, snapshot: MapSnapshot, colours: Mapping[str, RGB],
                 side: str | None) -> None:
    """The edge arrows towards the reader's Forces out of the picture, and the note under the map."""
    if not layout.outside:
        return
    d = ImageDraw.Draw(canvas, "RGBA")
    colour = colours.get(side or "", INK)
    for mark in edge_marks(layout):
        d.polygon(list(mark.head), fill=colour, outline=INK, width=max(1, round(layout.cell / 45)))
        x0, y0, x1, y1 = mark.label
        d.rounded_rectangle([x0, y0, x1, y1], radius=(y1 - y0) * 0.3, fill=(*PAPER, 225), outline=INK, width=1)
        d.text(((x0 + x1) / 2, (y0 + y1) / 2), mark.text, font=fonts.font(mark.px), fill=INK, anchor="mm")
    f = fonts.font(layout.legend_px)
    for i, line in enumerate(layout.note):
        d.text((layout.pad, layout.note_y + i * layout.legend_px * 1.35), line, font=f, fill=INK, anchor="lt",
               stroke_width=max(1, layout.legend_px // 24), stroke_fill=INK)
