"""Issue 13 item 7 (the pager): /campaign log's Older / Newer buttons work after a restart (their state
is in their custom ids) and never expire; each click reads the log again as the clicking member may
see it, so a member other than the reader gets their own view, never the reader's private lines."""

from __future__ import annotations

import re

from simcord.actors import _visible_message, walk_components

from bot.services import bookkeeping
from bot.services.actors import Actor
from bot.services.campaigns import campaign_of_channel

from .conftest import advance, make_bot, shown, start


def buttons(message) -> dict[str, bool]:
    """Label -> enabled, of the message's buttons (a response's raw components, or a message's)."""
    rows = [row["components"] if isinstance(row, dict) else row.children for row in message.components]
    return {(c["label"] if isinstance(c, dict) else c.label): not (c.get("disabled", False) if isinstance(c, dict)
                                                                  else c.disabled)
            for row in rows for c in row}


def page_of(text: str) -> tuple[int, int]:
    m = re.search(r"\((\d+)/(\d+)\)", text)
    assert m, text
    return int(m[1]), int(m[2])


async def long_log(table) -> int:
    """A log of several pages, its newest lines France's private Force test (🔒)."""
    await start(table)
    await advance(table)
    bot = table.env.bot
    cid = await campaign_of_channel(bot.db, table.channel.id)
    gm = Actor(table.gm.id, name="Gina")
    for i in range(160):  # public lines, enough for several pages
        await bookkeeping.change_bot_setting(bot.db, cid, gm, "join_approval", ("on", "off")[i % 2])
    odds = await table.fr.slash(table.channel, "order give", force="soult", order="defend")
    await table.fr.click(odds.response, label="Roll")
    return cid


async def test_the_pager_works_after_a_restart_with_the_readers_own_view(table, tmp_path) -> None:
    cid = await long_log(table)
    log = await table.fr.slash(table.channel, "campaign log")
    first = log.response
    assert log.ephemeral and "🔒" in shown(log)  # France's own private lines
    page, pages = page_of(shown(log))
    assert page == pages > 1 and buttons(first) == {"◀ Older": True, "Newer ▶": False}

    await table.env.restart_bot(make_bot(tmp_path))

    older = await table.fr.click(first, label="◀ Older")  # answered by the new bot, in place
    assert page_of(shown(older)) == (pages - 1, pages) and "🔒" not in shown(older)
    assert buttons(older.response) == {"◀ Older": pages > 2, "Newer ▶": True}
    newer = await table.fr.click(older.response, label="Newer ▶")
    assert page_of(shown(newer)) == (pages, pages) and "🔒" in shown(newer)

    # Another member's click on France's pager (a message Austria could see): Austria's own view, in a
    # message of its own, never France's private lines. Discord shows an ephemeral log to its reader only;
    # here Austria's own log message is given France's buttons to click.
    theirs = await table.au.slash(table.channel, "campaign log")
    assert "🔒" not in shown(theirs)
    stored = _visible_message(table.au, theirs.response)
    for c in walk_components(stored.components):  # France's "Newer" from the page before the newest
        if c.get("label") == "◀ Older":
            c["custom_id"] = f"adc:log:{cid}:{table.fr.id}:0:1:n"
    clicked = await table.au.click(theirs.response, label="◀ Older")
    assert clicked.ephemeral and page_of(shown(clicked)) == (pages, pages)  # the newest page...
    assert "🔒" not in shown(clicked) and "Soult" not in shown(clicked)  # ...as Austria may see it
    assert clicked.response.id != theirs.response.id  # a message of Austria's own
