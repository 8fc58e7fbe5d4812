"""Backups of the SQLite database with SQLite's online backup API, rotated.

Safe while the bot runs (the backup API copies a consistent snapshot page by page). The bot
calls :func:`backup_sqlite` daily; for PostgreSQL see README ("Backups") for the pg_dump recipe.
"""

from __future__ import annotations

import asyncio
import datetime as dt
import sqlite3
from pathlib import Path

from sqlalchemy.engine import make_url

KEEP = 7


def sqlite_path(url: str) -> Path | None:
    u = make_url(url)
    if u.get_backend_name() != "sqlite" or not u.database or u.database == ":memory:":
        return None
    return Path(u.database)


def backup_sqlite(db_path: Path, backups: Path, *, keep: int = KEEP, now: dt.datetime | None = None) -> Path:
    """Copy ``db_path`` into ``backups`` (timestamped) and delete all but the ``keep`` newest copies."""
    if keep < 1:
        raise ValueError("keep at least one backup")
    backups.mkdir(parents=True, exist_ok=True)
    stamp = (now or dt.datetime.now(dt.UTC)).strftime("%Y%m%d-%H%M%S")
    target = backups / f"{db_path.stem}-{stamp}.db"
    partial = target.with_suffix(".db.partial")
    src = sqlite3.connect(f"file:{db_path}?mode=ro", uri=True)
    try:
        dst = sqlite3.connect(partial)
        try:
            src.backup(dst)
        finally:
            dst.close()
    finally:
        src.close()
    partial.replace(target)  # a crash mid-copy never leaves a file that looks complete
    copies = sorted(backups.glob(f"{db_path.stem}-*.db"))
    for old in copies[:-keep]:
        old.unlink()
    return target


async def backup_database(url: str, data_dir: Path, *, keep: int = KEEP) -> Path | None:
    """Back up the database at ``url`` if it is SQLite (off the event loop); None for PostgreSQL."""
    path = sqlite_path(url)
    if path is None or not path.exists():
        return None
    return await asyncio.to_thread(backup_sqlite, path, data_dir / "backups", keep=keep)
