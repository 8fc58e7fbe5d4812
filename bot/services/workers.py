"""A worker process for pure CPU work too long for a worker thread (issue 24 item 6, issue 26 item 4):
a thread shares the interpreter's lock with the event loop, and seconds of pure Python in one (the
scenario generator at 100x100 with 8 sides) leave the loop waiting for the lock again and again on a
busy machine. A process shares nothing: only its arguments and its result (plain data) cross over.

One task at a time (the others wait their turn), each in a process spawned for it (spawned, not forked,
from a process running threads) that ends with it: its memory goes back to the system, and no idle
process is kept (a pool would start a new one at once, importing the bot again for nothing).
"""

from __future__ import annotations

import asyncio
import multiprocessing
from collections.abc import Callable
from concurrent.futures import ProcessPoolExecutor
from typing import Any, TypeVar

T = TypeVar("T")

_one_at_a_time: asyncio.Semaphore | None = None


async def in_process(fn: Callable[..., T], /, *args: Any) -> T:
    """``fn(*args)`` in a worker process: ``fn`` a module-level function, its arguments and result
    picklable plain data."""
    global _one_at_a_time
    if _one_at_a_time is None:
        _one_at_a_time = asyncio.Semaphore(1)
    async with _one_at_a_time:
        pool = ProcessPoolExecutor(max_workers=1, mp_context=multiprocessing.get_context("spawn"))
        try:
            return await asyncio.get_running_loop().run_in_executor(pool, fn, *args)
        finally:
            pool.shutdown(wait=False)  # the process ends once its task is done; nothing waits for it here
