"""/help: what can I do now? The commands that move the campaign on for the member's role and the
current phase, as clickable mentions, in the member's language. /rules: the text of a rule by its ID
(:mod:`bot.reference`). The "How to play" button on joining a side: a player's turn, phase by phase."""

from __future__ import annotations

import discord
from discord import app_commands
from discord.ext import commands

from bot import formatting as fmt
from bot import reference
from bot.engine.quick import RULE as QUICK_BATTLE
from bot.engine.quick import published_odds
from bot.i18n import t
from bot.i18n.text import tr
from bot.services import guide
from bot.services.errors import NotFound

from ._common import CHOICE_NAME, MAX_CHOICES, actor_of, bot_of, campaign_id, lang, reply
from ._guide import HowToPlay, mention

WITHOUT_CAMPAIGN = ("campaign create", "roll dice", "about")
TYPED_SHOWN = 40
"""Characters of an unknown rule ID repeated in the answer."""


async def rule_ids(interaction: discord.Interaction, current: str) -> list[app_commands.Choice[str]]:
    """Rule IDs and titles (in the member's language) matching what was typed: IDs first, then titles."""
    lc = lang(interaction)
    return [app_commands.Choice(name=fmt.clip(f"{r.id} {reference.title(r, lc)}", CHOICE_NAME), value=r.id)
            for r in reference.search(current, lc, limit=MAX_CHOICES)]


def rule_embeds(client: discord.Client, reading: reference.Reading, lc: str) -> list[discord.Embed]:
    """A rule as embeds, cut between paragraphs to Discord's limits: its text (in English with a note
    when the member's language has no translation of it), its sub-rules, and what it is part of."""
    rule = reading.rule
    blocks: list[str] = []
    if not reading.translated:
        blocks.append(f"*{t(lc, 'rules.untranslated')}*")
    if rule.text:
        blocks.append(rule.text)
    if rule.id == QUICK_BATTLE:  # RU-27: the house rule's own tables (rules/quick_battle.yaml), with their odds
        head, *rows = published_odds()
        blocks.append("\n".join([f"**{tr(lc, head)}**", *(f"- {tr(lc, r)}" for r in rows)]))
    if reading.children:
        blocks.append(t(lc, "rules.sub_rules", rules=mention(client, "rules", lc)) + "\n"
                      + "\n".join(f"- **{c.id}** {c.title}" for c in reading.children))
    parent = reference.find(rule.parent) if rule.parent else None
    if parent is not None:
        blocks.append(t(lc, "rules.part_of", parent=f"**{parent.id}** {reference.title(parent, lc)}"))
    parts = reference.pages("\n\n".join(blocks), fmt.DESCRIPTION)
    heading = fmt.clip(rule.heading, fmt.TITLE - 8)
    return [fmt.fit(discord.Embed(title=f"{heading} ({i}/{len(parts)})" if len(parts) > 1 else heading,
                                  description=part or "\u200b", colour=fmt.COLOUR))
            for i, part in enumerate(parts, start=1)]


def unknown_rule(client: discord.Client, typed: str, lc: str) -> str:
    """The answer to an ID that names no rule: what was typed, the closest rules, how to find one."""
    shown = fmt.clip(" ".join(typed.split()).replace("`", "'"), TYPED_SHOWN) or "?"
    lines = [t(lc, "rules.unknown", typed=shown)]
    near = reference.closest(typed, lc)
    if near:
        lines.append(t(lc, "rules.closest", ids=", ".join(f"**{r.id}** {reference.title(r, lc)}" for r in near)))
    lines.append(t(lc, "rules.how", rules=mention(client, "rules", lc)))
    return fmt.message_text("\n".join(lines))


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
                e.add_field(name=mention(client, command, lc), value=t(lc, f"help.{command.replace(' ', '_')}"),
                            inline=False)
        for step in steps:
            e.add_field(name=mention(client, step.command, lc), value=tr(lc, step.why), inline=False)
        e.add_field(name=mention(client, "rules", lc), value=t(lc, "help.rules"), inline=False)
        e.set_footer(text=t(lc, "help.footer"))
        await reply(interaction, embeds=[fmt.fit(e)], ephemeral=True)

    @app_commands.command(name="rules", description="The text of a rule (MC-4, CC-1, RU-13) in your language")
    @app_commands.describe(id="A rule's ID, like MC-5.3, or part of its title")
    @app_commands.autocomplete(id=rule_ids)
    async def rules(self, interaction: discord.Interaction, id: app_commands.Range[str, 1, 100]) -> None:
        """Private by default: reading a rule is nobody else's business. ``mc 5.3`` and ``MC-5.3`` are one
        ID; a part of a title that matches one rule only reads that rule."""
        client, lc = bot_of(interaction), lang(interaction)
        reading = reference.read(id, lc)
        if reading is None:
            matches = reference.search(id, lc, limit=2)
            if len(matches) == 1:
                reading = reference.read(matches[0].id, lc)
        if reading is None:
            await reply(interaction, content=unknown_rule(client, id, lc), ephemeral=True)
            return
        for batch in fmt.batches(rule_embeds(client, reading, lc)):
            await reply(interaction, embeds=batch, ephemeral=True)


async def setup(bot: commands.Bot) -> None:
    await bot.add_cog(Help())
    bot.add_dynamic_items(HowToPlay)
