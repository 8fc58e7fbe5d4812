"""The bot end to end through simcord (shared/TESTING.md): a virtual Discord, the real bot."""

from __future__ import annotations

import hashlib
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pytest
import simcord

from bot.app import create_bot
from bot.settings import Settings
from tests.databases import migrated_sqlite

SETTLE_TIMEOUT = 20.0
"""How long simcord waits for the bot to go idle after each action (its default: 5 s), unless a test's
``simcord`` marker says otherwise. A map drawn in a worker thread can take longer than 5 s when the test
processes (scripts/test runs one per core) share the machine with other jobs."""


def pytest_collection_modifyitems(items: list[pytest.Item]) -> None:
    for item in items:
        if "simcord_env" not in getattr(item, "fixturenames", ()):
            continue
        marker = item.get_closest_marker("simcord")
        options = dict(marker.kwargs) if marker else {}
        if "settle_timeout" not in options:
            item.add_marker(pytest.mark.simcord(**options, settle_timeout=SETTLE_TIMEOUT), append=False)


@pytest.fixture(autouse=True)
def fixed_seeds(monkeypatch: pytest.MonkeyPatch) -> None:
    """Turn seeds from a counter, so each test's dice are the same on every run."""
    counter = iter(range(1, 10_000))
    monkeypatch.setattr(
        "bot.services.loading.new_turn_seed", lambda: hashlib.sha256(f"test-seed-{next(counter)}".encode()).digest()
    )


def make_bot(tmp_path: Path, **kwargs: Any):
    """A bot on the database in ``tmp_path`` (a migrated copy, tests/databases.py, unless a bot ran there
    before: a restart keeps it), whose own migration at start then finds nothing to do."""
    settings = Settings(database_url=migrated_sqlite(tmp_path / "bot.db"), data_dir=tmp_path)
    kwargs.setdefault("deadline_interval", 600.0)
    kwargs.setdefault("heavy_in_process", False)  # the tests watch the timelapse's drawing (tests/store: in a process)
    return create_bot(settings, **kwargs)


@pytest.fixture
def simcord_bot(tmp_path: Path):
    return make_bot(tmp_path)


@dataclass
class Table:
    env: simcord.Env
    guild: Any
    channel: Any
    gm: simcord.MemberActor
    fr: simcord.MemberActor
    au: simcord.MemberActor
    outsider: simcord.MemberActor
    gm_role: Any


@pytest.fixture
async def table(simcord_env: simcord.Env) -> Table:
    g = simcord_env.create_guild("Club")
    ch = g.create_text_channel("campaign")
    gm_role = g.create_role("GM")
    gm = g.add_member(simcord_env.create_user("gina"), roles=[gm_role])
    fr = g.add_member(simcord_env.create_user("pierre"))
    au = g.add_member(simcord_env.create_user("karl"))
    outsider = g.add_member(simcord_env.create_user("olga"))
    return Table(simcord_env, g, ch, gm, fr, au, outsider, gm_role)


def texts(messages) -> str:
    """Everything a list of messages shows: content, embed titles, descriptions, fields, footers."""
    out = []
    for m in messages:
        out.append(m.content or "")
        for e in m.embeds:
            out += [e.title or "", e.description or "", e.footer.text or ""]
            out += [f"{f.name} {f.value}" for f in e.fields]
    return "\n".join(out)


def shown(result) -> str:
    """What an interaction answered with (its response and followups)."""
    msgs = ([result.response] if result.response is not None else []) + list(result.followups)
    return texts(msgs)


def domain_errors_only(env: simcord.Env) -> int:
    """Acknowledge the errors the bot reported to users, and check they were all domain errors
    (refusals with a message), never a crash. Returns how many there were."""
    from discord import app_commands

    from bot.engine.errors import EngineError

    errors = env.errors
    for e in errors:
        original = e.original if isinstance(e, app_commands.CommandInvokeError) else e
        assert isinstance(original, EngineError), repr(original)
    return len(errors)


def refused(result, *needles: str) -> bool:
    """Whether the interaction was refused privately with a short message (containing ``needles``)."""
    text = shown(result)
    msg = result.response if result.response is not None else (result.followups[0] if result.followups else None)
    return msg is not None and msg.ephemeral and "⚠️" in text and all(n in text for n in needles) \
        and "Traceback" not in text


async def start(table, *, scenario: str = "tutorial", file=None) -> None:
    """The GM creates the campaign; France and Austria join."""
    opts = {"file": file} if file else {}
    await table.gm.slash(table.channel, "campaign create", name="Ulm", scenario=scenario, **opts)
    await table.fr.slash(table.channel, "campaign join", side="fr")
    await table.au.slash(table.channel, "campaign join", side="au")


async def advance(table, label: str = "Resolve"):
    """/gm advance and its confirmation."""
    card = await table.gm.slash(table.channel, "gm advance")
    assert card.ephemeral
    return await table.gm.click(card.response, label=label)


@pytest.fixture
def no_env_file(monkeypatch: pytest.MonkeyPatch, tmp_path) -> None:
    """Settings from the environment only (no .env file), with a data directory of the test's own."""
    from bot import settings

    original = settings.Settings.from_env.__func__  # type: ignore[attr-defined]
    monkeypatch.setattr(settings.Settings, "from_env",
                        classmethod(lambda cls, env_file=None: original(cls, env_file=None)))
    monkeypatch.setenv("ADC_DATA_DIR", str(tmp_path))
    for name in ("DATABASE_URL", "ADC_SHARD", "ADC_SHARD_COUNT", "ADC_SHARD_IDS", "ADC_HEARTBEAT"):
        monkeypatch.delenv(name, raising=False)
