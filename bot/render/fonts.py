"""Fonts and labels: Pillow's bundled scalable font, text it can draw, names that fit a counter.

``ImageFont.load_default(size=...)`` (Pillow 10.1+, FreeType) gives a scalable TrueType font with
no font file to ship. It covers ASCII and a few signs, so drawn text is folded to those first
(``Württemberg`` -> ``Wurttemberg``). Fonts are cached per thread: workers never share a face.
"""

from __future__ import annotations

import threading
import unicodedata
from functools import lru_cache

from PIL import ImageFont

Font = ImageFont.FreeTypeFont | ImageFont.ImageFont

_DRAWABLE = frozenset(chr(c) for c in range(32, 127)) | frozenset("©«°±´·»‘’“”…‹›™")
_FOLD = {"ß": "ss", "Æ": "AE", "æ": "ae", "Œ": "OE", "œ": "oe", "Ø": "O", "ø": "o", "Ł": "L", "ł": "l",
         "Đ": "D", "đ": "d", "—": "-", "–": "-", "×": "x", "→": "->", "←": "<-", "\u00a0": " "}
_FILLERS = frozenset({"army", "of", "the", "corps", "division", "div", "brigade", "bde", "column", "detachment",
                      "armee", "korps", "de", "du", "la", "le", "der", "des", "von"})
_local = threading.local()


def font(px: int) -> Font:
    """The bundled font at ``px`` pixels (the fixed bitmap font if FreeType is missing)."""
    cache: dict[int, Font] | None = getattr(_local, "fonts", None)
    if cache is None:
        cache = _local.fonts = {}
    f = cache.get(px)
    if f is None:
        try:
            f = ImageFont.load_default(size=px)
        except (ImportError, OSError, TypeError):  # no FreeType: the tiny bitmap font
            f = ImageFont.load_default()
        cache[px] = f
    return f


@lru_cache(maxsize=4096)
def drawable(text: str) -> str:
    """``text`` folded to characters the bundled font has (accents dropped, others as ``?``)."""
    if all(ch in _DRAWABLE for ch in text):
        return text
    out = []
    for ch in text:
        if ch in _DRAWABLE:
            out.append(ch)
        elif ch in _FOLD:
            out.append(_FOLD[ch])
        else:
            base = "".join(c for c in unicodedata.normalize("NFKD", ch) if not unicodedata.combining(c))
            out.append(base if base and all(c in _DRAWABLE for c in base) else "?")
    return "".join(out)


def width(text: str, px: int) -> float:
    return font(px).getlength(text)


def short_forms(name: str) -> list[str]:
    """Ever shorter labels for a Force name: ``Werneck's Corps`` -> ``Werneck`` -> ``Wern.`` ...

    Words that only say what a Force is (Army, Corps, of...) are dropped first: ``IV Corps`` -> ``IV``.
    """
    name = drawable(" ".join(name.split()))
    words = [w for w in (w.removesuffix("'s").removesuffix("’s") for w in name.split())
             if w.lower().strip(".,") not in _FILLERS] or name.split()
    forms = [" ".join(words)]
    if len(words) > 1:
        forms.append(" ".join(w if len(w) <= 4 else w[:3] + "." for w in words))
        forms.append("".join(w[0] for w in words if w[0].isalnum()).upper())
    first = words[0] if words else name
    forms += [first] + [first[:n] + "." for n in range(min(len(first) - 1, 8), 1, -1)] + [first[:2], first[:1]]
    out: list[str] = []
    for f in forms:
        if f and f not in out:
            out.append(f)
    return out or ["?"]


@lru_cache(maxsize=8192)
def fit(name: str, px: int, max_width: float) -> str:
    """The longest of :func:`short_forms` that fits ``max_width`` at ``px`` (the shortest if none does)."""
    forms = short_forms(name)
    f = font(px)
    for form in forms:
        if f.getlength(form) <= max_width:
            return form
    return forms[-1]


@lru_cache(maxsize=4096)
def clip(text: str, px: int, max_width: float) -> str:
    """``text`` cut with an ellipsis to fit ``max_width``."""
    text = drawable(text)
    f = font(px)
    if f.getlength(text) <= max_width:
        return text
    while text and f.getlength(text + "…") > max_width:
        text = text[:-1]
    return text.rstrip() + "…" if text else ""
