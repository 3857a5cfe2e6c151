"""A watcher of event-loop stalls: how long the loop was kept from running its tasks.

Why: the bot serves every match, Discord's gateway and the web pages from one asyncio event
loop. Whatever runs on it without awaiting (replaying a long record, encoding JSON, drawing a
picture outside a thread) holds up everything else: Discord's gateway heartbeat (miss enough of
those and Discord drops the connection, and every player waits for the reconnection), and the
acknowledgement every other player's slash command must get within 3 seconds. A stall is
invisible in any single request's timing; this watcher makes it visible.

How: a task sleeps a short interval (5 ms) again and again and records how late it wakes up;
the lateness is how long the loop could not run it, the stall. It keeps a histogram (bounded
memory, however long it runs) of the lateness, from which the longest stall and percentiles
since the start (or the last `reset`) are read:

    async with LoopWatch() as watch:
        ...
        print(watch.longest, watch.percentile(0.99))

Percentiles are the upper edge of their histogram bucket (buckets 5% apart, from 0.1 ms), so
they are never below the true value by more than that; `longest` is exact.
"""

from __future__ import annotations

import asyncio
import logging
import math
from collections.abc import Callable
from dataclasses import dataclass
from types import TracebackType

__all__ = ["INTERVAL", "LoopWatch", "Stalls"]

log = logging.getLogger(__name__)

INTERVAL = 0.005  # seconds between two looks at the loop
_BASE = 0.0001  # the first bucket holds lateness up to 0.1 ms (timer slack, not a stall)
_GROWTH = 1.05  # each bucket's upper edge is 5% above the one before
_BUCKETS = 320  # the last holds everything above 0.1 ms * 1.05**318 (about 550 s)


@dataclass(frozen=True, slots=True)
class Stalls:
    """What a LoopWatch saw since it started or was reset (seconds)."""

    samples: int  # how many times the watcher woke up
    longest: float
    p50: float
    p95: float
    p99: float
    total: float  # all the lateness added up

    def describe(self) -> str:
        return (
            f"longest {self.longest * 1000:.1f} ms, p50 {self.p50 * 1000:.1f} ms, "
            f"p95 {self.p95 * 1000:.1f} ms, p99 {self.p99 * 1000:.1f} ms "
            f"({self.samples} looks)"
        )


class LoopWatch:
    """Watches the running event loop's stalls while it is started (`async with`, or
    `start`/`stop`). `on_stall(seconds)` is called, in the loop, for every stall of at least
    `report_above` seconds (None: never); with no `on_stall`, such stalls are logged as
    warnings. An error in `on_stall` is logged, and the watching goes on."""

    def __init__(
        self,
        interval: float = INTERVAL,
        *,
        report_above: float | None = None,
        on_stall: Callable[[float], None] | None = None,
    ) -> None:
        if interval <= 0:
            raise ValueError("The interval must be positive.")
        self.interval = interval
        self.report_above = report_above
        self.on_stall = on_stall
        self._task: asyncio.Task[None] | None = None
        self._counts = [0] * _BUCKETS
        self._samples = 0
        self._longest = 0.0
        self._total = 0.0

    # --- life cycle --------------------------------------------------------------------------
    def start(self) -> None:
        """Start watching the running loop (nothing happens if it is watched already)."""
        if self._task is None or self._task.done():
            self._task = asyncio.get_running_loop().create_task(
                self._watch(), name="skirmbot-loopwatch"
            )

    async def stop(self) -> None:
        """Stop watching; what was seen stays readable."""
        task, self._task = self._task, None
        if task is not None:
            task.cancel()
            try:
                await task
            except asyncio.CancelledError:
                current = asyncio.current_task()
                if current is not None and current.cancelling():
                    raise  # the stopping task itself is being cancelled: let it be

    @property
    def running(self) -> bool:
        return self._task is not None and not self._task.done()

    async def __aenter__(self) -> LoopWatch:
        self.start()
        return self

    async def __aexit__(
        self,
        kind: type[BaseException] | None,
        error: BaseException | None,
        trace: TracebackType | None,
    ) -> None:
        await self.stop()

    def reset(self) -> None:
        """Forget what was seen so far (the watching goes on)."""
        self._counts = [0] * _BUCKETS
        self._samples = 0
        self._longest = 0.0
        self._total = 0.0

    # --- what was seen -----------------------------------------------------------------------
    @property
    def samples(self) -> int:
        return self._samples

    @property
    def longest(self) -> float:
        """The longest stall seen (seconds): exact."""
        return self._longest

    @property
    def total(self) -> float:
        """All the lateness seen, added up (seconds)."""
        return self._total

    def percentile(self, fraction: float) -> float:
        """The lateness that `fraction` (0 to 1) of the looks did not exceed (seconds): the
        upper edge of its bucket, never more than the longest stall; 0 before any look."""
        if not 0 <= fraction <= 1:
            raise ValueError("A percentile is a fraction between 0 and 1.")
        if self._samples == 0:
            return 0.0
        rank = max(1, math.ceil(fraction * self._samples))
        seen = 0
        for index, count in enumerate(self._counts):
            seen += count
            if seen >= rank:
                return min(_upper_edge(index), self._longest)
        return self._longest

    def count_above(self, seconds: float) -> int:
        """How many looks were late by more than `seconds` (to the histogram's 5%: the looks
        in the bucket holding `seconds` are counted as above)."""
        return sum(self._counts[_bucket(seconds) :]) if seconds > 0 else self._samples

    def stalls(self) -> Stalls:
        return Stalls(
            self._samples,
            self._longest,
            self.percentile(0.5),
            self.percentile(0.95),
            self.percentile(0.99),
            self._total,
        )

    # --- the watching --------------------------------------------------------------------------
    def note(self, late: float) -> None:
        """Count one look that came `late` seconds after it was due (the watcher's own; public
        for tests and for callers that measure a delay of their own)."""
        late = max(0.0, late)
        self._counts[_bucket(late)] += 1
        self._samples += 1
        self._total += late
        self._longest = max(self._longest, late)
        if self.report_above is not None and late >= self.report_above:
            if self.on_stall is None:
                log.warning("The event loop stalled for %.0f ms", late * 1000)
                return
            try:
                self.on_stall(late)
            except Exception:  # the watching goes on whatever the listener does
                log.exception("A LoopWatch listener failed")

    async def _watch(self) -> None:
        loop = asyncio.get_running_loop()
        while True:
            due = loop.time() + self.interval
            await asyncio.sleep(self.interval)
            self.note(loop.time() - due)


def _bucket(late: float) -> int:
    if late <= _BASE:
        return 0
    index = math.ceil(math.log(late / _BASE) / math.log(_GROWTH))
    return min(index, _BUCKETS - 1)


def _upper_edge(index: int) -> float:
    return _BASE * _GROWTH**index if index < _BUCKETS - 1 else math.inf
