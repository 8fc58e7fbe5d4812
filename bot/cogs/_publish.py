"""What the channel sees when a phase resolves: results, public rolls, the phase card, the map,
a thread per new battle with its brief, and the turn summary. Also the map renderer's gate."""

from __future__ import annotations

import asyncio
import contextlib
import importlib
import inspect
import logging
import re
from collections.abc import Callable
from typing import TYPE_CHECKING, Any

import discord

from bot import formatting as fmt
from bot.campaign.announce import What
from bot.campaign.frames import Frame
from bot.engine.errors import EngineError
from bot.engine.phases import Phase
from bot.i18n import locale, names, t, versus
from bot.i18n.text import tr, tr_lines
from bot.services import battles, resolution, sight, views
from bot.services import bookkeeping as state
from bot.services.actors import Actor
from bot.services.errors import AlreadyResolved
from bot.services.resolution import Resolution

from ._common import actor_of, bot_of, dynamic_view, guarded, pinging, reply
from ._common import lang as lang_of_interaction
from ._guide import mention

if TYPE_CHECKING:
    from bot.app import AideBot

log = logging.getLogger("adc.publish")

PUBLIC = Actor(0, frozenset(), "public")

PROMPT_VIEWS: dict[What, Callable[[int, int, str], discord.ui.View]] = {}
"""The buttons under a prompt, by the kind of post, registered by the cog that answers them when it loads
(the battle cog: its "Roll my aftermath"), so that publishing imports no cog."""
"""A reader with no side and no GM role: sees what everybody may see."""


async def channel(bot: AideBot, channel_id: int, *, guild_id: int | None = None) -> discord.abc.Messageable | None:
    """The channel or thread to post in; with ``guild_id``, only one of that server (an id stored
    before settings checked their server must not make the bot post in another server)."""
    ch = bot.get_channel(channel_id)
    if ch is None:
        try:
            ch = await bot.fetch_channel(channel_id)
        except (discord.HTTPException, discord.InvalidData):
            return None
    if guild_id is not None and getattr(getattr(ch, "guild", None), "id", None) != guild_id:
        return None
    return ch if isinstance(ch, discord.abc.Messageable) else None


async def send_embeds(target: discord.abc.Messageable, embeds: list[discord.Embed], *, content: str | None = None,
                      files: list[discord.File] | None = None, view: discord.ui.View | None = None) -> discord.Message | None:
    """Send embeds in as many messages as the limits need; content, files and view go with the first."""
    first: discord.Message | None = None
    groups = fmt.batches(embeds) or [[]]
    for i, group in enumerate(groups):
        kwargs: dict[str, Any] = {"embeds": group}
        if i == 0:
            if content:
                kwargs["content"] = fmt.message_text(content)
            if files:
                kwargs["files"] = files
            if view is not None:
                kwargs["view"] = view
        msg = await target.send(**kwargs)
        first = first or msg
    return first


# --- maps -----------------------------------------------------------------------------------


def maps_module() -> Any | None:
    """``bot.services.maps`` when it is installed (it is written separately), else None."""
    try:
        return importlib.import_module("bot.services.maps")
    except ImportError:
        return None


async def render_map(bot: AideBot, campaign_id: int, actor: Actor, *, view: str = "side",
                     around: str | None = None, lang: str = "en", extent: str = "near") -> tuple[bytes, str] | None:
    """PNG bytes and a text report in the reader's language ``lang``, rendered off the event loop with
    at most ``bot.render_slots`` renders at once; None when the map service is not there. ``extent``:
    ``near`` (legible on a phone: around ``around`` or the reader's Forces) or ``whole``."""
    maps = maps_module()
    if maps is None:
        return None
    fn = maps.map_png
    kwargs: dict[str, Any] = {"view": view, "around": around, "rules": bot.rules, "lang": lang}
    if "extent" in inspect.signature(fn).parameters:
        kwargs["extent"] = extent
    async with bot.render_gate:
        if inspect.iscoroutinefunction(fn):
            return await fn(bot.db, campaign_id, actor, **kwargs)
        return await asyncio.to_thread(fn, bot.db, campaign_id, actor, **kwargs)


