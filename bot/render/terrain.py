"""The terrain layer: everything that depends only on the map, drawn once and cached.

A panel holds the squares of one window (terrain, grid, borders, rivers, roads, bridges,
strongholds) and the coordinate margins around them. It is drawn at twice its size and shrunk,
which smooths every line, then the coordinates are lettered at full size. Panels are cached by the
map's fingerprint, the window, the square size and the side colours (borders and forts use them).
"""

from __future__ import annotations

import math
from collections.abc import Iterable, Mapping

from PIL import Image, ImageDraw

from bot.engine.grid import COMPASS, CampaignMap
from bot.engine.model import Cell, Feature, Square

from . import fonts, symbols
from .cache import CacheInfo, LayerCache, map_fingerprint
from .layout import Layout, Window
from .palette import INK, PAPER, RGB, TERRAIN, colour_key, mix
from .textures import MIN_TEXTURE, paint_square, seed_of

SS = 2
"""Supersampling of the terrain layer."""
CACHE_SIZE = 32
CACHE_BYTES = 128 * 1024 * 1024
"""At most this much image memory in cached layers (a 60x40 map's layer takes about 13 MB, a crop 1-3 MB)."""
SQUARE_NAMES_FROM = 60
"""Squares at least this many pixels wide carry their name (``D4``) at the top."""
NEUTRAL: RGB = (150, 150, 150)

_OPEN = Cell()
_AROUND = ((0, 1), (0, -1), (1, 0), (-1, 0), (1, 1), (1, -1), (-1, 1), (-1, -1))
_cache: LayerCache[Image.Image] = LayerCache(CACHE_SIZE, weigh=lambda im: im.width * im.height * 3,
                                             max_weight=CACHE_BYTES)

Link = tuple[Square, Square]
Pt = tuple[float, float]


def terrain_layer(cmap: CampaignMap, layout: Layout, colours: Mapping[str, RGB]) -> Image.Image:
    """The cached panel for this map and layout. Shared between threads: never draw on it, copy it."""
    key = (map_fingerprint(cmap), layout.cell, layout.window, layout.margin, layout.coord_px, layout.min_px,
           colour_key(colours))
    return _cache.get(key, lambda: build_panel(cmap, layout, colours))


def cache_info() -> CacheInfo:
    return _cache.info()


def clear_cache() -> None:
    _cache.clear()


def build_panel(cmap: CampaignMap, layout: Layout, colours: Mapping[str, RGB]) -> Image.Image:
    win, c, m = layout.window, layout.cell, layout.margin
    s = c * SS
    grid = Image.new("RGB", (win.cols * s, win.rows * s), PAPER)
    d = ImageDraw.Draw(grid, "RGBA")
    painter = _Painter(cmap, win, s, d, colours)
    painter.terrain(texture=c >= MIN_TEXTURE)
    painter.grid_lines()
    painter.borders()
    painter.rivers()
    painter.roads()
    painter.crossings()
    painter.forts()

    panel = Image.new("RGB", layout.panel_size, PAPER)
    panel.paste(grid.reduce(SS), (m, m))
    pd = ImageDraw.Draw(panel)
    gw, gh = win.cols * c, win.rows * c
    pd.rectangle([m - 2, m - 2, m + gw + 1, m + gh + 1], outline=INK, width=2)
    f = fonts.font(layout.coord_px)
    for i in range(win.cols):
        letters = Square(win.col0 + i, 0).name[:-1]
        x = m + (i + 0.5) * c
        pd.text((x, m / 2 - 1), letters, font=f, fill=INK, anchor="mm")
        pd.text((x, m + gh + m / 2), letters, font=f, fill=INK, anchor="mm")
    for j in range(win.rows):
        y = m + (j + 0.5) * c
        pd.text((m / 2, y), str(win.row0 + j + 1), font=f, fill=INK, anchor="mm")
        pd.text((m + gw + m / 2, y), str(win.row0 + j + 1), font=f, fill=INK, anchor="mm")
    if c >= SQUARE_NAMES_FROM:
        nf = fonts.font(max(9, layout.min_px, round(c * 0.14)))
        for sq in _squares(win):
            fill = mix(TERRAIN[(cmap.cells.get(sq) or _OPEN).terrain].fill, INK, 0.5)
            pd.text((m + (sq.col - win.col0 + 0.5) * c, m + (sq.row - win.row0) * c + c * 0.13), sq.name, font=nf,
                    fill=fill, anchor="mm")
    return panel


def _squares(win: Window, grow: int = 0) -> Iterable[Square]:
    for row in range(max(0, win.row0 - grow), win.row0 + win.rows + grow):
        for col in range(max(0, win.col0 - grow), win.col0 + win.cols + grow):
            yield Square(col, row)


def _unit(dx: float, dy: float) -> Pt:
    n = math.hypot(dx, dy) or 1.0
    return dx / n, dy / n


