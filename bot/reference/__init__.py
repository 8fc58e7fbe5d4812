"""The rules reference as members read it with ``/rules``: every rule of ``shared/RULES.md`` by its ID
(``MC-5.3``, ``CC-1``, ``RU-13``; the sections ``MC``, ``CC``, ``FC``, ``BR``, ``RU`` too), in English
and, where a translation is written, in Italian and Spanish.

The text ships with the package: ``en.md`` is generated from RULES.md (:mod:`.generate`), and
``it.md`` and ``es.md`` translate it rule by rule. Each file is a list of entries::

    ## MC-5.3 Movement by water
    Roll 1D6 + modifiers. ...

An entry's parent is read from its ID (``MC-5.3`` -> ``MC-5`` -> ``MC``). The text is Discord
Markdown, already shaped for a phone (no tables). Pure and standard library only.
"""

from __future__ import annotations

import difflib
import re
from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from functools import cache
from importlib import resources
from types import MappingProxyType

LANGUAGES = ("en", "it", "es", "fr", "de")
SECTIONS = ("MC", "CC", "FC", "BR", "RU")
ID = re.compile(r"(?:MC|CC|FC|RU)-\d+(?:\.\d+)?|MC|CC|FC|BR|RU")
"""A rule ID as RULES.md writes it."""
CITED = re.compile(r"\b(?:MC|CC|FC|RU)-\d+(?:\.\d+)?\b|\bBR\b")
"""A rule ID cited in a text (``(MC-7.1)``, ``RU-13's``)."""
_TYPED = re.compile(r"([A-Za-z]{2})\s*[-‐‑–—_.:]?\s*(\d+(?:\s*[.,]\s*\d+)?)?\.?")
_ENTRY = "## "


@dataclass(frozen=True)
class Rule:
    """One rule (or section) of the reference, in one language."""

    id: str
    title: str
    text: str
    """Discord Markdown; empty for a section or a rule that only gathers its sub-rules."""

    @property
    def parent(self) -> str | None:
        """``MC-5`` for ``MC-5.3``, ``MC`` for ``MC-5``, None for a section."""
        return parent_of(self.id)

    @property
    def heading(self) -> str:
        return f"{self.id} {self.title}"


@dataclass(frozen=True)
class Reading:
    """A rule as a member reads it: in their language when translated (else in English), with its sub-rules."""

    rule: Rule
    translated: bool
    """False when the text is the English one because the member's language has none."""
    children: tuple[Rule, ...]


def parent_of(rule_id: str) -> str | None:
    if "." in rule_id:
        return rule_id.rsplit(".", 1)[0]
    if "-" in rule_id:
        return rule_id.split("-", 1)[0]
    return None


# --- the files ----------------------------------------------------------------------------------


class ReferenceFileError(ValueError):
    """A reference file that is not a list of well-formed, unique entries."""


def parse(text: str, *, source: str = "reference") -> dict[str, Rule]:
    """The entries of a reference file, in order. Lines before the first entry (a title, a comment)
    are ignored."""
    out: dict[str, Rule] = {}
    current: tuple[str, str] | None = None
    body: list[str] = []

    def close() -> None:
        if current is not None:
            out[current[0]] = Rule(current[0], current[1], "\n".join(body).strip("\n"))

    for n, line in enumerate(text.splitlines(), start=1):
        if not line.startswith(_ENTRY):
            if current is not None:
                body.append(line.rstrip())
            continue
        close()
        rule_id, _, title = line[len(_ENTRY):].strip().partition(" ")
        if not ID.fullmatch(rule_id) or not title.strip():
            raise ReferenceFileError(f"{source}:{n}: an entry starts '## ID Title', not {line!r}")
        if rule_id in out:
            raise ReferenceFileError(f"{source}:{n}: {rule_id} is written twice")
        current, body = (rule_id, title.strip()), []
    close()
    return out


def render(entries: Iterable[Rule], *, preamble: str = "") -> str:
    """Entries back as a reference file (what :func:`parse` reads)."""
    parts = [preamble.rstrip("\n") + "\n"] if preamble else []
    for r in entries:
        parts.append(f"{_ENTRY}{r.id} {r.title}\n" + (f"{r.text}\n" if r.text else ""))
    return "\n".join(parts)


