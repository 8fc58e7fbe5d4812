"""A full turn with a battle, played by members who read Italian, Spanish, French or German (issues 14, 23).

The campaign's language is the members' own, so the public posts are in it too. Everything each
member is shown (messages and ephemeral answers: content, embeds, buttons, select options, modal
labels) is collected, and the test fails on any English text whose translation the catalogue holds,
on any internal key (``status.turn``, ``forced_march``) and on a weather or order key shown as it is.

Issue 23, item 7: it also fails on any English word of the game's vocabulary (every word of the
English catalogue templates that the reader's catalogues never use: built from the catalogues, not a
hand list), on any ``{placeholder}`` left unfilled, on a count of one said in a plural form, on a
number written the English way (``16.7%`` in French or German), on a command named in English, on the
English "v" between sides, and on a scenario's name shown in English where it names it in the reader's
language (item 4). The turn has a disputed report (the camps' forms differ, the GM is told by DM),
autocomplete, the pictures' alt text, DMs and the verifier page (item 6).
"""

from __future__ import annotations

import json
import re
import string
from typing import Any

import pytest

from bot.campaign.botsettings import LANGUAGES
from bot.i18n import en, t
from bot.i18n.catalogues import TRANSLATED, po_path, pot_path, read
from tests.store.test_battle_flow import REPORT, SCENARIO

from .test_battle_report import AU_LOSSES, FR_LOSSES, through_form
from .test_features import locales  # noqa: F401 - the fixture

pytestmark = pytest.mark.filterwarnings("ignore")


def words_of(value: Any, out: list[str]) -> list[str]:
    """Every text in a message, embed, component or modal payload."""
    if isinstance(value, str):
        out.append(value)
    elif isinstance(value, dict):
        for k, v in value.items():
            if k in ("content", "title", "description", "label", "placeholder", "name", "value", "text", "line",
                     "heading") and isinstance(v, str):
                if k == "value" and ("custom_id" in value or "label" in value):  # a select option's or an input's value is data
                    continue
                out.append(v)
            elif k not in ("custom_id", "url", "icon_url", "proxy_url", "id", "type", "style", "emoji", "key",
                           "fingerprint", "lang", "re", "fields", "say"):
                words_of(v, out)
    elif isinstance(value, list):
        for v in value:
            words_of(v, out)
    return out


def seen_in(messages) -> list[str]:
    out: list[str] = []
    for m in messages:
        out.append(m.content or "")
        for e in m.embeds:
            words_of(e.to_dict(), out)
        words_of(getattr(m, "components", []) or [], out)
        out += [a.description for a in getattr(m, "attachments", []) or [] if getattr(a, "description", None)]
    return out


async def page_texts(result) -> list[str]:
    """What the verifier page (an HTML attachment) says: its words and each roll's line (issue 23, item 6)."""
    out: list[str] = []
    for a in result.response.attachments if result.response is not None else []:
        if not a.filename.endswith(".html"):
            continue
        page = (await a.read()).decode("utf-8")
        for ident in ("words", "shown"):
            raw = re.search(rf'<script type="application/json" id="{ident}">(.*?)</script>', page, re.DOTALL)
            assert raw is not None, ident
            words_of({"value": json.loads(raw.group(1).replace("\\u003c", "<"))}, out)
    return out


def seen(result) -> list[str]:
    msgs = ([result.response] if result.response is not None else []) + list(result.followups)
    out = seen_in(msgs)
    if result.modal:
        words_of(result.modal, out)
    return out


_FIELD = re.compile(r"\{[^{}]*\}")


def english_fragments(lang: str) -> dict[str, str]:
    """English runs of three words or more from every catalogue entry whose translation differs,
    and that the translation does not itself contain (a name, a rule ID)."""
    out: dict[str, str] = {}
    for domain in ("bot", "engine"):
        for m in read(po_path(lang, domain), lang):
            if not m.id or not m.string:
                continue
            ids = [m.id] if isinstance(m.id, str) else list(m.id)
            strings = [m.string] if isinstance(m.string, str) else list(m.string)
            translated = " ".join(strings)
            for english in ids:
                for piece in _FIELD.split(english):
                    for frag in re.split(r"[*`\n()\[\]:;]|-#|·", piece):
                        frag = frag.strip(" .,!?'\"—–-")
                        if len(frag.split()) >= 3 and len(frag) >= 14 and frag not in translated:
                            out.setdefault(frag, english)
    return out