ALT_TEXT = 1024
"""Discord's limit on an attachment's description (its alt text)."""


def map_file(png: bytes, name: str = "map.png", description: str | None = None) -> discord.File:
    """A new discord.File around fresh bytes for every send (a File is consumed once); ``description``
    (the map's text report) is its alt text, clipped to Discord's 1,024 characters."""
    import io

    alt = fmt.clip(description, ALT_TEXT) if description else None
    return discord.File(io.BytesIO(png), filename=name, description=alt)


# --- resolution ------------------------------------------------------------------------------


async def resolve(bot: AideBot, campaign_id: int, actor: Actor, *, expected_version: int,
                  forced: bool = False) -> Resolution:
    """Resolve the phase (the services guard the version, and set the next phase's deadline), tell the channel."""
    res = await resolution.resolve_phase(bot.db, campaign_id, actor, expected_version=expected_version,
                                         forced=forced, rules=bot.rules, now=discord.utils.utcnow())
    log.info("event=phase_resolved campaign=%s from=%s to=%s version=%s forced=%s", campaign_id,
             res.before.phase.value, res.after.phase.value, res.version, forced)
    # The resolution set the next phase's deadline (or none) in its own transaction; the posts' cards and
    # threads are kept in one bookkeeping write at the end (issue 22, item 1).
    async with state.batched(bot.db, campaign_id):
        await publish_resolution(bot, campaign_id, res)
    if res.generals:  # RU-26: the bot general acted as the phase opened; it may have been all the phase awaited
        await settle(bot, campaign_id)
    return res


async def publish_resolution(bot: AideBot, campaign_id: int, res: Resolution) -> None:
    """Make the posts the resolution's plan lists (:mod:`bot.campaign.announce`): each side's news in its
    channel, the new battles' threads, the aftermath prompts, then one post in the campaign's channel: the
    next phase card, or the turn's gazette carrying it. The card it replaces is retired first."""
    names.use(campaign_id)  # the campaign's names in the language of the post (issue 23)
    m = await state.meta(bot.db, campaign_id)
    lang = m.language
    target = await channel(bot, m.channel_id)
    if target is None:
        log.warning("event=channel_missing campaign=%s channel=%s", campaign_id, m.channel_id)
        return
    plan = res.plan
    if plan.retire_card:
        await retire_card(bot, campaign_id, lang, target)
    title = t(lang, "publish.resolved", before=tr(lang, str(res.before)), after=tr(lang, str(res.after)))
    for post in plan.posts:
        if post.what is What.SIDE_NEWS and post.side is not None:
            await post_to_sides(bot, campaign_id, {post.side: list(post.lines)}, title=title)
        elif post.what is What.BATTLE_THREAD and post.battle is not None:
            await open_battle_thread(bot, campaign_id, post.battle, m, target)
            if post.quick:
                await post_quick_prompt(bot, campaign_id, post.battle, lang, target)
        elif post.what is What.BATTLE_NEWS and post.battle is not None:
            await post_in_battle_thread(bot, campaign_id, post.battle, private_only=True, embeds=fmt.paged_embeds(
                t(lang, "battle.news_title", number=post.battle), tr_lines(lang, post.lines)))
        elif post.what is What.AFTERMATH_PROMPT and post.battle is not None:
            await post_aftermath_prompt(bot, campaign_id, post.battle, lang, target)
        elif post.what is What.GAZETTE and post.turn is not None:
            await post_turn_summary(bot, campaign_id, post.turn, lang, target, frame=post.frame, news=post.lines)
        elif post.what is What.PHASE_CARD:
            await post_phase_card(bot, campaign_id, lang, target, news=post.lines)


