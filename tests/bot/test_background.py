"""The background loops (deadlines, reminders, backups) survive a bad campaign and their own death:
one campaign's failure is logged with an error id and recorded, the others go on; a loop that
dies is restarted with backoff by the watchdog, which also writes the heartbeat file."""

from __future__ import annotations

import json
import logging
import re

import pytest
from sqlalchemy import text
from sqlalchemy.exc import OperationalError

from bot.engine.phases import Phase
from bot.services import operations, views
from bot.services.actors import Actor
from bot.services.loading import campaign_in_channel

from .conftest import make_bot, texts
from .test_deadlines import dms

HOUR = 3600
pytestmark = pytest.mark.simcord(settle_timeout=20)


@pytest.fixture
def simcord_bot(tmp_path):
    return make_bot(tmp_path, deadline_interval=HOUR)


async def cid_of(table, channel) -> int:
    async with table.env.bot.db.sessions() as s:
        return (await campaign_in_channel(s, channel.id)).id


async def phase_of(table, channel) -> Phase:
    st = await views.status(table.env.bot.db, await cid_of(table, channel), Actor(table.gm.id))
    return st.position.phase


async def two_campaigns_with_deadlines(table):
    """Ulm in the table's channel and Jena in another, both in Phase 1 with a 26 h deadline."""
    other = table.guild.create_text_channel("jena")
    for ch, name in ((table.channel, "Ulm"), (other, "Jena")):
        await table.gm.slash(ch, "campaign create", name=name, scenario="tutorial")
        await table.fr.slash(ch, "campaign join", side="fr")
        await table.au.slash(ch, "campaign join", side="au")
        card = await table.gm.slash(ch, "gm advance")
        await table.gm.click(card.response, label="Resolve")
        await table.gm.slash(ch, "gm deadline", hours=26.0)
    return other


async def poison(table, channel, options: str = '{"_bot": 5}') -> int:
    """Write malformed bot settings straight into the campaign row (as a bad import once could)."""
    cid = await cid_of(table, channel)
    async with table.env.bot.db.transaction() as s:
        conn = await s.connection()
        await conn.execute(text("UPDATE campaign SET options = :o WHERE id = :id"), {"o": options, "id": cid})
    return cid


async def poison_book(table, channel, settings: str = "5") -> int:
    """Write malformed bot settings straight into the campaign's book (issue 22, item 1: the bot settings'
    row), as a bad import or a hand edit could."""
    cid = await cid_of(table, channel)
    async with table.env.bot.db.transaction() as s:
        conn = await s.connection()
        await conn.execute(text("UPDATE campaign_book SET settings = :o WHERE campaign_id = :id"),
                           {"o": settings, "id": cid})
    return cid


async def test_a_campaign_with_malformed_settings_does_not_stop_the_others_deadlines(table, caplog) -> None:
    other = await two_campaigns_with_deadlines(table)
    bad = await poison_book(table, other)

    with caplog.at_level(logging.ERROR, logger="adc.scheduler"):
        await table.env.advance_time(3 * HOUR)  # 23 h left: the 24 h reminder of Ulm
    assert dms(table.fr).count("Reminder for Ulm") == 1 and dms(table.au).count("Reminder for Ulm") == 1
    assert "Reminder for Jena" not in dms(table.fr)
    failures = [r.getMessage() for r in caplog.records
                if r.levelno >= logging.ERROR and f"campaign={bad}" in r.getMessage()]
    assert failures and all(re.search(r"error_id=[0-9a-f]{8}", m) for m in failures)
    eid = re.search(r"error_id=([0-9a-f]{8})", failures[0]).group(1)
    assert len(failures) == 1  # the same failure is reported once, not at every check

    record = await operations.find_error(table.env.bot.db, eid, Actor(table.gm.id))
    assert record.campaign_id == bad and record.command == "deadlines" and record.kind == "TypeError"

    await table.env.advance_time(23 * HOUR)  # Ulm's deadline passes: its phase resolves
    assert await phase_of(table, table.channel) is Phase.MOVEMENT
    assert "Phase 2: Movement" in texts(table.channel.history()[-1:])
    assert await phase_of(table, other) is Phase.ORDERS  # the bad one is left alone


@pytest.mark.parametrize("options", ['{"_bot": {"deadline_version": 2}, "_reminded": 7}', '{not json'])
async def test_the_bad_row_does_not_stop_the_deadlines_after_a_restart_either(table, tmp_path, options) -> None:
    other = await two_campaigns_with_deadlines(table)
    await poison(table, other, options)
    await table.env.restart_bot(make_bot(tmp_path, deadline_interval=HOUR))
    await table.env.advance_time(27 * HOUR)
    assert dms(table.fr).count("Reminder for Ulm") == 2  # 24 h and 1 h
    assert await phase_of(table, table.channel) is Phase.MOVEMENT


@pytest.mark.simcord(settle_timeout=20, check_errors=False)  # each death also ends the loop's task, on purpose
async def test_a_loop_that_dies_is_restarted_with_backoff(table, monkeypatch, caplog) -> None:
    await two_campaigns_with_deadlines(table)
    from bot.services import bookkeeping

    real = bookkeeping.with_deadlines
    outage = {"left": 3}

    async def flaky(*args, **kwargs):  # the database is away for three checks
        if outage["left"]:
            outage["left"] -= 1
            raise OperationalError("SELECT campaign", {}, Exception("database unreachable"))
        return await real(*args, **kwargs)

    monkeypatch.setattr(bookkeeping, "with_deadlines", flaky)
    scheduler = table.env.bot.get_cog("Scheduler")
    with caplog.at_level(logging.INFO, logger="adc.scheduler"):
        await table.env.advance_time(HOUR)
        assert not scheduler.deadlines.is_running()  # the pass failed: the loop died...
        await table.env.advance_time(27 * HOUR)
    assert outage["left"] == 0 and scheduler.deadlines.is_running()  # ...and was brought back
    logs = [r.getMessage() for r in caplog.records]
    deaths = [m for m in logs if "event=loop_failed loop=deadlines" in m]
    assert len(deaths) == 3 and all(re.search(r"error_id=[0-9a-f]{8}", m) for m in deaths)
    delays = [float(re.search(r"retry_in=([0-9.]+)", m).group(1)) for m in logs if "event=loop_restart_scheduled" in m]
    assert len(delays) == 3 and delays[0] < delays[1] < delays[2]  # backing off
    assert await phase_of(table, table.channel) is Phase.MOVEMENT  # and the deadline still fired
    assert dms(table.fr).count("Reminder for Ulm") >= 1
    assert all(isinstance(e, OperationalError) for e in table.env.errors)  # nothing else went wrong


async def test_the_watchdog_writes_a_heartbeat_the_health_check_reads(table, tmp_path) -> None:
    from bot import cli

    await table.env.advance_time(HOUR)
    beat = tmp_path / "heartbeat"
    data = json.loads(beat.read_text())
    assert data["loops"]["deadlines"] == "running" and data["ready"] is True
    assert cli.main(["health", "--file", str(beat), "--max-age", "600"]) == 0
    assert cli.main(["health", "--file", str(tmp_path / "missing"), "--max-age", "600"]) == 1

