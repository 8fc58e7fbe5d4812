"""/order give|move|reroll|list|done and /force info: players act for their own Forces.

Before a roll the player sees its exact odds (the modifiers, the die each outcome needs: MC-4, MC-5)
with a Roll button, a red "Roll anyway" when the worst outcome is at least one chance in three; the roll
happens on confirm, privately (ephemeral), and takes effect when the phase resolves. With the FC-3 setting a Force may
spend a scout to re-roll that die before the phase resolves (/order reroll).
"""

from __future__ import annotations

import logging
import re
from typing import Any

import discord
from discord import app_commands
from discord.ext import commands

from bot import formatting as fmt
from bot.campaign.odds import Odds
from bot.engine.errors import InvalidInput
from bot.engine.model import Order
from bot.i18n.text import tr
from bot.services import orders, supply, views
from bot.services.errors import NotFound

from . import _publish as publish
from ._common import (
    actor_of,
    bot_of,
    campaign_id,
    choices,
    confirm_view,
    guarded,
    lang,
    neighbours,
    own_forces,
    reply,
    status_of,
    t,
    visible_forces,
)

log = logging.getLogger("adc.orders")

ORDER_CHOICES = [app_commands.Choice(name=o.label, value=o.value) for o in Order]  # MC-1
ORDER_LABELS = {o.value: o.label for o in Order}
CUSTOM_ID = 100


async def _own_force(interaction: discord.Interaction, cid: int, force: str) -> tuple[str, str]:
    """Key and name of one of the caller's own Forces named by key or name (as typed or suggested), for
    the confirmation button (the core has already refused anything else, in the same words for a hidden
    Force, a visible one or none: fog of war)."""
    sv = await status_of(interaction, cid)
    if sv.reader_side is None:
        await views.my_forces(bot_of(interaction).db, cid, actor_of(interaction))  # "use /campaign join first"
    text = force.strip().lower()
    for f in sv.forces:
        if f.own and f.side == sv.reader_side and (f.key == force.strip() or f.name.lower() == text):
            return f.key, f.name
    raise NotFound(t(lang(interaction), "order.not_yours", force=force.strip()[:40]))


def _custom_id(text: str, lc: str) -> str:
    if len(text) > CUSTOM_ID:
        raise InvalidInput(t(lc, "order.path_too_long"))
    return text


class ConfirmOrder(discord.ui.DynamicItem[discord.ui.Button[Any]],
                   template=r"adc:og:(?P<cid>\d+):(?P<order>[a-z_]+):(?P<force>[A-Za-z0-9_-]+)"):
    """Take the Force test now (MC-4): the roll happens on this click."""

    def __init__(self, cid: int, order: str, force: str, label: str = "Confirm",
                 style: discord.ButtonStyle = discord.ButtonStyle.success) -> None:
        super().__init__(discord.ui.Button(label=label, style=style, custom_id=f"adc:og:{cid}:{order}:{force}"))
        self.cid, self.order, self.force = cid, order, force

    @classmethod
    async def from_custom_id(cls, interaction: discord.Interaction, item: discord.ui.Button[Any],
                             match: re.Match[str]) -> ConfirmOrder:
        return cls(int(match["cid"]), match["order"], match["force"], item.label or "Confirm", item.style)

    async def callback(self, interaction: discord.Interaction) -> None:
        async def work() -> None:
            bot, lc = bot_of(interaction), lang(interaction)
            out = await orders.give_order(bot.db, self.cid, actor_of(interaction), self.force, self.order,
                                          rules=bot.rules)
            embed = fmt.roll_embed(out.roll, lc, private=True)
            embed.description = t(lc, "order.given", force=out.force, order=tr(lc, out.order.label)) \
                + _reroll_hint(lc, out.scouts)
            await interaction.response.edit_message(content=None, embeds=[fmt.fit(embed)], view=None)

        await guarded(interaction, work)


