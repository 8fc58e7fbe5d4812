"""campaign book

Revision ID: 0016
Revises: 0015

Issue 22, item 1: the bot's bookkeeping gets a row of its own, ``campaign_book``, so that writing it (a
reminder sent, a deadline set, a phase card posted, a setting changed) leaves the campaign row and its
write stamp alone and the read cache keeps the game. Moved there: the deadline (``campaign.deadline``),
the bot settings and the deadline's bookkeeping (``options._bot``: ``deadline_set``, ``deadline_version``,
``card``, ``requests_card``), the reminders sent (``options._reminded``), the public map's last hash
(``options._map_card``), each side's channel (``side.channel_id``) and each battle's thread
(``battle.thread_id``). ``join_approval`` stays in ``options._bot``: the core's rule of joining reads it.
The downgrade puts every value back where it was.
Create Date: 2026-12-06 23:00:00.000000
"""

from __future__ import annotations

import datetime as dt
from collections.abc import Sequence
from typing import Any

import sqlalchemy as sa
import sqlmodel
from alembic import op

revision: str = '0016'
down_revision: str | None = '0015'
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None

SETTINGS = ("auto_resolve", "at_deadline", "away", "deadline_hours")
MOVED = (*SETTINGS, "deadline_set", "deadline_version", "card", "requests_card")
"""What leaves ``options._bot`` for the book (``join_approval`` stays: the core reads it)."""

campaign = sa.table("campaign", sa.column("id", sa.Integer), sa.column("options", sa.JSON),
                    sa.column("deadline", sa.DateTime(timezone=True)))
side = sa.table("side", sa.column("campaign_id", sa.Integer), sa.column("key", sa.String),
                sa.column("channel_id", sa.BigInteger))
battle = sa.table("battle", sa.column("campaign_id", sa.Integer), sa.column("number", sa.Integer),
                  sa.column("thread_id", sa.BigInteger))
book = sa.table("campaign_book", sa.column("campaign_id", sa.Integer), sa.column("revision", sa.Integer),
                sa.column("settings", sa.JSON), sa.column("deadline", sa.DateTime(timezone=True)),
                sa.column("deadline_set", sa.DateTime(timezone=True)), sa.column("deadline_version", sa.Integer),
                sa.column("reminded", sa.JSON), sa.column("card", sa.BigInteger),
                sa.column("requests_card", sa.BigInteger), sa.column("map_card", sa.String),
                sa.column("channels", sa.JSON), sa.column("threads", sa.JSON))


def _int(value: Any) -> int | None:
    return value if isinstance(value, int) and not isinstance(value, bool) else None


def _time(value: Any) -> dt.datetime | None:
    if not isinstance(value, str):
        return None
    try:
        when = dt.datetime.fromisoformat(value)
    except ValueError:
        return None
    return when.replace(tzinfo=dt.UTC) if when.tzinfo is None else when.astimezone(dt.UTC)


def _utc(value: Any) -> dt.datetime | None:
    if isinstance(value, str):  # SQLite hands the text over as it is
        value = dt.datetime.fromisoformat(value)
    if not isinstance(value, dt.datetime):
        return None
    return value.replace(tzinfo=dt.UTC) if value.tzinfo is None else value.astimezone(dt.UTC)