async def post_to_sides(bot: AideBot, campaign_id: int, lines: dict[str, list[str]], *, title: str) -> None:
    """Each side's private lines (fog of war: :mod:`bot.services.sight` decided who gets what), in the
    side's own channel when the GM set one (``channel:SIDE``); they are in its log in any case."""
    names.use(campaign_id)  # the campaign's names in the language of the post (issue 23)
    if not any(lines.values()):
        return
    m = await state.meta(bot.db, campaign_id)
    channels = await state.side_channels(bot.db, campaign_id)
    for side, said in lines.items():
        if not said or not channels.get(side):
            continue
        target = await channel(bot, channels[side], guild_id=m.guild_id)
        if target is None:
            continue
        try:
            await send_embeds(target, fmt.paged_embeds(title, tr_lines(m.language, said), colour=fmt.PRIVATE))
        except discord.HTTPException as exc:
            log.warning("event=side_post_failed campaign=%s side=%s status=%s", campaign_id, side, exc.status)


async def post_notices(bot: AideBot, campaign_id: int, notices: list[sight.Notice], *, title: str) -> None:
    """What the services decided each reader may be told: the public part in the campaign's channel,
    each side's part in its own channel (when set)."""
    names.use(campaign_id)  # the campaign's names in the language of the post (issue 23)
    m = await state.meta(bot.db, campaign_id)
    public = [n.text for n in notices if n.side is None]
    if public:
        target = await channel(bot, m.channel_id)
        if target is not None:
            await target.send(fmt.message_text("\n".join(tr_lines(m.language, public))))
    private: dict[str, list[str]] = {}
    for n in notices:
        if n.side is not None:
            private.setdefault(n.side, []).append(n.text)
    await post_to_sides(bot, campaign_id, private, title=title)


async def card_parts(bot: AideBot, campaign_id: int, lang: str, *,
                     news: tuple[str, ...] | list[str] = ()) -> tuple[discord.Embed, str | None, tuple[int, ...],
                                                                       discord.ui.View | None]:
    """The phase card as every member may read it: its embed (``news`` folded in), the line mentioning
    exactly the members it waits for (those who muted the campaign's pings are named by their side only),
    who that line pings, and its buttons (mute my pings; the turn's dice)."""
    sv = await views.status(bot.db, campaign_id, PUBLIC, rules=bot.rules)
    embed = fmt.phase_card(sv, lang, news=news)
    m = await state.meta(bot.db, campaign_id)
    calls: tuple[int, ...] = ()
    content = None
    if sv.status == "active":
        calls = (await state.awaited(bot.db, campaign_id)).to_ping(m.gm_id)
        if calls:
            content = t(lang, "card.calls", mentions=" ".join(f"<@{i}>" for i in calls))
    items: list[discord.ui.Item[Any]] = []
    if opening(sv):  # a new campaign: the GM's checklist, and the Start button only the GM may use
        players = await state.players(bot.db, campaign_id)
        embed.add_field(name=t(lang, "start.checklist"), value=fmt.checklist(sv, players, lang), inline=False)
        items.append(StartCampaign(campaign_id, sv.version, t(lang, "start.button")))
    if sv.status == "active":
        items.append(MutePings(campaign_id, t(lang, "card.mute")))
    return fmt.fit(embed), content, calls, dynamic_view(*items) if items else None


def opening(sv: views.StatusView) -> bool:
    """A new campaign, waiting for its GM's start (turn 1, Phase 0)."""
    return sv.status == "active" and sv.position.turn == 1 and sv.position.phase is Phase.WEATHER


class StartCampaign(discord.ui.DynamicItem[discord.ui.Button[Any]],
                    template=r"adc:start:(?P<cid>\d+):(?P<version>\d+)"):
    """On a new campaign's card: the GM starts it once the players have joined (what /gm advance does);
    anybody else is refused. Works across restarts; a second click is told it was already started."""

    def __init__(self, cid: int, version: int, label: str = "Start the campaign") -> None:
        super().__init__(discord.ui.Button(label=label, style=discord.ButtonStyle.success, emoji="▶️",
                                           custom_id=f"adc:start:{cid}:{version}"))
        self.cid, self.version = cid, version

    @classmethod
    async def from_custom_id(cls, interaction: discord.Interaction, item: discord.ui.Button[Any],
                             match: re.Match[str]) -> StartCampaign:
        return cls(int(match["cid"]), int(match["version"]), item.label or "Start the campaign")

    async def callback(self, interaction: discord.Interaction) -> None:
        async def work() -> None:
            bot, lc = bot_of(interaction), lang_of_interaction(interaction)
            await state.require_gm_of(bot.db, self.cid, actor_of(interaction))
            await interaction.response.defer(ephemeral=True, thinking=True)
            res = await resolve(bot, self.cid, actor_of(interaction), expected_version=self.version)
            await interaction.followup.send(t(lc, "start.done", after=tr(lc, str(res.after))), ephemeral=True)

        await guarded(interaction, work)


