"""The turn gazette (issue 13, item 6): a turn in a few plain sentences, from the state and the turn's log,
never more than the reader may read."""

from __future__ import annotations

import re
from dataclasses import replace

from bot.campaign import gazette
from bot.campaign.plain import report_from
from bot.campaign.sight import GM, Reader
from bot.campaign.state import Battle, BattleStatus, TurnSeed
from bot.engine.text import Msg
from tests.campaign.test_orders_core import Member
from tests.campaign.test_views import _state

FRENCH, AUSTRIAN, RUSSIAN, PUBLIC = Reader(side="fr"), Reader(side="au"), Reader(side="ru"), Reader()

REPORT = {"system": "cc", "banners_required": 7, "sides": [{"side": "fr", "outcome": "won", "banners": 7},
                                                           {"side": "au", "outcome": "lost", "banners": 3}]}
DRAWN = {"system": "cc", "banners_required": 7, "sides": [{"side": "au", "outcome": "draw", "banners": 5},
                                                          {"side": "ru", "outcome": "draw", "banners": 5}]}

LOG = [
    ("public", Msg("Weather (house rule RU-10): {weather}{mod}; {wind}.", weather="Rain", mod="", wind="a strong wind")),
    ("public", "Turn 2 dice: SHA-256 of the turn seed is " + "ab" * 32 + " (revealed when the turn ends)."),
    ("side:au", Msg("{force} arrives at {square} ({side}).", force="Kienmayer", square="A1", side="Austria")),
    ("battle:2", Msg("Battle {number} at {square} reported: {lines}.", number=2, square="J9", lines="Army of Mack lost 3")),
    ("public", Msg("{side} tests its Will to Fight because {why}: {outcome}.", side="Austria",
                   why="it lost a battle this turn (MC-9)", outcome="the side fights on")),
    ("public", Msg("Phase 7 resolved.")),
]


def _turn_two():
    state = _state()
    battles = {1: state.battles[1],
               2: Battle(2, 2, "J9", ("mack", "kutuzov"), ("au", "ru"), BattleStatus.DONE,
                         report=report_from(DRAWN, 2)),
               3: Battle(3, 2, "C4", ("soult", "ferdinand"), ("fr", "au"), BattleStatus.DONE,
                         report=report_from(REPORT, 3))}
    return replace(state, battles=battles, seeds={2: TurnSeed(2, "cd" * 32, "ef" * 32, revealed=True)})


def test_the_gazette_tells_weather_battles_and_will_to_fight_in_plain_sentences() -> None:
    g = gazette.gazette(_turn_two(), PUBLIC, 2, LOG)
    assert list(map(str, g.lines)) == [
        "Weather: Rain; a strong wind.",
        "Battle 2 at J9: Austria, Russia fought to a draw.",
        "Battle 3 at C4: France beat Austria.",
        "Austria tests its Will to Fight because it lost a battle this turn (MC-9): the side fights on.",
    ]
    assert g.dice_revealed and str(g.next) == "Next: turn 3, 1805-10-21 (autumn)." and g.battle_squares == ("J9", "C4")
    text = " ".join(g.lines)
    assert not re.search(r"[0-9a-f]{64}", text) and "{" not in text


def test_the_gazette_repeats_a_private_line_only_to_the_readers_of_that_line() -> None:
    state = _turn_two()
    assert "Kienmayer arrives at A1 (Austria)." in gazette.gazette(state, AUSTRIAN, 2, LOG).lines
    assert "Kienmayer arrives at A1 (Austria)." in gazette.gazette(state, GM, 2, LOG).lines
    for reader in (PUBLIC, FRENCH, RUSSIAN):
        told = " ".join(gazette.gazette(state, reader, 2, LOG).lines)
        assert "Kienmayer" not in told and "Army of Mack" not in told
        for force in state.forces.values():  # no Force is named to anyone but those told of it
            assert force.name not in told


def test_a_turn_without_battles_says_so_and_an_unrevealed_turn_offers_no_dice_to_check() -> None:
    state = replace(_turn_two(), seeds={2: TurnSeed(2, "cd" * 32, "ef" * 32)})
    g = gazette.gazette(state, PUBLIC, 1, [])
    assert list(map(str, g.lines)) == ["Battle 1 at D4 between France, Austria: no result reported."]
    g = gazette.gazette(replace(state, battles={}), PUBLIC, 2, [])
    assert list(map(str, g.lines)) == ["No battle was fought this turn."] and not g.dice_revealed


def test_the_deadline_line_reads_as_a_time_in_every_language_after_the_log_stores_it() -> None:
    import datetime as dt

    from bot.campaign.edits import set_deadline
    from bot.campaign.events import Journal
    from bot.i18n.text import known_templates, tr

    state, journal = _state(), Journal()
    set_deadline(state, Member(state.gm_id), 26.0, dt.datetime(2026, 1, 1, tzinfo=dt.UTC), journal)
    stored = Msg.from_json(journal.events[0].text.to_json(), known=known_templates())  # as the log reads it back
    for lang in ("en", "it", "es"):
        said = tr(lang, stored)
        assert "2026-01-02 02:00 UTC" in said and "{" not in said and "%" not in said, said
