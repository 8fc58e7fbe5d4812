"""Map rendering cost: cold and cached renders versus a bare Pillow PNG encode of the same picture.

For the largest bundled scenario map and for a generated 60x40 map with 200 Forces, prints the
time of a cold render (terrain layer drawn), of a cached render (terrain layer reused: overlays,
title, legend and the PNG encode), and of a bare ``Image.save(format="PNG")`` of an image of the
same size and content with the same settings, plus the PNG size. Goals: a cached render within
2x the bare encode; every PNG under 2 MB. Then the phone crop of Italy 1796 as France sees it (fog of
war, place names): its cold and cached render time and its smallest text once scaled to 480 pixels
wide (goal: at least 10 px). Last, the scenario generator's time for a 60x40 map (bot/generate.py, MC-0).

    .venv/bin/python bench/render.py [--repeat 10]
"""

from __future__ import annotations

import argparse
import statistics
import sys
import time
from collections.abc import Callable
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from bot.generate import Params, generate_scenario
from bot.render import MAX_PNG_BYTES, MapSnapshot, clear_cache, encode_png, render_layout, render_png
from bot.render.layout import PHONE_MIN_TEXT, PHONE_READ_WIDTH
from bot.scenario import bundled_scenarios, load_bundled, parse_scenario
from tests.render.samples import drawn_text_sizes, italy_phone_snapshot, large_snapshot, scenario_snapshot


def largest_bundled() -> tuple[str, MapSnapshot]:
    scenarios = [load_bundled(key) for key in bundled_scenarios()]
    biggest = max(scenarios, key=lambda s: s.map.width * s.map.height)
    snapshot = scenario_snapshot(biggest)
    return f"{biggest.key} ({biggest.map.width}x{biggest.map.height}, {len(snapshot.counters)} Forces)", snapshot


def median_ms(fn: Callable[[], object], repeat: int) -> float:
    times = []
    for _ in range(repeat):
        t0 = time.perf_counter()
        fn()
        times.append(time.perf_counter() - t0)
    return statistics.median(times) * 1000


def bench(label: str, snapshot: MapSnapshot, repeat: int) -> bool:
    clear_cache()
    t0 = time.perf_counter()
    png = render_png(snapshot)
    cold = (time.perf_counter() - t0) * 1000
    image, layout = render_layout(snapshot)
    cached = median_ms(lambda: render_png(snapshot), repeat)
    bare = median_ms(lambda: encode_png(image), repeat)
    ratio = cached / bare
    size_ok = len(png) < MAX_PNG_BYTES
    print(f"{label}: {image.width}x{image.height} px, {layout.cell}-pixel squares")
    rows = [
        ("cold render (terrain layer drawn)", f"{cold:8.1f} ms"),
        (f"cached render (median of {repeat})", f"{cached:8.1f} ms"),
        (f"bare Pillow PNG encode (median of {repeat})", f"{bare:8.1f} ms"),
        ("cached / bare ratio", f"{ratio:8.2f}x  (goal: at most 2x)"),
        ("PNG size", f"{len(png) / 1024:8.1f} KiB (goal: under 2 MiB: {'yes' if size_ok else 'NO'})"),
    ]
    for name, value in rows:
        print(f"  {name + ':':<42}{value}")
    return ratio <= 2 and size_ok


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--repeat", type=int, default=10)
    args = parser.parse_args()
    label, bundled = largest_bundled()
    ok = bench(f"largest bundled map, {label}", bundled, args.repeat)
    ok &= bench("generated 60x40 map, 200 Forces", large_snapshot(), args.repeat)
    ok &= phone(args.repeat)
    generator(args.repeat)
    print("all goals met" if ok else "a goal was missed")


def phone(repeat: int) -> bool:
    """The phone crop (issue 15): Italy 1796 around France's Forces, fog of war and place names."""
    snapshot = italy_phone_snapshot()
    clear_cache()
    t0 = time.perf_counter()
    png = render_png(snapshot, view="fr", phone=True)
    cold = (time.perf_counter() - t0) * 1000
    cached = median_ms(lambda: render_png(snapshot, view="fr", phone=True), repeat)
    with drawn_text_sizes() as drawn:
        image, layout = render_layout(snapshot, view="fr", phone=True)
    size, text = min(drawn)
    smallest = size * PHONE_READ_WIDTH / image.width
    print(f"phone crop, italy1796 as France sees it: {image.width}x{image.height} px, {layout.cell}-pixel squares, "
          f"{layout.window.cols}x{layout.window.rows} squares")
    rows = [
        ("cold render (terrain layer drawn)", f"{cold:8.1f} ms"),
        (f"cached render (median of {repeat})", f"{cached:8.1f} ms"),
        ("PNG size", f"{len(png) / 1024:8.1f} KiB"),
        (f"smallest text at {PHONE_READ_WIDTH} px wide", f"{smallest:8.1f} px ({text!r}; goal: at least {PHONE_MIN_TEXT})"),
    ]
    for name, value in rows:
        print(f"  {name + ':':<42}{value}")
    return smallest >= PHONE_MIN_TEXT


def generator(repeat: int) -> None:
    """The scenario generator (MC-0) for a 60x40 map of 4 sides, checked as an upload is, and its render."""
    params = Params(width=60, height=40, sides=4, seed=1)
    drawn = median_ms(lambda: generate_scenario(params), repeat)
    spec = parse_scenario(generate_scenario(params), key="generated")
    print(f"scenario generator, 60x40, 4 sides: {drawn:8.1f} ms (median of {repeat}); "
          f"{len(spec.forces)} Forces, rendered cold in {median_ms(lambda: (clear_cache(), render_png(scenario_snapshot(spec))), 1):.1f} ms")


if __name__ == "__main__":
    main()
