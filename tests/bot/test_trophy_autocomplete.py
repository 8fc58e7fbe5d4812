"""/trophy roll suggests exactly the attempts the trophy roll (CC-3) accepts, read from the campaign's
state (the battle's pending attempts), never from the log's English prose."""

from __future__ import annotations

import json

from tests.store.test_battle_flow import REPORT

from .conftest import shown
from .test_battle import to_battle


async def to_aftermath(table) -> None:
    await to_battle(table)
    preview = await table.gm.slash(table.channel, "battle report", battle="1",
                                   file=("report.json", json.dumps(REPORT).encode()))
    await table.gm.click(preview.response, label="Confirm the report")
    # The last report ends Phase 3 by itself: Phase 4 begins.


async def test_the_trophy_target_offered_is_the_key_the_trophy_roll_accepts(table) -> None:
    await to_aftermath(table)
    (thread,) = table.channel.threads
    offered = await table.fr.autocomplete(thread, "trophy roll", "target", "", battle="1", unit="hussars")
    assert [c["value"] for c in offered] == ["jaegers"]  # the unit's key (CC-3), not its name from the log
    assert "Jaegers" in offered[0]["name"]
    units = await table.fr.autocomplete(thread, "trophy roll", "unit", "", battle="1")
    assert [c["value"] for c in units] == ["hussars"]  # the one captor with an attempt due, not every own unit
    rolled = await table.fr.slash(thread, "trophy roll", battle="1", unit=units[0]["value"], target=offered[0]["value"])
    assert "10th Hussars tries for the flag of Jaegers" in shown(rolled)
    # Rolled: nothing is left to offer (the service would refuse a second try).
    assert await table.fr.autocomplete(thread, "trophy roll", "target", "", battle="1", unit="hussars") == []
    assert await table.fr.autocomplete(thread, "trophy roll", "unit", "", battle="1") == []


async def test_the_other_side_and_a_wrong_battle_are_offered_nothing(table) -> None:
    await to_aftermath(table)
    (thread,) = table.channel.threads
    # Austria has no attempt: its units were eliminated, not eliminating (CC-3).
    assert await table.au.autocomplete(thread, "trophy roll", "target", "", battle="1") == []
    assert await table.au.autocomplete(thread, "trophy roll", "unit", "", battle="1") == []
    assert await table.fr.autocomplete(thread, "trophy roll", "target", "", battle="2") == []
    assert await table.outsider.autocomplete(table.channel, "trophy roll", "target", "", battle="1") == []
