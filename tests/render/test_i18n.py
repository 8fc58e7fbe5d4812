"""Maps in the reader's language (bot/render/words.py): the title band, the legend and the text
report say their words in ``snapshot.lang``; names stay as written; English is unchanged."""

from __future__ import annotations

import dataclasses

import pytest

from bot.engine.text import Msg
from bot.render import Counter, render_image, text_report
from bot.render.furniture import legend_entries, subtitle
from bot.render.words import say, word

from .conftest import render_words_translated, sq
from .samples import tutorial_battle_snapshot, tutorial_battle_snapshot_it

needs_words = pytest.mark.skipif(not render_words_translated("it"),
                                 reason="the map's words are not in the Italian catalogue yet")


def _labels(snapshot):
    cmap = snapshot.cmap
    return [e.label for e in legend_entries(snapshot, 0, 0, cmap.width, cmap.height)]


def test_english_is_said_as_it_is():
    assert say("en", Msg("{name}'s view", name="France")) == "France's view"
    assert word("en", "forced march") == "Forced march"
    assert say("en", None) == ""


def test_an_english_map_keeps_its_words(tutorial):
    assert "Stronghold" in _labels(tutorial) and "Open" in _labels(tutorial)
    assert subtitle(tutorial) == "Turn 1  ·  7 October 1805  ·  Autumn  ·  Fine  ·  Phase 1: Orders"


def test_the_date_season_weather_phase_and_ground_are_said_in_italian():
    it = tutorial_battle_snapshot_it()
    first = text_report(it, view="fr").splitlines()[0]
    assert "9 ott 1805, Autunno, Pioggia, Fase 3: Battaglia (MC-6)" in first
    assert "(aperto, fiume, ponte, strada)" in text_report(it)
    labels = _labels(it)
    assert {"Aperto", "Foresta", "Palude", "Strada", "Ponte", "Marce Forzate", "Confusa", "In rotta"} <= set(labels)
    assert not {"Open", "Forest", "Forced march", "Confused"} & set(labels)


def test_an_iso_date_is_written_the_readers_way():
    en = dataclasses.replace(tutorial_battle_snapshot(), date="1805-10-09")
    assert "Oct 9, 1805" in subtitle(en)
    assert "09.10.1805" in subtitle(dataclasses.replace(en, lang="de"))


def test_names_stay_as_written_in_every_language(tutorial, make_snapshot):
    snap = make_snapshot(Counter("m", "Armée d'Italie", "fr", sq("C3"), 12), lang="it")
    assert "- Armée d'Italie " in text_report(snap)
    assert render_image(snap).size == render_image(dataclasses.replace(snap, lang="en")).size


@needs_words
def test_an_italian_map_has_an_italian_legend_and_report(tutorial, make_snapshot):
    it = tutorial_battle_snapshot_it()
    labels = _labels(it)
    assert {"Caposaldo", "Capitale", "Battaglia", "Ultimo avvistamento"} <= set(labels)
    assert not {"Stronghold", "Capital", "Battle", "Last seen"} & set(labels)
    assert subtitle(it).startswith("Turno 3  ·  ")
    snap = make_snapshot(Counter("w", "Werneck", "au", sq("J2"), 14), Counter("m", "Mack", "au", sq("K5"), None),
                         cmap=tutorial.cmap, lang="it")
    report = text_report(snap, view="au")
    assert "- Werneck in J2 (aperto, caposaldo di Austria): 14 PF." in report
    assert "caposaldo di Austria" in report and "capitale di Austria" in report
    assert "Austria: 2 Forze." in report and "France: nessuna Forza mostrata." in report
    assert "Stronghold" not in report and "stronghold" not in report and "Forces" not in report
