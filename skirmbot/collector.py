"""The garbage collector's settings for a long-running bot process.

A live match is a graph of ~1,700 objects the collector tracks; with a few hundred matches in
memory a full collection walks half a million objects and holds the event loop for 0.3-1.8 s
(benchmarks/concurrency.py), which delays Discord's heartbeat and every player's answer. Most
of those objects live as long as the process (content, cards, the modules) or as long as a
match stays in memory, and they form few cycles; freezing what start-up made and collecting
the older generations less often keeps those pauses rare (measured at 1,000 matches at once:
the longest stall went from 1.8 s to about 0.5 s). Cyclic garbage waits a little longer to be
freed; most garbage here has no cycles and is freed at once by reference counting.
"""

from __future__ import annotations

import gc

THRESHOLDS = (10_000, 50, 1_000)  # CPython's defaults are (700, 10, 10)


def settle_collector() -> None:
    """Move what start-up made out of the collector's way, and collect less often."""
    gc.collect()
    gc.freeze()
    gc.set_threshold(*THRESHOLDS)


__all__ = ["THRESHOLDS", "settle_collector"]
