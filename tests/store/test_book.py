"""The campaign's book (issue 22, item 1): the bot's bookkeeping in a row of its own. Migration 0016 moves
it out of the campaign's options, the campaign's deadline, each side's channel and each battle's thread,
and the downgrade puts every value back; an export carries the bot settings, and an older export that
kept them among the state's options still imports them. On SQLite and PostgreSQL."""

from __future__ import annotations

import datetime as dt
import json

from sqlalchemy import text

from bot.campaign.botsettings import AtDeadline, Away, BotSettings
from bot.services import bookkeeping, campaigns, exchange
from bot.store import readcache
from bot.store.db import Database

from .conftest import GM
from .test_battle_flow import SCENARIO

OPTIONS = {"fog": True, "_rev": "abc123",
           "_bot": {"auto_resolve": False, "at_deadline": "wait", "away": "hold", "deadline_hours": 12,
                    "join_approval": True, "deadline_set": "2026-12-01T10:00:00+00:00", "deadline_version": 7,
                    "card": 123456789012345678, "requests_card": 223456789012345678},
           "_reminded": ["t24"], "_map_card": "f" * 64}


async def test_migration_0016_moves_the_bookkeeping_into_the_book_and_back(empty_db_url: str) -> None:
    from bot.store.migrate import downgrade, upgrade

    database = Database(empty_db_url)
    try:
        await downgrade(database.engine, "base")
        await upgrade(database.engine, "0015")
        async with database.engine.begin() as conn:  # a campaign as the bookkeeping was kept before
            await conn.execute(text(
                "INSERT INTO campaign (id, guild_id, channel_id, name, scenario, gm_id, options, language, climate,"
                " theatre, start_date, turn, phase, version, status, deadline, holdings, map_width, map_height,"
                " adjacency, sight, created_at) VALUES (1, 1, 2, 'Old', 'tutorial', 3, :options, 'en', 'temperate',"
                " 'other', '1805-10-07', 1, 1, 7, 'active', :deadline, '{}', 12, 9, 8, 2, :created)"),
                {"options": json.dumps(OPTIONS), "deadline": dt.datetime(2026, 12, 3, 10, tzinfo=dt.UTC),
                 "created": dt.datetime(2026, 1, 1, tzinfo=dt.UTC)})
            await conn.execute(text(
                "INSERT INTO side (campaign_id, key, name, colour, nation, camp, battles_won, battles_lost,"
                " strongholds_taken, strongholds_lost, holds_enemy_capital, lost_capital, supply, supply_income,"
                " movement_modifier, done, must_test, defeated, channel_id, last_seen, supply_purchases, recruits)"
                " VALUES (1, 'fr', 'France', '#0000ff', '', '', 0, 0, 0, 0, false, false, 0, 0, 0, false, '', false,"
                " 323456789012345678, '{}', '[]', '[]')"))
            await conn.execute(text(
                "INSERT INTO battle (campaign_id, number, turn, square, force_keys, side_keys, state, scouting,"
                " aftermath, thread_id) VALUES (1, 1, 1, 'E4', '[]', '[]', 'pending', '{}', '{}',"
                " 423456789012345678)"))
        await upgrade(database.engine, "0017")  # 0016, then 0017's empty drafts (issue 23, item 2)
        async with database.sessions() as s:
            from bot.store.bookkeeping import read_book
            book = await read_book(s, 1)
            options = (await s.exec(text("SELECT options FROM campaign WHERE id = 1"))).one()[0]  # type: ignore[call-overload]
        assert book.settings == BotSettings(False, AtDeadline.WAIT, Away.HOLD, 12)
        assert book.deadline == dt.datetime(2026, 12, 3, 10, tzinfo=dt.UTC)
        assert book.deadline_set == dt.datetime(2026, 12, 1, 10, tzinfo=dt.UTC) and book.deadline_version == 7
        assert book.reminded == ("t24",) and book.map_card == "f" * 64
        assert (book.card, book.requests_card) == (123456789012345678, 223456789012345678)
        assert book.channels == {"fr": 323456789012345678} and book.threads == {1: 423456789012345678}
        assert book.drafts == {}
        options = json.loads(options) if isinstance(options, str) else options
        # The game keeps its options, its write stamp and join_approval (the core's rule of joining reads it).
        assert options == {"fog": True, "_rev": "abc123", "_bot": {"join_approval": True}}

        await downgrade(database.engine, "0015")
        async with database.engine.connect() as conn:
            options, deadline = (await conn.execute(text("SELECT options, deadline FROM campaign"))).one()
            channel = (await conn.execute(text("SELECT channel_id FROM side"))).scalar()
            thread = (await conn.execute(text("SELECT thread_id FROM battle"))).scalar()
        options = json.loads(options) if isinstance(options, str) else options
        assert options == OPTIONS
        if isinstance(deadline, str):
            deadline = dt.datetime.fromisoformat(deadline)
        assert deadline.replace(tzinfo=deadline.tzinfo or dt.UTC) == dt.datetime(2026, 12, 3, 10, tzinfo=dt.UTC)
        assert (channel, thread) == (323456789012345678, 423456789012345678)
        await upgrade(database.engine, "head")
        async with database.engine.connect() as conn:  # 0018: the write stamp is the store's column
            options, token = (await conn.execute(text("SELECT options, write_token FROM campaign"))).one()
        options = json.loads(options) if isinstance(options, str) else options
        assert token == "abc123" and "_rev" not in options
        await downgrade(database.engine, "0017")
        async with database.engine.connect() as conn:
            options = (await conn.execute(text("SELECT options FROM campaign"))).scalar()
        options = json.loads(options) if isinstance(options, str) else options
        assert options["_rev"] == "abc123"
        await upgrade(database.engine, "head")
    finally:
        await database.dispose()


