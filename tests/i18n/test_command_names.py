"""Command names as each language's Discord lists them (issue 23, item 5): accents kept where Discord
allows them (``créer``, ``vérifier``, ``règles``, ``trophée``), every name one a Discord accepts, and no
two names colliding among their siblings in any language."""

from __future__ import annotations

from collections import defaultdict

import pytest

from bot.i18n.catalogues import TRANSLATED, po_path, pot_path, read


def names(lang: str) -> dict[str, str]:
    """Every command's, group's and option's key (``campaign create.scenario``) -> its name in ``lang``."""
    english = {m.context[5:]: m.id for m in read(pot_path("commands")) if (m.context or "").startswith("name:")}
    if lang == "en":
        return english
    said = {m.context[5:]: m.string for m in read(po_path(lang, "commands"), lang)
            if (m.context or "").startswith("name:") and m.string}
    return {key: said.get(key, name) for key, name in english.items()}


def siblings(key: str) -> str:
    """What a name must differ from: the other options of its command, or the other commands of its group."""
    if "." in key:
        return key.split(".")[0] + "."
    return key.rsplit(" ", 1)[0] + " " if " " in key else ""


def discord_accepts(name: str) -> bool:
    """Discord's rule for a chat command's names: 1 to 32 letters (any script), digits, ``-`` or ``_``,
    lowercase where the letter has a case."""
    return 1 <= len(name) <= 32 and name == name.lower() and all(c.isalnum() or c in "-_" for c in name)


@pytest.mark.parametrize("lang", ("en", *TRANSLATED))
def test_every_name_is_one_discord_accepts_and_none_collides(lang: str) -> None:
    said = names(lang)
    assert all(discord_accepts(n) for n in said.values()), [n for n in said.values() if not discord_accepts(n)]
    groups: dict[str, list[str]] = defaultdict(list)
    for key, name in said.items():
        groups[siblings(key)].append(name)
    clashes = {where: sorted(n for n in ns if ns.count(n) > 1) for where, ns in groups.items() if len(set(ns)) < len(ns)}
    assert not clashes, clashes


def test_french_names_keep_their_accents() -> None:
    said = names("fr")
    assert said["campaign create"] == "créer" and said["campaign verify"] == "vérifier"
    assert said["rules"] == "règles" and said["trophy"] == "trophée" and said["roll dice"] == "dés"
    assert said["campaign create.scenario"] == "scénario" and said["leader fate.designation"] == "désignation"
    assert said["gm edit.reaction"] == "réaction"
