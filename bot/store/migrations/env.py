"""Alembic environment (async template, adapted): the bot passes its connection in
``config.attributes["connection"]``; the ``alembic`` CLI uses ``sqlalchemy.url`` or DATABASE_URL."""

from __future__ import annotations

import asyncio
import os
from typing import Any

from alembic import context
from sqlmodel import SQLModel

import bot.store.models  # noqa: F401  (registers the tables on SQLModel.metadata)

config = context.config
target_metadata = SQLModel.metadata


def _configure(connection: Any) -> None:
    context.configure(
        connection=connection,
        target_metadata=target_metadata,
        compare_type=True,
        render_as_batch=connection.dialect.name == "sqlite",
    )
    with context.begin_transaction():
        context.run_migrations()


def run_migrations_offline() -> None:
    context.configure(url=config.get_main_option("sqlalchemy.url"), target_metadata=target_metadata, literal_binds=True)
    with context.begin_transaction():
        context.run_migrations()


async def _run_async(url: str) -> None:
    from bot.store.db import create_engine

    engine = create_engine(url)
    async with engine.begin() as conn:
        await conn.run_sync(_configure)
    await engine.dispose()


def run_migrations_online() -> None:
    connection = config.attributes.get("connection")
    if connection is not None:
        _configure(connection)
        return
    from bot.settings import Settings

    url = config.get_main_option("sqlalchemy.url") or os.environ.get("DATABASE_URL") or Settings.from_env().database_url
    asyncio.run(_run_async(url))


if context.is_offline_mode():
    run_migrations_offline()
else:
    run_migrations_online()
