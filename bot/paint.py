"""Painted maps: a GM paints the terrain in any image editor with the colours of :data:`PALETTE` and
uploads the image with a small YAML for the rest of the scenario (docs/scenario-format.md, "Painted
maps").

Pure and CPU-bound: bytes in, terrain rows or scenario YAML text out, or an :class:`InvalidInput`
a GM can act on (the colour that matches no terrain, how many squares use it, the first of them and
the nearest palette colour). The bot runs it off the event loop.

How an image is read:

- An image of exactly ``width`` x ``height`` pixels is one pixel per square. A larger one is divided
  into ``width`` x ``height`` cells as evenly as it goes (cell edges at ``col * image_width // width``),
  and each cell's terrain is the colour most of its pixels have.
- A pixel is a terrain when each of its R, G and B is within :data:`TOLERANCE` of that terrain's
  palette colour: antialiasing and JPEG noise are forgiven. The pixels that match no terrain vote by
  their colour rounded to steps of 32, so a painted area of an unknown colour wins its cells (and is
  refused) even when JPEG noise gives each pixel a slightly different value, while the blended pixels
  along the edge between two terrains, all different, do not outvote either.
- Transparent pixels are read as white (open).
- Refused before decoding: more than :data:`MAX_BYTES` bytes, more than :data:`MAX_SIDE` pixels a
  side, a BMP file, a file Pillow does not recognise as one of :data:`FORMATS`, an animation.
"""

from __future__ import annotations

import io
import struct
import warnings
from collections.abc import Mapping
from pathlib import Path
from typing import Any

import yaml
from PIL import Image, ImageChops, ImageDraw, ImageFont, UnidentifiedImageError

from bot.engine.errors import InvalidInput
from bot.engine.model import Square, Terrain
from bot.engine.text import Msg
from bot.scenario import DEFAULT_LEGEND, LIMITS, parse_scenario, read_yaml_text

RGB = tuple[int, int, int]

PALETTE: dict[Terrain, str] = {
    Terrain.OPEN: "#FFFFFF",        # white: an empty canvas is open ground
    Terrain.CULTIVATED: "#FFFF00",  # yellow
    Terrain.FOREST: "#008000",      # green
    Terrain.HILL: "#FF8000",        # orange
    Terrain.MOUNTAIN: "#804000",    # brown
    Terrain.SWAMP: "#008080",       # teal
    Terrain.DESERT: "#FFC080",      # sand
    Terrain.WASTELAND: "#808080",   # grey
    Terrain.JUNGLE: "#00FF00",      # lime
    Terrain.SEA: "#0000FF",         # blue
    Terrain.LAKE: "#00FFFF",        # cyan
}
"""One colour per terrain, as ``#RRGGBB``: primaries and halves (00, 80, C0, FF) an editor's colour
box takes as typed, and any two of them at least 127 apart on some channel, so a pixel within
:data:`TOLERANCE` of one is far from every other."""
SWATCH_NAMES: dict[Terrain, str] = {
    Terrain.OPEN: "white", Terrain.CULTIVATED: "yellow", Terrain.FOREST: "green", Terrain.HILL: "orange",
    Terrain.MOUNTAIN: "brown", Terrain.SWAMP: "teal", Terrain.DESERT: "sand", Terrain.WASTELAND: "grey",
    Terrain.JUNGLE: "lime", Terrain.SEA: "blue", Terrain.LAKE: "cyan",
}
"""What each swatch looks like, for the documentation and the legend image."""

TOLERANCE = 32
"""How far each of R, G and B of a pixel may be from a palette colour for it to count as that terrain."""
MAX_SIDE = 2000
"""The widest and tallest image read, in pixels (checked from the header, before decoding): the largest
map (100x100 squares) at 20 pixels a square, which no painting needs more of (issue 24, item 1: a
4096x4096 image cost about 290 MB while it was read)."""
MAX_PIXELS = MAX_SIDE * MAX_SIDE
MAX_BYTES = 8 * 1024 * 1024
"""The largest image file read, in bytes (checked from the attachment's size before it is downloaded)."""
FORMATS = ("PNG", "GIF", "JPEG", "WEBP")
"""The image formats read: what editors save and Discord takes. Not BMP: its RLE compression takes
seconds of CPU to decode a few KB (issue 24, item 1), and every editor saves PNG."""
_BMP_MAGIC = b"BM"
CHAR: dict[Terrain, str] = {Terrain(t): ch for ch, t in DEFAULT_LEGEND.items()}
"""Each terrain's character in the default legend: what the rows are written in."""
_BUCKET = 0xE0
"""An unknown colour is rounded down to a multiple of 32 per channel (then + 16, never a palette value)."""


