"""The odds a player sees before a roll (bot/campaign/odds.py): the die each outcome needs at every band
boundary of the Force test (MC-4) and the movement roll (MC-5.1), never a 0% row, a move's rows along
its declared path only, the danger of the worst outcome (at least one in three), plain words for a move."""

from __future__ import annotations

from fractions import Fraction

import pytest

from bot.campaign.odds import DANGER, faces_text, move_result, path_odds, table_odds
from bot.engine.rolls import Check, Modifier
from bot.engine.tables import default_rulebook

RULES = default_rulebook()
MC4 = RULES.mc.force_test
MC51 = RULES.mc.movement


def force_test(modifier: int) -> Check:
    return Check(MC4.rule, MC4.name, (Modifier(modifier, "MC-4", "test modifier"),), MC4.bands, subject="IV Corps")


def movement(modifier: int) -> Check:
    return Check(MC51.rule, MC51.name, (Modifier(modifier, "MC-5.1", "test modifier"),), MC51.bands)


# The faces of 1d6 that give each Force-test result (MC-4: 1 or less disaster, 2 Unsteady, 3 Confused,
# 4-5 Defend, 6 or more OK), and the face OK needs, for modifiers -3 to +3.
FORCE_TEST_FACES = {
    -3: ({"confused": (6,), "unsteady": (5,), "disaster": (1, 2, 3, 4)}, 9),
    -2: ({"defend": (6,), "confused": (5,), "unsteady": (4,), "disaster": (1, 2, 3)}, 8),
    -1: ({"defend": (5, 6), "confused": (4,), "unsteady": (3,), "disaster": (1, 2)}, 7),
    0: ({"ok": (6,), "defend": (4, 5), "confused": (3,), "unsteady": (2,), "disaster": (1,)}, 6),
    1: ({"ok": (5, 6), "defend": (3, 4), "confused": (2,), "unsteady": (1,)}, 5),
    2: ({"ok": (4, 5, 6), "defend": (2, 3), "confused": (1,)}, 4),
    3: ({"ok": (3, 4, 5, 6), "defend": (1, 2)}, 3),
}


@pytest.mark.parametrize("modifier", sorted(FORCE_TEST_FACES))
def test_the_force_test_shows_the_die_each_result_needs_and_never_a_zero_row(modifier: int) -> None:
    faces, ok_needs = FORCE_TEST_FACES[modifier]
    odds = table_odds(force_test(modifier))
    assert {row.key: row.faces for row in odds.rows} == faces
    assert [row.key for row in odds.rows] == [r for r in ("ok", "defend", "confused", "unsteady", "disaster")
                                              if r in faces]  # the best first
    assert all(row.chance == Fraction(len(row.faces), 6) > 0 for row in odds.rows)
    assert sum(row.chance for row in odds.rows) == 1
    assert odds.goal == MC4.bands.by_result("ok").label and odds.goal_face == ok_needs
    assert odds.worst == MC4.bands.by_result("disaster").label
    assert odds.worst_chance == Fraction(len(faces.get("disaster", ())), 6)
    assert odds.danger is (len(faces.get("disaster", ())) >= 2)  # one chance in three or more


@pytest.mark.parametrize(("modifier", "needs"), [
    (-1, "no roll is enough for OK: the Force takes the new order (it would need 7 on 1d6)"),
    (0, "needs 6 for OK: the Force takes the new order"),
    (1, "needs 5 or more for OK: the Force takes the new order"),
    (3, "needs 3 or more for OK: the Force takes the new order"),
    (5, "any roll is enough for OK: the Force takes the new order"),
])
def test_the_force_test_says_what_ok_needs(modifier: int, needs: str) -> None:
    assert table_odds(force_test(modifier)).needs == needs


def test_the_modifier_line_names_each_modifier_and_its_rule() -> None:
    check = Check(MC4.rule, MC4.name, (Modifier(1, "MC-4", "Ney's Command Value"), MC4.mod("mountain")), MC4.bands)
    odds = table_odds(check)
    assert odds.expression == "1d6 +1 Ney's Command Value (MC-4) -3 in a mountain square (MC-4)"
    assert f"{odds.expression}: {odds.needs}" == ("1d6 +1 Ney's Command Value (MC-4) -3 in a mountain square (MC-4): "
                                                  "no roll is enough for OK: the Force takes the new order "
                                                  "(it would need 8 on 1d6)")
    assert [str(row.die) for row in odds.rows] == ["die 6", "die 5", "die 4", "die 1–3"]
    assert table_odds(Check(MC4.rule, MC4.name, (), MC4.bands)).expression == "1d6"


