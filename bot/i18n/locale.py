"""Numbers, dates and lists written the reader's way (Babel's CLDR data): ``1.234`` in German,
``1 234`` in French, ``12 avr. 1796``, ``A, B e C``. Names are quoted one way in every language
(:class:`bot.engine.text._OneQuote`)."""

from __future__ import annotations

import datetime as dt
import re
from collections.abc import Iterable, Mapping
from fractions import Fraction
from functools import cache
from typing import Any

from babel.dates import format_date
from babel.lists import format_list
from babel.numbers import format_decimal, format_percent

from babel import Locale
from bot.engine.text import _OneQuote, checked

_FIXED = re.compile(r"(,?)\.(\d)([f%])")


@cache
def locale_of(lang: str) -> Locale:
    return Locale.parse(lang if lang in ("en", "it", "es", "fr", "de") else "en")


class _LocaleFormatter(_OneQuote):
    """Fills a template like :func:`bot.engine.text.render`, numbers with the reader's separators."""

    def __init__(self, lang: str) -> None:
        self.locale = locale_of(lang)

    def format_field(self, value: Any, format_spec: str) -> Any:
        if isinstance(value, bool) or not isinstance(value, int | float):
            return super().format_field(value, format_spec)
        if format_spec in (",", ",d"):
            return format_decimal(value, locale=self.locale)
        fixed = _FIXED.fullmatch(format_spec)
        if fixed:
            digits = int(fixed.group(2))
            pattern = ("#,##0" if fixed.group(1) else "0") + ("." + "0" * digits if digits else "")
            if fixed.group(3) == "%":
                return format_percent(value, format=pattern + "%", locale=self.locale)
            return format_decimal(value, format=pattern, locale=self.locale)
        return super().format_field(value, format_spec)


@cache
def _formatter(lang: str) -> _LocaleFormatter:
    return _LocaleFormatter(lang)


_ELIDED = re.compile(r"\b([Dd](?=e )|[Qq]u(?=e )|[Ll](?=[ea] ))[ea] \{([A-Za-z_]\w*)\}")
"""French words that elide before a vowel when a name follows them: ``de {place}`` -> ``d'Ulm``."""
_VOWELS = frozenset("AEIOUYÀÂÄÆÉÈÊËÎÏÔŒÙÛÜaeiouyàâäæéèêëîïôœùûü")


def elide(lang: str, template: str, params: Mapping[str, Any]) -> str:
    """``template`` with French elision before the values that begin with a vowel (``de {place}`` with
    Ulm: ``d'Ulm``; ``que {side}`` with Autriche: ``qu'Autriche``); the same template for any other
    language or value (issue 23). A value's ``h`` is left alone: French elides before some and not others."""
    if lang != "fr" or "{" not in template:
        return template

    def one(match: re.Match[str]) -> str:
        value = params.get(match.group(2))
        if isinstance(value, str) and value[:1] in _VOWELS:
            return f"{match.group(1)}'{{{match.group(2)}}}"
        return match.group(0)

    return _ELIDED.sub(one, template)


def render_in(lang: str, template: str, params: Mapping[str, Any]) -> str:
    """``template`` (checked as every template is) filled with ``params`` the way ``lang`` writes them
    (French elision included: :func:`elide`)."""
    return _formatter(lang).vformat(elide(lang, checked(template), params), (), params)


def date(lang: str, value: dt.date | str | None, *, form: str = "medium") -> str:
    """A campaign date (a :class:`datetime.date` or its ISO text) as ``lang`` writes it: ``12 Apr 1796``,
    ``12 apr 1796``, ``12 avr. 1796``, ``12.04.1796``. Text that is not a date stays as it is."""
    if value is None:
        return ""
    if isinstance(value, str):
        try:
            value = dt.date.fromisoformat(value)
        except ValueError:
            return value
    return format_date(value, format=form, locale=locale_of(lang))


def percent(lang: str, value: Fraction | float) -> str:
    """A chance (0 to 1) as ``lang`` writes it, one decimal: ``16.7%``, ``16,7 %`` (French and German put a
    narrow space before the sign; Babel's pattern of the language, with one decimal). Below 0.1%: ``<0.1%``
    in the same way."""
    loc = locale_of(lang)
    pattern = loc.percent_formats[None].pattern
    head, _, tail = pattern.rpartition("0")
    pattern = f"{head}0.0{tail}"
    share = float(value)
    if 0 < share < 0.001:
        return "<" + format_percent(0.001, format=pattern, locale=loc)
    return format_percent(share, format=pattern, locale=loc)


def listing(lang: str, items: Iterable[str], *, style: str = "standard") -> str:
    """``A, B and C`` in ``lang`` (``style="or"`` for ``A, B or C``)."""
    items = [str(i) for i in items]
    if not items:
        return ""
    return format_list(items, style=style, locale=locale_of(lang))
