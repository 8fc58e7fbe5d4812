"""What members read of a whole campaign, in each language (issue 25 item 3): every log entry rendered
through the catalogues (:func:`bot.i18n.text.tr`), failing on a message the catalogue lacks, on English
left in the text and on an internal key (the checks of tests/bot/test_languages.py)."""

from __future__ import annotations

import re
from collections.abc import Iterable
from functools import cache
from typing import Any

from bot.engine.text import Msg
from bot.i18n.catalogues import TRANSLATED
from bot.i18n.text import catalogue, known_templates, tr
from tests.bot.test_languages import INTERNAL, english_fragments, leaks, single_words

LANGUAGES = ("en", *TRANSLATED)


_FIELD = re.compile(r"\{[^{}]*\}")
_WORD = re.compile(r"[^\W\d_]{2,}")
"""A template with no word outside its fields (``{p0}, {p1}``) needs no translation."""


@cache
def _catalogue(lang: str) -> frozenset[str]:
    return frozenset(catalogue(lang))


def misses(lang: str, text: Any, out: set[str]) -> set[str]:
    """The templates of ``text`` (a Msg, its parameters in turn) that the catalogue of ``lang`` lacks."""
    have = _catalogue(lang)
    if isinstance(text, Msg):
        if text.template not in have and _WORD.search(_FIELD.sub("", text.template)):
            out.add(text.template)
        for v in text.params.values():
            misses(lang, v, out)
    elif isinstance(text, str) and text.strip() and text in known_templates() and text not in have:
        out.add(text)
    return out


def untranslated(texts: Iterable[Any], read: Iterable[str] = LANGUAGES) -> dict[str, list[str]]:
    """Per language: what a member reading it would find untranslated (empty lists: all is well): in every
    language a message the catalogue lacks; in those of ``read``, the rendered texts searched for English
    left in them and internal keys (the costlier check). English is rendered too (no exception)."""
    texts = list(texts)
    read = frozenset(read)
    out: dict[str, list[str]] = {}
    for lang in LANGUAGES:
        rendered = [tr(lang, t) for t in texts] if lang in read or lang == "en" else []
        if lang == "en":  # the English is the catalogues' own: rendering it (no exception) is the check
            out[lang] = []
            continue
        missing: set[str] = set()
        for t in texts:
            misses(lang, t, missing)
        out[lang] = [f"not in the {lang} catalogue: {m!r}" for m in sorted(missing)] + leaks(lang, suspects(lang, rendered))
    return out


def suspects(lang: str, rendered: list[str]) -> list[str]:
    """The texts :func:`leaks` needs to read: those holding an English fragment the catalogue translates, a
    label or a key (a whole campaign's thousands of texts, searched at once: leaks alone reads each in turn)."""
    distinct = list(dict.fromkeys(rendered))
    every = "\n".join(distinct)
    found = [f for f in english_fragments(lang) if f in every]
    labels = single_words(lang)
    return [t for t in distinct if any(f in t for f in found) or t.strip(" *`_:.") in labels or INTERNAL.search(t)]
