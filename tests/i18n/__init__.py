"""Helpers for tests that look a translation up by its English."""

from bot.i18n.catalogues import TRANSLATED
from bot.i18n.text import catalogue


class _Catalogues(dict):
    def __missing__(self, lang: str) -> dict[str, str]:
        self[lang] = catalogue(lang) if lang in TRANSLATED else {}
        return self[lang]


CATALOGUES = _Catalogues()
"""``CATALOGUES["it"]["give orders, then mark done"]``: the engine catalogue read from its ``.po``."""


def override(monkeypatch, lang: str, domain: str, entries: dict[str, str]) -> None:
    """Make ``lang``'s ``domain`` catalogue say ``entries`` (English -> translation) on top of its own,
    as a translator's faulty edit would."""
    import gettext

    from bot.i18n import catalogues, text

    real = catalogues.translations

    class Patched(gettext.NullTranslations):
        def __init__(self, base):
            super().__init__()
            self.base = base

        def gettext(self, message):
            return entries.get(message) or self.base.gettext(message)

        def ngettext(self, one, many, n):
            return entries.get(one if n == 1 else many) or self.base.ngettext(one, many, n)

        def pgettext(self, context, message):
            return entries.get(message) or self.base.pgettext(context, message)

    def patched(lang_: str, domain_: str):
        base = real(lang_, domain_)
        return Patched(base) if (lang_, domain_) == (lang, domain) else base

    monkeypatch.setattr(text, "translations", patched)
