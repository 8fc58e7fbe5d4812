"""The Discord bot: a thin shell over the services, wired from outside (STYLE lessons 8-11).

``create_bot(settings)`` builds it with its database, rule book and settings; ``setup_hook``
upgrades the database, loads the cogs, installs the translator and syncs the commands. Every error
of every command, button and modal goes to :meth:`AideMixin.report_error`.
"""

from __future__ import annotations

import asyncio
import gc
import logging
import secrets
from typing import Any

import discord
from discord import app_commands
from discord.ext import commands

from bot.campaign.hints import hint_for
from bot.engine.errors import EngineError
from bot.engine.tables import RuleBook, default_rulebook
from bot.i18n import Translator, lang_of, t
from bot.i18n.text import tr
from bot.services.budget import Budget, Heavy
from bot.settings import Settings
from bot.store.db import Database

log = logging.getLogger("adc.bot")

EXTENSIONS = (
    "bot.cogs.campaign",
    "bot.cogs.orders",
    "bot.cogs.supply",
    "bot.cogs.battle",
    "bot.cogs.leaders",
    "bot.cogs.gm",
    "bot.cogs.dice",
    "bot.cogs.scheduler",
    "bot.cogs.about",
    "bot.cogs.help",
)
RENDER_SLOTS = 2
"""Map renders at once (each holds a few MB of image while it runs)."""


def error_id() -> str:
    return secrets.token_hex(4)


class AideTree(app_commands.CommandTree):
    """The command tree: its one error handler is the bot's."""

    async def interaction_check(self, interaction: discord.Interaction, /) -> bool:
        from bot.cogs._edge import check_text_options  # every text option is clean (security issue, item 6)

        return await check_text_options(interaction)

    async def on_error(self, interaction: discord.Interaction, error: app_commands.AppCommandError) -> None:
        await self.client.report_error(interaction, error)  # type: ignore[attr-defined]


class AideMixin:
    """Dependencies and behaviour shared by the plain and the auto-sharded bot."""

    settings: Settings
    db: Database
    rules: RuleBook
    tree: app_commands.CommandTree

    def _setup_aide(self, settings: Settings, db: Database, rules: RuleBook, *, sync_commands: bool,
                    background_tasks: bool, deadline_interval: float, render_slots: int,
                    watchdog_interval: float | None = None, heavy_in_process: bool = True) -> None:
        self.settings = settings
        self.db = db
        self.rules = rules
        self.sync_commands = sync_commands
        self.background_tasks = background_tasks
        self.deadline_interval = deadline_interval
        self.watchdog_interval = watchdog_interval
        self.started_at = discord.utils.utcnow()
        self.render_gate = asyncio.Semaphore(render_slots)
        self.budgets = {kind: Budget(kind) for kind in Heavy}
        self.heavy_in_process = heavy_in_process
        """A timelapse is drawn in a worker process (False: a thread, for tests that watch the drawing)."""
        """Heavy work's own gates and cooldowns (a timelapse, a painted map): bot.services.budget."""
        self.synced: list[app_commands.AppCommand] = []
        self.channel_campaigns: dict[int, tuple[int, float]] = {}
        """channel id -> (campaign id, expiry on the monotonic clock): see bot.cogs._common.campaign_id."""

    async def setup_hook(self) -> None:
        await self.db.upgrade()
        for ext in EXTENSIONS:
            await self.load_extension(ext)  # type: ignore[attr-defined]
        # What is loaded by now lives as long as the process: keep it out of the collector's full
        # passes, which otherwise pause every command for 100 ms or more once a large map is loaded.
        gc.freeze()
        await self.tree.set_translator(Translator())
        if self.sync_commands:
            await self.sync_tree()
        log.info("event=ready_to_connect commands=%d sync=%s", len(self.tree.get_commands()), self.sync_commands)

    async def sync_tree(self) -> list[app_commands.AppCommand]:
        guild = discord.Object(self.settings.dev_guild) if self.settings.dev_guild else None
        if guild is not None:
            self.tree.copy_global_to(guild=guild)
        self.synced = await self.tree.sync(guild=guild)
        log.info("event=commands_synced count=%d scope=%s", len(self.synced), "guild" if guild else "global")
        return self.synced

    async def close(self) -> None:
        try:
            await super().close()  # type: ignore[misc]
        finally:
            await self.db.dispose()

    async def report_error(self, interaction: discord.Interaction, error: BaseException, *,
                           view: discord.ui.View | None = None) -> None:
        """The one error handler: a domain error is a short ephemeral message saying what to do
        instead (with ``view``'s buttons, e.g. to reopen a refused form); anything else is logged with an
        ID the user is shown. Never a traceback."""
        original = error
        if isinstance(original, app_commands.CommandInvokeError):
            original = original.original
        elif isinstance(original, app_commands.TransformerError) and original.__cause__ is not None:
            original = original.__cause__
        lang = lang_of(interaction.locale)
        if isinstance(original, EngineError):
            hint = hint_for(original)  # written for this refusal, or none: never one per kind of error
            text = (t(lang, "error.domain", message=tr(lang, original), hint=tr(lang, hint)) if hint is not None
                    else t(lang, "error.plain", message=tr(lang, original)))
            log.info("event=refused command=%s user=%s kind=%s", _command_name(interaction), interaction.user.id,
                     type(original).__name__)
        elif isinstance(original, app_commands.CheckFailure):
            text = t(lang, "error.check")
        elif isinstance(original, discord.Forbidden):
            text = t(lang, "error.forbidden")
            log.warning("event=forbidden command=%s code=%s", _command_name(interaction), original.code)
        else:
            eid = error_id()
            log.error("event=unexpected_error error_id=%s command=%s user=%s", eid, _command_name(interaction),
                      interaction.user.id, exc_info=original)
            text = t(lang, "error.unexpected", id=eid)
            await _send_ephemeral(interaction, text)  # first: the interaction must be answered in time
            await self.record_error(eid, _command_name(interaction), original,
                                    campaign_id=await self._campaign_of(interaction),
                                    guild_id=interaction.guild_id, user_id=interaction.user.id)
            return
        await _send_ephemeral(interaction, text, view=view if isinstance(original, EngineError) else None)

    async def record_error(self, eid: str, command: str, error: BaseException, *, campaign_id: int | None = None,
                           guild_id: int | None = None, user_id: int | None = None) -> None:
        """Keep an error id with its campaign, command, time and exception type (for ``/about``).
        Best effort: the database may be what failed, and the error is logged either way."""
        from bot.services.operations import record_error

        try:
            await record_error(self.db, eid, command=command, kind=type(error).__name__, campaign_id=campaign_id,
                               guild_id=guild_id, user_id=user_id)
        except Exception as exc:  # nothing more to do than say so in the log
            log.warning("event=error_record_failed error_id=%s kind=%s", eid, type(exc).__name__)

    async def _campaign_of(self, interaction: discord.Interaction) -> int | None:
        """The campaign of the interaction's channel (a battle thread's parent), if there is one."""
        from bot.cogs._common import campaign_id

        try:
            return await campaign_id(interaction)
        except Exception:  # no campaign here, or the database is what failed
            return None


