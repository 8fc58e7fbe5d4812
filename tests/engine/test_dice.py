"""Dice sources (bot/engine/dice.py): seeded, verifiable dice and scripted dice for tests.

Every MC check rolls through one of these (RU-1: one die per SP for the per-SP checks).
"""

from __future__ import annotations

import hashlib
import re

import pytest

from bot.engine.dice import (
    DOMAIN,
    SEED_BYTES,
    ScriptedDice,
    SeededDice,
    derive_faces,
    new_turn_seed,
    roll_key,
    seed_commitment,
)
from bot.engine.errors import InvalidInput

SEVEN = SeededDice.from_int(7)
MOVE_KEY = "t1/p2/force:1/movement"
FORCE_TEST_KEY = "t1/p1/force:1/force_test"
WOUNDED_KEY = "t3/p4/unit:a/wounded"


def reference_faces(seed: bytes, key: str, count: int, sides: int) -> tuple[int, ...]:
    """The algorithm exactly as the dice module's docstring states it, written independently
    (one byte per value below 256 sides, two from 256 sides)."""
    width = 1 if sides < 256 else 2
    span = 256**width
    limit = span - span % sides
    stream = hashlib.shake_256(DOMAIN + seed + key.encode("utf-8")).digest(width * (4 * count + 64))
    out: list[int] = []
    for i in range(0, len(stream) - width + 1, width):
        v = int.from_bytes(stream[i : i + width], "big")
        if v < limit:
            out.append(v % sides + 1)
        if len(out) == count:
            break
    assert len(out) == count, "reference stream too short"
    return tuple(out)


# --- golden sequences ----------------------------------------------------------------------


def test_seed_seven_commitment_is_the_sha256_of_its_seed():
    seed = hashlib.sha256(b"aide-de-camp/demo-seed/7").digest()
    assert SEVEN.commitment == seed_commitment(seed) == hashlib.sha256(seed).hexdigest()
    assert SEVEN.commitment == "bd9dea6cd2b371fb273e43797c82dff4a514a7bc1792e54f8698a47959161fd5"


@pytest.mark.parametrize(
    ("key", "count", "sides", "golden"),
    [
        (MOVE_KEY, 10, 6, (5, 3, 5, 5, 6, 2, 2, 2, 4, 5)),
        (MOVE_KEY, 3, 20, (1, 1, 5)),
        (MOVE_KEY, 3, 100, (41, 65, 67)),
        (MOVE_KEY, 3, 1000, (461, 551, 74)),
        (FORCE_TEST_KEY, 10, 6, (4, 2, 3, 3, 6, 3, 2, 6, 4, 4)),
        (WOUNDED_KEY, 10, 6, (5, 5, 5, 1, 2, 1, 6, 5, 2, 4)),
        (WOUNDED_KEY, 3, 1000, (35, 951, 745)),
    ],
)
def test_seed_seven_gives_the_recorded_golden_faces(key, count, sides, golden):
    faces = SEVEN.faces(key, count, sides)
    # Sanity checks first: right length, every face on the die, and the documented algorithm agrees.
    assert len(faces) == count
    assert all(1 <= f <= sides for f in faces)
    assert faces == reference_faces(hashlib.sha256(b"aide-de-camp/demo-seed/7").digest(), key, count, sides)
    assert faces == golden


@pytest.mark.parametrize("sides", [2, 6, 10, 20, 37, 100, 255, 256, 1000, 65536])
def test_derive_faces_follows_the_documented_algorithm_for_every_die_size(sides):
    seed = bytes(range(32))
    assert derive_faces(seed, "t9/p3/force:x/exploration", 50, sides) == reference_faces(
        seed, "t9/p3/force:x/exploration", 50, sides
    )


# --- undo is not a re-roll -----------------------------------------------------------------


def test_the_same_key_gives_the_same_dice_so_undo_is_never_a_re_roll():
    first = SeededDice.from_int(7).faces(MOVE_KEY, 20)
    again = SeededDice.from_int(7).faces(MOVE_KEY, 20)
    assert first == again == SEVEN.faces(MOVE_KEY, 20)


def test_rolling_other_keys_in_between_does_not_change_a_keys_dice():
    before = SEVEN.faces(MOVE_KEY, 12)
    for i in range(5):
        SEVEN.faces(f"t1/p2/force:{i}/movement", 3)
    assert SEVEN.faces(MOVE_KEY, 12) == before


