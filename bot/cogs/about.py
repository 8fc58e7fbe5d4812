"""/about: version, uptime, database kind, shards and campaign count; a GM looks up an error id
shown in their campaign (what failed, when), from the records the error handler keeps."""

from __future__ import annotations

import importlib.metadata

import discord
from discord import app_commands
from discord.ext import commands

import bot as package
from bot import formatting as fmt
from bot.services import operations
from bot.settings import shard_of

from ._common import actor_of, bot_of, lang, reply, t


def version() -> str:
    try:
        return importlib.metadata.version("aide-de-camp")
    except importlib.metadata.PackageNotFoundError:  # run from a checkout that was never installed
        return package.__version__


def shards_text(interaction: discord.Interaction, lc: str) -> str:
    client = bot_of(interaction)
    count = getattr(client, "shard_count", None)
    if not isinstance(client, discord.AutoShardedClient) or not count:
        return t(lc, "about.unsharded")
    ids = client.shard_ids if client.shard_ids is not None else range(count)
    text = t(lc, "about.shards_value", ids=", ".join(str(i) for i in ids), count=count)
    if interaction.guild_id is not None:
        text += "\n" + t(lc, "about.this_server", shard=shard_of(interaction.guild_id, count))
    return text


class About(commands.Cog):
    @app_commands.command(name="about", description="Version, uptime, database and shards; a GM can look up an error id")
    @app_commands.describe(error="An error id shown in your campaign: what failed and when (GM only)")
    async def about(self, interaction: discord.Interaction,
                    error: app_commands.Range[str, 1, 40] | None = None) -> None:
        lc = lang(interaction)
        client = bot_of(interaction)
        found = await operations.find_error(client.db, error, actor_of(interaction)) if error else None
        # This server's campaigns only: how many the bot runs elsewhere is no member's business.
        active, total = await operations.campaign_counts(client.db, interaction.guild_id or 0)
        e = discord.Embed(title=t(lc, "about.title", version=version()), colour=fmt.COLOUR)
        e.add_field(name=t(lc, "about.uptime"), value=t(lc, "about.since", since=fmt.timestamp(client.started_at, "R"),
                                                        at=fmt.timestamp(client.started_at)), inline=False)
        e.add_field(name=t(lc, "about.database"), value="SQLite" if client.db.sqlite else "PostgreSQL")
        e.add_field(name=t(lc, "about.campaigns"), value=t(lc, "about.campaigns_value", active=active, total=total))
        e.add_field(name=t(lc, "about.shards"), value=shards_text(interaction, lc), inline=False)
        if found is not None:
            e.add_field(name=t(lc, "about.error_title", id=found.error_id),
                        value=t(lc, "about.error_value", command=found.command, campaign=found.campaign_name,
                                when=fmt.timestamp(found.at), kind=found.kind), inline=False)
        elif not error:
            e.set_footer(text=t(lc, "about.error_hint"))
        await reply(interaction, embeds=[fmt.fit(e)], ephemeral=True)


async def setup(bot: commands.Bot) -> None:
    await bot.add_cog(About())
