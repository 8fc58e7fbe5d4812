"""What a turn's picture draws (issue 22, items 3 and 6): battle marks in the winner's colour and dashed
retreat arrows, said in the text report too (the picture's alt text); a phone crop that names the reader's
Forces it leaves out, with arrows at its edge; counter labels that keep their numerals and never read the
same for two Forces of one map; a place name set off its square tied to it by a leader line."""

from __future__ import annotations

import dataclasses

import pytest

from bot.engine.model import Square
from bot.render import Arrow, BattleResult, Counter, InvalidSnapshot, render_layout, side_colours, text_report
from bot.render.fonts import numeral, short_forms
from bot.render.layout import PHONE_MIN_TEXT, PHONE_READ_WIDTH
from bot.render.overlay import _fit_label, labels
from bot.render.places import place_labels
from bot.render.timelapse import timelapse_report

from .samples import (
    drawn_text_sizes,
    fogged,
    italy_gazette_snapshot,
    italy_phone_snapshot,
    italy_snapshot,
    tutorial_battle_snapshot,
)

sq = Square.parse


def won(snapshot=None):
    """The tutorial's turn 3 with its battle at F5 won by France and the Army of Mack retreating to G5."""
    base = snapshot or tutorial_battle_snapshot()
    return dataclasses.replace(base, results=(BattleResult(sq("F5"), "fr"),),
                               retreats=(Arrow(sq("F5"), (sq("G5"),), "au"),))