def hex_rgb(text: str) -> RGB:
    return int(text[1:3], 16), int(text[3:5], 16), int(text[5:7], 16)


def rgb_hex(colour: RGB) -> str:
    return "#{:02X}{:02X}{:02X}".format(*colour)


_RGB: dict[Terrain, RGB] = {t: hex_rgb(h) for t, h in PALETTE.items()}
_BY_RGB: dict[RGB, Terrain] = {rgb: t for t, rgb in _RGB.items()}


def nearest(colour: RGB) -> Terrain:
    """The palette's terrain whose colour is nearest ``colour`` (straight-line distance in RGB)."""
    return min(_RGB, key=lambda t: sum((a - b) ** 2 for a, b in zip(_RGB[t], colour, strict=True)))


def check_size(n: int) -> None:
    """Refuse an image file of ``n`` bytes over :data:`MAX_BYTES` (the bot asks before downloading it)."""
    if n > MAX_BYTES:
        raise InvalidInput("The map image is {n:,} bytes: at most {max_bytes:,} are accepted.", n=n,
                           max_bytes=MAX_BYTES)


def _open(data: bytes) -> Image.Image:
    """The image as RGB (transparency over white), refused if it is not one, too big or animated."""
    if not isinstance(data, bytes | bytearray):
        raise InvalidInput("The map image is not an image: paint it as PNG, GIF, JPEG or WebP.")
    check_size(len(data))
    if bytes(data[:2]) == _BMP_MAGIC:
        raise InvalidInput("The map image is a BMP file, which is not read: save it as PNG.")
    try:
        with warnings.catch_warnings():
            warnings.simplefilter("error", Image.DecompressionBombWarning)
            image = Image.open(io.BytesIO(data), formats=FORMATS)
            width, height = image.size
            if width > MAX_SIDE or height > MAX_SIDE or width * height > MAX_PIXELS:
                raise InvalidInput("The map image is {width}x{height} pixels: at most {max}x{max} are read.",
                                   width=width, height=height, max=MAX_SIDE)
            if getattr(image, "is_animated", False):
                raise InvalidInput("The map image is animated: paint a still image (one frame).")
            image.load()
            if image.mode in ("RGBA", "LA", "PA", "RGBa", "La") or "transparency" in image.info:
                rgba = image.convert("RGBA")
                image = Image.alpha_composite(Image.new("RGBA", rgba.size, (255, 255, 255, 255)), rgba)
            return image.convert("RGB")
    except (Image.DecompressionBombError, Image.DecompressionBombWarning):
        raise InvalidInput("The map image is too large: at most {max}x{max} pixels are read.", max=MAX_SIDE) from None
    except InvalidInput:
        raise
    except (UnidentifiedImageError, OSError, ValueError, SyntaxError, EOFError, MemoryError, TypeError, struct.error):
        raise InvalidInput("The map image is not an image: paint it as PNG, GIF, JPEG or WebP.") from None


