"""/campaign timelapse through simcord: after a turn with a battle, a player gets an animated map of
the campaign drawn for their side; a member on no side gets the public view; before any turn ends,
a plain answer."""

from __future__ import annotations

import json
from typing import Any

import pytest

from bot.services import timelapse as service
from bot.services.budget import Budget, Heavy
from tests.store.test_battle_flow import REPORT

from .conftest import advance, domain_errors_only, refused, shown
from .test_battle import to_battle
from .test_features import locales  # noqa: F401 - the fixture


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


class Clock:
    def __init__(self) -> None:
        self.now = 1000.0

    def __call__(self) -> float:
        return self.now


@pytest.fixture
def clock(simcord_bot) -> Clock:
    """The timelapse budget of the bot on a clock the test moves (issue 24, item 1)."""
    c = Clock()
    simcord_bot.budgets[Heavy.TIMELAPSE] = Budget(Heavy.TIMELAPSE, clock=c)
    return c


async def test_after_a_turn_a_player_gets_the_timelapse_of_their_side_and_an_outsider_the_public_one(
        table, drawn, clock) -> None:
    await to_battle(table)
    early = await table.fr.slash(table.channel, "campaign timelapse")
    assert early.ephemeral and "No turn has ended yet" in shown(early)

    preview = await table.gm.slash(table.channel, "battle report", battle="1",
                                   file=("report.json", json.dumps(REPORT).encode()))
    await table.gm.click(preview.response, label="Confirm the report")
    await advance(table, label="Resolve anyway")  # the aftermath nobody rolled: the bot rolls it, turn 1 ends

    mine = await table.fr.slash(table.channel, "campaign timelapse")
    assert mine.ephemeral and "from turn 1 to turn 1 in 1 frames" in shown(mine)  # one per ended turn
    (file,) = mine.response.attachments
    assert file.filename == "timelapse.gif" and 0 < file.size < 8 * 1024 * 1024
    assert (await file.read()).startswith(b"GIF89a")
    french = drawn[-1]
    assert french["view"] == "fr" and [s.turn for s in french["snapshots"]] == [1]
    battle_turn = {c.key: c for c in french["snapshots"][0].counters}
    assert set(battle_turn) == {"lannes", "mack"}  # its own Force, and the enemy it fought, in sight
    assert battle_turn["lannes"].sp is not None and battle_turn["mack"].sp is None  # an enemy's strength stays hidden
    assert [str(sq) for sq in french["snapshots"][0].battles] == ["E4"]

    clock.now += 60  # past the campaign's cooldown
    public = await table.outsider.slash(table.channel, "campaign timelapse")
    assert public.ephemeral and public.response.attachments
    assert drawn[-1]["view"] is None and all(s.counters == () for s in drawn[-1]["snapshots"])
    assert [str(sq) for sq in drawn[-1]["snapshots"][0].battles] == ["E4"]  # battles are public news


async def test_timelapses_have_their_own_gate_and_cooldowns_and_a_drawn_one_is_handed_again(
        table, drawn, clock, simcord_bot) -> None:
    """Issue 24, item 1: a member may not ask for drawing after drawing, nor a campaign's members one
    after another; the same view again is the GIF already drawn, free; the render slots of the maps and
    phase cards are never taken."""
    await to_battle(table)
    preview = await table.gm.slash(table.channel, "battle report", battle="1",
                                   file=("report.json", json.dumps(REPORT).encode()))
    await table.gm.click(preview.response, label="Confirm the report")
    await advance(table, label="Resolve anyway")
    slots = simcord_bot.render_gate._value

    first = await table.fr.slash(table.channel, "campaign timelapse")
    assert first.response.attachments and len(drawn) == 1
    assert simcord_bot.render_gate._value == slots
    again = await table.fr.slash(table.channel, "campaign timelapse")
    assert again.response.attachments and len(drawn) == 1  # the same GIF, not drawn again

    other = await table.au.slash(table.channel, "campaign timelapse")
    assert refused(other, "per campaign", "Try again in 30 s"), shown(other)
    clock.now += 31
    other = await table.au.slash(table.channel, "campaign timelapse")
    assert other.response.attachments and len(drawn) == 2
    clock.now += 31
    mine = await table.au.slash(table.channel, "campaign timelapse")
    assert mine.response.attachments and len(drawn) == 2  # Austria's again: kept
    outsider = await table.outsider.slash(table.channel, "campaign timelapse")
    assert outsider.response.attachments and len(drawn) == 3
    clock.now += 31
    gm = await table.gm.slash(table.channel, "campaign timelapse")
    assert gm.response.attachments and len(drawn) == 4
    clock.now += 31
    table_outsider_again = await table.outsider.slash(table.channel, "campaign timelapse")
    assert table_outsider_again.response.attachments  # kept: no cooldown for a GIF already drawn
    assert domain_errors_only(table.env) == 1


async def test_the_timelapse_names_sides_forces_and_its_view_in_the_readers_language(table, drawn, clock,
                                                                                     locales) -> None:  # noqa: F811
    """Issue 23, item 4: the frames name the scenario's sides and Forces in the
    reader's language, as the other maps do, in the worker that draws them too."""
    from .test_languages import LOCAL_NAMES, localised_scenario

    await to_battle(table, localised_scenario())
    preview = await table.gm.slash(table.channel, "battle report", battle="1",
                                   file=("report.json", json.dumps(REPORT).encode()))
    await table.gm.click(preview.response, label="Confirm the report")
    await advance(table, label="Resolve anyway")
    locales[table.fr.id] = "fr"
    mine = await table.fr.slash(table.channel, "campaign timelapse")
    assert mine.response.attachments
    snap = drawn[-1]["snapshots"][0]
    assert {s.name for s in snap.sides} == {LOCAL_NAMES["France"]["fr"], LOCAL_NAMES["Austria"]["fr"]}
    assert {c.name for c in snap.counters} == {LOCAL_NAMES["V Corps"]["fr"], LOCAL_NAMES["Army of Mack"]["fr"]}
    assert snap.view.params["name"] == LOCAL_NAMES["France"]["fr"]  # "la vue de France"
    assert "Austria" not in mine.response.attachments[0].description
