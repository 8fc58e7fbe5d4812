"""Fonts and labels: the bundled DejaVu Sans Condensed, text it can draw, names that fit a counter.

``fonts/DejaVuSansCondensed.ttf`` (free licence: ``fonts/LICENSE-DejaVu.txt``) covers Latin-1, Latin
Extended-A and -B, Greek, Cyrillic and the usual punctuation, so names and words in the reader's
language draw as written: ``Armée d'Italie``, ``Württemberg``, ``Mondovì``, ``Łódź``. Which
characters it has is read once from its ``cmap`` table; anything else is folded to what it has
(``ﬁ`` -> ``fi``) or drawn as ``?``. Without the file (or FreeType), Pillow's own font is used and
text is folded to ASCII. Fonts are cached per thread: workers never share a face.
"""

from __future__ import annotations

import re
import struct
import threading
import unicodedata
from functools import cache, lru_cache
from pathlib import Path

from PIL import ImageFont

Font = ImageFont.FreeTypeFont | ImageFont.ImageFont

FONT_FILE = Path(__file__).parent / "fonts" / "DejaVuSansCondensed.ttf"
_ASCII = frozenset(chr(c) for c in range(32, 127)) | frozenset("©«°±´·»‘’“”…‹›™")
_FOLD = {"ß": "ss", "Æ": "AE", "æ": "ae", "Œ": "OE", "œ": "oe", "Ø": "O", "ø": "o", "Ł": "L", "ł": "l",
         "Đ": "D", "đ": "d", "—": "-", "–": "-", "×": "x", "→": "->", "←": "<-", "\u00a0": " ",
         "\u2028": " ", "\u2029": " "}
_FILLERS = frozenset({"army", "of", "the", "corps", "division", "div", "brigade", "bde", "column", "detachment",
                      "armee", "armée", "korps", "de", "du", "la", "le", "der", "des", "von", "armata", "ejército",
                      "corpo", "cuerpo", "divisione", "división", "brigata", "brigada", "di", "del", "della"})
_NOT_DRAWN = frozenset({"Cc", "Cf", "Cs", "Co", "Cn", "Zl", "Zp"})
"""Controls, format marks, line breaks: never drawn, even where the font maps them."""
_local = threading.local()


def _cmap(data: bytes) -> frozenset[str]:
    """The characters a TrueType font maps to a glyph (its Unicode ``cmap`` subtable, format 4 or 12)."""
    tables = {data[12 + 16 * i:16 + 16 * i]: struct.unpack_from(">II", data, 20 + 16 * i)
              for i in range(struct.unpack_from(">H", data, 4)[0])}
    base = tables[b"cmap"][0]
    subtables = [struct.unpack_from(">HHI", data, base + 4 + 8 * i)
                 for i in range(struct.unpack_from(">H", data, base + 2)[0])]
    chars: set[int] = set()
    for platform, encoding, offset in subtables:
        if (platform, encoding) not in ((3, 1), (3, 10), (0, 3), (0, 4)):
            continue
        at = base + offset
        fmt = struct.unpack_from(">H", data, at)[0]
        if fmt == 4:
            segs = struct.unpack_from(">H", data, at + 6)[0] // 2
            ends = struct.unpack_from(f">{segs}H", data, at + 14)
            starts = struct.unpack_from(f">{segs}H", data, at + 16 + 2 * segs)
            deltas = struct.unpack_from(f">{segs}h", data, at + 16 + 4 * segs)
            ro_at = at + 16 + 6 * segs
            offsets = struct.unpack_from(f">{segs}H", data, ro_at)
            for i, (start, end) in enumerate(zip(starts, ends, strict=True)):
                for c in range(start, min(end, 0xFFFE) + 1):
                    if offsets[i] == 0:
                        glyph = (c + deltas[i]) & 0xFFFF
                    else:
                        glyph = struct.unpack_from(">H", data, ro_at + 2 * i + offsets[i] + 2 * (c - start))[0]
                        glyph = (glyph + deltas[i]) & 0xFFFF if glyph else 0
                    if glyph:
                        chars.add(c)
        elif fmt == 12:
            for i in range(struct.unpack_from(">I", data, at + 12)[0]):
                start, end, _glyph = struct.unpack_from(">III", data, at + 16 + 12 * i)
                chars.update(range(start, end + 1))
    return frozenset(ch for ch in map(chr, chars) if unicodedata.category(ch) not in _NOT_DRAWN)


