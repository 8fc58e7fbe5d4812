"""Languages: English, Italian and Spanish, by the member's Discord locale.

Two catalogues per language (``en.py``, ``it.py``, ``es.py``):

* ``MESSAGES``: every sentence the bot says, by key (``t(lang, key, **values)``);
* ``COMMANDS`` (Italian and Spanish; English is the code's own text): localised names and
  descriptions of commands (``"order give"``), their options (``"order give.force"``) and
  choices (``"choice:forced_march"``), which :class:`Translator` hands to Discord at sync time.

Rule names and rule IDs (``Force test (MC-4)``) come from the rules' YAML and are the same in
every language. What the engine and the services say (refusals, roll outcomes, summaries, the log)
is translated by :mod:`bot.i18n.text` from its English template.
"""

from __future__ import annotations

from typing import Any

import discord
from discord import app_commands

from . import en, es, it

LANGUAGES = ("en", "it", "es")
MESSAGES: dict[str, dict[str, str]] = {"en": en.MESSAGES, "it": it.MESSAGES, "es": es.MESSAGES}
COMMANDS: dict[str, dict[str, tuple[str, str]]] = {"it": it.COMMANDS, "es": es.COMMANDS}
CHOICES: dict[str, dict[str, str]] = {"it": it.CHOICES, "es": es.CHOICES}

_LOCALES = {
    discord.Locale.italian: "it",
    discord.Locale.spain_spanish: "es",
    discord.Locale.latin_american_spanish: "es",
}


def lang_of(locale: discord.Locale | str | None) -> str:
    """The catalogue for a Discord locale (``it``, ``es-ES``, ``es-419``...); English otherwise."""
    if isinstance(locale, discord.Locale):
        return _LOCALES.get(locale, "en")
    text = str(locale or "").lower()
    if text.startswith("it"):
        return "it"
    if text.startswith("es"):
        return "es"
    return "en"


def t(lang: str, key: str, /, **values: Any) -> str:
    """The message ``key`` in ``lang`` (English if missing), with ``values`` filled in."""
    template = MESSAGES.get(lang, en.MESSAGES).get(key) or en.MESSAGES[key]
    return template.format(**values) if values else template


class Translator(app_commands.Translator):
    """Localised command names, descriptions, option names and choices for Discord."""

    async def translate(
        self, string: app_commands.locale_str, locale: discord.Locale, context: app_commands.TranslationContextTypes
    ) -> str | None:
        lang = _LOCALES.get(locale)
        if lang is None:
            return None
        where = context.location
        loc = app_commands.TranslationContextLocation
        if where is loc.choice_name:
            value = getattr(context.data, "value", None)
            return CHOICES[lang].get(f"choice:{value}")
        key = command_key(context.data)
        if key is None:
            return None
        entry = COMMANDS[lang].get(key)
        if entry is None:
            return None
        if where in (loc.command_name, loc.group_name, loc.parameter_name):
            return entry[0]
        if where in (loc.command_description, loc.group_description, loc.parameter_description):
            return entry[1]
        return None


def command_key(data: Any) -> str | None:
    """``"order give"`` for a command or group, ``"order give.force"`` for one of its options."""
    if isinstance(data, app_commands.Command | app_commands.Group):
        return data.qualified_name
    if isinstance(data, app_commands.Parameter):
        return f"{data.command.qualified_name}.{data.name}"
    return None
