"""What every cog shares: who is acting, which campaign, replies, autocomplete, buttons."""

from __future__ import annotations

import logging
import re
import time
from collections.abc import Awaitable, Callable, Iterable, Sequence
from typing import TYPE_CHECKING, Any

import discord
from discord import app_commands

from bot.engine.errors import EngineError, InvalidInput
from bot.engine.model import Square
from bot.i18n import lang_of, names, t, versus
from bot.services import battles, campaigns, views
from bot.services.actors import Actor

if TYPE_CHECKING:
    from bot.app import AideBot

log = logging.getLogger("adc.cogs")

MAX_CHOICES = 25
CHOICE_NAME = 100


def bot_of(interaction: discord.Interaction) -> AideBot:
    return interaction.client  # type: ignore[return-value]


def actor_of(interaction: discord.Interaction) -> Actor:
    """The member as the services know them: id, role ids, display name."""
    user = interaction.user
    roles = frozenset(r.id for r in getattr(user, "roles", ()) if not r.is_default())
    return Actor(user.id, roles, user.display_name)


def lang(interaction: discord.Interaction) -> str:
    """The reader's language; and, as every answer asks it before it says anything, the campaign whose
    names (issue 23, item 4) that answer says in it: the channel's, as last looked up (a button's task
    did not look it up itself)."""
    named = button_campaign(interaction)
    known = getattr(interaction.client, "channel_campaigns", {}).get(campaign_channel_id(interaction) or 0)
    if named is not None:  # a button names its campaign: right on the first click after a restart too (item 5)
        names.use(named)
    elif known is not None:
        names.use(known[0])
    return lang_of(interaction.locale)


_BUTTON_CAMPAIGN = re.compile(r"adc:[a-z]+:(\d+)(?::|$)")


def button_campaign(interaction: discord.Interaction) -> int | None:
    """The campaign a persistent button or select names in its id (``adc:aft:<campaign>:...``), if any."""
    data = interaction.data if isinstance(interaction.data, dict) else {}
    found = _BUTTON_CAMPAIGN.match(str(data.get("custom_id") or ""))
    return int(found.group(1)) if found else None


def campaign_channel_id(interaction: discord.Interaction) -> int | None:
    """The channel a campaign is bound to: this one, or the parent of a battle thread."""
    channel = interaction.channel
    if isinstance(channel, discord.Thread):
        return channel.parent_id
    return interaction.channel_id


CHANNEL_TTL = 30.0
"""Seconds a channel's campaign id is remembered (another bot process may end or start one)."""


async def campaign_id(interaction: discord.Interaction) -> int:
    """The id of the campaign bound to this channel (NotFound says how to start one)."""
    bot = bot_of(interaction)
    channel_id = campaign_channel_id(interaction) or 0
    cached = bot.channel_campaigns.get(channel_id)
    now = time.monotonic()
    if cached is not None and cached[1] > now:
        names.use(cached[0])  # its names said in the reader's language (issue 23)
        return cached[0]
    cid = await campaigns.campaign_of_channel(bot.db, channel_id)
    bot.channel_campaigns[channel_id] = (cid, now + CHANNEL_TTL)
    names.use(cid)
    return cid


def forget_channel(interaction: discord.Interaction) -> None:
    """This channel's campaign changed (created, loaded or ended)."""
    bot_of(interaction).channel_campaigns.pop(campaign_channel_id(interaction) or 0, None)


def pinging(member_ids: Iterable[int]) -> discord.AllowedMentions:
    """Mentions that ping exactly these members and nobody else (not a name that looks like a mention,
    no role, not @everyone): the bot-wide default pings nobody."""
    return discord.AllowedMentions(everyone=False, roles=False, replied_user=False,
                                   users=[discord.Object(id=i) for i in dict.fromkeys(member_ids)])


async def reply(interaction: discord.Interaction, *, content: str | None = None,
                embeds: Sequence[discord.Embed] = (), ephemeral: bool = True,
                view: discord.ui.View | None = None, files: Sequence[discord.File] = (),
                allowed_mentions: discord.AllowedMentions | None = None) -> None:
    """Answer the interaction (or follow up if it was already answered or deferred)."""
    kwargs: dict[str, Any] = {"content": content, "embeds": list(embeds), "ephemeral": ephemeral}
    if allowed_mentions is not None:
        kwargs["allowed_mentions"] = allowed_mentions
    if view is not None:
        kwargs["view"] = view
    if files:
        kwargs["files"] = list(files)
    if interaction.response.is_done():
        await interaction.followup.send(**kwargs)
    else:
        await interaction.response.send_message(**kwargs)


async def status_of(interaction: discord.Interaction, cid: int, actor: Actor | None = None) -> views.StatusView:
    """The campaign as the caller (or ``actor``) may see it."""
    bot = bot_of(interaction)
    return await views.status(bot.db, cid, actor or actor_of(interaction), rules=bot.rules)


# --- autocomplete -----------------------------------------------------------------------------


def choices(items: Iterable[tuple[str, str]], current: str) -> list[app_commands.Choice[str]]:
    """(label, value) pairs whose label or value contains what was typed, at most 25."""
    typed = (current or "").strip().lower()
    out: list[app_commands.Choice[str]] = []
    seen: set[str] = set()
    for label, value in items:
        if value in seen:
            continue
        if typed and typed not in label.lower() and typed not in value.lower():
            continue
        seen.add(value)
        out.append(app_commands.Choice(name=label[:CHOICE_NAME], value=value[:CHOICE_NAME]))
        if len(out) >= MAX_CHOICES:
            break
    return out


