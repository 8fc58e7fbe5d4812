"""Records built as drafts (bot/engine/drafts.py, issue 26 item 5) are the frozen records themselves."""

from __future__ import annotations

import dataclasses
import pickle

import pytest

from bot.engine.aftermath import UnitLosses, unit_aftermath
from bot.engine.dice import SeededDice
from bot.engine.drafts import draft_of
from bot.engine.model import Outcome, Quality, Territory, Unit
from bot.engine.rolls import BatchRoll, record_from_dict


def test_a_unit_after_its_aftermath_is_a_frozen_unit_equal_to_one_built_whole():
    unit = Unit("u1", "1st Line", 40, quality=Quality.VETERAN)
    a = unit_aftermath(unit, UnitLosses("u1", killed=6, rout=4), Outcome.LOST, Territory.ENEMY,
                       SeededDice.from_int(5), "t1/p4/battle:1/unit:u1")
    after = a.unit
    assert type(after) is Unit and type(a).__name__ == "UnitAftermath"
    assert after == Unit("u1", "1st Line", after.sp, quality=Quality.VETERAN)
    assert hash(after) == hash(Unit("u1", "1st Line", after.sp, quality=Quality.VETERAN))
    with pytest.raises(dataclasses.FrozenInstanceError):
        after.sp = 99  # type: ignore[misc]
    for roll in a.rolls:
        assert type(roll) is BatchRoll
        assert record_from_dict(roll.to_dict()) == roll  # MC-7.1, MC-7.2: the stored record reads back the same
        assert pickle.loads(pickle.dumps(roll)) == roll
        with pytest.raises(dataclasses.FrozenInstanceError):
            roll.key = "forged"  # type: ignore[misc]
    assert pickle.loads(pickle.dumps(a)) == a


def test_a_draft_is_refused_for_a_class_whose_slots_are_not_its_fields():
    @dataclasses.dataclass(frozen=True)
    class Loose:
        x: int

    with pytest.raises(TypeError):
        draft_of(Loose)
