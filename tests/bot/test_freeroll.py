"""The free dice expressions of /roll dice (pure: no Discord)."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from bot import freeroll
from bot.engine.errors import InvalidInput

SEED = bytes(range(32))


def test_an_expression_adds_dice_and_numbers() -> None:
    r = freeroll.roll("2d6+1", seed=SEED)
    (dice, one) = r.terms
    assert dice.count == 2 and dice.sides == 6 and one.value == 1
    assert r.total == sum(dice.faces) + 1 and r.expression == "2d6+1"
    assert freeroll.verify(r, "2d6+1")


def test_keep_highest_and_keep_lowest_strike_the_others() -> None:
    r = freeroll.roll("4d6kh3", seed=SEED)
    (term,) = r.terms
    kept = [f for f, k in zip(term.faces, term.kept, strict=True) if k]
    assert len(kept) == 3 and sorted(kept) == sorted(term.faces)[1:] and r.total == sum(kept)
    assert "~~" in str(term)
    low = freeroll.roll("3d8kl1", seed=SEED)
    assert low.total == min(low.terms[0].faces)


def test_the_same_seed_and_expression_give_the_same_faces_and_a_fresh_seed_is_used_otherwise() -> None:
    assert freeroll.roll("d20-2", seed=SEED) == freeroll.roll("d20 - 2", seed=SEED)
    assert freeroll.roll("d20").seed_hex != freeroll.roll("d20").seed_hex


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ("", "Give a dice expression"),
        ("101d6", "Roll 1 to 100 dice"),
        ("60d6+60d6", "At most 100 dice"),
        ("2d1", "2 to 1000 sides"),
        ("1d1001", "2 to 1000 sides"),
        ("2d6kh3", "keeps 1 to 2"),
        ("2d6 3", "Cannot read"),
        ("2d6+", "Cannot read"),
        ("hello", "Cannot read"),
        ("99999", "up to 10,000"),
        ("+".join(["1"] * 21), "at most 20 terms"),
    ],
)
def test_a_bad_expression_says_what_is_allowed(text: str, message: str) -> None:
    with pytest.raises(InvalidInput, match=message):
        freeroll.roll(text)


@given(st.integers(1, 20), st.integers(2, 1000), st.integers(0, 50))
def test_totals_stay_within_the_expression_bounds(count: int, sides: int, bonus: int) -> None:
    r = freeroll.roll(f"{count}d{sides}+{bonus}", seed=SEED)
    assert count + bonus <= r.total <= count * sides + bonus
    assert all(1 <= f <= sides for f in r.terms[0].faces)
