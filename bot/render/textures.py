"""Terrain as colour and texture: each terrain has its own fill and its own marks.

Painters draw one square at any scale (the terrain layer draws at twice the final size and
shrinks, which smooths every line). Marks are placed with a jitter derived from the square, not
from a random source, so a map always looks the same.
"""

from __future__ import annotations

from collections.abc import Callable

from PIL import ImageDraw

from bot.engine.model import Terrain

from .palette import RGB, TERRAIN, mix

Painter = Callable[[ImageDraw.ImageDraw, float, float, float, int, RGB, RGB], None]
"""(draw, x0, y0, size, seed, fill, ink): texture one square whose top-left corner is (x0, y0)."""


def seed_of(col: int, row: int) -> int:
    return ((col * 2654435761) ^ (row * 40503 + 0x9E3779B9)) & 0xFFFFFFFF


def _jit(seed: int, k: int) -> float:
    """A fixed offset in -0.5..0.5 for mark ``k`` of a square."""
    return (((seed >> (3 * k % 29)) ^ (seed >> 17)) & 15) / 15 - 0.5


def _lw(s: float, f: float = 1.0) -> int:
    return max(1, round(s / 40 * f))


def _open(d: ImageDraw.ImageDraw, x: float, y: float, s: float, seed: int, fill: RGB, ink: RGB) -> None:
    cx, cy = x + s * (0.3 + 0.4 * (_jit(seed, 1) + 0.5)), y + s * (0.55 + 0.3 * (_jit(seed, 2) + 0.5))
    h, w = s * 0.07, _lw(s, 0.8)
    for dx, tilt in ((-0.05, -0.03), (0.0, 0.0), (0.05, 0.03)):
        d.line([(cx + dx * s, cy), (cx + (dx + tilt) * s, cy - h * (1.4 if dx == 0 else 1))], fill=ink, width=w)


def _cultivated(d: ImageDraw.ImageDraw, x: float, y: float, s: float, seed: int, fill: RGB, ink: RGB) -> None:
    step = s / 5
    w = _lw(s, 0.9)
    t = step - ((x + y) % step)  # furrows line up across neighbouring fields
    while t < 2 * s:
        a = (x + max(0.0, t - s), y + min(t, s))
        b = (x + min(t, s), y + max(0.0, t - s))
        d.line([a, b], fill=ink, width=w)
        t += step


def _trees(spots: tuple[tuple[float, float], ...], r: float) -> Painter:
    def paint(d: ImageDraw.ImageDraw, x: float, y: float, s: float, seed: int, fill: RGB, ink: RGB) -> None:
        crown = mix(fill, ink, 0.45)
        for k, (fx, fy) in enumerate(spots):
            cx = x + s * (fx + 0.07 * _jit(seed, 2 * k))
            cy = y + s * (fy + 0.07 * _jit(seed, 2 * k + 1))
            rr = s * r
            d.line([(cx, cy), (cx, cy + rr * 1.7)], fill=ink, width=_lw(s, 1.2))
            d.ellipse([cx - rr, cy - rr, cx + rr, cy + rr], fill=crown, outline=ink, width=_lw(s))
    return paint


def _hill(d: ImageDraw.ImageDraw, x: float, y: float, s: float, seed: int, fill: RGB, ink: RGB) -> None:
    for k, (fx, fy, fw) in enumerate(((0.3, 0.42, 0.42), (0.68, 0.74, 0.44))):
        cx, cy, hw = x + s * (fx + 0.05 * _jit(seed, k)), y + s * fy, s * fw / 2
        d.chord([cx - hw, cy - hw * 0.75, cx + hw, cy + hw * 0.75], 180, 360, fill=mix(fill, ink, 0.18))
        d.arc([cx - hw, cy - hw * 0.75, cx + hw, cy + hw * 0.75], 180, 360, fill=ink, width=_lw(s, 1.5))


def _mountain(d: ImageDraw.ImageDraw, x: float, y: float, s: float, seed: int, fill: RGB, ink: RGB) -> None:
    for k, (ax, ay, half, base) in enumerate(((0.34, 0.2, 0.25, 0.64), (0.68, 0.42, 0.24, 0.9))):
        ax = x + s * (ax + 0.04 * _jit(seed, k))
        ay, half, base = y + s * ay, s * half, y + s * base
        d.polygon([(ax, ay), (ax + half, base), (ax - half, base)], fill=mix(fill, ink, 0.22))
        d.polygon([(ax, ay), (ax + half, base), (ax + half * 0.15, base)], fill=mix(fill, ink, 0.45))
        cap = 0.3
        d.polygon([(ax, ay), (ax + half * cap, ay + (base - ay) * cap), (ax, ay + (base - ay) * cap * 0.75),
                   (ax - half * cap, ay + (base - ay) * cap)], fill=(250, 250, 250))
        d.line([(ax - half, base), (ax, ay), (ax + half, base)], fill=ink, width=_lw(s, 1.4), joint="curve")


