"""The gettext catalogues (bot/locale): complete, well formed and in step with the code.

Every text a player can be shown is found in the source (bot.i18n.sources, through Babel's
extraction: bot.i18n.extract) and must be in every language's catalogue with exactly the same
placeholders and every plural form, or a new message would silently stay English (or fail to
format) for a club. These tests are the CI gate the issue asks for (issue 14).
"""

from __future__ import annotations

import pickle
import string

import pytest
from babel.messages.catalog import Catalog

from bot.engine.errors import InvalidInput, RuleViolation
from bot.engine.phases import Phase, PhaseFacts, pending, require_can_end
from bot.engine.rolls import Modifier
from bot.engine.text import Msg
from bot.i18n import catalogues
from bot.i18n.catalogues import DOMAINS, TRANSLATED, extract, pot_path, problems, read
from bot.i18n.sources import code_texts, english_texts
from bot.i18n.text import tr
from tests.i18n import CATALOGUES, override


def fields(template: str) -> list[tuple[str, str, str | None]]:
    return sorted((name, spec, conv) for _, name, spec, conv in string.Formatter().parse(template) if name is not None)


@pytest.fixture(scope="module")
def texts() -> dict[str, list[str]]:
    return english_texts()


def ids(catalog: Catalog) -> set[tuple[str | None, str]]:
    return {(m.context, m.id if isinstance(m.id, str) else m.id[0]) for m in catalog if m.id}


@pytest.mark.parametrize("domain", ["bot", "engine"])
def test_the_templates_hold_exactly_what_the_code_says(domain) -> None:
    """``bot/locale/*.pot`` is what Babel extracts from the code now (python -m bot.i18n extract)."""
    assert ids(extract(domain)) == ids(read(pot_path(domain)))


def test_the_engine_template_holds_every_english_text_found_in_the_source(texts) -> None:
    held = set()
    for m in read(pot_path("engine")):
        if m.id:
            held |= {m.id} if isinstance(m.id, str) else set(m.id)
    assert held == set(texts)


async def test_the_commands_template_holds_every_command_option_and_choice() -> None:
    from bot.i18n.extract import command_texts

    assert set(await command_texts()) == ids(read(pot_path("commands")))


def test_pybabel_extracts_the_same_template(tmp_path, monkeypatch) -> None:
    """A translator's own tool, ``pybabel extract -F babel/engine.cfg``, finds the same entries."""
    from babel.messages.frontend import CommandLineInterface

    out = tmp_path / "engine.pot"
    monkeypatch.chdir(catalogues.CONFIG_DIR.parent)
    CommandLineInterface().run(["pybabel", "-q", "extract", "-F", "babel/engine.cfg", "-o", str(out), "."])
    assert ids(read(out)) == ids(read(pot_path("engine")))


@pytest.mark.parametrize("domain", DOMAINS)
@pytest.mark.parametrize("lang", TRANSLATED)
def test_every_catalogue_is_complete_and_well_formed(lang, domain) -> None:
    """No entry missing, untranslated, fuzzy or stale; every placeholder kept; every plural form."""
    found = problems(lang, domain)
    assert not found, f"{len(found)} problems (python -m bot.i18n check {lang}): {found[:8]}"


def test_the_check_catches_a_lost_placeholder_a_missing_plural_and_a_missing_entry(tmp_path, monkeypatch) -> None:
    """The gate itself can fail: a translator's slip in each way is reported."""
    from babel import Locale
    from bot.i18n.catalogues import write

    template = read(pot_path("engine"))
    broken = Catalog(locale=Locale.parse("it"), domain="engine")
    plural = next(m for m in template if m.id and not isinstance(m.id, str))
    lost = next(m for m in template if isinstance(m.id, str) and "{name}" in m.id)
    broken.add(plural.id, (plural.id[0], ""))  # the plural form left empty
    broken.add(lost.id, lost.id.replace("{name}", "{nome}"))  # a placeholder renamed
    template_path = tmp_path / "engine.pot"
    write(template, template_path)
    write(broken, tmp_path / "it" / "LC_MESSAGES" / "engine.po")
    monkeypatch.setattr(catalogues, "LOCALE_DIR", tmp_path)
    found = "\n".join(problems("it", "engine"))
    assert "missing" in found  # the hundreds of entries not in the broken catalogue
    assert "not translated" in found and "placeholders" in found


def test_rule_ids_survive_translation() -> None:
    for lang in TRANSLATED:
        for english, text in CATALOGUES[lang].items():
            for rule_id in ("MC-4", "MC-7.3", "CC-3", "CC-4", "RU-13", "RU-10"):
                if rule_id in english:
                    assert rule_id in text, (lang, english, text)


def test_the_sources_are_found_in_code_yaml_phases_and_the_model(texts) -> None:
    assert "You have no Force {force!r}." in texts  # an error (services/orders.py)
    assert "moves 2 squares" in texts  # a label of rules/map_campaign.yaml
    assert "Forced March order" in texts  # a modifier's reason
    assert "every battle reported" in texts  # what ends Phase 3 (MC-3)
    assert "forced_march" in texts and "forced march" in texts  # a model word, as value and as words
    assert "{n} extra dice" in texts  # a plural form (Msg.plural in glory.py)
    assert len(texts) > 500


def test_every_message_is_a_literal_template() -> None:
    """A message built at run time (an f-string) could not be looked up; only calls marked as passing
    on a template made elsewhere may take one that is not a literal."""
    _, dynamic = code_texts()
    assert dynamic == []


