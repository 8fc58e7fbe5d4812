"""/campaign: create, join, status, map, log, away, export, settings, end, verify."""

from __future__ import annotations

import asyncio
import contextlib
import json
import re
import secrets
from typing import Any

import discord
from discord import app_commands
from discord.ext import commands

from bot import formatting as fmt
from bot import generate, limits, paint
from bot import scenario as scenarios
from bot.engine.errors import InvalidInput
from bot.engine.model import Climate, Season
from bot.i18n import names as local_names
from bot.i18n.text import tr
from bot.scenario import bundled_scenarios
from bot.services import bookkeeping as state
from bot.services import campaigns, exchange, gm, logbook, views, workers
from bot.services.budget import Heavy, quietly
from bot.services.errors import PermissionDenied, TooSoon
from bot.services.timelapse import timelapse_gif

from . import _publish as publish
from . import _settings
from ._common import (
    actor_of,
    bot_of,
    campaign_id,
    choices,
    dynamic_view,
    forget_channel,
    guarded,
    lang,
    pinging,
    reply,
    sides,
    status_of,
    t,
)
from ._guide import HowToPlay

LOG_LINES = 300
TIMELAPSE_PROGRESS = 6
"""From this many frames, /campaign timelapse says it is drawing them (a few seconds) before it shows them."""


async def scenario_names(interaction: discord.Interaction, current: str) -> list[app_commands.Choice[str]]:
    return choices(((key, key) for key in [*bundled_scenarios(), GENERATED]), current)


GENERATED = "generated"
"""The /campaign create scenario that draws a new map (MC-0, bot/generate.py) rather than load one."""


def _generation(climate: str | None, season: str | None, size: str | None, sides: int | None,
                seed: int | None) -> generate.Params:
    """The parameters of a generated scenario (MC-0) from /campaign create's options; a random seed if none."""
    width, height = generate.parse_size(size) if size else generate.DEFAULT_SIZE
    return generate.Params(generate.parse_climate(climate or "temperate"), generate.parse_season(season or "spring"),
                           width, height, sides or 2, (), secrets.randbelow(10**9) if seed is None else seed)


IN_PROCESS_SQUARES = 2_500
"""From this many squares, a generated map is drawn in a worker process (bot/services/workers.py): seconds
of pure Python, which in a thread would keep the event loop waiting for the interpreter's lock."""


async def _generated(params: generate.Params) -> scenarios.Scenario:
    """Draw and check a generated scenario: CPU-bound, off the event loop (a large one in a process)."""
    if params.width * params.height >= IN_PROCESS_SQUARES:
        data = await workers.in_process(generate.generate_scenario, params)
    else:
        data = await asyncio.to_thread(generate.generate_scenario, params)
    return await asyncio.to_thread(quietly, scenarios.parse_scenario, data, key=GENERATED)


def _is_export(raw: bytes) -> bool:
    if raw.startswith(exchange.GZIP_MAGIC):  # a packed export (issue 24, item 4): its reading checks it
        return True
    head = raw[:4096].lstrip()
    if not head.startswith(b"{"):
        return False
    try:
        return json.loads(raw).get("format") == exchange.FORMAT
    except (ValueError, AttributeError, UnicodeDecodeError, RecursionError):  # nested too deep: not an export
        return False


async def _is_member(guild: discord.Guild | None, member_id: int) -> bool:
    """Whether ``member_id`` is a member of ``guild`` (asked of Discord when not cached)."""
    if guild is None:
        return False
    if guild.get_member(member_id) is not None:
        return True
    try:
        await guild.fetch_member(member_id)
    except discord.HTTPException:  # NotFound: not a member; anything else: not shown to be one
        return False
    return True


async def _map_embed(interaction: discord.Interaction, cid: int, who: Any, view: str, around: str | None,
                     sv: views.StatusView, lc: str, extent: str = "near") -> tuple[discord.Embed, discord.File] | None:
    """The map as ``who`` may see it, in an embed in language ``lc`` with its picture (None: no map service);
    ``extent``: ``near`` (legible on a phone, around ``around`` or the reader's Forces) or ``whole``."""
    bot = bot_of(interaction)
    rendered = await publish.render_map(bot, cid, who, view=view, around=around, lang=lc, extent=extent)
    if rendered is None:
        return None
    png, report = rendered
    embed = discord.Embed(title=t(lc, "map.title", name=sv.name, position=tr(lc, str(sv.position))),
                          description=fmt.clip(report, fmt.DESCRIPTION), colour=fmt.COLOUR)
    embed.set_image(url="attachment://map.png")
    return fmt.fit(embed), publish.map_file(png, description=report)


async def _battle_square(bot: Any, cid: int, channel_id: int | None) -> str | None:
    """The square of this turn's battle whose thread ``channel_id`` is (None elsewhere): a map asked for in
    a battle's thread is drawn around the battle."""
    if channel_id is None:
        return None
    from bot.services import battles

    for b in await battles.list_battles(bot.db, cid):
        if await state.battle_thread(bot.db, cid, b.number) == channel_id:
            return b.square
    return None


