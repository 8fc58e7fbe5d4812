"""/battle list|brief|scout|report|aftermath|retreat: Phases 3 and 4 (MC-6, MC-7, BR)."""

from __future__ import annotations

import json
import re
from typing import Any

import discord
import yaml
from discord import app_commands
from discord.ext import commands

from bot import formatting as fmt
from bot.engine import uploads
from bot.engine.errors import InvalidInput
from bot.engine.rolls import BatchRoll, Roll
from bot.i18n import t
from bot.i18n.text import tr, tr_lines
from bot.services import aftermath, battles, cc, views
from bot.services import bookkeeping as state
from bot.services.aftermath import AftermathOutcome

from . import _publish as publish
from ._common import (
    View,
    actor_of,
    battle_numbers,
    bot_of,
    campaign_id,
    choices,
    dynamic_view,
    guarded,
    lang,
    neighbours,
    reply,
)

MAX_REPORT_BYTES = 64 * 1024
MODAL_TEXT = 4000


def load_report_text(raw: str | bytes) -> Any:
    """A battle report as plain data from YAML or JSON text (size-limited, nested at most
    :data:`~bot.engine.uploads.MAX_DEPTH` deep, clean characters only); the engine checks the rest."""
    if len(raw) > MAX_REPORT_BYTES:
        raise InvalidInput("The report is {n_raw:,} bytes: at most {max_report_bytes:,} are accepted.", n_raw=len(raw), max_report_bytes=MAX_REPORT_BYTES)
    if isinstance(raw, bytes):
        try:
            raw = raw.decode("utf-8")
        except UnicodeDecodeError:
            raise InvalidInput("The report is not UTF-8 text: upload YAML or JSON.") from None
    text = raw.strip()
    if not text:
        raise InvalidInput("The report is empty: give the sides, outcomes and losses (YAML or JSON).")
    try:
        if text.startswith("{"):
            return uploads.load_json(text)
        return uploads.load_yaml(text)
    except json.JSONDecodeError as exc:
        raise InvalidInput("The report is not valid JSON (line {lineno}): {msg}.", lineno=exc.lineno, msg=exc.msg) from None
    except yaml.YAMLError as exc:
        where = getattr(exc, "problem_mark", None)
        line = f" (line {where.line + 1})" if where else ""
        raise InvalidInput("The report is not valid YAML{line}: {value}.", line=line, value=getattr(exc, 'problem', None) or exc) from None


def record_text(record: Roll | BatchRoll, lc: str) -> str:
    """A roll in a few lines, for an embed field: natural dice, modifiers with rule IDs, outcome."""
    dice = " ".join(str(f) for f in record.dice[:40]) + (" …" if len(record.dice) > 40 else "")
    mods = "; ".join(f"{m.value:+d} {tr(lc, m.reason)} ({m.rule})" for m in record.modifiers)
    if isinstance(record, Roll):
        outcome = f"= **{record.total}** → {tr(lc, record.label)}"
    else:
        labels = dict(record.labels)
        outcome = "→ " + ", ".join(f"**{n}** {tr(lc, labels.get(r, r))}" for r, n in record.counts)
    return "\n".join(x for x in (f"d{record.sides}: {dice or '-'}", mods, outcome) if x)


def aftermath_embeds(out: AftermathOutcome, side_name: str, lc: str) -> list[discord.Embed]:
    """One embed per unit: its wounded and deserter checks (MC-7.1, MC-7.2) and its new strength."""
    embeds = []
    for ua, line in zip(out.units, out.lines, strict=False):
        e = discord.Embed(title=t(lc, "aftermath.unit_title", unit=ua.unit.name, battle=out.battle),
                          description=tr(lc, line), colour=fmt.COLOUR)
        for r in ua.rolls:
            e.add_field(name=tr(lc, r.title), value=record_text(r, lc), inline=False)
        embeds.append(fmt.fit(e))
    if not embeds:
        embeds.append(fmt.fit(discord.Embed(title=t(lc, "aftermath.title", side=side_name, battle=out.battle),
                                            description=t(lc, "aftermath.nothing"), colour=fmt.COLOUR)))
    return embeds