async def post_phase_card(bot: AideBot, campaign_id: int, lang: str, target: discord.abc.Messageable, *,
                          news: tuple[str, ...] | list[str] = ()) -> discord.Message | None:
    """The phase card, posted: the one card of the phase, kept to be edited in place (:func:`refresh_card`).
    It carries no picture: the turn's picture is the gazette's, and each member's map is
    ``/campaign map``."""
    names.use(campaign_id)  # the campaign's names in the language of the post (issue 23)
    embed, content, calls, view = await card_parts(bot, campaign_id, lang, news=news)
    kwargs: dict[str, Any] = {"view": view} if view is not None else {}
    msg = await target.send(content=content, embed=embed, allowed_mentions=pinging(calls), **kwargs)
    await state.set_card_message(bot.db, campaign_id, msg.id)
    return msg


async def card_link(bot: AideBot, campaign_id: int) -> str | None:
    """The phase card's jump link (a reminder's way back to it), when the card is known."""
    message_id = await state.card_message(bot.db, campaign_id)
    if message_id is None:
        return None
    m = await state.meta(bot.db, campaign_id)
    return f"https://discord.com/channels/{m.guild_id}/{m.channel_id}/{message_id}"


async def _card_message(bot: AideBot, campaign_id: int, target: discord.abc.Messageable) -> discord.Message | None:
    message_id = await state.card_message(bot.db, campaign_id)
    if message_id is None or not isinstance(target, discord.TextChannel | discord.Thread):
        return None
    try:
        return await target.fetch_message(message_id)
    except discord.HTTPException:
        return None


async def refresh_card(bot: AideBot, campaign_id: int) -> None:
    """The phase card edited in place after a member's action: who is done, who the phase still waits
    for. Nothing new is posted (a quiet channel, issue 22)."""
    names.use(campaign_id)  # the campaign's names in the language of the post (issue 23)
    m = await state.meta(bot.db, campaign_id)
    target = await channel(bot, m.channel_id)
    if target is None or m.status != "active":
        return
    msg = await _card_message(bot, campaign_id, target)
    if msg is None:
        return
    embed, _content, _calls, view = await card_parts(bot, campaign_id, m.language)
    if msg.embeds:  # the same phase: its title and the news folded in when it began stay as they were
        embed.description = msg.embeds[-1].description
    kwargs: dict[str, Any] = {"view": view} if view is not None and len(msg.embeds) < 2 else {}
    with contextlib.suppress(discord.HTTPException):  # the card is the message's last embed (a gazette's first)
        await msg.edit(embeds=[*msg.embeds[:-1], embed], **kwargs)


async def retire_card(bot: AideBot, campaign_id: int, lang: str, target: discord.abc.Messageable) -> None:
    """The phase card the resolution ends: its buttons go (a new card follows with its own)."""
    msg = await _card_message(bot, campaign_id, target)
    if msg is None:
        return
    with contextlib.suppress(discord.HTTPException):
        await msg.edit(view=None)