def _square_id(around: str | None) -> str:
    """The square a map is centred on, as a button's custom id may carry it ("" for none)."""
    text = (around or "").strip()
    return text if re.fullmatch(r"[A-Za-z0-9]{1,8}", text) else ""


class PostFullMap(discord.ui.DynamicItem[discord.ui.Button[Any]],
                  template=r"adc:fullmap:(?P<cid>\d+):(?P<around>[A-Za-z0-9]{0,8})"):
    """The GM, warned that it shows every hidden Force, posts the full map in the campaign's channel
    (drawn again at the click: the map as it is then)."""

    def __init__(self, cid: int, around: str, label: str = "Post the full map in the channel") -> None:
        super().__init__(discord.ui.Button(label=label, style=discord.ButtonStyle.danger,
                                           custom_id=f"adc:fullmap:{cid}:{around}"))
        self.cid, self.around = cid, around

    @classmethod
    async def from_custom_id(cls, interaction: discord.Interaction, item: discord.ui.Button[Any],
                             match: re.Match[str]) -> PostFullMap:
        return cls(int(match["cid"]), match["around"], item.label or "Post the full map in the channel")

    async def callback(self, interaction: discord.Interaction) -> None:
        async def work() -> None:
            bot, actor = bot_of(interaction), actor_of(interaction)
            await state.require_gm_of(bot.db, self.cid, actor)
            await interaction.response.defer()
            m = await state.meta(bot.db, self.cid)
            sv = await views.status(bot.db, self.cid, actor, rules=bot.rules)
            shown = await _map_embed(interaction, self.cid, actor, "full", self.around or None, sv, m.language)
            target = await publish.channel(bot, m.channel_id, guild_id=m.guild_id)
            if shown is None or target is None:
                await interaction.edit_original_response(content=t(lang(interaction), "map.unavailable"), view=None)
                return
            embed, file = shown
            await target.send(t(m.language, "map.full_posted_note"), embed=embed, file=file)
            await interaction.edit_original_response(content=t(lang(interaction), "map.full_posted"), view=None)

        await guarded(interaction, work)


async def _log_pages(interaction: discord.Interaction, cid: int, turn: int | None) -> tuple[list[discord.Embed],
                                                                                            list[str]]:
    """The log as the member who asked (or clicked) may read it (fog of war: their own side's private
    lines, never another's), in pages, newest last; and its lines."""
    lc = lang(interaction)
    lines = await views.read_log(bot_of(interaction).db, cid, actor_of(interaction), turn=turn, limit=LOG_LINES)
    text = [
        ("~~" if line.undone else "") + f"`T{line.turn}P{line.phase}` " + ("🔒 " if line.private else "")
        + tr(lc, line.text) + ("~~" if line.undone else "")
        for line in lines
    ] or [t(lc, "log.empty")]
    title = t(lc, "log.title", turn=turn) if turn else t(lc, "log.title_all")
    return fmt.paged_embeds(title, text, colour=fmt.PRIVATE), text


class LogPage(discord.ui.DynamicItem[discord.ui.Button[Any]],
              template=r"adc:log:(?P<cid>\d+):(?P<reader>\d+):(?P<turn>\d+):(?P<back>\d+):(?P<way>[on])"):
    """Older / newer over ``/campaign log``: its state (campaign, reader, turn, the page counted back
    from the newest) is in the custom id, so it works across restarts and never expires. Each click
    reads the log again as the clicking member may see it; a member other than the one it was shown
    to gets their own view in a message of their own, never the first reader's private lines."""

    def __init__(self, cid: int, reader: int, turn: int, back: int, way: str, label: str = "",
                 disabled: bool = False) -> None:
        super().__init__(discord.ui.Button(label=label or ("◀" if way == "o" else "▶"),
                                           style=discord.ButtonStyle.secondary, disabled=disabled,
                                           custom_id=f"adc:log:{cid}:{reader}:{turn}:{back}:{way}"))
        self.cid, self.reader, self.turn, self.back, self.way = cid, reader, turn, back, way

    @classmethod
    async def from_custom_id(cls, interaction: discord.Interaction, item: discord.ui.Button[Any],
                             match: re.Match[str]) -> LogPage:
        return cls(int(match["cid"]), int(match["reader"]), int(match["turn"]), int(match["back"]), match["way"],
                   item.label or "")

    async def callback(self, interaction: discord.Interaction) -> None:
        async def work() -> None:
            embeds, _ = await _log_pages(interaction, self.cid, self.turn or None)
            back = min(max(0, self.back + (1 if self.way == "o" else -1)), len(embeds) - 1)
            page, view = embeds[len(embeds) - 1 - back], log_pager(self.cid, interaction.user.id, self.turn,
                                                                  back, len(embeds), lang(interaction))
            if interaction.user.id == self.reader:
                await interaction.response.edit_message(embed=page, view=view)
            else:  # another member's click: their own view, privately
                await interaction.response.send_message(embed=page, view=view, ephemeral=True)

        await guarded(interaction, work)


