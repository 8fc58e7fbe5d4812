"""Map rendering (Pillow): plain snapshots in, PNG bytes out.

    png = render_png(snapshot, view="fr")                 # the whole map, as France sees it
    png = render_png(snapshot, around=Square(5, 4), radius=2)  # a battle brief
    png = render_png(snapshot, view="fr", phone=True)     # legible at 480 px: around France's Forces
    text = text_report(snapshot)                          # the same situation in words

The services build the :class:`MapSnapshot` (and apply fog of war: the Forces shown and the squares
in sight, ``visible``, the others veiled; and set the reader's language ``lang``); place names
(``Cell.place``) are drawn where they fit; this package imports only Pillow, the standard library and the engine's map model, and
the translations (:mod:`bot.i18n`) when a map is not in English. Text is drawn with the bundled
DejaVu Sans Condensed (:mod:`bot.render.fonts`), so accented names draw as written.
"""

from .cache import CacheInfo, map_fingerprint
from .compose import GM, MAX_PNG_BYTES, encode_png, render_image, render_layout, render_png
from .errors import InvalidSnapshot, RenderError
from .layout import Layout, Window, choose_cell, layout_for, square_box
from .model import Arrow, BattleResult, Counter, MapSnapshot, SideStyle
from .palette import OKABE_ITO, side_colours
from .report import text_report
from .terrain import cache_info, clear_cache

__all__ = [
    "GM",
    "MAX_PNG_BYTES",
    "OKABE_ITO",
    "Arrow",
    "BattleResult",
    "CacheInfo",
    "Counter",
    "InvalidSnapshot",
    "Layout",
    "MapSnapshot",
    "RenderError",
    "SideStyle",
    "Window",
    "cache_info",
    "choose_cell",
    "clear_cache",
    "encode_png",
    "layout_for",
    "map_fingerprint",
    "render_image",
    "render_layout",
    "render_png",
    "side_colours",
    "square_box",
    "text_report",
]
