"""Issue 13, items 6 and 8, from the members' side: the turn ends with a short gazette in plain language
(fog-safe, with the public map and the command that checks the dice), the log after ``/gm deadline``
reads as a time, and ``/campaign status`` says first what the member still has to do, then their Forces,
then what they see, by side name."""

from __future__ import annotations

import json
import re
from io import BytesIO

from PIL import Image

from tests.store.test_battle_flow import REPORT

from .conftest import advance, shown, start, texts
from .test_battle import to_battle
from .test_turn_flows import bridge

HASH = re.compile(r"[0-9a-f]{64}")


def embed_text(e) -> str:
    return "\n".join([e.title or "", e.description or "", e.footer.text or "", *(f"{f.name} {f.value}" for f in e.fields)])


def gazettes(channel, viewer=None) -> list:
    return [m for m in channel.history(viewer=viewer) if any("gazette" in (e.title or "") for e in m.embeds)]


async def a_turn_with_one_battle(table) -> None:
    """Bridge, turn 1: V Corps attacks the Army of Mack at E4; France wins (REPORT); Austria retreats to F4."""
    await to_battle(table)  # V Corps marches into the Army of Mack: battle 1 at E4
    preview = await table.gm.slash(table.channel, "battle report", battle="1",
                                   file=("report.json", json.dumps(REPORT).encode()))
    await table.gm.click(preview.response, label="Confirm the report")
    (thread,) = table.channel.threads
    button = next(m for m in reversed(thread.history()) if m.components)
    await table.au.click(button, label="Roll my aftermath")
    await table.fr.click(button, label="Roll my aftermath")
    await table.au.slash(thread, "leader fate", leader="Mack", circumstance="melee")
    await table.fr.slash(thread, "trophy roll", battle="1", unit="hussars", target="jaegers")
    await table.au.slash(thread, "battle retreat", battle="1", square="F4")  # the last: the turn ends


async def test_the_turn_ends_with_a_short_gazette_with_the_outcome_the_map_and_the_dice_to_check(table) -> None:
    await a_turn_with_one_battle(table)
    for reader in (table.outsider, table.fr, table.au):
        (gazette,) = gazettes(table.channel, viewer=reader)
        said = embed_text(gazette.embeds[0])  # the gazette; the next phase card rides along below it
        assert "Turn 1 gazette" in said and len(said) < 900, said
        assert "Phase 1" in embed_text(gazette.embeds[-1]) and "turn 2" in embed_text(gazette.embeds[-1])
        assert not HASH.search(said) and "{" not in said, said
        assert "Weather: Overcast; no wind." in said
        assert "Battle 1 at E4: France beat Austria." in said  # the outcome is public news
        assert "Austria tests its Will to Fight" in said
        assert re.search(r"The dice of turn 1 can now be checked: (</campaign verify:\d+>|`/campaign verify`)", said)
        assert re.search(r"(</campaign log:\d+>|`/campaign log`)", said)  # the whole log is a click away
        assert "Next: turn 2, Oct 14, 1805 (autumn)." in said  # one date style in English too (issue 23)
        assert re.search(r"Dice fingerprint of turn 1: [0-9a-f]{16} ", said)  # commits the channel to the dice
        # No Force, unit or leader is named: what happened to them is the camps' (their thread and log).
        for hidden in ("V Corps", "Army of Mack", "Suchet", "Riesch", "Jaegers", "Hussars", "Mack", "Lannes"):
            assert hidden not in said, hidden
        (png,) = gazette.attachments
        assert png.filename == "turn-1.png" and (await png.read()).startswith(b"\x89PNG")
        assert gazette.embeds[0].image.url == "attachment://turn-1.png"
    channel = texts(table.channel.history())
    assert "summary" not in channel and "every battle is reported" not in channel.split("Turn 1 gazette")[1]
    log = await table.outsider.slash(table.channel, "campaign log", turn=1)
    assert "Battle 1 at E4" in shown(log) and "Turn 1 is over" in shown(log)  # the full log is still there


