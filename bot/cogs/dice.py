"""/roll dice (a free expression) and /roll cc (Commands & Colors battle dice)."""

from __future__ import annotations

import discord
from discord import app_commands
from discord.ext import commands

from bot import formatting as fmt
from bot import freeroll
from bot.engine.cc_model import BattleDieFace
from bot.engine.dice import SeededDice, new_turn_seed
from bot.engine.trophies import battle_die_check, roll_battle_dice
from bot.i18n.text import tr

from ._common import lang, reply, t

SYMBOLS = {
    BattleDieFace.INFANTRY.value: "🪖",
    BattleDieFace.CAVALRY.value: "🐎",
    BattleDieFace.ARTILLERY.value: "💣",
    BattleDieFace.FLAG.value: "🚩",
    BattleDieFace.SABRE.value: "⚔️",
}


class Dice(commands.Cog):
    roll = app_commands.Group(name="roll", description="Dice outside the campaign's rules")

    @roll.command(name="dice", description="Roll a dice expression: 2d6+1, 4d6kh3, d20-2")
    @app_commands.describe(expression="Like 2d6+1, 4d6kh3 (keep highest 3), 3d8kl1 (keep lowest), d20-2")
    async def dice(self, interaction: discord.Interaction, expression: app_commands.Range[str, 1, 200]) -> None:
        lc = lang(interaction)
        result = freeroll.roll(expression)
        e = discord.Embed(title=t(lc, "dice.title", expression=result.expression), colour=fmt.COLOUR)
        e.add_field(name=t(lc, "roll.dice"), value=result.breakdown(), inline=False)
        e.add_field(name=t(lc, "roll.total"), value=f"**{result.total}**", inline=False)
        e.set_footer(text=t(lc, "dice.seed", seed=result.seed_hex))
        await reply(interaction, embeds=[fmt.fit(e)], ephemeral=False)

    @roll.command(name="cc", description="Roll Commands & Colors battle dice and show their faces")
    @app_commands.describe(count="How many battle dice")
    async def cc(self, interaction: discord.Interaction, count: app_commands.Range[int, 1, 100]) -> None:
        lc = lang(interaction)
        seed = new_turn_seed()
        record = roll_battle_dice(count, SeededDice(seed), f"free/cc/{count}")
        symbols = battle_die_check().results_by_face()
        # A free roll: titled as what it is (battle dice), not as the campaign rule that reads them (CC-3,
        # trophies), and without a campaign roll key.
        e = discord.Embed(title=t(lc, "cc.title", count=count), colour=fmt.COLOUR,
                          description=" ".join(SYMBOLS.get(symbols[f - 1], symbols[f - 1]) for f in record.dice))
        e.add_field(name=t(lc, "roll.dice"), value=f"{count}d6: " + " ".join(f"**{f}**" for f in record.dice),
                    inline=False)
        labels = dict(record.labels)
        e.add_field(name=t(lc, "roll.outcome"), value="\n".join(
            f"{SYMBOLS.get(r, '')} **{n}** {tr(lc, labels.get(r, r))}" for r, n in record.counts), inline=False)
        e.set_footer(text=t(lc, "dice.seed", seed=seed.hex()))
        await reply(interaction, embeds=[fmt.fit(e)], ephemeral=False)


async def setup(bot: commands.Bot) -> None:
    await bot.add_cog(Dice())