def upgrade() -> None:
    op.create_table('campaign_book',
    sa.Column('id', sa.Integer(), nullable=False),
    sa.Column('campaign_id', sa.Integer(), nullable=False),
    sa.Column('revision', sa.Integer(), nullable=False),
    sa.Column('settings', sa.JSON(), nullable=False),
    sa.Column('deadline', sa.DateTime(timezone=True), nullable=True),
    sa.Column('deadline_set', sa.DateTime(timezone=True), nullable=True),
    sa.Column('deadline_version', sa.Integer(), nullable=True),
    sa.Column('reminded', sa.JSON(), nullable=False),
    sa.Column('card', sa.BigInteger(), nullable=True),
    sa.Column('requests_card', sa.BigInteger(), nullable=True),
    sa.Column('map_card', sqlmodel.sql.sqltypes.AutoString(length=64), nullable=True),
    sa.Column('channels', sa.JSON(), nullable=False),
    sa.Column('threads', sa.JSON(), nullable=False),
    sa.ForeignKeyConstraint(['campaign_id'], ['campaign.id'], name=op.f('fk_campaign_book_campaign_id_campaign'),
                            ondelete='CASCADE'),
    sa.PrimaryKeyConstraint('id', name=op.f('pk_campaign_book')),
    sa.UniqueConstraint('campaign_id', name=op.f('uq_campaign_book_campaign_id'))
    )
    with op.batch_alter_table('campaign_book', schema=None) as batch_op:
        batch_op.create_index(batch_op.f('ix_campaign_book_campaign_id'), ['campaign_id'], unique=False)
        batch_op.create_index(batch_op.f('ix_campaign_book_deadline'), ['deadline'], unique=False)

    conn = op.get_bind()
    channels: dict[int, dict[str, int]] = {}
    for cid, key, channel in conn.execute(sa.select(side.c.campaign_id, side.c.key, side.c.channel_id)):
        if channel is not None:
            channels.setdefault(cid, {})[key] = channel
    threads: dict[int, dict[str, int]] = {}
    for cid, number, thread in conn.execute(sa.select(battle.c.campaign_id, battle.c.number, battle.c.thread_id)):
        if thread is not None:
            threads.setdefault(cid, {})[str(number)] = thread
    for cid, options, deadline in conn.execute(sa.select(campaign.c.id, campaign.c.options, campaign.c.deadline)).all():
        options = dict(options) if isinstance(options, dict) else {}
        bot = options.get("_bot") if isinstance(options.get("_bot"), dict) else {}
        reminded = options.get("_reminded")
        map_card = options.get("_map_card")
        conn.execute(sa.insert(book).values(
            campaign_id=cid, revision=1, settings={k: bot[k] for k in SETTINGS if k in bot},
            deadline=_utc(deadline), deadline_set=_time(bot.get("deadline_set")),
            deadline_version=_int(bot.get("deadline_version")),
            reminded=[r for r in reminded if isinstance(r, str)] if isinstance(reminded, list) else [],
            card=_int(bot.get("card")), requests_card=_int(bot.get("requests_card")),
            map_card=map_card if isinstance(map_card, str) and len(map_card) <= 64 else None,
            channels=channels.get(cid, {}), threads=threads.get(cid, {})))
        kept = {k: v for k, v in bot.items() if k not in MOVED}
        rest = {k: v for k, v in options.items() if k not in ("_bot", "_reminded", "_map_card")}
        conn.execute(sa.update(campaign).where(campaign.c.id == cid).values(
            options={**rest, **({"_bot": kept} if kept else {})}))

    # ALTER TABLE ... DROP COLUMN in place (SQLite 3.35+ and PostgreSQL): a batch operation would copy
    # the campaign table and drop the old one, and with foreign keys on that deletes every row that
    # refers to a campaign (ON DELETE CASCADE).
    op.execute("ALTER TABLE campaign DROP COLUMN deadline")
    op.execute("ALTER TABLE side DROP COLUMN channel_id")
    op.execute("ALTER TABLE battle DROP COLUMN thread_id")


def downgrade() -> None:
    with op.batch_alter_table('campaign', schema=None) as batch_op:
        batch_op.add_column(sa.Column('deadline', sa.DateTime(timezone=True), nullable=True))
    with op.batch_alter_table('side', schema=None) as batch_op:
        batch_op.add_column(sa.Column('channel_id', sa.BigInteger(), nullable=True))
    with op.batch_alter_table('battle', schema=None) as batch_op:
        batch_op.add_column(sa.Column('thread_id', sa.BigInteger(), nullable=True))

    conn = op.get_bind()
    books = conn.execute(sa.select(book)).mappings().all()
    for b in books:
        cid = b["campaign_id"]
        options = conn.execute(sa.select(campaign.c.options).where(campaign.c.id == cid)).scalar()
        options = dict(options) if isinstance(options, dict) else {}
        bot = dict(options.get("_bot") or {}) if isinstance(options.get("_bot"), dict) else {}
        bot.update(b["settings"] or {})
        deadline_set = _utc(b["deadline_set"])
        for name, value in (("deadline_set", deadline_set.isoformat() if deadline_set else None),
                            ("deadline_version", b["deadline_version"]), ("card", b["card"]),
                            ("requests_card", b["requests_card"])):
            if value is not None:
                bot[name] = value
        if bot:
            options["_bot"] = bot
        if b["reminded"]:
            options["_reminded"] = list(b["reminded"])
        if b["map_card"] is not None:
            options["_map_card"] = b["map_card"]
        conn.execute(sa.update(campaign).where(campaign.c.id == cid).values(options=options,
                                                                           deadline=_utc(b["deadline"])))
        for key, channel in (b["channels"] or {}).items():
            conn.execute(sa.update(side).where(side.c.campaign_id == cid, side.c.key == key).values(channel_id=channel))
        for number, thread in (b["threads"] or {}).items():
            conn.execute(sa.update(battle).where(battle.c.campaign_id == cid, battle.c.number == int(number))
                         .values(thread_id=thread))

    with op.batch_alter_table('campaign_book', schema=None) as batch_op:
        batch_op.drop_index(batch_op.f('ix_campaign_book_deadline'))
        batch_op.drop_index(batch_op.f('ix_campaign_book_campaign_id'))
    op.drop_table('campaign_book')
