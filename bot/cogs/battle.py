"""/battle list|brief|scout|report|aftermath|retreat: Phases 3 and 4 (MC-6, MC-7, BR)."""

from __future__ import annotations

import dataclasses
import io
import json
import re
from typing import Any

import discord
import yaml
from discord import app_commands
from discord.ext import commands

from bot import formatting as fmt
from bot.campaign import disputes
from bot.campaign.formdraft import SYSTEMS
from bot.campaign.formdraft import FormDraft as Typed
from bot.engine import uploads
from bot.engine.errors import EngineError, InvalidInput
from bot.engine.rolls import LABELS, BatchRoll, Roll, composed
from bot.engine.text import Msg
from bot.i18n import locale, names, t, versus
from bot.i18n.text import tr, tr_lines
from bot.services import aftermath, battles, cc, quick, views
from bot.services import bookkeeping as state
from bot.services.aftermath import AftermathOutcome

from . import _publish as publish
from ._common import (
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
        outcome = f"= **{record.total}** → {tr(lc, composed(record.label, LABELS))}"
    else:
        labels = dict(record.labels)
        outcome = "→ " + "; ".join(t(lc, "roll.tally", label=tr(lc, labels.get(r, r)), n=n) for r, n in record.counts)
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
    await publish.settle(bot, cid)


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


async def publish_report(bot: Any, cid: int, number: int, lines: tuple[str, ...]) -> None:
    """A reported battle's summary and its camps' Glory, in its thread (else the campaign's channel); then
    the phase settles (the last report ends Phase 3)."""
    await state.drop_form_drafts(bot.db, cid, number)  # resolved: the members' forms half entered go with it
    m = await state.meta(bot.db, cid)
    embeds = fmt.paged_embeds(t(m.language, "report.public_title", number=number), tr_lines(m.language, lines))
    line = next((b for b in await battles.list_battles(bot.db, cid) if b.number == number), None)
    glory = [f"**{names.said(m.language, g.name)}**: {g.balance}" for g in await cc.glory_balance(bot.db, cid)
             if line is None or g.name in line.sides]
    if glory:
        embeds.append(fmt.fit(discord.Embed(title=t(m.language, "report.glory_title"), description="\n".join(glory),
                                            colour=fmt.COLOUR)))
    if not await publish.post_in_battle_thread(bot, cid, number, embeds=embeds):
        target = await publish.channel(bot, m.channel_id)
        if target is not None:
            await publish.send_embeds(target, embeds)
    await publish.settle(bot, cid)


async def confirm_report(interaction: discord.Interaction, cid: int, battle: int, fingerprint: str) -> None:
    """The GM confirms the previewed report: the draft kept in the database, so the button works after a
    restart; a changed or applied report makes it say so (BR)."""
    bot, lc = bot_of(interaction), lang(interaction)
    summary = await aftermath.confirm_report(bot.db, cid, actor_of(interaction), battle, fingerprint)
    await interaction.response.edit_message(content=t(lc, "report.saved", number=summary.battle), embeds=[],
                                            view=None)
    await publish_report(bot, cid, summary.battle, summary.lines)


class ConfirmReport(discord.ui.DynamicItem[discord.ui.Button[Any]],
                    template=r"adc:rpc:(?P<cid>\d+):(?P<battle>\d+):(?P<fp>[0-9a-f]{16})"):
    """Confirm a previewed report; its state is the battle's draft in the database and its fingerprint."""

    def __init__(self, cid: int, battle: int, fingerprint: str, label: str = "Confirm the report") -> None:
        super().__init__(discord.ui.Button(label=label, style=discord.ButtonStyle.success,
                                           custom_id=f"adc:rpc:{cid}:{battle}:{fingerprint}"))
        self.cid, self.battle, self.fingerprint = cid, battle, fingerprint

    @classmethod
    async def from_custom_id(cls, interaction: discord.Interaction, item: discord.ui.Button[Any],
                             match: re.Match[str]) -> ConfirmReport:
        return cls(int(match["cid"]), int(match["battle"]), match["fp"], item.label or "Confirm the report")

    async def callback(self, interaction: discord.Interaction) -> None:
        await guarded(interaction, lambda: confirm_report(interaction, self.cid, self.battle, self.fingerprint))


class CancelReport(discord.ui.DynamicItem[discord.ui.Button[Any]], template=r"adc:rpx:(?P<cid>\d+):(?P<battle>\d+)"):
    """Close a report's preview; the draft stays (a reopened form shows it)."""

    def __init__(self, cid: int, battle: int, label: str = "Cancel") -> None:
        super().__init__(discord.ui.Button(label=label, style=discord.ButtonStyle.secondary,
                                           custom_id=f"adc:rpx:{cid}:{battle}"))

    @classmethod
    async def from_custom_id(cls, interaction: discord.Interaction, item: discord.ui.Button[Any],
                             match: re.Match[str]) -> CancelReport:
        return cls(int(match["cid"]), int(match["battle"]), item.label or "Cancel")

    async def callback(self, interaction: discord.Interaction) -> None:
        await interaction.response.edit_message(content=t(lang(interaction), "report.cancelled_keep"), embeds=[],
                                                view=None)


async def show_preview(interaction: discord.Interaction, cid: int, battle: str, data: Any) -> None:
    """The GM's report checked and kept as the battle's draft, with what it will do and a button to confirm."""
    bot, actor, lc = bot_of(interaction), actor_of(interaction), lang(interaction)
    draft = await aftermath.draft_report(bot.db, cid, actor, battle, data)
    embed = fmt.paged_embeds(t(lc, "report.preview_title", number=draft.battle), tr_lines(lc, draft.lines))[0]
    embed.set_footer(text=t(lc, "report.preview_footer"))
    view = dynamic_view(ConfirmReport(cid, draft.battle, draft.fingerprint, t(lc, "report.confirm")),
                        CancelReport(cid, draft.battle, t(lc, "confirm.cancel")))
    await reply(interaction, embeds=[fmt.fit(embed)], view=view)


class ReportModal(discord.ui.Modal):
    """The GM's whole report (BR) as YAML or JSON, prefilled with the battle's draft or its template."""

    def __init__(self, cid: int, battle: str, lc: str, prefill: str = "") -> None:
        super().__init__(title=fmt.clip(t(lc, "report.modal_title", number=battle), 45), timeout=900)
        self.cid, self.battle = cid, battle
        self.text: discord.ui.TextInput[Any] = discord.ui.TextInput(
            label=fmt.clip(t(lc, "report.modal_label"), 45), style=discord.TextStyle.paragraph,
            max_length=MODAL_TEXT, custom_id="report", placeholder=fmt.clip(t(lc, "report.modal_placeholder"), 100),
            default=prefill if 0 < len(prefill) <= MODAL_TEXT else None)
        self.add_item(self.text)

    async def on_submit(self, interaction: discord.Interaction) -> None:
        await show_preview(interaction, self.cid, self.battle, load_report_text(self.text.value))

    async def on_error(self, interaction: discord.Interaction, error: Exception) -> None:
        await bot_of(interaction).report_error(interaction, error)


SELECT_OPTIONS = 25
"""Discord's limit on a select's options: past it, the form's last box is typed (in the reader's words)."""


def form_words(lc: str) -> aftermath.FormWords:
    """The words a member may type in the report form, in their language with the glossary's synonyms
    (each catalogue entry a comma-separated list, the first the one shown); English is understood too."""
    def said(key: str) -> tuple[str, ...]:
        return tuple(w.strip().casefold() for w in t(lc, key).split(",") if w.strip())

    return aftermath.FormWords(said("report.word_melee"), said("report.word_other"), said("report.word_by"),
                               said("report.word_ordered"), said("report.word_took_ground"))


class CampReportModal(discord.ui.Modal):
    """A side's own part of the report (BR) on a phone: outcome and system to pick, banners, fallen leaders
    and melee eliminations; its losses follow in number boxes (:class:`LossesModal`); prefilled with the
    side's stored report, so a reopened form keeps what was entered."""

    def __init__(self, cid: int, form: aftermath.Form, lc: str, typed: Typed | None = None) -> None:
        super().__init__(title=fmt.clip(t(lc, "report.form_title", number=form.battle, side=form.side_name), 45),
                         timeout=1800)
        self.cid, self.form, self.lc, self.typed = cid, form, lc, typed
        doc = form.doc or {}
        outcome = typed.outcome if typed else form.part.get("outcome")
        self.outcome: discord.ui.Select[Any] = discord.ui.Select(custom_id="outcome", options=[
            discord.SelectOption(label=t(lc, f"report.{o}"), value=o, default=o == outcome)
            for o in ("won", "lost", "draw")])
        system = typed.system if typed else doc.get("system", "cc")
        self.system: discord.ui.Select[Any] = discord.ui.Select(custom_id="system", options=[
            discord.SelectOption(label=t(lc, f"report.system_{s}"), value=s, default=s == system) for s in SYSTEMS])
        self.banners: discord.ui.TextInput[Any] = discord.ui.TextInput(
            custom_id="banners", required=False, max_length=9, placeholder="4/7",
            default=(typed.banners if typed else form.banners_text()) or None)
        # the last box: a select of how each leader fell and who took whom in melee (issue 23, item 2), or,
        # past Discord's 25 options, a box typed in the reader's words
        offered = form.choices()
        self.pick: discord.ui.Select[Any] | None = None
        self.more: discord.ui.TextInput[Any] | None = None
        if 0 < len(offered) <= SELECT_OPTIONS:
            chosen = set(typed.chosen if typed and typed.chosen is not None else form.chosen())
            self.pick = discord.ui.Select(custom_id="more", required=False, min_values=0, max_values=len(offered),
                                          placeholder=fmt.clip(t(lc, "report.form_more_pick"), 150), options=[
                discord.SelectOption(label=fmt.clip(tr(lc, label), 100), value=value, default=value in chosen)
                for value, label in offered])
        elif offered:
            self.more = discord.ui.TextInput(
                custom_id="more", style=discord.TextStyle.paragraph, required=False, max_length=1000,
                default=fmt.clip(typed.more if typed else form.more_text(form_words(lc)), 1000) or None)
        self.add_item(discord.ui.Label(text=t(lc, "report.form_outcome"), component=self.outcome))
        self.add_item(discord.ui.Label(text=t(lc, "report.form_system"), component=self.system))
        self.add_item(discord.ui.Label(text=fmt.clip(t(lc, "report.form_banners"), 45), component=self.banners,
                                       description=fmt.clip(t(lc, "report.form_banners_help"), 100)))
        if self.pick is not None:
            self.add_item(discord.ui.Label(text=fmt.clip(t(lc, "report.form_more"), 45), component=self.pick,
                                           description=fmt.clip(t(lc, "report.form_more_pick_help"), 100)))
        elif self.more is not None:
            self.add_item(discord.ui.Label(text=fmt.clip(t(lc, "report.form_more"), 45), component=self.more,
                                           description=fmt.clip(t(lc, "report.form_more_help"), 100)))

    async def on_submit(self, interaction: discord.Interaction) -> None:
        typed = Typed(self.outcome.values[0], self.system.values[0], self.banners.value,
                      self.more.value if self.more is not None else "",
                      tuple(self.pick.values) if self.pick is not None else None,
                      self.typed.counts if self.typed else {})
        if loss_pages(self.form):  # the losses follow, in number boxes (issue 23, item 1)
            try:  # this page's own boxes checked now, not after the losses' pages
                aftermath.part_from_form(self.form, outcome=typed.outcome, system=typed.system, banners=typed.banners,
                                         counts={}, more=typed.more, chosen=typed.chosen, words=form_words(self.lc))
            except EngineError as exc:
                await state.keep_form_draft(bot_of(interaction).db, self.cid, self.form.battle, interaction.user.id,
                                            typed)
                await bot_of(interaction).report_error(interaction, exc, view=reopen_view(self.cid, self.form, self.lc,
                                                                                          typed))
                return
            await next_page(interaction, self.cid, self.form, self.lc, typed, 0)
        else:
            await finish_form(interaction, self.cid, self.form, self.lc, typed)

    async def on_error(self, interaction: discord.Interaction, error: Exception) -> None:
        await bot_of(interaction).report_error(interaction, error)


LOSS_BOXES = 5
"""A modal's top-level components: a page of the losses holds five number boxes."""


def loss_boxes(form: aftermath.Form) -> list[tuple[aftermath.FormUnit, str, Any]]:
    """Every number box of the losses (BR): per unit, its SP killed, in rout and under another order."""
    return [(u, kind, what) for u in form.units for kind, what in aftermath.LOSS_KINDS]


def loss_pages(form: aftermath.Form) -> int:
    return -(-len(loss_boxes(form)) // LOSS_BOXES)


class LossesModal(discord.ui.Modal):
    """A page of a side's losses (BR; issue 23, item 1): per unit a select of 0 to its SP for each count
    (a short box for a number past Discord's 25 options), its name and the box's named; prefilled with
    what was entered or stored."""

    def __init__(self, cid: int, form: aftermath.Form, lc: str, typed: Typed, page: int) -> None:
        super().__init__(title=fmt.clip(t(lc, "report.losses_title", number=form.battle, page=page + 1,
                                          pages=loss_pages(form)), 45), timeout=1800)
        self.cid, self.form, self.lc, self.typed, self.page = cid, form, lc, typed, page
        self.boxes: dict[str, tuple[str, str, discord.ui.Select[Any] | discord.ui.TextInput[Any]]] = {}
        for unit, kind, what in loss_boxes(form)[page * LOSS_BOXES:(page + 1) * LOSS_BOXES]:
            box_id = f"{unit.key}:{kind}"
            current = typed.counts.get(unit.key, {}).get(kind, str(form.count(unit.key, kind)))
            box: discord.ui.Select[Any] | discord.ui.TextInput[Any]
            if unit.sp + 1 <= SELECT_OPTIONS:
                box = discord.ui.Select(custom_id=box_id, options=[
                    discord.SelectOption(label=str(n), value=str(n), default=str(n) == current.strip())
                    for n in range(unit.sp + 1)])
            else:
                box = discord.ui.TextInput(custom_id=box_id, required=False, max_length=6,
                                           placeholder=f"0-{unit.sp}", default=current or None)
            self.boxes[box_id] = (unit.key, kind, box)
            self.add_item(discord.ui.Label(text=fmt.clip(unit.name, 45), component=box,
                                           description=fmt.clip(t(lc, "report.loss_box", what=tr(lc, what),
                                                                  sp=unit.sp), 100)))

    async def on_submit(self, interaction: discord.Interaction) -> None:
        counts = {k: dict(v) for k, v in self.typed.counts.items()}
        for key, kind, box in self.boxes.values():
            value = (box.values[0] if box.values else "0") if isinstance(box, discord.ui.Select) else box.value
            counts.setdefault(key, {})[kind] = value
        typed = dataclasses.replace(self.typed, counts=counts)
        if self.page + 1 < loss_pages(self.form):
            await next_page(interaction, self.cid, self.form, self.lc, typed, self.page + 1)
        else:
            await finish_form(interaction, self.cid, self.form, self.lc, typed)

    async def on_error(self, interaction: discord.Interaction, error: Exception) -> None:
        await bot_of(interaction).report_error(interaction, error)


async def next_page(interaction: discord.Interaction, cid: int, form: aftermath.Form, lc: str, typed: Typed,
                    page: int) -> None:
    """Between two pages of the form (a modal cannot open another): what was entered so far kept in the
    campaign's book (nothing lost on restart, issue 23 item 2), and a button that opens the next page."""
    await state.keep_form_draft(bot_of(interaction).db, cid, form.battle, interaction.user.id, typed)
    pages = loss_pages(form)
    view = dynamic_view(NextLossPage(cid, form.battle, page, fmt.clip(t(lc, "report.losses_button", page=page + 1,
                                                                          pages=pages), 80)))
    await reply(interaction, content=t(lc, "report.losses_next", page=page + 1, pages=pages), view=view)


class NextLossPage(discord.ui.DynamicItem[discord.ui.Button[Any]],
                   template=r"adc:rpn:(?P<cid>\d+):(?P<battle>\d+):(?P<page>\d{1,3})"):
    """Open a page of a member's losses, prefilled from their draft in the campaign's book (works after a
    restart); with no draft left (submitted, or the battle resolved), the form's first page from their
    stored claim."""

    def __init__(self, cid: int, battle: int, page: int, label: str = "Enter the losses") -> None:
        super().__init__(discord.ui.Button(label=label, style=discord.ButtonStyle.primary,
                                           custom_id=f"adc:rpn:{cid}:{battle}:{page}"))
        self.cid, self.battle, self.page = cid, battle, page

    @classmethod
    async def from_custom_id(cls, interaction: discord.Interaction, item: discord.ui.Button[Any],
                             match: re.Match[str]) -> NextLossPage:
        return cls(int(match["cid"]), int(match["battle"]), int(match["page"]), item.label or "Enter the losses")

    async def callback(self, interaction: discord.Interaction) -> None:
        async def work() -> None:
            bot, lc = bot_of(interaction), lang(interaction)
            form = await aftermath.report_form(bot.db, self.cid, actor_of(interaction), self.battle)
            typed = await state.form_draft(bot.db, self.cid, form.battle, interaction.user.id)
            if typed is None or self.page >= loss_pages(form):
                await interaction.response.send_modal(CampReportModal(self.cid, form, lc, typed))
                return
            await interaction.response.send_modal(LossesModal(self.cid, form, lc, typed, self.page))

        await guarded(interaction, work)


async def finish_form(interaction: discord.Interaction, cid: int, form: aftermath.Form, lc: str,
                      typed: Typed) -> None:
    """The whole form entered: the side's report recorded (its draft dropped), or refused with the form to
    reopen (its draft kept)."""
    try:
        data = aftermath.part_from_form(form, outcome=typed.outcome, system=typed.system, banners=typed.banners,
                                        counts=typed.counts, more=typed.more, chosen=typed.chosen,
                                        words=form_words(lc))
        await record_claim(interaction, cid, str(form.battle), data)
    except EngineError as exc:  # refused: the form reopens with what the member entered (issue 22, item 4)
        await state.keep_form_draft(bot_of(interaction).db, cid, form.battle, interaction.user.id, typed)
        await bot_of(interaction).report_error(interaction, exc, view=reopen_view(cid, form, lc, typed))
        return
    await state.drop_form_drafts(bot_of(interaction).db, cid, form.battle, interaction.user.id)


FIRST_PAGE = 999
"""The page number a form's reopening button carries: its first page (past any page of losses)."""


def reopen_view(cid: int, form: aftermath.Form, lc: str, typed: Typed) -> discord.ui.View:
    """Under a refused form's refusal: reopen it with the member's own entries (their draft, kept in the
    campaign's book: the button works after a restart)."""
    return dynamic_view(NextLossPage(cid, form.battle, FIRST_PAGE, t(lc, "report.reopen")))


async def record_claim(interaction: discord.Interaction, cid: int, battle: str, data: Any) -> None:
    """A side's report (BR): recorded for its camp and the GM; once every camp has reported, applied if
    they agree, else the GM is asked with the differences (fog of war: to the GM alone)."""
    bot, lc = bot_of(interaction), lang(interaction)
    out = await aftermath.claim_report(bot.db, cid, actor_of(interaction), battle, data)
    if out.applied is not None:
        await reply(interaction, content=t(lc, "report.claim_applied", number=out.battle))
        await publish_report(bot, cid, out.battle, out.applied)
    elif out.differences:
        await reply(interaction, content=t(lc, "report.claim_disputed", number=out.battle))
        await ask_gm(bot, cid, out.battle, out.differences)
    else:
        await reply(interaction, content=t(lc, "report.claim_waiting", number=out.battle,
                                           sides=", ".join(out.waiting_for)))


async def ask_gm(bot: Any, cid: int, number: int, differences: tuple[str, ...]) -> None:
    """The camps' reports differ: the GM is told every differing field by name, with a button per camp's
    account of each and one to open the merged report, in a direct message (the camps' claims are theirs
    and the GM's until the report is applied), and mentioned in the battle's thread."""
    m = await state.meta(bot.db, cid)
    gm = f"<@{m.gm_id}>"
    found = await aftermath.dispute(bot.db, cid, m.gm, number)
    try:
        user = bot.get_user(m.gm_id) or await bot.fetch_user(m.gm_id)
        embed, view = dispute_parts(cid, found, m.language)
        await user.send(content=t(m.language, "report.gm_asked", gm=gm, number=number), embed=embed, view=view)
    except discord.HTTPException:
        pass  # DMs closed: the thread's mention still calls the GM
    await publish.post_in_battle_thread(bot, cid, number, embeds=[], private_only=True,
                                        content=t(m.language, "report.gm_asked_thread", gm=gm, number=number))


def dispute_parts(cid: int, found: disputes.Dispute, lc: str, *, problem: str | None = None
                  ) -> tuple[discord.Embed, discord.ui.View]:
    """The GM's view of a dispute: each differing field by name with every camp's account, a row of "take
    X's" buttons per field (the one taken marked), what no choice settles, and the merged report's form."""
    embed = discord.Embed(title=t(lc, "dispute.title", number=found.battle), colour=fmt.PRIVATE)
    names = {c.camp: c.name for f in found.fields for c in f.claims}
    for i, f in enumerate(found.fields[:MAX_FIELD_ROWS]):
        said = "\n".join(("✅ " if c.camp == f.taken else "• ") + tr(lc, Msg("{camp}: {value}", camp=c.name,
                                                                            value=c.value)) for c in f.claims)
        embed.add_field(name=fmt.clip(f"{i + 1}. {tr(lc, f.title)}", 256), value=fmt.clip(said, 1024), inline=False)
    notes = list(tr_lines(lc, found.notes)) + ([tr(lc, problem)] if problem else [])
    if len(found.fields) > MAX_FIELD_ROWS:
        notes.append(t(lc, "dispute.more", n=len(found.fields) - MAX_FIELD_ROWS))
    embed.description = fmt.clip("\n".join([t(lc, "dispute.how"), *notes]), 4000)
    items: list[discord.ui.Item[Any]] = []
    for i, f in enumerate(found.fields[:MAX_FIELD_ROWS]):
        for c in f.claims:
            at = found.camps.index(c.camp)
            items.append(TakeClaim(cid, found.battle, i, at, found.fingerprint,
                                   f"{i + 1}. " + t(lc, "dispute.take", side=names.get(c.camp, c.camp)),
                                   taken=f.taken == c.camp, row=i))
    items.append(OpenMerged(cid, found.battle, t(lc, "dispute.form"), row=min(len(found.fields), MAX_FIELD_ROWS)))
    return fmt.fit(embed), dynamic_view(*items)


MAX_FIELD_ROWS = 4
"""A message holds five rows of buttons: one per field, and the merged report's form."""


async def take_claim(interaction: discord.Interaction, cid: int, battle: int, index: int, camp_at: int,
                     fingerprint: str) -> None:
    """The GM takes a camp's account of a field: the message shows the choice; after the last one, the
    merged report's summary with "Confirm the report" (or why it does not hold, and the form)."""
    bot, lc = bot_of(interaction), lang(interaction)
    out = await aftermath.take_claim(bot.db, cid, actor_of(interaction), battle, index, camp_at, fingerprint)
    if out.draft is not None:
        embed = fmt.paged_embeds(t(lc, "report.preview_title", number=battle), tr_lines(lc, out.lines))[0]
        embed.set_footer(text=t(lc, "report.preview_footer"))
        view = dynamic_view(ConfirmReport(cid, battle, out.draft, t(lc, "report.confirm")),
                            OpenMerged(cid, battle, t(lc, "dispute.form")))
        await interaction.response.edit_message(embeds=[fmt.fit(embed)], view=view)
        return
    embed, view = dispute_parts(cid, out.dispute, lc, problem=out.problem)
    await interaction.response.edit_message(embed=embed, view=view)


class TakeClaim(discord.ui.DynamicItem[discord.ui.Button[Any]],
                template=r"adc:take:(?P<cid>\d+):(?P<battle>\d+):(?P<field>\d+):(?P<camp>\d+):(?P<fp>[0-9a-f]{16})"):
    """The GM takes one camp's account of one disputed field (BR); the claims' fingerprint makes it expire
    when a camp changes its report. Works across restarts."""

    def __init__(self, cid: int, battle: int, index: int, camp_at: int, fingerprint: str, label: str = "Take",
                 *, taken: bool = False, row: int | None = None) -> None:
        super().__init__(discord.ui.Button(
            label=fmt.clip(label, 80), row=row,
            style=discord.ButtonStyle.success if taken else discord.ButtonStyle.secondary,
            custom_id=f"adc:take:{cid}:{battle}:{index}:{camp_at}:{fingerprint}"))
        self.cid, self.battle, self.index, self.camp_at, self.fingerprint = cid, battle, index, camp_at, fingerprint

    @classmethod
    async def from_custom_id(cls, interaction: discord.Interaction, item: discord.ui.Button[Any],
                             match: re.Match[str]) -> TakeClaim:
        return cls(int(match["cid"]), int(match["battle"]), int(match["field"]), int(match["camp"]), match["fp"],
                   item.label or "Take")

    async def callback(self, interaction: discord.Interaction) -> None:
        await guarded(interaction, lambda: take_claim(interaction, self.cid, self.battle, self.index, self.camp_at,
                                                      self.fingerprint))


class OpenMerged(discord.ui.DynamicItem[discord.ui.Button[Any]], template=r"adc:rpm:(?P<cid>\d+):(?P<battle>\d+)"):
    """The GM's report form, prefilled with the camps' claims merged (the choices taken so far; sides in the
    scenario's order), from the dispute's message, a direct message included."""

    def __init__(self, cid: int, battle: int, label: str = "Open the merged report", *, row: int | None = None) -> None:
        super().__init__(discord.ui.Button(label=label, style=discord.ButtonStyle.primary, emoji="📝", row=row,
                                           custom_id=f"adc:rpm:{cid}:{battle}"))
        self.cid, self.battle = cid, battle

    @classmethod
    async def from_custom_id(cls, interaction: discord.Interaction, item: discord.ui.Button[Any],
                             match: re.Match[str]) -> OpenMerged:
        return cls(int(match["cid"]), int(match["battle"]), item.label or "Open the merged report")

    async def callback(self, interaction: discord.Interaction) -> None:
        async def work() -> None:
            bot, lc = bot_of(interaction), lang(interaction)
            _, prefill = await aftermath.report_template(bot.db, self.cid, actor_of(interaction), self.battle)
            await interaction.response.send_modal(ReportModal(self.cid, str(self.battle), lc, prefill))

        await guarded(interaction, work)


async def resolve_quickly(interaction: discord.Interaction, cid: int, battle: int) -> None:
    """RU-27, ``battles: ask``: the member's camp agrees to resolve the battle quickly, or the GM decides; once
    resolved, its report is published as a table battle's."""
    bot, lc = bot_of(interaction), lang(interaction)
    out = await quick.resolve_quickly(bot.db, cid, actor_of(interaction), str(battle), rules=bot.rules)
    if out.applied is None:
        await reply(interaction, content=t(lc, "quick.agreed", number=out.battle, camps=", ".join(out.waiting_for)))
        return
    await reply(interaction, content=t(lc, "quick.resolved", number=out.battle))
    await publish_report(bot, cid, out.battle, out.applied)


class ResolveQuickly(discord.ui.DynamicItem[discord.ui.Button[Any]],
                     template=r"adc:quick:(?P<cid>\d+):(?P<battle>\d+)"):
    """A battle's thread (``battles: ask``): resolve it quickly (RU-27)."""

    def __init__(self, cid: int, battle: int, label: str = "Resolve quickly") -> None:
        super().__init__(discord.ui.Button(label=label, style=discord.ButtonStyle.primary, emoji="⚡",
                                           custom_id=f"adc:quick:{cid}:{battle}"))
        self.cid, self.battle = cid, battle

    @classmethod
    async def from_custom_id(cls, interaction: discord.Interaction, item: discord.ui.Button[Any],
                             match: re.Match[str]) -> ResolveQuickly:
        return cls(int(match["cid"]), int(match["battle"]), item.label or "Resolve quickly")

    async def callback(self, interaction: discord.Interaction) -> None:
        await guarded(interaction, lambda: resolve_quickly(interaction, self.cid, self.battle))


def quick_view(cid: int, battle: int, lc: str) -> discord.ui.View:
    return dynamic_view(ResolveQuickly(cid, battle, t(lc, "quick.button")))


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
        lines = [t(lc, "battle.line", number=b.number, square=b.square, sides=versus(lc, b.sides),
                   forces=locale.listing(lc, b.forces), state=t(lc, f"battle.state_{b.state}")) for b in rows] or [t(lc, "battle.none")]
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

    @battle.command(name="report",
                    description="Enter a battle's result (BR): players their side's part, the GM the whole report")
    @app_commands.describe(battle="The battle's number", file="The report as a YAML or JSON file (else a form opens)",
                           template="Download the report to fill in, with your units' keys and names")
    @app_commands.autocomplete(battle=battle_numbers)
    async def report(self, interaction: discord.Interaction, battle: app_commands.Range[str, 1, 10],
                     file: discord.Attachment | None = None, template: bool = False) -> None:
        bot, actor, lc = bot_of(interaction), actor_of(interaction), lang(interaction)
        cid = await campaign_id(interaction)
        await aftermath.require_reporter(bot.db, cid, actor)  # the GM and the players (BR)
        data = None
        if file is not None:
            if file.size > MAX_REPORT_BYTES:
                raise InvalidInput(t(lc, "upload.too_big", size=file.size, limit=MAX_REPORT_BYTES))
            data = load_report_text(await file.read())
        _, side, _ = await aftermath.stored_report(bot.db, cid, actor, battle)  # refuses those not in it
        if template:
            number, text = await aftermath.report_template(bot.db, cid, actor, battle)
            await reply(interaction, content=t(lc, "report.template", number=number),
                        files=[discord.File(io.BytesIO(text.encode()), filename=f"battle-{number}-report.yaml")])
            return
        if file is not None:
            if side is None:
                await show_preview(interaction, cid, battle, data)
            else:
                await record_claim(interaction, cid, battle, data)
            return
        if side is not None:
            form = await aftermath.report_form(bot.db, cid, actor, battle)
            typed = await state.form_draft(bot.db, cid, form.battle, actor.member_id)  # kept across restarts
            await interaction.response.send_modal(CampReportModal(cid, form, lc, typed))
            return
        _, prefill = await aftermath.report_template(bot.db, cid, actor, battle)
        await interaction.response.send_modal(ReportModal(cid, battle, lc, prefill))

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
        await publish.settle(bot, cid)

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
    bot.add_dynamic_items(RollAftermath, ConfirmReport, CancelReport, TakeClaim, OpenMerged, ResolveQuickly,
                          NextLossPage)
    publish.PROMPT_VIEWS[publish.What.AFTERMATH_PROMPT] = aftermath_view
    publish.PROMPT_VIEWS[publish.What.BATTLE_THREAD] = quick_view  # RU-27: "Resolve quickly" (battles: ask)
    await bot.add_cog(Battle(bot))
