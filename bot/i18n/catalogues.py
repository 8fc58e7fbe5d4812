"""The gettext catalogues: ``bot/locale/<lang>/LC_MESSAGES/<domain>.po``, which translators edit.

Three domains (see :mod:`bot.i18n.extract` for what each holds): ``bot`` (the bot's sentences, each
in its key's context), ``engine`` (the engine's, the core's and the services' English and the rules'
YAML, the English itself the message id) and ``commands`` (slash command names, descriptions and
choices). English is the source language and has no catalogue.

The ``.mo`` files are compiled at install (``python -m bot.i18n compile``, run by
``scripts/bootstrap`` and the Dockerfile). A checkout that has not compiled them, or whose ``.po`` is
newer, compiles in memory at first use, so an edited translation is never ignored.

``python -m bot.i18n extract|update|compile|check|missing LANG`` drives Babel: extract the templates
(``.pot``) from the code, bring each language's ``.po`` up to date, compile, and check every
entry (translated, same placeholders, every plural form).
"""

from __future__ import annotations

import gettext
import io
import re
import string
import sys
from collections.abc import Iterable
from datetime import UTC, datetime
from functools import cache
from pathlib import Path

from babel.messages.catalog import Catalog, Message
from babel.messages.extract import extract_from_dir
from babel.messages.frontend import parse_mapping_cfg
from babel.messages.mofile import write_mo
from babel.messages.pofile import read_po, write_po

from babel import Locale

LOCALE_DIR = Path(__file__).resolve().parent.parent / "locale"
CONFIG_DIR = Path(__file__).resolve().parents[2] / "babel"
DOMAINS = ("bot", "engine", "commands")
STAMP = datetime(2026, 1, 1, tzinfo=UTC)
"""The templates' header date, fixed so that extracting again changes a file only when its texts do."""
TRANSLATED = ("it", "es", "fr", "de")
"""The languages with catalogues (English is the code's own)."""


def po_path(lang: str, domain: str) -> Path:
    return LOCALE_DIR / lang / "LC_MESSAGES" / f"{domain}.po"


def pot_path(domain: str) -> Path:
    return LOCALE_DIR / f"{domain}.pot"


def read(path: Path, lang: str | None = None) -> Catalog:
    with path.open("rb") as f:
        return read_po(f, locale=lang, domain=path.stem)


@cache
def translations(lang: str, domain: str) -> gettext.NullTranslations:
    """The compiled catalogue of ``domain`` in ``lang`` (nothing translated for English or an unknown
    language)."""
    po = po_path(lang, domain)
    if lang not in TRANSLATED or not po.exists():
        return gettext.NullTranslations()
    mo = po.with_suffix(".mo")
    if mo.exists() and mo.stat().st_mtime >= po.stat().st_mtime:
        with mo.open("rb") as f:
            return gettext.GNUTranslations(f)
    buffer = io.BytesIO()
    write_mo(buffer, read(po, lang))
    buffer.seek(0)
    return gettext.GNUTranslations(buffer)


@cache
def plural_forms() -> dict[str, tuple[str, str]]:
    """Each form of a plural message of the ``engine`` domain -> (singular, plural), so that a stored
    message that kept only the form it used is still translated with the reader's plural rules."""
    pairs: dict[str, tuple[str, str]] = {}
    for message in read(pot_path("engine")):
        if message.id and isinstance(message.id, tuple | list):
            one, many = message.id[0], message.id[1]
            pairs[one] = pairs[many] = (one, many)
    return pairs


# --- building the catalogues (Babel's own tools, as pybabel runs them) ------------------------------


def extract(domain: str) -> Catalog:
    """The template of ``domain``, extracted from the code by ``babel/<domain>.cfg``."""
    with (CONFIG_DIR / f"{domain}.cfg").open() as f:
        method_map, options_map = parse_mapping_cfg(f)
    catalog = Catalog(project="Aide-de-Camp", domain=domain, charset="utf-8", creation_date=STAMP,
                      revision_date=STAMP, fuzzy=False)
    root = CONFIG_DIR.parent
    for filename, lineno, message, _comments, context in extract_from_dir(root, method_map, options_map):
        catalog.add(message, None, [(filename, lineno)] if lineno else [], context=context)
    return catalog


def write(catalog: Catalog, path: Path) -> None:
    path.parent.mkdir(parents=True, exist_ok=True)
    with path.open("wb") as f:
        write_po(f, catalog, width=120, omit_header=False, sort_output=False, ignore_obsolete=True,
                 include_previous=False)


def update(lang: str, domain: str) -> Catalog:
    """``lang``'s catalogue of ``domain`` brought up to its template (new entries empty, gone entries
    dropped, changed ones marked fuzzy), as ``pybabel update`` does."""
    template = read(pot_path(domain))
    path = po_path(lang, domain)
    if path.exists():
        catalog = read(path, lang)
    else:
        catalog = Catalog(locale=Locale.parse(lang), domain=domain, charset="utf-8", project="Aide-de-Camp",
                          creation_date=STAMP, revision_date=STAMP, fuzzy=False)
    catalog.update(template, no_fuzzy_matching=True)
    catalog.obsolete.clear()
    return catalog