async def test_a_turn_without_battles_does_not_say_every_battle_is_reported(table) -> None:
    await start(table)
    await advance(table)  # weather
    for _phase in (1, 2):  # orders, then movement: both done, each resolves by itself
        await table.fr.slash(table.channel, "order done")
        await table.au.slash(table.channel, "order done")
    log = shown(await table.gm.slash(table.channel, "campaign log", turn=1))
    assert "every battle is reported" not in log and "Phase 3 resolved: no battle this turn." in log
    (gazette,) = gazettes(table.channel)
    assert "No battle was fought this turn." in texts([gazette])


async def test_after_gm_deadline_the_log_shows_a_readable_time(table) -> None:
    await bridge(table)
    await table.gm.slash(table.channel, "gm deadline", hours=26.0)
    for reader in (table.fr, table.outsider, table.gm):
        log = shown(await reader.slash(table.channel, "campaign log"))
        assert re.search(r"The GM set the phase deadline to \d{4}-\d\d-\d\d \d\d:\d\d UTC\.", log), log
        assert "{deadline" not in log and "%Y" not in log


ITALY_STATUS_LINES = 20
"""France's status in italy1796 (8 Forces, 7 enemies in sight) fits in this many lines."""


async def test_status_puts_what_the_member_must_do_first_then_their_forces_then_what_they_see(table) -> None:
    await table.gm.slash(table.channel, "campaign create", name="Italy", scenario="italy1796")
    await table.fr.slash(table.channel, "campaign join", side="fr")
    await advance(table)  # the weather; Phase 1 waits for France
    status = await table.fr.slash(table.channel, "campaign status")
    assert status.ephemeral
    (embed,) = status.response.embeds
    said = shown(status)
    assert "You play France." in embed.description and "Phase 1: Orders" in embed.description
    names = [f.name for f in embed.fields]
    assert names[:3] == ["Still to do", "Your Forces (8)", "In sight"], names
    assert embed.fields[0].value == "give orders, then mark done"
    assert embed.fields[1].value.splitlines()[0].startswith("**Alpine Divisions** E22 · 9 SP")
    assert len(embed.fields[1].value.splitlines()) == 8  # one line per Force
    seen = embed.fields[2].value.splitlines()
    assert seen[0].startswith("**Austria** (4): ") and "and 1 more" in seen[0]
    assert seen[1].startswith("**Piedmont-Sardinia** (3): ")
    assert not re.search(r"\((au|pi|fr)\)", said), said  # side names, not keys
    assert len(said.splitlines()) <= ITALY_STATUS_LINES, said
    assert max(len(line) for line in said.splitlines()) <= 120, said  # short lines, for a phone

    odds = await table.fr.slash(table.channel, "order give", force="massena", order="forced_march")
    await table.fr.click(odds.response, label="Roll")
    status = shown(await table.fr.slash(table.channel, "campaign status"))
    assert "**Masséna's Division** K19 · 13 SP · explore — Force test taken" in status, status


async def test_the_gazette_of_turn_1_draws_turn_1_with_its_battle_its_winner_and_its_retreat(table) -> None:
    """Issue 22, item 3: the picture is the turn's frame, kept before turn 2 began, not turn 2's empty map."""
    await a_turn_with_one_battle(table)
    (gazette,) = gazettes(table.channel, viewer=table.outsider)
    (png,) = gazette.attachments
    alt = png.description or ""
    heading = alt.splitlines()[0]
    assert "Turn 1" in heading and "end of the turn" in heading and "Turn 2" not in alt, alt  # its own turn
    assert "Battle at E4, won by France." in alt, alt  # the battle, its winner's colour on the map
    assert "- Austria: E4 → F4." in alt, alt  # the retreat: public news, both camps see the square
    for hidden in ("V Corps", "Army of Mack"):  # still no Force named for the public
        assert hidden not in alt
    with Image.open(BytesIO(await png.read())) as im:
        assert im.width == 720  # a phone picture around the battle
