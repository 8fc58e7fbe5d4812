"""The glossary (docs/glossary.md) is used: wherever the English names a game term, each catalogue
says it with the glossary's word (issue 14: the sources' own terms, one translation per term), and
the words the issue saw misused are gone."""

from __future__ import annotations

import re

import pytest

from bot.i18n.catalogues import TRANSLATED, po_path, read

GLOSSARY = "docs/glossary.md"

TERMS: dict[str, dict[str, str]] = {
    # English (as the code writes it) -> the glossary's word per language, plural forms allowed
    "Force test": {"it": r"test della forza", "es": r"pruebas? de fuerza", "fr": r"tests? de force",
                   "de": r"streitmachtprobe"},
    "Will to Fight": {"it": r"volontà di combattere", "es": r"voluntad de combate", "fr": r"volonté de combattre",
                      "de": r"kampfwille"},
    "Unsteady": {"it": r"instabil", "es": r"vacilante", "fr": r"ébranlée?", "de": r"wankend"},
    "Forced March": {"it": r"marc[ei] forzat[ae]", "es": r"marchas? forzadas?", "fr": r"marches? forcées?",
                     "de": r"gewaltm[aä]rsch"},
    "Victory Banner": {"it": r"bandier[ae] della vittoria|bandier[ae]", "es": r"banderas? de victoria|banderas?",
                       "fr": r"bannières? de victoire|bannières?", "de": r"siegesbanner"},
}

MISUSED = {
    "it": [r"\bvacillant", r"\bforce test\b", r"\bsupply phase\b", r"\w/i\b"],
    "es": [r"\btablas\b", r"\bsecuelas?\b", r"\bestandartes?\b"],
    "fr": [r"\bforce test\b", r"\bmatch nul\b"],  # issue 23: a drawn battle is an "égalité"
    "de": [r"\bforce test\b", r"überwältigungsprobe", r"\bnachspiel", r"\bflucht\b"],  # issue 23
}


def entries(lang: str):
    for domain in ("bot", "engine"):
        for m in read(po_path(lang, domain), lang):
            if isinstance(m.id, str) and m.string:
                yield m.id, str(m.string)


@pytest.mark.parametrize("lang", TRANSLATED)
def test_every_game_term_is_said_with_the_glossarys_word(lang) -> None:
    wrong = [(english, term, text) for english, text in entries(lang) for term, words in TERMS.items()
             if term.lower() in english.lower() and not re.search(words[lang], text.lower().replace("-", " "))]
    assert not wrong, wrong[:5]


@pytest.mark.parametrize("lang", TRANSLATED)
def test_the_words_the_issue_saw_misused_are_gone(lang) -> None:
    found = [(english, text) for english, text in entries(lang) for bad in MISUSED[lang]
             if re.search(bad, text.lower()) and "(s)" not in english]  # a former message, kept for old logs
    assert not found, found[:5]


ABBREVIATIONS = {"it": r"\bSP\b", "es": r"\bSP\b", "fr": r"\bSP\b|\bGM\b", "de": r"\bGM\b"}
"""Issue 23: "SP" beside "PF", "GM" beside "SL": each language's own abbreviation only (case kept)."""


@pytest.mark.parametrize("lang", TRANSLATED)
def test_each_language_abbreviates_with_its_own_letters(lang) -> None:
    found = [(english, text) for english, text in entries(lang) if re.search(ABBREVIATIONS[lang], text)]
    assert not found, found[:5]


def test_the_glossary_names_each_term_in_five_languages_and_its_sources() -> None:
    from bot.i18n.catalogues import CONFIG_DIR

    text = (CONFIG_DIR.parent / GLOSSARY).read_text(encoding="utf-8")
    assert "| English | Italiano | Español | Français | Deutsch |" in text
    for word in ("Test della Forza", "Volontà di Combattere", "Caposaldo", "Condottiero", "empate", "Bandera de Victoria",
                 "Marche forcée", "Gewaltmarsch"):
        assert word in text, word
    rows = [line for line in text.splitlines() if line.startswith("| ") and "---" not in line]
    assert all(line.count(" | ") >= 5 for line in rows) and len(rows) > 40
    assert "—" not in text  # every term has its word in every language


@pytest.mark.parametrize("lang", TRANSLATED)
def test_no_plural_is_faked_where_the_english_has_its_plural_forms(lang) -> None:
    """"1 morti", "movimento/i", "bataille(s)": a count has its plural forms (Msg.plural, ngettext)."""
    hack = re.compile(r"\w\((?:s|e|en|n|es|i)\)|\b\w+[aoe]/[ie]\b")
    found = [(english, text) for english, text in entries(lang) if hack.search(text) and "(s)" not in english]
    assert not found, found[:5]
