"""/glory spend through Discord: a spend belongs to a battle of the side's and is made when RU-17 places it;
the battle option suggests exactly those battles; Leadership asks whether the unit is ordered (CC-4)."""

from __future__ import annotations

import json

from tests.store.test_battle_flow import REPORT, SCENARIO

from .conftest import advance, domain_errors_only, refused, shown, texts


async def to_orders(table) -> None:
    await table.gm.slash(table.channel, "campaign create", name="Bridge", scenario="bridge",
                         file=("bridge.yaml", SCENARIO.encode()))
    await table.fr.slash(table.channel, "campaign join", side="fr")
    await table.au.slash(table.channel, "campaign join", side="au")
    await advance(table)  # weather -> Phase 1


async def into_battle(table) -> None:
    odds = await table.fr.slash(table.channel, "order give", force="lannes", order="forced_march")
    await table.fr.click(odds.response, label="Roll")
    await table.fr.slash(table.channel, "order done")
    await table.au.slash(table.channel, "order done")
    odds = await table.fr.slash(table.channel, "order move", force="lannes", path="E4")
    await table.fr.click(odds.response, label="Roll")
    await table.fr.slash(table.channel, "order done")
    await table.au.slash(table.channel, "order done")


async def test_ru17_a_spend_outside_a_pending_battle_is_refused_and_the_battle_option_offers_only_pending_ones(table):
    await to_orders(table)
    r = await table.fr.slash(table.channel, "glory spend", kind="rally", unit="suchet")
    assert refused(r, "Rally is spent by a side in a battle that is pending", "RU-17"), shown(r)
    assert await table.fr.autocomplete(table.channel, "glory spend", "battle", "", kind="rally") == []

    await into_battle(table)
    offered = await table.fr.autocomplete(table.channel, "glory spend", "battle", "", kind="rally")
    assert [c["value"] for c in offered] == ["1"] and "E4" in offered[0]["name"]
    assert [c["value"] for c in await table.au.autocomplete(table.channel, "glory spend", "battle", "")] == ["1"]
    # Heroic is bought after the report: nothing to offer yet; an outsider is offered nothing.
    assert await table.fr.autocomplete(table.channel, "glory spend", "battle", "", kind="heroic") == []
    assert await table.outsider.autocomplete(table.channel, "glory spend", "battle", "") == []

    r = await table.fr.slash(table.channel, "glory spend", kind="leadership", unit="suchet", battle="1")
    assert refused(r, "Say whether suchet is ordered"), shown(r)
    r = await table.fr.slash(table.channel, "glory spend", kind="leadership", unit="suchet", battle="1",
                             ordered="not_ordered")
    assert refused(r, "Suchet is not ordered: Leadership helps only an ordered unit (CC-4)"), shown(r)
    r = await table.fr.slash(table.channel, "glory spend", kind="leadership", unit="hussars", battle="1",
                             ordered="ordered_terrain")
    assert refused(r, "10th Hussars is cavalry with its battle dice reduced by terrain"), shown(r)
    r = await table.fr.slash(table.channel, "glory spend", kind="leadership", unit="hussars", battle="1",
                             ordered="ordered")
    assert refused(r, "France has 0 Glory and Leadership costs 1 (CC-4)"), shown(r)

    preview = await table.gm.slash(table.channel, "battle report", battle="1",
                                   file=("report.json", json.dumps(REPORT).encode()))
    await table.gm.click(preview.response, label="Confirm the report")
    assert await table.fr.autocomplete(table.channel, "glory spend", "battle", "", kind="rally") == []
    offered = await table.fr.autocomplete(table.channel, "glory spend", "battle", "", kind="heroic")
    assert [c["value"] for c in offered] == ["1"]  # France won: Heroic from the report until Phase 4 ends
    assert await table.au.autocomplete(table.channel, "glory spend", "battle", "", kind="heroic") == []
    done = await table.fr.slash(table.channel, "glory spend", kind="heroic", unit="suchet")
    # Typed in the public channel: the spend names a unit of the battle, so the answer is France's alone,
    # and the battle's private thread keeps it (issue 12, fog of war).
    assert done.ephemeral and "Suchet made Heroic" in shown(done) and "Battle 1" in shown(done)
    (thread,) = table.channel.threads
    assert "Suchet made Heroic" in texts(thread.history(viewer=table.fr))
    assert "Suchet" not in texts(table.channel.history(viewer=table.outsider))
    domain_errors_only(table.env)


async def test_mc_6_2_and_ru_21_the_brief_in_the_battle_thread_gives_the_general_retreat_modifiers(table):
    await to_orders(table)
    await into_battle(table)
    (thread,) = table.channel.threads
    brief = texts(thread.history(viewer=table.fr))
    assert "General Retreat (MC-6.2): the Command test to give or withdraw it takes -3 first hour" in brief
    assert "field works" not in brief  # nobody holds the Defend order here (RU-21)
