"""The scenario says where a campaign is fought (RU-17: Anti-Guerrilla in Spain, Ordenanza in Portugal)."""

from __future__ import annotations

from bot.engine.cc_model import Theatre
from bot.scenario import parse_scenario

from .conftest import minimal, refused


def test_ru17_the_theatre_defaults_to_neither_spain_nor_portugal() -> None:
    assert parse_scenario(minimal()).theatre is Theatre.OTHER


def test_ru17_the_theatre_is_read_as_a_word() -> None:
    assert parse_scenario({**minimal(), "theatre": " Spain "}).theatre is Theatre.SPAIN
    assert parse_scenario({**minimal(), "theatre": "portugal"}).theatre is Theatre.PORTUGAL


def test_ru17_an_unknown_theatre_is_refused_with_the_words_allowed() -> None:
    assert refused({**minimal(), "theatre": "russia"}) == (
        "Scenario field theatre: unknown value 'russia'; allowed: spain, portugal, other")
