"""Several bot processes on one database, each with its own shards of one shard count: each sends
the reminders and fires the deadlines of its own guilds' campaigns only, once; one process backs up.

Two bot instances stand for the two processes: each runs in its own thread and event loop, with its
own simcord world (its own Discord gateway: a guild on shard 0 is known to the shard-0 process
only, as on Discord), and both share one database file (or one PostgreSQL database).
"""

from __future__ import annotations

import asyncio
import os
import threading
import time
import traceback
from dataclasses import dataclass, field
from pathlib import Path

import pytest
import simcord

from bot.app import create_bot
from bot.engine.phases import Phase
from bot.services import views
from bot.services.actors import Actor
from bot.services.loading import campaign_in_channel
from bot.settings import Settings
from tests.databases import empty_sqlite, postgres_or_skip

from .conftest import texts

HOUR = 3600
NAMES = {0: "Ulm", 1: "Jena"}


@dataclass
class Seen:
    """What one process's world showed."""

    reminders: dict[str, str] = field(default_factory=dict)
    channel: str = ""
    phase: Phase | None = None
    version_before: int = 0
    version_after: int = 0
    campaign_id: int = 0
    backing_up: bool = False


async def process(shard: int, url: str, data_dir: Path, ready: threading.Barrier, turn: dict[int, threading.Event],
                  seen: Seen) -> None:
    settings = Settings(database_url=url, data_dir=data_dir, shard_count=2, shard_ids=(shard,),
                        heartbeat=data_dir / f"heartbeat-{shard}")
    bot = create_bot(settings, deadline_interval=HOUR)
    async with simcord.run(bot, settle_timeout=30) as env:
        g = env.create_guild(f"Club {shard}", shard_id=shard)
        ch = g.create_text_channel("campaign")
        gm = g.add_member(env.create_user(f"gina{shard}"))
        fr = g.add_member(env.create_user(f"pierre{shard}"))
        au = g.add_member(env.create_user(f"karl{shard}"))
        await gm.slash(ch, "campaign create", name=NAMES[shard], scenario="tutorial")
        await fr.slash(ch, "campaign join", side="fr")
        await au.slash(ch, "campaign join", side="au")
        card = await gm.slash(ch, "gm advance")
        await gm.click(card.response, label="Resolve")
        await gm.slash(ch, "gm deadline", hours=26.0)
        async with bot.db.sessions() as s:
            seen.campaign_id = (await campaign_in_channel(s, ch.id)).id
        st = await views.status(bot.db, seen.campaign_id, Actor(gm.id))
        seen.version_before = st.version
        seen.backing_up = bot.get_cog("Scheduler").backups.is_running()

        # Waited for off the loop, so this process's own tasks (its scheduler, a backup, the database
        # connection's work) keep running meanwhile, as a real process's would: a loop frozen mid-transaction
        # would hold locks the other process then waits on.
        await asyncio.to_thread(ready.wait, 300)  # both campaigns exist, with their deadlines
        await asyncio.to_thread(turn[shard].wait, 300)  # shard 1 goes first: past the other's deadline too
        await env.advance_time(27 * HOUR)
        seen.reminders = {u.user.name: texts(u.user.dm_channel.history()) for u in (fr, au)}
        seen.channel = texts(ch.history())
        st = await views.status(bot.db, seen.campaign_id, Actor(gm.id))
        seen.phase, seen.version_after = st.position.phase, st.version
        if shard == 1:
            turn[0].set()


_LOADING = threading.Lock()
"""discord.py loads an extension by executing its module afresh into ``sys.modules``: two bots of one
process (the two "processes" of this test) loading the cogs at once could import a half-executed
module of the other's. Real processes never share modules; here the loads take turns."""


@pytest.fixture(autouse=True)
def one_cog_load_at_a_time(monkeypatch: pytest.MonkeyPatch) -> None:
    from discord.ext import commands

    original = commands.Bot._load_from_module_spec

    async def load(self, spec, key):  # type: ignore[no-untyped-def]
        await asyncio.get_running_loop().run_in_executor(None, _LOADING.acquire)
        try:
            return await original(self, spec, key)
        finally:
            _LOADING.release()

    monkeypatch.setattr(commands.Bot, "_load_from_module_spec", load)


def run_in_thread(coro_fn, *args) -> threading.Thread:
    errors: list[BaseException] = []

    def target() -> None:
        try:
            asyncio.run(coro_fn(*args))
        except BaseException as exc:  # reported by the test
            errors.append(exc)

    thread = threading.Thread(target=target, daemon=True)
    thread.errors = errors  # type: ignore[attr-defined]
    thread.start()
    return thread


@pytest.fixture(params=["sqlite", "postgresql"])
def shared_url(request, tmp_path) -> str:
    """An empty database: the two processes start together and migrate it, one after the other."""
    if request.param == "sqlite":
        return empty_sqlite(tmp_path / "shared.db")
    return asyncio.run(postgres_or_skip(empty=True))


def test_two_processes_on_disjoint_shards_each_fire_their_own_deadlines_once(shared_url, tmp_path) -> None:
    ready = threading.Barrier(2)
    turn = {0: threading.Event(), 1: threading.Event()}
    turn[1].set()
    seen = {0: Seen(), 1: Seen()}
    threads = [run_in_thread(process, shard, shared_url, tmp_path, ready, turn, seen[shard]) for shard in (0, 1)]
    deadline = time.monotonic() + float(os.environ.get("ADC_TEST_SHARDS_TIMEOUT", "300"))
    while any(th.is_alive() for th in threads) and time.monotonic() < deadline:
        if any(th.errors for th in threads):  # type: ignore[attr-defined]
            # one process failed: the other must not wait for it at the barrier, and the failure is the first error
            ready.abort()
            for event in turn.values():
                event.set()
            break
        time.sleep(0.05)
    for th in threads:
        th.join(timeout=60)
    errors = [e for th in threads for e in th.errors]  # type: ignore[attr-defined]
    assert not errors, "".join(traceback.format_exception(errors[0]))
    assert not any(th.is_alive() for th in threads), "a process did not finish"

    for shard, name in NAMES.items():
        s = seen[shard]
        for member, dms in s.reminders.items():  # the 24 h and the 1 h reminder, each once, by its own process
            assert dms.count(f"Reminder for {name}") == 2, (shard, member, dms)
        assert s.phase is Phase.MOVEMENT and s.version_after == s.version_before + 1, shard  # resolved once
        assert "Phase 2: Movement" in s.channel, shard  # and published where its players are
    assert seen[0].backing_up and not seen[1].backing_up  # backups: the process that runs shard 0 only
