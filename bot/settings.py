"""Runtime settings, read from the environment or a ``.env`` file (environment wins)."""

from __future__ import annotations

import os
from dataclasses import dataclass, field
from pathlib import Path

from bot.limits import Limits

ROOT = Path(__file__).resolve().parent.parent
DEFAULT_DATA_DIR = ROOT / "data"
HEARTBEAT_FILE = "heartbeat"


def default_database_url(data_dir: Path = DEFAULT_DATA_DIR) -> str:
    return f"sqlite+aiosqlite:///{data_dir / 'aide-de-camp.db'}"


class SettingsError(ValueError):
    """A setting in the environment is malformed; the message names it and says what it must be."""


def shard_of(guild_id: int, shard_count: int) -> int:
    """The shard a guild's events arrive on (Discord's formula)."""
    return (guild_id >> 22) % shard_count


def parse_shard_ids(text: str, shard_count: int) -> tuple[int, ...]:
    """``"0,2,4-7"`` as sorted unique shard ids, each below ``shard_count``."""
    ids: set[int] = set()
    for part in (p.strip() for p in text.split(",")):
        if not part:
            continue
        lo, sep, hi = part.partition("-")
        if not lo.strip().isdigit() or (sep and not hi.strip().isdigit()):
            raise SettingsError(f"ADC_SHARD_IDS: {part!r} is not a shard id or a range like 0-3")
        first, last = int(lo), int(hi) if sep else int(lo)
        if first > last or last >= shard_count:
            raise SettingsError(f"ADC_SHARD_IDS: {part!r} is outside 0-{shard_count - 1} (ADC_SHARD_COUNT={shard_count})")
        ids.update(range(first, last + 1))
    if not ids:
        raise SettingsError("ADC_SHARD_IDS is empty: give the shard ids this process runs, like 0,1 or 0-3")
    return tuple(sorted(ids))


@dataclass(frozen=True)
class Settings:
    database_url: str = field(default_factory=default_database_url)
    discord_token: str | None = field(default=None, repr=False)  # never printed
    dev_guild: int | None = None
    """Sync commands to this guild only (fast, for development)."""
    shard: bool = False
    """Run an AutoShardedBot (the shard count from Discord, unless ``shard_count`` is set)."""
    data_dir: Path = DEFAULT_DATA_DIR
    shard_count: int | None = None
    """The shard count of the whole deployment (all processes): ``ADC_SHARD_COUNT``."""
    shard_ids: tuple[int, ...] | None = None
    """The shards this process runs (``ADC_SHARD_IDS``); None: all of them."""
    heartbeat: Path | None = None
    """The file the bot touches while it is alive (``ADC_HEARTBEAT``; default ``data_dir/heartbeat``)."""
    # What one server and one member may create (bot/limits.py, ADC_MAX_...: see Limits.from_env).
    limits: Limits = field(default_factory=Limits)

    def __post_init__(self) -> None:
        if self.shard_count is not None and self.shard_count < 1:
            raise SettingsError("ADC_SHARD_COUNT must be a whole number of at least 1")
        if self.shard_ids is not None:
            if self.shard_count is None:
                raise SettingsError("ADC_SHARD_IDS needs ADC_SHARD_COUNT, the shard count of every process together")
            if not self.shard_ids or any(not 0 <= s < self.shard_count for s in self.shard_ids):
                raise SettingsError(f"ADC_SHARD_IDS must be shard ids between 0 and {self.shard_count - 1}")

    @property
    def sharded(self) -> bool:
        return self.shard or self.shard_count is not None

    @property
    def partial_shards(self) -> tuple[int, frozenset[int]] | None:
        """(shard count, this process's shards) when this process runs only some of the shards."""
        if self.shard_count is None or self.shard_ids is None or len(set(self.shard_ids)) == self.shard_count:
            return None
        return self.shard_count, frozenset(self.shard_ids)

    def handles_guild(self, guild_id: int) -> bool:
        """Whether this process runs the shard of ``guild_id`` (and so its campaigns' deadlines)."""
        part = self.partial_shards
        return part is None or shard_of(guild_id, part[0]) in part[1]

    @property
    def runs_backups(self) -> bool:
        """One process of a deployment backs up: the one running shard 0 (or the only one)."""
        part = self.partial_shards
        return part is None or 0 in part[1]

    @property
    def heartbeat_file(self) -> Path:
        return self.heartbeat or self.data_dir / HEARTBEAT_FILE

    @classmethod
    def from_env(cls, env_file: Path | None = ROOT / ".env") -> Settings:
        """The settings of the environment; :class:`SettingsError` names a malformed one."""
        if env_file is not None and env_file.exists():
            from dotenv import load_dotenv

            load_dotenv(env_file, override=False)
        data_dir = Path(os.environ.get("ADC_DATA_DIR", DEFAULT_DATA_DIR))
        guild = os.environ.get("ADC_DEV_GUILD")
        count_text = os.environ.get("ADC_SHARD_COUNT", "").strip()
        if count_text and not count_text.isdigit():
            raise SettingsError(f"ADC_SHARD_COUNT must be a whole number of at least 1, not {count_text!r}")
        shard_count = int(count_text) if count_text else None
        ids_text = os.environ.get("ADC_SHARD_IDS", "").strip()
        if ids_text and shard_count is None:
            raise SettingsError("ADC_SHARD_IDS needs ADC_SHARD_COUNT, the shard count of every process together")
        if shard_count is not None and shard_count < 1:
            raise SettingsError("ADC_SHARD_COUNT must be a whole number of at least 1")
        heartbeat = os.environ.get("ADC_HEARTBEAT")
        return cls(
            database_url=os.environ.get("DATABASE_URL") or default_database_url(data_dir),
            discord_token=os.environ.get("DISCORD_TOKEN") or None,
            dev_guild=int(guild) if guild and guild.isdigit() else None,
            shard=os.environ.get("ADC_SHARD", "").lower() in ("1", "true", "yes"),
            data_dir=data_dir,
            shard_count=shard_count,
            shard_ids=parse_shard_ids(ids_text, shard_count) if ids_text and shard_count else None,
            heartbeat=Path(heartbeat) if heartbeat else None,
            limits=Limits.from_env(),
        )
