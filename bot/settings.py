"""Runtime settings, read from the environment or a ``.env`` file (environment wins)."""

from __future__ import annotations

import os
from dataclasses import dataclass, field
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
DEFAULT_DATA_DIR = ROOT / "data"


def default_database_url(data_dir: Path = DEFAULT_DATA_DIR) -> str:
    return f"sqlite+aiosqlite:///{data_dir / 'aide-de-camp.db'}"


@dataclass(frozen=True)
class Settings:
    database_url: str = field(default_factory=default_database_url)
    discord_token: str | None = field(default=None, repr=False)  # never printed
    dev_guild: int | None = None
    """Sync commands to this guild only (fast, for development)."""
    shard: bool = False
    data_dir: Path = DEFAULT_DATA_DIR

    @classmethod
    def from_env(cls, env_file: Path | None = ROOT / ".env") -> Settings:
        if env_file is not None and env_file.exists():
            from dotenv import load_dotenv

            load_dotenv(env_file, override=False)
        data_dir = Path(os.environ.get("ADC_DATA_DIR", DEFAULT_DATA_DIR))
        guild = os.environ.get("ADC_DEV_GUILD")
        return cls(
            database_url=os.environ.get("DATABASE_URL") or default_database_url(data_dir),
            discord_token=os.environ.get("DISCORD_TOKEN") or None,
            dev_guild=int(guild) if guild and guild.isdigit() else None,
            shard=os.environ.get("ADC_SHARD", "").lower() in ("1", "true", "yes"),
            data_dir=data_dir,
        )
