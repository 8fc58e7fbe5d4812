"""Map furniture: the title band above the map and the legend below it.

The legend lists what this picture shows (the sides, the terrain in view, the features in view,
the marks used), each with a drawn sample, grouped under short headings and wrapped to the width.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from functools import lru_cache

from PIL import Image, ImageDraw

from bot.engine.model import Feature, Square, Terrain
from bot.engine.text import Msg

from . import fonts, symbols
from .model import MapSnapshot
from .palette import INK, PAPER, RGB, TERRAIN, TITLE_BAND, TITLE_SUBTEXT, TITLE_TEXT, mix, text_on
from .textures import paint_square
from .veil import veil
from .words import date, say, word

GROUPS = ("Sides", "Terrain", "Map", "Marks")
HEADINGS = {"Sides": Msg("Sides"), "Terrain": Msg("Terrain"), "Map": Msg("Map"), "Marks": Msg("Marks")}
"""The legend's group headings (said in the reader's language)."""


@dataclass(frozen=True, slots=True)
class LegendEntry:
    group: str
    kind: str
    label: str
    key: str = ""
    """The side, terrain, order or reaction this entry is about."""
    heading: str = ""
    """The group's heading in the reader's language (the group's English name when empty)."""


def legend_entries(snapshot: MapSnapshot, col0: int, row0: int, cols: int, rows: int) -> tuple[LegendEntry, ...]:
    """What the legend explains for the squares (col0, row0) to (col0 + cols, row0 + rows), in the
    snapshot's language."""
    cmap = snapshot.cmap
    out = [("Sides", "side", s.name, s.key) for s in snapshot.sides]
    terrains: set[Terrain] = set()
    features: set[Feature] = set()
    borders = strongholds = capitals = False
    listed = 0
    for sq, cell in cmap.cells.items():
        if col0 <= sq.col < col0 + cols and row0 <= sq.row < row0 + rows:
            listed += 1
            terrains.add(cell.terrain)
            features |= cell.features
            borders = borders or cell.territory is not None
            strongholds = strongholds or (cell.stronghold is not None and not cell.capital)
            capitals = capitals or cell.capital
    if listed < cols * rows:
        terrains.add(Terrain.OPEN)
    out += [("Terrain", "terrain", word(snapshot, t.label), t.value) for t in Terrain if t in terrains]
    for present, kind, label in (
        (Feature.RIVER in features, "river", Msg("River, flowing")), (Feature.ROAD in features, "road", "road"),
        (Feature.CARAVAN_TRACK in features, "track", "caravan track"), (Feature.BRIDGE in features, "bridge", "bridge"),
        (Feature.RAPIDS in features, "rapids", "rapids"), (Feature.REEFS in features, "reefs", "reefs"),
        (borders, "border", Msg("Border")), (strongholds, "stronghold", Msg("Stronghold")),
        (capitals, "capital", Msg("Capital")),
    ):
        if present:
            out.append(("Map", kind, word(snapshot, label), ""))

    def inside(sq: Square) -> bool:
        return col0 <= sq.col < col0 + cols and row0 <= sq.row < row0 + rows

    counters = [c for c in snapshot.counters if inside(c.square)]
    moves = [a for a in snapshot.moves if any(inside(sq) for sq in (a.start, *a.path))]
    orders = {symbols.order_kind(c.order): c.order for c in counters if c.order}
    reactions = {symbols.order_kind(c.reaction): c.reaction for c in counters if c.reaction}
    shown_battles = [sq for sq in snapshot.battles if inside(sq)]
    results = [r for r in snapshot.results if r.square in shown_battles]
    winners = list(dict.fromkeys(r.winner for r in results if r.winner is not None))
    names = {sd.key: sd.name for sd in snapshot.sides}
    marks = [
        (bool(moves), "move", Msg("Move this turn"), ""),
        (any(snapshot.result(sq) is None for sq in shown_battles), "battle", Msg("Battle"), ""),
        *((True, "won", Msg("Battle won by {side}", side=names[k]), k) for k in winners),
        (any(r.winner is None for r in results), "drawn", Msg("Battle fought to a draw"), ""),
        (any(any(inside(sq) for sq in (a.start, *a.path)) for a in snapshot.retreats), "retreat", Msg("Retreat"), ""),
        (any(c.faded for c in counters), "faded", Msg("Last seen"), ""),
        (any(c.sp is None for c in counters), "unknown", Msg("Strength unknown"), ""),
        (snapshot.visible is not None and any(inside(Square(col, row)) and Square(col, row) not in snapshot.visible
                                              for col in range(col0, min(col0 + cols, cmap.width))
                                              for row in range(row0, min(row0 + rows, cmap.height))),
         "fog", Msg("Out of sight"), ""),
    ]
    marks += [(True, "order", _mark(snapshot, k, v, symbols.ORDER_LABELS), v)
              for k, v in sorted(orders.items(), key=lambda kv: _rank(kv[0], symbols.ORDER_LABELS))]
    marks += [(True, "reaction", _mark(snapshot, k, v, symbols.REACTION_LETTERS), v)
              for k, v in sorted(reactions.items(), key=lambda kv: _rank(kv[0], symbols.REACTION_LETTERS))]
    out += [("Marks", kind, say(snapshot, label), key) for present, kind, label, key in marks if present]
    headings = {g: say(snapshot, HEADINGS[g]) for g in GROUPS}
    return tuple(LegendEntry(group, kind, label, key, headings[group]) for group, kind, label, key in out)


def _mark(snapshot: MapSnapshot, kind: str, text: str, known: Mapping[str, str]) -> str:
    """The label of an order or a reaction: a known one in the reader's words (``forced march`` ->
    ``Forced march``, ``Marce Forzate``), free text as written."""
    if kind in known:
        return word(snapshot, kind.replace("_", " "))
    return fonts.drawable(text.strip().title())


def _rank(kind: str, known: Mapping[str, str]) -> tuple[int, str]:
    keys = list(known)
    return (keys.index(kind) if kind in keys else len(keys), kind)


def _metrics(px: int) -> tuple[int, int, int, int]:
    """(swatch size, row height, gap after a swatch, space between entries)."""
    sw = round(px * 1.45)
    return sw, round(sw + px * 0.45), max(4, round(px * 0.4)), round(px * 1.1)


def _flow(entries: Sequence[LegendEntry], width: int, px: int) -> tuple[list[tuple[str, int, int]],
                                                                       list[tuple[LegendEntry, int, int]], int]:
    sw, row_h, gap, space = _metrics(px)
    groups = [g for g in GROUPS if any(e.group == g for e in entries)]
    titles = {e.group: fonts.drawable(e.heading or e.group) for e in entries}
    heading_w = max((fonts.width(titles[g], px) for g in groups), default=0) + px
    headings, placed, y = [], [], round(px * 0.7)
    for g in groups:
        headings.append((titles[g], 0, y))
        x = heading_w
        for e in (e for e in entries if e.group == g):
            w = sw + gap + fonts.width(fonts.drawable(e.label), px)
            if x + w > width and x > heading_w:
                x, y = heading_w, y + row_h
            placed.append((e, round(x), y))
            x += w + space
        y += row_h
    return headings, placed, y


def legend_height(entries: Sequence[LegendEntry], width: int, px: int) -> int:
    return _flow(entries, width, px)[2] if entries else 0


def draw_legend(canvas: Image.Image, d: ImageDraw.ImageDraw, entries: Sequence[LegendEntry], *, x: int, y: int,
                width: int, px: int, colours: Mapping[str, RGB], side_order: Sequence[str], min_px: int = 0) -> None:
    if not entries:
        return
    d.line([(x, y), (x + width, y)], fill=mix(PAPER, INK, 0.35), width=1)
    headings, placed, _ = _flow(entries, width, px)
    sw, _, gap, _ = _metrics(px)
    f = fonts.font(px)
    for g, hx, hy in headings:
        d.text((x + hx, y + hy + sw / 2), g, font=f, fill=INK, anchor="lm", stroke_width=max(1, px // 24),
               stroke_fill=INK)
    first_two = tuple(colours[k] for k in side_order[:2])
    for e, ex, ey in placed:
        shape = symbols.shape_of(side_order.index(e.key)) if e.kind == "side" else ""
        colour = colours.get(e.key, (150, 150, 150)) if e.kind in ("side", "won") else (0, 0, 0)
        tile = _swatch(e.kind, e.key, sw, colour, shape, first_two, min_px)
        canvas.paste(tile, (x + ex, y + ey), tile)
        d.text((x + ex + sw + gap, y + ey + sw / 2), fonts.drawable(e.label), font=f, fill=INK, anchor="lm")


@lru_cache(maxsize=256)
def _swatch(kind: str, key: str, size: int, colour: RGB, shape: str, borders: tuple[RGB, ...],
            min_px: int = 0) -> Image.Image:
    """A legend sample, drawn at 4x and shrunk (RGBA, read-only); no text in it under ``min_px``."""
    k = symbols.SS
    s = size * k
    im = Image.new("RGBA", (s, s), (*INK, 0))
    d = ImageDraw.Draw(im)
    line = max(1, s // 18)
    open_fill = TERRAIN[Terrain.OPEN].fill

    def ground() -> None:
        d.rectangle([0, 0, s - 1, s - 1], fill=open_fill, outline=INK, width=max(1, s // 40))

    if kind == "side":
        symbols.draw_shape(d, shape, (s * 0.04, s * 0.16, s * 0.96, s * 0.84), fill=colour, outline=INK, width=line)
    elif kind == "terrain":
        paint_square(d, Terrain(key), 0, 0, s, 7)
        d.rectangle([0, 0, s - 1, s - 1], outline=INK, width=max(1, s // 40))
    elif kind in ("river", "bridge", "rapids"):
        ground()
        symbols.draw_river(d, [[(s * 0.5, 0), (s * 0.5, s)]], s * 0.14)
        if kind == "river":
            symbols.draw_flow(d, (s * 0.5, s * 0.5), (s * 0.5, s), s * 0.3)
        elif kind == "bridge":
            symbols.draw_road(d, [[(0, s * 0.5), (s, s * 0.5)]], s * 0.08)
            symbols.draw_bridge(d, (s * 0.5, s * 0.5), (1, 0), s * 0.56, s * 0.24)
        else:
            symbols.draw_rapids(d, (s * 0.5, s * 0.5), (1, 0), s * 0.3, line)
    elif kind in ("road", "track"):
        ground()
        symbols.draw_road(d, [[(0, s * 0.5), (s, s * 0.5)]], s * 0.09, track=kind == "track")
    elif kind == "reefs":
        d.rectangle([0, 0, s - 1, s - 1], fill=TERRAIN[Terrain.SEA].fill, outline=INK, width=max(1, s // 40))
        symbols.draw_reefs(d, 0, 0, s)
    elif kind == "border":
        ground()
        band = s * 0.14
        left, right = (borders + borders + ((150, 150, 150),))[:2]
        d.rectangle([s * 0.5 - band, 0, s * 0.5, s], fill=left)
        d.rectangle([s * 0.5, 0, s * 0.5 + band, s], fill=right if len(borders) > 1 else open_fill)
        d.line([(s * 0.5, 0), (s * 0.5, s)], fill=INK, width=line)
    elif kind in ("stronghold", "capital"):
        symbols.draw_fort(d, s * 0.5, s * 0.52, s * 0.46, (150, 150, 150), capital=kind == "capital", width=line)
    elif kind == "move":
        w = s * 0.12
        pts = [(s * 0.04, s * 0.7), (s * 0.45, s * 0.45), (s * 0.68, s * 0.42)]
        d.line(pts, fill=INK, width=round(w), joint="curve")
        d.polygon(symbols.arrowhead((s * 0.98, s * 0.38), pts[-1], s * 0.36, s * 0.22), fill=INK)
    elif kind in ("battle", "won", "drawn"):
        tile = symbols.sabres(s, None if kind == "battle" else colour if kind == "won" else (150, 150, 150))
        im.paste(tile, (0, 0), tile)
    elif kind == "retreat":
        w = s * 0.12
        pts = [(s * 0.04, s * 0.7), (s * 0.45, s * 0.45), (s * 0.68, s * 0.42)]
        symbols.dashed(d, pts, fill=INK, width=round(w), dash=s * 0.16, gap=s * 0.1)
        d.polygon(symbols.arrowhead((s * 0.98, s * 0.38), pts[-1], s * 0.36, s * 0.22), fill=INK)
    elif kind == "faded":
        box = (s * 0.04, s * 0.16, s * 0.96, s * 0.84)
        d.rectangle(box, fill=mix(PAPER, (160, 160, 160), 0.35))
        symbols.dashed(d, [*symbols.shape_points("square", box), (box[0], box[1])], fill=INK, width=line * 2,
                       dash=s * 0.12)
    elif kind == "unknown":
        box = (s * 0.04, s * 0.16, s * 0.96, s * 0.84)
        d.rectangle(box, fill=(150, 150, 150), outline=INK, width=line)
        d.text((s * 0.5, s * 0.5), "?", font=fonts.font(max(round(s * 0.5), min_px * k)), fill=text_on((150, 150, 150)),
               anchor="mm")
    elif kind == "fog":
        ground()
        fog_tile = veil(s, s, s)
        im.alpha_composite(fog_tile)
        d.rectangle([0, 0, s - 1, s - 1], outline=INK, width=max(1, s // 40))
    elif kind == "order":
        symbols.draw_order(d, key, (s * 0.1, s * 0.1, s * 0.9, s * 0.9), INK, min_px=max(6, min_px * k))
    elif kind == "reaction":
        symbols.draw_reaction(d, key, (s * 0.08, s * 0.06, s * 0.92, s * 0.9), min_px=max(6, min_px * k))
    return im.reduce(k)


def subtitle(snapshot: MapSnapshot) -> str:
    """The turn line in the snapshot's language: ``Turn 1  ·  Oct 7, 1805  ·  Autumn  ·  Fair  ·  Phase 1: ...``."""
    parts = [say(snapshot, Msg("Turn {turn}", turn=snapshot.turn)), date(snapshot, snapshot.date),
             word(snapshot, snapshot.season) if snapshot.season.strip() else "", say(snapshot, snapshot.weather),
             say(snapshot, snapshot.phase)]
    return "  ·  ".join(p.strip() for p in parts if p and p.strip())


def draw_title(d: ImageDraw.ImageDraw, *, width: int, height: int, pad: int, title: str, sub: str, title_px: int,
               subtitle_px: int, view: str, view_colour: RGB | None) -> None:
    """The dark band across the top: the title, the turn line and, at the right, whose view this is."""
    d.rectangle([0, 0, width, height], fill=TITLE_BAND)
    d.line([(0, height - 1), (width, height - 1)], fill=mix(TITLE_BAND, (255, 255, 255), 0.25), width=1)
    right = width - pad
    if view:
        vpx = subtitle_px
        label = fonts.clip(view, vpx, width * 0.4)
        w = fonts.width(label, vpx) + vpx * 1.4
        h = vpx * 1.9
        top = pad * 0.8
        fill = view_colour or PAPER
        d.rounded_rectangle([right - w, top, right, top + h], radius=h / 2, fill=fill, outline=TITLE_TEXT, width=1)
        d.text((right - w / 2, top + h / 2), label, font=fonts.font(vpx), fill=text_on(fill), anchor="mm")
        right -= round(w + pad)
    y = pad * 0.8
    d.text((pad, y), fonts.clip(title, title_px, right - pad), font=fonts.font(title_px), fill=TITLE_TEXT,
           anchor="lt", stroke_width=max(1, title_px // 30), stroke_fill=TITLE_TEXT)
    d.text((pad, y + title_px * 1.3), fonts.clip(sub, subtitle_px, width - 2 * pad), font=fonts.font(subtitle_px),
           fill=TITLE_SUBTEXT, anchor="lt")
