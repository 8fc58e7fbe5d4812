"""The text report (bot/render/report.py): the same situation as the picture, in words, for
readers who cannot see it; it tells only what the snapshot holds."""

from __future__ import annotations

from bot.render import Arrow, Counter, text_report

from .conftest import sq


def test_the_report_names_every_force_and_its_square(tutorial):
    report = text_report(tutorial)
    for c in tutorial.counters:
        assert f"- {c.name} at {c.square} (" in report
    assert report.splitlines()[0] == "Tutorial: the Crossing of the Iller. Turn 1, 7 October 1805, Autumn, Fine, Phase 1: Orders."


def test_the_report_tells_ground_strength_order_and_reaction(make_snapshot):
    report = text_report(make_snapshot(Counter("l", "V Corps", "fr", sq("C3"), 14, "defend", "unsteady")))
    assert "- V Corps at C3 (open): 14 SP, defend, unsteady." in report
    assert "France: 1 Force, 14 SP." in report
    assert "Austria: no Forces shown." in report


def test_the_report_keeps_the_fog_of_war(make_snapshot):
    snap = make_snapshot(Counter("m", "Army of Mack", "au", sq("F2"), None, faded=True),
                         Counter("n", "VI Corps", "fr", sq("B2"), 10))
    report = text_report(snap, view="fr")
    assert "- Army of Mack last seen at F2 (open): strength unknown." in report
    assert "Austria: 0 Forces and 1 Force last seen." in report
    assert report.splitlines()[1] == "France's view."
    assert report.index("France:") < report.index("Austria:")


def test_the_report_lists_moves_and_battles(make_snapshot):
    snap = make_snapshot(Counter("n", "VI Corps", "fr", sq("D4"), 10), Counter("m", "Mack", "au", sq("D4"), 12),
                         moves=(Arrow(sq("B2"), (sq("C3"), sq("D4")), "fr"),), battles=(sq("D4"),))
    report = text_report(snap)
    assert "- France: B2 → C3 → D4." in report
    assert report.endswith("Battle at D4: VI Corps, Mack.")


def test_the_report_names_rivers_bridges_strongholds_and_capitals(tutorial, make_snapshot):
    snap = make_snapshot(Counter("m", "Army of Mack", "au", sq("K5"), 22), Counter("s", "IV Corps", "fr", sq("F5"), 28),
                         cmap=tutorial.cmap)
    report = text_report(snap)
    assert "- Army of Mack at K5 (open, road, Austria's capital): 22 SP." in report
    assert "- IV Corps at F5 (open, river, bridge, road): 28 SP." in report
