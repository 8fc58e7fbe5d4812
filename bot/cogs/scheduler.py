"""Deadlines and backups, on ``tasks.loop``.

Deadlines are in the database, so they survive restarts. Each check: reminders 24 h and 1 h
before, by DM to the players the phase still waits for (a mention in the side's channel, or the
campaign's, when their DMs are closed); at the deadline the phase resolves (forced) or the GM is
told, by the campaign's ``at_deadline`` setting. With several bot processes each action happens
once: reminders are claimed in a locked transaction, and a resolution passes the campaign version
the deadline was set for, so the services refuse all but the first (AlreadyResolved, ignored).
"""

from __future__ import annotations

import datetime as dt
import logging

import discord
from discord.ext import commands, tasks

from bot import formatting as fmt
from bot.engine.errors import EngineError
from bot.i18n import t
from bot.i18n.text import tr
from bot.services import bookkeeping as state
from bot.services import views
from bot.services.errors import AlreadyResolved
from bot.store.backup import backup_database

from . import _publish as publish

log = logging.getLogger("adc.scheduler")

REMINDERS = (("1h", dt.timedelta(hours=1)), ("24h", dt.timedelta(hours=24)))
"""Nearest first: when both are due at once, only the nearer one is sent."""
MAX_STRETCH = dt.timedelta(days=60)


