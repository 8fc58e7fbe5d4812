"""Discord's limits, checked in CI on the real command tree (with every translation) and on the
formatting helpers every message goes through."""

from __future__ import annotations

import re
import string

import discord
import pytest
from discord import app_commands

from bot import formatting as fmt
from bot.app import EXTENSIONS, create_bot
from bot.campaign.odds import table_odds
from bot.engine.rolls import BatchRoll, Check, Modifier, Roll
from bot.engine.tables import default_rulebook
from bot.i18n import LANGUAGES, Translator, command_key, lang_of, t
from bot.i18n.en import MESSAGES as ENGLISH
from bot.settings import Settings
from tests.i18n import CATALOGUES

NAME = re.compile(r"^[-_\w]{1,32}$")
LOCALES = {"it": discord.Locale.italian, "es": discord.Locale.spain_spanish, "fr": discord.Locale.french,
           "de": discord.Locale.german}


@pytest.fixture
async def payloads(tmp_path):
    """The payload each top-level command is synced with (names, descriptions, translations)."""
    bot = create_bot(Settings(database_url=f"sqlite+aiosqlite:///{tmp_path / 'x.db'}"), background_tasks=False)
    for ext in EXTENSIONS:
        await bot.load_extension(ext)
    translator = Translator()
    out = [await cmd.get_translated_payload(bot.tree, translator) for cmd in bot.tree.get_commands()]
    await bot.db.dispose()
    return bot, out


def walk(payload: dict, path: str = ""):
    """Every command, group, subcommand and option payload, with its qualified path."""
    here = f"{path} {payload['name']}".strip()
    yield here, payload
    for option in payload.get("options") or []:
        if option.get("type") in (1, 2):  # subcommand, subcommand group
            yield from walk(option, here)
        else:
            yield f"{here}.{option['name']}", option


def test_command_counts_are_within_discords_limits(payloads) -> None:
    _, roots = payloads
    assert len(roots) <= 100
    for root in roots:
        subs = [o for o in root.get("options") or [] if o.get("type") in (1, 2)]
        assert len(subs) <= 25, root["name"]
        for _, node in walk(root):
            if node.get("type") in (None, 1):
                options = [o for o in node.get("options") or [] if o.get("type") not in (1, 2)]
                assert len(options) <= 25
            assert len(node.get("choices") or []) <= 25


def test_every_name_and_description_fits_in_every_language(payloads) -> None:
    _, roots = payloads
    for where, node in [item for root in roots for item in walk(root)]:
        names = [node["name"], *(node.get("name_localizations") or {}).values()]
        for name in names:
            assert NAME.match(name) and name == name.lower(), (where, name)
        descriptions = [node["description"], *(node.get("description_localizations") or {}).values()]
        for text in descriptions:
            assert 1 <= len(text) <= 100 and text not in ("…", "..."), (where, text)
        for choice in node.get("choices") or []:
            for text in [choice["name"], *(choice.get("name_localizations") or {}).values()]:
                assert 1 <= len(text) <= 100, (where, text)


def test_translated_names_stay_unique_among_siblings(payloads) -> None:
    _, roots = payloads
    for locale in ("it", "es-ES", "fr", "de"):
        top = [(r.get("name_localizations") or {}).get(locale, r["name"]) for r in roots]
        assert len(top) == len(set(top)), locale
        for _, node in [item for root in roots for item in walk(root)]:
            children = node.get("options") or []
            names = [(c.get("name_localizations") or {}).get(locale, c["name"]) for c in children]
            assert len(names) == len(set(names)), (locale, node["name"], names)


def test_every_command_option_and_choice_is_named_in_every_language(payloads) -> None:
    """Discord gets each name, description and choice from the catalogues (bot/locale/*/commands.po)."""
    _, roots = payloads
    locales = ("it", "es-ES", "fr", "de")
    for where, node in [item for root in roots for item in walk(root)]:
        for field in ("name_localizations", "description_localizations"):
            assert set(node.get(field) or {}) >= set(locales) - _same(node, field), (where, field)
        for choice in node.get("choices") or []:
            assert set(choice.get("name_localizations") or {}) >= set(locales) - _same(choice, "name_localizations"), (where, choice["name"])


def _same(node: dict, field: str) -> set[str]:
    """Locales whose word is the English one (``scenario``, ``id``): discord.py sends no localisation then."""

    english = node["name" if field == "name_localizations" else "description"]
    return {loc for loc, lang in (("it", "it"), ("es-ES", "es"), ("fr", "fr"), ("de", "de"))
            if english in _translations_equal_to_english(lang)}


def _translations_equal_to_english(lang: str) -> set[str]:
    from bot.i18n.catalogues import po_path, read

    return {m.id for m in read(po_path(lang, "commands"), lang) if m.id and m.string == m.id}


def _fields(template: str) -> set[str]:
    return {f for _, f, _, _ in string.Formatter().parse(template) if f}


def test_every_message_is_said_in_every_language_with_the_same_placeholders() -> None:
    for lang in LANGUAGES:
        for key, english in ENGLISH.items():
            english = english[1] if isinstance(english, tuple) else english
            from bot.i18n import message

            assert _fields(message(lang, key)) == _fields(english), (lang, key)
    assert len({t(lang, "gm.resolve") for lang in LANGUAGES}) == len(LANGUAGES)


