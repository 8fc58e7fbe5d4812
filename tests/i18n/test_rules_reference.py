"""The rules reference that ships with the bot (bot/reference: en.md from shared/RULES.md, it.md, es.md),
which /rules shows: it holds every rule of RULES.md, every rule ID the bot cites, and translations that
say the same numbers and cite the same rules as the English they translate.

CI runs on a clean clone, without shared/RULES.md: there the shipped en.md is the source of truth, and
the comparison with RULES.md runs wherever RULES.md is beside the repository (or at $ADC_RULES_MD).
"""

from __future__ import annotations

import os
import re
import tomllib
from collections import Counter
from pathlib import Path

import pytest

from bot import reference
from bot.reference import CITED, ReferenceFileError, generate, normalise, pages, parse, rules

ROOT = Path(__file__).resolve().parents[2]
RULES_MD = Path(os.environ.get("ADC_RULES_MD") or generate.RULES_MD)
needs_rules_md = pytest.mark.skipif(not RULES_MD.is_file(), reason=f"{RULES_MD} is not here (a clean clone)")


def numbers(text: str) -> list[str]:
    """The numbers a text says, rule IDs left out: the modifiers, bands, costs and limits of a rule."""
    return sorted(re.findall(r"\d+", CITED.sub(" ", text)))


# --- the shipped English and RULES.md -------------------------------------------------------------


@needs_rules_md
def test_the_shipped_english_is_rules_md_as_generated() -> None:
    fresh = generate.generate(RULES_MD.read_text(encoding="utf-8"))
    assert (ROOT / "bot/reference/en.md").read_text(encoding="utf-8") == fresh, \
        "bot/reference/en.md is stale: run python -m bot.reference.generate, then update it.md and es.md"


@needs_rules_md
def test_every_rule_id_of_rules_md_is_shipped() -> None:
    text = RULES_MD.read_text(encoding="utf-8")
    defined = set(re.findall(r"^### ((?:MC|CC)-\d+) ", text, re.M))
    defined |= set(re.findall(r"^\*\*((?:MC|CC)-\d+\.\d+) ", text, re.M))
    defined |= set(re.findall(r"^- \*\*((?:FC|RU)-\d+)\b", text, re.M))
    defined |= set(re.findall(r"^## ([A-Z]{2}) — ", text, re.M))
    assert len(defined) > 50
    assert defined == set(rules("en")), set(rules("en")) ^ defined
    assert set(CITED.findall(text)) <= set(rules("en"))


def test_the_english_reference_is_whole() -> None:
    en = rules("en")
    assert {"MC", "CC", "FC", "BR", "RU", "MC-4", "MC-5.3", "MC-7.2", "CC-1", "CC-4", "FC-2"} <= set(en)
    assert {f"RU-{n}" for n in range(1, 23)} <= set(en)
    for r in en.values():
        assert r.title.strip() and "|" not in r.text, r.id  # tables were turned into lists
        assert r.parent is None or r.parent in en, r.id
        assert r.text or reference.children(r.id), f"{r.id} has neither text nor rules under it"
        assert set(CITED.findall(r.text)) <= set(en), r.id


def test_every_rule_the_bot_cites_can_be_read() -> None:
    """Every roll, refusal and label names a rule by its ID: each one must be in the reference."""
    cited: dict[str, str] = {}
    places = [*(ROOT / "bot").rglob("*.py"), *(ROOT / "rules").glob("*.yaml"), *(ROOT / "assets/maps").glob("*.yaml"),
              ROOT / "bot/engine/verify.html"]
    for path in places:
        for rule_id in CITED.findall(path.read_text(encoding="utf-8")):
            cited.setdefault(rule_id, str(path.relative_to(ROOT)))
    assert {"MC-4", "MC-5.3", "CC-1", "FC-2", "RU-17"} <= set(cited)
    missing = {i: where for i, where in cited.items() if i not in rules("en")}
    assert not missing


# --- translations -------------------------------------------------------------------------------


@pytest.mark.parametrize("lang", ["it", "es", "fr", "de"])
def test_a_translation_says_the_same_numbers_and_cites_the_same_rules(lang) -> None:
    en, own = rules("en"), rules(lang)
    assert own, f"{lang}.md is missing"
    assert set(own) <= set(en), f"{lang}.md translates rules that do not exist: {set(own) - set(en)}"
    for rule_id, r in own.items():
        english = en[rule_id]
        assert set(CITED.findall(r.text)) == set(CITED.findall(english.text)), (lang, rule_id)
        assert numbers(r.text) == numbers(english.text), (lang, rule_id, Counter(numbers(r.text)) ^ Counter(
            numbers(english.text)))
        assert numbers(r.title) == numbers(english.title), (lang, rule_id)
        assert r.text.count("\n- ") == english.text.count("\n- "), (lang, rule_id)  # the same list items
        assert bool(r.text) == bool(english.text), (lang, rule_id)