def single_words(lang: str) -> set[str]:
    """English words of the model and short labels (one or two words) that the catalogue translates."""
    out = set()
    for domain in ("bot", "engine"):
        for m in read(po_path(lang, domain), lang):
            if isinstance(m.id, str) and m.string and m.string != m.id and len(m.id.split()) <= 2 and "{" not in m.id:
                out.add(m.id)
    return out


_GROUPS = "|".join(sorted({k.split(".")[0] for k in en.MESSAGES}))
INTERNAL = re.compile(rf"\b(?:[a-z]+_[a-z_]+|(?:{_GROUPS})\.[a-z_]+)\b")


def leaks(lang: str, texts: list[str]) -> list[str]:
    fragments = english_fragments(lang)
    labels = single_words(lang)
    found = []
    for text in texts:
        for frag, english in fragments.items():
            if frag in text:
                at = text.index(frag)
                found.append(f"English {frag!r} (from {english[:60]!r}) in {text[max(0, at - 80):at + 60]!r}")
        stripped = text.strip(" *`_:.")
        if stripped and stripped in labels and not stripped[:1].isdigit():
            found.append(f"English label {stripped!r}")
        for key in INTERNAL.findall(text):
            if key.split(".")[0] not in ("campaign",) or key in en.MESSAGES:
                found.append(f"internal key {key!r} in {text[:120]!r}")
    return sorted(set(found))


_WORD = re.compile(r"[^\W\d_]+", re.UNICODE)
_DATA = re.compile(
    r"</[^>]+>|<[@#!&t][^>]*>"  # mentions, timestamps, command mentions (Discord shows them localised)
    r"|`[^`\s]*`"  # short code: a log line's `T1P0`, a side's key, a hash
    r"|\bt\d+/\S+"  # a roll's key (data for the verifier)
    r"|\b[A-Z]{2}-\d+(?:\.\d+)*\b"  # rule IDs
)


def _words(text: str) -> set[str]:
    return {w.lower() for w in _WORD.findall(_FIELD.sub(" ", text))}


def _entries(path) -> list[tuple[list[str], list[str]]]:
    out = []
    for m in read(path):
        if m.id:
            out.append(([m.id] if isinstance(m.id, str) else list(m.id),
                        [m.string] if isinstance(m.string, str) else list(m.string or ())))
    return out


def english_vocabulary(lang: str) -> frozenset[str]:
    """The game's English words that ``lang`` never uses: every word (three letters or more) of the
    English catalogue templates (``bot`` and ``engine``), less every word of ``lang``'s own
    translations (a cognate like "Phase" or "Total" is a word of both)."""
    english: set[str] = set()
    for domain in ("bot", "engine"):
        for ids, _ in _entries(pot_path(domain)):
            for text in ids:
                english |= _words(text)
    theirs: set[str] = set()
    for domain in ("bot", "engine", "commands"):
        for _, strings in _entries(po_path(lang, domain)):
            for text in strings:
                theirs |= _words(text)
    return frozenset(w for w in english - theirs if len(w) >= 3)


def plural_words(lang: str) -> frozenset[str]:
    """Words that follow ``{n}`` only in a plural form of ``lang``'s catalogues (``morts``, not ``mort``):
    "1 morts" is a plural mismatch."""
    many: set[str] = set()
    one: set[str] = set()
    after = re.compile(r"\{n[^}]*\}\s+([^\W\d_]+)")
    for domain in ("bot", "engine"):
        for ids, strings in _entries(po_path(lang, domain)):
            if len(ids) < 2 or len(strings) < 2:
                continue
            one |= set(after.findall(strings[0]))
            for form in strings[1:]:
                many |= set(after.findall(form))
    return frozenset(many - one)


_SLASH = re.compile(r"(?<![\w<])/([a-z]+(?: [a-z]+)?)")


def english_commands(lang: str) -> frozenset[str]:
    """Commands (``campaign join``) and groups whose name in ``lang`` is another: named in English in a
    ``lang`` reader's text, they are not what that reader's Discord lists."""
    out = set()
    for m in read(po_path(lang, "commands"), lang):
        context = m.context or ""
        if context.startswith("name:") and "." not in context and m.string and m.string != m.id:
            out.add(context[5:])
    return frozenset(out)


_ENGLISH_NUMBER = re.compile(r"\d\.\d+\s?%")
_PLACEHOLDER = re.compile(r"\{[a-z_][a-z0-9_]*(?:[!:][^{}]*)?\}")


