"""The event-loop stall watcher (skirmbot.loopwatch). Only what cannot flake on a busy machine is
asserted: a stall is never reported shorter than the loop was blocked, and the bookkeeping is
exact; nothing says how small the lateness of an idle loop is."""

from __future__ import annotations

import asyncio
import time

import pytest

from skirmbot.loopwatch import LoopWatch

BLOCK = 0.2


async def until_looked(watch: LoopWatch, looks: int = 1) -> None:
    """Wait (in the loop, so the watcher runs) until the watcher has looked `looks` more times."""
    target = watch.samples + looks
    while watch.samples < target:
        await asyncio.sleep(0.001)


async def test_a_blocking_sleep_in_the_loop_is_a_stall_at_least_as_long() -> None:
    async with LoopWatch(interval=0.005) as watch:
        await until_looked(watch)  # the watcher is asleep, due again within 5 ms
        time.sleep(BLOCK)  # blocks the whole loop, as synchronous work in a handler would
        await until_looked(watch)
    # It slept at most `interval` before the block began and woke only after it ended.
    assert watch.longest >= BLOCK - watch.interval
    assert watch.percentile(1.0) == watch.longest
    assert watch.count_above(0.1) >= 1
    assert watch.total >= watch.longest
    stalls = watch.stalls()
    assert stalls.longest == watch.longest
    assert stalls.p50 <= stalls.p95 <= stalls.p99 <= stalls.longest
    assert f"longest {watch.longest * 1000:.1f} ms" in stalls.describe()


async def test_a_stall_above_the_threshold_is_reported_as_it_happens() -> None:
    heard: list[float] = []
    async with LoopWatch(interval=0.005, report_above=0.1, on_stall=heard.append) as watch:
        await until_looked(watch)
        time.sleep(BLOCK)
        await until_looked(watch)
    assert heard and max(heard) >= BLOCK - watch.interval
    assert all(late >= 0.1 for late in heard)


async def test_reset_forgets_what_was_seen_and_the_watching_goes_on() -> None:
    async with LoopWatch(interval=0.005) as watch:
        await until_looked(watch)
        time.sleep(BLOCK)
        await until_looked(watch)
        watch.reset()
        assert (watch.samples, watch.longest, watch.total) == (0, 0.0, 0.0)
        assert watch.percentile(0.99) == 0.0 and watch.count_above(0.001) == 0
        await until_looked(watch, 3)
        assert watch.samples >= 3 and watch.running


async def test_stopping_ends_the_watching_and_keeps_the_figures() -> None:
    watch = LoopWatch(interval=0.005)
    assert not watch.running and watch.samples == 0 and watch.percentile(0.5) == 0.0
    watch.start()
    watch.start()  # a second start does not start a second watcher
    assert watch.running
    await until_looked(watch, 2)
    await watch.stop()
    assert not watch.running
    seen = watch.samples
    await asyncio.sleep(0.03)
    assert watch.samples == seen
    await watch.stop()  # stopping twice is harmless


async def test_the_figures_are_read_from_the_lateness_noted() -> None:
    watch = LoopWatch()  # never started: only what is noted here counts
    for late in (0.001, 0.002, 0.003, 0.5, -0.001):  # early (negative) counts as on time
        watch.note(late)
    assert watch.samples == 5 and watch.longest == 0.5
    assert watch.total == pytest.approx(0.506)
    assert watch.percentile(0.5) == pytest.approx(0.002, rel=0.06)
    assert watch.percentile(0.5) >= 0.002  # a bucket's upper edge: never below the value
    assert watch.percentile(0.8) == pytest.approx(0.003, rel=0.06)
    assert watch.percentile(0.99) == 0.5
    assert watch.count_above(0.1) == 1 and watch.count_above(0) == 5


def test_bad_arguments_are_refused() -> None:
    with pytest.raises(ValueError):
        LoopWatch(interval=0)
    with pytest.raises(ValueError):
        LoopWatch().percentile(1.5)


async def test_a_failing_listener_does_not_stop_the_watching(
    caplog: pytest.LogCaptureFixture,
) -> None:
    def fail(late: float) -> None:
        raise RuntimeError("listener broke")

    async with LoopWatch(interval=0.005, report_above=0.1, on_stall=fail) as watch:
        await until_looked(watch)
        time.sleep(BLOCK)
        await until_looked(watch, 2)  # it looked again after the failure
        assert watch.running
    assert "listener failed" in caplog.text