@cache
def rules(lang: str) -> Mapping[str, Rule]:
    """Every rule written in ``lang`` (English: every rule), in the reference's order."""
    if lang not in LANGUAGES:
        return MappingProxyType({})
    path = resources.files(__package__).joinpath(f"{lang}.md")
    if lang != "en" and not path.is_file():
        return MappingProxyType({})
    return MappingProxyType(parse(path.read_text(encoding="utf-8"), source=f"{lang}.md"))


# --- looking rules up ---------------------------------------------------------------------------


def normalise(typed: str) -> str:
    """A rule ID as typed, written as RULES.md writes it: ``mc 5.3``, ``MC5,3``, ``mc-5.3.`` -> ``MC-5.3``;
    anything that does not look like an ID comes back stripped, as typed."""
    text = " ".join((typed or "").split())
    m = _TYPED.fullmatch(text)
    if m is None:
        return text
    head, number = m.group(1).upper(), m.group(2)
    if number is None:
        return head
    return head + "-" + re.sub(r"\s*[.,]\s*", ".", number)


def find(typed: str) -> Rule | None:
    """The English rule ``typed`` names (any spelling :func:`normalise` reads), or None."""
    return rules("en").get(normalise(typed))


def children(rule_id: str) -> tuple[Rule, ...]:
    """The rules directly under ``rule_id`` (``MC-5.1``... under ``MC-5``; ``MC-0``... under ``MC``)."""
    return tuple(r for r in rules("en").values() if r.parent == rule_id)


def in_language(rule: Rule, lang: str) -> Rule | None:
    """``rule`` as written in ``lang`` (None when that language has no translation of it)."""
    return rule if lang == "en" else rules(lang).get(rule.id)


def read(rule_id: str, lang: str) -> Reading | None:
    """The rule ``rule_id`` names as a member of language ``lang`` reads it (None: no such rule)."""
    english = find(rule_id)
    if english is None:
        return None
    own = in_language(english, lang)
    kids = tuple(in_language(c, lang) or c for c in children(english.id))
    return Reading(own or english, own is not None, kids)


def title(rule: Rule, lang: str) -> str:
    """The rule's title in ``lang`` (English when it has no translation)."""
    own = in_language(rule, lang)
    return (own or rule).title


def search(typed: str, lang: str, *, limit: int = 25) -> list[Rule]:
    """The rules that match what a member typed, for autocomplete: IDs that start with it first, then
    titles (in their language or in English) that contain it, case-insensitive; at most ``limit``."""
    every = list(rules("en").values())
    text = " ".join((typed or "").split()).lower()
    if not text:
        return every[:limit]
    wanted = normalise(typed).lower()
    first = [r for r in every if r.id.lower().startswith(wanted)]
    then = [r for r in every if r not in first
            and (text in f"{r.id} {title(r, lang)}".lower() or text in r.heading.lower())]
    return (first + then)[:limit]


def closest(typed: str, lang: str, *, n: int = 5) -> list[Rule]:
    """The rules nearest to an unknown ID: those the typing matches (:func:`search`), then the IDs
    and titles that look most alike (difflib)."""
    every = rules("en")
    found = search(typed, lang, limit=n) if typed.strip() else []
    ids = difflib.get_close_matches(normalise(typed), list(every), n=n, cutoff=0.5)
    by_title = {title(r, lang).lower(): r.id for r in every.values()}
    titled = difflib.get_close_matches(typed.strip().lower(), list(by_title), n=n, cutoff=0.5)
    out = list(dict.fromkeys([r.id for r in found] + ids + [by_title[t] for t in titled]))
    return [every[i] for i in out[:n]]


# --- shaping for Discord -------------------------------------------------------------------------


def pages(text: str, limit: int) -> list[str]:
    """``text`` cut into pieces of at most ``limit`` characters: between paragraphs where it can,
    else between lines, else between words (a single word longer than ``limit`` is cut)."""
    return _pieces(text.strip("\n"), limit, ("\n\n", "\n", " ")) or [""]


def _pieces(text: str, limit: int, separators: tuple[str, ...]) -> list[str]:
    if len(text) <= limit:
        return [text]
    if not separators:
        return [text[i:i + limit] for i in range(0, len(text), limit)]
    sep, rest = separators[0], separators[1:]
    out: list[str] = []
    current = ""
    for part in text.split(sep):
        candidate = f"{current}{sep}{part}" if current else part
        if len(candidate) <= limit:
            current = candidate
            continue
        if current:
            out.append(current)
        if len(part) <= limit:
            current = part
        else:
            *whole, current = _pieces(part, limit, rest)
            out += whole
    if current:
        out.append(current)
    return out
