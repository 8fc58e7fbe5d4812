"""Grammar by the catalogue (issue 23, item 3): counts through plural forms, whole messages for agreement,
numbers, chances and dates through Babel, French elision; names the bot composes said in the reader's
words."""

from __future__ import annotations

from fractions import Fraction

import pytest

from bot.campaign.turn import wind_words
from bot.engine.text import Msg
from bot.i18n import t, versus
from bot.i18n.locale import percent, render_in
from bot.i18n.text import tr


@pytest.mark.parametrize(("lang", "said"), [("en", "16.7%"), ("it", "16,7%"), ("es", "16,7\xa0%"),
                                             ("fr", "16,7\xa0%"), ("de", "16,7\xa0%")])
def test_a_chance_is_written_the_readers_way(lang: str, said: str) -> None:
    assert percent(lang, Fraction(1, 6)) == said
    assert percent(lang, 0.0001).startswith("<0")


def test_french_elides_before_a_vowel_and_nowhere_else() -> None:
    assert render_in("fr", "Réglages de {name}", {"name": "Ulm"}) == "Réglages d'Ulm"
    assert render_in("fr", "Réglages de {name}", {"name": "Bridge"}) == "Réglages de Bridge"
    assert render_in("fr", "la Force de {n}", {"n": 3}) == "la Force de 3"
    assert render_in("fr", "que {side} et le {x}", {"side": "Autriche", "x": "Hanovre"}) == "qu'Autriche et le Hanovre"
    assert render_in("it", "de {name}", {"name": "Ulm"}) == "de Ulm"  # only French elides this way


def test_one_is_said_in_the_singular_in_every_language() -> None:
    counts = Msg.plural(1, "{n} dead", "{n} dead")
    assert tr("fr", counts) == "1 mort" and tr("fr", Msg.plural(2, "{n} dead", "{n} dead")) == "2 morts"
    assert tr("it", counts) == "1 morto" and tr("es", counts) == "1 muerto"
    line = Msg.plural(1, "{force}: {n} SP killed in {unit} takes the wounded check (MC-7.1)",
                      "{force}: {n} SP killed in {unit} take the wounded check (MC-7.1)", force="V", unit="Suchet")
    assert "getöteter SP von Suchet legt" in tr("de", line) and "tué dans Suchet passe" in tr("fr", line)


def test_the_wind_agrees_as_a_whole_phrase() -> None:
    line = Msg("Weather (house rule RU-10): {weather}{mod}; {wind}.", weather="Overcast", mod="",
               wind=wind_words("none"))
    assert tr("fr", line).endswith("Couvert ; pas de vent.") and tr("de", line).endswith("Bedeckt; kein Wind.")
    assert str(line) == "Weather (house rule RU-10): Overcast; no wind."


def test_one_date_style_in_english_too() -> None:
    line = Msg("Time (house rule RU-10): the calendar advances to {date} ({season}).", date="1796-04-17",
               season="spring")
    assert tr("en", line) == "Time (house rule RU-10): the calendar advances to Apr 17, 1796 (spring)."
    assert "17 avr. 1796" in tr("fr", line) and "17.04.1796" in tr("de", line)


def test_a_new_leaders_name_and_the_sides_of_a_battle_are_said_in_the_readers_words() -> None:
    took = Msg("{replacement} takes command of {force}, with {leader}'s Command Value ({rule}).",
               replacement="New Leader (infantry) of Army of Mack", force="Army of Mack", leader="Mack", rule="CC-2")
    assert tr("fr", took).startswith("Nouveau chef (infanterie) d'Army of Mack prend le commandement d'Army")
    assert versus("en", ["Austria", "France"]) == "Austria v France"
    assert versus("fr", ["Autriche", "France"]) == "Autriche contre France"
    assert " v " not in t("de", "battle.versus", left="A", right="B")