async def roll_my_aftermath(interaction: discord.Interaction, cid: int, battle: str) -> None:
    """The caller's side rolls its aftermath of a battle: told in the battle's private thread, or to the
    caller alone elsewhere (and then copied to the thread)."""
    bot, actor, lc = bot_of(interaction), actor_of(interaction), lang(interaction)
    out = await aftermath.roll_aftermath(bot.db, cid, actor, battle, rules=bot.rules)
    sv = await views.status(bot.db, cid, actor, rules=bot.rules)
    side = next((n for k, n, _ in sv.sides if k == out.side), out.side)
    embeds = aftermath_embeds(out, side, lc)
    content = t(lc, "aftermath.rolled", member=interaction.user.mention, side=side, battle=out.battle)
    groups = fmt.batches(embeds)
    # The battle's dice are its camps' (fog of war): public only in its private thread.
    here = await publish.in_private_battle_thread(bot, cid, out.battle, interaction)
    await reply(interaction, content=content, embeds=groups[0], ephemeral=not here)
    for group in groups[1:]:
        await interaction.followup.send(embeds=group, ephemeral=not here)
    if not here:  # the battle's thread keeps its whole story
        await publish.post_in_battle_thread(bot, cid, out.battle, embeds=embeds, content=content, private_only=True)


class RollAftermath(discord.ui.DynamicItem[discord.ui.Button[Any]],
                    template=r"adc:aft:(?P<cid>\d+):(?P<battle>\d+)"):
    """A player rolls their own side's aftermath of this battle."""

    def __init__(self, cid: int, battle: int, label: str = "Roll my aftermath") -> None:
        super().__init__(discord.ui.Button(label=label, style=discord.ButtonStyle.primary,
                                           custom_id=f"adc:aft:{cid}:{battle}"))
        self.cid, self.battle = cid, battle

    @classmethod
    async def from_custom_id(cls, interaction: discord.Interaction, item: discord.ui.Button[Any],
                             match: re.Match[str]) -> RollAftermath:
        return cls(int(match["cid"]), int(match["battle"]), item.label or "Roll my aftermath")

    async def callback(self, interaction: discord.Interaction) -> None:
        await guarded(interaction, lambda: roll_my_aftermath(interaction, self.cid, str(self.battle)))


def aftermath_view(cid: int, battle: int, lc: str) -> discord.ui.View:
    return dynamic_view(RollAftermath(cid, battle, t(lc, "aftermath.button")))


class ReportConfirm(View):
    """Confirm a previewed report. It holds the report the GM entered (input, not game state)
    until it is confirmed; after a restart the GM reports again."""

    def __init__(self, cid: int, battle: str, data: Any, gm_id: int, lc: str) -> None:
        super().__init__(timeout=900)
        self.cid, self.battle, self.data, self.gm_id = cid, battle, data, gm_id
        self.confirm.label = t(lc, "report.confirm")
        self.cancel.label = t(lc, "confirm.cancel")

    async def interaction_check(self, interaction: discord.Interaction) -> bool:
        return interaction.user.id == self.gm_id

    @discord.ui.button(label="Confirm", style=discord.ButtonStyle.success)
    async def confirm(self, interaction: discord.Interaction, button: discord.ui.Button[Any]) -> None:
        bot, lc = bot_of(interaction), lang(interaction)
        summary = await aftermath.report_battle(bot.db, self.cid, actor_of(interaction), self.battle, self.data)
        self.stop()
        await interaction.response.edit_message(content=t(lc, "report.saved", number=summary.battle), embeds=[],
                                                view=None)
        m = await state.meta(bot.db, self.cid)
        embeds = fmt.paged_embeds(t(m.language, "report.public_title", number=summary.battle), tr_lines(m.language, summary.lines))
        line = next((b for b in await battles.list_battles(bot.db, self.cid) if b.number == summary.battle), None)
        glory = [f"**{g.name}**: {g.balance}" for g in await cc.glory_balance(bot.db, self.cid)
                 if line is None or g.name in line.sides]
        if glory:
            embeds.append(fmt.fit(discord.Embed(title=t(m.language, "report.glory_title"), description="\n".join(glory),
                                                colour=fmt.COLOUR)))
        if not await publish.post_in_battle_thread(bot, self.cid, summary.battle, embeds=embeds):
            target = await publish.channel(bot, m.channel_id)
            if target is not None:
                await publish.send_embeds(target, embeds)

    @discord.ui.button(label="Cancel", style=discord.ButtonStyle.secondary)
    async def cancel(self, interaction: discord.Interaction, button: discord.ui.Button[Any]) -> None:
        self.stop()
        await interaction.response.edit_message(content=t(lang(interaction), "confirm.cancelled"), embeds=[], view=None)