def log_pager(cid: int, reader: int, turn: int | None, back: int, pages: int, lc: str) -> discord.ui.View:
    """The older / newer buttons under the page ``back`` pages before the newest of ``pages``."""
    return dynamic_view(
        LogPage(cid, reader, turn or 0, back, "o", t(lc, "log.older"), disabled=back >= pages - 1),
        LogPage(cid, reader, turn or 0, back, "n", t(lc, "log.newer"), disabled=back <= 0))


class JoinVerdict(discord.ui.DynamicItem[discord.ui.Button[Any]],
                  template=r"adc:join:(?P<cid>\d+):(?P<member>\d+):(?P<verdict>[ar])"):
    """The GM's Approve / Refuse on a member's request to join (bot setting ``join_approval``). Its
    state is in the custom id and the database: it works across restarts; only a GM may answer (the
    core refuses the others), and a request withdrawn or answered is said to be gone."""

    def __init__(self, cid: int, member: int, verdict: str, label: str = "") -> None:
        approve = verdict == "a"
        super().__init__(discord.ui.Button(
            label=label or ("Approve" if approve else "Refuse"),
            style=discord.ButtonStyle.success if approve else discord.ButtonStyle.danger,
            custom_id=f"adc:join:{cid}:{member}:{verdict}"))
        self.cid, self.member, self.verdict = cid, member, verdict

    @classmethod
    async def from_custom_id(cls, interaction: discord.Interaction, item: discord.ui.Button[Any],
                             match: re.Match[str]) -> JoinVerdict:
        return cls(int(match["cid"]), int(match["member"]), match["verdict"], item.label or "")

    async def callback(self, interaction: discord.Interaction) -> None:
        async def work() -> None:
            bot, actor = bot_of(interaction), actor_of(interaction)
            m = await state.meta(bot.db, self.cid)
            mention = f"<@{self.member}>"
            gone = self.verdict == "a" and not await _is_member(interaction.guild, self.member)
            if gone:  # left the server since asking (issue 24, item 3): never a player
                side = (await campaigns.refuse_request(bot.db, self.cid, actor, self.member)).name
                done = t(m.language, "join.left", member=mention, side=side)
            elif self.verdict == "a":
                row = await campaigns.approve_request(bot.db, self.cid, actor, self.member)
                done = t(m.language, "join.approved", member=mention, side=row.name)
            else:
                side = (await campaigns.refuse_request(bot.db, self.cid, actor, self.member)).name
                done = t(m.language, "join.refused", member=mention, side=side)
            await _requests_card(bot, self.cid, interaction.channel, answered=interaction)
            if self.verdict == "a" and not gone:  # announced as a join is
                await interaction.followup.send(
                    done + "\n" + t(m.language, "campaign.joined", member=mention, side=row.name),
                    view=dynamic_view(HowToPlay(self.cid, t(m.language, "howto.button"))),
                    allowed_mentions=pinging([self.member]))
                return
            await interaction.followup.send(done, allowed_mentions=discord.AllowedMentions.none())
            if gone:
                return
            told = await _tell_member(bot, self.member, t(m.language, "join.refused_dm", name=m.name, side=side))
            if not told:
                await interaction.followup.send(t(lang(interaction), "join.refused_unsent", member=mention),
                                                ephemeral=True)

        await guarded(interaction, work)


class WithdrawJoin(discord.ui.DynamicItem[discord.ui.Button[Any]], template=r"adc:joinw:(?P<cid>\d+)"):
    """On the private answer to a request to join: the member takes it back."""

    def __init__(self, cid: int, label: str = "Withdraw my request") -> None:
        super().__init__(discord.ui.Button(label=label, style=discord.ButtonStyle.secondary,
                                           custom_id=f"adc:joinw:{cid}"))
        self.cid = cid

    @classmethod
    async def from_custom_id(cls, interaction: discord.Interaction, item: discord.ui.Button[Any],
                             match: re.Match[str]) -> WithdrawJoin:
        return cls(int(match["cid"]), item.label or "Withdraw my request")

    async def callback(self, interaction: discord.Interaction) -> None:
        async def work() -> None:
            await campaigns.withdraw_request(bot_of(interaction).db, self.cid, actor_of(interaction))
            await interaction.response.edit_message(content=t(lang(interaction), "join.withdrawn"), view=None)
            await _requests_card(bot_of(interaction), self.cid, interaction.channel)

        await guarded(interaction, work)


REQUESTS_SHOWN = 10
"""Requests with their buttons on the card (two buttons each: Discord takes 25 on a message)."""


