"""What the help cog and the campaign cog both show: a command as a clickable mention, and the "How to
play" button with its guide. Not an extension: discord.py executes each extension module afresh when it
loads it, so one extension never imports from another (tests/bot/test_shards.py loads two bots at once)."""

from __future__ import annotations

import re
from typing import Any

import discord

from bot import formatting as fmt
from bot.campaign import guide as core_guide
from bot.campaign.settings import Settings
from bot.i18n import t
from bot.i18n.text import localise_commands, tr
from bot.services import bookkeeping, views

from ._common import actor_of, bot_of, guarded, lang, reply


def mention(client: discord.Client, command: str, lc: str = "en") -> str:
    """A command as Discord shows it, clickable (``</order give:ID>``), once the commands are synced; plain
    ``/order give`` before. Discord shows a mention by the name written in it and runs it only under the
    command's own (English) name, so for a reader of another language it is the command's name in that
    language, as their Discord lists it (``/ordre donner``; issue 23)."""
    if lc != "en":
        return f"`{localise_commands(lc, '/' + command)}`"
    top = command.split(" ", 1)[0]
    for synced in getattr(client, "synced", ()) or ():
        if synced.name == top and getattr(synced, "id", None):
            return f"</{command}:{synced.id}>"
    return f"`/{command}`"


def how_to_play_embed(client: discord.Client, lc: str, sv: views.StatusView, settings: Settings) -> discord.Embed:
    """A player's guide to the campaign: their side, what each phase asks of them with the commands for
    it (as clickable mentions), the phases the bot plays, and the commands for any time."""
    side = next((name for key, name, _ in sv.sides if key == sv.reader_side), None)
    intro = [t(lc, "howto.intro", side=side) if side else t(lc, "howto.no_side", join=mention(client, "campaign join", lc))]
    if sv.gm:
        intro.append(t(lc, "howto.gm", help=mention(client, "help", lc)))
    intro.append(t(lc, "howto.more", help=mention(client, "help", lc), rules=mention(client, "rules", lc)))
    e = discord.Embed(title=t(lc, "howto.title", side=side) if side else t(lc, "howto.title_no_side"),
                      description="\n\n".join(intro), colour=fmt.COLOUR)
    by_bot: list[str] = []
    for stage in core_guide.how_to_play(settings):
        spec = stage.phase.spec
        if not stage.steps:
            by_bot.append(f"**{int(stage.phase)}. {tr(lc, spec.name)}** ({spec.rule}): {tr(lc, spec.needs)}")
            continue
        lines = [f"*{tr(lc, spec.needs)}*"] + [f"{mention(client, s.command, lc)} {tr(lc, s.why)}" for s in stage.steps]
        e.add_field(name=tr(lc, spec.title), value="\n".join(lines), inline=False)
    e.add_field(name=t(lc, "howto.bot_phases"), value="\n".join(by_bot), inline=False)
    e.add_field(name=t(lc, "howto.any_time"),
                value="\n".join(f"{mention(client, s.command, lc)} {tr(lc, s.why)}" for s in core_guide.ANY_TIME),
                inline=False)
    return fmt.fit(e)


class HowToPlay(discord.ui.DynamicItem[discord.ui.Button[Any]], template=r"adc:howto:(?P<cid>\d+)"):
    """On the message that says a member joined a side: whoever clicks gets, privately and in their own
    language, how a player plays this campaign (their side, if they have one). Its state is the
    campaign id in its custom id, so it works for as long as the message lives, across restarts."""

    def __init__(self, cid: int, label: str = "How to play") -> None:
        super().__init__(discord.ui.Button(label=label, style=discord.ButtonStyle.secondary, emoji="📖",
                                           custom_id=f"adc:howto:{cid}"))
        self.cid = cid

    @classmethod
    async def from_custom_id(cls, interaction: discord.Interaction, item: discord.ui.Button[Any],
                             match: re.Match[str]) -> HowToPlay:
        return cls(int(match["cid"]), item.label or "How to play")

    async def callback(self, interaction: discord.Interaction) -> None:
        async def work() -> None:
            client, lc = bot_of(interaction), lang(interaction)
            sv = await views.status(client.db, self.cid, actor_of(interaction), rules=client.rules)
            meta = await bookkeeping.meta(client.db, self.cid)
            settings = Settings.from_options(meta.rule_options, client.rules)
            await reply(interaction, embeds=[how_to_play_embed(client, lc, sv, settings)], ephemeral=True)

        await guarded(interaction, work)


