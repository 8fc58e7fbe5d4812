"""Colours: the map's inks, and side colours that colour-blind readers can tell apart.

Side colours come from the scenario; a side without one gets the next colour of the Okabe-Ito
palette. When two sides' colours would look alike to a reader with protanopia, deuteranopia or
tritanopia (simulated with the Machado 2009 matrices), the later side gets an Okabe-Ito colour
instead. Colour is never the only cue: counters also differ in shape by side (see ``overlay``).
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from typing import NamedTuple

from bot.engine.model import Terrain

from .model import SideStyle

RGB = tuple[int, int, int]

OKABE_ITO: dict[str, RGB] = {
    "blue": (0, 114, 178),
    "vermilion": (213, 94, 0),
    "bluish green": (0, 158, 115),
    "reddish purple": (204, 121, 167),
    "orange": (230, 159, 0),
    "sky blue": (86, 180, 233),
    "yellow": (240, 228, 66),
    "black": (0, 0, 0),
}
SIDE_DEFAULTS: tuple[RGB, ...] = tuple(
    OKABE_ITO[n]
    for n in ("blue", "vermilion", "yellow", "sky blue", "reddish purple", "bluish green", "orange", "black")
)
"""Default side colours, in an order that keeps the first sides far apart for every kind of vision."""

PAPER: RGB = (247, 243, 232)
INK: RGB = (33, 33, 38)
TITLE_BAND: RGB = (38, 44, 58)
TITLE_TEXT: RGB = (250, 247, 238)
TITLE_SUBTEXT: RGB = (200, 206, 218)
RIVER: RGB = (40, 108, 182)
RIVER_LIGHT: RGB = (150, 196, 232)
ROAD: RGB = (122, 70, 38)
ROAD_CASING: RGB = (252, 246, 230)
BATTLE: RGB = OKABE_ITO["vermilion"]
WARNING: RGB = (255, 236, 140)

MIN_DELTA_E = 15.0
"""Two side colours closer than this (CIELAB, under any simulated colour-vision deficiency) clash."""


class TerrainStyle(NamedTuple):
    fill: RGB
    ink: RGB


TERRAIN: dict[Terrain, TerrainStyle] = {
    Terrain.OPEN: TerrainStyle((236, 236, 214), (184, 190, 156)),
    Terrain.CULTIVATED: TerrainStyle((241, 226, 172), (198, 168, 92)),
    Terrain.FOREST: TerrainStyle((184, 212, 162), (58, 110, 58)),
    Terrain.JUNGLE: TerrainStyle((150, 194, 138), (30, 88, 46)),
    Terrain.HILL: TerrainStyle((228, 208, 170), (146, 104, 58)),
    Terrain.MOUNTAIN: TerrainStyle((204, 192, 178), (96, 78, 64)),
    Terrain.SWAMP: TerrainStyle((202, 222, 206), (62, 116, 96)),
    Terrain.DESERT: TerrainStyle((247, 222, 180), (196, 146, 84)),
    Terrain.WASTELAND: TerrainStyle((220, 212, 200), (128, 116, 102)),
    Terrain.SEA: TerrainStyle((150, 190, 226), (80, 132, 190)),
    Terrain.LAKE: TerrainStyle((178, 212, 236), (92, 148, 200)),
}


def hex_to_rgb(text: str) -> RGB:
    return (int(text[1:3], 16), int(text[3:5], 16), int(text[5:7], 16))


def mix(a: RGB, b: RGB, t: float) -> RGB:
    """``a`` moved a fraction ``t`` of the way towards ``b``."""
    return (round(a[0] + (b[0] - a[0]) * t), round(a[1] + (b[1] - a[1]) * t), round(a[2] + (b[2] - a[2]) * t))


def _linear(c: float) -> float:
    c /= 255.0
    return c / 12.92 if c <= 0.04045 else ((c + 0.055) / 1.055) ** 2.4


def luminance(c: RGB) -> float:
    r, g, b = (_linear(v) for v in c)
    return 0.2126 * r + 0.7152 * g + 0.0722 * b


def text_on(c: RGB) -> RGB:
    """Black or white, whichever contrasts more with ``c`` (WCAG contrast ratio)."""
    lum = luminance(c)
    return (0, 0, 0) if (lum + 0.05) / 0.05 >= 1.05 / (lum + 0.05) else (255, 255, 255)


_CVD: dict[str, tuple[tuple[float, float, float], ...]] = {
    "protanopia": ((0.152286, 1.052583, -0.204868), (0.114503, 0.786281, 0.099216), (-0.003882, -0.048116, 1.051998)),
    "deuteranopia": ((0.367322, 0.860646, -0.227968), (0.280085, 0.672501, 0.047413), (-0.011820, 0.042940, 0.968881)),
    "tritanopia": ((1.255528, -0.076749, -0.178779), (-0.078411, 0.930809, 0.147602), (0.004733, 0.691367, 0.303900)),
}


def _lab(lin: tuple[float, float, float]) -> tuple[float, float, float]:
    r, g, b = (min(1.0, max(0.0, v)) for v in lin)
    x = (0.4124 * r + 0.3576 * g + 0.1805 * b) / 0.95047
    y = 0.2126 * r + 0.7152 * g + 0.0722 * b
    z = (0.0193 * r + 0.1192 * g + 0.9505 * b) / 1.08883

    def f(t: float) -> float:
        return t ** (1 / 3) if t > 0.008856 else 7.787 * t + 16 / 116

    fx, fy, fz = f(x), f(y), f(z)
    return (116 * fy - 16, 500 * (fx - fy), 200 * (fy - fz))


def _views(c: RGB) -> list[tuple[float, float, float]]:
    lin = tuple(_linear(v) for v in c)
    out = [_lab(lin)]  # type: ignore[arg-type]
    for m in _CVD.values():
        out.append(_lab(tuple(sum(m[i][j] * lin[j] for j in range(3)) for i in range(3))))  # type: ignore[arg-type]
    return out


def cvd_distance(a: RGB, b: RGB) -> float:
    """The smallest CIELAB distance between ``a`` and ``b`` for normal and colour-blind vision."""
    return min(
        sum((p - q) ** 2 for p, q in zip(la, lb, strict=True)) ** 0.5
        for la, lb in zip(_views(a), _views(b), strict=True)
    )


def side_colours(sides: Iterable[SideStyle]) -> dict[str, RGB]:
    """Each side's colour, replacing one that clashes with an earlier side's (see module doc)."""
    chosen: dict[str, RGB] = {}
    spare = list(SIDE_DEFAULTS)
    for side in sides:
        wanted = hex_to_rgb(side.colour) if side.colour else None
        if wanted is None or any(cvd_distance(wanted, c) < MIN_DELTA_E for c in chosen.values()):
            wanted = _pick(spare, chosen.values()) if spare else (wanted or SIDE_DEFAULTS[len(chosen) % 8])
        if wanted in spare:
            spare.remove(wanted)
        chosen[side.key] = wanted
    return chosen


def _pick(spare: list[RGB], used: Iterable[RGB]) -> RGB:
    used = list(used)
    return max(spare, key=lambda c: (min((cvd_distance(c, u) for u in used), default=999.0) >= MIN_DELTA_E, -spare.index(c)))


def colour_key(colours: Mapping[str, RGB]) -> tuple[tuple[str, RGB], ...]:
    return tuple(sorted(colours.items()))