async def _requests_card(bot: Any, cid: int, channel: Any, *, answered: discord.Interaction | None = None) -> None:
    """The campaign's one card of requests to join, brought up to date (issue 24, item 3): edited in place
    (no new post, no ping) while it stands; posted anew, mentioning the GM, only when there was none; gone
    once every request is answered. ``answered``: the GM's click on the card, whose response edits it."""
    m = await state.meta(bot.db, cid)
    waiting = await campaigns.join_requests(bot.db, cid)
    card = await state.requests_card(bot.db, cid)
    lc = m.language
    if not waiting:
        if answered is not None:
            await interaction_delete(answered)
        elif card is not None and channel is not None:
            with contextlib.suppress(discord.HTTPException):  # already gone
                await channel.get_partial_message(card).delete()
        await state.set_requests_card(bot.db, cid, None)
        return
    lines = [t(lc, "join.card_line", member=f"<@{r.member}>", side=side) for r, side in waiting[:REQUESTS_SHOWN]]
    if len(waiting) > REQUESTS_SHOWN:
        lines.append(t(lc, "join.card_more", n=len(waiting) - REQUESTS_SHOWN))
    buttons: list[Any] = []
    for r, _side in waiting[:REQUESTS_SHOWN]:
        who = (r.name or str(r.member))[:40]
        buttons += [JoinVerdict(cid, r.member, "a", t(lc, "join.approve_who", name=who)),
                    JoinVerdict(cid, r.member, "r", t(lc, "join.refuse_who", name=who))]
    content = t(lc, "join.card", gm=f"<@{m.gm_id}>") + "\n" + "\n".join(lines)
    view = dynamic_view(*buttons)
    quiet = discord.AllowedMentions.none()
    if answered is not None:
        await answered.response.edit_message(content=content, view=view, allowed_mentions=quiet)
        return
    if card is not None and channel is not None:
        try:
            await channel.get_partial_message(card).edit(content=content, view=view, allowed_mentions=quiet)
            return
        except discord.NotFound:  # deleted by someone: post it anew
            pass
    if channel is None:
        return
    posted = await channel.send(content, view=view, allowed_mentions=pinging([m.gm_id]))
    await state.set_requests_card(bot.db, cid, posted.id)


async def interaction_delete(interaction: discord.Interaction) -> None:
    """Answer a click by deleting the message it was on."""
    await interaction.response.defer()
    with contextlib.suppress(discord.HTTPException):
        await interaction.delete_original_response()


async def _tell_member(bot: Any, member_id: int, text: str) -> bool:
    """A private message to a member (False: their DMs are closed, or they are gone)."""
    try:
        user = bot.get_user(member_id) or await bot.fetch_user(member_id)
        await user.send(fmt.message_text(text), allowed_mentions=discord.AllowedMentions.none())
    except discord.HTTPException:
        return False
    return True


