"""Issue 24, item 7: smaller inputs a hostile member tried, refused or normalised with a clear message
through the commands the bot really runs: campaign names of invisible characters only or with a
text-direction override, YAML 1.1's hexadecimal and base-60 numbers, full-width digits in ``size:``,
and /about's campaign count, which tells a member only about their own server."""

from __future__ import annotations

import yaml

from tests.scenario.test_paint import bundled

from .conftest import domain_errors_only, refused, shown


async def test_a_campaign_name_needs_a_visible_character_and_no_direction_override(table) -> None:
    invisible = await table.gm.slash(table.channel, "campaign create", name="\u200b\u2060\u200b", scenario="tutorial")
    assert refused(invisible, "needs a visible character"), shown(invisible)
    backwards = await table.gm.slash(table.channel, "campaign create", name="Ulm \u202eGM the by won", scenario="tutorial")
    assert refused(backwards, "text-direction control (U+202E)"), shown(backwards)
    fine = await table.gm.slash(table.channel, "campaign create", name="  Ulm 1805 ", scenario="tutorial")
    assert "Ulm 1805" in shown(fine) and not refused(fine)
    assert domain_errors_only(table.env) == 2


async def test_yaml_11_numbers_are_refused_naming_the_field(table) -> None:
    raw = yaml.safe_dump(bundled("tutorial"), allow_unicode=True)
    for value in ("0x10", "1:30"):
        r = await table.gm.slash(table.channel, "campaign create", name="Odd", scenario="odd",
                                 file=("odd.yaml", (raw + f"sight: {value}\n").encode()))
        assert refused(r, f"'{value}' would be read as a YAML 1.1 number"), shown(r)
    assert domain_errors_only(table.env) == 2


async def test_full_width_digits_in_size_are_refused(table) -> None:
    r = await table.gm.slash(table.channel, "campaign create", name="Wide", scenario="generated", size="３６x２６")
    assert refused(r, "A map size is its width x height in squares, like 36x26"), shown(r)
    assert domain_errors_only(table.env) == 1


async def test_about_counts_only_the_campaigns_of_the_members_server(table) -> None:
    made = await table.gm.slash(table.channel, "campaign create", name="Here", scenario="tutorial")
    assert "Here" in shown(made)
    elsewhere = table.env.create_guild("Elsewhere")
    ch = elsewhere.create_text_channel("c")
    stranger = elsewhere.add_member(table.env.create_user("sven"))
    for n in range(2):
        other = elsewhere.create_text_channel(f"c{n}")
        await stranger.slash(other, "campaign create", name=f"There {n}", scenario="tutorial")
    mine = shown(await table.outsider.slash(table.channel, "about"))
    theirs = shown(await stranger.slash(ch, "about"))
    assert "1 active, 1 in all" in mine and "2 active, 2 in all" in theirs, (mine, theirs)
