"""Settings that store a channel, role or member id only take one of the campaign's own server
(security issue, item 4): a GM of one server could otherwise make the bot post in, or ping, a server
it was not asked to act in."""

from __future__ import annotations

import discord
import pytest

from bot.services import bookkeeping as state
from tests.i18n import CATALOGUES

from .conftest import domain_errors_only, refused, shown, start, texts
from .test_features import locales  # noqa: F401 (a fixture)


@pytest.fixture
async def stranger(table):
    """Another server the bot is in, with its #general, a role and a member of its own."""
    g = table.env.create_guild("Elsewhere")
    general = g.create_text_channel("general")
    role = g.create_role("Everyone-here")
    member = g.add_member(table.env.create_user("stella"))
    return g, general, role, member


async def _cid(simcord_bot, table) -> int:
    from bot.services.loading import campaign_in_channel

    async with simcord_bot.db.sessions() as s:
        return (await campaign_in_channel(s, table.channel.id)).id


async def test_a_side_channel_of_another_server_is_refused_and_nothing_is_posted_there(
        table, stranger, simcord_bot) -> None:
    _, general, _, _ = stranger
    await start(table)
    for value in (f"<#{general.id}>", str(general.id)):
        r = await table.gm.slash(table.channel, "campaign settings", name="channel:fr", value=value)
        assert refused(r, "channel:fr", "not a channel of this server"), shown(r)
    assert await state.side_channels(simcord_bot.db, await _cid(simcord_bot, table)) == {}
    await table.gm.slash(table.channel, "gm deadline", hours=2.0)
    await table.env.advance_time(3 * 3600)
    assert general.history() == []
    assert domain_errors_only(table.env) == 2


async def test_a_gm_role_of_another_server_or_everyone_is_refused(table, stranger, simcord_bot) -> None:
    _, _, role, _ = stranger
    await start(table)
    r = await table.gm.slash(table.channel, "campaign settings", name="gm_role", value=role.mention)
    assert refused(r, "gm_role", "not a role of this server"), shown(r)
    r = await table.gm.slash(table.channel, "campaign settings", name="gm_role", value=f"<@&{table.guild.id}>")
    assert refused(r, "gm_role", "@everyone"), shown(r)
    r = await table.gm.slash(table.channel, "campaign settings", name="gm_role", value=str(table.guild.id))
    assert refused(r, "gm_role", "@everyone"), shown(r)
    m = await state.meta(simcord_bot.db, await _cid(simcord_bot, table))
    assert m.gm_role_id is None
    assert domain_errors_only(table.env) == 3


@pytest.mark.parametrize("value", ["#general", "<@123456789012345678>", "99999999999999999999", "12"])
async def test_a_value_that_is_no_id_or_out_of_range_is_refused_naming_the_setting(table, value) -> None:
    await start(table)
    r = await table.gm.slash(table.channel, "campaign settings", name="channel:au", value=value)
    assert refused(r, "channel:au"), shown(r)
    assert domain_errors_only(table.env) == 1


async def test_channels_threads_and_roles_of_the_campaigns_server_are_taken(table, simcord_bot) -> None:
    await start(table)
    hq = table.guild.create_text_channel("french-hq")
    thread = await simcord_bot.get_channel(table.channel.id).create_thread(
        name="austrian-hq", type=discord.ChannelType.public_thread)
    r = await table.gm.slash(table.channel, "campaign settings", name="channel:fr", value=hq.mention)
    assert not refused(r) and str(hq.id) in shown(r), shown(r)
    r = await table.gm.slash(table.channel, "campaign settings", name="channel:au", value=str(thread.id))
    assert not refused(r), shown(r)
    r = await table.gm.slash(table.channel, "campaign settings", name="gm_role", value=table.gm_role.mention)
    assert not refused(r), shown(r)
    r = await table.gm.slash(table.channel, "campaign settings", name="channel:fr", value="none")
    assert not refused(r), shown(r)
    cid = await _cid(simcord_bot, table)
    assert await state.side_channels(simcord_bot.db, cid) == {"au": thread.id}
    assert (await state.meta(simcord_bot.db, cid)).gm_role_id == table.gm_role.id


async def test_a_category_is_no_side_channel(table) -> None:
    await start(table)
    category = table.guild.create_category("Campaigns")
    r = await table.gm.slash(table.channel, "campaign settings", name="channel:fr", value=category.mention)
    assert refused(r, "channel:fr"), shown(r)
    assert domain_errors_only(table.env) == 1


async def test_the_refusal_is_in_the_members_language(table, stranger, locales) -> None:  # noqa: F811
    _, general, _, _ = stranger
    await start(table)
    locales[table.gm.id] = "it"
    r = await table.gm.slash(table.channel, "campaign settings", name="channel:fr", value=general.mention)
    assert refused(r, "channel:fr", "non è un canale di questo server"), shown(r)
    r = await table.gm.slash(table.channel, "campaign settings", name="gm_role", value=str(table.guild.id))
    everyone = CATALOGUES["it"]["Setting {name} cannot be the @everyone role: every member would be a GM. "
                                "Choose a role of this server, or none."]
    assert refused(r, everyone.format(name="gm_role")), shown(r)
    assert domain_errors_only(table.env) == 2


async def test_gm_assign_refuses_a_user_who_is_not_a_member_of_this_server(table, stranger) -> None:
    _, _, _, member = stranger
    await start(table)
    r = await table.gm.slash(table.channel, "gm assign", member=member.user, side="au")  # a user, not our member
    assert refused(r, "stella", "not a member of this server"), shown(r)
    assert "stella" not in texts(table.channel.history())
    assert domain_errors_only(table.env) == 1


async def test_gm_assign_refuses_a_bot(table) -> None:
    helper = table.guild.add_member(table.env.create_user("helperbot", bot=True))
    await start(table)
    r = await table.gm.slash(table.channel, "gm assign", member=helper, side="au")
    assert refused(r, "helperbot"), shown(r)
    assert domain_errors_only(table.env) == 1