class Campaign(commands.Cog):
    campaign = app_commands.Group(name="campaign", description="Campaigns: create, join, status, map, log, settings",
                                  guild_only=True)

    def __init__(self, bot: commands.Bot) -> None:
        self.bot = bot

    # --- create / join ------------------------------------------------------------------------

    @campaign.command(name="create", description="Start a campaign in this channel from a scenario; you become its GM")
    @app_commands.describe(name="The campaign's name", scenario="A bundled scenario (or a name for your uploaded file)",
                           file="A scenario (YAML) or a campaign export (JSON) to load",
                           map="A painted map (an image in the terrain palette) for the YAML file's sides and Forces",
                           climate="Scenario generated: its climate zone (MC-0)",
                           season="Scenario generated: the season it starts in",
                           size="Scenario generated: width x height in squares, like 36x26",
                           sides="Scenario generated: how many sides (2 to 8)",
                           seed="Scenario generated: the seed (the same seed draws the same map)")
    @app_commands.autocomplete(scenario=scenario_names)
    @app_commands.choices(climate=[app_commands.Choice(name=c.value, value=c.value) for c in Climate],
                          season=[app_commands.Choice(name=s.value, value=s.value) for s in Season])
    async def create(self, interaction: discord.Interaction, name: app_commands.Range[str, 1, 100],
                     scenario: app_commands.Range[str, 1, 32], file: discord.Attachment | None = None,
                     map: discord.Attachment | None = None, climate: str | None = None, season: str | None = None,
                     size: app_commands.Range[str, 3, 9] | None = None, sides: app_commands.Range[int, 2, 8] | None = None,
                     seed: app_commands.Range[int, 0, 999_999_999] | None = None) -> None:
        bot, actor, lc = bot_of(interaction), actor_of(interaction), lang(interaction)
        guild_id, channel_id = interaction.guild_id or 0, interaction.channel_id or 0
        if isinstance(interaction.channel, discord.Thread):
            raise InvalidInput(t(lc, "campaign.not_in_thread"))
        limits = bot.settings.limits
        if file is not None:  # which kind it is shows once read: refuse only what no kind accepts
            campaigns.check_upload_size(file.size, limits, kind="any")
        # Acknowledge first (Discord waits 3 s), privately: a refusal below stays private. Reading and
        # checking a scenario is CPU-bound (up to about a second): it runs in a worker thread.
        await interaction.response.defer(ephemeral=True, thinking=True)
        if map is not None:  # a painted map: the image's terrain with the file's sides and Forces
            if file is None:
                raise InvalidInput(t(lc, "campaign.paint_needs_file"))
            # Sizes are checked before anything is downloaded, and the painting has its own gate and
            # cooldowns (issue 24, item 1): each one reads up to a 2000x2000 image.
            campaigns.check_upload_size(file.size, limits, kind="scenario")
            paint.check_size(map.size)
            async with bot.budgets[Heavy.PAINTING].admit(member=actor.member_id, campaign=guild_id):
                raw = await file.read()
                campaigns.check_upload_size(len(raw), limits, kind="scenario")
                image = await map.read()
                paint.check_size(len(image))
                text = await asyncio.to_thread(quietly, paint.painted_scenario, image, raw)
                spec = await asyncio.to_thread(quietly, scenarios.parse_scenario_text, text, key=scenario)
        elif file is not None:
            raw = await file.read()
            if await asyncio.to_thread(_is_export, raw):
                campaigns.check_upload_size(len(raw), limits, kind="import")
                await self._import(interaction, raw, name)
                return
            campaigns.check_upload_size(len(raw), limits, kind="scenario")
            spec = await asyncio.to_thread(quietly, scenarios.parse_scenario_text, raw, key=scenario)
        elif scenario.strip().lower() == GENERATED:  # MC-0: a new map from the options, drawn off the event loop
            params = _generation(climate, season, size, sides, seed)
            spec = await _generated(params)
            scenario = params.label()
        else:
            if any(v is not None for v in (climate, season, size, sides, seed)):
                raise InvalidInput(t(lc, "campaign.generate_options"))
            spec = await asyncio.to_thread(scenarios.load_bundled, scenario)
        created = await campaigns.create_campaign(bot.db, guild_id=guild_id, channel_id=channel_id, gm=actor,
                                                  name=name, scenario=scenario, spec=spec, rules=bot.rules,
                                                  limits=limits, language=lc)
        local_names.use(created.campaign_id)  # its names in the reader's language from now on (issue 23)
        embed = discord.Embed(title=t(lc, "campaign.created", name=created.name),
                              description=t(lc, "campaign.created_text", scenario=created.scenario,
                                            gm=interaction.user.mention), colour=fmt.COLOUR)
        embed.add_field(name=t(lc, "campaign.sides"),
                        value="\n".join(f"`{k}` {local_names.said(lc, n)}" for k, n in created.sides))
        embed.add_field(name=t(lc, "campaign.seed"), value=f"`{created.seed_sha256}`", inline=False)
        await self._opening(interaction, created.campaign_id, fmt.fit(embed))

    async def _import(self, interaction: discord.Interaction, raw: bytes, name: str) -> None:
        """Load an export here; its players who are not members of this server are left out, and named."""
        bot, lc = bot_of(interaction), lang(interaction)
        data = await asyncio.to_thread(quietly, exchange.parse_export, raw)  # CPU-bound: off the event loop
        members = {pid for pid in exchange.player_ids(data) if await _is_member(interaction.guild, pid)}
        done = await exchange.import_campaign(bot.db, data, guild_id=interaction.guild_id or 0,
                                              channel_id=interaction.channel_id or 0, gm=actor_of(interaction),
                                              members=members, limits=bot.settings.limits)
        text = t(lc, "campaign.imported_text")
        if done.dropped_players:  # plain ids, never mentions: they are strangers to this server
            text += "\n" + t(lc, "campaign.import_dropped", ids=", ".join(map(str, done.dropped_players[:20])))
        embed = fmt.fit(discord.Embed(title=t(lc, "campaign.imported", name=name), description=text, colour=fmt.COLOUR))
        await self._opening(interaction, done.campaign_id, embed)

    async def _opening(self, interaction: discord.Interaction, cid: int, announced: discord.Embed) -> None:
        """The new campaign, said in the channel in one post: what was created, and its first phase card
        (for a new campaign, the GM's checklist with the Start button). The command deferred privately, so
        a refusal stays private; its first followup completes that private "thinking" message."""
        forget_channel(interaction)
        bot, lc = bot_of(interaction), lang(interaction)
        await interaction.followup.send(t(lc, "campaign.creating_done"), ephemeral=True)
        m = await state.meta(bot.db, cid)
        card, content, calls, view = await publish.card_parts(bot, cid, m.language)
        kwargs: dict[str, Any] = {"view": view} if view is not None else {}
        msg = await interaction.followup.send(content=content, embeds=[announced, card],
                                              allowed_mentions=pinging(calls), wait=True, **kwargs)
        await state.set_card_message(bot.db, cid, msg.id)

    @campaign.command(name="join", description="Join a side of this channel's campaign")
    @app_commands.describe(side="The side to play")
    @app_commands.autocomplete(side=sides)
    async def join(self, interaction: discord.Interaction, side: app_commands.Range[str, 1, 100]) -> None:
        cid = await campaign_id(interaction)
        bot, actor = bot_of(interaction), actor_of(interaction)
        requests = bot.budgets[Heavy.JOIN_REQUEST]
        try:  # one request in a while (issue 24, item 3)
            requests.check(member=(actor.member_id, cid), campaign=cid)
        except TooSoon:  # unless one waits: the core says so
            if not any(r.member == actor.member_id for r, _side in await campaigns.join_requests(bot.db, cid)):
                raise
        joining = await campaigns.join_side(bot.db, cid, actor, side)
        lc = lang(interaction)
        if joining.pending:  # the GM decides: the member is told privately, the campaign's one card lists it
            requests.note(member=(actor.member_id, cid), campaign=cid)
            await reply(interaction, content=t(lc, "join.requested", side=joining.name),
                        view=dynamic_view(WithdrawJoin(cid, t(lc, "join.withdraw"))))
            await _requests_card(bot, cid, interaction.channel)
            return
        key = "campaign.gm_joined" if await state.is_gm_of(bot.db, cid, actor) else "campaign.joined"
        await reply(interaction, content=t(lc, key, member=interaction.user.mention, side=joining.name),
                    ephemeral=False, view=dynamic_view(HowToPlay(cid, t(lc, "howto.button"))))
        await publish.refresh_card(bot, cid)  # the card names who plays which side

    # --- reading --------------------------------------------------------------------------------

    @campaign.command(name="status", description="Turn, date, weather, phase, deadline and who the phase waits for")
    async def status(self, interaction: discord.Interaction) -> None:
        cid = await campaign_id(interaction)
        bot = bot_of(interaction)
        sv = await views.status_card(bot.db, cid, actor_of(interaction), rules=bot.rules)  # only what it shows
        await reply(interaction, embeds=[fmt.status_embed(sv, lang(interaction))])

    @campaign.command(name="map", description="The map: your side's view, or the GM's full view (private)")
    @app_commands.describe(view="mine: what you may see (private); public: what everybody sees; full: GM only, private",
                           around="Centre on this square (a closer view)",
                           extent="near: around your Forces or the square, legible on a phone (default); whole: the whole map")
    @app_commands.choices(view=[app_commands.Choice(name="mine", value="side"),
                                app_commands.Choice(name="public", value="public"),
                                app_commands.Choice(name="full", value="full")],
                          extent=[app_commands.Choice(name="near", value="near"),
                                  app_commands.Choice(name="whole", value="whole")])
    async def map(self, interaction: discord.Interaction, view: str = "side",
                  around: app_commands.Range[str, 2, 8] | None = None, extent: str = "near") -> None:
        """Every view is answered privately. The GM's full view shows every Force, hidden ones included:
        it is posted in the channel only from its button, under a warning that says so. By default the
        map is drawn near (a few squares around ``around`` or the reader's Forces, legible on a phone);
        ``extent: whole`` draws the whole map."""
        bot, actor, lc = bot_of(interaction), actor_of(interaction), lang(interaction)
        cid = await campaign_id(interaction)
        sv = await views.status(bot.db, cid, actor, rules=bot.rules)
        if view == "full" and not sv.gm:
            raise PermissionDenied(t(lc, "map.full_gm_only"))
        who = publish.PUBLIC if view == "public" else actor
        await interaction.response.defer(ephemeral=True, thinking=True)
        if around is None and extent == "near" and isinstance(interaction.channel, discord.Thread):
            around = await _battle_square(bot, cid, interaction.channel_id)
        shown = await _map_embed(interaction, cid, who, view, around, sv, lc, extent)
        if shown is None:
            await interaction.followup.send(t(lc, "map.unavailable"), ephemeral=True)
            return
        embed, file = shown
        if view != "full":
            await interaction.followup.send(embed=embed, file=file, ephemeral=True)
            return
        await interaction.followup.send(t(lc, "map.full_private"), embed=embed, file=file, ephemeral=True,
                                        view=dynamic_view(PostFullMap(cid, _square_id(around), t(lc, "map.post_full"))))

    @map.autocomplete("around")
    async def _around(self, interaction: discord.Interaction, current: str) -> list[app_commands.Choice[str]]:
        """Squares of the Forces the caller may see (fog of war applies)."""
        try:
            cid = await campaign_id(interaction)
            sv = await status_of(interaction, cid)
        except Exception:  # suggestions only
            return []
        return choices(((f"{f.square} ({f.name})", f.square) for f in sv.forces if f.square), current)

    @campaign.command(name="timelapse", description="An animated map of the campaign turn by turn, as your side saw it")
    async def timelapse(self, interaction: discord.Interaction) -> None:
        """Privately: the map at the end of every turn since frames are kept, then now, each drawn for the
        member's fog of war (a player's side, the GM on no side everything, anybody else the public view)."""
        bot, actor, lc = bot_of(interaction), actor_of(interaction), lang(interaction)
        cid = await campaign_id(interaction)
        await interaction.response.defer(ephemeral=True, thinking=True)

        async def drawing(frames: int) -> None:
            if frames >= TIMELAPSE_PROGRESS:
                await interaction.edit_original_response(content=t(lc, "timelapse.drawing", frames=frames))

        # Its own gate and cooldowns (issue 24, item 1), never the render slots of the phase cards; a
        # GIF already drawn for this view since the last turn ended passes neither.
        lapse = await timelapse_gif(bot.db, cid, actor, lang=lc, rules=bot.rules, progress=drawing,
                                    in_process=bot.heavy_in_process,
                                    admit=lambda: bot.budgets[Heavy.TIMELAPSE].admit(member=actor.member_id, campaign=cid))
        if lapse is None:
            await interaction.edit_original_response(content=t(lc, "timelapse.none"))
            return
        await interaction.edit_original_response(
            content=t(lc, "timelapse.done", first=lapse.first_turn, last=lapse.last_turn, frames=lapse.frames),
            attachments=[publish.map_file(lapse.gif, "timelapse.gif", description=lapse.alt or None)])

    @campaign.command(name="log", description="The event and roll log (players also see their side's private entries)")
    @app_commands.describe(turn="Only this turn")
    async def log(self, interaction: discord.Interaction, turn: app_commands.Range[int, 1, 100000] | None = None) -> None:
        cid = await campaign_id(interaction)
        embeds, text = await _log_pages(interaction, cid, turn)
        if len(embeds) == 1:
            await reply(interaction, embeds=embeds)
        else:
            await reply(interaction, embeds=[embeds[-1]],
                        view=log_pager(cid, interaction.user.id, turn, 0, len(embeds), lang(interaction)),
                        files=[fmt.text_file("log.txt", text)])

    # --- players --------------------------------------------------------------------------------

    @campaign.command(name="away", description="Declare an absence (0 days: you are back)")
    @app_commands.describe(days="How many days you will be away (0 ends an absence)")
    async def away(self, interaction: discord.Interaction, days: app_commands.Range[int, 0, 60]) -> None:
        cid = await campaign_id(interaction)
        lc = lang(interaction)
        until = await gm.declare_away(bot_of(interaction).db, cid, actor_of(interaction), days,
                                      now=discord.utils.utcnow())
        text = t(lc, "away.until", when=fmt.timestamp(until)) if until else t(lc, "away.back")
        await reply(interaction, content=text)

    # --- GM -------------------------------------------------------------------------------------

    @campaign.command(name="export", description="GM: the whole campaign (state and roll log) as a file")
    async def export(self, interaction: discord.Interaction) -> None:
        cid = await campaign_id(interaction)
        data = await exchange.export_campaign(bot_of(interaction).db, cid, actor_of(interaction))
        raw = await asyncio.to_thread(exchange.export_bytes, data)
        name = f"campaign-{cid}.json"
        limit = getattr(bot_of(interaction).settings.limits, "max_import_bytes", exchange.MAX_IMPORT_BYTES)
        if len(raw) > limit:  # packed, it comes back (issue 24, item 4)
            raw, name = await asyncio.to_thread(exchange.packed, data), f"campaign-{cid}.json.gz"
        import io

        await reply(interaction, content=t(lang(interaction), "export.done", size=len(raw)),
                    files=[discord.File(io.BytesIO(raw), filename=name),
                           discord.File(io.BytesIO(logbook.verifier_page(data["roll_log"], data["campaign"]["name"],
                                                                         lang(interaction))),
                                        filename=f"campaign-{cid}-verify.html")])

    @campaign.command(name="save",
                      description="GM: the map and Forces as they stand now, as a scenario to start another campaign")
    async def save(self, interaction: discord.Interaction) -> None:
        """The running campaign as a scenario file (issue 15): its map and its Forces as they stand, to
        upload with /campaign create. GM only: it shows every Force, hidden ones included."""
        import io

        cid = await campaign_id(interaction)
        await interaction.response.defer(ephemeral=True, thinking=True)
        filename, raw = await exchange.save_scenario(bot_of(interaction).db, cid, actor_of(interaction),
                                                     rules=bot_of(interaction).rules)
        sv = await views.status(bot_of(interaction).db, cid, actor_of(interaction), rules=bot_of(interaction).rules)
        await interaction.followup.send(t(lang(interaction), "save.done", turn=sv.position.turn, size=len(raw)),
                                        file=discord.File(io.BytesIO(raw), filename=filename), ephemeral=True)

    @campaign.command(name="verify", description="The roll log of ended turns, with a page that checks it offline in a browser")
    async def verify(self, interaction: discord.Interaction) -> None:
        cid = await campaign_id(interaction)
        import io

        files = await logbook.verifier_files(bot_of(interaction).db, cid, lang(interaction))
        await reply(interaction, content=t(lang(interaction), "verify.files"),
                    files=[discord.File(io.BytesIO(raw), filename=name) for name, raw in files])

    @campaign.command(name="settings", description="GM: show or change the campaign's options and bot settings")
    @app_commands.describe(name="The setting", value="Its new value (leave out to see the choices)")
    async def settings(self, interaction: discord.Interaction, name: app_commands.Range[str, 1, 40] | None = None,
                       value: app_commands.Range[str, 1, 100] | None = None) -> None:
        bot, actor, lc = bot_of(interaction), actor_of(interaction), lang(interaction)
        cid = await campaign_id(interaction)
        m = await state.require_gm_of(bot.db, cid, actor)
        specs = bot.rules.mc.options
        name = _settings.typed_name(lc, name) if name else name  # its name in the reader's words, or its id
        value = _settings.typed_value(lc, value) if value else value
        if name is None or value is None:
            if not name:
                await _settings.show_page(interaction, cid, _settings.Page.FLOW)
                return
            page = _settings.page_of(bot, name.strip())
            if page is None:
                raise InvalidInput(t(lc, "settings.unknown", name=name.strip()))
            used = await campaigns.usage(bot.db, guild_id=m.guild_id, member_id=actor.member_id) \
                if page is _settings.Page.LIMITS else None
            requests = await campaigns.join_requests(bot.db, cid) if page is _settings.Page.FLOW else None
            shown = _settings.embed(bot, m, lc, page, only=name.strip(), used=used, requests=requests)
            values = list(_settings.values_of(bot, name.strip()))
            view = dynamic_view(_settings.ValueSelect(cid, name.strip(), lc, values)) if values else None
            await reply(interaction, embeds=[shown], **({"view": view} if view else {}))
            return
        name = name.strip()
        if name in limits.NAMES:
            raise InvalidInput(t(lc, "settings.read_only", name=_settings.said_name(lc, name), env=limits.ENV[name]))
        if name in specs:
            merged = await campaigns.change_setting(bot.db, cid, actor, name, value, rules=bot.rules)
            shown = merged.get(name, value)
        else:
            kind = state.id_setting_kind(name)
            if kind is not None:
                ident = state.setting_id(name, value, guild_id=m.guild_id)
                if ident is not None:
                    await _of_this_server(interaction, m.guild_id, name, kind, ident, lc)
            shown = await state.change_bot_setting(bot.db, cid, actor, name, value)
        sides = {key: side for key, side, _ in (await status_of(interaction, cid)).sides}
        await reply(interaction, content=t(lc, "settings.changed", name=_settings.said_name(lc, name, sides),
                                           value=_settings.said_value(lc, shown)), ephemeral=False)
        if name in specs:  # RU-26: a general seated by the setting acted; the phase may have nothing left to wait for
            await publish.settle(bot, cid)

    @settings.autocomplete("name")
    async def _setting_names(self, interaction: discord.Interaction, current: str) -> list[app_commands.Choice[str]]:
        lc = lang(interaction)
        names = [*self.bot.rules.mc.options, *state.bot_setting_names(), *limits.NAMES]  # type: ignore[attr-defined]
        sides: dict[str, str] = {}
        try:
            cid = await campaign_id(interaction)
            sv = await status_of(interaction, cid)
            sides = {key: side for key, side, _ in sv.sides}
            names += [f"{state.SIDE_CHANNEL}{key}" for key in sides]
        except Exception:  # suggestions only
            pass
        # each by its name in the reader's words; its identifier is what is sent (issue 23: nothing typed in English)
        return choices(((_settings.said_name(lc, n, sides), n) for n in names), current)

    @settings.autocomplete("value")
    async def _setting_values(self, interaction: discord.Interaction, current: str) -> list[app_commands.Choice[str]]:
        name = str(getattr(interaction.namespace, "name", "") or "")
        lc = lang(interaction)
        values = _settings.values_of(self.bot, _settings.typed_name(lc, name)) or ("none",)
        return choices(((_settings.said_value(lc, v), v) for v in values), current)

    @campaign.command(name="end", description="GM: end and archive this channel's campaign")
    async def end(self, interaction: discord.Interaction) -> None:
        cid = await campaign_id(interaction)
        await campaigns.end_campaign(bot_of(interaction).db, cid, actor_of(interaction))
        forget_channel(interaction)
        await reply(interaction, content=t(lang(interaction), "campaign.ended"), ephemeral=False)


