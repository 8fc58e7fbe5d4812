"""/campaign verify (anyone) and /campaign export (GM) hand out the roll log with the page that checks
it in a browser (bot/engine/verify.html); the turn gazette shows each turn's dice fingerprint (the start of its
chain head)."""

from __future__ import annotations

import json

from bot.engine.verify import verify_log

from .conftest import advance, shown, start, texts


async def play_turn_one(table) -> None:
    await start(table)
    await advance(table)  # Phase 0: the weather
    odds = await table.au.slash(table.channel, "order give", force="mack", order="defend")
    await table.au.click(odds.response, label="Roll")  # a roll private to Austria
    for _ in range(2):  # orders, then movement: everyone is done, so it resolves by itself
        await table.fr.slash(table.channel, "order done")
        await table.au.slash(table.channel, "order done")


async def test_anyone_gets_the_roll_log_of_ended_turns_and_a_page_that_checks_it(table) -> None:
    await play_turn_one(table)
    r = await table.outsider.slash(table.channel, "campaign verify")
    assert r.ephemeral and "chain heads" in shown(r)
    names = [a.filename for a in r.response.attachments]
    cid = names[0].removeprefix("roll-log-").removesuffix(".json")
    assert names == [f"roll-log-{cid}.json", f"roll-log-{cid}.html"]
    log = json.loads(await r.response.attachments[0].read())
    page = (await r.response.attachments[1].read()).decode("utf-8")
    report = verify_log(log)
    assert report.ok and report.verified >= 1 and report.hidden >= 1
    head = log["turns"][0]["chain_head"]
    assert head and f"Dice fingerprint of turn 1: {head[:16]} " in texts(table.channel.history())  # the gazette's
    assert "mack" not in json.dumps(log) and "mack" not in page
    assert page.startswith("<!doctype html>") and "Roll log of Ulm" in page
    table.env.errors  # noqa: B018


async def test_the_export_comes_with_the_page_for_its_whole_roll_log(table) -> None:
    await play_turn_one(table)
    r = await table.gm.slash(table.channel, "campaign export")
    (export, page) = r.response.attachments
    assert page.filename == export.filename.removesuffix(".json") + "-verify.html"
    data = json.loads(await export.read())
    html = (await page.read()).decode("utf-8")
    assert verify_log(data).ok
    assert "force:mack" in html  # the GM's file: private rolls included
    table.env.errors  # noqa: B018


async def test_verify_without_a_campaign_says_how_to_start_one(table) -> None:
    r = await table.fr.slash(table.channel, "campaign verify")
    assert r.ephemeral and "There is no campaign in this channel" in shown(r)
    table.env.errors  # noqa: B018
