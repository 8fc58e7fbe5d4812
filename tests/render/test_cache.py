"""The terrain layer cache (bot/render/cache.py): keyed by a fingerprint of the map, so equal maps
share a layer and a changed square gets a new one."""

from __future__ import annotations

import contextlib
import dataclasses
import threading

from bot.engine.grid import CampaignMap
from bot.engine.model import Cell, Terrain
from bot.render import cache_info, map_fingerprint, render_png
from bot.render.cache import LayerCache
from bot.scenario import load_bundled

from .conftest import sq
from .samples import scenario_snapshot


def test_maps_loaded_twice_share_a_fingerprint_and_a_cached_layer():
    a, b = load_bundled("tutorial"), load_bundled("tutorial")
    assert a.map is not b.map
    assert map_fingerprint(a.map) == map_fingerprint(b.map)
    render_png(scenario_snapshot(a))
    render_png(scenario_snapshot(b))
    assert (cache_info().misses, cache_info().hits) == (1, 1)


def test_one_changed_square_changes_the_fingerprint():
    cmap = load_bundled("tutorial").map
    cells = dict(cmap.cells)
    cells[sq("A1")] = Cell(Terrain.SWAMP)
    changed = dataclasses.replace(cmap, cells=cells)
    assert map_fingerprint(changed) != map_fingerprint(cmap)
    assert map_fingerprint(CampaignMap(12, 9)) != map_fingerprint(CampaignMap(12, 9, adjacency=4))


def test_an_open_square_listed_or_left_out_is_the_same_map_but_a_different_fingerprint_is_safe():
    listed = CampaignMap(3, 3, {sq("A1"): Cell()})
    assert map_fingerprint(listed) != map_fingerprint(CampaignMap(3, 3))  # conservative: only a cache miss


def test_the_cache_keeps_the_most_recently_used_layers():
    cache: LayerCache[int] = LayerCache(2)
    built: list[str] = []

    def build(k: str) -> int:
        built.append(k)
        return len(built)

    for k in "abab":
        cache.get(k, lambda k=k: build(k))
    cache.get("c", lambda: build("c"))  # evicts a, the least recently used
    cache.get("b", lambda: build("b"))
    cache.get("a", lambda: build("a"))
    assert built == ["a", "b", "c", "a"]
    assert cache.info().size == 2


def test_a_layer_asked_for_by_many_threads_at_once_is_built_once():
    cache: LayerCache[int] = LayerCache(4)
    calls = 0
    gate = threading.Event()

    def build() -> int:
        nonlocal calls
        calls += 1
        gate.wait(1)
        return 42

    threads = [threading.Thread(target=lambda: cache.get("k", build)) for _ in range(8)]
    for t in threads:
        t.start()
    gate.set()
    for t in threads:
        t.join()
    assert calls == 1
    assert cache.info().hits == 7


def test_a_failed_build_is_not_cached():
    cache: LayerCache[int] = LayerCache(4)

    def boom() -> int:
        raise RuntimeError("no")

    for _ in range(2):
        with contextlib.suppress(RuntimeError):
            cache.get("k", boom)
    assert cache.get("k", lambda: 7) == 7
    assert cache.info().misses == 1


def test_the_cache_drops_old_layers_to_stay_within_its_memory_budget():
    cache: LayerCache[bytes] = LayerCache(10, weigh=len, max_weight=10)
    for k in "abc":
        cache.get(k, lambda: b"1234")
    assert cache.info().size == 2  # 8 bytes kept, "a" dropped
    cache.get("big", lambda: b"x" * 50)
    assert cache.info().size == 1  # the newest is kept even when over budget
