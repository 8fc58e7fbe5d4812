"""Undo never hands players dice they could foresee (issue "Fair play", item 1).

When a turn ends its seed is published; undoing back into that turn would replay the rest of it on
a seed everybody knows. A resolution that revealed a seed cannot be undone, and the GM is told so
before trying.
"""

from __future__ import annotations

import pytest

from bot.engine.errors import RuleViolation
from bot.services import resolution, views

from .conftest import GM
from .test_campaign_flow import advance, fixed_seeds, tutorial  # noqa: F401  (fixture re-used)


async def test_a_resolution_that_ended_a_turn_and_revealed_its_seed_cannot_be_undone(db) -> None:
    cid = await tutorial(db)
    while (await views.status(db, cid, GM)).position.turn < 2:
        await advance(db, cid, forced=True)
    preview = await resolution.undo_preview(db, cid, GM)
    assert preview.sealed_turn == 1 and preview.back_to is not None
    st = await views.status(db, cid, GM)
    with pytest.raises(RuleViolation, match=r"revealed the dice of turn 1.*/gm edit"):
        await resolution.undo(db, cid, GM, expected_version=st.version)
    assert (await views.status(db, cid, GM)).position == st.position  # nothing changed


async def test_within_a_turn_undo_works_and_the_preview_says_how_far_back_it_can_go(db) -> None:
    cid = await tutorial(db)
    while (await views.status(db, cid, GM)).position.turn < 2:
        await advance(db, cid, forced=True)
    await advance(db, cid, forced=True)  # turn 2, phase 0 -> 1: no seed revealed
    preview = await resolution.undo_preview(db, cid, GM)
    assert preview.sealed_turn is None and preview.undoable == 1 and preview.earliest is not None
    assert preview.earliest.turn == 2
    st = await views.status(db, cid, GM)
    undone = await resolution.undo(db, cid, GM, expected_version=st.version)
    assert undone.back_to.turn == 2
    after = await resolution.undo_preview(db, cid, GM)
    assert after.sealed_turn == 1 and after.undoable == 0
