"""What changes every turn, drawn over a copy of the terrain layer: this turn's moves and retreats,
the counters (stacked when they share a square) and the battles (ringed in the winner's colour once
reported).

A counter is a box in its side's colour and its side's shape, with the Force's short name (never one
another counter of the picture has, and never without the numerals of its name: :func:`labels`), its
strength, and marks for its order and reaction. Several counters in a square become strips, one
per Force; when they do not fit, the last strip says how many more there are.
"""

from __future__ import annotations

import itertools
import math
from collections.abc import Mapping, Sequence

from PIL import Image, ImageDraw

from bot.engine.model import Square
from bot.engine.text import Msg

from . import fonts, symbols
from .layout import Layout
from .model import Arrow, Counter, MapSnapshot
from .palette import BATTLE, INK, PAPER, RGB, mix, text_on
from .words import say

Box = tuple[float, float, float, float]
Pt = tuple[float, float]

DRAWN: RGB = (150, 150, 150)
"""The ring of a battle fought to a draw: nobody's colour."""
LABELS_FROM = 36
"""Squares narrower than this (pixels) show strengths only."""


def counter_region(layout: Layout, sq: Square, *, stack: bool = False, fort: bool = True,
                   battle: bool = False) -> Box:
    """Where a square's counters go: one counter below the band kept for the square's name, fort and
    battle mark; a stack higher up, as far as its square's fort or battle mark allows."""
    x0, y0, x1, y1 = layout.box(sq)
    c = layout.cell
    if c < LABELS_FROM:
        return x0 + 0.1 * c, y0 + 0.1 * c, x1 - 0.1 * c, y1 - 0.1 * c
    top = 0.3 if fort or not stack else 0.24 if battle else 0.07
    return x0 + 0.07 * c, y0 + top * c, x1 - 0.07 * c, y1 - 0.07 * c


def _region(layout: Layout, snapshot: MapSnapshot, sq: Square, n: int, battles: frozenset[Square]) -> Box:
    cell = snapshot.cmap.cells.get(sq)
    fort = cell is not None and cell.stronghold is not None
    return counter_region(layout, sq, stack=n > 1, fort=fort, battle=sq in battles)


def stacks(snapshot: MapSnapshot, layout: Layout, side_rank: Mapping[str, int]) -> dict[Square, list[Counter]]:
    """The counters shown, by square, in drawing order: the reader's side first, then by side, the
    strongest first, last-seen markers last."""
    out: dict[Square, list[Counter]] = {}
    for c in snapshot.counters:
        if layout.shows(c.square):
            out.setdefault(c.square, []).append(c)
    for lst in out.values():
        lst.sort(key=lambda c: (side_rank[c.side], c.faded, -(c.sp or 0), c.name, c.key))
    return out


def labels(snapshot: MapSnapshot) -> dict[str, tuple[str, ...]]:
    """Each counter's labels, longest first (:func:`.fonts.short_forms`), without those another Force of
    the picture could be given too, so that no two Forces of one map read the same ("II" for both the
    French and the Austrian II Corps); a Force whose every label is shared keeps its own."""
    forms = {c.key: tuple(fonts.short_forms(_label(c))) for c in snapshot.counters}
    names = {c.key: _label(c) for c in snapshot.counters}
    owners: dict[str, set[str]] = {}
    for c in snapshot.counters:
        for f in forms[c.key]:
            owners.setdefault(f, set()).add(names[c.key])
    return {k: tuple(f for f in fs if len(owners[f]) == 1) or fs for k, fs in forms.items()}


def draw_overlays(canvas: Image.Image, layout: Layout, snapshot: MapSnapshot, colours: Mapping[str, RGB],
                  side_rank: Mapping[str, int]) -> None:
    d = ImageDraw.Draw(canvas, "RGBA")
    shown = stacks(snapshot, layout, side_rank)
    shapes = {s.key: symbols.shape_of(i) for i, s in enumerate(snapshot.sides)}
    battles = frozenset(snapshot.battles)
    regions = {sq: _region(layout, snapshot, sq, len(counters), battles) for sq, counters in shown.items()}
    forms = labels(snapshot)
    for arrow in snapshot.moves:
        _draw_arrow(d, layout, arrow, colours[arrow.side], regions)
    for arrow in snapshot.retreats:
        _draw_arrow(d, layout, arrow, colours[arrow.side], regions, dashed=True)
    for sq, counters in shown.items():
        _draw_stack(d, layout, regions[sq], counters, colours, shapes, snapshot.lang, layout.min_px, forms)
    for sq in snapshot.battles:
        if layout.shows(sq):
            result = snapshot.result(sq)
            ring = None if result is None else colours[result.winner] if result.winner else DRAWN
            _draw_battle(canvas, d, layout, sq, ring)