class MutePings(discord.ui.DynamicItem[discord.ui.Button[Any]], template=r"adc:pings:(?P<cid>\d+)"):
    """On every phase card: a player clicks to stop (or start again) being mentioned on the cards and
    reminded of deadlines in this campaign. Answered privately; works across restarts."""

    def __init__(self, cid: int, label: str = "Mute my pings") -> None:
        super().__init__(discord.ui.Button(label=label, style=discord.ButtonStyle.secondary, emoji="🔕",
                                           custom_id=f"adc:pings:{cid}"))
        self.cid = cid

    @classmethod
    async def from_custom_id(cls, interaction: discord.Interaction, item: discord.ui.Button[Any],
                             match: re.Match[str]) -> MutePings:
        return cls(int(match["cid"]), item.label or "Mute my pings")

    async def callback(self, interaction: discord.Interaction) -> None:
        async def work() -> None:
            bot, lc = bot_of(interaction), lang_of_interaction(interaction)
            me = next((p for p in await state.players(bot.db, self.cid) if p.member_id == interaction.user.id), None)
            on = not me.pings if me is not None else False
            await state.set_pings(bot.db, self.cid, actor_of(interaction), on)
            await reply(interaction, content=t(lc, "card.unmuted" if on else "card.muted"))

        await guarded(interaction, work)


async def settle(bot: AideBot, campaign_id: int) -> None:
    """After a member's action: when the phase has nothing left to wait for and the GM lets phases resolve
    by themselves (``auto_resolve``, on by default), it resolves now. A new campaign's Phase 0 waits for
    the GM's start."""
    names.use(campaign_id)  # the campaign's names in the language of the post (issue 23)
    m = await state.meta(bot.db, campaign_id)
    if m.status != "active":
        return
    sv = await views.status(bot.db, campaign_id, m.gm, rules=bot.rules)
    if not m.setting("auto_resolve") or sv.waiting or sv.position.phase is Phase.WEATHER:
        await refresh_card(bot, campaign_id)  # who is done, who is still awaited: the card, edited in place
        return
    with contextlib.suppress(AlreadyResolved):  # another click, process or the deadline was first
        await resolve(bot, campaign_id, m.gm, expected_version=sv.version)


async def render_turn(bot: AideBot, campaign_id: int, frame: Frame, lang: str) -> tuple[bytes, str] | None:
    """The public picture of an ended turn from its frame (its battles ringed in their winners' colours, its
    public retreats, headed with its own turn) and its alt text, at most ``bot.render_gate`` at once."""
    maps = maps_module()
    if maps is None or not hasattr(maps, "turn_png"):
        return None
    async with bot.render_gate:
        return await maps.turn_png(bot.db, campaign_id, frame, rules=bot.rules, lang=lang)  # type: ignore[no-any-return]


async def post_turn_summary(bot: AideBot, campaign_id: int, turn: int, lang: str,
                            target: discord.abc.Messageable, *, frame: Frame | None = None,
                            news: tuple[str, ...] = ()) -> None:
    """The turn's gazette (:func:`bot.campaign.gazette.gazette`, for the public reader), alone: the turn in a
    few plain sentences with its picture (the turn's ``frame``, kept before the next turn began: the map
    as the turn left it, not the next turn's), the clickable commands that check its dice and show the
    whole log, the next phase card (who it waits for, pinged), and the turn's dice behind a button."""
    names.use(campaign_id)  # the campaign's names in the language of the post (issue 23)
    g = await views.gazette(bot.db, campaign_id, PUBLIC, turn, rules=bot.rules)
    embed = fmt.gazette_embed(g, lang, verify=mention(bot, "campaign verify", lang), log=mention(bot, "campaign log", lang))
    files: list[discord.File] = []
    try:
        rendered = await render_turn(bot, campaign_id, frame, lang) if frame is not None else None
    except EngineError as exc:
        log.warning("event=map_failed campaign=%s reason=%r", campaign_id, str(exc))
        rendered = None
    if rendered is not None:
        files.append(map_file(rendered[0], f"turn-{turn}.png", description=rendered[1]))
        embed.set_image(url=f"attachment://turn-{turn}.png")
    card, content, calls, card_view = await card_parts(bot, campaign_id, lang, news=news)
    view = card_view or discord.ui.View(timeout=None)
    view.add_item(TurnDice(campaign_id, turn, t(lang, "card.dice")))
    msg = await target.send(content=content, embeds=[fmt.fit(embed), card], files=files, view=view,
                            allowed_mentions=pinging(calls))
    await state.set_card_message(bot.db, campaign_id, msg.id)


