"""Deadlines, reminders and backups, on ``tasks.loop``, kept alive by a watchdog.

Deadlines are in the database, so they survive restarts. Each check: reminders 24 h and 1 h
before, by DM to the players the phase still waits for (a mention in the side's channel, or the
campaign's, when their DMs are closed); at the deadline the phase resolves (forced) or the GM is
told, by the campaign's ``at_deadline`` setting. With several bot processes each action happens
once: each process checks only the campaigns of guilds on its own shards (``ADC_SHARD_IDS``),
reminders are claimed in a locked transaction, and a resolution passes the campaign version the
deadline was set for, so the services refuse all but the first (AlreadyResolved, ignored). Backups
are taken by one process only (the one running shard 0).

Failures: one campaign's failure (even a row whose settings cannot be read) is logged with an error
id and recorded, once until it changes, and the other campaigns go on. A pass that fails as a whole
(the database unreachable) ends its loop; the watchdog restarts it after a growing delay
(:data:`BACKOFF_BASE` doubling up to :data:`BACKOFF_CAP`) and, at every tick, writes the heartbeat
file ``python -m bot health`` reads.
"""

from __future__ import annotations

import datetime as dt
import json
import logging
import os
from typing import Any

import discord
from discord.ext import commands, tasks

from bot import formatting as fmt
from bot.engine.errors import EngineError
from bot.i18n import names as local_names
from bot.i18n import t
from bot.i18n.text import tr, tr_lines
from bot.services import bookkeeping as state
from bot.services import operations, views
from bot.services.errors import AlreadyResolved

from . import _publish as publish
from ._common import dynamic_view, pinging

log = logging.getLogger("adc.scheduler")

REMINDERS = (("1h", dt.timedelta(hours=1)), ("24h", dt.timedelta(hours=24)))
"""Nearest first: when both are due at once, only the nearer one is sent. A reminder is due only for a
deadline set more than that long before it (a 2-hour deadline gets no "24 h" reminder)."""
LAST_REMINDER = "1h"
"""After it, the GM is told who stalls the phase."""
MAX_STRETCH = dt.timedelta(days=60)
BACKOFF_BASE = 30.0
"""Seconds before a dead loop's first restart; doubled after each further death in a row."""
BACKOFF_CAP = 900.0


class JobFailed(Exception):
    """A campaign's job (deadlines or reminders) failed; the cause is the original exception."""

    def __init__(self, job: str) -> None:
        super().__init__(job)
        self.job = job


