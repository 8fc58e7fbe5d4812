"""The benches' one measure of event-loop stalls: a task that asks to wake every ``period`` seconds on the
running loop; the longest gap beyond that is the loop's longest stall while the block ran.

``ADC_STALL_TRACE=1`` also says where the stalls come from: a watcher thread looks every 10 ms, and
while the loop has not ticked for over 40 ms it counts where every thread is (the innermost frames of
the project's code); the places seen most are printed when the block ends. A diagnostic only: the
watcher costs a little, so the figures the benches report are taken without it."""

from __future__ import annotations

import asyncio
import collections
import os
import sys
import threading
import time
import traceback

STALL = 0.1
"""A gap counted as a stall: the issues' goal is none over 100 ms."""
_ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))


async def baseline(seconds: float = 5.0) -> tuple[float, str]:
    """The control each bench prints first: the longest stall of a loop doing nothing for ``seconds``
    (the machine's other work: the shared machine's noise), and the load average."""
    with Heartbeat() as hb:
        await asyncio.sleep(seconds)
    return hb.worst, f"load average {os.getloadavg()[0]:.1f} on {os.cpu_count()} cores"


class Heartbeat:
    def __init__(self, period: float = 0.005) -> None:
        self.period, self.worst, self.stalls = period, 0.0, 0
        self._last = 0.0
        self._task: asyncio.Task[None] | None = None
        self._trace = os.environ.get("ADC_STALL_TRACE") == "1"
        self._seen: collections.Counter[str] = collections.Counter()
        self._stop = threading.Event()

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

    def _watch(self, loop_thread: int) -> None:
        while not self._stop.wait(0.01):
            if time.perf_counter() - self._last < 0.04:
                continue
            for ident, frame in sys._current_frames().items():
                if ident == threading.get_ident():
                    continue
                ours = [f for f in traceback.extract_stack(frame) if f.filename.startswith(_ROOT)]
                where = " < ".join(f"{os.path.relpath(f.filename, _ROOT)}:{f.lineno} {f.name}" for f in ours[::-1][:4])
                self._seen[("loop: " if ident == loop_thread else "thread: ") + (where or "(outside the project)")] += 1

    def __enter__(self) -> Heartbeat:
        self._last = time.perf_counter()
        self._task = asyncio.get_running_loop().create_task(self._run())
        if self._trace:
            threading.Thread(target=self._watch, args=(threading.get_ident(),), daemon=True).start()
        return self

    def __exit__(self, *exc: object) -> None:
        assert self._task is not None
        self._tick(time.perf_counter())  # the gap since the last tick counts too (a block that ends the run)
        self._task.cancel()
        self._stop.set()
        for where, n in self._seen.most_common(12):
            print(f"    [stall trace] {n:4d} x {where}", file=sys.stderr)