@cache
def _bundled() -> tuple[Path | None, frozenset[str]]:
    """The bundled font file and the characters it draws; (None, ASCII) when it is missing or unreadable."""
    try:
        chars = _cmap(FONT_FILE.read_bytes())
        ImageFont.truetype(str(FONT_FILE), 12)
    except (OSError, ImportError, KeyError, struct.error, ValueError):
        return None, _ASCII
    return FONT_FILE, chars or _ASCII


def font(px: int) -> Font:
    """The bundled font at ``px`` pixels (Pillow's own if the file is missing, its bitmap font without FreeType)."""
    cache_: dict[int, Font] | None = getattr(_local, "fonts", None)
    if cache_ is None:
        cache_ = _local.fonts = {}
    f = cache_.get(px)
    if f is None:
        path = _bundled()[0]
        try:
            f = ImageFont.truetype(str(path), px) if path else ImageFont.load_default(size=px)
        except (ImportError, OSError, TypeError):  # no FreeType: the tiny bitmap font
            f = ImageFont.load_default()
        cache_[px] = f
    return f


def has(ch: str) -> bool:
    """Whether the font in use draws ``ch``."""
    return ch in _bundled()[1]


@lru_cache(maxsize=4096)
def drawable(text: str) -> str:
    """``text`` with what the font lacks folded to what it has (accents dropped, others as ``?``)."""
    chars = _bundled()[1]
    text = unicodedata.normalize("NFC", text)  # a letter and its accent as one character, where Unicode has it
    if all(ch in chars for ch in text):
        return text
    out = []
    for ch in text:
        if ch in chars:
            out.append(ch)
        elif ch in _FOLD and all(c in chars for c in _FOLD[ch]):
            out.append(_FOLD[ch])
        else:
            base = "".join(c for c in unicodedata.normalize("NFKD", ch) if not unicodedata.combining(c))
            if base and all(c in chars for c in base):
                out.append(base)
            elif ch in _FOLD:
                out.append(drawable(_FOLD[ch]))
            else:
                out.append("?")
    return "".join(out)


def width(text: str, px: int) -> float:
    return font(px).getlength(text)


def _elided(word: str) -> str:
    """``d'Italie`` -> ``Italie``: an elided article or preposition (d', l', dell') says nothing on a counter."""
    for sep in ("'", "’"):
        head, found, rest = word.partition(sep)
        if found and len(rest) > 1 and head.lower() in ("d", "l", "dell", "dall", "nell", "all", "un"):
            return rest
    return word


_NUMERAL = re.compile(r"(?:[IVXLC]+|\d+(?:st|nd|rd|th|er|re|e|a|o|º|ª|\.)?)", re.IGNORECASE)


def numeral(word: str) -> bool:
    """Whether ``word`` numbers a Force (``II``, ``4``, ``1st``, ``2e``): a label never drops it."""
    w = word.strip(".,;:")
    return bool(w) and _NUMERAL.fullmatch(w) is not None and (w.isupper() or w[0].isdigit())


def short_forms(name: str) -> list[str]:
    """Ever shorter labels for a Force name: ``Werneck's Corps`` -> ``Werneck`` -> ``Wern.`` ...

    Words that only say what a Force is (Army, Corps, of...) are dropped first: ``IV Corps`` -> ``IV``,
    ``Armée d'Italie`` -> ``Italie``. A numeral stays whole in every form (``Austrian II Corps`` ->
    ``Aus. II`` -> ``A II`` -> ``II``, never ``AI``).
    """
    name = drawable(" ".join(name.split()))
    words = [w for w in (_elided(w.removesuffix("'s").removesuffix("’s")) for w in name.split())
             if w.lower().strip(".,") not in _FILLERS] or name.split()
    forms = [" ".join(words)]
    if len(words) > 1:
        forms.append(" ".join(w if len(w) <= 4 or numeral(w) else w[:3] + "." for w in words))
    numerals = [w for w in words if numeral(w)]
    if numerals:  # the initials of the other words, then the numerals alone
        initials = "".join(w[0] for w in words if not numeral(w) and w[0].isalnum()).upper()
        forms += [f"{initials} {' '.join(numerals)}" if initials else " ".join(numerals), " ".join(numerals)]
    else:  # the first word (a leader's name says more than initials), the initials, then the word cut
        first = words[0] if words else name
        forms.append(first)
        if len(words) > 1:
            forms.append("".join(w[0] for w in words if w[0].isalnum()).upper())
        forms += [first[:n] + "." for n in range(min(len(first) - 1, 8), 1, -1)] + [first[:2], first[:1]]
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
