"""What the gazette's picture gets (issue 22, item 3), pure: the frame of an ended turn keeps each battle's
outcome and retreats, made before the next turn starts; every reader's map of it shows the winners (public
news) and the retreats that reader was told of, with the reader's veil; the gazette names a battle after
its place; the plan's gazette carries the turn's own frame."""

from __future__ import annotations

from dataclasses import replace

from bot.campaign import announce, gazette, views
from bot.campaign.frames import Frame, at, end_of_turn
from bot.campaign.sight import GM, Reader
from bot.campaign.state import Aftermath
from bot.engine.grid import CampaignMap
from bot.engine.model import Cell, Outcome, Place, Square
from bot.engine.phases import Phase
from tests.campaign.test_gazette import _turn_two

FRENCH, AUSTRIAN, RUSSIAN, PUBLIC = Reader(side="fr"), Reader(side="au"), Reader(side="ru"), Reader()
RETREAT = views.MoveLine("au", "C4", ("D4",))


def ended_turn_two():
    """Turn 2 over: France beat Austria at C4 (Ferdinand retreated to D4), Austria and Russia drew at J9;
    the campaign stands in turn 3."""
    before = _turn_two().evolve(phase=Phase.EVENTS, weather="RAIN")
    won = replace(before.battles[3], aftermath=Aftermath(retreats={"ferdinand": "D4"}))
    after = before.evolve(turn=3, phase=Phase.ORDERS, weather="FINE", battles={**before.battles, 3: won}) \
        .with_force("ferdinand", square="D4")
    return before, after


def test_the_frame_of_a_turn_keeps_each_battles_outcome_and_where_its_forces_retreated() -> None:
    before, after = ended_turn_two()
    f = end_of_turn(before, after)
    assert [(b.number, b.square, dict(b.outcomes), b.retreats) for b in f.results] == [
        (2, "J9", {"au": Outcome.DRAW, "ru": Outcome.DRAW}, ()),
        (3, "C4", {"fr": Outcome.WON, "au": Outcome.LOST}, (("ferdinand", "D4"),))]
    assert Frame.from_json(f.to_json()) == f
    old = {k: v for k, v in f.to_json().items() if k != "results"} | {"v": 1}  # a frame kept before
    assert Frame.from_json(old).results == () and views.map_view(at(after, Frame.from_json(old)), PUBLIC).battles \
        == ("J9", "C4")


def test_every_reader_sees_the_winners_and_only_the_camps_and_those_who_see_it_the_retreat() -> None:
    before, after = ended_turn_two()
    shown = at(after, end_of_turn(before, after))
    public = views.map_view(shown, PUBLIC)
    assert [(b.square, b.winner, b.reported) for b in public.results] == [("J9", None, True), ("C4", "fr", True)]
    assert public.markers == () and public.visible is None  # the public map shows no Force and veils nothing
    # Russia (Kutuzov at K9) does not see C4: the retreat is the camps' news, not public news (sight.py)
    assert public.retreats == () and views.map_view(shown, RUSSIAN).retreats == ()
    for reader in (FRENCH, AUSTRIAN, GM):
        assert views.map_view(shown, reader).retreats == (RETREAT,)
    french = views.map_view(shown, FRENCH)
    assert french.visible is not None and Square.parse("C4") in french.visible  # the veil of that turn
    assert Square.parse("K9") not in french.visible
    # once every side sees the battle's square, its retreats are public news
    f = end_of_turn(before, after.with_force("kutuzov", square="C6"))
    assert views.map_view(at(after, f), PUBLIC).retreats == (RETREAT,)


def test_the_live_map_shows_a_reported_battle_with_its_winner_before_the_turn_ends() -> None:
    before, _ = ended_turn_two()
    live = views.map_view(before.evolve(phase=Phase.AFTERMATH), PUBLIC)
    assert {b.square: b.winner for b in live.results} == {"J9": None, "C4": "fr"}


def test_the_gazette_names_a_battle_after_the_place_the_map_names() -> None:
    before, _ = ended_turn_two()
    named = before.evolve(map=CampaignMap(12, 10, {Square.parse("C4"): Cell(place=Place("Montenotte"))}))
    lines = list(map(str, gazette.gazette(named, PUBLIC, 2, []).lines))
    assert lines == ["Battle 2 at J9: Austria, Russia fought to a draw.",
                     "Battle of Montenotte (C4): France beat Austria."]


def test_the_plan_of_the_resolution_that_ends_a_turn_gives_its_gazette_that_turns_picture() -> None:
    before, after = ended_turn_two()
    plan = announce.resolution(before, after, [], turn_ended=True)
    (post,) = plan.of(announce.What.GAZETTE)
    assert post.turn == 2 and post.frame is not None and post.frame.turn == 2  # not the next turn's map
    assert post.frame.weather == "RAIN" and [b.square for b in post.frame.results] == ["J9", "C4"]
