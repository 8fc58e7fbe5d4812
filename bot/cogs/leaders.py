"""/leader fate|roster, /trophy roll, /glory balance|spend: the C&C campaign rules (CC-1..CC-4)."""

from __future__ import annotations

import discord
from discord import app_commands
from discord.ext import commands

from bot import formatting as fmt
from bot.i18n.text import tr, tr_lines
from bot.services import cc
from bot.services.actors import Actor

from . import _publish as publish
from ._common import (
    actor_of,
    battle_numbers,
    bot_of,
    campaign_id,
    lang,
    own_leaders,
    own_units,
    reply,
    suggest,
    t,
)


async def _trophy_attempts(interaction: discord.Interaction, cid: int, actor: Actor) -> tuple[cc.TrophyAttempt, ...]:
    """The attempts the service would accept now (CC-3), in the battle chosen, if one is."""
    battle = str(getattr(interaction.namespace, "battle", "") or "").strip().lstrip("#")
    return tuple(a for a in await cc.trophy_attempts(bot_of(interaction).db, cid, actor)
                 if not battle or str(a.battle) == battle)


async def _trophy_units(interaction: discord.Interaction, cid: int, actor: Actor, typed: str):
    return [(f"{a.unit_name} (#{a.battle})", a.unit) for a in await _trophy_attempts(interaction, cid, actor)]


async def _trophy_targets(interaction: discord.Interaction, cid: int, actor: Actor, typed: str):
    unit = str(getattr(interaction.namespace, "unit", "") or "").strip()
    return [(f"{a.target_name} (#{a.battle}, {a.unit_name})", a.target)
            for a in await _trophy_attempts(interaction, cid, actor) if not unit or a.unit == unit]


trophy_units = suggest(_trophy_units)
trophy_targets = suggest(_trophy_targets)


async def _glory_battles(interaction: discord.Interaction, cid: int, actor: Actor, typed: str):
    """The caller's battles where the spend chosen (or any spend) may be made now (RU-17)."""
    kind = str(getattr(interaction.namespace, "kind", "") or "")
    return [(f"{b.number}: {b.square}, {' v '.join(b.sides)}", str(b.number))
            for b in await cc.glory_battles(bot_of(interaction).db, cid, actor, kind or None)]


glory_battles = suggest(_glory_battles)

CIRCUMSTANCES = [
    app_commands.Choice(name="melee vs infantry or cavalry", value="melee"),
    app_commands.Choice(name="other circumstances", value="other"),
]
DESIGNATIONS = [app_commands.Choice(name=d, value=d) for d in ("infantry", "cavalry", "artillery")]
SPEND_CHOICES = [app_commands.Choice(name=k.replace("_", " "), value=k) for k in cc.SPENDS]
ORDERED = {"ordered": (True, False), "ordered_terrain": (True, True), "not_ordered": (False, False)}
"""The Leadership unit at the table (CC-4): ordered or not, and for cavalry, its battle dice reduced by terrain."""
ORDERED_CHOICES = [
    app_commands.Choice(name="ordered", value="ordered"),
    app_commands.Choice(name="ordered, cavalry with its dice reduced by terrain", value="ordered_terrain"),
    app_commands.Choice(name="not ordered", value="not_ordered"),
]