def read_painting(png: bytes, *, width: int | None = None, height: int | None = None) -> list[str]:
    """The terrain rows (default legend characters, row 1 first) of a painted map of ``width`` x
    ``height`` squares: one pixel per square for an image of exactly that size, else each square the
    colour most of its cell's pixels have. Without ``width`` and ``height`` the image's own size is the
    map's, up to the largest map (:data:`bot.scenario.LIMITS`). A colour that matches no terrain is
    refused, naming it, how many squares it covers, the first of them and the nearest palette colour."""
    image = _open(png)
    iw, ih = image.size
    if width is None or height is None:
        if width is not None or height is not None:
            raise InvalidInput("Give both the map's width and height, or neither (the image's size is then the map's).")
        if iw > LIMITS.map_side or ih > LIMITS.map_side:
            raise InvalidInput("The map image is {width}x{height} pixels: give map.width and map.height to divide it "
                               "into squares (an image is read as one pixel per square up to {max}x{max}).",
                               width=iw, height=ih, max=LIMITS.map_side)
        width, height = iw, ih
    if width < 1 or height < 1 or iw < width or ih < height:
        raise InvalidInput("The map image is {iw}x{ih} pixels, smaller than the {width}x{height} map: give each square "
                           "at least one pixel.", iw=iw, ih=ih, width=width, height=height)
    keys = _keys(image)
    rows: list[str] = []
    unknown: list[tuple[Square, RGB, tuple[int, int, int, int]]] = []
    for r in range(height):
        row = []
        for c in range(width):
            box = _middle(c * iw // width, r * ih // height, (c + 1) * iw // width, (r + 1) * ih // height)
            colours = keys.crop(box).getcolors((box[2] - box[0]) * (box[3] - box[1])) or []
            _count, colour = max(colours, key=lambda cc: (cc[0], cc[1] in _BY_RGB, cc[1]))
            terrain = _BY_RGB.get(colour)
            if terrain is None:
                unknown.append((Square(c, r), colour, box))
                row.append("?")
            else:
                row.append(CHAR[terrain])
        rows.append("".join(row))
    if unknown:
        square, bucket, box = unknown[0]
        colour = _exact(image, box, bucket)
        hint = nearest(colour)
        count = sum(1 for _sq, b, _box in unknown  # the squares of this colour, give or take JPEG noise
                    if max(abs(x - y) for x, y in zip(b, colour, strict=True)) <= TOLERANCE)
        raise InvalidInput(Msg.plural(  # i18n: passes a template on
            count, "The colour {colour} ({n} square, at {square}) is not in the palette; nearest is {nearest} "
                   "({terrain}).",
            "The colour {colour} ({n} squares, the first at {square}) is not in the palette; nearest is {nearest} "
            "({terrain}).", colour=rgb_hex(colour), square=square, nearest=PALETTE[hint], terrain=hint.value))
    return rows


def _middle(left: int, top: int, right: int, bottom: int) -> tuple[int, int, int, int]:
    """The middle half of a cell each way (all of it under 4 pixels): grid lines and the blended pixels
    along its edges are not read."""
    dx, dy = (right - left) // 4, (bottom - top) // 4
    return left + dx, top + dy, right - dx, bottom - dy


def _keys(image: Image.Image) -> Image.Image:
    """``image`` with each pixel within :data:`TOLERANCE` of a palette colour set to it, and every other
    rounded to steps of 32 (+16: never a palette colour), all in Pillow's C code."""
    palette = [v for t in PALETTE for v in _RGB[t]]
    first = palette[:3]
    pal = Image.new("P", (1, 1))
    pal.putpalette(palette + first * (256 - len(PALETTE)))
    snapped = image.quantize(palette=pal, dither=Image.Dither.NONE).convert("RGB")
    red, green, blue = ImageChops.difference(image, snapped).split()
    far = ImageChops.lighter(ImageChops.lighter(red, green), blue)
    mask = far.point(lambda v: 255 if v > TOLERANCE else 0)
    snapped.paste(image.point(lambda v: (v & _BUCKET) + 16), mask=mask)
    return snapped


def _exact(image: Image.Image, box: tuple[int, int, int, int], bucket: RGB) -> RGB:
    """The most common colour of the cell ``box`` among those rounded to ``bucket``."""
    colours = image.crop(box).getcolors((box[2] - box[0]) * (box[3] - box[1])) or []
    inside = [(n, c) for n, c in colours if tuple((v & _BUCKET) + 16 for v in c) == bucket]
    return max(inside)[1] if inside else bucket


def painted_scenario(png: bytes, yaml_text: str | bytes) -> str:
    """A whole scenario (YAML text :func:`bot.scenario.parse_scenario_text` reads) from a painted map and
    the small YAML of everything else: name, start date, sides, Forces, and in ``map`` its size (else
    the image's), rivers, roads, territories, strongholds... but not ``rows`` or ``legend``, which the
    painting replaces. The parser then checks the whole; this checks only what reading the image needs."""
    data = _load(yaml_text)
    if not isinstance(data, dict) or not isinstance(data.get("map", {}), dict):
        parse_scenario(data)  # the parser's own refusal, naming the field
    m: dict[str, Any] = dict(data.get("map") or {})
    for name in ("rows", "legend"):
        if name in m:
            raise InvalidInput("Scenario field {field}: {what}", field=f"map.{name}", what=Msg(
                "a painted map takes its terrain from the image: leave out map.rows and map.legend "
                "(map.terrain may still set a few squares)"))
    width, height = m.get("width"), m.get("height")
    for value in (width, height):
        if value is not None and (isinstance(value, bool) or not isinstance(value, int)
                                  or not 2 <= value <= LIMITS.map_side):
            parse_scenario({**data, "map": m})  # the parser's own refusal of map.width or map.height
    if (width is None) != (height is None):
        raise InvalidInput("Give both the map's width and height, or neither (the image's size is then the map's).")
    rows = read_painting(png, width=width, height=height)
    size = {"width": len(rows[0]), "height": len(rows)}
    rest = {k: v for k, v in m.items() if k not in size}
    out = dict(data)
    out["map"] = {**size, "rows": _Rows(rows), **rest}
    if "map" not in data:  # keep the fields in a readable order: the map after the start date
        out = _ordered(out)
    return yaml.dump(out, Dumper=_Dumper, sort_keys=False, allow_unicode=True, default_flow_style=None, width=120)


def _load(text: str | bytes) -> Any:
    """The small YAML as plain data, read and refused exactly as an uploaded scenario is."""
    return read_yaml_text(text)


_ORDER = ("name", "description", "climate", "theatre", "start_date", "map")


def _ordered(data: Mapping[str, Any]) -> dict[str, Any]:
    first = {k: data[k] for k in _ORDER if k in data}
    return {**first, **{k: v for k, v in data.items() if k not in first}}


class _Rows(list):  # type: ignore[type-arg]
    """The map's rows: written one per line, a picture of the map."""


class _Dumper(yaml.SafeDumper):
    pass


_Dumper.add_representer(_Rows, lambda dumper, rows: yaml.SequenceNode(
    "tag:yaml.org,2002:seq", [dumper.represent_scalar("tag:yaml.org,2002:str", row, style='"') for row in rows],
    flow_style=False))


FONT_FILE = Path(__file__).parent / "render" / "fonts" / "DejaVuSansCondensed.ttf"
"""The map renderer's bundled font (read directly: the legend needs nothing else of bot.render)."""


def _font(px: int) -> ImageFont.FreeTypeFont | ImageFont.ImageFont:
    try:
        return ImageFont.truetype(str(FONT_FILE), px)
    except (ImportError, OSError):  # no file or no FreeType: Pillow's own
        return ImageFont.load_default(size=px)


def palette_png(scale: int = 32) -> bytes:
    """A legend of :data:`PALETTE` as PNG: per terrain a swatch ``scale`` pixels square, its name, its
    colour's name and hex code. Made on demand (the docs point at ``python -m bot scenario palette``)."""
    scale = max(8, min(int(scale), 128))
    face = _font(max(8, scale * 5 // 8))
    lines = [f"{t.value}  {PALETTE[t]}  ({SWATCH_NAMES[t]})" for t in PALETTE]
    probe = ImageDraw.Draw(Image.new("RGB", (1, 1)))
    text_w = max(int(probe.textlength(line, font=face)) for line in lines)
    pad = max(2, scale // 4)
    image = Image.new("RGB", (pad * 3 + scale + text_w, pad + len(lines) * (scale + pad)), (255, 255, 255))
    draw = ImageDraw.Draw(image)
    for i, (terrain, line) in enumerate(zip(PALETTE, lines, strict=True)):
        top = pad + i * (scale + pad)
        draw.rectangle((pad, top, pad + scale - 1, top + scale - 1), fill=_RGB[terrain], outline=(0, 0, 0))
        box = draw.textbbox((0, 0), line, font=face)
        draw.text((pad * 2 + scale, top + (scale - box[3] - box[1]) // 2), line, fill=(0, 0, 0), font=face)
    out = io.BytesIO()
    image.save(out, "PNG", optimize=True)
    return out.getvalue()
