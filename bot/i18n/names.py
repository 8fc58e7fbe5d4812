"""Names a scenario gives in several languages (issue 23, item 4), said in each reader's.

A scenario may name its title, sides, Forces and places per language (``{en: Austria, fr: Autriche}``);
the campaign keeps one name for each (the English, or else the first: what it compares and stores) and
the others in ``CampaignState.names``. Every state read from the store hands them to :func:`remember`;
the edge says which campaign it is speaking of (:func:`use`: a command, a button, a post); and wherever a
message is filled in (:func:`bot.i18n.t`, :func:`bot.i18n.text.tr`) or the bot writes a name itself, a
name of that campaign is said in the reader's language (:func:`said`). Anything else, and any name where
no campaign was named, is left as it is: another campaign's "IV Corps" may be a GM's own name.
"""

from __future__ import annotations

from collections.abc import Mapping
from contextvars import ContextVar
from typing import Any

_BOOKS: dict[int, dict[str, dict[str, str]]] = {}
"""campaign id -> language -> the campaign's name -> that language's."""
_CURRENT: ContextVar[int | None] = ContextVar("adc_names_campaign", default=None)


def remember(campaign_id: int, names: Mapping[str, Mapping[str, str]]) -> None:
    """The names of ``campaign_id`` in other languages (``CampaignState.names``), as a book by language."""
    book: dict[str, dict[str, str]] = {}
    for said in names.values():
        if not said:
            continue
        kept = said.get("en") or next(iter(said.values()))
        for lang, text in said.items():
            if text != kept:
                book.setdefault(lang, {})[kept] = text
    if book:
        _BOOKS[campaign_id] = book
    else:
        _BOOKS.pop(campaign_id, None)


def use(campaign_id: int | None) -> None:
    """The campaign this interaction or post speaks of (for the rest of its task)."""
    _CURRENT.set(campaign_id)


def said(lang: str, value: Any) -> Any:
    """``value`` in ``lang`` when it is one of the current campaign's names given in that language."""
    if not isinstance(value, str) or hasattr(value, "template"):  # a message is said by its template
        return value
    cid = _CURRENT.get()
    if cid is None:
        return value
    return _BOOKS.get(cid, {}).get(lang, {}).get(value, value)