class Scheduler(commands.Cog):
    def __init__(self, bot: commands.Bot) -> None:
        self.bot = bot
        interval = getattr(bot, "deadline_interval", 60.0)
        self.interval = dt.timedelta(seconds=interval)
        self.deadlines.change_interval(seconds=interval)
        self.watchdog.change_interval(seconds=getattr(bot, "watchdog_interval", None) or interval)
        self.deaths: dict[str, int] = {}
        """Loop name -> deaths in a row (reset by a pass that completes)."""
        self.restart_at: dict[str, dt.datetime] = {}
        self.reported: dict[int, tuple[str, str, str]] = {}
        """Campaign id -> the failure already reported for it (job, exception type, error id)."""
        self.last_pass: dt.datetime | None = None

    @property
    def settings(self) -> Any:
        return self.bot.settings  # type: ignore[attr-defined]

    def supervised(self) -> dict[str, tasks.Loop[Any]]:
        """The loops this process runs (backups: one process of a deployment)."""
        loops: dict[str, tasks.Loop[Any]] = {"deadlines": self.deadlines}
        if self.settings.runs_backups:
            loops["backups"] = self.backups
        return loops

    async def cog_load(self) -> None:
        if getattr(self.bot, "background_tasks", True):
            for loop in self.supervised().values():
                loop.start()
            self.watchdog.start()

    async def cog_unload(self) -> None:
        self.watchdog.cancel()
        self.deadlines.cancel()
        self.backups.cancel()

    # --- the loops ------------------------------------------------------------------------------

    @tasks.loop(seconds=60)
    async def deadlines(self) -> None:
        await self.check_deadlines(discord.utils.utcnow())
        self.deaths.pop("deadlines", None)

    @deadlines.before_loop
    async def _ready(self) -> None:
        await self.bot.wait_until_ready()

    @deadlines.error
    async def _deadlines_died(self, error: BaseException) -> None:
        await self._loop_died("deadlines", error)

    @tasks.loop(hours=24)
    async def backups(self) -> None:
        settings = self.settings
        try:
            path = await operations.backup(settings.database_url, settings.data_dir)
        except Exception as exc:  # a failed backup must not stop the next one
            await self._failed("backups", exc)
            return
        self.deaths.pop("backups", None)
        log.info("event=backup path=%s", path)

    @backups.before_loop
    async def _ready_backups(self) -> None:
        await self.bot.wait_until_ready()

    @backups.error
    async def _backups_died(self, error: BaseException) -> None:
        await self._loop_died("backups", error)

    @tasks.loop(seconds=60)
    async def watchdog(self) -> None:
        """Restart a dead loop once its backoff has passed; write the heartbeat."""
        try:
            now = discord.utils.utcnow()
            for name, loop in self.supervised().items():
                if loop.is_running() or now < self.restart_at.get(name, now):
                    continue
                log.warning("event=loop_restarted loop=%s deaths=%d", name, self.deaths.get(name, 0))
                self.restart_at.pop(name, None)
                loop.start()
            self.beat()
        except Exception:  # the watchdog itself never dies
            log.exception("event=watchdog_error")

    def beat(self) -> None:
        """Write the heartbeat file (atomically): its age is what ``python -m bot health`` checks."""
        path = self.settings.heartbeat_file
        data = {
            "pid": os.getpid(),
            "at": dt.datetime.now(dt.UTC).isoformat(timespec="seconds"),
            "ready": self.bot.is_ready(),
            "loops": {name: "running" if loop.is_running() else "restarting"
                      for name, loop in self.supervised().items()},
            "last_deadline_pass": self.last_pass.isoformat(timespec="seconds") if self.last_pass else None,
            "shards": list(self.settings.shard_ids) if self.settings.shard_ids is not None else None,
        }
        try:
            path.parent.mkdir(parents=True, exist_ok=True)
            partial = path.with_name(path.name + ".partial")
            partial.write_text(json.dumps(data), encoding="utf-8")
            partial.replace(path)
        except OSError as exc:
            log.warning("event=heartbeat_failed path=%s reason=%s", path, exc.strerror or exc)

    # --- failures -------------------------------------------------------------------------------

    async def _loop_died(self, name: str, error: BaseException) -> None:
        from bot.app import error_id

        eid = error_id()
        deaths = self.deaths[name] = self.deaths.get(name, 0) + 1
        delay = min(BACKOFF_CAP, BACKOFF_BASE * 2 ** (deaths - 1))
        self.restart_at[name] = discord.utils.utcnow() + dt.timedelta(seconds=delay)
        log.error("event=loop_failed loop=%s error_id=%s deaths=%d kind=%s", name, eid, deaths,
                  type(error).__name__, exc_info=error)
        log.warning("event=loop_restart_scheduled loop=%s retry_in=%.0f", name, delay)
        await self._record(eid, name, error)

    async def _failed(self, job: str, exc: BaseException, campaign_id: int | None = None,
                      guild_id: int | None = None) -> None:
        """Log (with an error id) and record one failure; a campaign's failure once until it changes."""
        from bot.app import error_id

        if campaign_id is not None:
            before = self.reported.get(campaign_id)
            if before is not None and before[:2] == (job, type(exc).__name__):
                log.debug("event=still_failing job=%s campaign=%s error_id=%s", job, campaign_id, before[2])
                return
        eid = error_id()
        if campaign_id is not None:
            self.reported[campaign_id] = (job, type(exc).__name__, eid)
        log.error("event=%s_failed error_id=%s campaign=%s kind=%s", job, eid, campaign_id, type(exc).__name__,
                  exc_info=exc)
        await self._record(eid, job, exc, campaign_id=campaign_id, guild_id=guild_id)

    async def _record(self, eid: str, job: str, exc: BaseException, **where: Any) -> None:
        record = getattr(self.bot, "record_error", None)
        if record is not None:
            await record(eid, job, exc, **where)

    # --- deadlines ------------------------------------------------------------------------------

    async def check_deadlines(self, now: dt.datetime) -> None:
        """One pass over the campaigns with a deadline of this process's shards (each one's failure
        is logged and recorded, not fatal; a failure to list them at all ends the pass)."""
        unreadable: list[tuple[int, Exception]] = []
        metas = await state.with_deadlines(self.bot.db, shards=self.settings.partial_shards,  # type: ignore[attr-defined]
                                           on_error=lambda cid, exc: unreadable.append((cid, exc)))
        for cid, exc in unreadable:
            await self._failed("deadlines", exc, campaign_id=cid)
        for m in metas:
            try:
                await self._one(m, now)
            except JobFailed as failed:
                await self._failed(failed.job, failed.__cause__ or failed, campaign_id=m.campaign_id,
                                   guild_id=m.guild_id)
            except Exception as exc:  # one campaign must not stop the others
                await self._failed("deadlines", exc, campaign_id=m.campaign_id, guild_id=m.guild_id)
            else:
                self.reported.pop(m.campaign_id, None)
        self.last_pass = now

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
            if m.deadline_set is not None and m.deadline - m.deadline_set < before:
                continue  # set less than that long before it: this reminder was never due
            if now >= deadline - before:
                tags = tuple(name for name, delta in REMINDERS if delta >= before)
                if tag not in m.reminded and await state.claim(db, m.campaign_id, tags, version=version):
                    try:
                        await self._remind(m, deadline)
                        if tag == LAST_REMINDER:
                            await self._tell_gm(m, deadline)
                    except Exception as exc:
                        raise JobFailed("reminders") from exc
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
        return list((await state.awaited(self.bot.db, m.campaign_id)).players)  # type: ignore[attr-defined]

    async def _tell_gm(self, m: state.Meta, deadline: dt.datetime) -> None:
        """After the last reminder: the GM learns who stalls the phase (by DM; in the channel if closed)."""
        db = self.bot.db  # type: ignore[attr-defined]
        awaited = await state.awaited(db, m.campaign_id)
        sv = await views.status(db, m.campaign_id, m.gm, rules=self.bot.rules)  # type: ignore[attr-defined]
        names = {key: name for key, name, _ in sv.sides}
        who = [f"**{local_names.said(m.language, names.get(side, side))}**"
               + "".join(f" <@{p.member_id}>" for p in awaited.players if p.side == side) for side in awaited.sides]
        if not who:
            return
        text = fmt.message_text(t(m.language, "remind.gm", name=m.name, who=", ".join(who),
                                  when=fmt.timestamp(deadline), rel=fmt.timestamp(deadline, "R")))
        try:
            user = self.bot.get_user(m.gm_id) or await self.bot.fetch_user(m.gm_id)
            await user.send(text, allowed_mentions=discord.AllowedMentions.none())
        except discord.HTTPException:
            target = await publish.channel(self.bot, m.channel_id, guild_id=m.guild_id)  # type: ignore[arg-type]
            if target is not None:
                await target.send(f"<@{m.gm_id}> {text}", allowed_mentions=pinging([m.gm_id]))

    async def _remind(self, m: state.Meta, deadline: dt.datetime) -> None:
        """DM each player the phase waits for; those whose DMs are closed get a mention instead."""
        lang = m.language
        waiting = await self._waiting_players(m)
        now = discord.utils.utcnow()
        targets = [p for p in waiting if p.pings and not (m.setting("away") == "hold" and p.away_until
                                                          and p.away_until > now)]
        link = await publish.card_link(self.bot, m.campaign_id)  # type: ignore[arg-type]
        said: dict[str, tuple[discord.Embed, discord.ui.View | None]] = {}
        closed: dict[str, list[int]] = {}
        for p in targets:
            if p.side not in said:
                said[p.side] = await self._reminder(m, p.side, deadline, link)
            embed, view = said[p.side]
            try:
                user = self.bot.get_user(p.member_id) or await self.bot.fetch_user(p.member_id)
                await user.send(embed=embed, **({"view": view} if view is not None else {}))
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
            target = await publish.channel(self.bot, side_channels.get(side) or m.channel_id,
                                           guild_id=m.guild_id)  # type: ignore[arg-type]
            if target is None:
                continue
            mentions = " ".join(f"<@{mid}>" for mid in members)
            await target.send(fmt.message_text(t(lang, "remind.mention", mentions=mentions, name=m.name,
                                                 when=fmt.timestamp(deadline), rel=fmt.timestamp(deadline, "R"))),
                              allowed_mentions=pinging(members))

    async def _reminder(self, m: state.Meta, side: str, deadline: dt.datetime,
                        link: str | None) -> tuple[discord.Embed, discord.ui.View | None]:
        """A side's reminder (:func:`bot.campaign.reminders.missing` decides what it says): the campaign, the
        phase, what exactly the side still has to do, the time left, the way back to the phase card, and in
        Phases 1 and 2 the "My side is done" button (it carries the campaign and the side: a DM has neither)."""
        from .orders import MySideDone

        lang = m.language
        miss = await views.missing(self.bot.db, m.campaign_id, side)  # type: ignore[attr-defined]
        lines = [t(lang, "remind.dm", name=m.name, side=miss.side_name, phase=tr(lang, miss.phase.spec.title),
                   when=fmt.timestamp(deadline), rel=fmt.timestamp(deadline, "R"))]
        lines += [f"• {line}" for line in tr_lines(lang, miss.lines)]
        if link:
            lines.append(t(lang, "remind.link", url=link))
        embed = discord.Embed(title=fmt.clip(t(lang, "remind.title", name=m.name,
                                               phase=tr(lang, miss.phase.spec.title)), 256),
                              description=fmt.clip("\n".join(lines), 4000), colour=fmt.PRIVATE)
        view = dynamic_view(MySideDone(m.campaign_id, side, t(lang, "remind.done_button"))) \
            if miss.can_mark_done else None
        return embed, view

    async def _expire(self, m: state.Meta, version: int) -> None:
        bot = self.bot
        if m.setting("at_deadline") == "resolve":
            try:
                await publish.resolve(bot, m.campaign_id, m.gm, expected_version=version, forced=True)  # type: ignore[arg-type]
                return
            except AlreadyResolved:
                return  # another process (or the GM) was first
            except EngineError as exc:  # e.g. battles cannot end without their reports
                idle = await views.did_not_act(bot.db, m.campaign_id)  # type: ignore[attr-defined]
                reason = " ".join([*tr_lines(m.language, idle), tr(m.language, exc)])
        else:
            reason = ""
        if not await state.claim(bot.db, m.campaign_id, ("expired",), version=version):  # type: ignore[attr-defined]
            return
        target = await publish.channel(bot, m.channel_id)  # type: ignore[arg-type]
        if target is not None:
            await target.send(fmt.message_text(t(m.language, "deadline.passed", gm=f"<@{m.gm_id}>", reason=reason)),
                              allowed_mentions=pinging([m.gm_id]))


async def setup(bot: commands.Bot) -> None:
    await bot.add_cog(Scheduler(bot))