async def test_an_export_carries_the_bot_settings_and_an_older_one_still_imports_them(db: Database) -> None:
    created = await campaigns.create_campaign(db, guild_id=1, channel_id=7, gm=GM, name="Bridge",
                                              scenario_text=SCENARIO)
    cid = created.campaign_id
    await bookkeeping.change_bot_setting(db, cid, GM, "at_deadline", "wait")
    await bookkeeping.change_bot_setting(db, cid, GM, "deadline_hours", "12")
    await bookkeeping.change_bot_setting(db, cid, GM, "join_approval", "on")
    exported = await exchange.export_campaign(db, cid, GM)
    assert exported["campaign"]["bot"] == {"auto_resolve": True, "at_deadline": "wait", "away": "stretch",
                                           "deadline_hours": 12}
    assert exported["state"]["options"]["_bot"] == {"join_approval": True}
    older = json.loads(json.dumps(exported))  # as an export made before the book kept them
    del older["campaign"]["bot"]
    older["state"]["options"]["_bot"] = {"join_approval": True, "at_deadline": "wait", "deadline_hours": 12,
                                         "deadline_version": 3, "deadline_set": "2026-12-01T10:00:00+00:00"}
    older["state"]["options"]["_reminded"] = ["t24"]
    for n, data in enumerate((exported, older)):
        done = await exchange.import_campaign(db, exchange.export_bytes(data), guild_id=10, channel_id=80 + n, gm=GM)
        readcache.clear()
        m = await bookkeeping.meta(db, done.campaign_id)
        assert m.book.settings == BotSettings(True, AtDeadline.WAIT, Away.STRETCH, 12)
        assert m.setting("join_approval") is True
        assert m.deadline is None  # the GM's weather phase waits for no deadline
        assert m.reminded == ()
        again = await exchange.export_campaign(db, done.campaign_id, GM)
        assert again["campaign"]["bot"] == exported["campaign"]["bot"]
        assert again["state"]["options"]["_bot"] == {"join_approval": True}
        assert "_reminded" not in again["state"]["options"]
        await campaigns.end_campaign(db, done.campaign_id, GM)


def test_a_books_form_drafts_are_read_within_bounds() -> None:
    """Issue 23, item 2: the members' forms half entered, as the book keeps them, read back checked: a value
    no form box allows (an outcome not offered, a banners box past its 9 characters, a count past 6, an
    unknown kind) drops that draft; at most MAX_DRAFTS are kept; a draft round-trips through the row."""
    from bot.campaign import formdraft
    from bot.campaign.formdraft import FormDraft
    from bot.store.bookkeeping import _fill, book_of
    from bot.store.models import BookRow

    good = FormDraft("won", "cc", "7/7", "", ("fell:0:melee",), {"suchet": {"killed": "2"}})
    bad = [{**good.as_data(), "outcome": "crushed"}, {**good.as_data(), "banners": "9" * 10},
           {**good.as_data(), "counts": {"suchet": {"killed": "1" * 7}}},
           {**good.as_data(), "counts": {"suchet": {"eaten": "1"}}}, {**good.as_data(), "more": "x" * 1001}, "junk"]
    row = BookRow(campaign_id=1, revision=3, drafts={"1:5": good.as_data(), **{f"1:{100 + i}": b for i, b in enumerate(bad)}})
    assert book_of(row).drafts == {"1:5": good}
    many = {formdraft.key(1, m): good.as_data() for m in range(formdraft.MAX_DRAFTS + 50)}
    kept = book_of(BookRow(campaign_id=1, revision=1, drafts=many)).drafts
    assert len(kept) == formdraft.MAX_DRAFTS and formdraft.key(1, formdraft.MAX_DRAFTS + 49) in kept  # the newest
    again = BookRow(campaign_id=1, revision=1)
    _fill(again, book_of(row))
    assert book_of(again).drafts == {"1:5": good}
    assert formdraft.kept({"1:5": good, "2:5": good}, [2]) == {"2:5": good}  # battle 1 resolved
