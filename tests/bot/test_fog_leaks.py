"""Fog of war with no leaks: refusals that do not tell who exists, public posts that carry only
what every side may see, the GM's full map kept private until the GM confirms, and GM corrections
told to each reader as far as they may see.

Three sides on one map (sight 2): France (V Corps at D4) and Austria (Army of Mack at E4) fight at
E4; Austria's Werneck's Corps at H1 is out of everybody else's sight, and so is Russia's army at
K7; Austria's Hiller's Column arrives on turn 2 at H8, out of France's and Russia's sight."""

from __future__ import annotations

import json

import simcord

from tests.store.test_battle_flow import REPORT

from .conftest import advance, domain_errors_only, refused, shown, texts

THREE_SIDES = """
name: Three armies
start_date: 1805-10-07
map:
  width: 12
  height: 8
  sight: 2
  territories: {fr: ["A1:D8"], au: ["E1:H8"], ru: ["I1:L8"]}
sides:
  - {key: fr, name: France, colour: "#1f4e9c"}
  - {key: au, name: Austria, colour: "#d9a400"}
  - {key: ru, name: Russia, colour: "#2e8b57"}
forces:
  - key: lannes
    name: V Corps
    side: fr
    square: D4
    leader: {name: Lannes, cv: 5}
    units:
      - {key: suchet, name: Suchet, sp: 10, type: infantry, quality: veteran}
      - {key: hussars, name: 10th Hussars, sp: 4, type: cavalry, quality: average}
  - key: mack
    name: Army of Mack
    side: au
    square: E4
    leader: {name: Mack, cv: 1}
    units:
      - {key: riesch, name: Riesch, sp: 12, type: infantry, quality: raw}
      - {key: jaegers, name: Jaegers, sp: 2, type: infantry, quality: average}
  - key: werneck
    name: Werneck's Corps
    side: au
    square: H1
    leader: {name: Werneck, cv: 2}
    units:
      - {key: hohenzollern, name: Hohenzollern, sp: 6, type: infantry, quality: average}
  - key: kutuzov
    name: Russian Army
    side: ru
    square: K7
    leader: {name: Kutuzov, cv: 3}
    units:
      - {key: pavlov, name: Pavlovsk Grenadiers, sp: 8, type: infantry, quality: veteran}
reinforcements:
  - turn: 2
    force:
      key: hiller
      name: Hiller's Column
      side: au
      square: H8
      leader: {name: Hiller, cv: 2}
      units:
        - {key: kaiser, name: Kaiser Jaeger, sp: 4, type: infantry, quality: average}
"""

BATTLE_DETAILS = ("V Corps", "Army of Mack", "Suchet", "Riesch", "Jaegers", "Hussars", "SP")
"""What France and Austria's battle at E4 shows to those who fought it or see E4, and no one else."""


async def three_sides(table) -> simcord.MemberActor:
    """The GM creates the campaign; France, Austria and Russia (ivan) join. Returns Russia's player."""
    ivan = table.guild.add_member(table.env.create_user("ivan"))
    r = await table.gm.slash(table.channel, "campaign create", name="Three", scenario="three",
                             file=("three.yaml", THREE_SIDES.encode()))
    assert "Campaign Three begins" in shown(r)
    await table.fr.slash(table.channel, "campaign join", side="fr")
    await table.au.slash(table.channel, "campaign join", side="au")
    await ivan.slash(table.channel, "campaign join", side="ru")
    return ivan


async def all_done(table, ivan) -> None:
    for member in (table.fr, table.au, ivan):
        await member.slash(table.channel, "order done")


def public(table, viewer) -> str:
    """Everything the campaign channel shows this member (no thread, no ephemeral reply to others)."""
    return texts(table.channel.history(viewer=viewer))


async def log_of(table, member) -> str:
    """The member's whole /campaign log: its page, and the file with every line when it is longer."""
    r = await member.slash(table.channel, "campaign log")
    files = [(await a.read()).decode() for a in r.response.attachments]
    return "\n".join([shown(r), *files])