class Scheduler(commands.Cog):
    def __init__(self, bot: commands.Bot) -> None:
        self.bot = bot
        self.deadlines.change_interval(seconds=getattr(bot, "deadline_interval", 60.0))

    async def cog_load(self) -> None:
        if getattr(self.bot, "background_tasks", True):
            self.deadlines.start()
            self.backups.start()

    async def cog_unload(self) -> None:
        self.deadlines.cancel()
        self.backups.cancel()

    @tasks.loop(seconds=60)
    async def deadlines(self) -> None:
        await self.check_deadlines(discord.utils.utcnow())

    @deadlines.before_loop
    async def _ready(self) -> None:
        await self.bot.wait_until_ready()

    @tasks.loop(hours=24)
    async def backups(self) -> None:
        settings = self.bot.settings  # type: ignore[attr-defined]
        try:
            path = await backup_database(settings.database_url, settings.data_dir)
        except Exception:  # a failed backup must not stop the next one
            log.exception("event=backup_failed")
            return
        log.info("event=backup path=%s", path)

    @backups.before_loop
    async def _ready_backups(self) -> None:
        await self.bot.wait_until_ready()

    async def check_deadlines(self, now: dt.datetime) -> None:
        """One pass over every campaign with a deadline (each one's failure is logged, not fatal)."""
        for m in await state.with_deadlines(self.bot.db):  # type: ignore[attr-defined]
            try:
                await self._one(m, now)
            except Exception:  # one campaign must not stop the others
                log.exception("event=deadline_error campaign=%s", m.campaign_id)

    async def _one(self, m: state.Meta, now: dt.datetime) -> None:
        bot = self.bot
        db = bot.db  # type: ignore[attr-defined]
        if m.deadline is None:
            return
        version = m.deadline_version if m.deadline_version is not None else m.version
        if version != m.version:  # the phase the deadline was set for is over
            await state.clear_deadline(db, m.campaign_id, resolved_from=version)
            return
        deadline = await self._effective_deadline(m)
        if now >= deadline:
            await self._expire(m, version)
            return
        for tag, before in REMINDERS:
            if now >= deadline - before:
                tags = tuple(name for name, delta in REMINDERS if delta >= before)
                if tag not in m.reminded and await state.claim(db, m.campaign_id, tags, version=version):
                    await self._remind(m, deadline)
                break

    async def _effective_deadline(self, m: state.Meta) -> dt.datetime:
        """The deadline, stretched to the return of an absent player the phase waits for (``away: stretch``)."""
        assert m.deadline is not None
        if m.setting("away") != "stretch":
            return m.deadline
        db = self.bot.db  # type: ignore[attr-defined]
        if not any(p.away_until and p.away_until > m.deadline for p in await state.players(db, m.campaign_id)):
            return m.deadline  # nobody is away past the deadline: no need to ask who the phase waits for
        waiting = await self._waiting_players(m)
        latest = max((p.away_until for p in waiting if p.away_until), default=None)
        if latest is None or latest <= m.deadline:
            return m.deadline
        return min(latest, m.deadline + MAX_STRETCH)

    async def _waiting_players(self, m: state.Meta) -> list[state.PlayerInfo]:
        db = self.bot.db  # type: ignore[attr-defined]
        sv = await views.status(db, m.campaign_id, m.gm, rules=self.bot.rules)  # type: ignore[attr-defined]
        names = {name: key for key, name, _ in sv.sides}
        sides = {names[w.who] for w in sv.waiting if w.who in names}
        return [p for p in await state.players(db, m.campaign_id) if p.side in sides]

    async def _remind(self, m: state.Meta, deadline: dt.datetime) -> None:
        """DM each player the phase waits for; those whose DMs are closed get a mention instead."""
        lang = m.language
        waiting = await self._waiting_players(m)
        now = discord.utils.utcnow()
        targets = [p for p in waiting if not (m.setting("away") == "hold" and p.away_until and p.away_until > now)]
        text = t(lang, "remind.dm", name=m.name, when=fmt.timestamp(deadline), rel=fmt.timestamp(deadline, "R"))
        closed: dict[str, list[int]] = {}
        for p in targets:
            try:
                user = self.bot.get_user(p.member_id) or await self.bot.fetch_user(p.member_id)
                await user.send(text)
            except discord.Forbidden:
                closed.setdefault(p.side, []).append(p.member_id)
            except discord.HTTPException as exc:
                log.warning("event=reminder_failed campaign=%s member=%s status=%s", m.campaign_id, p.member_id,
                            exc.status)
                closed.setdefault(p.side, []).append(p.member_id)
        log.info("event=reminders campaign=%s sent=%d fallback=%d", m.campaign_id,
                 len(targets) - sum(map(len, closed.values())), sum(map(len, closed.values())))
        if not closed:
            return
        side_channels = await state.side_channels(self.bot.db, m.campaign_id)  # type: ignore[attr-defined]
        for side, members in closed.items():
            target = await publish.channel(self.bot, side_channels.get(side) or m.channel_id)  # type: ignore[arg-type]
            if target is None:
                continue
            mentions = " ".join(f"<@{mid}>" for mid in members)
            await target.send(fmt.message_text(t(lang, "remind.mention", mentions=mentions, name=m.name,
                                                 when=fmt.timestamp(deadline), rel=fmt.timestamp(deadline, "R"))),
                              allowed_mentions=discord.AllowedMentions(users=True, roles=False, everyone=False))

    async def _expire(self, m: state.Meta, version: int) -> None:
        bot = self.bot
        if m.setting("at_deadline") == "resolve":
            try:
                await publish.resolve(bot, m.campaign_id, m.gm, expected_version=version, forced=True)  # type: ignore[arg-type]
                return
            except AlreadyResolved:
                return  # another process (or the GM) was first
            except EngineError as exc:  # e.g. battles cannot end without their reports
                reason = tr(m.language, exc)
        else:
            reason = ""
        if not await state.claim(bot.db, m.campaign_id, ("expired",), version=version):  # type: ignore[attr-defined]
            return
        target = await publish.channel(bot, m.channel_id)  # type: ignore[arg-type]
        if target is not None:
            await target.send(fmt.message_text(t(m.language, "deadline.passed", gm=f"<@{m.gm_id}>", reason=reason)),
                              allowed_mentions=discord.AllowedMentions(users=True, roles=False, everyone=False))


async def setup(bot: commands.Bot) -> None:
    await bot.add_cog(Scheduler(bot))