def vocabulary_leaks(lang: str, texts: list[str], names: str = "") -> list[str]:
    """English words of the game, unfilled placeholders, plural mismatches and English numbers in
    what a ``lang`` reader saw. ``names`` holds the names a GM gave (shown as written)."""
    vocabulary = english_vocabulary(lang) - _words(names)
    plurals = plural_words(lang)
    found = []
    for text in texts:
        plain = _DATA.sub(" ", text)
        for word in _WORD.findall(plain):
            if word.lower() in vocabulary:
                at = plain.find(word)
                found.append(f"English word {word!r} in {plain[max(0, at - 60):at + 60]!r}")
        for field in _PLACEHOLDER.findall(text):
            found.append(f"placeholder {field!r} in {text[:120]!r}")
        for word in re.findall(r"(?<![\d.,])\b1\s+([^\W\d_]+)", plain.replace("*", "")):
            if word in plurals:
                found.append(f"plural mismatch '1 {word}' in {plain[:120]!r}")
        for number in _ENGLISH_NUMBER.findall(plain):
            found.append(f"English number {number!r} in {plain[:120]!r}")
        for command in _SLASH.findall(text):
            if command in english_commands(lang):
                found.append(f"English command name {command!r} in {text[:120]!r}")
        if re.search(r"\w v \w", plain):
            found.append(f"English 'v' between sides in {plain[:120]!r}")
    return sorted(set(found))


LOCAL_NAMES = {  # issue 23, item 4: the scenario names its title, sides and Forces in five languages
    "Skirmish at the bridge": {"it": "Scaramuccia al ponte", "es": "Escaramuza en el puente", "fr": "Escarmouche au pont",
                               "de": "Gefecht an der Brücke"},
    "France": {"it": "Francia", "es": "Francia", "fr": "France", "de": "Frankreich"},
    "Austria": {"it": "Austria", "es": "Austria", "fr": "Autriche", "de": "Österreich"},
    "V Corps": {"it": "V Corpo", "es": "V Cuerpo", "fr": "Ve Corps", "de": "V. Korps"},
    "Army of Mack": {"it": "Armata di Mack", "es": "Ejército de Mack", "fr": "Armée de Mack", "de": "Armee Mack"},
}


def localised_scenario() -> str:
    """The test's scenario with its title, sides and Forces named in every language."""
    text = SCENARIO
    for english, said in LOCAL_NAMES.items():
        flow = "{" + ", ".join(f"{lang}: {name}" for lang, name in {"en": english, **said}.items()) + "}"
        text = text.replace(f"name: {english}", f"name: {flow}")
    assert text.count("{en: ") == len(LOCAL_NAMES)
    return text


def english_names(lang: str, texts: list[str]) -> list[str]:
    """The scenario's names shown in English where it names them in ``lang``."""
    found = []
    for english, said in LOCAL_NAMES.items():
        if said[lang] == english or english in said[lang]:
            continue
        for text in texts:
            plain = _DATA.sub(" ", text)
            if re.search(rf"(?<!\w){re.escape(english)}(?!\w)", plain):
                found.append(f"name {english!r} in {plain[:140]!r}")
    return sorted(set(found))