def test_different_keys_give_different_dice():
    a = SEVEN.faces(roll_key(1, 2, "force:1", "movement"), 30)
    b = SEVEN.faces(roll_key(1, 2, "force:2", "movement"), 30)
    c = SEVEN.faces(roll_key(2, 2, "force:1", "movement"), 30)
    assert len({a, b, c}) == 3


def test_different_seeds_give_different_dice_for_the_same_key():
    assert SeededDice.from_int(7).faces(MOVE_KEY, 30) != SeededDice.from_int(8).faces(MOVE_KEY, 30)


def test_asking_for_more_dice_extends_the_same_sequence():
    assert SEVEN.faces(MOVE_KEY, 40)[:7] == SEVEN.faces(MOVE_KEY, 7)
    assert SEVEN.faces(MOVE_KEY, 40, 1000)[:7] == SEVEN.faces(MOVE_KEY, 7, 1000)


def test_zero_dice_is_an_empty_roll():
    assert SEVEN.faces(MOVE_KEY, 0) == ()


# --- seeds and commitments -----------------------------------------------------------------


def test_new_turn_seeds_are_32_random_bytes_and_never_repeat():
    seeds = {new_turn_seed() for _ in range(20)}
    assert len(seeds) == 20
    assert all(len(s) == SEED_BYTES == 32 for s in seeds)


def test_a_seeded_source_publishes_the_commitment_of_its_seed():
    seed = new_turn_seed()
    assert SeededDice(seed).commitment == seed_commitment(seed) == hashlib.sha256(seed).hexdigest()


def test_a_short_seed_is_refused():
    with pytest.raises(InvalidInput, match="at least 16 bytes"):
        SeededDice(b"too short")


# --- bad requests --------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("key", "count", "sides", "message"),
    [
        ("", 1, 6, "A roll needs a key naming what is rolled."),
        ("k", -1, 6, "Cannot roll -1 dice: between 0 and 1,000,000 per roll."),
        ("k", 1_000_001, 6, "Cannot roll 1000001 dice"),
        ("k", 1, 1, "A die with 1 sides is not allowed: 2 to 65536."),
        ("k", 1, 65537, "A die with 65537 sides is not allowed"),
    ],
)
def test_an_impossible_roll_is_refused_with_a_readable_message(key, count, sides, message):
    with pytest.raises(InvalidInput) as info:
        SEVEN.faces(key, count, sides)
    assert message in str(info.value)
    with pytest.raises(InvalidInput):
        ScriptedDice([1, 2, 3]).faces(key, count, sides)


# --- scripted dice -------------------------------------------------------------------------


def test_scripted_dice_serve_their_faces_in_order_and_record_every_request():
    dice = ScriptedDice([1, 6, 3, 4])
    assert dice.faces("a", 1) == (1,)
    assert dice.faces("b", 2) == (6, 3)
    assert dice.remaining == 1
    assert dice.keys == [("a", 1, 6), ("b", 2, 6)]


def test_scripted_dice_that_run_out_fail_the_test_loudly():
    dice = ScriptedDice([2])
    with pytest.raises(AssertionError, match="ran out at 'k2'"):
        dice.faces("k2", 2)


def test_a_scripted_face_that_is_not_on_the_die_fails_the_test_loudly():
    with pytest.raises(AssertionError, match="not on a d6"):
        ScriptedDice([7]).faces("k", 1)


def test_roll_keys_name_turn_phase_subject_and_procedure():
    assert roll_key(3, 2, "force:7", "movement") == "t3/p2/force:7/movement"
    assert roll_key(1, 4, "unit:a", "deserters", "rout") == "t1/p4/unit:a/deserters/rout"


def test_packed_faces_are_the_same_faces_one_byte_each():
    for sides in (6, 20, 100):
        assert SEVEN.packed_faces(WOUNDED_KEY, 500, sides) == bytes(SEVEN.faces(WOUNDED_KEY, 500, sides))
    assert SEVEN.packed_faces(WOUNDED_KEY, 0) == b""


def test_packed_faces_refuse_dice_too_big_for_a_byte():
    with pytest.raises(InvalidInput, match=re.escape("Packed faces need dice with fewer than 256 sides.")):
        SEVEN.packed_faces(WOUNDED_KEY, 3, 1000)