class TurnDice(discord.ui.DynamicItem[discord.ui.Button[Any]], template=r"adc:dice:(?P<cid>\d+):(?P<turn>\d+)"):
    """On a gazette: the turn's dice that the member may see, each with its rule, modifiers and result,
    answered privately (they are in the log too). Works across restarts."""

    def __init__(self, cid: int, turn: int, label: str = "Dice of this turn") -> None:
        super().__init__(discord.ui.Button(label=label, style=discord.ButtonStyle.secondary, emoji="🎲",
                                           custom_id=f"adc:dice:{cid}:{turn}"))
        self.cid, self.turn = cid, turn

    @classmethod
    async def from_custom_id(cls, interaction: discord.Interaction, item: discord.ui.Button[Any],
                             match: re.Match[str]) -> TurnDice:
        return cls(int(match["cid"]), int(match["turn"]), item.label or "Dice of this turn")

    async def callback(self, interaction: discord.Interaction) -> None:
        async def work() -> None:
            bot, lc = bot_of(interaction), lang_of_interaction(interaction)
            rolls = await views.turn_rolls(bot.db, self.cid, actor_of(interaction), self.turn)
            if not rolls:
                await reply(interaction, content=t(lc, "card.dice_none", turn=self.turn))
                return
            embeds = [fmt.roll_embed(r, lc) for r in rolls]
            await reply(interaction, content=t(lc, "card.dice_title", turn=self.turn), embeds=embeds[:10])
            for start in range(10, len(embeds), 10):
                await interaction.followup.send(embeds=embeds[start:start + 10], ephemeral=True)

        await guarded(interaction, work)


async def post_aftermath_prompt(bot: AideBot, campaign_id: int, number: int, lang: str,
                                target: discord.abc.Messageable) -> None:
    """Phase 4 begins: a reported battle's button for its players to roll their own aftermath, in its
    thread (in the channel when it has none the bot can reach)."""
    names.use(campaign_id)  # the campaign's names in the language of the post (issue 23)
    line = next((b for b in await battles.list_battles(bot.db, campaign_id) if b.number == number), None)
    if line is None:
        return
    embed = discord.Embed(description=t(lang, "aftermath.prompt", number=number, sides=versus(lang, line.sides)),
                          colour=fmt.COLOUR)
    make = PROMPT_VIEWS.get(What.AFTERMATH_PROMPT)
    view = make(campaign_id, number, lang) if make is not None else None
    if not await post_in_battle_thread(bot, campaign_id, number, embeds=[embed], view=view):
        await target.send(embed=embed, view=view)


async def post_quick_prompt(bot: AideBot, campaign_id: int, number: int, lang: str,
                            target: discord.abc.Messageable) -> None:
    """RU-27, ``battles: ask``: a new battle's "Resolve quickly" button, in its thread (in the channel when it
    has none the bot can reach)."""
    embed = discord.Embed(description=t(lang, "quick.prompt", number=number), colour=fmt.COLOUR)
    make = PROMPT_VIEWS.get(What.BATTLE_THREAD)
    view = make(campaign_id, number, lang) if make is not None else None
    if not await post_in_battle_thread(bot, campaign_id, number, embeds=[embed], view=view):
        await target.send(embed=embed, view=view)


# --- battle threads ---------------------------------------------------------------------------


