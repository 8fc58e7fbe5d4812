"""/help: what can I do now? The commands that move the campaign on for the member's role and the
current phase, as clickable mentions, in the member's language."""

from __future__ import annotations

import discord
from discord import app_commands
from discord.ext import commands

from bot import formatting as fmt
from bot.i18n import t
from bot.i18n.text import tr
from bot.services import guide
from bot.services.errors import NotFound

from ._common import actor_of, bot_of, campaign_id, lang, reply

WITHOUT_CAMPAIGN = ("campaign create", "roll dice", "about")


def mention(client: discord.Client, command: str) -> str:
    """A command as Discord shows it, clickable and in the reader's language (``</order give:ID>``), once
    the commands are synced; plain ``/order give`` before."""
    top = command.split(" ", 1)[0]
    for synced in getattr(client, "synced", ()) or ():
        if synced.name == top and getattr(synced, "id", None):
            return f"</{command}:{synced.id}>"
    return f"`/{command}`"


class Help(commands.Cog):
    @app_commands.command(name="help", description="What you can do now in this campaign, for your role and the phase")
    async def help(self, interaction: discord.Interaction) -> None:
        client, lc = bot_of(interaction), lang(interaction)
        e = discord.Embed(title=t(lc, "help.title"), colour=fmt.COLOUR)
        try:
            cid = await campaign_id(interaction)
            steps = await guide.next_steps(client.db, cid, actor_of(interaction))
        except NotFound:
            steps = ()
            e.description = t(lc, "help.no_campaign")
            for command in WITHOUT_CAMPAIGN:
                e.add_field(name=mention(client, command), value=t(lc, f"help.{command.replace(' ', '_')}"),
                            inline=False)
        for step in steps:
            e.add_field(name=mention(client, step.command), value=tr(lc, step.why), inline=False)
        e.set_footer(text=t(lc, "help.footer"))
        await reply(interaction, embeds=[fmt.fit(e)], ephemeral=True)


async def setup(bot: commands.Bot) -> None:
    await bot.add_cog(Help())
