"""``/campaign settings`` in pages (issue 22, item 7): the turn flow, the rule options (RU-22) and the
bot's limits, each a short page a phone shows whole, with a select to turn the page and one to change a
setting of it; a setting with a closed set of values then offers them in a select. Every list of
choices comes from the code (the rules' options, the bot settings' choices, the languages), never typed
out here. The text command (``name`` and ``value``) still changes any setting, channels and roles
included. Only the GM changes a setting: the services refuse anybody else."""

from __future__ import annotations

import re
from collections.abc import Mapping
from enum import StrEnum
from typing import Any

import discord

from bot import formatting as fmt
from bot import limits
from bot.campaign import botsettings
from bot.engine.text import Msg
from bot.i18n import t
from bot.i18n.text import tr
from bot.services import bookkeeping as state
from bot.services import campaigns

from ._common import actor_of, bot_of, dynamic_view, guarded, lang, reply


class Page(StrEnum):
    FLOW = "flow"
    """The turn flow: deadlines, auto-resolve, absences, joining, language, GM role, side channels."""
    RULES = "rules"
    """The rule options (RU-22)."""
    LIMITS = "limits"
    """The bot's limits, read-only (set by the host)."""


FLOW_EXTRA = ("language", "gm_role")
SELECT_OPTIONS = 25
"""Discord's limit on a select's options."""


def show(value: Any) -> str:
    return str(value).lower() if isinstance(value, bool) else str(value)


def said_value(lc: str, value: Any) -> str:
    """A setting's value in the reader's words (``on``, ``all checked``); numbers, languages, mentions as
    they are (issue 23: no identifier shown as code)."""
    return tr(lc, botsettings.value_name(value))


def said_name(lc: str, name: str, sides: dict[str, str] | None = None) -> str:
    """A setting's name in the reader's words (``Deadline (hours)``, not ``deadline_hours``)."""
    side = name[len(state.SIDE_CHANNEL):] if name.startswith(state.SIDE_CHANNEL) else None
    return tr(lc, botsettings.setting_name(name, (sides or {}).get(side or "", side)))


def _typed(lc: str, typed: str, names: Mapping[str, Msg]) -> str:
    """The identifier among ``names`` that a member typed, by itself or by its name in their words (or English)."""
    wanted = typed.strip().casefold()
    for key, said in names.items():
        if wanted in (tr(lc, said).casefold(), said.casefold()):
            return key
    return typed.strip()


def typed_name(lc: str, typed: str) -> str:
    """The setting a member typed, by its identifier or by its name in their words (or English)."""
    return _typed(lc, typed, botsettings.SETTING_NAMES)


def typed_value(lc: str, typed: str) -> str:
    """A value a member typed, by its identifier or in their words (or English)."""
    return _typed(lc, typed, botsettings.VALUE_NAMES)


def page_of(bot: Any, name: str) -> Page | None:
    """The page a setting is shown on (None: no such setting)."""
    if name in bot.rules.mc.options:
        return Page.RULES
    if name in state.BOT_DEFAULTS or name in FLOW_EXTRA or name.startswith(state.SIDE_CHANNEL):
        return Page.FLOW
    if name in limits.NAMES:
        return Page.LIMITS
    return None


def values_of(bot: Any, name: str) -> tuple[str, ...]:
    """The values a setting takes from a select (empty: typed, like a channel or a role)."""
    specs = bot.rules.mc.options
    if name in specs:
        return tuple(show(c) for c in specs[name].choices)
    if name in state.BOT_CHOICES:
        return tuple(show(c) for c in state.BOT_CHOICES[name])
    if name == state.DEADLINE_HOURS:
        return tuple(str(h) for h in state.DEADLINE_HOURS_SUGGESTED)
    if name == "language":
        return tuple(state.LANGUAGES)
    return ()


