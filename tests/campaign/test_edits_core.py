"""GM corrections keep the state within the rules' ranges (a unit never above its full strength), so
a corrected campaign still exports and imports (bot/campaign/codec.py checks the same range)."""

from __future__ import annotations

import pytest

from bot.campaign import edits
from bot.campaign.events import Journal
from bot.engine.errors import InvalidInput

from .test_allied_ground import _state


class _Gm:
    member_id = 1
    roles: frozenset[int] = frozenset()


def test_a_gm_correction_never_takes_a_unit_above_its_full_strength() -> None:
    state = _state()
    with pytest.raises(InvalidInput, match="at most its full strength of 6 SP"):
        edits.edit_force(state, _Gm(), "colli", Journal(), unit="provera", sp=7)
    done, _ = edits.edit_force(state, _Gm(), "colli", Journal(), unit="provera", sp=6)
    assert done.forces["colli"].units[0].sp == 6
