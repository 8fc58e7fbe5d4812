"""The bot's limits on what a server and a member create (security issue, item 7), end to end:
shown read-only in /campaign settings, and a clear refusal from /campaign create (a scenario or an
import) that says the limit and when to try again."""

from __future__ import annotations

import json
import re

import pytest

from bot.app import create_bot
from bot.limits import Limits
from bot.settings import Settings
from tests.databases import migrated_sqlite

from .conftest import domain_errors_only, refused, shown, start, texts

LIMITS = Limits(max_active_campaigns=3, max_gm_campaigns=2, max_new_campaigns_per_day=3,
                max_import_bytes=300 * 1024, max_scenario_bytes=4 * 1024)


@pytest.fixture
def simcord_bot(tmp_path):
    return create_bot(Settings(database_url=migrated_sqlite(tmp_path / "bot.db"), data_dir=tmp_path,
                               limits=LIMITS), deadline_interval=600.0)


async def test_the_limits_are_shown_read_only_in_the_settings(table) -> None:
    await start(table)
    r = await table.gm.slash(table.channel, "campaign settings")
    cid = re.search(r"adc:setp:(\d+)", str(r.response.components)).group(1)
    r = await table.gm.select(r.response, ["limits"], custom_id=f"adc:setp:{cid}")  # the limits' page
    text = shown(r)
    for line in ("Active campaigns per server = **3**", "Active campaigns per GM = **2**", "New campaigns per day = **3**",
                 "Largest campaign export = **300 KiB**", "Largest scenario file = **4 KiB**"):
        assert line in text, text
    assert "this server: 1" in text  # what counts against the server's limit now
    one = await table.gm.slash(table.channel, "campaign settings", name="max_gm_campaigns")
    assert "Active campaigns per GM = **2**" in shown(one) and "Resolve by itself" not in shown(one)
    names = await table.gm.autocomplete(table.channel, "campaign settings", "name", "max_")
    assert {c["value"] for c in names} >= {"max_active_campaigns", "max_gm_campaigns"}
    r = await table.gm.slash(table.channel, "campaign settings", name="max_gm_campaigns", value="100")
    assert refused(r, "Active campaigns per GM", "read-only"), shown(r)
    assert domain_errors_only(table.env) == 1


async def test_a_member_gms_at_most_so_many_campaigns_and_is_told_what_to_do(table) -> None:
    channels = [table.guild.create_text_channel(f"front-{i}") for i in range(3)]
    for ch in channels[:2]:
        r = await table.gm.slash(ch, "campaign create", name="Ulm", scenario="tutorial")
        assert not refused(r), shown(r)
    r = await table.gm.slash(channels[2], "campaign create", name="Ulm", scenario="tutorial")
    assert refused(r, "You already run 2 active campaigns as their GM", "/campaign end"), shown(r)
    assert channels[2].history() == []
    await table.gm.slash(channels[0], "campaign end")
    r = await table.gm.slash(channels[2], "campaign create", name="Ulm", scenario="tutorial")
    assert not refused(r), shown(r)
    assert domain_errors_only(table.env) == 1


async def test_a_server_runs_at_most_so_many_campaigns(table) -> None:
    channels = [table.guild.create_text_channel(f"front-{i}") for i in range(4)]
    for ch, who in zip(channels[:3], (table.gm, table.gm, table.fr), strict=True):
        assert not refused(await who.slash(ch, "campaign create", name="Ulm", scenario="tutorial"))
    r = await table.au.slash(channels[3], "campaign create", name="Ulm", scenario="tutorial")
    assert refused(r, "This server already runs 3 active campaigns"), shown(r)
    other = table.env.create_guild("Other club")
    there = other.create_text_channel("campaign")
    karl = other.add_member(table.au.user)
    assert not refused(await karl.slash(there, "campaign create", name="Ulm", scenario="tutorial"))
    assert domain_errors_only(table.env) == 1


async def test_create_and_end_cycles_stop_at_the_daily_limit_with_a_time_to_try_again(table) -> None:
    for _ in range(3):
        assert not refused(await table.gm.slash(table.channel, "campaign create", name="Ulm", scenario="tutorial"))
        await table.gm.slash(table.channel, "campaign end")
    r = await table.gm.slash(table.channel, "campaign create", name="Ulm", scenario="tutorial")
    assert refused(r, "created or imported 3 campaigns in the last 24 hours"), shown(r)
    assert re.search(r"you can start another <t:\d+:R>", shown(r)), shown(r)
    assert domain_errors_only(table.env) == 1


async def test_an_uploaded_scenario_over_the_limit_is_refused(table) -> None:
    yaml_text = (await _tutorial_yaml()) + "\n# padding\n" + "#" * (5 * 1024)
    r = await table.gm.slash(table.channel, "campaign create", name="Big", scenario="big",
                             file=("big.yaml", yaml_text.encode()))
    assert refused(r, "at most 4,096 are accepted"), shown(r)
    assert table.channel.history() == []
    assert domain_errors_only(table.env) == 1


async def test_imports_count_against_the_daily_limit_and_their_size_is_limited(table) -> None:
    await start(table)
    export = await table.gm.slash(table.channel, "campaign export")
    raw = await export.response.attachments[0].read()
    for i in range(2):  # with the campaign created above: 3 in 24 hours
        ch = table.guild.create_text_channel(f"again-{i}")
        loaded = await table.gm.slash(ch, "campaign create", name="Again", scenario="tutorial", file=("u.json", raw))
        assert "loaded from an export" in shown(loaded), shown(loaded)
        await table.gm.slash(ch, "campaign end")
    ch = table.guild.create_text_channel("once-more")
    r = await table.gm.slash(ch, "campaign create", name="Again", scenario="tutorial", file=("u.json", raw))
    assert refused(r, "created or imported 3 campaigns in the last 24 hours"), shown(r)
    data = json.loads(raw)
    data["log"] = data["log"] + [dict(data["log"][0], text="x" * 1000) for _ in range(400)]
    big = json.dumps(data).encode()
    assert len(big) > LIMITS.max_import_bytes
    r = await table.fr.slash(ch, "campaign create", name="Big", scenario="tutorial", file=("big.json", big))
    assert refused(r, "can be imported"), shown(r)
    assert "loaded" not in texts(ch.history())
    assert domain_errors_only(table.env) == 2


async def _tutorial_yaml() -> str:
    from bot.scenario import bundled_scenarios

    return bundled_scenarios()["tutorial"].read_text()