async def _of_this_server(interaction: discord.Interaction, guild_id: int, name: str, kind: str, ident: int,
                          lc: str) -> None:
    """Refuse a role, channel or thread id that is not one of the campaign's server (``guild_id``), or a
    channel the bot cannot post in (a category, a forum): the setting would make the bot act elsewhere."""
    guild = interaction.guild if interaction.guild and interaction.guild.id == guild_id else None
    if kind == "role":
        if guild is None or guild.get_role(ident) is None:
            raise InvalidInput(t(lc, "settings.foreign_role", name=name, value=ident))
        return
    found: Any = guild.get_channel_or_thread(ident) if guild is not None else None
    if found is None and guild is not None:  # a thread the cache has not seen: Discord says whose it is
        try:
            found = await guild.fetch_channel(ident)
        except (discord.HTTPException, discord.InvalidData):  # unknown, hidden, or another server's
            found = None
    if found is None or getattr(getattr(found, "guild", None), "id", None) != guild_id:
        raise InvalidInput(t(lc, "settings.foreign_channel", name=name, value=ident))
    if not isinstance(found, discord.TextChannel | discord.Thread | discord.VoiceChannel | discord.StageChannel):
        raise InvalidInput(t(lc, "settings.not_postable", name=name, value=ident))


async def setup(bot: commands.Bot) -> None:
    bot.add_dynamic_items(PostFullMap, publish.MutePings, publish.TurnDice, publish.StartCampaign, *_settings.ITEMS, LogPage, JoinVerdict, WithdrawJoin)
    await bot.add_cog(Campaign(bot))
