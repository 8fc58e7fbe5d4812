"""The engine's and the services' English, said in the member's language.

A :class:`~bot.engine.text.Msg` keeps its English template and its parameters; :func:`tr` looks the
template up in the ``engine`` gettext catalogue (:mod:`bot.i18n.catalogues`: the English is the
message id, so a reader finds a message's translations by searching for its text), picks a plural's
form by the reader's plural rules, translates the parameters in turn and fills them in the reader's
way (:mod:`bot.i18n.locale`). A plain string the catalogue knows (a table's label, a modifier's
reason, a word of the model) is translated too; anything else stays as it is. Rule IDs are never
translated.
"""

from __future__ import annotations

import re
from enum import Enum
from functools import cache
from typing import Any

from bot.engine.errors import EngineError
from bot.engine.text import Msg

from . import locale, names
from .catalogues import TRANSLATED, plural_forms, po_path, pot_path, read, translations
from .locale import render_in

_COMMAND = re.compile(r"(?<![\w/])/([a-z]+)(?: ([a-z]+))?")


def localise_commands(lang: str, text: str) -> str:
    """``/campaign status`` as the member's Discord shows it (``/campagna stato``)."""
    if lang not in TRANSLATED or "/" not in text:
        return text
    names = translations(lang, "commands")
    known = _command_keys()

    def name(match: re.Match[str]) -> str:
        group, sub = match.group(1), match.group(2)
        if group not in known:
            return match.group(0)
        head = "/" + names.pgettext(f"name:{group}", group)
        if sub is None:
            return head
        key = f"{group} {sub}"
        return f"{head} {names.pgettext(f'name:{key}', sub)}" if key in known else f"{head} {sub}"

    return _COMMAND.sub(name, text)


@cache
def _command_keys() -> frozenset[str]:
    """The qualified names of every command and group (``campaign``, ``campaign status``)."""
    keys = set()
    for m in read(pot_path("commands")):
        context = m.context or ""
        if context.startswith("name:") and "." not in context:
            keys.add(context[5:])
    return frozenset(keys)


def tr(lang: str, text: Any) -> str:
    """``text`` in ``lang`` (English, and anything the catalogue lacks, as it is); slash commands
    named in it are given their names in that language."""
    return localise_commands(lang, _tr(lang, text))


def _tr(lang: str, text: Any) -> str:
    if text is None:
        return ""
    if lang not in TRANSLATED:  # English as the code wrote it, but its dates as every English date is written
        return str(_dated(text.text if isinstance(text, EngineError) else text))
    if isinstance(text, EngineError):
        text = text.text
    catalogue = translations(lang, "engine")
    if isinstance(text, Msg):
        template = _template(lang, text)
        if not text.params:
            return template
        params = {k: _param(lang, v) for k, v in text.params.items()}
        try:
            return render_in(lang, template, params)
        except (KeyError, IndexError, ValueError):  # a faulty (or unsafe) translation must not hide the message
            return str(text)
    if isinstance(text, Enum):
        text = str(text.value)
    if isinstance(text, str):
        return catalogue.gettext(text) if text.strip() else text  # gettext("") is the catalogue's header
    return str(text)


def _template(lang: str, msg: Msg) -> str:
    """The template of ``msg`` in ``lang``: a plural's form chosen by ``n`` and the reader's rules."""
    catalogue = translations(lang, "engine")
    forms = plural_forms().get(msg.template)
    n = msg.params.get("n")
    if forms is not None and isinstance(n, int) and not isinstance(n, bool):
        return catalogue.ngettext(forms[0], forms[1], n)
    return catalogue.gettext(msg.template) if msg.template.strip() else msg.template


_ISO_DATE = re.compile(r"\d{4}-\d{2}-\d{2}")
COMPOSED_NAMES = ("New Leader ({kind}) of {force}",)
"""Names the bot composes and keeps as text in the state (CC-2's New Leader), said in the reader's words."""


def _param(lang: str, value: Any) -> Any:
    if isinstance(value, str) and _ISO_DATE.fullmatch(value):  # a campaign date: the reader's way
        return locale.date(lang, value)
    if isinstance(value, str) and not isinstance(value, Msg):
        value = names.said(lang, value)  # a scenario's name given in the reader's language (issue 23)
    if isinstance(value, str) and not isinstance(value, Msg) and value.startswith("New Leader ("):
        composed = Msg.reparse(value, COMPOSED_NAMES)
        if composed is not None:
            return _tr(lang, composed)
    if isinstance(value, str | Enum):
        return _tr(lang, value)
    return value


def _dated(value: Any, depth: int = 0) -> Any:
    """``value`` with every campaign date among its parameters written the English way (``Apr 17, 1796``,
    as :func:`bot.i18n.locale.date` writes it everywhere else; issue 23: one date style per language)."""
    if isinstance(value, Msg) and value.params and depth <= 6:
        params = {k: _dated(v, depth + 1) for k, v in value.params.items()}
        if any(params[k] is not v for k, v in value.params.items()):
            return Msg(value.template, **params)  # i18n: passes a template on
        return value
    if isinstance(value, str) and not isinstance(value, Msg) and _ISO_DATE.fullmatch(value):
        return locale.date("en", value)
    return value


def catalogue(lang: str) -> dict[str, str]:
    """The ``engine`` catalogue of ``lang`` as English -> translation (each plural form by itself):
    for tests and tools that look a text up by its English."""
    out: dict[str, str] = {}
    for m in read(po_path(lang, "engine"), lang):
        if not m.id or not m.string:
            continue
        if isinstance(m.id, str):
            out[m.id] = str(m.string)
        else:
            out[m.id[0]], out[m.id[1]] = m.string[0], m.string[-1]
    return out


def known_templates() -> frozenset[str]:
    """Every message the code defines (the ``engine`` template, plural forms included). Text read back
    from the database or an upload is formatted only when its template is one of these."""
    return _known()


@cache
def _known() -> frozenset[str]:
    out: set[str] = set()
    for m in read(pot_path("engine")):
        if m.id:
            out |= {m.id} if isinstance(m.id, str) else set(m.id)
    return frozenset(out)


def tr_lines(lang: str, lines: Any) -> list[str]:
    return [tr(lang, line) for line in lines]