async def play_a_turn(table, lang: str) -> dict[str, list[str]]:
    """Create, join, order, move into a battle, report it, roll its aftermath, fate, trophy, retreat,
    Glory, and end the turn, every member in ``lang``. Returns what each member saw."""
    seen_by: dict[str, list[str]] = {"gm": [], "fr": [], "au": []}

    async def act(who: str, coro):
        result = await coro
        seen_by[who] += seen(result)
        return result

    gm, fr, au, ch = table.gm, table.fr, table.au, table.channel
    await act("gm", gm.slash(ch, "campaign create", name="Bridge", scenario="bridge",
                             file=("bridge.yaml", localised_scenario().encode())))
    await act("gm", gm.slash(ch, "campaign settings", name="language", value=lang))
    # the settings' pages name each setting and value in the reader's words, not `deadline_hours` (item 2)
    pages = await act("gm", gm.slash(ch, "campaign settings"))
    cid = re.search(r"adc:setp:(\d+)", str(pages.response.components)).group(1)
    rules = await act("gm", gm.select(pages.response, ["rules"], custom_id=f"adc:setp:{cid}"))
    pick = await act("gm", gm.select(rules.response, ["mercenary_desertion"], custom_id=f"adc:setk:{cid}:rules"))
    await act("gm", gm.select(pick.response, ["check_all"], custom_id=f"adc:setv:{cid}:mercenary_desertion"))
    seen_by["gm"] += [c["name"] for c in await gm.autocomplete(ch, "campaign settings", "name", "")]
    seen_by["gm"] += [c["name"] for c in await gm.autocomplete(ch, "campaign settings", "value", "",
                                                             name="unmanned_sides")]
    await act("gm", gm.slash(ch, "campaign settings", name="deadline_hours"))
    await act("fr", fr.slash(ch, "campaign join", side="fr"))
    joined = await act("au", au.slash(ch, "campaign join", side="au"))
    await act("au", au.click(joined.response, label=t(lang, "howto.button")))

    async def resolve(label_key: str = "gm.resolve"):
        card = await act("gm", gm.slash(ch, "gm advance"))
        await act("gm", gm.click(card.response, label=t(lang, label_key)))

    await resolve()
    await act("fr", fr.slash(ch, "campaign status"))
    odds = await act("fr", fr.slash(ch, "order give", force="lannes", order="forced_march"))
    await act("fr", fr.click(odds.response, label=t(lang, "confirm.roll")))
    await act("fr", fr.slash(ch, "order done"))
    await act("au", au.slash(ch, "order done"))
    odds = await act("fr", fr.slash(ch, "order move", force="lannes", path="E4"))
    await act("fr", fr.click(odds.response, label=t(lang, "confirm.roll")))
    await act("fr", fr.slash(ch, "order done"))
    await act("au", au.slash(ch, "order done"))
    (thread,) = table.channel.threads
    await act("au", au.slash(thread, "battle scout", battle="1"))
    # the camps report on their forms and differ (BR): the GM is told by DM, and reports the battle
    form = await act("fr", fr.slash(thread, "battle report", battle="1"))
    for step in await through_form(fr, form, lang=lang, outcome="won", banners="7/7", losses=FR_LOSSES):
        seen_by["fr"] += seen(step)  # the losses' pages too: number boxes named in the reader's words (item 1)
    form = await act("au", au.slash(thread, "battle report", battle="1"))
    for step in await through_form(au, form, lang=lang, outcome="won", banners="4/7", losses=AU_LOSSES):
        seen_by["au"] += seen(step)
    for who, member, command, option in (("fr", fr, "order give", "force"), ("au", au, "battle retreat", "square"),
                                          ("fr", fr, "trophy roll", "unit")):
        suggested = await member.autocomplete(thread if who == "au" or command == "trophy roll" else ch, command,
                                              option, "", **({"battle": "1"} if command != "order give" else {}))
        seen_by[who] += [c["name"] for c in suggested]
    preview = await act("gm", gm.slash(ch, "battle report", battle="1",
                                       file=("report.json", json.dumps(REPORT).encode())))
    await act("gm", gm.click(preview.response, label=t(lang, "report.confirm")))
    button = thread.history()[-1]
    await act("au", au.click(button, label=t(lang, "aftermath.button")))
    await act("au", au.slash(thread, "leader fate", leader="Mack", circumstance="melee"))
    await act("fr", fr.slash(thread, "trophy roll", battle="1", unit="hussars", target="jaegers"))
    await act("au", au.slash(thread, "battle retreat", battle="1", square="F4"))
    await act("fr", fr.slash(ch, "glory balance"))
    await act("fr", fr.slash(ch, "campaign status"))
    await act("au", au.slash(ch, "campaign map"))
    await act("fr", fr.slash(ch, "campaign log"))
    await act("gm", gm.slash(ch, "help"))
    await resolve("gm.resolve_anyway")
    page = await page_texts(await act("fr", fr.slash(ch, "campaign verify")))
    assert len(page) > 10  # the page's words and its rolls' lines, in the reader's language
    seen_by["fr"] += page
    for who, member in (("gm", gm), ("fr", fr), ("au", au)):
        seen_by[who] += seen_in(ch.history(viewer=member))
        seen_by[who] += seen_in(thread.history(viewer=member))
        if member.user.dm_channel is not None:
            seen_by[who] += seen_in(member.user.dm_channel.history())
    assert gm.user.dm_channel is not None and gm.user.dm_channel.history()  # the GM was told the reports differ
    table.env.errors  # noqa: B018 - refusals are acknowledged; the words are what this test reads
    return seen_by


