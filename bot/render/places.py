"""Place names the scenario gives squares (``Cell.place``), drawn where they fit.

A town's, a fortress's or a pass's name goes on a pale plate in the band at the top of its square
(over the square's own name, which the margins repeat), else straddling its lower or upper edge, else
beside it, tied to its square by a leader line and a dot; a fortress's is bold. A river's name is blue and slanted across its square; a region's is
larger, spaced and faint, across its square. A name is never drawn over a counter, a fort, another
square's name, a battle or another name: when every place tried would overlap one, the name is left
out (the most important places are placed first: fortresses, towns, passes, rivers, then regions).
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from functools import lru_cache

from PIL import Image, ImageDraw

from bot.engine.model import Square

from . import fonts
from .layout import Layout
from .model import MapSnapshot
from .palette import INK, PAPER, RGB

Box = tuple[float, float, float, float]

RIVER_INK: RGB = (31, 94, 168)
PASS_INK: RGB = (92, 60, 30)
REGION_INK = (*INK, 96)
SLANT = 0.22
"""How far a river's name leans (an italic of sorts: the bundled font has no italic face)."""
ORDER = {"fortress": 0, "town": 1, "pass": 2, "river": 3, "region": 4}


@dataclass(frozen=True, slots=True)
class Label:
    square: Square
    text: str
    kind: str
    px: int
    box: Box
    """Where the text goes on the canvas (x0, y0, x1, y1)."""
    anchor: tuple[float, float] | None = None
    """A name set beside its square, or across its edge: the point in its square its leader line ties it
    to (issue 22, item 6), so that it never reads as the neighbour's; None for a name inside its square."""


def _kind(place: object) -> str:
    kind = getattr(place, "kind", "town")
    return str(getattr(kind, "value", kind) or "town").lower()


def places_in(snapshot: MapSnapshot, layout: Layout) -> list[tuple[Square, str, str]]:
    """(square, name, kind) of the named squares in the picture, the most important first."""
    out = []
    for sq, cell in snapshot.cmap.cells.items():
        place = getattr(cell, "place", None)
        name = " ".join(str(getattr(place, "name", "") or "").split())
        if place is None or not name or not layout.shows(sq):
            continue
        out.append((sq, fonts.drawable(name), _kind(place)))
    out.sort(key=lambda p: (ORDER.get(p[2], 1), p[0].row, p[0].col))
    return out


def label_px(layout: Layout, kind: str) -> int:
    base = max(11, layout.min_px, round(layout.cell * 0.16))
    return max(layout.min_px, round(base * 1.3)) if kind == "region" else base


def _overlaps(a: Box, b: Box) -> bool:
    return a[0] < b[2] and b[0] < a[2] and a[1] < b[3] and b[1] < a[3]


def _inside(a: Box, b: Box) -> bool:
    return a[0] >= b[0] and a[1] >= b[1] and a[2] <= b[2] and a[3] <= b[3]


def _text_of(name: str, kind: str) -> str:
    return " ".join(name.upper()) if kind == "region" else name


def _size(text: str, px: int, kind: str) -> tuple[float, float]:
    w = fonts.width(text, px) + (2 if kind == "fortress" else 0) + (SLANT * px if kind == "river" else 0)
    return w + 4, px * 1.2


def _candidates(layout: Layout, sq: Square, w: float, h: float, kind: str) -> Iterable[Box]:
    x0, y0, x1, y1 = layout.box(sq)
    c = layout.cell
    cx, cy = (x0 + x1) / 2, (y0 + y1) / 2
    if kind in ("river", "region"):
        for y in (cy, y0 + c * 0.75, y0 + c * 0.25):
            yield cx - w / 2, y - h / 2, cx + w / 2, y + h / 2
        return
    top = y0 + max(1.0, c * 0.15 - h / 2)  # the band kept at the top of the square
    yield cx - w / 2, top, cx + w / 2, top + h
    for y in (y1, y0):
        yield cx - w / 2, y - h / 2, cx + w / 2, y + h / 2
    yield x1 + 2, cy - h / 2, x1 + 2 + w, cy + h / 2
    yield x0 - 2 - w, cy - h / 2, x0 - 2, cy + h / 2


def place_labels(snapshot: MapSnapshot, layout: Layout, avoid: Sequence[Box]) -> list[Label]:
    """The place names that fit, and where: none over ``avoid`` (counters, marks) nor over another."""
    gx0, gy0, gx1, gy1 = layout.grid_box
    grid = (gx0 + 1, gy0 + 1, gx1 - 1, gy1 - 1)
    taken: list[Box] = list(avoid)
    names = square_name_boxes(layout)
    c = layout.cell
    for sq, cell in snapshot.cmap.cells.items():
        if cell.stronghold is not None and layout.shows(sq):
            x0, y0, _, _ = layout.box(sq)
            taken.append((x0 + c * 0.03, y0 + c * 0.03, x0 + c * 0.37, y0 + c * 0.37))
    out: list[Label] = []
    for sq, name, kind in places_in(snapshot, layout):
        px = label_px(layout, kind)
        text = _text_of(name, kind)
        w, h = _size(text, px, kind)
        others = [b for k, b in names.items() if k != sq]
        for box in _candidates(layout, sq, w, h, kind):
            if _inside(box, grid) and not any(_overlaps(box, t) for t in taken) \
                    and not any(_overlaps(box, t) for t in others):
                out.append(Label(sq, text, kind, px, box, _anchor(layout, sq, box, kind)))
                taken.append(box)
                break
    return out