class Leaders(commands.Cog):
    leader = app_commands.Group(name="leader", description="Leaders: fate after a battle, roster", guild_only=True)
    trophy = app_commands.Group(name="trophy", description="Trophies: flags taken in melee", guild_only=True)
    glory = app_commands.Group(name="glory", description="Glory: balance and spends", guild_only=True)

    def __init__(self, bot: commands.Bot) -> None:
        self.bot = bot

    @leader.command(name="fate", description="Roll a fallen leader's fate (CC-1) and name his replacement (CC-2)")
    @app_commands.describe(leader="The leader who fell", circumstance="How he fell (it picks the table)",
                           designation="A replacement's type (RU-18; default: the Force's strongest unit)")
    @app_commands.autocomplete(leader=own_leaders)
    @app_commands.choices(circumstance=CIRCUMSTANCES, designation=DESIGNATIONS)
    async def fate(self, interaction: discord.Interaction, leader: app_commands.Range[str, 1, 100],
                   circumstance: str, designation: str | None = None) -> None:
        lc = lang(interaction)
        cid = await campaign_id(interaction)
        out = await cc.leader_fate(bot_of(interaction).db, cid, actor_of(interaction), leader, circumstance,
                                   designation=designation)
        embeds = [fmt.roll_embed(r, lc) for r in out.fate.rolls]
        await publish.answer_in_battle(interaction, cid, out.battle, content=fmt.message_text(" ".join(tr_lines(lc, out.lines))),
                               embeds=embeds)
        await publish.settle(bot_of(interaction), cid)

    @leader.command(name="roster", description="Your leaders, their status, and what it means at the next battle")
    async def roster(self, interaction: discord.Interaction) -> None:
        bot, actor, lc = bot_of(interaction), actor_of(interaction), lang(interaction)
        cid = await campaign_id(interaction)
        lines = await cc.leader_roster(bot.db, cid, actor) or [t(lc, "roster.none")]
        await reply(interaction, embeds=fmt.paged_embeds(t(lc, "roster.title"), lines, colour=fmt.PRIVATE)[:1])

    @trophy.command(name="roll", description="A unit that eliminated an enemy in melee tries for its flag (CC-3)")
    @app_commands.describe(battle="The battle's number", unit="Your unit", target="The enemy unit it eliminated")
    @app_commands.autocomplete(battle=battle_numbers, unit=trophy_units, target=trophy_targets)
    async def trophy_roll(self, interaction: discord.Interaction, battle: app_commands.Range[str, 1, 10],
                          unit: app_commands.Range[str, 1, 100], target: app_commands.Range[str, 1, 100]) -> None:
        lc = lang(interaction)
        cid = await campaign_id(interaction)
        out = await cc.trophy_roll(bot_of(interaction).db, cid, actor_of(interaction), battle, unit, target)
        await publish.answer_in_battle(interaction, cid, out.battle, content=fmt.message_text(tr(lc, out.text)),
                               embeds=[fmt.roll_embed(out.result.roll, lc)])
        await publish.settle(bot_of(interaction), cid)

    @glory.command(name="balance", description="Glory per side, with its history (CC-4)")
    async def balance(self, interaction: discord.Interaction) -> None:
        lc = lang(interaction)
        cid = await campaign_id(interaction)
        sides = await cc.glory_balance(bot_of(interaction).db, cid, actor_of(interaction))
        embeds = []
        for g in sides:
            embeds += fmt.paged_embeds(t(lc, "glory.side", side=g.name, balance=g.balance), tr_lines(lc, g.lines) or ["-"])
        await reply(interaction, embeds=fmt.batches(embeds)[0] if embeds else [])

    @glory.command(name="spend", description="Spend Glory in one of your battles (CC-4, RU-17)")
    @app_commands.describe(kind="What to spend Glory on", battle="The battle (default: the one where you may spend it)",
                           unit="The unit (heroic, rally, leadership)", points="Glory points (stragglers)",
                           ordered="Leadership: whether the unit is ordered at the table")
    @app_commands.choices(kind=SPEND_CHOICES, ordered=ORDERED_CHOICES)
    @app_commands.autocomplete(battle=glory_battles, unit=own_units)
    async def spend(self, interaction: discord.Interaction, kind: str, battle: app_commands.Range[str, 1, 10] | None = None,
                    unit: app_commands.Range[str, 1, 100] | None = None,
                    points: app_commands.Range[int, 1, 100] | None = None, ordered: str | None = None) -> None:
        lc = lang(interaction)
        cid = await campaign_id(interaction)
        is_ordered, reduced = ORDERED.get(ordered or "", (None, False))
        out = await cc.spend_glory(bot_of(interaction).db, cid, actor_of(interaction), kind, battle=battle, unit=unit,
                                   points=points, ordered=is_ordered, terrain_reduces_dice=reduced)
        embeds = [fmt.roll_embed(out.roll, lc)] if out.roll is not None else []
        await publish.answer_in_battle(interaction, cid, out.battle,
                               content=fmt.message_text(t(lc, "glory.spent", battle=out.battle, text=tr(lc, out.text),
                                                          balance=out.balance)), embeds=embeds)


async def setup(bot: commands.Bot) -> None:
    await bot.add_cog(Leaders(bot))