def test_the_worst_outcome_is_a_danger_from_one_chance_in_three() -> None:
    assert Fraction(1, 3) == DANGER
    assert table_odds(force_test(-1)).worst_chance == Fraction(1, 3) and table_odds(force_test(-1)).danger
    assert table_odds(force_test(0)).worst_chance == Fraction(1, 6) and not table_odds(force_test(0)).danger
    assert table_odds(force_test(1)).worst_chance == 0 and not table_odds(force_test(1)).danger


# MC-5.1: the faces of 1d6 that allow each number of squares (2 or less: none, 3-5: 1, 6-8: 2, 9 or
# more: 3), for modifiers -3 to +3.
ALLOWED = {
    -3: {0: (1, 2, 3, 4, 5), 1: (6,)},
    -2: {0: (1, 2, 3, 4), 1: (5, 6)},
    -1: {0: (1, 2, 3), 1: (4, 5, 6)},
    0: {0: (1, 2), 1: (3, 4, 5), 2: (6,)},
    1: {0: (1,), 1: (2, 3, 4), 2: (5, 6)},
    2: {1: (1, 2, 3), 2: (4, 5, 6)},
    3: {1: (1, 2), 2: (3, 4, 5), 3: (6,)},
}
PATH = ("D4", "E4", "F4")


def _along(allowed: dict[int, tuple[int, ...]], length: int) -> dict[int, tuple[int, ...]]:
    out: dict[int, tuple[int, ...]] = {}
    for n, faces in sorted(allowed.items()):
        out[min(n, length)] = out.get(min(n, length), ()) + faces
    return out


@pytest.mark.parametrize("length", [1, 2, 3])
@pytest.mark.parametrize("modifier", sorted(ALLOWED))
def test_a_move_shows_its_odds_along_the_declared_path_only(modifier: int, length: int) -> None:
    path = PATH[:length]
    odds = path_odds(movement(modifier), "C4", path, lambda roll: roll.value or 0)
    expected = _along(ALLOWED[modifier], length)
    assert {row.key: row.faces for row in odds.rows} == expected
    assert all(0 <= row.key <= length for row in odds.rows)  # never more squares than the path has
    assert all(row.chance > 0 for row in odds.rows) and sum(odds.chances().values()) == 1
    assert [row.key for row in odds.rows] == sorted(expected, reverse=True)  # the whole path first
    assert odds.goal_face == max(1, (3, 6, 9)[length - 1] - modifier)
    assert odds.worst == "does not move: it stays at C4"
    assert odds.worst_chance == Fraction(len(expected.get(0, ())), 6)
    assert odds.danger is (len(expected.get(0, ())) >= 2)


def test_a_one_square_path_has_two_rows_at_most() -> None:
    odds = path_odds(movement(3), "C4", ("D4",), lambda roll: roll.value or 0)
    assert [(row.key, str(row.label), str(row.die)) for row in odds.rows] == [
        (1, "moves 1 square and reaches D4, the end of its path", "die 1–6")]
    assert odds.needs == "any roll is enough for D4, the end of the path" and not odds.danger
    odds = path_odds(movement(0), "C4", ("D4",), lambda roll: roll.value or 0)
    assert [(row.key, str(row.label), str(row.die)) for row in odds.rows] == [
        (1, "moves 1 square and reaches D4, the end of its path", "die 3–6"),
        (0, "does not move: it stays at C4", "die 1–2")]
    assert odds.needs == "needs 3 or more for D4, the end of the path" and odds.danger


def test_a_three_square_path_out_of_reach_says_what_it_would_need() -> None:
    odds = path_odds(movement(-1), "C4", PATH, lambda roll: roll.value or 0)
    assert odds.needs == "no roll is enough for F4, the end of the path (it would need 10 on 1d6)"
    assert [str(row.label) for row in odds.rows] == ["moves 1 square and stops at D4, short of F4",
                                                     "does not move: it stays at C4"]


def test_a_move_is_said_in_plain_words() -> None:
    assert move_result("D4", ("E4", "F4"), 0) == "does not move: it stays at D4"
    assert move_result("D4", ("E4", "F4"), 1) == "moves 1 square and stops at E4, short of F4"
    assert move_result("D4", ("E4", "F4"), 2) == "moves 2 squares and reaches F4, the end of its path"
    assert move_result("D4", ("E4", "F4"), 3) == "moves 2 squares and reaches F4, the end of its path"
    assert move_result("D4", (), 2) == "does not move: it stays at D4"


def test_faces_are_written_as_runs() -> None:
    assert faces_text((1, 2, 3)) == "1–3"
    assert faces_text((6,)) == "6"
    assert faces_text((1, 3, 4)) == "1, 3–4"
