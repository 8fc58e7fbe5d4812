"""/campaign timelapse through simcord: after a turn with a battle, a player gets an animated map of
the campaign drawn for their side; a member on no side gets the public view; before any turn ends,
a plain answer."""

from __future__ import annotations

import json
from typing import Any

import pytest

from bot.services import timelapse as service
from tests.store.test_battle_flow import REPORT

from .conftest import advance, shown
from .test_battle import to_battle


@pytest.fixture
def drawn(monkeypatch: pytest.MonkeyPatch) -> list[dict[str, Any]]:
    """What each timelapse was drawn from: its snapshots and the render's view key."""
    calls: list[dict[str, Any]] = []
    real = service.render_timelapse

    def spy(snapshots, **kwargs: Any) -> bytes:  # type: ignore[no-untyped-def]
        calls.append({"snapshots": list(snapshots), **kwargs})
        return real(snapshots, **kwargs)

    monkeypatch.setattr(service, "render_timelapse", spy)
    return calls


async def test_after_a_turn_a_player_gets_the_timelapse_of_their_side_and_an_outsider_the_public_one(
        table, drawn) -> None:
    await to_battle(table)
    early = await table.fr.slash(table.channel, "campaign timelapse")
    assert early.ephemeral and "No turn has ended yet" in shown(early)

    preview = await table.gm.slash(table.channel, "battle report", battle="1",
                                   file=("report.json", json.dumps(REPORT).encode()))
    await table.gm.click(preview.response, label="Confirm the report")
    await advance(table, label="Resolve anyway")  # the aftermath nobody rolled: the bot rolls it, turn 1 ends

    mine = await table.fr.slash(table.channel, "campaign timelapse")
    assert mine.ephemeral and "from turn 1 to turn 2 in 2 frames" in shown(mine)
    (file,) = mine.response.attachments
    assert file.filename == "timelapse.gif" and 0 < file.size < 8 * 1024 * 1024
    assert (await file.read()).startswith(b"GIF89a")
    french = drawn[-1]
    assert french["view"] == "fr" and [s.turn for s in french["snapshots"]] == [1, 2]
    battle_turn = {c.key: c for c in french["snapshots"][0].counters}
    assert set(battle_turn) == {"lannes", "mack"}  # its own Force, and the enemy it fought, in sight
    assert battle_turn["lannes"].sp is not None and battle_turn["mack"].sp is None  # an enemy's strength stays hidden
    assert [str(sq) for sq in french["snapshots"][0].battles] == ["E4"]

    public = await table.outsider.slash(table.channel, "campaign timelapse")
    assert public.ephemeral and public.response.attachments
    assert drawn[-1]["view"] is None and all(s.counters == () for s in drawn[-1]["snapshots"])
    assert [str(sq) for sq in drawn[-1]["snapshots"][0].battles] == ["E4"]  # battles are public news
