"""The terrain layer cache: a thread-safe LRU keyed by a fingerprint of the map.

``CampaignMap`` is frozen but holds its cells in a dict, so it cannot be hashed; its fingerprint is
a BLAKE2 digest of every field in a fixed order. Two maps built separately from the same scenario
share a fingerprint (and a cached layer). The fingerprint of a map object is remembered while that
object lives, so a render does not hash thousands of cells again.
"""

from __future__ import annotations

import hashlib
import threading
import weakref
from collections import OrderedDict
from collections.abc import Callable, Hashable
from dataclasses import dataclass
from typing import Generic, TypeVar

from bot.engine.grid import CampaignMap

V = TypeVar("V")

_memo: dict[int, tuple[weakref.ref[CampaignMap], str]] = {}
_memo_lock = threading.RLock()  # re-entrant: a weakref callback may run during a garbage collection here


def map_fingerprint(cmap: CampaignMap) -> str:
    """A stable digest of the map: size, adjacency and every cell (terrain, features, owners, flow)."""
    with _memo_lock:
        hit = _memo.get(id(cmap))
        if hit is not None and hit[0]() is cmap:
            return hit[1]
    h = hashlib.blake2b(digest_size=16)
    h.update(f"{cmap.width}x{cmap.height}/{cmap.adjacency}\n".encode())
    for sq in sorted(cmap.cells, key=lambda s: (s.row, s.col)):
        c = cmap.cells[sq]
        feats = ",".join(sorted(c.features))
        h.update(f"{sq.col},{sq.row}:{c.terrain.value}|{feats}|{c.territory}|{c.stronghold}|{c.capital:d}|"
                 f"{c.river_flow}\n".encode())
    digest = h.hexdigest()
    key = id(cmap)
    with _memo_lock:
        _memo[key] = (weakref.ref(cmap, lambda ref, k=key: _forget(k, ref)), digest)
    return digest


def _forget(key: int, ref: weakref.ref[CampaignMap]) -> None:
    with _memo_lock:
        if key in _memo and _memo[key][0] is ref:
            del _memo[key]


@dataclass(frozen=True, slots=True)
class CacheInfo:
    hits: int
    misses: int
    size: int
    maxsize: int


class LayerCache(Generic[V]):
    """A least-recently-used cache whose values are built at most once per key, even across threads.

    It holds at most ``maxsize`` values and, given ``weigh``, at most ``max_weight`` in all (the
    newest value is always kept)."""

    def __init__(self, maxsize: int, *, weigh: Callable[[V], int] | None = None, max_weight: int = 0) -> None:
        self.maxsize = maxsize
        self._weigh, self._max_weight, self._weight = weigh, max_weight, 0
        self._items: OrderedDict[Hashable, V] = OrderedDict()
        self._building: dict[Hashable, threading.Lock] = {}
        self._lock = threading.Lock()
        self._hits = self._misses = 0

    def get(self, key: Hashable, build: Callable[[], V]) -> V:
        with self._lock:
            if key in self._items:
                self._items.move_to_end(key)
                self._hits += 1
                return self._items[key]
            key_lock = self._building.setdefault(key, threading.Lock())
        with key_lock:
            with self._lock:
                if key in self._items:  # another thread built it while we waited
                    self._items.move_to_end(key)
                    self._hits += 1
                    return self._items[key]
            try:
                value = build()
                with self._lock:
                    self._misses += 1
                    self._items[key] = value
                    self._weight += self._weigh(value) if self._weigh else 0
                    while len(self._items) > 1 and (len(self._items) > self.maxsize or self._too_heavy()):
                        _, old = self._items.popitem(last=False)
                        self._weight -= self._weigh(old) if self._weigh else 0
            finally:
                with self._lock:
                    self._building.pop(key, None)
        return value

    def _too_heavy(self) -> bool:
        return self._weigh is not None and self._weight > self._max_weight

    def clear(self) -> None:
        with self._lock:
            self._items.clear()
            self._hits = self._misses = self._weight = 0

    def info(self) -> CacheInfo:
        with self._lock:
            return CacheInfo(self._hits, self._misses, len(self._items), self.maxsize)