async def open_battle_thread(bot: AideBot, campaign_id: int, number: int, m: state.Meta,
                             parent: discord.abc.Messageable) -> discord.Thread | None:
    """A private thread for a new battle, with its sides' players and the GM, and the brief in it."""
    names.use(campaign_id)  # the campaign's names in the language of the post (issue 23)
    if not isinstance(parent, discord.TextChannel):
        return None
    lang = m.language
    line = next((b for b in await battles.list_battles(bot.db, campaign_id) if b.number == number), None)
    name = t(lang, "battle.thread_name", number=number, square=line.square if line else "?")
    try:
        thread = await parent.create_thread(name=name[:100], type=discord.ChannelType.private_thread,
                                            invitable=False)
    except discord.HTTPException:
        try:
            thread = await parent.create_thread(name=name[:100], type=discord.ChannelType.public_thread)
        except discord.HTTPException as exc:
            log.warning("event=thread_failed campaign=%s battle=%s status=%s", campaign_id, number, exc.status)
            return None
    await state.set_battle_thread(bot.db, campaign_id, number, thread.id)
    if thread.type is discord.ChannelType.private_thread and line is not None:
        members = {p.member_id for p in await state.players(bot.db, campaign_id)
                   if p.side in {k for k, n in await _side_names(bot, campaign_id) if n in line.sides}}
        members.add(m.gm_id)
        for member_id in members:
            with contextlib.suppress(discord.HTTPException):
                await thread.add_user(discord.Object(member_id))
    if thread.type is not discord.ChannelType.private_thread:
        # Everybody can read a public thread: the brief (both sides' strengths) stays on demand.
        await thread.send(fmt.message_text(t(lang, "battle.thread_public")))
        return thread
    try:
        brief = await battles.brief(bot.db, campaign_id, m.gm, number, rules=bot.rules)
    except EngineError as exc:
        await thread.send(fmt.message_text(tr(lang, exc)))
        return thread
    await send_embeds(thread, brief_embeds(brief, lang))
    return thread


async def _side_names(bot: AideBot, campaign_id: int) -> list[tuple[str, str]]:
    sv = await views.status(bot.db, campaign_id, PUBLIC, rules=bot.rules)
    return [(k, n) for k, n, _ in sv.sides]


def brief_embeds(brief: battles.Brief, lang: str) -> list[discord.Embed]:
    title = t(lang, "battle.brief_title", number=brief.number, square=brief.square)
    head = [t(lang, "battle.brief_terrain", terrain=tr(lang, brief.terrain),
              features=locale.listing(lang, tr_lines(lang, brief.features)) or "-", weather=tr(lang, brief.weather))]
    return fmt.paged_embeds(title, head + tr_lines(lang, brief.lines))


async def in_private_battle_thread(bot: AideBot, campaign_id: int, number: int,
                                   interaction: discord.Interaction) -> bool:
    """Whether the member acts in the battle's own private thread, where only its camps (and the GM)
    read: what only they may know (its dice, its retreats) is answered there for all; elsewhere, to the
    member alone (fog of war)."""
    thread_id = await state.battle_thread(bot.db, campaign_id, number)
    ch = interaction.channel
    return bool(thread_id) and interaction.channel_id == thread_id \
        and getattr(ch, "type", None) is discord.ChannelType.private_thread


async def post_in_battle_thread(bot: AideBot, campaign_id: int, number: int, *, embeds: list[discord.Embed],
                                content: str | None = None, view: discord.ui.View | None = None,
                                private_only: bool = False) -> bool:
    """Post in the battle's thread (True), or return False when it has none the bot can reach (or, with
    ``private_only``, when it is a public thread: what only the battle's camps may read)."""
    thread_id = await state.battle_thread(bot.db, campaign_id, number)
    if not thread_id:
        return False
    target = await channel(bot, thread_id, guild_id=(await state.meta(bot.db, campaign_id)).guild_id)
    if target is None or (private_only and getattr(target, "type", None) is not discord.ChannelType.private_thread):
        return False
    try:
        await send_embeds(target, embeds, content=content, view=view)
    except discord.HTTPException:
        return False
    return True


async def answer_in_battle(interaction: discord.Interaction, cid: int, number: int, *, content: str,
                           embeds: list[discord.Embed]) -> None:
    """What only a battle's camps may read (its fates, trophies, Glory spent on its units): in its private
    thread for all there; elsewhere to the member alone, with a copy in the thread (fog of war)."""
    bot = bot_of(interaction)
    here = await in_private_battle_thread(bot, cid, number, interaction)
    await reply(interaction, content=content, embeds=embeds, ephemeral=not here)
    if not here:
        await post_in_battle_thread(bot, cid, number, embeds=embeds, content=content, private_only=True)
