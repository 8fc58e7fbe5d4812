"""MC-9: why a side tests its Will to Fight is said in the reader's language even after the campaign was
saved and loaded (the reason is kept as plain English in its column; found by the whole campaigns of issue
25 item 3, rendered in each language)."""

from __future__ import annotations

import hashlib

from bot.campaign.dice import Context
from bot.campaign.events import Journal
from bot.campaign.new import from_scenario
from bot.campaign.turn import _will_to_fight
from bot.engine.tables import default_rulebook
from bot.i18n.text import tr
from bot.scenario import load_bundled


def test_mc_9_a_stronghold_lost_read_back_from_the_store_is_said_in_spanish() -> None:
    state = from_scenario(load_bundled("tutorial"), campaign_id=1, name="W", gm_id=1)
    side = next(iter(state.sides))
    state = state.with_side(side, must_test="it lost its stronghold at C3 (MC-9)")  # as the store gives it back
    journal = Journal()
    _will_to_fight(state, journal, Context(lambda: hashlib.sha256(b"w").digest(), default_rulebook()), [])
    said = [tr("es", e.text) for e in journal.events if "MC-9" in str(e.text) and "C3" in str(e.text)]
    assert said and not any("it lost its stronghold" in s for s in said), said
