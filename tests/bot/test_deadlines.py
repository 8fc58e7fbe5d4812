"""Deadlines on the virtual clock: reminders 24 h and 1 h before to those the phase waits for (a
mention when DMs are closed), then the phase resolves by itself, once."""

from __future__ import annotations

import asyncio
import datetime

import pytest

from bot.engine.phases import Phase
from bot.services import views
from bot.services.actors import Actor

from .conftest import advance, domain_errors_only, make_bot, shown, start, texts

HOUR = 3600
# Each virtual tick costs simcord a few tens of real milliseconds: check hourly here (60 s in production).
pytestmark = pytest.mark.simcord(settle_timeout=20)


@pytest.fixture
def simcord_bot(tmp_path):
    return make_bot(tmp_path, deadline_interval=HOUR)


def dms(member) -> str:
    return texts(member.user.dm_channel.history())


async def status(table):
    bot = table.env.bot
    async with bot.db.sessions() as s:
        from bot.services.loading import campaign_in_channel

        cid = (await campaign_in_channel(s, table.channel.id)).id
    return cid, await views.status(bot.db, cid, Actor(table.gm.id))


async def test_reminders_go_to_who_has_not_acted_and_the_deadline_resolves_the_phase(table) -> None:
    await start(table)
    await advance(table)
    r = await table.gm.slash(table.channel, "gm deadline", hours=26.0)
    assert "Deadline for this phase" in shown(r) and not r.ephemeral

    await table.env.advance_time(1 * HOUR)
    assert "Reminder" not in dms(table.fr)
    await table.env.advance_time(2 * HOUR)  # 23 h left: the 24 h reminder
    assert "Reminder for Ulm" in dms(table.fr) and "Reminder for Ulm" in dms(table.au)
    assert "Reminder" not in dms(table.gm)

    await table.fr.slash(table.channel, "order done")  # France has acted; Austria has not
    table.env.inject_error("POST", "/channels/*/messages", status=403, code=50007,
                           message="Cannot send messages to this user")  # Austria's DMs are closed
    await table.env.advance_time(22.5 * HOUR)  # 30 min left: the 1 h reminder
    assert dms(table.fr).count("Reminder") == 1
    assert dms(table.au).count("Reminder") == 1  # the second DM bounced...
    assert f"<@{table.au.id}>: reminder for Ulm" in texts(table.channel.history())  # ...so a mention instead

    await table.env.advance_time(1 * HOUR)  # the deadline passes: the phase resolves (forced)
    _, st = await status(table)
    assert st.position.phase is Phase.MOVEMENT  # with its own deadline: the default 48 hours (deadline_hours)
    assert st.deadline is not None and 46 * HOUR < (st.deadline - table.env.now()).total_seconds() <= 48 * HOUR
    assert "Phase 2: Movement" in texts(table.channel.history()[-1:])


async def test_at_deadline_wait_tells_the_gm_instead_of_resolving(table) -> None:
    await start(table)
    await advance(table)
    await table.gm.slash(table.channel, "campaign settings", name="at_deadline", value="wait")
    await table.gm.slash(table.channel, "gm deadline", hours=2.0)
    await table.env.advance_time(3 * HOUR)
    _, st = await status(table)
    assert st.position.phase is Phase.ORDERS
    assert texts(table.channel.history()).count("the phase deadline has passed") == 1
    await table.env.advance_time(3 * HOUR)  # said once, not every check
    assert texts(table.channel.history()).count("the phase deadline has passed") == 1


async def test_several_checks_at_once_resolve_the_phase_once(table) -> None:
    await start(table)
    await advance(table)
    await table.gm.slash(table.channel, "gm deadline", hours=0.5)
    _, before = await status(table)
    scheduler = table.env.bot.get_cog("Scheduler")
    later = before.deadline + datetime.timedelta(minutes=1)
    # Two "processes" (checks) at the same moment: the version guard lets one through.
    await asyncio.gather(scheduler.check_deadlines(later), scheduler.check_deadlines(later))
    _, after = await status(table)
    assert after.version == before.version + 1 and after.position.phase is Phase.MOVEMENT
    await scheduler.check_deadlines(later)  # a stale deadline never resolves a later phase
    _, again = await status(table)
    assert again.version == after.version


async def test_an_absent_players_deadline_stretches(table) -> None:
    await start(table)
    await advance(table)
    r = await table.au.slash(table.channel, "campaign away", days=1)
    assert "You are away until" in shown(r)
    await table.gm.slash(table.channel, "gm deadline", hours=5.0)
    await table.env.advance_time(6 * HOUR)
    _, st = await status(table)
    assert st.position.phase is Phase.ORDERS  # stretched to Austria's return
    await table.env.advance_time(19 * HOUR)
    _, st = await status(table)
    assert st.position.phase is Phase.MOVEMENT
    domain_errors_only(table.env)


async def test_the_database_is_backed_up_when_the_bot_starts_and_daily(table, tmp_path) -> None:
    await table.env.settle()
    assert len(list((tmp_path / "backups").glob("bot-*.db"))) == 1
    await table.env.advance_time(24 * 3600)
    assert len(list((tmp_path / "backups").glob("bot-*.db"))) == 2


async def test_after_the_last_reminder_the_gm_is_told_who_stalls_and_a_muted_player_is_not_reminded(table) -> None:
    await start(table)
    await advance(table)
    await table.gm.slash(table.channel, "gm deadline", hours=26.0)
    card = next(m for m in reversed(table.channel.history())
                if any(getattr(c, "label", None) == "Mute my pings" for row in m.components for c in row.children))
    await table.au.click(card, label="Mute my pings")
    await table.env.advance_time(3 * HOUR)  # 23 h left: the 24 h reminder
    assert "Reminder for Ulm" in dms(table.fr) and "Reminder" not in dms(table.au)
    assert "still waits for" not in dms(table.gm)  # not yet: only after the last reminder
    await table.fr.slash(table.channel, "order done")
    await table.env.advance_time(22.5 * HOUR)  # 30 min left: the 1 h reminder, then the GM's note
    told = dms(table.gm)
    assert "Ulm: the phase ends" in told and "still waits for **Austria**" in told and f"<@{table.au.id}>" in told
    assert "France" not in told  # France is done
    assert "Reminder" not in dms(table.au)
