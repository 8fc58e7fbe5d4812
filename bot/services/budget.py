"""Budgets for heavy work (issue 24, item 1): a timelapse or a painted map costs seconds of CPU and
hundreds of MB, so each kind has a gate of its own (never the render slots the phase cards and
``/campaign map`` share) and cooldowns per member and per campaign (for a painted map, which makes a
campaign, per server).

A request is admitted or refused at once with :class:`TooSoon`, which says when to try again: it never
waits in a queue, so a burst of requests holds no memory and no interaction open. The time of a
request counts from its admission, whether the work succeeds or not (a refused upload costs its
reading too). One budget lives in one bot process, on its event loop: plain counters, no lock.

    async with budget.admit(member=actor.user_id, campaign=cid):
        gif = await asyncio.to_thread(draw)
"""

from __future__ import annotations

import gc
import math
import threading
import time
from collections.abc import AsyncIterator, Callable, Hashable
from contextlib import asynccontextmanager
from dataclasses import dataclass
from enum import Enum
from typing import Any, TypeVar

from bot.engine.text import Msg

from .errors import TooSoon

T = TypeVar("T")


class Heavy(Enum):
    TIMELAPSE = "timelapse"
    PAINTING = "painting"
    JOIN_REQUEST = "join request"
    """Not heavy, but each one posts or edits in the channel: one per member and campaign in a while."""


WORK: dict[Heavy, Msg] = {Heavy.TIMELAPSE: Msg("timelapse"), Heavy.PAINTING: Msg("painted map"),
                          Heavy.JOIN_REQUEST: Msg("request to join")}
"""How a refusal names the work, in the reader's language."""


@dataclass(frozen=True)
class Limits:
    slots: int
    """How many of this work run at once in the process."""
    member_seconds: float
    """One request per member in this many seconds."""
    campaign_seconds: float
    """One request per campaign (per server for a painted map) in this many seconds."""


DEFAULTS: dict[Heavy, Limits] = {
    Heavy.TIMELAPSE: Limits(slots=1, member_seconds=120, campaign_seconds=30),
    Heavy.PAINTING: Limits(slots=1, member_seconds=60, campaign_seconds=20),
    Heavy.JOIN_REQUEST: Limits(slots=1_000_000, member_seconds=300, campaign_seconds=0),
}
_FORGET_AFTER = 3600.0
"""Entries older than any cooldown are dropped now and then, so the tables stay small."""


class Budget:
    """The gate and cooldowns of one kind of heavy work."""

    def __init__(self, kind: Heavy, limits: Limits | None = None, *,
                 clock: Callable[[], float] = time.monotonic) -> None:
        self.kind = kind
        self.limits = limits or DEFAULTS[kind]
        self._clock = clock
        self._members: dict[Hashable, float] = {}
        self._campaigns: dict[Hashable, float] = {}
        self.running = 0

    def check(self, *, member: Hashable, campaign: Hashable) -> None:
        """Refuse (:class:`TooSoon`) if the member or the campaign asked too recently, or the gate is
        full; else nothing. Does not admit."""
        now, lim, work = self._clock(), self.limits, WORK[self.kind]
        mine = self._members.get(member)
        if mine is not None and now - mine < lim.member_seconds and self.kind is Heavy.JOIN_REQUEST:
            raise TooSoon("You asked to join {ago} s ago: one request every {every} s per member and campaign. Try "
                          "again in {seconds} s.", ago=int(now - mine), every=int(lim.member_seconds),
                          seconds=math.ceil(lim.member_seconds - (now - mine)))
        if mine is not None and now - mine < lim.member_seconds:
            raise TooSoon("You asked for a {work} {ago} s ago: one every {every} s per member. Try again in "
                          "{seconds} s.", work=work, ago=int(now - mine), every=int(lim.member_seconds),
                          seconds=math.ceil(lim.member_seconds - (now - mine)))
        theirs = self._campaigns.get(campaign)
        if theirs is not None and now - theirs < lim.campaign_seconds:
            raise TooSoon("A {work} was asked for here {ago} s ago: one every {every} s per campaign. Try again "
                          "in {seconds} s.", work=work, ago=int(now - theirs), every=int(lim.campaign_seconds),
                          seconds=math.ceil(lim.campaign_seconds - (now - theirs)))
        if self.running >= lim.slots:
            raise TooSoon("The bot is busy with another {work} right now: try again in a minute.", work=work)

    @asynccontextmanager
    async def admit(self, *, member: Hashable, campaign: Hashable) -> AsyncIterator[None]:
        """Hold one slot of the gate for the work inside, after :meth:`check`; the member's and the
        campaign's cooldowns start now."""
        self.check(member=member, campaign=campaign)
        self.note(member=member, campaign=campaign)
        self.running += 1
        try:
            yield
        finally:
            self.running -= 1

    def note(self, *, member: Hashable, campaign: Hashable) -> None:
        """Start the member's and the campaign's cooldowns now (what :meth:`admit` does on admission)."""
        now = self._clock()
        self._forget(now)
        self._members[member] = now
        self._campaigns[campaign] = now

    def _forget(self, now: float) -> None:
        if len(self._members) + len(self._campaigns) < 4096:
            return
        for table in (self._members, self._campaigns):
            for k in [k for k, at in table.items() if now - at > _FORGET_AFTER]:
                del table[k]


_paused = 0
_pause_lock = threading.Lock()


def quietly(fn: Callable[..., T], /, *args: Any, **kwargs: Any) -> T:
    """``fn(*args, **kwargs)`` with the garbage collector paused, for CPU-heavy work in a worker thread
    (issue 24, item 6): a collection it triggers walks every young object while holding the interpreter's
    lock, which stalled the event loop 150 ms on the largest scenario (50 ms paused; bench/abuse.py).
    Nested and concurrent calls share one pause; the collector runs as usual once the last one ends."""
    global _paused
    with _pause_lock:
        _paused += 1
        if _paused == 1:
            gc.disable()
    try:
        return fn(*args, **kwargs)
    finally:
        with _pause_lock:
            _paused -= 1
            if _paused == 0:
                gc.enable()
