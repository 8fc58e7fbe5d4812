"""The benches' one measure of event-loop stalls: a task that asks to wake every ``period`` seconds on the
running loop; the longest gap beyond that is the loop's longest stall while the block ran."""

from __future__ import annotations

import asyncio
import time

STALL = 0.1
"""A gap counted as a stall: the issues' goal is none over 100 ms."""


class Heartbeat:
    def __init__(self, period: float = 0.005) -> None:
        self.period, self.worst, self.stalls = period, 0.0, 0
        self._last = 0.0
        self._task: asyncio.Task[None] | None = None

    @property
    def longest(self) -> float:
        return self.worst

    async def _run(self) -> None:
        while True:
            await asyncio.sleep(self.period)
            self._tick(time.perf_counter())

    def _tick(self, now: float) -> None:
        gap = now - self._last - self.period
        self.worst = max(self.worst, gap)
        self.stalls += gap > STALL
        self._last = now

    def __enter__(self) -> Heartbeat:
        self._last = time.perf_counter()
        self._task = asyncio.get_running_loop().create_task(self._run())
        return self

    def __exit__(self, *exc: object) -> None:
        assert self._task is not None
        self._tick(time.perf_counter())  # the gap since the last tick counts too (a block that ends the run)
        self._task.cancel()
