"""/about: version, uptime, database kind, shards and campaign count; the GM of a campaign looks up
an error id shown there (what failed, when), and nobody else can; error records stay bounded."""

from __future__ import annotations

import datetime as dt
import re

import simcord
from sqlmodel import func, select

from bot.cogs.about import version
from bot.services import operations
from bot.services.errors import NotFound
from bot.settings import Settings
from bot.store.models import ErrorRecord
from tests.databases import migrated_sqlite

from .conftest import Table, refused, shown, start


async def test_about_shows_version_uptime_database_shards_and_campaigns(table) -> None:
    await start(table)
    r = await table.outsider.slash(table.channel, "about")
    text = shown(r)
    assert r.ephemeral and f"Aide-de-Camp {version()}" in text
    assert "SQLite" in text and "1 active, 1 in all" in text
    assert "not sharded" in text and re.search(r"since <t:\d+:f> \(<t:\d+:R>\)", text)
    assert "/about error:ID" in text


async def unexpected_error_in(table, monkeypatch, channel) -> str:
    async def boom(*args, **kwargs):
        raise RuntimeError("database on fire")

    with monkeypatch.context() as m:
        m.setattr("bot.services.views.status_card", boom)  # what /campaign status reads
        r = await table.fr.slash(channel, "campaign status")
    simcord.assert_error(table.env, RuntimeError)
    return re.search(r"error ID is `([0-9a-f]{8})`", shown(r)).group(1)


async def test_the_gm_looks_up_an_error_id_of_their_campaign_and_nobody_else_can(table, monkeypatch) -> None:
    await start(table)
    eid = await unexpected_error_in(table, monkeypatch, table.channel)

    r = await table.gm.slash(table.channel, "about", error=f"`{eid}`")
    text = shown(r)
    assert r.ephemeral and f"Error {eid}" in text
    assert re.search(r"campaign status in Ulm, <t:\d+:f>: RuntimeError", text)
    assert "database on fire" not in text  # the type, never the message

    for who in (table.fr, table.outsider):  # a player of the campaign, a member of none
        assert refused(await who.slash(table.channel, "about", error=eid), f"There is no error '{eid}'")
    # The GM of another campaign, even on the same server, does not see this one's errors.
    other_gm = table.guild.add_member(table.env.create_user("otto"))
    other = table.guild.create_text_channel("jena")
    await other_gm.slash(other, "campaign create", name="Jena", scenario="tutorial")
    assert refused(await other_gm.slash(other, "about", error=eid), "There is no error")
    # ...while the GM role of Ulm finds it from anywhere.
    assert f"Error {eid}" in shown(await table.gm.slash(other, "about", error=eid))
    assert refused(await table.gm.slash(table.channel, "about", error="nonsense!"), "There is no error")
    refusals = [e for e in table.env.errors if not isinstance(getattr(e, "original", e), RuntimeError)]
    assert len(refusals) == 4 and all(isinstance(e.original, NotFound) for e in refusals)


async def test_error_records_keep_campaign_command_time_and_type_and_stay_bounded(table, monkeypatch) -> None:
    await start(table)
    eid = await unexpected_error_in(table, monkeypatch, table.channel)
    db = table.env.bot.db
    async with db.sessions() as s:
        row = (await s.exec(select(ErrorRecord).where(ErrorRecord.error_id == eid))).one()
    assert (row.command, row.kind, row.user_id, row.guild_id) == ("campaign status", "RuntimeError", table.fr.id,
                                                                  table.guild.id)
    assert row.campaign_id is not None and row.created_at.tzinfo is not None

    now = dt.datetime.now(dt.UTC)
    await operations.record_error(db, "0ld0", command="x", kind="E", now=now - dt.timedelta(days=31))
    monkeypatch.setattr(operations, "KEEP_AT_MOST", 3)
    for i in range(5):
        await operations.record_error(db, f"abc{i}", command="x", kind="E", campaign_id=row.campaign_id, now=now)
    async with db.sessions() as s:
        ids = (await s.exec(select(ErrorRecord.error_id).order_by(ErrorRecord.id))).all()
        count = (await s.exec(select(func.count()).select_from(ErrorRecord))).one()
    assert ids == ["abc2", "abc3", "abc4"] and count == 3  # older than 30 days, or beyond the newest 3: gone


async def test_about_says_which_shards_this_process_runs_and_where_the_server_is(tmp_path) -> None:
    from bot.app import create_bot

    settings = Settings(database_url=migrated_sqlite(tmp_path / "s.db"), data_dir=tmp_path,
                        shard_count=4, shard_ids=(1, 3))
    async with simcord.run(create_bot(settings, background_tasks=False)) as env:
        g = env.create_guild("Club", shard_id=3)
        ch = g.create_text_channel("c")
        gm = g.add_member(env.create_user("gina"))
        t = Table(env, g, ch, gm, gm, gm, gm, None)
        text = shown(await t.gm.slash(ch, "about"))
    assert "this process runs shard(s) 1, 3 of 4" in text and "this server is on shard 3" in text