def lines(bot: Any, m: state.Meta, lc: str, page: Page, *, only: str | None = None,
          used: campaigns.Usage | None = None, requests: list[tuple[Any, str]] | None = None) -> list[str]:
    """The page's settings, one a line: its name, current value, what it does and its choices."""
    out: list[str] = []
    if page is Page.RULES:
        for key, spec in bot.rules.mc.options.items():
            if only and key != only:
                continue
            current = m.rule_options.get(key, spec.default)
            out.append(f"{said_name(lc, key)} = **{said_value(lc, current)}** ({spec.rule}): {tr(lc, spec.help)}. "
                       + t(lc, "settings.choices", choices=", ".join(said_value(lc, v) for v in values_of(bot, key))))
    elif page is Page.FLOW:
        for key in state.BOT_DEFAULTS:
            if only and key != only:
                continue
            out.append(f"{said_name(lc, key)} = **{said_value(lc, m.setting(key))}**: {t(lc, f'settings.help_{key}')} "
                       + t(lc, "settings.choices", choices=", ".join(said_value(lc, v) for v in values_of(bot, key))))
        if requests and (not only or only == state.JOIN_APPROVAL):  # waiting for the GM's answer
            out.append(t(lc, "settings.requests", requests=", ".join(f"<@{r.member}> → {side}" for r, side in requests)))
        if not only or only == "language":
            out.append(f"{said_name(lc, 'language')} = **{m.language}**: "
                       f"{t(lc, 'settings.help_language', languages=', '.join(state.LANGUAGES))}")
        if not only or only == "gm_role":
            role = f"<@&{m.gm_role_id}>" if m.gm_role_id else said_value(lc, "none")
            out.append(f"{said_name(lc, 'gm_role')} = **{role}**: {t(lc, 'settings.help_gm_role')}")
        if not only or only.startswith(state.SIDE_CHANNEL):
            out.append(f"{tr(lc, botsettings.ANY_SIDE_CHANNEL)}: {t(lc, 'settings.help_channel')}")
    else:
        now = {"max_active_campaigns": used and used.active_in_server, "max_gm_campaigns": used and used.gm_active,
               "max_new_campaigns_per_day": used and used.new_today}
        for key, limit in bot.settings.limits.items():
            if only and key != only:
                continue
            shown_limit = limits.size_text(limit) if key.endswith("_bytes") else str(limit)
            out.append(f"{said_name(lc, key)} = **{shown_limit}** ({t(lc, 'settings.read_only_mark')}): "
                       + t(lc, f"settings.help_{key}", now=now.get(key) or 0))
    return out


def embed(bot: Any, m: state.Meta, lc: str, page: Page, **kwargs: Any) -> discord.Embed:
    title = f"{t(lc, 'settings.title', name=m.name)} · {t(lc, f'settings.page_{page.value}')}"
    return fmt.paged_embeds(title, lines(bot, m, lc, page, **kwargs) or [t(lc, "settings.page_empty")])[0]


def view(bot: Any, cid: int, lc: str, page: Page) -> discord.ui.View:
    """The page's selects: turn the page; change one of its settings (none on the read-only limits)."""
    items: list[discord.ui.Item[Any]] = [PageSelect(cid, lc, page)]
    names = [*bot.rules.mc.options] if page is Page.RULES else [
        *(k for k in state.BOT_DEFAULTS), "language"] if page is Page.FLOW else []
    if names:
        items.append(SettingSelect(cid, page, lc, names[:SELECT_OPTIONS]))
    return dynamic_view(*items)


async def show_page(interaction: discord.Interaction, cid: int, page: Page, *, edit: bool = False) -> None:
    bot, lc = bot_of(interaction), lang(interaction)
    m = await state.require_gm_of(bot.db, cid, actor_of(interaction))
    used = await campaigns.usage(bot.db, guild_id=m.guild_id, member_id=actor_of(interaction).member_id) \
        if page is Page.LIMITS else None
    requests = await campaigns.join_requests(bot.db, cid) if page is Page.FLOW else None
    shown, buttons = embed(bot, m, lc, page, used=used, requests=requests), view(bot, cid, lc, page)
    if edit:
        await interaction.response.edit_message(embed=shown, view=buttons)
    else:
        await reply(interaction, embeds=[shown], view=buttons)


