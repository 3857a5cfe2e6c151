"""Battlemap picture speed and size (issue 3).

Run: `python benchmarks/render.py`. Measures, in one run: drawing and encoding the picture of the
12x12 map after an activation (header, caption, map and key; median over a whole demo match,
with the renderer's caches warm as in a live match), against saving a blank RGB image of the
same size as PNG with Pillow's default settings; the PNG size; and building the 4-turn replay
animation; and a picture from a fresh renderer (the web's step pictures, a match whose renderer
was dropped), its terrain drawn anew (as before issue 32) against taken from the process's
shared terrain layers (`fresh renderer ratio:`). Ends with `ratio: X`.
"""

from __future__ import annotations

import io
import statistics
import time

from PIL import Image

from skirmbot.demo import play_demo
from skirmbot.render.battlemap import MapRenderer
from skirmbot.render.replay import activation_steps, animation
from skirmbot.render.terrains import TERRAINS


def main() -> None:
    _, record = play_demo(3)
    renderer = MapRenderer()
    steps = list(_snapshots(record))
    renderer.png(*steps[0])  # the first picture of a match draws the terrain once
    samples, sizes = [], []
    for _ in range(3):
        for state, events in steps:
            start = time.perf_counter()
            png = renderer.png(state, events)
            samples.append(time.perf_counter() - start)
            sizes.append(len(png))
    size = Image.open(io.BytesIO(png)).size
    blank = Image.new("RGB", size)
    baseline = []
    for _ in range(len(samples)):
        start = time.perf_counter()
        blank.save(io.BytesIO(), "PNG")
        baseline.append(time.perf_counter() - start)
    start = time.perf_counter()
    gif = animation(record)
    built = time.perf_counter() - start
    render_ms, blank_ms = statistics.median(samples) * 1000, statistics.median(baseline) * 1000
    print(f"map picture {size[0]}x{size[1]} px: {render_ms:.2f} ms median to draw and encode")
    print(
        f"PNG size: median {statistics.median(sizes) / 1024:.1f} KB, largest {max(sizes) / 1024:.1f} KB"
    )
    print(f"baseline, saving a blank RGB image of that size as PNG: {blank_ms:.2f} ms median")
    print(
        f"replay animation: {len(steps)} frames, {len(gif) / 1024:.0f} KB, built in {built:.2f} s"
    )
    cold_ms, warm_ms = _fresh_renderer(steps)
    print(
        f"picture from a fresh renderer: {cold_ms:.2f} ms median drawing its terrain, "
        f"{warm_ms:.2f} ms with the process's shared terrain"
    )
    print(f"fresh renderer ratio: {cold_ms / warm_ms:.2f}")
    print(f"ratio: {render_ms / blank_ms:.2f}")


def _fresh_renderer(steps: list) -> tuple[float, float]:  # type: ignore[type-arg]
    """Median ms of a picture by a new MapRenderer, the shared terrain emptied first (cold) and
    kept (warm), interleaved so the machine's noise falls on both alike."""
    cold, warm = [], []
    for _ in range(2):
        for state, events in steps:
            TERRAINS.clear()
            start = time.perf_counter()
            MapRenderer().png(state, events)
            cold.append(time.perf_counter() - start)
            start = time.perf_counter()
            MapRenderer().png(state, events)
            warm.append(time.perf_counter() - start)
    return statistics.median(cold) * 1000, statistics.median(warm) * 1000


def _snapshots(record):  # type: ignore[no-untyped-def]
    """Each activation's picture inputs, frozen (the replay reuses one live state)."""
    import copy

    for state, events in activation_steps(record):
        yield copy.deepcopy(state), list(events)


if __name__ == "__main__":
    main()
