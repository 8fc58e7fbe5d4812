"""Languages: English, Italian, Spanish, French and German, by the member's Discord locale.

The translations are gettext catalogues (:mod:`bot.i18n.catalogues`, ``bot/locale``), which a
translator edits with any ``.po`` editor:

* the bot's own sentences, by key (``t(lang, key, **values)``): English in ``en.py``, the key the
  message context of each translation;
* what the engine and the services say (refusals, roll outcomes, summaries, the log), kept as a
  template and its parameters and said in the reader's language by :mod:`bot.i18n.text`;
* the slash commands' names, descriptions, options and choices, which :class:`Translator` hands to
  Discord at sync time.

Numbers, dates and lists are written the reader's way (:mod:`bot.i18n.locale`). Rule IDs
(``MC-4``) are the same in every language.
"""

from __future__ import annotations

from typing import Any

import discord
from discord import app_commands

from . import en, names
from .catalogues import translations
from .locale import render_in

LANGUAGES = ("en", "it", "es", "fr", "de")

_LOCALES = {
    discord.Locale.italian: "it",
    discord.Locale.spain_spanish: "es",
    discord.Locale.latin_american_spanish: "es",
    discord.Locale.french: "fr",
    discord.Locale.german: "de",
}


def lang_of(locale: discord.Locale | str | None) -> str:
    """The catalogue for a Discord locale (``it``, ``es-ES``, ``fr``...); English otherwise."""
    if isinstance(locale, discord.Locale):
        return _LOCALES.get(locale, "en")
    text = str(locale or "").lower()
    for lang in LANGUAGES:
        if text.startswith(lang):
            return lang
    return "en"


def message(lang: str, key: str, n: int = 1) -> str:
    """The template of the message ``key`` in ``lang`` (English where the catalogue lacks it); for a
    plural message (``(one, many)`` in ``en.py``), the form for ``n`` by the reader's plural rules."""
    english = en.MESSAGES[key]
    if isinstance(english, tuple):
        return translations(lang, "bot").npgettext(key, english[0], english[1], n)
    return translations(lang, "bot").pgettext(key, english)


def t(lang: str, key: str, /, **values: Any) -> str:
    """The message ``key`` in ``lang`` (English if missing), with ``values`` filled in the reader's way;
    a slash command its template names (``/campaign join``) is given its name in ``lang`` (issue 23)."""
    from .text import localise_commands  # text imports this package's modules

    template = localise_commands(lang, message(lang, key, int(values.get("n", 0))))
    if not values:
        return template
    return render_in(lang, template, {k: names.said(lang, v) for k, v in values.items()})


def versus(lang: str, names: list[str] | tuple[str, ...]) -> str:
    """A battle's sides as ``lang`` opposes them: ``Austria v France``, ``Autriche contre France``."""
    if not names:
        return ""
    said = names[0]
    for name in names[1:]:
        said = t(lang, "battle.versus", left=said, right=name)
    return said


def command_name(lang: str, key: str, english: str) -> str:
    """A command's or option's name as ``lang``'s Discord shows it (``key`` like ``order give.force``)."""
    return translations(lang, "commands").pgettext(f"name:{key}", english)


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
        catalogue = translations(lang, "commands")
        english = string.message
        if where is loc.choice_name:
            value = getattr(context.data, "value", None)
            said = catalogue.pgettext(f"choice:{value}", english)
        else:
            key = command_key(context.data)
            if key is None:
                return None
            if where in (loc.command_name, loc.group_name, loc.parameter_name):
                said = catalogue.pgettext(f"name:{key}", english)
            elif where in (loc.command_description, loc.group_description, loc.parameter_description):
                said = catalogue.pgettext(f"description:{key}", english)
            else:
                return None
        return said if said != english else None


def command_key(data: Any) -> str | None:
    """``"order give"`` for a command or group, ``"order give.force"`` for one of its options."""
    if isinstance(data, app_commands.Command | app_commands.Group):
        return data.qualified_name
    if isinstance(data, app_commands.Parameter):
        return f"{data.command.qualified_name}.{data.name}"
    return None
