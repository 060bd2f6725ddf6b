"""Benchmark the map geometry: loading the standard board and hit-testing.

    python bench/bench_mapdata.py

Targets (issue 3): one hit-test <= 20 us median; loading the map <= 150 ms, or cached so that a
start does not pay it.  Prints the figures; exits 1 if a target is missed.
"""

from __future__ import annotations

import random
import statistics
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from diplomacy_desktop.mapdata import MapGeometry, standard_map_path

HIT_TARGET_US = 20.0
LOAD_TARGET_MS = 150.0


def _time_ms(fn: object, repeat: int) -> list[float]:
    out = []
    for _ in range(repeat):
        t0 = time.perf_counter()
        fn()  # type: ignore[operator]
        out.append((time.perf_counter() - t0) * 1000)
    return out


def main() -> int:
    svg = standard_map_path()
    with tempfile.TemporaryDirectory() as tmp:
        cache_dir = Path(tmp)
        parse = _time_ms(lambda: MapGeometry.load(svg, cache=False), 3)
        first = _time_ms(lambda: MapGeometry.load(svg, cache_dir=cache_dir), 1)
        cached = _time_ms(lambda: MapGeometry.load(svg, cache_dir=cache_dir), 20)
    geometry = MapGeometry.load(svg, cache=False)

    w, h = geometry.size
    rng = random.Random(1901)
    points = [(rng.uniform(0, w), rng.uniform(0, h)) for _ in range(20_000)]
    per_call: list[float] = []
    for chunk in range(0, len(points), 1000):
        batch = points[chunk : chunk + 1000]
        t0 = time.perf_counter()
        for x, y in batch:
            geometry.space_at(x, y)
        per_call.append((time.perf_counter() - t0) / len(batch) * 1e6)
    single: list[float] = []
    for x, y in points[:5000]:
        t0 = time.perf_counter_ns()
        geometry.space_at(x, y)
        single.append((time.perf_counter_ns() - t0) / 1000)
    coast: list[float] = []
    ax, ay = geometry.unit_anchor("spa")
    for _ in range(2000):
        t0 = time.perf_counter_ns()
        geometry.coast_at(ax, ay, "spa")
        coast.append((time.perf_counter_ns() - t0) / 1000)

    hit_median = statistics.median(single)
    load_ms = statistics.median(cached)
    print(f"map: {svg} ({svg.stat().st_size / 1024:.0f} KiB, {len(geometry.space_ids)} spaces)")
    print(f"load, SVG parsed with svgelements (no cache): median {statistics.median(parse):7.1f} ms")
    print(f"load, first start (parse + write cache):      {first[0]:7.1f} ms")
    print(
        f"load, later starts (from cache):              median {load_ms:7.1f} ms   target <= {LOAD_TARGET_MS:g} ms"
    )
    print(
        f"space_at, one call timed alone:               median {hit_median:7.2f} us   target <= {HIT_TARGET_US:g} us"
    )
    print(
        f"space_at, batches of 1000:                    median {statistics.median(per_call):7.2f} us per call"
    )
    print(f"coast_at (spa):                               median {statistics.median(coast):7.2f} us")
    ok = hit_median <= HIT_TARGET_US and load_ms <= LOAD_TARGET_MS
    print("targets met" if ok else "TARGET MISSED")
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