@pytest.mark.parametrize("lang", ["it", "es", "fr", "de"])
def test_every_rule_is_translated(lang) -> None:
    """Not required (a missing rule is shown in English with a note), but true today: keep it so."""
    assert set(rules(lang)) == set(rules("en"))


def test_italian_uses_the_terms_of_the_italian_source() -> None:
    it = rules("it")
    assert "Test della Forza" in it["MC-4"].title and "Volontà di Combattere" in it["MC-9"].title
    assert "**Marce Forzate**" in it["MC-1"].text and "**Esplorare**" in it["MC-1"].text
    assert "**Difendere**" in it["MC-1"].text and "**Instabile**" in it["MC-2"].text


def test_a_missing_translation_falls_back_to_english(monkeypatch) -> None:
    original = rules
    monkeypatch.setattr(reference, "rules", lambda lang: {} if lang == "es" else original(lang))
    reading = reference.read("MC-4", "es")
    assert reading is not None and not reading.translated and reading.rule == original("en")["MC-4"]
    assert reference.read("MC-4", "it").translated
    assert reference.read("MC-4", "pl").rule == original("en")["MC-4"]  # an unknown language: English


# --- the files' format --------------------------------------------------------------------------


def test_the_file_format_is_checked() -> None:
    assert parse("# title\n\n## MC-4 Force test\nRoll 1D6.\n\n## MC Map\n") == {
        "MC-4": reference.Rule("MC-4", "Force test", "Roll 1D6."), "MC": reference.Rule("MC", "Map", "")}
    for bad in ("## MC-4 A\n## MC-4 B\n", "## XX-1 Title\n", "## MC-4\n", "## mc-4 Title\n"):
        with pytest.raises(ReferenceFileError):
            parse(bad)
    assert parse(reference.render(rules("en").values())) == dict(rules("en"))


def test_the_data_files_ship_with_the_package() -> None:
    config = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))
    patterns = config["tool"]["setuptools"]["package-data"]["bot"]
    shipped = {p.relative_to(ROOT / "bot").as_posix() for pattern in patterns for p in (ROOT / "bot").glob(pattern)}
    assert {"reference/en.md", "reference/it.md", "reference/es.md"} <= shipped


# --- looking up and cutting ---------------------------------------------------------------------


@pytest.mark.parametrize(("typed", "wanted"), [
    ("MC-5.3", "MC-5.3"), ("mc-5.3", "MC-5.3"), ("MC 5.3", "MC-5.3"), (" mc5,3 ", "MC-5.3"), ("Mc-5.3.", "MC-5.3"),
    ("ru13", "RU-13"), ("RU – 13", "RU-13"), ("br", "BR"), ("mc", "MC"), ("movement", "movement"), ("", ""),
])
def test_an_id_is_read_however_it_is_typed(typed, wanted) -> None:
    assert normalise(typed) == wanted


def test_a_parent_lists_its_own_rules_only() -> None:
    assert [r.id for r in reference.children("MC-5")] == ["MC-5.1", "MC-5.2", "MC-5.3"]
    assert "MC-5.1" not in [r.id for r in reference.children("MC")] and "MC-5" in [r.id for r in
                                                                                   reference.children("MC")]
    assert reference.children("MC-4") == ()


def test_the_closest_rules_to_an_unknown_id() -> None:
    assert reference.find("MC-8") is None
    assert "MC-9" in [r.id for r in reference.closest("MC-8", "en")]
    assert [r.id for r in reference.closest("glory", "en")][:3] == ["CC-4", "RU-15", "RU-17"]
    assert len(reference.closest("zzz", "en")) <= 5


def test_search_is_at_most_25_and_ids_come_first() -> None:
    assert len(reference.search("", "en")) == 25
    assert [r.id for r in reference.search("RU-1", "en")][:11] == ["RU-1"] + [f"RU-1{n}" for n in range(10)]
    assert [r.id for r in reference.search("Gloria", "es")] == ["CC-4", "RU-15", "RU-17", "RU-23"]


def test_long_text_is_cut_between_paragraphs_then_lines_then_words() -> None:
    text = "\n\n".join(f"Paragraph {i}. " + "word " * 50 for i in range(40))
    parts = pages(text, 1000)
    assert all(len(p) <= 1000 for p in parts) and len(parts) > 1
    assert "\n\n".join(parts) == text.strip("\n")  # cut only where a paragraph ends
    one_line = "x" * 2500
    assert pages(one_line, 1000) == ["x" * 1000, "x" * 1000, "x" * 500]
    lines = "\n".join("line " * 30 for _ in range(20))
    assert all(len(p) <= 500 for p in pages(lines, 500)) and "\n".join(pages(lines, 500)) == lines
    assert pages("", 100) == [""]