async def show_preview(interaction: discord.Interaction, cid: int, battle: str, data: Any) -> None:
    bot, actor, lc = bot_of(interaction), actor_of(interaction), lang(interaction)
    summary = await aftermath.preview_report(bot.db, cid, actor, battle, data)
    embed = fmt.paged_embeds(t(lc, "report.preview_title", number=summary.battle), tr_lines(lc, summary.lines))[0]
    embed.set_footer(text=t(lc, "report.preview_footer"))
    await reply(interaction, embeds=[fmt.fit(embed)], view=ReportConfirm(cid, battle, data, interaction.user.id, lc))


class ReportModal(discord.ui.Modal):
    def __init__(self, cid: int, battle: str, lc: str) -> None:
        super().__init__(title=fmt.clip(t(lc, "report.modal_title", number=battle), 45), timeout=900)
        self.cid, self.battle = cid, battle
        self.text: discord.ui.TextInput[Any] = discord.ui.TextInput(
            label=fmt.clip(t(lc, "report.modal_label"), 45), style=discord.TextStyle.paragraph,
            max_length=MODAL_TEXT, custom_id="report", placeholder=fmt.clip(t(lc, "report.modal_placeholder"), 100))
        self.add_item(self.text)

    async def on_submit(self, interaction: discord.Interaction) -> None:
        await show_preview(interaction, self.cid, self.battle, load_report_text(self.text.value))

    async def on_error(self, interaction: discord.Interaction, error: Exception) -> None:
        await bot_of(interaction).report_error(interaction, error)


