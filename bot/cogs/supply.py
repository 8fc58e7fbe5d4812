"""/supply status|buy: a side's supply points (FC-2, a campaign setting), spent in Phase 1.

Everything here is private to the caller's side: the answers are ephemeral, and each purchase is
logged for the side only.
"""

from __future__ import annotations

import discord
from discord import app_commands
from discord.ext import commands

from bot import formatting as fmt
from bot.i18n.text import tr
from bot.services import supply
from bot.services.actors import Actor

from ._common import actor_of, bot_of, campaign_id, lang, own_forces, reply, suggest, t

KIND_CHOICES = [
    app_commands.Choice(name="refit a reduced unit (up to half its SP back)", value="refit"),
    app_commands.Choice(name="a scout", value="scout"),
    app_commands.Choice(name="a destroyed unit or a recruit", value="unit"),
    app_commands.Choice(name="forced march", value="forced_march"),
]


async def _supply_units(interaction: discord.Interaction, cid: int, actor: Actor, typed: str):
    """The caller's units the purchase chosen may name: reduced ones to refit, destroyed ones and recruits to buy."""
    kind = str(getattr(interaction.namespace, "kind", "") or "")
    if kind not in ("refit", "unit"):
        return []
    force = str(getattr(interaction.namespace, "force", "") or "") or None
    lc = lang(interaction)
    return [(t(lc, "unit.choice_strength", unit=u.name, sp=u.sp, original=u.original_sp), u.key)
            for u in await supply.units(bot_of(interaction).db, cid, actor, kind, force)]


supply_units = suggest(_supply_units)


class Supply(commands.Cog):
    supply = app_commands.Group(name="supply", description="Supply points (FC-2): what your side holds and buys",
                                guild_only=True)

    def __init__(self, bot: commands.Bot) -> None:
        self.bot = bot

    @supply.command(name="status", description="Your side's supply points, income and what it bought this turn (FC-2)")
    async def status(self, interaction: discord.Interaction) -> None:
        lc = lang(interaction)
        cid = await campaign_id(interaction)
        st = await supply.status(bot_of(interaction).db, cid, actor_of(interaction))
        e = discord.Embed(title=t(lc, "supply.title", side=st.side), colour=fmt.PRIVATE)
        if not st.enabled:
            e.description = t(lc, "supply.off")
        elif not st.open:
            e.description = t(lc, "supply.closed")
        e.add_field(name=t(lc, "supply.points"), value=str(st.points), inline=True)
        e.add_field(name=t(lc, "supply.income"), value=str(st.income), inline=True)
        bought = "\n".join(t(lc, "supply.line", text=tr(lc, text), cost=cost) for text, cost in st.bought)
        e.add_field(name=t(lc, "supply.bought"), value=bought or t(lc, "supply.nothing"), inline=False)
        scouts = "\n".join(f"{name}: {n}" for name, n in st.scouts)
        e.add_field(name=t(lc, "force.scouts"), value=scouts or "-", inline=False)
        await reply(interaction, embeds=[fmt.fit(e)])

    @supply.command(name="buy", description="Phase 1: spend supply points on one of your Forces (FC-2)")
    @app_commands.describe(kind="What to buy", force="One of your side's Forces",
                           unit="Refit or buy: the unit (a destroyed one or a recruit)",
                           reduced="A destroyed unit bought back: on its reduced side (half its SP)")
    @app_commands.choices(kind=KIND_CHOICES)
    @app_commands.autocomplete(force=own_forces, unit=supply_units)
    async def buy(self, interaction: discord.Interaction, kind: str, force: app_commands.Range[str, 1, 100],
                  unit: app_commands.Range[str, 1, 100] | None = None, reduced: bool = False) -> None:
        lc = lang(interaction)
        cid = await campaign_id(interaction)
        out = await supply.buy(bot_of(interaction).db, cid, actor_of(interaction), kind, force, unit=unit,
                               reduced=reduced)
        await reply(interaction, content=fmt.message_text(t(lc, "supply.done", force=out.force, text=tr(lc, out.text), n=out.cost,
                                                            left=out.left)))


async def setup(bot: commands.Bot) -> None:
    await bot.add_cog(Supply(bot))
