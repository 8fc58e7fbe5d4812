"""Reminders that move people (issue 22, item 5): the 24 h and 1 h DMs name the campaign, the phase, what
exactly the member's side still has to do, the time left, a link back to the phase card and a "My side is
done" button that works from the DM; at the deadline the channel says which side did not act and what the
rules did for it."""

from __future__ import annotations

import pytest

from bot.engine.phases import Phase

from .conftest import advance, domain_errors_only, make_bot, start, texts
from .test_deadlines import status
from .test_turn_flows import cards

HOUR = 3600
pytestmark = pytest.mark.simcord(settle_timeout=20)


@pytest.fixture
def simcord_bot(tmp_path):
    return make_bot(tmp_path, deadline_interval=HOUR)


def last_dm(member):
    return member.user.dm_channel.history()[-1]


async def test_a_reminder_says_what_is_missing_links_the_card_and_its_button_marks_the_side_done(table, tmp_path) -> None:
    await start(table)
    await advance(table)
    await table.gm.slash(table.channel, "gm deadline", hours=26.0)
    odds = await table.fr.slash(table.channel, "order give", force="soult", order="forced_march")
    await table.fr.click(odds.response, label="Roll")
    await table.env.advance_time(3 * HOUR)  # 23 h left: the 24 h reminder

    dm = last_dm(table.fr)
    said = texts([dm])
    assert "Reminder for Ulm: Phase 1" in said  # the campaign and the phase
    assert "V Corps" in said and "IV Corps" not in said  # exactly what France still has to do: V Corps's order
    assert "Army of Mack" not in said  # France's own reminder (fog of war)
    assert "<t:" in said  # the time left
    card = cards(table.channel)[-1]
    assert f"https://discord.com/channels/{table.guild.id}/{table.channel.id}/{card.id}" in said
    assert "Army of Mack" in texts([last_dm(table.au)]) and "V Corps" not in texts([last_dm(table.au)])

    await table.env.restart_bot(make_bot(tmp_path, deadline_interval=HOUR))  # the button is the campaign's
    done = await table.fr.user.click(dm, label="My side is done")  # from the DM: no channel
    assert "marked done" in texts([done.response])
    _, st = await status(table)
    assert st.done == ("France",) and st.position.phase is Phase.ORDERS
    domain_errors_only(table.env)


async def test_at_the_deadline_the_channel_says_which_side_did_not_act_and_what_the_rules_did(table) -> None:
    await start(table)
    await advance(table)
    await table.gm.slash(table.channel, "gm deadline", hours=2.0)
    await table.fr.slash(table.channel, "order done")
    await table.env.advance_time(3 * HOUR)
    _, st = await status(table)
    assert st.position.phase is Phase.MOVEMENT
    card = texts([cards(table.channel)[-1]])
    assert "Phase 2" in card
    assert "The deadline passed: Austria did not act; its Forces keep their orders (MC-4)." in card
    assert "France did not act" not in card