class ConfirmMove(discord.ui.DynamicItem[discord.ui.Button[Any]],
                  template=r"adc:om:(?P<cid>\d+):(?P<how>[0-7]):(?P<force>[A-Za-z0-9_-]+):(?P<path>[A-Z0-9.]+)"):
    """Declare the move now: the movement roll (MC-5.1 or MC-5.3) happens on this click. ``how`` packs
    by water (1), in smaller boats (2), with horse rafts (4), so the button works after a restart."""

    def __init__(self, cid: int, water: bool, force: str, path: str, label: str = "Confirm",
                 style: discord.ButtonStyle = discord.ButtonStyle.success, *, small_boats: bool = False,
                 horse_rafts: bool = False) -> None:
        how = int(water) | 2 * int(small_boats) | 4 * int(horse_rafts)
        super().__init__(discord.ui.Button(label=label, style=style, custom_id=f"adc:om:{cid}:{how}:{force}:{path}"))
        self.cid, self.water, self.force, self.path = cid, water, force, path
        self.small_boats, self.horse_rafts = small_boats, horse_rafts

    @classmethod
    async def from_custom_id(cls, interaction: discord.Interaction, item: discord.ui.Button[Any],
                             match: re.Match[str]) -> ConfirmMove:
        how = int(match["how"])
        return cls(int(match["cid"]), bool(how & 1), match["force"], match["path"], item.label or "Confirm",
                   item.style, small_boats=bool(how & 2), horse_rafts=bool(how & 4))

    async def callback(self, interaction: discord.Interaction) -> None:
        async def work() -> None:
            bot, lc = bot_of(interaction), lang(interaction)
            out = await orders.declare_move(bot.db, self.cid, actor_of(interaction), self.force,
                                            self.path.replace(".", " "), by_water=self.water,
                                            small_boats=self.small_boats, horse_rafts=self.horse_rafts, rules=bot.rules)
            embed = fmt.roll_embed(out.roll, lc, private=True)
            embed.description = t(lc, "move.declared", force=out.force, result=tr(lc, out.result),
                                  path=" ".join(out.path)) + _reroll_hint(lc, out.scouts)
            await interaction.response.edit_message(content=None, embeds=[fmt.fit(embed)], view=None)

        await guarded(interaction, work)


def _roll_button(odds: Odds, lc: str) -> tuple[str, discord.ButtonStyle]:
    """The button that rolls: a red "Roll anyway" when the core finds the worst outcome a danger (at least
    one chance in three), else the ordinary one."""
    if odds.danger:
        return t(lc, "confirm.roll_anyway"), discord.ButtonStyle.danger
    return t(lc, "confirm.roll"), discord.ButtonStyle.success


def _reroll_hint(lc: str, scouts: int) -> str:
    """FC-3, when on: the Force's scouts, each one a re-roll of this die before the phase resolves."""
    return "\n" + t(lc, "reroll.hint", scouts=scouts) if scouts > 0 else ""


class MarkDone(discord.ui.DynamicItem[discord.ui.Button[Any]], template=r"adc:done:(?P<cid>\d+)"):
    """My side has finished acting in this phase."""

    def __init__(self, cid: int, label: str = "Done") -> None:
        super().__init__(discord.ui.Button(label=label, style=discord.ButtonStyle.primary, custom_id=f"adc:done:{cid}"))
        self.cid = cid

    @classmethod
    async def from_custom_id(cls, interaction: discord.Interaction, item: discord.ui.Button[Any],
                             match: re.Match[str]) -> MarkDone:
        return cls(int(match["cid"]), item.label or "Done")

    async def callback(self, interaction: discord.Interaction) -> None:
        await guarded(interaction, lambda: mark_done(interaction, self.cid))


class MySideDone(discord.ui.DynamicItem[discord.ui.Button[Any]],
                 template=r"adc:sidedone:(?P<cid>\d+):(?P<side>[a-z0-9][a-z0-9_-]{0,31})"):
    """On a reminder, in a DM (no channel: the button carries its campaign and side): the clicker's side has
    finished acting; only a player of that side may say so. Works across restarts."""

    def __init__(self, cid: int, side: str, label: str = "My side is done") -> None:
        super().__init__(discord.ui.Button(label=label, style=discord.ButtonStyle.success, emoji="✅",
                                           custom_id=f"adc:sidedone:{cid}:{side}"))
        self.cid, self.side = cid, side

    @classmethod
    async def from_custom_id(cls, interaction: discord.Interaction, item: discord.ui.Button[Any],
                             match: re.Match[str]) -> MySideDone:
        return cls(int(match["cid"]), match["side"], item.label or "My side is done")

    async def callback(self, interaction: discord.Interaction) -> None:
        async def work() -> None:
            bot, lc = bot_of(interaction), lang(interaction)
            everyone = await orders.mark_side_done(bot.db, self.cid, actor_of(interaction), self.side)
            await reply(interaction, content=t(lc, "done.marked"))
            if everyone:
                await publish.settle(bot, self.cid)
            else:
                await publish.refresh_card(bot, self.cid)

        await guarded(interaction, work)


