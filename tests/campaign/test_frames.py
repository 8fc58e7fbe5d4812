"""The timelapse's frames (bot/campaign/frames.py), pure: what a frame keeps at the end of a turn, and
the fog of war each reader gets on it (the same sight rule as the map's)."""

from __future__ import annotations

from bot.campaign import views
from bot.campaign.frames import Frame, FrameForce, at, end_of_turn, timeline
from bot.campaign.sight import GM, Reader
from bot.campaign.state import Battle, BattleStatus
from bot.engine.phases import Phase

from .test_views import _state

FRENCH, AUSTRIAN, OUTSIDER = Reader(side="fr"), Reader(side="au"), Reader()


def frame(turn: int, *forces: tuple[str, str, str, str, int], battles: tuple[str, ...] = ()) -> Frame:
    return Frame(turn, "1805-10-07", "FINE", tuple(FrameForce(*f) for f in forces), battles)


def markers(state, reader: Reader) -> dict[str, views.Marker]:
    return {m.force: m for m in views.map_view(state, reader).markers}


def test_the_frame_of_an_ended_turn_keeps_the_forces_on_the_map_its_battles_and_holdings() -> None:
    before = _state(Phase.EVENTS).evolve(weather="RAIN")
    after = before.evolve(turn=3, phase=Phase.ORDERS, weather="FINE", holdings={"E4": "fr"}, battles={
        **before.battles, 3: Battle(3, 2, "C4", ("soult", "ferdinand"), ("fr", "au"), BattleStatus.DONE)})
    f = end_of_turn(before, after)
    assert (f.turn, f.date, f.weather) == (2, "1805-10-14", "RAIN")  # the ended turn's date and weather
    assert {x.key: (x.side, x.square, x.sp) for x in f.forces} == {
        "soult": ("fr", "C4", 9), "lannes": ("fr", "B2", 5), "ferdinand": ("au", "E4", 4), "mack": ("au", "J8", 7),
        "kutuzov": ("ru", "K9", 6)}  # Kienmayer is still to arrive: not on the map
    assert f.battles == ("J9", "C4")  # this turn's, in battle order; turn 1's battle is not
    assert dict(f.holdings) == {"E4": "fr"}
    assert Frame.from_json(f.to_json()) == f


def test_in_a_frame_a_side_sees_its_own_forces_and_the_enemies_in_sight_of_them_then() -> None:
    state = _state()
    shown = at(state, frame(1, ("soult", "fr", "IV Corps", "C4", 9), ("mack", "au", "Army of Mack", "D5", 7),
                            ("kutuzov", "ru", "Kutuzov", "K9", 6), battles=("D5",)))
    french = markers(shown, FRENCH)
    assert set(french) == {"soult", "mack"}  # Kutuzov is out of sight; Lannes and Ferdinand are not in the frame
    assert french["soult"].sp == 9 and french["mack"].sp is None  # an enemy's strength stays hidden
    assert set(markers(shown, AUSTRIAN)) == {"mack", "soult"}
    assert set(markers(shown, Reader(side="ru"))) == {"kutuzov"}
    assert set(markers(shown, GM)) == {"soult", "mack", "kutuzov"}
    assert markers(shown, OUTSIDER) == {}
    assert views.map_view(shown, OUTSIDER).battles == ("D5",)  # the battles are public news
    assert (shown.turn, shown.weather) == (1, "FINE") and shown.declarations == ()


def test_the_timeline_ends_with_the_campaign_now_and_remembers_where_enemies_were_last_seen() -> None:
    state = _state()  # turn 2
    frames = [frame(1, ("soult", "fr", "IV Corps", "C4", 9), ("mack", "au", "Army of Mack", "D5", 7)),
              frame(2, ("soult", "fr", "IV Corps", "C4", 9), ("mack", "au", "Army of Mack", "J8", 7)),
              ]
    states = timeline(state, frames)
    assert len(states) == 2 and states[-1] is state  # a frame of the current turn is not the past
    first = markers(states[0], FRENCH)
    assert not first["mack"].faded
    states = timeline(state.evolve(turn=3), frames)
    assert len(states) == 3
    second = markers(states[1], FRENCH)
    assert second["mack"].faded and second["mack"].square == "D5"  # last seen there, not at J8
    assert "mack" not in markers(states[1], OUTSIDER)


def test_a_frame_leaves_out_what_the_campaign_no_longer_has() -> None:
    state = _state()
    shown = at(state, frame(1, ("soult", "fr", "IV Corps", "C4", 9), ("gone", "xx", "Ghost", "C5", 1),
                            ("far", "au", "Far", "Z99", 1)))
    assert set(shown.forces) == {"soult"}  # a side the campaign lost, a square off the map
