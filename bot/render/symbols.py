"""Map symbols shared by the map and its legend: forts, counter shapes, order and reaction marks,
arrowheads, crossed sabres. Everything is drawn from geometry (no image files)."""

from __future__ import annotations

import itertools
import math
from collections.abc import Sequence
from functools import lru_cache

from PIL import Image, ImageDraw

from . import fonts
from .palette import INK, OKABE_ITO, RGB, RIVER, RIVER_LIGHT, ROAD, ROAD_CASING, WARNING

Point = tuple[float, float]
Box = tuple[float, float, float, float]

SHAPES = ("square", "octagon", "rounded", "hexagon")
"""Counter outline by side (first side square, second octagon...): a cue that needs no colour.
The fifth to eighth sides repeat them with a double outline (``square+``...)."""


def shape_of(side_index: int) -> str:
    return SHAPES[side_index % len(SHAPES)] + ("+" if side_index % 8 >= len(SHAPES) else "")


def shape_points(shape: str, box: Box) -> list[Point]:
    """The outline of a counter of ``shape`` filling ``box`` (``rounded`` is approximated)."""
    x0, y0, x1, y1 = box
    k = min(x1 - x0, y1 - y0)
    shape = shape.rstrip("+")
    if shape == "octagon":
        c = k * 0.24
        return [(x0 + c, y0), (x1 - c, y0), (x1, y0 + c), (x1, y1 - c), (x1 - c, y1), (x0 + c, y1), (x0, y1 - c),
                (x0, y0 + c)]
    if shape == "hexagon":
        c, ym = k * 0.28, (y0 + y1) / 2
        return [(x0 + c, y0), (x1 - c, y0), (x1, ym), (x1 - c, y1), (x0 + c, y1), (x0, ym)]
    if shape == "rounded":
        r = k * 0.36
        pts: list[Point] = []
        for cx, cy, a0 in ((x1 - r, y0 + r, -90), (x1 - r, y1 - r, 0), (x0 + r, y1 - r, 90), (x0 + r, y0 + r, 180)):
            pts += [(cx + r * math.cos(math.radians(a0 + t)), cy + r * math.sin(math.radians(a0 + t)))
                    for t in range(0, 91, 15)]
        return pts
    return [(x0, y0), (x1, y0), (x1, y1), (x0, y1)]


def draw_shape(d: ImageDraw.ImageDraw, shape: str, box: Box, *, fill: RGB | tuple[int, int, int, int] | None,
               outline: RGB | None, width: int) -> None:
    base = shape.rstrip("+")
    if base == "square":
        d.rectangle(box, fill=fill, outline=outline, width=width)
    elif base == "rounded":
        d.rounded_rectangle(box, radius=min(box[2] - box[0], box[3] - box[1]) * 0.36, fill=fill, outline=outline,
                            width=width)
    else:
        d.polygon(shape_points(base, box), fill=fill, outline=outline, width=width)
    if shape.endswith("+") and outline is not None:  # the double outline of the fifth to eighth sides
        k = width * 2.5
        inner = (box[0] + k, box[1] + k, box[2] - k, box[3] - k)
        if inner[2] - inner[0] > 2 * k and inner[3] - inner[1] > 2 * k:
            draw_shape(d, base, inner, fill=None, outline=(255, 255, 255), width=width)


def dashed(d: ImageDraw.ImageDraw, points: Sequence[Point], *, fill: RGB, width: int, dash: float,
           gap: float | None = None) -> None:
    """A dashed polyline (dashes continue across corners)."""
    gap = dash if gap is None else gap
    on, left = True, dash
    for (ax, ay), (bx, by) in itertools.pairwise(points):
        seg = math.hypot(bx - ax, by - ay)
        pos = 0.0
        while pos < seg - 1e-6:
            step = min(left, seg - pos)
            if on:
                t0, t1 = pos / seg, (pos + step) / seg
                d.line([(ax + (bx - ax) * t0, ay + (by - ay) * t0), (ax + (bx - ax) * t1, ay + (by - ay) * t1)],
                       fill=fill, width=width)
            pos += step
            left -= step
            if left <= 1e-6:
                on = not on
                left = dash if on else gap


