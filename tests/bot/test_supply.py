"""/supply status|buy (FC-2) and /order reroll (FC-3) through Discord: private answers, suggestions from
the caller's own Forces and units, the engine's refusals, and the re-roll shown beside the roll it replaces."""

from __future__ import annotations

from .conftest import advance, domain_errors_only, refused, shown, start


async def in_phase_1(table, **settings: str) -> None:
    await start(table)
    for name, value in settings.items():
        await table.gm.slash(table.channel, "campaign settings", name=name, value=value)
    await advance(table)  # weather -> Phase 1


async def test_fc2_and_fc3_are_refused_while_off(table) -> None:
    await in_phase_1(table)
    r = await table.fr.slash(table.channel, "supply buy", kind="scout", force="soult")
    assert refused(r, "Supply points (FC-2) are off in this campaign"), shown(r)
    status = await table.fr.slash(table.channel, "supply status")
    assert status.ephemeral and "Supply points (FC-2) are off" in shown(status)
    rolled = await table.fr.click((await table.fr.slash(table.channel, "order give", force="soult",
                                                        order="defend")).response, label="Roll")
    assert "/order reroll" not in shown(rolled)  # nothing to offer with FC-3 off
    r = await table.fr.slash(table.channel, "order reroll", force="soult")
    assert refused(r, "Scout re-rolls (FC-3) are off in this campaign"), shown(r)
    domain_errors_only(table.env)


async def test_fc2_a_side_spends_its_points_privately_in_phase_1(table) -> None:
    await in_phase_1(table, supply="true")
    status = await table.fr.slash(table.channel, "supply status")
    assert status.ephemeral and "In hand 4" in shown(status) and "Income per turn 4" in shown(status)

    await table.gm.slash(table.channel, "gm edit", force="soult", unit="vandamme", sp=5)
    offered = await table.fr.autocomplete(table.channel, "supply buy", "unit", "", kind="refit", force="soult")
    assert [c["value"] for c in offered] == ["vandamme"] and "5/12 SP" in offered[0]["name"]
    assert await table.fr.autocomplete(table.channel, "supply buy", "unit", "", kind="unit", force="soult") == []
    assert await table.au.autocomplete(table.channel, "supply buy", "unit", "", kind="refit") == []
    forces = await table.fr.autocomplete(table.channel, "supply buy", "force", "")
    assert {c["value"] for c in forces} == {"soult", "lannes"}

    done = await table.fr.slash(table.channel, "supply buy", kind="refit", force="soult", unit="vandamme")
    assert done.ephemeral and "refit Vandamme's Division from 5 to 11 of its 12 SP (RU-24)" in shown(done), shown(done)
    assert "2 left in hand" in shown(done)
    r = await table.fr.slash(table.channel, "supply buy", kind="forced_march", force="soult")
    assert refused(r, "it costs 3 supply points and France has 2 left of 4 (FC-2)"), shown(r)
    r = await table.fr.slash(table.channel, "supply buy", kind="scout", force="mack")
    assert refused(r, "You have no Force 'mack'"), shown(r)
    done = await table.fr.slash(table.channel, "supply buy", kind="scout", force="lannes")
    assert "buy 1 scout for V Corps" in shown(done) and "0 left in hand" in shown(done)

    status = shown(await table.fr.slash(table.channel, "supply status"))
    assert "In hand 0" in status and "refit Vandamme's Division: 2" in status
    assert "V Corps: 1" in status
    fr_log = shown(await table.fr.slash(table.channel, "campaign log"))
    au_log = shown(await table.au.slash(table.channel, "campaign log"))
    assert "France spends 2 supply points (FC-2)" in fr_log and "supply points" not in au_log
    assert "Vandamme" not in shown(await table.au.slash(table.channel, "supply status"))

    await table.fr.slash(table.channel, "order done")
    await table.au.slash(table.channel, "order done")  # Phase 2
    r = await table.fr.slash(table.channel, "supply buy", kind="scout", force="soult")
    assert refused(r, "Spending supply points (FC-2) belongs to Phase 1"), shown(r)
    domain_errors_only(table.env)


async def test_fc3_a_scout_rerolls_the_force_test_and_both_rolls_are_shown(table) -> None:
    await in_phase_1(table, scout_rerolls="true")
    r = await table.fr.slash(table.channel, "order reroll", force="soult")
    assert refused(r, "IV Corps has nothing to re-roll in Phase 1"), shown(r)
    rolled = await table.fr.click((await table.fr.slash(table.channel, "order give", force="soult",
                                                        order="defend")).response, label="Roll")
    assert "Scouts: 1. /order reroll" in shown(rolled)
    again = await table.fr.slash(table.channel, "order reroll", force="soult")
    text = shown(again)
    assert again.ephemeral and len(again.response.embeds) == 2, text
    assert "IV Corps spends a scout (FC-3)" in text and "Scouts left: 0" in text
    assert "/force-test/reroll1" in text and text.count("Force test (MC-4) for IV Corps") == 2
    r = await table.fr.slash(table.channel, "order reroll", force="soult")
    assert refused(r, "No scout left to spend for a re-roll (FC-3)"), shown(r)
    r = await table.au.slash(table.channel, "order reroll", force="soult")
    assert refused(r, "You have no Force 'soult'"), shown(r)
    assert "spends a scout" not in shown(await table.au.slash(table.channel, "campaign log"))
    domain_errors_only(table.env)
