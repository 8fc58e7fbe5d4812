"""RU-27 in Discord (``battles: ask``): a new battle's thread offers "Resolve quickly"; a player's click
records their camp's agreement, the other camp's click resolves it, the report is published in the thread
and Phase 4 begins, as after a table report. The setting shows in /campaign settings; /rules RU-27 shows
the tables with their odds."""

from __future__ import annotations

from tests.store.test_battle_flow import SCENARIO

from .conftest import advance, shown, texts


async def to_battle(table) -> None:
    """As tests/bot/test_battle.py, with the campaign created and its setting changed first."""
    await table.fr.slash(table.channel, "campaign join", side="fr")
    await table.au.slash(table.channel, "campaign join", side="au")
    await advance(table)
    odds = await table.fr.slash(table.channel, "order give", force="lannes", order="forced_march")
    await table.fr.click(odds.response, label="Roll")
    await table.fr.slash(table.channel, "order done")
    await table.au.slash(table.channel, "order done")
    odds = await table.fr.slash(table.channel, "order move", force="lannes", path="E4")
    await table.fr.click(odds.response, label="Roll")
    await table.fr.slash(table.channel, "order done")
    await table.au.slash(table.channel, "order done")


async def test_resolve_quickly_when_every_human_camp_agrees(table) -> None:
    r = await table.gm.slash(table.channel, "campaign create", name="Bridge", scenario="bridge",
                             file=("bridge.yaml", SCENARIO.encode()))
    assert "Campaign Bridge begins" in shown(r)
    setting = await table.gm.slash(table.channel, "campaign settings", name="battles", value="ask")
    assert "The GM set Battles to **ask the camps**." in shown(setting)
    await to_battle(table)
    (thread,) = table.channel.threads
    prompt = next(m for m in thread.history() if "may be resolved quickly (RU-27)" in texts([m]))
    first = await table.fr.click(prompt, label="Resolve quickly")
    assert first.ephemeral and "Your camp agrees to resolve battle 1 quickly" in shown(first)
    assert "Waiting for: Austria" in shown(first)
    done = await table.au.click(prompt, label="Resolve quickly")
    assert "Battle 1 is resolved quickly (RU-27)" in shown(done)
    story = texts(thread.history())
    assert "Battle 1: the report" in story and "Glory after the battle (CC-4)" in story
    assert "Roll my aftermath" in [c.label for m in thread.history() for row in m.components
                                  for c in getattr(row, "children", [])]
    again = await table.gm.click(prompt, label="Resolve quickly")
    assert again.response.ephemeral and "belongs to Phase 3" in shown(again)  # Phase 4 has begun


async def test_the_setting_and_the_published_odds(table) -> None:
    await table.gm.slash(table.channel, "campaign create", name="Ulm", scenario="tutorial")
    page = await table.gm.slash(table.channel, "campaign settings", name="battles")
    assert "Battles = **on the table** (RU-27)" in shown(page) and "on the table, quickly by the bot, ask the camps" in shown(page)
    rule = await table.fr.slash(table.channel, "rules", id="RU-27")
    text = shown(rule)
    assert "Quick battle tables (house rule RU-27), with their odds" in text
    assert "Net edge +0: wins 42% (decisive 8%), draws 17%, loses 42%." in text