def suggest(fn: Callable[[discord.Interaction, int, Actor, str], Awaitable[Iterable[tuple[str, str]]]]):
    """An autocomplete callback from ``fn(interaction, campaign_id, actor, typed)``: suggestions are
    limited to what the caller may see (the services apply fog of war); errors suggest nothing."""

    async def callback(interaction: discord.Interaction, current: str) -> list[app_commands.Choice[str]]:
        try:
            cid = await campaign_id(interaction)
            return choices(await fn(interaction, cid, actor_of(interaction), current), current)
        except EngineError:
            return []
        except Exception:  # an autocomplete must never break typing
            log.exception("event=autocomplete_error command=%s", getattr(interaction.command, "qualified_name", "?"))
            return []

    callback.__name__ = fn.__name__
    return callback


async def _own_forces(interaction: discord.Interaction, cid: int, actor: Actor, typed: str):
    st = await status_of(interaction, cid, actor)
    lc = lang(interaction)
    if st.gm:
        return [(f"{names.said(lc, f.name)} ({f.square})", f.key) for f in st.forces]
    return [(f"{names.said(lc, f.name)} ({f.square})", f.key) for f in st.forces if f.own]


async def _visible_forces(interaction: discord.Interaction, cid: int, actor: Actor, typed: str):
    st = await status_of(interaction, cid, actor)
    lc = lang(interaction)
    return [(f"{names.said(lc, f.name)} ({f.square})", f.key) for f in st.forces]


async def _sides(interaction: discord.Interaction, cid: int, actor: Actor, typed: str):
    st = await status_of(interaction, cid, actor)
    lc = lang(interaction)
    return [(names.said(lc, name), key) for key, name, _ in st.sides]


async def _battles(interaction: discord.Interaction, cid: int, actor: Actor, typed: str):
    rows = await battles.list_battles(bot_of(interaction).db, cid)
    lc = lang(interaction)
    return [(t(lc, "battle.choice", number=b.number, square=b.square, sides=versus(lc, b.sides),
               state=t(lc, f"battle.state_{b.state}")), str(b.number)) for b in rows]


async def _own_units(interaction: discord.Interaction, cid: int, actor: Actor, typed: str):
    st = await status_of(interaction, cid, actor)
    lc = lang(interaction)
    return [(t(lc, "unit.choice", unit=u.name, force=f.name, sp=u.sp), u.key) for f in st.forces if f.own for u in f.units]


async def _own_leaders(interaction: discord.Interaction, cid: int, actor: Actor, typed: str):
    st = await status_of(interaction, cid, actor)
    lc = lang(interaction)
    return [(f"{f.leader} ({names.said(lc, f.name)})", f.leader) for f in st.forces if f.own and f.leader]


own_forces = suggest(_own_forces)
visible_forces = suggest(_visible_forces)
sides = suggest(_sides)
battle_numbers = suggest(_battles)
own_units = suggest(_own_units)
own_leaders = suggest(_own_leaders)

def neighbours(name: str) -> list[str]:
    """The eight squares around ``name`` (suggestions only: the services check the map)."""
    try:
        sq = Square.parse(name)
    except InvalidInput:
        return []
    return [Square(sq.col + dc, sq.row + dr).name for dr in (-1, 0, 1) for dc in (-1, 0, 1)
            if (dc or dr) and sq.col + dc >= 0 and sq.row + dr >= 0]


# --- buttons --------------------------------------------------------------------------------


class View(discord.ui.View):
    """A view whose errors go to the one error handler, like commands'."""

    async def on_error(self, interaction: discord.Interaction, error: Exception, item: discord.ui.Item[Any]) -> None:
        await bot_of(interaction).report_error(interaction, error)


async def guarded(interaction: discord.Interaction, work: Callable[[], Awaitable[None]]) -> None:
    """Run a button's work; errors go to the one error handler (dynamic items have no view to catch them)."""
    try:
        await work()
    except Exception as error:  # reported, never swallowed silently
        await bot_of(interaction).report_error(interaction, error)


def disabled_copy(message: discord.Message | None) -> discord.ui.View | None:
    """The message's buttons, all disabled (a confirmation can be used once)."""
    if message is None or not message.components:
        return None
    view = discord.ui.View.from_message(message, timeout=None)
    for item in view.children:
        if hasattr(item, "disabled"):
            item.disabled = True  # type: ignore[attr-defined]
    return view


__all__ = ["View", "actor_of", "bot_of", "campaign_id", "choices", "guarded", "lang", "reply", "t"]


class Cancel(discord.ui.DynamicItem[discord.ui.Button[Any]], template=r"adc:x"):
    """Dismiss a confirmation (nothing was done)."""

    def __init__(self, label: str = "Cancel") -> None:
        super().__init__(discord.ui.Button(label=label, style=discord.ButtonStyle.secondary, custom_id="adc:x"))

    @classmethod
    async def from_custom_id(cls, interaction: discord.Interaction, item: discord.ui.Button[Any],
                             match: re.Match[str]) -> Cancel:
        return cls(item.label or "Cancel")

    async def callback(self, interaction: discord.Interaction) -> None:
        await guarded(interaction, lambda: interaction.response.edit_message(
            content=t(lang(interaction), "confirm.cancelled"), embeds=[], view=None))


def confirm_view(confirm: discord.ui.Item[Any], lang_code: str, *, cancel: bool = True) -> discord.ui.View:
    """Buttons that are dynamic items only: their state is in their custom ids, so the view is not kept
    in memory (stopped before it is sent) and the buttons work for as long as the message lives,
    across restarts."""
    return dynamic_view(confirm, *([Cancel(t(lang_code, "confirm.cancel"))] if cancel else []))


def dynamic_view(*items: discord.ui.Item[Any]) -> discord.ui.View:
    view = discord.ui.View(timeout=None)
    for item in items:
        view.add_item(item)
    view.stop()  # nothing to keep: discord.py routes dynamic items by their custom id pattern
    return view