def fields(text: str) -> list[tuple[str, str, str | None]]:
    try:
        return sorted((name, spec, conv) for _, name, spec, conv in string.Formatter().parse(text) if name is not None)
    except ValueError:
        return [("<malformed>", text, None)]


def problems(lang: str, domain: str) -> list[str]:
    """What is wrong with one catalogue: entries missing, untranslated, fuzzy, stale, a placeholder
    lost or added, a plural form missing."""
    out: list[str] = []
    template = read(pot_path(domain))
    path = po_path(lang, domain)
    if not path.exists():
        return [f"{path} is missing"]
    catalog = read(path, lang)
    wanted = {(m.context, _key(m.id)) for m in template if m.id}
    have = {(m.context, _key(m.id)): m for m in catalog if m.id}
    for key in sorted(wanted - set(have), key=str):
        out.append(f"{lang}/{domain}: missing {key}")
    for key in sorted(set(have) - wanted, key=str):
        out.append(f"{lang}/{domain}: stale {key}")
    forms = catalog.num_plurals
    for key, m in have.items():
        if key not in wanted:
            continue
        out += _entry_problems(f"{lang}/{domain}", m, forms)
    return out


def _key(msgid: str | tuple[str, ...] | list[str]) -> str:
    return msgid if isinstance(msgid, str) else msgid[0]


def _entry_problems(where: str, m: Message, forms: int) -> list[str]:
    ids = [m.id] if isinstance(m.id, str) else list(m.id)
    strings = [m.string] if isinstance(m.string, str) else list(m.string or ())
    label = f"{where}: {ids[0][:60]!r}" + (f" ({m.context})" if m.context else "")
    if m.fuzzy:
        return [f"{label} is fuzzy"]
    if len(ids) > 1 and len(strings) != forms:
        return [f"{label} has {len(strings)} plural forms, the language has {forms}"]
    if not all(s and s.strip() for s in strings):
        return [f"{label} is not translated"]
    for english, s in zip(ids + ids[-1:] * (len(strings) - len(ids)), strings, strict=False):
        if s == english and is_sentence(english):
            return [f"{label}: the translation is the English sentence itself"]
    wanted = fields(ids[-1])
    for s in strings:
        # a singular form may say "one" instead of {n}; every other placeholder must be kept
        got = fields(s)
        if got != wanted and not (len(ids) > 1 and [f for f in wanted if f[0] != "n"] == [f for f in got if f[0] != "n"]):
            return [f"{label}: placeholders {got} instead of {wanted}"]
    return []


_SENTENCE = re.compile(r"[^\W\d_]+(?:[ ,'][^\W\d_]+){2,}")
_NOT_WORDS = re.compile(r"\{[^{}]*\}|`[^`]*`|</[^>]*>|\b[A-Z]{2,3}-\d+(?:\.\d+)*\b|https?://\S+")


def is_sentence(text: str) -> bool:
    """Whether ``text`` says something in words (three words in a row, once placeholders, code, rule IDs and
    links are set aside): a translation identical to such an English text was not translated (issue 23,
    item 7), one of them at least not capitalised; while a name (``Aide-de-Camp``, ``C&C Napoleonics Epic``),
    a rule ID, a file's keys (``outcome: won``) or ``{unit} ({reason})`` may well read the same in every
    language."""
    runs = _SENTENCE.findall(_NOT_WORDS.sub(" ", text))
    return any(any(w[:1].islower() for w in re.split(r"[ ,']", run)) for run in runs)


def check(langs: Iterable[str] = TRANSLATED) -> list[str]:
    """Every problem of every catalogue, and templates that no longer match the code."""
    out: list[str] = []
    for domain in DOMAINS:
        fresh = {(m.context, _key(m.id)) for m in extract(domain) if m.id}
        stored = {(m.context, _key(m.id)) for m in read(pot_path(domain)) if m.id}
        if fresh != stored:
            out.append(f"bot/locale/{domain}.pot is out of date: python -m bot.i18n extract "
                       f"({len(fresh - stored)} new, {len(stored - fresh)} gone)")
        for lang in langs:
            out += problems(lang, domain)
    return out


def compile_all() -> list[Path]:
    written = []
    for lang in TRANSLATED:
        for domain in DOMAINS:
            po = po_path(lang, domain)
            if po.exists():
                with po.with_suffix(".mo").open("wb") as f:
                    write_mo(f, read(po, lang))
                written.append(po.with_suffix(".mo"))
    return written


def main(argv: list[str]) -> int:
    command = argv[0] if argv else "check"
    if command == "extract":
        for domain in DOMAINS:
            write(extract(domain), pot_path(domain))
        command = "update"
    if command == "update":
        for lang in TRANSLATED:
            for domain in DOMAINS:
                write(update(lang, domain), po_path(lang, domain))
        return 0
    if command == "compile":
        print(f"compiled {len(compile_all())} catalogues")
        return 0
    if command == "check":
        found = check(argv[1:] or TRANSLATED)
        for line in found:
            print(line)
        print(f"# {len(found)} problems", file=sys.stderr)
        return 1 if found else 0
    print("usage: python -m bot.i18n extract|update|compile|check [LANG...]", file=sys.stderr)
    return 2
