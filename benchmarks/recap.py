"""Catch-up recap speed and size (issue 21: a catch-up GIF of 10 activations in under 1 s).

Run: `python benchmarks/recap.py`. Measures, in one run, for the last 10 activations of a demo
match of each ruleset: building the whole recap as a turn ping does (replaying the record to
number the activations, replaying it again to draw the 10 frames with one renderer, encoding
the GIF, writing the summary; median of 5 runs, a fresh renderer each time as for a recap
asked by hand), against a baseline of encoding 10 blank frames of the same size as a GIF with
Pillow; and the GIF's size. Ends with `ratio: X` (the slower ruleset's recap over its
baseline).
"""

from __future__ import annotations

import io
import statistics
import time

from PIL import Image

from skirmbot.demo import play_demo
from skirmbot.render.replay import numbered_steps
from skirmbot.service.recap import catch_up

ACTIVATIONS = 10
RUNS = 5
GOAL_S = 1.0


def main() -> None:
    ratios = []
    for rules in ("skirm", "lite"):
        _, record = play_demo(3, rules)
        last = [step for step, _ in numbered_steps(record)][-1].number
        start = last - ACTIVATIONS + 1
        samples = []
        for _ in range(RUNS):
            began = time.perf_counter()
            recap = catch_up(record, None, start=start)
            samples.append(time.perf_counter() - began)
        assert recap is not None
        gif = Image.open(io.BytesIO(recap.animation))
        frames, size = getattr(gif, "n_frames", 1), gif.size
        assert frames == ACTIVATIONS, frames
        blank = [Image.new("P", size) for _ in range(ACTIVATIONS)]
        baseline = []
        for _ in range(RUNS):
            began = time.perf_counter()
            blank[0].save(io.BytesIO(), "GIF", save_all=True, append_images=blank[1:], loop=0)
            baseline.append(time.perf_counter() - began)
        took, blank_s = statistics.median(samples), statistics.median(baseline)
        print(
            f"{rules}: recap of {ACTIVATIONS} activations ({size[0]}x{size[1]} px, record of "
            f"{len(record.commands)} commands): {took * 1000:.0f} ms median "
            f"(goal {GOAL_S * 1000:.0f} ms), GIF {len(recap.animation) / 1024:.0f} KB, "
            f"summary {len(recap.text)} characters"
        )
        print(
            f"{rules}: baseline, {ACTIVATIONS} blank frames as a GIF: {blank_s * 1000:.1f} ms median"
        )
        ratios.append(took / blank_s)
    print(f"ratio: {max(ratios):.2f}")


if __name__ == "__main__":
    main()
