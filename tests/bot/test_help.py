"""/help (issue 13, item 5): what each member can do now, for their role and the phase, with the
commands to use; nothing about another side's Forces."""

from __future__ import annotations

from .conftest import advance, shown, start
from .test_battle import to_battle
from .test_features import locales  # noqa: F401  (fixture re-used)


async def test_help_without_a_campaign_says_how_to_start_one(table) -> None:
    r = await table.outsider.slash(table.channel, "help")
    assert r.ephemeral and "No campaign runs in this channel" in shown(r) and "campaign create" in shown(r)


async def test_help_follows_the_phase_for_each_role(table) -> None:
    await start(table)
    outsider = await table.outsider.slash(table.channel, "help")
    assert "campaign join" in shown(outsider) and "France" in shown(outsider)
    gm = await table.gm.slash(table.channel, "help")
    assert "gm advance" in shown(gm)
    await advance(table)  # Phase 1: orders
    fr = await table.fr.slash(table.channel, "help")
    assert fr.ephemeral and "order give" in shown(fr) and "order done" in shown(fr)
    await table.fr.slash(table.channel, "order done")
    fr = await table.fr.slash(table.channel, "help")
    assert "order give" not in shown(fr) and "nothing for you to do now: the phase waits for Austria" in shown(fr)
    gm = await table.gm.slash(table.channel, "help")
    assert "the phase waits for Austria" in shown(gm)


async def test_help_in_a_battle_names_the_report_for_the_gm_and_scouting_for_its_camps(table) -> None:
    await to_battle(table)
    gm = await table.gm.slash(table.channel, "help")
    assert "battle report" in shown(gm) and "report battle 1 at E4" in shown(gm)
    au = await table.au.slash(table.channel, "help")
    assert "battle scout" in shown(au) and "scout before battle 1" in shown(au)
    assert "gm advance" not in shown(au)


async def test_help_speaks_the_members_language(table, locales) -> None:  # noqa: F811
    locales[table.fr.id] = "it"
    await start(table)
    await advance(table)
    r = await table.fr.slash(table.channel, "help")
    assert "Cosa puoi fare ora" in shown(r) and "Test della Forza" in shown(r)