async def mark_done(interaction: discord.Interaction, cid: int) -> None:
    """Mark the caller's side done; when every side is, and auto-resolve is on, the phase resolves."""
    bot, actor, lc = bot_of(interaction), actor_of(interaction), lang(interaction)
    everyone = await orders.mark_done(bot.db, cid, actor)
    await reply(interaction, content=t(lc, "done.marked"))
    if everyone:
        await publish.settle(bot, cid)
    else:
        await publish.refresh_card(bot, cid)  # the card shows who is done: no post of its own


class Orders(commands.Cog):
    order = app_commands.Group(name="order", description="Orders and moves for your side's Forces", guild_only=True)
    force = app_commands.Group(name="force", description="Forces in your sight", guild_only=True)

    def __init__(self, bot: commands.Bot) -> None:
        self.bot = bot

    @order.command(name="give", description="Phase 1: change a Force's order or shed a reaction (Force test, MC-4)")
    @app_commands.describe(force="One of your side's Forces", order="The new order")
    @app_commands.autocomplete(force=own_forces)
    @app_commands.choices(order=ORDER_CHOICES)
    async def give(self, interaction: discord.Interaction, force: app_commands.Range[str, 1, 100], order: str) -> None:
        bot, actor, lc = bot_of(interaction), actor_of(interaction), lang(interaction)
        cid = await campaign_id(interaction)
        odds = await orders.order_odds(bot.db, cid, actor, force, order, rules=bot.rules)  # the core's refusals
        key, name = await _own_force(interaction, cid, force)
        label = ORDER_LABELS.get(order, order.replace("_", " "))
        embed = fmt.odds_embed(t(lc, "odds.subject", check=tr(lc, odds.name), rule=odds.rule, force=name,
                                 target=tr(lc, label)), odds, lc)
        button = ConfirmOrder(cid, order, key, *_roll_button(odds, lc))
        _custom_id(button.custom_id, lc)
        await reply(interaction, embeds=[embed], view=confirm_view(button, lc))

    @order.command(name="move", description="Phase 2: declare a path; the move is rolled on confirm (MC-5)")
    @app_commands.describe(force="One of your side's Forces", path="Squares in order, like D4 E5 E6",
                           by_water="Move by sea, lake or river (MC-5.3)",
                           small_boats="By water: in boats smaller than ships (MC-5.3, -2 at sea)",
                           horse_rafts="By water: the horses on barges or rafts (MC-5.3, -1)")
    @app_commands.autocomplete(force=own_forces)
    async def move(self, interaction: discord.Interaction, force: app_commands.Range[str, 1, 100],
                   path: app_commands.Range[str, 2, 200], by_water: bool = False, small_boats: bool = False,
                   horse_rafts: bool = False) -> None:
        bot, actor, lc = bot_of(interaction), actor_of(interaction), lang(interaction)
        cid = await campaign_id(interaction)
        by_water = by_water or small_boats or horse_rafts  # boats and rafts are a move by water
        odds = await orders.move_odds(bot.db, cid, actor, force, path, by_water=by_water, small_boats=small_boats,
                                      horse_rafts=horse_rafts, rules=bot.rules)  # the core's refusals
        key, name = await _own_force(interaction, cid, force)
        squares = [p for p in re.split(r"[\s,;]+", path.strip().upper()) if p]
        embed = fmt.odds_embed(t(lc, "odds.subject", check=tr(lc, odds.name), rule=odds.rule, force=name,
                                 target=" ".join(squares)), odds, lc)
        button = ConfirmMove(cid, by_water, key, ".".join(squares), *_roll_button(odds, lc), small_boats=small_boats,
                             horse_rafts=horse_rafts)
        _custom_id(button.custom_id, lc)
        await reply(interaction, embeds=[embed], view=confirm_view(button, lc))

    @move.autocomplete("path")
    async def _path(self, interaction: discord.Interaction, current: str) -> list[app_commands.Choice[str]]:
        """Suggest the next square: the neighbours of the last square typed (or of the Force)."""
        try:
            cid = await campaign_id(interaction)
            own = await views.my_forces(bot_of(interaction).db, cid, actor_of(interaction))
        except Exception:  # suggestions only
            return []
        chosen = str(getattr(interaction.namespace, "force", "") or "")
        force = next((f for f in own if f.key == chosen or f.name.lower() == chosen.lower()), None)
        tokens = [p for p in re.split(r"[\s,;]+", (current or "").strip().upper()) if p]
        start = tokens[-1] if tokens else (force.square if force else "")
        base = " ".join(tokens)
        options = [(f"{base} {n}".strip(), f"{base} {n}".strip()) for n in neighbours(start)]
        return choices(options, "") if options else []

    @order.command(name="reroll", description="Phases 1-2: spend a scout to re-roll a Force's die of this phase (FC-3)")
    @app_commands.describe(force="One of your side's Forces, with a Force test or a move rolled")
    @app_commands.autocomplete(force=own_forces)
    async def reroll(self, interaction: discord.Interaction, force: app_commands.Range[str, 1, 100]) -> None:
        bot, lc = bot_of(interaction), lang(interaction)
        cid = await campaign_id(interaction)
        out = await supply.reroll(bot.db, cid, actor_of(interaction), force, rules=bot.rules)
        lines = [t(lc, "reroll.done", force=out.force, before=out.original.total, after=out.roll.total,
                   scouts=out.scouts)]
        if out.dropped:
            lines.append(t(lc, "reroll.dropped", modifiers=", ".join(f"{m.value:+d} {tr(lc, m.reason)} ({m.rule})"
                                                                     for m in out.dropped)))
        if out.result is not None:
            lines.append(t(lc, "reroll.move", force=out.force, result=tr(lc, out.result)))
        embeds = [fmt.roll_embed(out.original, lc, private=True), fmt.roll_embed(out.roll, lc, private=True)]
        await reply(interaction, content=fmt.message_text("\n".join(lines)), embeds=embeds)

    @order.command(name="list", description="Your side's Forces, their orders and what each still has to do")
    async def list_(self, interaction: discord.Interaction) -> None:
        bot, lc = bot_of(interaction), lang(interaction)
        cid = await campaign_id(interaction)
        own = await views.my_forces(bot.db, cid, actor_of(interaction))
        lines = [fmt.force_line(f, lc) for f in own] or [t(lc, "order.none")]
        embed = fmt.paged_embeds(t(lc, "order.list_title"), lines, colour=fmt.PRIVATE)[0]
        view = confirm_view(MarkDone(cid, t(lc, "done.button")), lc, cancel=False)
        await reply(interaction, embeds=[embed], view=view)

    @order.command(name="done", description="Phases 1 and 2: your side has finished acting")
    async def done(self, interaction: discord.Interaction) -> None:
        await mark_done(interaction, await campaign_id(interaction))

    @force.command(name="info", description="A Force: units, leader, scouts, order, reaction, square")
    @app_commands.describe(force="A Force in your sight")
    @app_commands.autocomplete(force=visible_forces)
    async def info(self, interaction: discord.Interaction, force: app_commands.Range[str, 1, 100]) -> None:
        cid = await campaign_id(interaction)
        f = await views.force_info(bot_of(interaction).db, cid, actor_of(interaction), force)
        await reply(interaction, embeds=[fmt.force_embed(f, lang(interaction))])


async def setup(bot: commands.Bot) -> None:
    from ._common import Cancel

    bot.add_dynamic_items(ConfirmOrder, ConfirmMove, MarkDone, MySideDone, Cancel)
    await bot.add_cog(Orders(bot))