def test_the_member_locale_picks_the_language_and_english_is_the_fallback() -> None:
    assert lang_of(discord.Locale.italian) == "it"
    assert lang_of(discord.Locale.spain_spanish) == lang_of(discord.Locale.latin_american_spanish) == "es"
    assert lang_of(discord.Locale.french) == "fr" and lang_of(discord.Locale.german) == "de"
    assert lang_of(discord.Locale.japanese) == "en" and lang_of(None) == "en"
    assert t("it", "gm.resolve") == "Risolvi" and t("es", "gm.resolve") == "Resolver" and t("xx", "gm.resolve") == "Resolve"
    assert command_key(object()) is None


async def test_the_translator_localises_commands_but_not_english() -> None:
    translator = Translator()
    assert await translator.translate(app_commands.locale_str("x"), discord.Locale.japanese,
                                      app_commands.TranslationContext(app_commands.TranslationContextLocation.other,
                                                                      None)) is None


# --- formatting helpers ---------------------------------------------------------------------


def test_fit_cuts_every_part_of_an_embed_to_the_limits() -> None:
    e = discord.Embed(title="T" * 500, description="D" * 9000)
    for _ in range(40):
        e.add_field(name="N" * 300, value="V" * 2000)
    e.set_footer(text="F" * 3000)
    out = fmt.fit(e)
    assert len(out.title) <= 256 and len(out.description or "") <= 4096 and len(out.fields) <= 25
    assert all(len(f.name) <= 256 and len(f.value) <= 1024 for f in out.fields)
    assert len(out.footer.text) <= 2048 and fmt.embed_size(out) <= 6000


def test_long_text_is_paged_and_beyond_a_few_pages_attached_as_a_file() -> None:
    lines = [f"line {i}: " + "x" * 80 for i in range(30)]
    embeds, file = fmt.long_text("Log", lines)
    assert file is None and all(len(e.description) <= 4096 for e in embeds)
    assert sum(fmt.embed_size(e) for e in embeds) <= 6000
    many = [f"line {i}: " + "x" * 200 for i in range(2000)]
    embeds, file = fmt.long_text("Log", many, filename="log.txt")
    assert file is not None and file.filename == "log.txt" and len(embeds) == 1
    assert fmt.embed_size(embeds[0]) <= 6000


def test_batches_respect_ten_embeds_and_6000_characters_per_message() -> None:
    embeds = [discord.Embed(title=str(i), description="y" * 1500) for i in range(25)]
    for group in fmt.batches(embeds):
        assert len(group) <= 10 and sum(fmt.embed_size(e) for e in group) <= 6000
    assert sum(len(g) for g in fmt.batches(embeds)) == 25


def test_a_message_is_at_most_2000_characters() -> None:
    assert len(fmt.message_text("z" * 5000)) == 2000


def test_a_roll_embed_names_the_rule_the_dice_each_modifier_the_total_and_the_outcome() -> None:
    roll = Roll(rule="MC-4", name="Force test", key="t1/p1/force:x/force-test", dice=(5,),
                modifiers=(Modifier(2, "MC-4", "Soult's Command Value"), Modifier(-1, "MC-4", "in enemy territory")),
                total=6, result="ok", label="OK: the Force takes the new order", subject="IV Corps")
    e = fmt.roll_embed(roll, "it")
    text = " ".join([e.title] + [f"{f.name} {f.value}" for f in e.fields])
    assert e.title.startswith("Test della Forza (MC-4)") and e.title.endswith("IV Corps") and " for " not in e.title
    it = CATALOGUES["it"]
    for part in ("**5**", "+2 Soult's Command Value (MC-4)", f"-1 {it['in enemy territory']} (MC-4)", "**6**",
                 it["OK: the Force takes the new order"]):
        assert part in text
    assert "Dadi" in text and "Esito" in text  # the frame, the rule's name (seed 004's) and the outcome are Italian
    batch = BatchRoll("MC-7.1", "Wounded check", "k", tuple([1, 2, 3, 4, 5, 6] * 2000), (),
                      (("dead", 6000), ("returns", 6000)), (("dead", "dead"), ("returns", "return")), "Riesch")
    assert fmt.embed_size(fmt.roll_embed(batch, "en")) <= 6000


def test_odds_are_shown_as_percentages_of_each_outcome() -> None:
    proc = default_rulebook().mc.force_test
    odds = table_odds(Check(proc.rule, proc.name, (Modifier(3, "MC-4", "Soult's Command Value"),), proc.bands))
    e = fmt.odds_embed("Force test (MC-4)", odds, "en")
    assert e.description.startswith("1d6 +3 Soult's Command Value (MC-4): needs 3 or more for OK")
    assert "**66.7%** OK: the Force takes the new order (die 3–6)" in e.description
    assert "**33.3%** the Force now holds the Defend order (die 1–2)" in e.description
    assert "0.0%" not in e.description and "⚠️" not in e.description
    assert fmt.embed_size(e) <= 6000