class PageSelect(discord.ui.DynamicItem[discord.ui.Select[Any]], template=r"adc:setp:(?P<cid>\d+)"):
    """Turn the settings' page."""

    def __init__(self, cid: int, lc: str = "en", page: Page = Page.FLOW) -> None:
        options = [discord.SelectOption(label=t(lc, f"settings.page_{p.value}"), value=p.value, default=p is page)
                   for p in Page]
        super().__init__(discord.ui.Select(custom_id=f"adc:setp:{cid}", options=options))
        self.cid = cid

    @classmethod
    async def from_custom_id(cls, interaction: discord.Interaction, item: discord.ui.Select[Any],
                             match: re.Match[str]) -> PageSelect:
        return cls(int(match["cid"]))

    async def callback(self, interaction: discord.Interaction) -> None:
        await guarded(interaction, lambda: show_page(interaction, self.cid, Page(self.item.values[0]), edit=True))


class SettingSelect(discord.ui.DynamicItem[discord.ui.Select[Any]],
                    template=r"adc:setk:(?P<cid>\d+):(?P<page>[a-z]+)"):
    """Pick a setting of the page to change: its values follow in a select of their own."""

    def __init__(self, cid: int, page: Page, lc: str = "en", names: list[str] | None = None) -> None:
        options = [discord.SelectOption(label=said_name(lc, n)[:100], value=n) for n in (names or ["-"])]
        super().__init__(discord.ui.Select(custom_id=f"adc:setk:{cid}:{page.value}", options=options,
                                           placeholder=t(lc, "settings.pick")))
        self.cid, self.page = cid, page

    @classmethod
    async def from_custom_id(cls, interaction: discord.Interaction, item: discord.ui.Select[Any],
                             match: re.Match[str]) -> SettingSelect:
        return cls(int(match["cid"]), Page(match["page"]))

    async def callback(self, interaction: discord.Interaction) -> None:
        async def work() -> None:
            bot, lc = bot_of(interaction), lang(interaction)
            name = self.item.values[0]
            m = await state.require_gm_of(bot.db, self.cid, actor_of(interaction))
            values = values_of(bot, name)
            about = "\n".join(lines(bot, m, lc, self.page, only=name))
            await reply(interaction, content=about, view=dynamic_view(ValueSelect(self.cid, name, lc, list(values))))

        await guarded(interaction, work)


class ValueSelect(discord.ui.DynamicItem[discord.ui.Select[Any]],
                  template=r"adc:setv:(?P<cid>\d+):(?P<name>[a-z_]+)"):
    """Choose the setting's new value: changed as ``/campaign settings name value`` would, and said in the
    channel."""

    def __init__(self, cid: int, name: str, lc: str = "en", values: list[str] | None = None) -> None:
        options = [discord.SelectOption(label=said_value(lc, v)[:100], value=v)
                   for v in (values or ["-"])[:SELECT_OPTIONS]]
        super().__init__(discord.ui.Select(custom_id=f"adc:setv:{cid}:{name}", options=options,
                                           placeholder=t(lc, "settings.pick_value", name=said_name(lc, name))[:150]))
        self.cid, self.name = cid, name

    @classmethod
    async def from_custom_id(cls, interaction: discord.Interaction, item: discord.ui.Select[Any],
                             match: re.Match[str]) -> ValueSelect:
        return cls(int(match["cid"]), match["name"])

    async def callback(self, interaction: discord.Interaction) -> None:
        async def work() -> None:
            shown = await change(interaction, self.cid, self.name, self.item.values[0])
            lc = lang(interaction)
            await reply(interaction, content=t(lc, "settings.changed", name=said_name(lc, self.name),
                                               value=said_value(lc, shown)), ephemeral=False)

        await guarded(interaction, work)


async def change(interaction: discord.Interaction, cid: int, name: str, value: str) -> Any:
    """Change one setting (a rule option, or one of the bot's) as the GM chose it; the value as it stands."""
    bot, actor = bot_of(interaction), actor_of(interaction)
    if name in bot.rules.mc.options:
        merged = await campaigns.change_setting(bot.db, cid, actor, name, value, rules=bot.rules)
        from ._publish import settle  # here: _publish reaches the settings pages through the phase card
        await settle(bot, cid)  # RU-26: a general seated by the setting acted; the phase may be over
        return merged.get(name, value)
    return await state.change_bot_setting(bot.db, cid, actor, name, value)


ITEMS = (PageSelect, SettingSelect, ValueSelect)