class Battle(commands.Cog):
    battle = app_commands.Group(name="battle", description="Battles: brief, scouting, reports, aftermath, retreats",
                                guild_only=True)

    def __init__(self, bot: commands.Bot) -> None:
        self.bot = bot

    @battle.command(name="list", description="This turn's battles and their state")
    async def list_(self, interaction: discord.Interaction) -> None:
        lc = lang(interaction)
        cid = await campaign_id(interaction)
        rows = await battles.list_battles(bot_of(interaction).db, cid, actor=actor_of(interaction))
        lines = [t(lc, "battle.line", number=b.number, square=b.square, sides=" v ".join(b.sides),
                   forces=", ".join(b.forces), state=b.state) for b in rows] or [t(lc, "battle.none")]
        await reply(interaction, embeds=fmt.paged_embeds(t(lc, "battle.list_title"), lines)[:1])

    @battle.command(name="brief", description="The battle brief for the tabletop (sides in the battle and the GM)")
    @app_commands.describe(battle="The battle's number")
    @app_commands.autocomplete(battle=battle_numbers)
    async def brief(self, interaction: discord.Interaction, battle: app_commands.Range[str, 1, 10]) -> None:
        bot = bot_of(interaction)
        cid = await campaign_id(interaction)
        b = await battles.brief(bot.db, cid, actor_of(interaction), battle, rules=bot.rules)
        embeds = publish.brief_embeds(b, lang(interaction))
        groups = fmt.batches(embeds)
        await reply(interaction, embeds=groups[0])
        for group in groups[1:]:
            await interaction.followup.send(embeds=group, ephemeral=True)

    @battle.command(name="scout", description="Phase 3: your side's exploration test for a battle (MC-6.1, RU-5)")
    @app_commands.describe(battle="The battle's number")
    @app_commands.autocomplete(battle=battle_numbers)
    async def scout(self, interaction: discord.Interaction, battle: app_commands.Range[str, 1, 10]) -> None:
        bot, lc = bot_of(interaction), lang(interaction)
        cid = await campaign_id(interaction)
        out = await battles.scout(bot.db, cid, actor_of(interaction), battle, rules=bot.rules)
        head = discord.Embed(title=t(lc, "scout.title", number=out.battle, score=out.score),
                             description="\n".join(tr_lines(lc, out.reasons)) or "-", colour=fmt.PRIVATE)
        embeds = [fmt.fit(head)] + [fmt.roll_embed(r, lc, private=True) for r in out.rolls]
        await reply(interaction, embeds=embeds[: fmt.EMBEDS_PER_MESSAGE])
        if out.complete:
            sv = await views.status(bot.db, cid, actor_of(interaction), rules=bot.rules)
            winner = next((n for k, n, _ in sv.sides if k == out.winner), None)
            m = await state.meta(bot.db, cid)
            text = t(m.language, "scout.winner", number=out.battle, side=winner) if winner \
                else t(m.language, "scout.tie", number=out.battle)
            embed = discord.Embed(description=text, colour=fmt.COLOUR)
            if not await publish.post_in_battle_thread(bot, cid, out.battle, embeds=[embed]):
                target = await publish.channel(bot, m.channel_id)
                if target is not None:
                    await target.send(embed=embed)

    @battle.command(name="report", description="GM: enter a battle's outcome and losses (a form or a YAML/JSON file)")
    @app_commands.describe(battle="The battle's number", file="The report as a YAML or JSON file (else a form opens)")
    @app_commands.autocomplete(battle=battle_numbers)
    async def report(self, interaction: discord.Interaction, battle: app_commands.Range[str, 1, 10],
                     file: discord.Attachment | None = None) -> None:
        bot, lc = bot_of(interaction), lang(interaction)
        cid = await campaign_id(interaction)
        await state.require_gm_of(bot.db, cid, actor_of(interaction))
        if file is None:
            await interaction.response.send_modal(ReportModal(cid, battle, lc))
            return
        if file.size > MAX_REPORT_BYTES:
            raise InvalidInput(t(lc, "upload.too_big", size=file.size, limit=MAX_REPORT_BYTES))
        await show_preview(interaction, cid, battle, load_report_text(await file.read()))

    @battle.command(name="aftermath", description="Phase 4: roll your side's wounded and deserter checks (MC-7.1, MC-7.2)")
    @app_commands.describe(battle="The battle's number")
    @app_commands.autocomplete(battle=battle_numbers)
    async def aftermath_(self, interaction: discord.Interaction, battle: app_commands.Range[str, 1, 10]) -> None:
        await roll_my_aftermath(interaction, await campaign_id(interaction), battle)

    @battle.command(name="retreat", description="Phase 4: the square a beaten or drawn Force retreats to (MC-7.3)")
    @app_commands.describe(battle="The battle's number", square="The square to retreat to",
                           force="Which of your Forces (if you have several in the battle)")
    @app_commands.autocomplete(battle=battle_numbers)
    async def retreat(self, interaction: discord.Interaction, battle: app_commands.Range[str, 1, 10],
                      square: app_commands.Range[str, 2, 8], force: app_commands.Range[str, 1, 100] | None = None) -> None:
        bot, actor, lc = bot_of(interaction), actor_of(interaction), lang(interaction)
        cid = await campaign_id(interaction)
        if force is None:
            mine = await self._own_in_battle(interaction, cid, battle)
            if len(mine) != 1:
                raise InvalidInput(t(lc, "retreat.which", forces=", ".join(mine) or "-"))
            force = mine[0]
        out = await aftermath.retreat(bot.db, cid, actor, battle, force, square)
        # Where a Force goes is for those who may see it: public only in the battle's private thread.
        await publish.answer_in_battle(interaction, cid, out.battle, embeds=[],
                                       content=t(lc, "retreat.done", force=out.force, square=out.square, number=out.battle))

    async def _own_in_battle(self, interaction: discord.Interaction, cid: int, battle: str) -> list[str]:
        bot = bot_of(interaction)
        rows = await battles.list_battles(bot.db, cid)
        line = next((b for b in rows if str(b.number) == battle.strip().lstrip("#")), None)
        if line is None:
            return []
        st = await views.status(bot.db, cid, actor_of(interaction), rules=bot.rules)
        return [f.name for f in st.forces if f.own and f.name in line.forces]

    @retreat.autocomplete("square")
    async def _retreat_squares(self, interaction: discord.Interaction, current: str) -> list[app_commands.Choice[str]]:
        try:
            cid = await campaign_id(interaction)
            rows = await battles.list_battles(bot_of(interaction).db, cid)
        except Exception:  # suggestions only
            return []
        chosen = str(getattr(interaction.namespace, "battle", "") or "").strip().lstrip("#")
        line = next((b for b in rows if str(b.number) == chosen), None)
        return choices(((sq, sq) for sq in neighbours(line.square)), current) if line else []

    @retreat.autocomplete("force")
    async def _retreat_forces(self, interaction: discord.Interaction, current: str) -> list[app_commands.Choice[str]]:
        try:
            cid = await campaign_id(interaction)
            names = await self._own_in_battle(interaction, cid, str(getattr(interaction.namespace, "battle", "") or ""))
        except Exception:  # suggestions only
            return []
        return choices(((n, n) for n in names), current)


async def setup(bot: commands.Bot) -> None:
    bot.add_dynamic_items(RollAftermath)
    await bot.add_cog(Battle(bot))