async def test_a_battle_is_news_to_every_side_and_its_details_only_to_those_who_see_it(table) -> None:
    ivan = await three_sides(table)
    await advance(table)  # weather -> orders
    for member, force in ((table.fr, "lannes"), (table.au, "werneck")):
        odds = await member.slash(table.channel, "order give", force=force, order="forced_march")
        await member.click(odds.response, label="Roll")
    await all_done(table, ivan)  # Phase 1 resolves
    odds = await table.fr.slash(table.channel, "order move", force="lannes", path="E4")
    await table.fr.click(odds.response, label="Roll")
    await all_done(table, ivan)  # Phase 2 resolves: battle 1 at E4, France v Austria

    for reader in (ivan, table.outsider):
        seen = public(table, reader)
        assert "Battle 1 at E4" in seen and "France" in seen and "Austria" in seen  # public news
        assert [s for s in BATTLE_DETAILS if s in seen] == [], reader
        # The public lines do not count what each side did.
        assert "Force test(s)" not in seen and "move(s)" not in seen
    assert "V Corps" in await log_of(table, table.au) and "Army of Mack" in await log_of(table, table.fr)

    preview = await table.gm.slash(table.channel, "battle report", battle="1",
                                   file=("report.json", json.dumps(REPORT).encode()))
    await table.gm.click(preview.response, label="Confirm the report")
    russian = await log_of(table, ivan)
    assert "Battle 1 at E4" in russian and "France won" in russian and "Austria lost" in russian
    assert [s for s in BATTLE_DETAILS if s in russian] == []
    assert "Riesch" in await log_of(table, table.fr)  # the camps have their losses

    # The last report ends Phase 3 by itself: Phase 4 begins.
    (thread,) = table.channel.threads
    # France names a hidden Austrian Force, then one that does not exist: the same answer, naming only what was typed.
    hidden = await table.fr.slash(thread, "battle retreat", battle="1", square="C4", force="werneck")
    made_up = await table.fr.slash(thread, "battle retreat", battle="1", square="C4", force="zzkq")
    assert refused(hidden, "werneck") and refused(made_up, "zzkq")
    assert shown(hidden).replace("werneck", "?") == shown(made_up).replace("zzkq", "?")
    assert "Werneck's Corps" not in shown(hidden)

    rolled = await table.au.click(thread.history()[-1], label="Roll my aftermath")  # in the camps' thread
    assert "Riesch" in shown(rolled)
    await table.au.slash(thread, "battle retreat", battle="1", square="F4")
    await advance(table, label="Resolve anyway")  # the bot rolls France's aftermath, turn 1 ends
    for reader in (ivan, table.outsider):
        seen = public(table, reader)  # the resolution, the phase cards, the turn's summary
        assert "Battle 1 at E4" in seen and [s for s in BATTLE_DETAILS if s in seen] == [], reader
        said = await log_of(table, reader)
        assert "Army of Mack" not in said and "retreats" not in said and "rolled" not in said, reader
        # the battle's own dice (wounded, deserters, leader fate) go to its camps, not to the log of all
        assert [d for d in BATTLE_DETAILS if d in said] == [] and "MC-7.1" not in said, reader
    french = await log_of(table, table.fr)
    assert "Army of Mack retreats from E4 to F4" in french and "Austria rolled the aftermath of battle 1" in french
    domain_errors_only(table.env)


async def test_a_reinforcement_out_of_sight_arrives_unannounced_to_the_other_sides(table) -> None:
    ivan = await three_sides(table)
    hq = table.guild.create_text_channel("austria-hq")
    r = await table.gm.slash(table.channel, "campaign settings", name="channel:au", value=hq.mention)
    assert not refused(r), shown(r)
    await advance(table)  # turn 1: weather -> orders
    await advance(table, label="Resolve anyway")  # orders -> movement
    await advance(table, label="Resolve anyway")  # movement, phases 3 to 8 and turn 2's weather by themselves
    await advance(table, label="Resolve anyway")
    await advance(table, label="Resolve anyway")  # ... Phase 7 of turn 2: Hiller's Column arrives at H8
    for reader in (table.fr, ivan, table.outsider):
        seen = public(table, reader) + await log_of(table, reader)
        assert "Hiller" not in seen and "H8" not in seen, reader
        assert "no reinforcements" not in seen  # nor does the channel say when none came
    assert "Hiller's Column arrives at H8" in await log_of(table, table.au)
    assert "Hiller's Column arrives at H8" in texts(hq.history())  # told to Austria in its own channel
    domain_errors_only(table.env)


async def test_the_gm_sees_the_full_map_privately_and_posts_it_only_after_a_warning(table) -> None:
    await three_sides(table)
    before = len(table.channel.history(viewer=table.fr))
    full = await table.gm.slash(table.channel, "campaign map", view="full")
    assert full.ephemeral and (await full.response.attachments[0].read()).startswith(b"\x89PNG")
    assert "Werneck's Corps" in shown(full)  # the GM's own view: everything
    assert len(table.channel.history(viewer=table.fr)) == before  # nothing posted
    assert "every Force" in shown(full)  # the warning, next to the button that posts
    posted = await table.gm.click(full.response, label="Post the full map in the channel")
    assert posted is not None
    after = table.channel.history(viewer=table.fr)
    assert len(after) == before + 1 and after[-1].attachments
    assert "Werneck's Corps" in texts(after[-1:])
    domain_errors_only(table.env)


async def test_a_gm_correction_is_told_to_each_side_as_far_as_it_may_see(table) -> None:
    ivan = await three_sides(table)
    fix = await table.gm.slash(table.channel, "gm edit", force="werneck", square="H2", order="defend")
    assert fix.ephemeral and "square H1 -> H2" in shown(fix)  # the GM sees the whole correction
    for reader in (table.fr, ivan, table.outsider):
        seen = public(table, reader) + await log_of(table, reader)
        assert "Werneck" not in seen and "H1" not in seen and "H2" not in seen, reader
    assert "correct" in public(table, table.outsider)  # the correction itself is announced
    austria = await log_of(table, table.au)
    assert "GM correction to Werneck's Corps: square H1 -> H2; order forced_march -> defend" in austria \
        or "GM correction to Werneck's Corps: square H1 -> H2" in austria

    # Austria's Army of Mack (E4) is in France's sight, before and after, but not in Russia's.
    await table.gm.slash(table.channel, "gm edit", force="mack", square="F4", order="defend")
    french = await log_of(table, table.fr)
    assert "Army of Mack" in french and "E4 -> F4" in french and "defend" not in french.split("Army of Mack")[-1]
    assert "Army of Mack" not in public(table, ivan) + await log_of(table, ivan)
    domain_errors_only(table.env)
