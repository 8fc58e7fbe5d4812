"""Square names from members and files (security issue, item 6): only ASCII column letters and
ASCII row digits, a few of each. Digits of other scripts (superscripts, fullwidth, Arabic-Indic),
letters of other scripts and rows of thousands of digits are refused as a malformed square name,
never read as another square and never a crash. Written against the class, not one payload."""

from __future__ import annotations

import pytest

from bot.engine.errors import InvalidInput
from bot.engine.grid import CampaignMap
from bot.engine.model import Square

NOT_ASCII_DIGITS = ["A²", "A¹²", "A１", "A١", "A٣", "A߁", "A৪", "B𝟙", "C⁴", "D₄", "A①"]
NOT_ASCII_LETTERS = ["Ａ1", "ǅ4", "Ä4", "Ω3", "ﬀ1", "ß2", "\u212a4", "ſ1"]
TOO_LONG = ["A" + "1" * 5000, "A" + "9" * 50, "A" * 5000 + "1", "AAAAAAAA1", "A" + "0" * 40 + "1"]
CONTROL = ["A1\x00", "\x00A1", "A\ud8001", "A1\x7f", "A\x001"]


@pytest.mark.parametrize("text", NOT_ASCII_DIGITS + NOT_ASCII_LETTERS + TOO_LONG + CONTROL)
def test_a_square_name_outside_ascii_letters_then_ascii_digits_is_refused_briefly(text: str) -> None:
    with pytest.raises(InvalidInput) as info:
        Square.parse(text)
    message = str(info.value)
    assert "is not a square name" in message
    assert len(message) < 200  # a 5,000-digit row is not echoed back whole


@pytest.mark.parametrize("text", NOT_ASCII_DIGITS + NOT_ASCII_LETTERS + TOO_LONG)
def test_a_path_with_such_a_square_is_refused_on_the_map(text: str) -> None:
    cmap = CampaignMap(10, 10)
    with pytest.raises(InvalidInput, match="is not a square name"):
        cmap.parse_path(Square.parse("D4"), f"D5 {text}")
    with pytest.raises(InvalidInput, match="is not a square name"):
        cmap.parse(text)


@pytest.mark.parametrize(("text", "col", "row"), [("A1", 0, 0), (" zz999 ", 701, 998), ("AB12", 27, 11)])
def test_ascii_names_up_to_the_largest_map_still_read(text: str, col: int, row: int) -> None:
    sq = Square.parse(text)
    assert (sq.col, sq.row) == (col, row)
