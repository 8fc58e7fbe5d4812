"""A worker process for pure CPU work too long for a worker thread (issue 24 item 6, issue 26 item 4):
a thread shares the interpreter's lock with the event loop, and seconds of pure Python in one (the
scenario generator at 100x100 with 8 sides) leave the loop waiting for the lock again and again on a
busy machine. A process shares nothing: only its arguments and its result (plain data) cross over.

One process at a time, spawned afresh for each task (its memory goes back to the system when it
ends; spawned, not forked, from a process running threads); tasks beyond it wait their turn.
"""

from __future__ import annotations

import asyncio
import multiprocessing
from collections.abc import Callable
from concurrent.futures import ProcessPoolExecutor
from typing import Any, TypeVar

T = TypeVar("T")

_pool: ProcessPoolExecutor | None = None


def _process_pool() -> ProcessPoolExecutor:
    global _pool
    if _pool is None:
        _pool = ProcessPoolExecutor(max_workers=1, mp_context=multiprocessing.get_context("spawn"),
                                    max_tasks_per_child=1)
    return _pool


async def in_process(fn: Callable[..., T], /, *args: Any) -> T:
    """``fn(*args)`` in the worker process: ``fn`` a module-level function, its arguments and result
    picklable plain data."""
    return await asyncio.get_running_loop().run_in_executor(_process_pool(), fn, *args)