def _draw_stack(d: ImageDraw.ImageDraw, layout: Layout, region: Box, counters: Sequence[Counter],
                colours: Mapping[str, RGB], shapes: Mapping[str, str], lang: str = "en", lo: int = 0,
                forms: Mapping[str, tuple[str, ...]] | None = None) -> None:
    """``lo``: the smallest text to draw (a phone layout), 0 for none; ``forms``: each counter's labels
    (:func:`labels`)."""
    c = layout.cell
    forms = forms or {}
    if len(counters) == 1:
        k = counters[0]
        _draw_counter(d, c, region, k, colours[k.side], shapes[k.side], lo, forms.get(k.key))
        return
    x0, y0, x1, y1 = region
    gap = max(1, round(c * 0.03))
    min_h = max(12, c * 0.19, lo / 0.66) if c >= LABELS_FROM else max(6, c * 0.2, lo / 0.8)
    fit = max(1, int((y1 - y0 + gap) // (min_h + gap)))
    n = min(len(counters), fit)
    h = (y1 - y0 - gap * (n - 1)) / n
    for i in range(n):
        top = y0 + i * (h + gap)
        box = (x0, top, x1, top + h)
        if i == n - 1 and len(counters) > n:
            _draw_more(d, c, box, len(counters) - i, lang, lo)
        else:
            k = counters[i]
            _draw_strip(d, c, box, k, colours[k.side], shapes[k.side], lo, forms.get(k.key))


def _style(counter: Counter, colour: RGB) -> tuple[RGB, RGB]:
    """(fill, text) of a counter: its side's colour, or a pale wash of it for a last-seen marker."""
    if counter.faded:
        return mix(colour, PAPER, 0.62), INK
    return colour, text_on(colour)


def _body(d: ImageDraw.ImageDraw, c: int, box: Box, counter: Counter, fill: RGB, shape: str) -> None:
    sh = max(1, round(c / 45))
    symbols.draw_shape(d, shape, (box[0] + sh, box[1] + sh, box[2] + sh, box[3] + sh), fill=(0, 0, 0, 70),
                       outline=None, width=0)
    width = max(1, round(c / 50))
    if counter.faded:
        symbols.draw_shape(d, shape, box, fill=fill, outline=None, width=0)
        pts = symbols.shape_points(shape, box)
        symbols.dashed(d, [*pts, pts[0]], fill=INK, width=width, dash=max(3, c * 0.07))
    else:
        symbols.draw_shape(d, shape, box, fill=fill, outline=INK, width=width)


def _sp(counter: Counter) -> str:
    return "?" if counter.sp is None else str(counter.sp)


def _label(counter: Counter) -> str:
    return counter.short or counter.name


def _text(d: ImageDraw.ImageDraw, xy: Pt, text: str, px: int, fill: RGB, anchor: str, *, bold: bool = False) -> None:
    d.text(xy, text, font=fonts.font(px), fill=fill, anchor=anchor,
           stroke_width=1 if bold and px >= 15 else 0, stroke_fill=fill)


def _fit_label(counter: Counter, px: int, max_width: float, lo: int = 0,
               forms: tuple[str, ...] | None = None) -> tuple[str, int]:
    """The counter's label and font size: its short name a little smaller if that fits, else shorter
    (the longest of ``forms`` that fits, the shortest if none does)."""
    forms = forms or tuple(fonts.short_forms(_label(counter)))
    first = forms[0]
    px = max(px, lo)
    for p in (px, max(lo, round(px * 0.9)), max(lo, round(px * 0.82))):
        if fonts.width(first, p) <= max_width:
            return first, p
    return next((f for f in forms if fonts.width(f, px) <= max_width), forms[-1]), px


def _shrink(text: str, px: int, max_width: float, low: int) -> int:
    while px > low and fonts.width(text, px) > max_width:
        px -= 1
    return px


def _draw_counter(d: ImageDraw.ImageDraw, c: int, box: Box, counter: Counter, colour: RGB, shape: str,
                  lo: int = 0, forms: tuple[str, ...] | None = None) -> None:
    x0, y0, x1, y1 = box
    fill, ink = _style(counter, colour)
    _body(d, c, box, counter, fill, shape)
    w, h = x1 - x0, y1 - y0
    cx = (x0 + x1) / 2
    sp = _sp(counter)
    if c < LABELS_FROM:
        px = _shrink(sp, max(7, lo, round(h * 0.7)), w * 0.9, max(6, lo))
        _text(d, (cx, (y0 + y1) / 2), sp, px, ink, "mm")
        return
    pad = max(2.0, w * 0.06)
    name_px = max(10, lo, round(c * 0.2))
    inner = w - 2 * pad - (h * 0.12 if shape.rstrip("+") in ("octagon", "hexagon") else 0)
    label, name_px = _fit_label(counter, name_px, inner, lo, forms)
    _text(d, (cx, y0 + h * 0.29), label, name_px, ink, "mm")
    mark = max(h * 0.34, lo / 0.55)  # a reaction's letter is 0.55 of its mark
    line2 = y0 + h * 0.71
    sp_px = _shrink(sp, max(11, lo, round(c * 0.27)), w - 2 * (pad + mark + 2), max(8, lo))
    _text(d, (cx, line2), sp, sp_px, ink, "mm", bold=True)
    low = max(6, lo)
    if counter.order:
        symbols.draw_order(d, counter.order, (x1 - pad - mark, line2 - mark / 2, x1 - pad, line2 + mark / 2), ink,
                           min_px=low)
    if counter.reaction:
        symbols.draw_reaction(d, counter.reaction, (x0 + pad, line2 - mark / 2, x0 + pad + mark, line2 + mark / 2),
                              min_px=low)


def _draw_strip(d: ImageDraw.ImageDraw, c: int, box: Box, counter: Counter, colour: RGB, shape: str,
                lo: int = 0, forms: tuple[str, ...] | None = None) -> None:
    x0, y0, x1, y1 = box
    fill, ink = _style(counter, colour)
    _body(d, c, box, counter, fill, shape)
    h = y1 - y0
    cy = (y0 + y1) / 2
    sp = _sp(counter)
    if c < LABELS_FROM:
        _text(d, ((x0 + x1) / 2, cy), sp, _shrink(sp, max(6, lo, round(h * 0.8)), x1 - x0, max(6, lo)), ink, "mm")
        return
    pad = max(2.0, h * (0.28 if shape.rstrip("+") != "square" else 0.2))
    px = max(9, lo, min(round(c * 0.18), round(h * 0.66)))
    right = x1 - pad
    _text(d, (right, cy), sp, px, ink, "rm", bold=True)
    right -= fonts.width(sp, px) + max(2, px * 0.25)
    mark = max(h * 0.58, lo / 0.55)
    step = mark + max(1, px * 0.15)
    if counter.reaction and right - mark >= x0 + pad:  # a reaction matters more than the name
        symbols.draw_reaction(d, counter.reaction, (right - mark, cy - mark / 2, right, cy + mark / 2),
                              min_px=max(6, lo))
        right -= step
    room = right - step - x0 - pad - px * 0.3  # for the name if the order mark is drawn too
    name = (forms or fonts.short_forms(_label(counter)))[0]
    if counter.order and (room >= px * 1.6 or fonts.width(name, max(lo, round(px * 0.82))) <= room):
        symbols.draw_order(d, counter.order, (right - mark, cy - mark / 2, right, cy + mark / 2), ink,
                           min_px=max(6, lo))
        right -= step
    label, lpx = _fit_label(counter, px, right - x0 - pad - px * 0.3, lo, forms)
    if fonts.width(label, lpx) <= right - x0 - pad:
        _text(d, (x0 + pad, cy), label, lpx, ink, "lm")


def _draw_more(d: ImageDraw.ImageDraw, c: int, box: Box, more: int, lang: str = "en", lo: int = 0) -> None:
    fill = mix(PAPER, INK, 0.12)
    d.rectangle(box, fill=fill, outline=INK, width=max(1, round(c / 50)))
    h = box[3] - box[1]
    text = fonts.drawable(say(lang, Msg("+{n} more", n=more))) if c >= LABELS_FROM else f"+{more}"
    px = _shrink(text, max(6, lo, min(round(c * 0.2), round(h * 0.72))), box[2] - box[0] - 4, max(6, lo))
    _text(d, ((box[0] + box[2]) / 2, (box[1] + box[3]) / 2), text, px, INK, "mm")


def _clip(a: Pt, b: Pt, box: Box) -> tuple[Pt, Pt] | None:
    """The part of segment a-b inside ``box`` (Liang-Barsky), or ``None``."""
    (x0, y0), (x1, y1) = a, b
    dx, dy = x1 - x0, y1 - y0
    t0, t1 = 0.0, 1.0
    for p, q in ((-dx, x0 - box[0]), (dx, box[2] - x0), (-dy, y0 - box[1]), (dy, box[3] - y0)):
        if p == 0:
            if q < 0:
                return None
            continue
        t = q / p
        if p < 0:
            t0 = max(t0, t)
        else:
            t1 = min(t1, t)
        if t0 > t1:
            return None
    return (x0 + t0 * dx, y0 + t0 * dy), (x0 + t1 * dx, y0 + t1 * dy)


def _exit(a: Pt, b: Pt, box: Box) -> Pt:
    """Where the segment from ``a`` (outside ``box``) towards ``b`` (inside) meets the box."""
    seg = _clip(a, b, box)
    return seg[0] if seg else b


def _draw_arrow(d: ImageDraw.ImageDraw, layout: Layout, arrow: Arrow, colour: RGB,
                regions: Mapping[Square, Box], *, dashed: bool = False) -> None:
    """A move, or (``dashed``) a retreat: a line in its side's colour on a dark casing, with its head."""
    c = layout.cell
    pts = [layout.centre(sq) for sq in (arrow.start, *arrow.path)]
    end = arrow.path[-1]
    head_len, head_w = max(9.0, c * 0.3), max(6.0, c * 0.17)
    if end in regions:
        x0, y0, x1, y1 = regions[end]
        g = max(2.0, c * 0.04)
        pts[-1] = _exit(pts[-2], pts[-1], (x0 - g, y0 - g, x1 + g, y1 + g))
    tip = pts[-1]
    ux, uy = tip[0] - pts[-2][0], tip[1] - pts[-2][1]
    n = math.hypot(ux, uy) or 1.0
    pts[-1] = (tip[0] - ux / n * head_len * 0.8, tip[1] - uy / n * head_len * 0.8)
    w = max(3, round(c * 0.065))
    casing = max(1, round(c / 40))
    inset = w / 2 + casing + 1  # a thick line overhangs its ends: keep it off the margins
    gx0, gy0, gx1, gy1 = layout.grid_box
    grid = (gx0 + inset, gy0 + inset, gx1 - inset, gy1 - inset)
    lines: list[list[Pt]] = []
    for a, b in itertools.pairwise(pts):
        seg = _clip(a, b, grid)
        if seg is None:
            continue
        if lines and math.dist(lines[-1][-1], seg[0]) < 0.5:
            lines[-1].append(seg[1])
        else:
            lines.append([seg[0], seg[1]])
    show_head = layout.shows(end)
    dash = max(6.0, c * 0.16)
    for fill, extra in ((INK, casing), (colour, 0)):
        for line in lines:
            if dashed:
                symbols.dashed(d, line, fill=fill, width=w + 2 * extra, dash=dash, gap=dash * 0.6)
            else:
                d.line(line, fill=fill, width=w + 2 * extra, joint="curve")
        if show_head:
            at = (tip[0] + ux / n * extra * 2, tip[1] + uy / n * extra * 2)
            d.polygon(symbols.arrowhead(at, pts[-2], head_len + 3 * extra, head_w + 2 * extra), fill=fill)
    if layout.shows(arrow.start):
        sx, sy = layout.centre(arrow.start)
        r = w * 0.9
        d.ellipse([sx - r, sy - r, sx + r, sy + r], fill=colour, outline=INK, width=casing)


def _draw_battle(canvas: Image.Image, d: ImageDraw.ImageDraw, layout: Layout, sq: Square,
                 ring: RGB | None = None) -> None:
    """A battle's mark: its square outlined and crossed sabres in its corner, in vermilion while it waits for
    its report, then in the winner's colour (``ring``) with a dark edge, or grey for a draw."""
    x0, y0, x1, y1 = layout.box(sq)
    c = layout.cell
    w = max(2, round(c / 22))
    if ring is None:
        d.rectangle([x0 + 1, y0 + 1, x1 - 1, y1 - 1], outline=BATTLE, width=w)
    else:
        d.rectangle([x0 + 1, y0 + 1, x1 - 1, y1 - 1], outline=INK, width=w + 2)
        d.rectangle([x0 + 2, y0 + 2, x1 - 2, y1 - 2], outline=ring, width=w)
    b = max(14, round(c * 0.3))
    tile = symbols.sabres(b, ring)
    at = (round(x1 - b - c * 0.04), round(y0 + c * 0.02)) if c >= LABELS_FROM else (x1 - b // 2, y0 - b // 2)
    canvas.paste(tile, at, tile)
