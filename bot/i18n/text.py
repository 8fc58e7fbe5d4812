"""The engine's and the services' English, said in the member's language.

The catalogues (``text_it.py``, ``text_es.py``) map an English template, exactly as the code or
``rules/*.yaml`` writes it, to its translation with the same ``{placeholders}`` (gettext's way: the
English is the key, so a reader finds a message's translations by searching for its text).
:func:`tr` translates a :class:`~bot.engine.text.Msg` (template and parameters, the parameters
translated in turn) or a plain string the catalogue knows (a table's label, a modifier's reason);
anything else stays as it is. Rule names and rule IDs are never translated.
"""

from __future__ import annotations

import re
from typing import Any

from bot.engine.errors import EngineError
from bot.engine.text import Msg, render

from . import es, it, text_es, text_it

CATALOGUES: dict[str, dict[str, str]] = {"it": text_it.TEXT, "es": text_es.TEXT}


_COMMAND = re.compile(r"(?<![\w/])/([a-z]+)(?: ([a-z]+))?")
_NAMES: dict[str, dict[str, tuple[str, str]]] = {"it": it.COMMANDS, "es": es.COMMANDS}


def localise_commands(lang: str, text: str) -> str:
    """``/campaign status`` as the member's Discord shows it (``/campagna stato``)."""
    names = _NAMES.get(lang)
    if not names or "/" not in text:
        return text

    def name(match: re.Match[str]) -> str:
        group, sub = match.group(1), match.group(2)
        if group not in names:
            return match.group(0)
        head = "/" + names[group][0]
        if sub is None:
            return head
        return f"{head} {names[f'{group} {sub}'][0]}" if f"{group} {sub}" in names else f"{head} {sub}"

    return _COMMAND.sub(name, text)


def tr(lang: str, text: Any) -> str:
    """``text`` in ``lang`` (English, and anything the catalogue lacks, as it is); slash commands
    named in it are given their names in that language."""
    return localise_commands(lang, _tr(lang, text))


def _tr(lang: str, text: Any) -> str:
    if text is None:
        return ""
    catalogue = CATALOGUES.get(lang)
    if catalogue is None:
        return str(text)
    if isinstance(text, EngineError):
        text = text.text
    if isinstance(text, Msg):
        if not text.params:
            return catalogue.get(text.template, str(text))
        template = catalogue.get(text.template, text.template)
        params = {k: _tr(lang, v) if isinstance(v, str) else v for k, v in text.params.items()}
        try:
            return render(template, params)
        except (KeyError, IndexError, ValueError):  # a faulty (or unsafe) translation must not hide the message
            return str(text)
    if isinstance(text, str):
        return catalogue.get(text, text)
    return str(text)


def known_templates() -> frozenset[str]:
    """Every message the code defines: the keys of the catalogues, which ``tests/i18n`` proves hold
    every template of the code (``bot.i18n.sources``) and nothing else. Text read back from the
    database or an upload is formatted only when its template is one of these."""
    return _KNOWN


_KNOWN = frozenset().union(*CATALOGUES.values())


def tr_lines(lang: str, lines: Any) -> list[str]:
    return [tr(lang, line) for line in lines]