@pytest.mark.parametrize("lang", TRANSLATED)
async def test_a_full_turn_with_a_battle_speaks_only_the_members_language(table, locales, lang) -> None:  # noqa: F811
    discord_locale = {"it": "it", "es": "es-ES", "fr": "fr", "de": "de"}[lang]
    for member in (table.gm, table.fr, table.au):
        locales[member.id] = discord_locale
    seen_by = await play_a_turn(table, lang)
    assert sum(len(v) for v in seen_by.values()) > 100  # the turn really was played and shown
    names = SCENARIO + " karl pierre " + " ".join(said[lang] for said in LOCAL_NAMES.values())
    found = {who: leaks(lang, texts) + vocabulary_leaks(lang, texts, names) + english_names(lang, texts)
             for who, texts in seen_by.items()}
    assert not any(found.values()), "\n".join(f"{who}: {line}" for who, lines in found.items() for line in lines[:60])


def test_the_leak_detector_finds_english_and_keys() -> None:
    """The check can fail: an English sentence, a label and a key are each caught."""
    assert leaks("it", ["Roll anyway"]) and leaks("it", ["state: status.turn"]) and leaks("it", ["order: forced_march"])
    english = next(iter(english_fragments("it")))
    assert leaks("it", [f"x {english} y"])
    assert not leaks("it", ["Armée d'Italie", "MC-4", "1796-04-12"])
    assert "fr" in LANGUAGES and "de" in LANGUAGES and string.ascii_letters


@pytest.mark.parametrize("lang", TRANSLATED)
def test_the_vocabulary_check_catches_english_words_placeholders_plurals_and_numbers(lang: str) -> None:
    """Issue 23, item 7: the checks can fail, and names, rule IDs and data pass."""
    assert vocabulary_leaks(lang, ["Météo: overcast"]) and vocabulary_leaks(lang, ["(left in rout)"])
    assert vocabulary_leaks(lang, ["Tour {turn}"])
    assert vocabulary_leaks(lang, ["**16.7%** ok"])
    assert vocabulary_leaks(lang, ["… /campaign join."]) and vocabulary_leaks(lang, ["Austria v France"])
    assert not vocabulary_leaks(lang, ["Army of Mack (MC-7.3)", "`T1P0`", "t1/p1/force:lannes/force-test"],
                                names="Army of Mack")
    assert plural_words(lang)  # every catalogue has plurals to check against


async def test_after_a_restart_the_first_click_says_the_scenarios_names_in_the_readers_language(
        table, locales, tmp_path) -> None:  # noqa: F811
    """Issue 23, item 5: a button clicked after a restart, where no command has run since, names the
    scenario's sides and Forces in the reader's language on that first click (its campaign is named by
    the button's own id, not by a command that looked the channel up)."""
    from .conftest import make_bot

    for member in (table.gm, table.fr, table.au):
        locales[member.id] = "fr"
    gm, fr, au, ch = table.gm, table.fr, table.au, table.channel
    await gm.slash(ch, "campaign create", name="Bridge", scenario="bridge",
                   file=("bridge.yaml", localised_scenario().encode()))
    await gm.slash(ch, "campaign settings", name="language", value="fr")
    await fr.slash(ch, "campaign join", side="fr")
    await au.slash(ch, "campaign join", side="au")
    card = await gm.slash(ch, "gm advance")
    await gm.click(card.response, label=t("fr", "gm.resolve"))
    for order in ({"order": "forced_march"}, {"path": "E4"}):  # Lannes marches into the Austrians at E4
        odds = await fr.slash(ch, "order give" if "order" in order else "order move", force="lannes", **order)
        await fr.click(odds.response, label=t("fr", "confirm.roll"))
        await fr.slash(ch, "order done")
        await au.slash(ch, "order done")
    preview = await gm.slash(ch, "battle report", battle="1", file=("report.json", json.dumps(REPORT).encode()))
    await gm.click(preview.response, label=t("fr", "report.confirm"))
    (thread,) = ch.threads
    button = thread.history()[-1]

    await table.env.restart_bot(make_bot(tmp_path))
    rolled = await au.click(button, label=t("fr", "aftermath.button"))  # the first interaction of the new bot
    said = seen(rolled)
    assert any(LOCAL_NAMES["Austria"]["fr"] in text for text in said), said
    assert not english_names("fr", said), english_names("fr", said)