def test_a_won_battle_is_ringed_in_the_winners_colour_and_the_legend_and_report_say_so() -> None:
    snapshot = won()
    image, layout = render_layout(snapshot, view="fr")
    x0, y0, _x1, y1 = layout.box(sq("F5"))
    w = max(2, round(layout.cell / 22))
    france = side_colours(snapshot.sides)["fr"]
    edge = image.getpixel((x0 + 2 + w // 2, (y0 + y1) // 2))
    assert max(abs(a - b) for a, b in zip(edge, france, strict=True)) <= 8, (edge, france)
    marks = {(e.kind, e.key, e.label) for e in layout.legend if e.group == "Marks"}
    assert ("won", "fr", "Battle won by France") in marks and ("retreat", "", "Retreat") in marks
    assert not any(kind == "battle" for kind, _, _ in marks)  # no battle waits for its report
    report = text_report(snapshot, view="fr")
    assert "Battle at F5, won by France: " in report and "- Austria: F5 → G5." in report


def test_an_unreported_battle_keeps_the_plain_mark_and_a_draw_is_nobodys_colour() -> None:
    _image, layout = render_layout(tutorial_battle_snapshot(), view="fr")
    assert any(e.kind == "battle" for e in layout.legend)
    drawn = dataclasses.replace(tutorial_battle_snapshot(), results=(BattleResult(sq("F5"), None),))
    _, layout = render_layout(drawn, view="fr")
    assert [e.kind for e in layout.legend if e.kind in ("battle", "won", "drawn")] == ["drawn"]
    assert "Battle at F5, fought to a draw" in text_report(drawn)


def test_a_result_or_retreat_of_an_unknown_side_is_refused() -> None:
    with pytest.raises(InvalidSnapshot, match="won by 'xx'"):
        dataclasses.replace(tutorial_battle_snapshot(), results=(BattleResult(sq("F5"), "xx"),))
    with pytest.raises(InvalidSnapshot, match="retreat"):
        dataclasses.replace(tutorial_battle_snapshot(), retreats=(Arrow(sq("F5"), (), "au"),))


def test_the_gazettes_picture_is_headed_with_its_turn_and_names_its_battle_by_place() -> None:
    snapshot = italy_gazette_snapshot()
    report = text_report(snapshot)
    assert "Turn 1" in report.splitlines()[0] and "end of the turn" in report.splitlines()[0]
    assert "Battle of Montenotte (K18), won by France." in report and "- Austria: K18 → L17." in report


def test_a_phone_crop_names_the_readers_forces_it_leaves_out_and_points_to_them() -> None:
    with drawn_text_sizes() as drawn:
        image, layout = render_layout(italy_phone_snapshot(), view="fr", phone=True)
    assert sorted(s.name for s in layout.outside) == ["E22", "O18"]  # Cervoni's Brigade, the Alpine Divisions
    assert " ".join(layout.note) == "+2 Forces outside this view: O18, E22"
    texts = [t for _, t in drawn]
    assert "O18" in texts and "E22" in texts  # the edge arrows' names
    assert any(t.startswith("+2 Forces outside") for t in texts)
    size, text = min(drawn)
    assert size * PHONE_READ_WIDTH / image.width >= PHONE_MIN_TEXT, text
    # every Force of France's is in the picture or named under it
    mine = {c.square for c in italy_phone_snapshot().counters if c.side == "fr" and not c.faded}
    assert {s for s in mine if not layout.shows(s)} == set(layout.outside)


def test_a_crop_that_holds_every_force_of_the_reader_says_nothing_more() -> None:
    _, layout = render_layout(fogged(tutorial_battle_snapshot(), "fr"), view="fr", phone=True)
    assert layout.outside == () and layout.note == ()


@pytest.mark.parametrize("name", ["Austrian II Corps", "II Corps", "1st Division", "Corps 4 Reserve"])
def test_a_label_never_drops_the_numerals_of_its_name(name) -> None:
    numerals = [w for w in name.split() if numeral(w)]
    for form in short_forms(name):
        assert all(n in form.split() for n in numerals), form
    assert "AI" not in short_forms("Austrian II Corps")


def test_two_forces_of_one_map_never_get_the_same_label() -> None:
    base = tutorial_battle_snapshot()
    counters = (Counter("fr2", "French II Corps", "fr", sq("C2"), 9), Counter("au2", "Austrian II Corps", "au", sq("H2"), 8),
                Counter("mas", "Masséna's Division", "fr", sq("B8"), 5), Counter("mac", "Mack's Column", "au", sq("J8"), 5))
    forms = labels(dataclasses.replace(base, counters=counters))
    for narrow in (200, 40, 25, 12, 4):
        chosen = [_fit_label(c, 14, narrow, forms=forms[c.key])[0] for c in counters]
        assert len(set(chosen)) == len(chosen), (narrow, chosen)
        assert all("II" in label.split() for label in chosen[:2]), chosen


@pytest.mark.parametrize("side", ["fr", "au", "pi"])
def test_a_place_name_set_off_its_square_is_tied_to_it(side) -> None:
    snapshot = fogged(italy_snapshot(), side)
    _, layout = render_layout(snapshot, view=side, phone=True)
    for label in place_labels(snapshot, layout, []):
        x0, y0, x1, y1 = layout.box(label.square)
        inside = x0 <= label.box[0] and y0 <= label.box[1] and label.box[2] <= x1 and label.box[3] <= y1
        if label.kind in ("river", "region") or inside:
            assert label.anchor is None, label
        else:
            ax, ay = label.anchor
            assert x0 < ax < x1 and y0 < ay < y1, label  # the leader line ends in its own square


def test_the_gazette_sample_ties_montenotte_to_its_square() -> None:
    snapshot = italy_gazette_snapshot()
    _, layout = render_layout(snapshot, around="K18", phone=True)
    from bot.render.compose import _avoid

    rank = {k: i for i, k in enumerate(s.key for s in snapshot.sides)}
    (montenotte,) = [lb for lb in place_labels(snapshot, layout, _avoid(snapshot, layout, rank))
                     if lb.text == "Montenotte"]
    assert montenotte.anchor is not None  # the battle mark takes its band: it is set beside, tied by a line


def test_a_timelapses_alt_text_tells_each_turns_battles() -> None:
    first = italy_gazette_snapshot()
    last = dataclasses.replace(first, turn=2, battles=(), results=(), retreats=())
    said = timelapse_report([first, last])
    assert said.startswith("Animated map, turn 1 to turn 2, 2 frames.")
    assert "Turn 1: Battle of Montenotte (K18), won by France." in said