def test_an_error_is_said_in_the_readers_language_with_its_values() -> None:
    error = RuleViolation("{name} has already taken its Force test this turn (MC-4).", name="IV Corps")
    assert str(error) == "IV Corps has already taken its Force test this turn (MC-4)."
    assert tr("en", error) == str(error)
    for lang in TRANSLATED:
        said = tr(lang, error)
        assert said != str(error) and "IV Corps" in said and "MC-4" in said and "Force test" not in said


def test_parameters_that_are_texts_are_translated_too() -> None:
    what = pending(Phase.ORDERS, PhaseFacts(sides=("fr",)))[0].what
    assert what == "give orders, then mark done"
    assert tr("it", what) == CATALOGUES["it"]["give orders, then mark done"]
    with pytest.raises(RuleViolation) as caught:
        require_can_end(Phase.ORDERS, PhaseFacts(sides=("fr", "au")))
    italian = tr("it", caught.value)
    assert CATALOGUES["it"]["give orders, then mark done"] in italian
    assert "fr" in italian and "au" in italian and "give orders" not in italian


def test_a_table_label_a_reason_and_a_model_word_are_looked_up() -> None:
    assert tr("es", "moves 2 squares") == CATALOGUES["es"]["moves 2 squares"] != "moves 2 squares"
    assert tr("it", Modifier(2, "MC-5", "Forced March order").reason) == CATALOGUES["it"]["Forced March order"]
    assert tr("it", "forced_march") == CATALOGUES["it"]["forced_march"]
    assert tr("it", "Soult") == "Soult"  # names are not words of the catalogue
    assert tr("xx", Msg("moves {n} squares", n=2)) == "moves 2 squares"  # an unknown language is English


def test_a_faulty_translation_falls_back_to_english(monkeypatch) -> None:
    override(monkeypatch, "it", "engine", {"Broken {x}": "Rotto {y}"})
    assert tr("it", Msg("Broken {x}", x=1)) == "Broken 1"


def test_messages_survive_json_and_pickle() -> None:
    from bot.engine.text import UnknownMessage
    from bot.i18n.text import known_templates

    inner = Msg.plural(2, "{n} extra die", "{n} extra dice")
    text = Msg("{name} rolls {plural} if it battles this turn", name="Guard", plural=inner)
    back = Msg.from_json(text.to_json(), known=known_templates())
    assert back == text and isinstance(back, Msg) and tr("it", back) == tr("it", text)
    assert pickle.loads(pickle.dumps(text)) == text
    for unreadable in ({"t": "{missing}", "p": {}}, "plain", {"t": "Not a message of the code", "p": {}}):
        with pytest.raises(UnknownMessage):
            Msg.from_json(unreadable, known=known_templates())
    error = pickle.loads(pickle.dumps(InvalidInput("Roll 1 to {most} dice, not {count}.", most=100, count=0)))
    assert str(error) == "Roll 1 to 100 dice, not 0."


def test_the_check_catches_an_english_sentence_left_as_its_translation(tmp_path, monkeypatch) -> None:
    """Issue 23, item 7: an entry whose English is a sentence and whose translation is the same English
    fails the check; a name, a rule ID or a template of placeholders may read the same."""
    from babel import Locale
    from bot.i18n.catalogues import is_sentence, write

    template = read(pot_path("engine"))
    copied = Catalog(locale=Locale.parse("fr"), domain="engine")
    sentence = next(m for m in template if isinstance(m.id, str) and m.id.startswith("the beaten Force moves"))
    copied.add(sentence.id, sentence.id)
    write(template, tmp_path / "engine.pot")
    write(copied, tmp_path / "fr" / "LC_MESSAGES" / "engine.po")
    monkeypatch.setattr(catalogues, "LOCALE_DIR", tmp_path)
    assert "the English sentence itself" in "\n".join(problems("fr", "engine"))
    assert is_sentence("the beaten Force moves one square") and not is_sentence("Aide-de-Camp {version}")
    assert not is_sentence("{unit} ({reason})") and not is_sentence("Roll anyway (MC-4)")
    assert not is_sentence("C&C Napoleonics Epic") and is_sentence("Phase 4 resolved and done.")
    assert not is_sentence("system: miniatures\nsides: [{side: fr, outcome: won}]")


def test_slash_commands_in_the_bots_own_sentences_are_named_as_the_members_discord_shows_them() -> None:
    """Issue 23: a command named in a ``bot`` catalogue sentence is the reader's too (``/campagne rejoindre``)."""
    from bot.i18n import en, t

    joins = [k for k, v in en.MESSAGES.items() if isinstance(v, str) and "/campaign join" in v and "{" not in v]
    assert joins
    for lang in TRANSLATED:
        for key in joins:
            assert "/campaign join" not in t(lang, key), (lang, key)
    assert "/campaign join" in t("en", joins[0])


def test_slash_commands_in_a_text_are_named_as_the_members_discord_shows_them() -> None:
    error = RuleViolation("Check /campaign status; the GM may /gm advance.")
    for lang in TRANSLATED:
        said = tr(lang, error)
        assert "/campaign status" not in said and "/gm advance" not in said
    assert "/campagna stato" in tr("it", Msg("/campaign status, and/or 1/2"))
    assert tr("it", Msg("/campaign status, and/or 1/2")).endswith("and/or 1/2")
    assert tr("en", Msg("/campaign status")) == "/campaign status"
