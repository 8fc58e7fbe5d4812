"""A full turn with a battle, played by members who read Italian, Spanish, French or German (issue 14).

The campaign's language is the members' own, so the public posts are in it too. Everything each
member is shown (messages and ephemeral answers: content, embeds, buttons, select options, modal
labels) is collected, and the test fails on any English text whose translation the catalogue holds,
on any internal key (``status.turn``, ``forced_march``) and on a weather or order key shown as it is.
"""

from __future__ import annotations

import json
import re
import string
from typing import Any

import pytest

from bot.campaign.botsettings import LANGUAGES
from bot.i18n import en, t
from bot.i18n.catalogues import TRANSLATED, po_path, read
from tests.store.test_battle_flow import REPORT, SCENARIO

from .test_features import locales  # noqa: F401 - the fixture

pytestmark = pytest.mark.filterwarnings("ignore")


def words_of(value: Any, out: list[str]) -> list[str]:
    """Every text in a message, embed, component or modal payload."""
    if isinstance(value, dict):
        for k, v in value.items():
            if k in ("content", "title", "description", "label", "placeholder", "name", "value", "text") and isinstance(v, str):
                if k == "value" and "custom_id" in value:  # a select option's or a text input's value is data
                    continue
                out.append(v)
            elif k not in ("custom_id", "url", "icon_url", "proxy_url", "id", "type", "style", "emoji"):
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
                             file=("bridge.yaml", SCENARIO.encode())))
    await act("gm", gm.slash(ch, "campaign settings", name="language", value=lang))
    await act("fr", fr.slash(ch, "campaign join", side="fr"))
    await act("au", au.slash(ch, "campaign join", side="au"))

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
    for who, member in (("gm", gm), ("fr", fr), ("au", au)):
        seen_by[who] += seen_in(ch.history(viewer=member))
        seen_by[who] += seen_in(thread.history(viewer=member))
    table.env.errors  # noqa: B018 - refusals are acknowledged; the words are what this test reads
    return seen_by


@pytest.mark.parametrize("lang", TRANSLATED)
async def test_a_full_turn_with_a_battle_speaks_only_the_members_language(table, locales, lang) -> None:  # noqa: F811
    discord_locale = {"it": "it", "es": "es-ES", "fr": "fr", "de": "de"}[lang]
    for member in (table.gm, table.fr, table.au):
        locales[member.id] = discord_locale
    seen_by = await play_a_turn(table, lang)
    assert sum(len(v) for v in seen_by.values()) > 100  # the turn really was played and shown
    found = {who: leaks(lang, texts) for who, texts in seen_by.items()}
    assert not any(found.values()), "\n".join(f"{who}: {line}" for who, lines in found.items() for line in lines[:40])


def test_the_leak_detector_finds_english_and_keys() -> None:
    """The check can fail: an English sentence, a label and a key are each caught."""
    assert leaks("it", ["Roll anyway"]) and leaks("it", ["state: status.turn"]) and leaks("it", ["order: forced_march"])
    english = next(iter(english_fragments("it")))
    assert leaks("it", [f"x {english} y"])
    assert not leaks("it", ["Armée d'Italie", "MC-4", "1796-04-12"])
    assert "fr" in LANGUAGES and "de" in LANGUAGES and string.ascii_letters
