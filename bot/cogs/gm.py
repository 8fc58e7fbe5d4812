"""/gm advance|deadline|undo|assign|edit: the GM's commands.

Resolving and undoing ask for confirmation; the button carries the campaign version the GM saw,
so a second click (or a stale card) is told "already resolved" by the services' version guard.
"""

from __future__ import annotations

import re
from typing import Any

import discord
from discord import app_commands
from discord.ext import commands

from bot import formatting as fmt
from bot.engine.errors import InvalidInput
from bot.engine.model import Reaction
from bot.engine.phases import Phase
from bot.i18n.text import tr, tr_lines
from bot.services import bookkeeping as state
from bot.services import campaigns, gm, resolution, views
from bot.services.views import StatusView

from . import _publish as publish
from ._common import (
    actor_of,
    bot_of,
    campaign_id,
    choices,
    confirm_view,
    guarded,
    lang,
    pinging,
    reply,
    sides,
    status_of,
    t,
    visible_forces,
)
from .orders import ORDER_CHOICES

REACTION_CHOICES = [app_commands.Choice(name="none", value="none"),  # MC-2, the ladder of RU-9
                    *(app_commands.Choice(name=r.value.title(), value=r.value) for r in Reaction)]


async def _gm_view(interaction: discord.Interaction) -> StatusView | None:
    """The GM's status view for an autocomplete, or None (not the GM, no campaign): suggestions only."""
    try:
        sv = await status_of(interaction, await campaign_id(interaction))
    except Exception:
        return None
    return sv if sv.gm else None


class Advance(discord.ui.DynamicItem[discord.ui.Button[Any]],
              template=r"adc:adv:(?P<cid>\d+):(?P<version>\d+):(?P<forced>[01])"):
    """Resolve the phase the GM was shown (at that campaign version)."""

    def __init__(self, cid: int, version: int, forced: bool, label: str = "Resolve") -> None:
        style = discord.ButtonStyle.danger if forced else discord.ButtonStyle.success
        super().__init__(discord.ui.Button(label=label, style=style, custom_id=f"adc:adv:{cid}:{version}:{int(forced)}"))
        self.cid, self.version, self.forced = cid, version, forced

    @classmethod
    async def from_custom_id(cls, interaction: discord.Interaction, item: discord.ui.Button[Any],
                             match: re.Match[str]) -> Advance:
        return cls(int(match["cid"]), int(match["version"]), match["forced"] == "1", item.label or "Resolve")

    async def callback(self, interaction: discord.Interaction) -> None:
        async def work() -> None:
            await interaction.response.defer()
            res = await publish.resolve(bot_of(interaction), self.cid, actor_of(interaction),
                                        expected_version=self.version, forced=self.forced)
            await interaction.edit_original_response(
                content=t(lang(interaction), "gm.resolved", before=tr(lang(interaction), str(res.before)),
                          after=tr(lang(interaction), str(res.after))),
                embeds=[], view=None)

        await guarded(interaction, work)


class Undo(discord.ui.DynamicItem[discord.ui.Button[Any]], template=r"adc:undo:(?P<cid>\d+):(?P<version>\d+)"):
    def __init__(self, cid: int, version: int, label: str = "Undo") -> None:
        super().__init__(discord.ui.Button(label=label, style=discord.ButtonStyle.danger,
                                           custom_id=f"adc:undo:{cid}:{version}"))
        self.cid, self.version = cid, version

    @classmethod
    async def from_custom_id(cls, interaction: discord.Interaction, item: discord.ui.Button[Any],
                             match: re.Match[str]) -> Undo:
        return cls(int(match["cid"]), int(match["version"]), item.label or "Undo")

    async def callback(self, interaction: discord.Interaction) -> None:
        async def work() -> None:
            bot = bot_of(interaction)
            await interaction.response.defer()
            undone = await resolution.undo(bot.db, self.cid, actor_of(interaction), expected_version=self.version)
            await interaction.edit_original_response(
                content=t(lang(interaction), "gm.undone", back=str(undone.back_to)), embeds=[], view=None)
            m = await state.meta(bot.db, self.cid)
            target = await publish.channel(bot, m.channel_id)
            if target is not None:
                await target.send(t(m.language, "gm.undone_public", back=str(undone.back_to),
                                    entries=undone.entries_marked))
                await publish.post_phase_card(bot, self.cid, m.language, target)

        await guarded(interaction, work)