class _Painter:
    """Draws one window of the map on a supersampled image (pixel ``s`` per square)."""

    def __init__(self, cmap: CampaignMap, win: Window, s: int, d: ImageDraw.ImageDraw,
                 colours: Mapping[str, RGB]) -> None:
        self.cmap, self.win, self.s, self.d, self.colours = cmap, win, s, d, colours
        self.cells = cmap.cells

    def cell(self, col: int, row: int) -> Cell | None:
        """The cell at (col, row), open ground if unlisted, ``None`` off the map."""
        if 0 <= col < self.cmap.width and 0 <= row < self.cmap.height:
            return self.cells.get(Square(col, row)) or _OPEN
        return None

    def origin(self, sq: Square) -> Pt:
        return (sq.col - self.win.col0) * self.s, (sq.row - self.win.row0) * self.s

    def centre(self, sq: Square) -> Pt:
        x, y = self.origin(sq)
        return x + self.s / 2, y + self.s / 2

    def terrain(self, *, texture: bool) -> None:
        for sq in _squares(self.win):
            x, y = self.origin(sq)
            paint_square(self.d, (self.cells.get(sq) or _OPEN).terrain, x, y, self.s, seed_of(sq.col, sq.row),
                         texture=texture)

    def grid_lines(self) -> None:
        w, h, s = self.win.cols * self.s, self.win.rows * self.s, self.s
        ink = (*INK, 46)
        for i in range(1, self.win.cols):
            self.d.rectangle([i * s, 0, i * s + SS - 1, h], fill=ink)
        for j in range(1, self.win.rows):
            self.d.rectangle([0, j * s, w, j * s + SS - 1], fill=ink)

    def borders(self) -> None:
        """A band in the owner's colour inside each square along an edge where the territory changes."""
        s, d = self.s, self.d
        band = max(2 * SS, round(s * 0.085))
        line = max(SS, round(s / 60))
        for sq in _squares(self.win):
            here = self.cells.get(sq) or _OPEN
            own = here.territory
            x0, y0 = self.origin(sq)
            x1, y1 = x0 + s, y0 + s
            colour = self.colours.get(own, NEUTRAL) if own else NEUTRAL
            edges = {
                (0, -1): ([x0, y0, x1, y0 + band], [(x0, y0), (x1, y0)]),
                (0, 1): ([x0, y1 - band, x1, y1], [(x0, y1), (x1, y1)]),
                (-1, 0): ([x0, y0, x0 + band, y1], [(x0, y0), (x0, y1)]),
                (1, 0): ([x1 - band, y0, x1, y1], [(x1, y0), (x1, y1)]),
            }
            for (dc, dr), (rect, edge) in edges.items():
                if not self._border(here, sq, dc, dr):
                    continue
                if own:
                    d.rectangle(rect, fill=colour)
                d.line(edge, fill=INK, width=line)
            if own:
                for dc, dr in ((-1, -1), (1, -1), (-1, 1), (1, 1)):
                    if (self._border(here, sq, dc, dr) and not self._border(here, sq, dc, 0)
                            and not self._border(here, sq, 0, dr)):
                        cx = x0 if dc < 0 else x1 - band
                        cy = y0 if dr < 0 else y1 - band
                        d.rectangle([cx, cy, cx + band, cy + band], fill=colour)

    def _border(self, here: Cell, sq: Square, dc: int, dr: int) -> bool:
        """Whether a border runs from ``sq`` towards (dc, dr): the owners differ, and it is neither the
        map's edge nor a coast (water belongs to nobody)."""
        nb = self.cell(sq.col + dc, sq.row + dr)
        return not (nb is None or nb.territory == here.territory or _unowned_water(nb) or _unowned_water(here))

    def _network(self, feature: Feature) -> tuple[set[Square], list[Link]]:
        squares = {sq for sq, cell in self.cells.items() if feature in cell.features}
        near = Window(self.win.col0 - 1, self.win.row0 - 1, self.win.cols + 2, self.win.rows + 2)
        links: list[Link] = []
        for a in squares:
            if not near.contains(a):
                continue
            for dc, dr in ((1, 0), (0, 1), (1, 1), (-1, 1)):
                if a.col + dc < 0:
                    continue
                b = Square(a.col + dc, a.row + dr)
                if b not in squares:
                    continue
                if dc and dr and (Square(a.col + dc, a.row) in squares or Square(a.col, a.row + dr) in squares):
                    continue  # a diagonal step beside an orthogonal pair would draw a triangle
                links.append((a, b))
        return squares, links

    def _ends(self, squares: set[Square], links: list[Link], *, into_water: bool) -> list[list[Pt]]:
        """Stubs at dead ends: on to the map's edge when the course runs off it, into a lake or the sea
        beside a river's end; a lone square gets a short stroke along its flow."""
        nbrs: dict[Square, list[Square]] = {}
        for a, b in links:
            nbrs.setdefault(a, []).append(b)
            nbrs.setdefault(b, []).append(a)
        half = self.s / 2
        stubs: list[list[Pt]] = []
        for sq in squares:
            nbs = nbrs.get(sq, [])
            if not self.win.contains(sq) or len(nbs) > 1:
                continue
            cx, cy = self.centre(sq)
            if not nbs:
                flow = self.cells[sq].river_flow
                dx, dy = COMPASS[flow] if flow else (1, 0)
                stubs.append([(cx - dx * half, cy - dy * half), (cx + dx * half, cy + dy * half)])
                continue
            straight = (sq.col - nbs[0].col, sq.row - nbs[0].row)
            ways = [straight] + ([w for w in _AROUND if w != straight] if into_water else [])
            for k, (dx, dy) in enumerate(ways):
                nb = self.cell(sq.col + dx, sq.row + dy)
                if (nb is None and k == 0) or (into_water and nb is not None and nb.terrain.is_water):
                    reach = half if nb is None else self.s * 0.65
                    stubs.append([(cx, cy), (cx + dx * reach, cy + dy * reach)])
                    break
        return stubs

    def rivers(self) -> None:
        squares, links = self._network(Feature.RIVER)
        if not squares:
            return
        lines = [[self.centre(a), self.centre(b)] for a, b in links] + self._ends(squares, links, into_water=True)
        symbols.draw_river(self.d, lines, self.s * 0.1)
        for sq in self._flow_marks(squares):
            dx, dy = COMPASS[self.cells[sq].river_flow or "S"]
            towards = [b if a == sq else a for a, b in links if sq in (a, b)]
            best = max(towards, key=lambda n: (n.col - sq.col) * dx + (n.row - sq.row) * dy, default=None)
            cx, cy = self.centre(sq)
            if best is not None and (best.col - sq.col) * dx + (best.row - sq.row) * dy > 0:
                bx, by = self.centre(best)
            elif self.cell(sq.col + dx, sq.row + dy) is None:
                bx, by = cx + dx * self.s, cy + dy * self.s
            else:
                continue
            symbols.draw_flow(self.d, ((cx + bx) / 2, (cy + by) / 2), (bx, by), self.s * 0.2)

    def _flow_marks(self, squares: set[Square]) -> list[Square]:
        """River squares that carry a flow arrow: every third or so, the same ones in any window."""
        chosen: list[Square] = []
        for sq in sorted((q for q in squares if self.cells[q].river_flow), key=lambda q: (q.row, q.col)):
            if all(max(abs(sq.col - o.col), abs(sq.row - o.row)) >= 3 for o in chosen):
                chosen.append(sq)
        return [sq for sq in chosen if self.win.contains(sq)]

    def roads(self) -> None:
        for feature, track in ((Feature.CARAVAN_TRACK, True), (Feature.ROAD, False)):
            squares, links = self._network(feature)
            if squares:
                lines = [[self.centre(a), self.centre(b)] for a, b in links]
                lines += self._ends(squares, links, into_water=False)
                symbols.draw_road(self.d, lines, self.s * 0.05, track=track)

    def crossings(self) -> None:
        s = self.s
        roads = {sq for sq, cell in self.cells.items() if cell.has(Feature.ROAD) or cell.has(Feature.CARAVAN_TRACK)}
        rivers = {sq for sq, cell in self.cells.items() if cell.has(Feature.RIVER)}
        for sq in _squares(self.win):
            cell = self.cells.get(sq)
            if cell is None:
                continue
            x0, y0 = self.origin(sq)
            centre = self.centre(sq)
            if cell.has(Feature.BRIDGE):
                along = _direction(sq, roads) or _perpendicular(_direction(sq, rivers)) or (1.0, 0.0)
                symbols.draw_bridge(self.d, centre, along, s * 0.52, s * 0.2)
            if cell.has(Feature.RAPIDS):
                across = _perpendicular(_direction(sq, rivers)) or (1.0, 0.0)
                symbols.draw_rapids(self.d, centre, across, s * 0.14, max(SS, round(s / 40)))
            if cell.has(Feature.REEFS):
                symbols.draw_reefs(self.d, x0, y0, s)

    def forts(self) -> None:
        s = self.s
        for sq in _squares(self.win):
            cell = self.cells.get(sq)
            if cell is None or cell.stronghold is None:
                continue
            x0, y0 = self.origin(sq)
            r = s * (0.17 if cell.capital else 0.15)
            symbols.draw_fort(self.d, x0 + s * 0.2, y0 + s * 0.2, r, self.colours.get(cell.stronghold, NEUTRAL),
                              capital=cell.capital, width=max(SS, round(s * 0.025)))


def _unowned_water(cell: Cell) -> bool:
    return cell.territory is None and cell.terrain.is_water


def _direction(sq: Square, network: set[Square]) -> Pt | None:
    """The mean direction of ``network`` through ``sq`` (from the first neighbour to the last)."""
    nbs = [Square(sq.col + dc, sq.row + dr) for dc, dr in ((-1, 0), (0, -1), (1, 0), (0, 1), (-1, -1), (1, -1),
                                                           (-1, 1), (1, 1))
           if sq.col + dc >= 0 and sq.row + dr >= 0]
    found = [n for n in nbs if n in network]
    if not found:
        return None
    if len(found) == 1:
        return _unit(found[0].col - sq.col, found[0].row - sq.row)
    a, b = found[0], found[1]
    return _unit(b.col - a.col, b.row - a.row)


def _perpendicular(v: Pt | None) -> Pt | None:
    return None if v is None else (-v[1], v[0])
