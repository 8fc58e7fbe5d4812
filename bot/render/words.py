"""The words a map shows, in the reader's language.

Every word the renderer draws or writes is English (a :class:`~bot.engine.text.Msg`, or a word of the
model such as ``autumn`` or ``forest``); :func:`say` gives it in the snapshot's language through the
gettext catalogues (:func:`bot.i18n.text.tr`, imported only when a map is not in English, so the
renderer keeps to Pillow, the standard library and the engine for English).
"""

from __future__ import annotations

from typing import Any

from .model import MapSnapshot


def say(snapshot: MapSnapshot | str, text: Any) -> str:
    """``text`` in the language of ``snapshot`` (or the language code given): English as it is."""
    lang = snapshot if isinstance(snapshot, str) else snapshot.lang
    if text is None:
        return ""
    if lang == "en":
        return str(text)
    from bot.i18n.text import tr

    return tr(lang, text)


def word(snapshot: MapSnapshot | str, text: Any) -> str:
    """:func:`say` with a capital first letter, for a label (``autumn`` -> ``Autumn``, ``autunno`` -> ``Autunno``)."""
    out = say(snapshot, text).strip()
    return out[:1].upper() + out[1:]


def date(snapshot: MapSnapshot, value: str) -> str:
    """The campaign date the reader's way (``1805-10-07`` -> ``Oct 7, 1805``, ``7 ott 1805``); text that is
    no ISO date (``7 October 1805``) stays as it is."""
    try:
        from bot.i18n.locale import date as localised
    except ImportError:  # Babel missing: the date as the services wrote it
        return value
    return localised(snapshot.lang, value.strip()) if value.strip() else ""