class GM(commands.Cog):
    gm = app_commands.Group(name="gm", description="Game master: resolve phases, deadlines, corrections",
                            guild_only=True)

    def __init__(self, bot: commands.Bot) -> None:
        self.bot = bot

    @gm.command(name="advance", description="Resolve the current phase and start the next (asks to confirm)")
    async def advance(self, interaction: discord.Interaction) -> None:
        bot, actor, lc = bot_of(interaction), actor_of(interaction), lang(interaction)
        cid = await campaign_id(interaction)
        await state.require_gm_of(bot.db, cid, actor)
        sv = await views.status(bot.db, cid, actor, rules=bot.rules)
        embed = fmt.status_embed(sv, lc, public=True)
        if sv.waiting and sv.position.phase is Phase.BATTLE:
            # No button that would be refused (MC-6: a battle cannot end without its report): say what blocks.
            embed.title = t(lc, "gm.advance_missing_title", phase=tr(lc, sv.position.phase.spec.title))
            embed.description = (embed.description or "") + "\n" + t(lc, "gm.advance_battle_note")
            await reply(interaction, embeds=[fmt.fit(embed)])
            return
        if sv.waiting:
            embed.title = t(lc, "gm.advance_missing_title", phase=tr(lc, sv.position.phase.spec.title))
            embed.description = (embed.description or "") + "\n" + t(lc, "gm.advance_forced_note")
            button = Advance(cid, sv.version, True, t(lc, "gm.resolve_anyway"))
        else:
            embed.title = t(lc, "gm.advance_title", phase=tr(lc, sv.position.phase.spec.title))
            button = Advance(cid, sv.version, False, t(lc, "gm.resolve"))
        await reply(interaction, embeds=[fmt.fit(embed)], view=confirm_view(button, lc))

    @gm.command(name="deadline", description="Set or extend the phase deadline; players who have not acted are reminded")
    @app_commands.describe(hours="Hours from now")
    async def deadline(self, interaction: discord.Interaction, hours: app_commands.Range[float, 0.05, 1440.0]) -> None:
        bot, lc = bot_of(interaction), lang(interaction)
        cid = await campaign_id(interaction)
        when = await gm.set_deadline(bot.db, cid, actor_of(interaction), hours, now=discord.utils.utcnow())
        await state.note_deadline(bot.db, cid)
        await reply(interaction, content=t(lc, "gm.deadline_set", when=fmt.timestamp(when),
                                           rel=fmt.timestamp(when, "R")), ephemeral=False)

    @gm.command(name="undo", description="Revert the last phase resolution (announced publicly)")
    async def undo(self, interaction: discord.Interaction) -> None:
        bot, actor, lc = bot_of(interaction), actor_of(interaction), lang(interaction)
        cid = await campaign_id(interaction)
        await state.require_gm_of(bot.db, cid, actor)
        preview = await resolution.undo_preview(bot.db, cid, actor)
        if preview.back_to is None:
            raise InvalidInput(t(lc, "gm.undo_nothing"))
        if preview.sealed_turn is not None:  # no button that would be refused: say why instead
            raise InvalidInput(t(lc, "gm.undo_sealed", turn=preview.sealed_turn))
        sv = await views.status(bot.db, cid, actor, rules=bot.rules)
        text = t(lc, "gm.undo_confirm", position=tr(lc, str(sv.position)), back=tr(lc, str(preview.back_to)))
        text += "\n" + t(lc, "gm.undo_limit", n=preview.undoable, earliest=tr(lc, str(preview.earliest)))
        await reply(interaction, content=text, view=confirm_view(Undo(cid, sv.version, t(lc, "gm.undo_button")), lc))

    @gm.command(name="assign", description="Put a member on a side, or give it to the bot general")
    @app_commands.describe(member="The member", side="The side",
                           general="The bot general plays the side, or stops playing it (RU-26)")
    @app_commands.autocomplete(side=sides)
    @app_commands.choices(general=[app_commands.Choice(name="bot", value="bot"),
                                   app_commands.Choice(name="off", value="off")])
    async def assign(self, interaction: discord.Interaction, side: app_commands.Range[str, 1, 100],
                     member: discord.Member | discord.User | None = None, general: str | None = None) -> None:
        lc = lang(interaction)
        cid = await campaign_id(interaction)
        if (member is None) == (general is None):
            raise InvalidInput(t(lc, "gm.assign_one"))
        if general is not None:  # RU-26: the bot general's seat, reversible
            name = await campaigns.seat_general(bot_of(interaction).db, cid, actor_of(interaction), side,
                                                general == "bot", rules=bot_of(interaction).rules)
            await reply(interaction, content=t(lc, "gm.general_on" if general == "bot" else "gm.general_off",
                                               side=name), ephemeral=False)
            await publish.settle(bot_of(interaction), cid)  # the general may have finished what the phase waited for
            return
        assert member is not None
        # Discord resolves a user who is not a member of this server as a plain User: refuse it (and a
        # bot) by name, rather than put an outsider on a side the bot would then remind and mention.
        name = discord.utils.escape_mentions(discord.utils.escape_markdown(member.display_name))
        if not isinstance(member, discord.Member) or member.guild.id != interaction.guild_id:
            raise InvalidInput(t(lc, "gm.assign_not_member", member=name))
        if member.bot:
            raise InvalidInput(t(lc, "gm.assign_bot", member=name))
        row = await campaigns.assign(bot_of(interaction).db, cid, actor_of(interaction), member.id, side,
                                     member_name=member.display_name)
        await reply(interaction, content=t(lc, "gm.assigned", member=member.mention, side=row.name),
                    ephemeral=False, allowed_mentions=pinging([member.id]))  # tells that member, and only him

    @gm.command(name="edit", description="Correct a Force: square, order, reaction or a unit's SP (announced as fog allows)")
    @app_commands.describe(force="The Force", square="Its new square", order="Its new order",
                           reaction="Its new reaction", unit="A unit of the Force", sp="That unit's new SP")
    @app_commands.autocomplete(force=visible_forces)
    @app_commands.choices(order=ORDER_CHOICES, reaction=REACTION_CHOICES)
    async def edit(self, interaction: discord.Interaction, force: app_commands.Range[str, 1, 100],
                   square: app_commands.Range[str, 2, 8] | None = None, order: str | None = None,
                   reaction: str | None = None, unit: app_commands.Range[str, 1, 100] | None = None,
                   sp: app_commands.Range[int, 0, 10000] | None = None) -> None:
        bot, lc = bot_of(interaction), lang(interaction)
        cid = await campaign_id(interaction)
        fix = await gm.edit_force(bot.db, cid, actor_of(interaction), force, square=square,
                                  order=order, reaction=reaction, unit=unit, sp=sp)
        # The GM reads the whole correction; the channel and each side what the services say they may see.
        await reply(interaction, content=t(lc, "gm.edited", force=fix.force,
                                           changes="; ".join(tr_lines(lc, fix.changes))))
        await publish.post_notices(bot, cid, list(fix.notices), title=t(lc, "gm.correction_title"))

    @edit.autocomplete("unit")
    async def _units(self, interaction: discord.Interaction, current: str) -> list[app_commands.Choice[str]]:
        sv = await _gm_view(interaction)
        if sv is None:
            return []
        chosen = str(getattr(interaction.namespace, "force", "") or "")
        lc = lang(interaction)
        return choices(((t(lc, "unit.choice", unit=u.name, force=f.name, sp=u.sp), u.key) for f in sv.forces
                        if not chosen or f.key == chosen or f.name == chosen for u in f.units), current)

    @edit.autocomplete("square")
    async def _squares(self, interaction: discord.Interaction, current: str) -> list[app_commands.Choice[str]]:
        from ._common import neighbours

        sv = await _gm_view(interaction)
        if sv is None:
            return []
        chosen = str(getattr(interaction.namespace, "force", "") or "")
        here = next((f.square for f in sv.forces if f.key == chosen or f.name == chosen), "")
        return choices(((sq, sq) for sq in ([here] if here else []) + neighbours(here)), current)


async def setup(bot: commands.Bot) -> None:
    bot.add_dynamic_items(Advance, Undo)
    await bot.add_cog(GM(bot))