def _anchor(layout: Layout, sq: Square, box: Box, kind: str) -> tuple[float, float] | None:
    """Where a name that is not wholly inside its square is tied to it: a point a quarter of a square in
    from its edge, on the name's side (None for a name inside its square, a river's or a region's)."""
    x0, y0, x1, y1 = layout.box(sq)
    if kind in ("river", "region") or _inside(box, (x0, y0, x1, y1)):
        return None
    m = layout.cell * 0.22
    cx, cy = (box[0] + box[2]) / 2, (box[1] + box[3]) / 2
    return min(max(cx, x0 + m), x1 - m), min(max(cy, y0 + m), y1 - m)


def _edge(box: Box, towards: tuple[float, float]) -> tuple[float, float]:
    """The point of ``box``'s edge on the way from its middle to ``towards`` (outside it)."""
    cx, cy = (box[0] + box[2]) / 2, (box[1] + box[3]) / 2
    dx, dy = towards[0] - cx, towards[1] - cy
    hw, hh = (box[2] - box[0]) / 2, (box[3] - box[1]) / 2
    t = min(hw / abs(dx) if dx else float("inf"), hh / abs(dy) if dy else float("inf"), 1.0)
    return cx + dx * t, cy + dy * t


def square_name_boxes(layout: Layout) -> dict[Square, Box]:
    """Where the terrain layer letters each square's name (large squares only)."""
    from .terrain import SQUARE_NAMES_FROM

    c = layout.cell
    if c < SQUARE_NAMES_FROM:
        return {}
    px = max(9, layout.min_px, round(c * 0.14))
    w = layout.window
    out = {}
    for row in range(w.row0, w.row0 + w.rows):
        for col in range(w.col0, w.col0 + w.cols):
            sq = Square(col, row)
            x0, y0, x1, _ = layout.box(sq)
            half = fonts.width(sq.name, px) / 2 + 2
            cx, cy = (x0 + x1) / 2, y0 + c * 0.13
            out[sq] = (cx - half, cy - px * 0.6, cx + half, cy + px * 0.6)
    return out


def draw_places(canvas: Image.Image, labels: Sequence[Label]) -> None:
    d = ImageDraw.Draw(canvas, "RGBA")
    for lb in labels:
        x0, y0, x1, y1 = lb.box
        at = ((x0 + x1) / 2, (y0 + y1) / 2)
        halo = max(1, round(lb.px / 8))
        if lb.kind == "river":
            tile = _slanted(lb.text, lb.px)
            canvas.paste(tile, (round(at[0] - tile.width / 2), round(at[1] - tile.height / 2)), tile)
        elif lb.kind == "region":
            d.text(at, lb.text, font=fonts.font(lb.px), fill=REGION_INK, anchor="mm")
        else:
            ink = PASS_INK if lb.kind == "pass" else INK
            if lb.anchor is not None:  # the leader line: from the plate to a dot in its own square
                ax, ay = lb.anchor
                r = max(2.0, lb.px * 0.22)
                d.line([_edge(lb.box, lb.anchor), lb.anchor], fill=(*ink, 230), width=max(1, round(lb.px / 9)))
                d.ellipse([ax - r, ay - r, ax + r, ay + r], fill=ink, outline=(*PAPER, 230), width=1)
            d.rounded_rectangle([x0, y0, x1, y1], radius=lb.px * 0.3, fill=(*PAPER, 200))
            d.text(at, lb.text, font=fonts.font(lb.px), fill=ink, anchor="mm", stroke_width=halo,
                   stroke_fill=(*PAPER, 215))
            if lb.kind == "fortress":  # bold: the name again, a pixel to the right
                d.text((at[0] + 1, at[1]), lb.text, font=fonts.font(lb.px), fill=ink, anchor="mm")


@lru_cache(maxsize=256)
def _slanted(text: str, px: int) -> Image.Image:
    """A river's name in blue with a pale halo, leaning right (RGBA, read-only)."""
    f = fonts.font(px)
    halo = max(1, round(px / 8))
    w = round(fonts.width(text, px) + 2 * halo + 4)
    h = round(px * 1.35 + 2 * halo)
    upright = Image.new("RGBA", (w, h), (*PAPER, 0))
    ImageDraw.Draw(upright).text((w / 2, h / 2), text, font=f, fill=RIVER_INK, anchor="mm", stroke_width=halo,
                                 stroke_fill=(*PAPER, 190))
    extra = round(SLANT * h)
    # each output pixel (x, y) reads the upright text at x - extra + SLANT * y: its top leans right
    return upright.transform((w + extra, h), Image.Transform.AFFINE, (1, SLANT, -extra, 0, 1, 0),
                             resample=Image.Resampling.BICUBIC)