def fort_points(cx: float, cy: float, r: float, bastions: int = 5) -> list[Point]:
    """A star fort (trace italienne): ``bastions`` points around (cx, cy)."""
    pts = []
    for i in range(bastions * 2):
        a = -math.pi / 2 + i * math.pi / bastions
        rr = r if i % 2 == 0 else r * 0.6
        pts.append((cx + rr * math.cos(a), cy + rr * math.sin(a)))
    return pts


def draw_fort(d: ImageDraw.ImageDraw, cx: float, cy: float, r: float, colour: RGB, *, capital: bool,
              width: int) -> None:
    """A stronghold: a star fort in its side's colour; a capital adds a white ring and dot (⊙)."""
    d.polygon(fort_points(cx, cy, r), fill=colour, outline=INK, width=width)
    if capital:
        rr = r * 0.42
        d.ellipse([cx - rr, cy - rr, cx + rr, cy + rr], fill=(255, 255, 255), outline=INK, width=max(1, width // 2))
        rd = r * 0.17
        d.ellipse([cx - rd, cy - rd, cx + rd, cy + rd], fill=INK)


def arrowhead(tip: Point, towards: Point, length: float, half_width: float) -> list[Point]:
    """A triangle with its point at ``tip``, pointing away from ``towards``."""
    dx, dy = tip[0] - towards[0], tip[1] - towards[1]
    n = math.hypot(dx, dy) or 1.0
    ux, uy = dx / n, dy / n
    bx, by = tip[0] - ux * length, tip[1] - uy * length
    return [tip, (bx - uy * half_width, by + ux * half_width), (bx + uy * half_width, by - ux * half_width)]


SS = 4
"""Supersampling of the small cached icons."""


@lru_cache(maxsize=64)
def sabres(size: int, ring_colour: RGB | None = None) -> Image.Image:
    """Crossed sabres on a white disc ringed in vermilion (a battle), or in ``ring_colour`` (the winner's
    colour, with a dark edge so that any colour reads on any ground): the battle mark (RGBA, read-only)."""
    s = size * SS
    im = Image.new("RGBA", (s, s), (*INK, 0))
    d = ImageDraw.Draw(im)
    ring = max(2, s // 10)
    if ring_colour is None:
        d.ellipse([1, 1, s - 2, s - 2], fill=(255, 255, 255, 255), outline=OKABE_ITO["vermilion"] + (255,), width=ring)
    else:  # a thicker ring in the winner's colour between two dark lines
        edge = max(1, s // 28)
        d.ellipse([1, 1, s - 2, s - 2], fill=(*INK, 255))
        d.ellipse([1 + edge, 1 + edge, s - 2 - edge, s - 2 - edge], fill=(*ring_colour, 255))
        inner = edge + round(ring * 1.4)
        d.ellipse([inner, inner, s - 1 - inner, s - 1 - inner], fill=(255, 255, 255, 255), outline=(*INK, 255),
                  width=edge)
    w = max(2, s // 16)
    for mirror in (False, True):
        def p(x: float, y: float, m: bool = mirror) -> Point:
            return ((1 - x) * s if m else x * s, y * s)
        blade = [p(0.3, 0.72), p(0.45, 0.52), p(0.58, 0.37), p(0.72, 0.26)]
        d.line(blade, fill=INK, width=w, joint="curve")
        d.line([p(0.22, 0.64), p(0.36, 0.79)], fill=INK, width=w)  # guard
        d.line([p(0.3, 0.72), p(0.23, 0.8)], fill=INK, width=int(w * 1.4))  # grip
    return im.reduce(SS)


def order_kind(order: str) -> str:
    return order.strip().lower().replace(" ", "_").replace("-", "_")


ORDER_LABELS = {"forced_march": "Forced march", "explore": "Explore", "defend": "Defend"}
"""The orders with a mark of their own, in the legend's order (the legend says them in the reader's words)."""
REACTION_LETTERS = {"confused": "C", "unsteady": "U", "routed": "R"}


def draw_order(d: ImageDraw.ImageDraw, order: str, box: Box, colour: RGB, *, min_px: int = 6) -> None:
    """The mark of an order inside ``box``: ›› forced march, an eye for explore, a shield for defend."""
    x0, y0, x1, y1 = box
    s = min(x1 - x0, y1 - y0)
    cx, cy = (x0 + x1) / 2, (y0 + y1) / 2
    w = max(1, round(s / 6))
    kind = order_kind(order)
    if kind == "forced_march":
        for off in (-0.22, 0.18):
            ax = cx + off * s
            d.line([(ax - 0.16 * s, cy - 0.34 * s), (ax + 0.14 * s, cy), (ax - 0.16 * s, cy + 0.34 * s)],
                   fill=colour, width=w, joint="curve")
    elif kind == "explore":
        r = s * 0.48
        lens = [(cx + r * math.cos(math.pi * i / 8), cy - r * 0.62 * math.sin(math.pi * i / 8)) for i in range(17)]
        lens += [(cx + r * math.cos(math.pi * i / 8), cy + r * 0.62 * math.sin(math.pi * i / 8)) for i in range(15, 0, -1)]
        d.line([*lens, lens[0]], fill=colour, width=w, joint="curve")
        rp = s * 0.2
        d.ellipse([cx - rp, cy - rp, cx + rp, cy + rp], fill=colour)
    elif kind == "defend":
        hw, top, bot = s * 0.34, cy - s * 0.4, cy + s * 0.42
        d.polygon([(cx - hw, top), (cx + hw, top), (cx + hw, cy + s * 0.05), (cx, bot), (cx - hw, cy + s * 0.05)],
                  fill=colour)
    else:
        px = max(min_px, round(s * 0.8))
        d.text((cx, cy), fonts.drawable(order.strip()[:2].title()), font=fonts.font(px), fill=colour, anchor="mm")


def draw_reaction(d: ImageDraw.ImageDraw, reaction: str, box: Box, *, min_px: int = 6) -> None:
    """A warning triangle with the reaction's letter; the worse the reaction, the darker."""
    x0, y0, x1, y1 = box
    kind = order_kind(reaction)
    fill, text = {"confused": (WARNING, INK), "unsteady": (OKABE_ITO["orange"], INK)}.get(kind, (INK, (255, 255, 255)))
    s = min(x1 - x0, y1 - y0)
    cx = (x0 + x1) / 2
    d.polygon([(cx, y0), (cx + s * 0.56, y0 + s), (cx - s * 0.56, y0 + s)], fill=fill,
              outline=INK if fill != INK else (255, 255, 255), width=max(1, round(s / 12)))
    letter = REACTION_LETTERS.get(kind) or fonts.drawable(reaction.strip()[:1].upper() or "?")
    d.text((cx, y0 + s * 0.66), letter, font=fonts.font(max(min_px, round(s * 0.55))), fill=text, anchor="mm")


def _unit(dx: float, dy: float) -> Point:
    n = math.hypot(dx, dy) or 1.0
    return dx / n, dy / n


def draw_river(d: ImageDraw.ImageDraw, lines: Sequence[Sequence[Point]], width: float) -> None:
    """River courses: a pale bank under a blue stream, with rounded joints (banks first, then streams)."""
    _stroke(d, lines, ((RIVER_LIGHT, width * 1.7), (RIVER, width)))


def draw_road(d: ImageDraw.ImageDraw, lines: Sequence[Sequence[Point]], width: float, *, track: bool = False) -> None:
    """Roads: brown on a pale casing; caravan tracks: brown dashes."""
    if track:
        for pts in lines:
            dashed(d, pts, fill=ROAD, width=max(1, round(width * 0.8)), dash=width * 2.2, gap=width * 1.4)
        return
    _stroke(d, lines, ((ROAD_CASING, width * 2.0), (ROAD, width)))


def _stroke(d: ImageDraw.ImageDraw, lines: Sequence[Sequence[Point]], passes: Sequence[tuple[RGB, float]]) -> None:
    for colour, w in passes:
        r = w / 2
        for pts in lines:
            d.line(list(pts), fill=colour, width=max(1, round(w)), joint="curve")
            for x, y in (pts[0], pts[-1]):
                d.ellipse([x - r, y - r, x + r, y + r], fill=colour)


def draw_flow(d: ImageDraw.ImageDraw, at: Point, towards: Point, size: float) -> None:
    """The river's flow: a pale arrowhead on the stream at ``at``, pointing to ``towards``."""
    ux, uy = _unit(towards[0] - at[0], towards[1] - at[1])
    tip = (at[0] + ux * size * 0.5, at[1] + uy * size * 0.5)
    d.polygon(arrowhead(tip, at, size, size * 0.55), fill=(255, 255, 255), outline=RIVER, width=max(1, round(size / 8)))


def draw_bridge(d: ImageDraw.ImageDraw, centre: Point, along: Point, length: float, width: float) -> None:
    """A bridge: a pale deck with two rails whose ends flare outwards, laid ``along`` a direction."""
    ux, uy = _unit(*along)
    vx, vy = -uy, ux
    cx, cy = centre
    hl, hw = length / 2, width / 2
    deck = [(cx - ux * hl + vx * hw, cy - uy * hl + vy * hw), (cx + ux * hl + vx * hw, cy + uy * hl + vy * hw),
            (cx + ux * hl - vx * hw, cy + uy * hl - vy * hw), (cx - ux * hl - vx * hw, cy - uy * hl - vy * hw)]
    d.polygon(deck, fill=ROAD_CASING)
    d.line([(cx - ux * hl, cy - uy * hl), (cx + ux * hl, cy + uy * hl)], fill=ROAD, width=max(1, round(width * 0.4)))
    rail = max(1, round(width / 5))
    flare = width * 0.45
    for side in (1, -1):
        ax, ay = cx - ux * hl + vx * hw * side, cy - uy * hl + vy * hw * side
        bx, by = cx + ux * hl + vx * hw * side, cy + uy * hl + vy * hw * side
        d.line([(ax - ux * flare + vx * flare * side, ay - uy * flare + vy * flare * side), (ax, ay), (bx, by),
                (bx + ux * flare + vx * flare * side, by + uy * flare + vy * flare * side)], fill=INK, width=rail,
               joint="curve")


def draw_rapids(d: ImageDraw.ImageDraw, centre: Point, across: Point, half: float, width: int) -> None:
    """Rapids: a white zigzag across the stream."""
    ux, uy = _unit(*across)
    vx, vy = -uy, ux
    pts = [(centre[0] + ux * (-half + i * half / 2) + vx * half * (0.3 if i % 2 else -0.3),
            centre[1] + uy * (-half + i * half / 2) + vy * half * (0.3 if i % 2 else -0.3)) for i in range(5)]
    d.line(pts, fill=(255, 255, 255), width=width, joint="curve")


def draw_reefs(d: ImageDraw.ImageDraw, x: float, y: float, s: float) -> None:
    """Reefs: small crosses in a sea square whose top-left corner is (x, y)."""
    w = max(1, round(s / 30))
    for fx, fy in ((0.3, 0.3), (0.7, 0.45), (0.4, 0.75)):
        cx, cy, r = x + s * fx, y + s * fy, s * 0.07
        d.line([(cx - r, cy), (cx + r, cy)], fill=INK, width=w)
        d.line([(cx, cy - r), (cx, cy + r)], fill=INK, width=w)
