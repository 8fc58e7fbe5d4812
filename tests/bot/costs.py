"""What one member action costs the database, driven through the cogs (issue 22, item 1: the resolving
click): transactions begun, whole-state loads (:func:`bot.store.repository.load`) and SQL statements
(BEGIN included on SQLite; the read cache's stamp query, on a connection of its own, counted apart).
Used by tests/bot/test_resolving_click.py and bench/click.py; ``ADC_TRACE_TRANSACTIONS=1`` prints where
each transaction (``WRITE``) and read session (``READ``) is opened from."""

from __future__ import annotations

import os
import traceback
from collections.abc import Awaitable
from dataclasses import dataclass
from pathlib import Path
from typing import Any, TypeVar

from sqlalchemy import event

from bot.store import readcache, repository
from bot.store.db import Database

T = TypeVar("T")


@dataclass(frozen=True)
class Cost:
    transactions: int
    loads: int
    statements: int
    stamps: int

    def __str__(self) -> str:
        return (f"{self.transactions} transactions, {self.loads} whole-state loads, {self.statements} SQL statements"
                f" (+ {self.stamps} stamp queries)")


class Costs:
    """Counts on one bot's database while installed (a context manager)."""

    def __init__(self, db: Database) -> None:
        self.db = db
        self.transactions = self.loads = self.statements = self.stamps = 0

    def _sql(self, *_args: Any) -> None:
        self.statements += 1

    def _begin(self, *_args: Any) -> None:
        self.transactions += 1

    def __enter__(self) -> Costs:
        engine = self.db.engine.sync_engine
        event.listen(engine, "before_cursor_execute", self._sql)
        event.listen(engine, "begin", self._begin)
        self._name = "_current" if hasattr(readcache, "_current") else "current_stamp"  # before the book: the latter
        self._load, self._stamp = repository.load, getattr(readcache, self._name)

        async def load(*args: Any, **kwargs: Any) -> Any:
            self.loads += 1
            return await self._load(*args, **kwargs)

        async def stamp(*args: Any, **kwargs: Any) -> Any:
            self.stamps += 1
            return await self._stamp(*args, **kwargs)

        repository.load = load  # type: ignore[assignment]
        setattr(readcache, self._name, stamp)
        if os.environ.get("ADC_TRACE_TRANSACTIONS"):  # where each transaction comes from, printed
            self._trace()
        return self

    def _trace(self) -> None:
        real_transaction, real_sessions = self.db.transaction, self.db.sessions

        def where(kind: str) -> None:
            frames = [f for f in traceback.extract_stack() if "/bot/" in f.filename]
            print(kind, " < ".join(f"{Path(f.filename).name}:{f.name}" for f in reversed(frames[-7:])))

        def transaction() -> Any:
            where("WRITE")
            return real_transaction()

        def sessions() -> Any:
            where("READ")
            return real_sessions()

        self.db.transaction = transaction  # type: ignore[method-assign]
        self.db.sessions = sessions  # type: ignore[method-assign,assignment]
        self._untrace = real_sessions

    def __exit__(self, *_exc: Any) -> None:
        if getattr(self, "_untrace", None) is not None:
            del self.db.transaction  # the class's again
            self.db.sessions = self._untrace
        engine = self.db.engine.sync_engine
        event.remove(engine, "before_cursor_execute", self._sql)
        event.remove(engine, "begin", self._begin)
        repository.load = self._load  # type: ignore[assignment]
        setattr(readcache, self._name, self._stamp)

    def now(self) -> Cost:
        return Cost(self.transactions, self.loads, self.statements, self.stamps)

    async def of(self, action: Awaitable[T]) -> tuple[T, Cost]:
        """What ``action`` (a simcord slash or click, which waits for the bot to settle) cost."""
        before = self.now()
        result = await action
        after = self.now()
        return result, Cost(*(a - b for a, b in zip(
            (after.transactions, after.loads, after.statements, after.stamps),
            (before.transactions, before.loads, before.statements, before.stamps), strict=True)))