def _swamp(d: ImageDraw.ImageDraw, x: float, y: float, s: float, seed: int, fill: RGB, ink: RGB) -> None:
    w = _lw(s, 1.1)
    water = (70, 130, 190)
    for k, (fx, fy) in enumerate(((0.28, 0.42), (0.7, 0.5), (0.45, 0.82))):
        cx, cy, hw = x + s * (fx + 0.05 * _jit(seed, k)), y + s * fy, s * 0.14
        d.line([(cx - hw, cy), (cx + hw, cy)], fill=water, width=w)
        for dx, h in ((-0.5, 0.09), (0.0, 0.14), (0.5, 0.09)):
            d.line([(cx + dx * hw, cy), (cx + dx * hw * 1.3, cy - s * h)], fill=ink, width=w)


def _desert(d: ImageDraw.ImageDraw, x: float, y: float, s: float, seed: int, fill: RGB, ink: RGB) -> None:
    r = max(1.0, s * 0.02)
    for i in range(3):
        for j in range(3):
            k = i * 3 + j
            cx = x + s * ((j + 0.5 + 0.5 * _jit(seed, k)) / 3)
            cy = y + s * ((i + 0.5 + 0.5 * _jit(seed, k + 9)) / 3)
            d.ellipse([cx - r, cy - r, cx + r, cy + r], fill=ink)


def _wasteland(d: ImageDraw.ImageDraw, x: float, y: float, s: float, seed: int, fill: RGB, ink: RGB) -> None:
    w = _lw(s)
    for k, (fx, fy) in enumerate(((0.25, 0.3), (0.72, 0.38), (0.4, 0.7), (0.8, 0.8))):
        cx, cy, r = x + s * (fx + 0.08 * _jit(seed, k)), y + s * (fy + 0.08 * _jit(seed, k + 4)), s * 0.045
        if k % 2:
            d.line([(cx - r, cy - r), (cx + r, cy + r)], fill=ink, width=w)
            d.line([(cx - r, cy + r), (cx + r, cy - r)], fill=ink, width=w)
        else:
            d.ellipse([cx - r, cy - r * 0.7, cx + r, cy + r * 0.7], outline=ink, width=w)


def _waves(rows: tuple[float, ...], span: float) -> Painter:
    def paint(d: ImageDraw.ImageDraw, x: float, y: float, s: float, seed: int, fill: RGB, ink: RGB) -> None:
        wv = s / 6
        for k, fy in enumerate(rows):
            cy = y + s * fy
            start = x + s * (1 - span) / 2 + (wv / 2 if k % 2 else 0)
            for n in range(int(span * 6) - (k % 2)):
                bx = start + n * wv
                d.arc([bx, cy - wv * 0.35, bx + wv, cy + wv * 0.35], 200, 340, fill=ink, width=_lw(s, 1.1))
    return paint


PAINTERS: dict[Terrain, Painter] = {
    Terrain.OPEN: _open,
    Terrain.CULTIVATED: _cultivated,
    Terrain.FOREST: _trees(((0.24, 0.3), (0.62, 0.24), (0.42, 0.62), (0.8, 0.6)), 0.1),
    Terrain.JUNGLE: _trees(((0.2, 0.22), (0.5, 0.18), (0.8, 0.24), (0.32, 0.52), (0.66, 0.5), (0.2, 0.8),
                            (0.5, 0.78), (0.82, 0.78)), 0.085),
    Terrain.HILL: _hill,
    Terrain.MOUNTAIN: _mountain,
    Terrain.SWAMP: _swamp,
    Terrain.DESERT: _desert,
    Terrain.WASTELAND: _wasteland,
    Terrain.SEA: _waves((0.25, 0.5, 0.75), 1.0),
    Terrain.LAKE: _waves((0.35, 0.65), 0.84),
}

MIN_TEXTURE = 14
"""Squares smaller than this (in final pixels) get their colour only."""


def paint_square(d: ImageDraw.ImageDraw, terrain: Terrain, x: float, y: float, s: float, seed: int,
                 *, texture: bool = True) -> None:
    """Fill and texture one square of ``terrain`` at (x, y), ``s`` pixels wide."""
    style = TERRAIN[terrain]
    d.rectangle([x, y, x + s, y + s], fill=style.fill)
    if texture:
        PAINTERS[terrain](d, x, y, s, seed, style.fill, style.ink)