def _command_name(interaction: discord.Interaction) -> str:
    cmd = interaction.command
    if cmd is not None:
        return cmd.qualified_name
    data: Any = interaction.data or {}
    return str(data.get("custom_id") or data.get("name") or "?")


async def _send_ephemeral(interaction: discord.Interaction, text: str, *, view: discord.ui.View | None = None) -> None:
    from bot.formatting import message_text

    extra: dict[str, Any] = {"view": view} if view is not None else {}
    try:
        if interaction.response.is_done():
            await interaction.followup.send(message_text(text), ephemeral=True, **extra)
        else:
            await interaction.response.send_message(message_text(text), ephemeral=True, **extra)
    except discord.HTTPException as exc:  # the interaction expired, or Discord refused: nothing else to do
        log.warning("event=error_reply_failed status=%s", exc.status)


class AideBot(AideMixin, commands.Bot):
    pass


class ShardedAideBot(AideMixin, commands.AutoShardedBot):
    pass


def create_bot(
    settings: Settings,
    *,
    db: Database | None = None,
    rules: RuleBook | None = None,
    sync_commands: bool = True,
    background_tasks: bool = True,
    deadline_interval: float = 60.0,
    render_slots: int = RENDER_SLOTS,
    shard_count: int | None = None,
    watchdog_interval: float | None = None,
    heavy_in_process: bool = True,
) -> AideBot | ShardedAideBot:
    """The bot, with its dependencies injected (an AutoShardedBot when ``settings.shard``, or when
    ``settings.shard_count`` or ``shard_count`` is set: then with those shards, ``settings.shard_ids``
    of them in this process).

    ``sync_commands=False`` skips syncing the command tree at start; ``background_tasks=False``
    leaves the deadline and backup loops off; ``deadline_interval`` is the seconds between
    deadline checks; ``watchdog_interval`` those between the watchdog's ticks (restarts of dead
    loops and the heartbeat; the deadline interval when None); ``heavy_in_process=False`` draws a
    timelapse in a thread rather than a worker process (tests that watch the drawing)."""
    intents = discord.Intents.default()
    kwargs: dict[str, Any] = {
        "command_prefix": commands.when_mentioned,
        "intents": intents,
        "tree_cls": AideTree,
        "help_command": None,
        # Names (sides, Forces, units, leaders) come from members: nothing pings by default. A message
        # meant to ping (a reminder, a phase card) allows exactly its members (bot.cogs._common.pinging).
        "allowed_mentions": discord.AllowedMentions.none(),
    }
    count = shard_count or settings.shard_count
    ids = list(settings.shard_ids) if settings.shard_ids is not None else None
    bot: AideBot | ShardedAideBot = (
        ShardedAideBot(shard_count=count, shard_ids=ids, **kwargs) if settings.sharded or count else AideBot(**kwargs)
    )
    bot._setup_aide(settings, db or Database(settings.database_url), rules or default_rulebook(),
                    sync_commands=sync_commands, background_tasks=background_tasks,
                    deadline_interval=deadline_interval, render_slots=render_slots,
                    watchdog_interval=watchdog_interval, heavy_in_process=heavy_in_process)
    return bot
