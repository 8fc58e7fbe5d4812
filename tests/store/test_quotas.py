"""Limits on what one server and one member create (security issue, item 7), through the services,
on SQLite and PostgreSQL: counted from the campaign table, inside the creating transaction."""

from __future__ import annotations

import asyncio
import datetime as dt

import pytest

from bot.limits import Limits, size_text
from bot.services import campaigns
from bot.services.actors import Actor
from bot.services.campaigns import LimitReached, check_new_campaign, check_upload_size
from bot.services.errors import ServiceError

from .conftest import AUSTRIAN, FRENCH, GM
from .test_battle_flow import SCENARIO

T0 = dt.datetime(2026, 3, 1, 12, 0, tzinfo=dt.UTC)


async def make(db, *, channel: int, gm: Actor = GM, guild: int = 10, limits: Limits | None = None,
               now: dt.datetime | None = None) -> int:
    created = await campaigns.create_campaign(db, guild_id=guild, channel_id=channel, gm=gm, name=f"C{channel}",
                                              scenario_text=SCENARIO, limits=limits, now=now)
    return created.campaign_id


async def test_a_member_runs_at_most_so_many_campaigns_as_gm_in_all_servers(db) -> None:
    limits = Limits(max_gm_campaigns=2)
    first = await make(db, channel=1, limits=limits)
    await make(db, channel=2, guild=11, limits=limits)
    with pytest.raises(LimitReached, match=r"You already run 2 active campaigns as their GM, the most allowed "
                                           r"\(2\): end one \(/campaign end\) before you start another\."):
        await make(db, channel=3, limits=limits)
    await make(db, channel=3, gm=FRENCH, limits=limits)  # another member is not counted
    await campaigns.end_campaign(db, first, GM)
    await make(db, channel=4, limits=limits)  # an ended campaign is not counted


async def test_a_server_runs_at_most_so_many_active_campaigns(db) -> None:
    limits = Limits(max_active_campaigns=2)
    await make(db, channel=1, limits=limits)
    second = await make(db, channel=2, gm=FRENCH, limits=limits)
    with pytest.raises(LimitReached, match=r"This server already runs 2 active campaigns, the most allowed \(2\)"):
        await make(db, channel=3, gm=AUSTRIAN, limits=limits)
    await make(db, channel=4, gm=AUSTRIAN, guild=99, limits=limits)  # another server has its own count
    await campaigns.end_campaign(db, second, FRENCH)
    await make(db, channel=3, gm=AUSTRIAN, limits=limits)


async def test_a_member_creates_at_most_so_many_campaigns_a_day_and_is_told_when_to_try_again(db) -> None:
    limits = Limits(max_new_campaigns_per_day=3)
    for hour in range(3):  # create and end: the 1,000 create/end cycles of the report
        cid = await make(db, channel=hour + 1, limits=limits, now=T0 + dt.timedelta(hours=hour))
        await campaigns.end_campaign(db, cid, GM)
    late = T0 + dt.timedelta(hours=5)
    with pytest.raises(LimitReached) as refused:
        await make(db, channel=9, limits=limits, now=late)
    again = int((T0 + dt.timedelta(hours=24)).timestamp())
    assert str(refused.value) == (f"You have created or imported 3 campaigns in the last 24 hours, the most allowed "
                                  f"(3): you can start another <t:{again}:R> (<t:{again}:f>).")
    with pytest.raises(LimitReached):
        await make(db, channel=9, limits=limits, now=T0 + dt.timedelta(hours=24) - dt.timedelta(seconds=1))
    await make(db, channel=9, limits=limits, now=T0 + dt.timedelta(hours=24))


async def test_without_limits_the_trusted_callers_create_freely(db) -> None:
    """The offline demo, the benchmarks and the tests pass no limits; the bot passes its own."""
    for channel in range(3):
        await make(db, channel=channel + 1, limits=None)
    with pytest.raises(LimitReached):
        await make(db, channel=9, limits=Limits(max_gm_campaigns=3))


async def test_concurrent_creates_do_not_slip_past_the_limit(db) -> None:
    limits = Limits(max_gm_campaigns=2)
    results = await asyncio.gather(*(make(db, channel=c + 1, limits=limits) for c in range(6)),
                                   return_exceptions=True)
    assert sum(isinstance(r, int) for r in results) == 2, results
    assert all(isinstance(r, int | LimitReached) for r in results), results


async def test_the_import_path_checks_inside_its_own_transaction(db) -> None:
    limits = Limits(max_new_campaigns_per_day=1)
    await make(db, channel=1, limits=limits, now=T0)
    async with db.transaction() as s:
        with pytest.raises(LimitReached, match="created or imported 1 campaigns"):
            await check_new_campaign(s, guild_id=10, member_id=GM.member_id, limits=limits,
                                     now=T0 + dt.timedelta(hours=1))
        await check_new_campaign(s, guild_id=10, member_id=FRENCH.member_id, limits=limits, now=T0)
        await check_new_campaign(s, guild_id=10, member_id=GM.member_id, limits=None, now=T0)


async def test_a_scenario_or_an_import_over_the_size_limit_is_refused(db) -> None:
    limits = Limits(max_scenario_bytes=100, max_import_bytes=2048)
    text = SCENARIO + "#" * 1000
    with pytest.raises(LimitReached, match=rf"The scenario file is {len(text):,} bytes: at most 100 are accepted\."):
        await campaigns.create_campaign(db, guild_id=10, channel_id=1, gm=GM, name="Big", scenario_text=text,
                                        limits=limits)
    check_upload_size(2048, limits, kind="import")
    with pytest.raises(LimitReached, match=r"The campaign export is 2,049 bytes: at most 2,048 can be imported\."):
        check_upload_size(2049, limits, kind="import")
    check_upload_size(10**9, None, kind="import")
    assert issubclass(LimitReached, ServiceError)


def test_limits_come_from_the_environment_and_a_typo_keeps_the_default() -> None:
    limits = Limits.from_env({"ADC_MAX_ACTIVE_CAMPAIGNS": "40", "ADC_MAX_GM_CAMPAIGNS": "lots",
                              "ADC_MAX_NEW_CAMPAIGNS_PER_DAY": "0", "ADC_MAX_IMPORT_BYTES": "1_048_576"})
    assert limits == Limits(max_active_campaigns=40, max_import_bytes=1024 * 1024)
    assert Limits.from_env({}) == Limits()
    assert (Limits().max_active_campaigns, Limits().max_gm_campaigns, Limits().max_new_campaigns_per_day) == (25, 5, 10)
    assert (size_text(Limits().max_import_bytes), size_text(Limits().max_scenario_bytes)) == ("2 MiB", "512 KiB")


def test_the_bots_settings_carry_the_limits(monkeypatch) -> None:
    from bot.settings import Settings

    monkeypatch.setenv("ADC_MAX_GM_CAMPAIGNS", "7")
    assert Settings.from_env(env_file=None).limits.max_gm_campaigns == 7
    assert Settings().limits == Limits()
