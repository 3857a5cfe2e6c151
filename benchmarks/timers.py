"""Turn timer scheduler: cost per fired deadline as pending deadlines grow, and start-up re-arming.

Run: `python benchmarks/timers.py`. Prints, from one run, the scheduler's wake-up and
bookkeeping cost per fired deadline with 1,000 and with 100,000 deadlines pending, their ratio
(`ratio: X`, the last line), and the time to re-arm 100,000 deadlines from the database at
start-up.
"""

from __future__ import annotations

import asyncio
import json
import random
import sqlite3
import statistics
import tempfile
import time
from pathlib import Path

from skirmbot.store import Deadline, Store
from skirmbot.timers.scheduler import Scheduler

FIRED = 2_000  # deadlines that come due in each measurement
ROUNDS = 7


async def cost_per_fired(pending: int) -> float:
    """Seconds per fired deadline (pop, staleness check, dispatch) with `pending` waiting."""
    now = [0.0]

    async def handler(match_id: int, deadline: Deadline) -> None:
        return None

    samples = []
    rng = random.Random(pending)
    for _ in range(ROUNDS):
        scheduler = Scheduler(handler, clock=lambda: now[0])
        for match_id in range(pending):  # far in the future: they stay pending
            scheduler.arm(match_id, Deadline(1e9 + rng.random() * 1e6, "miss", "k"))
        for n in range(FIRED):  # these come due, interleaved with stale replaced entries
            scheduler.arm(pending + n, Deadline(50.0 + rng.random(), "remind", "old"))
            scheduler.arm(pending + n, Deadline(100.0 + rng.random(), "miss", "k"))
        now[0] = 200.0
        start = time.perf_counter()
        fired = await scheduler.fire_due()
        samples.append((time.perf_counter() - start) / fired)
    return statistics.median(samples)


async def rearm_time(count: int) -> float:
    with tempfile.TemporaryDirectory() as folder:
        path = Path(folder) / "timers.db"
        store = await Store.open(path)
        await store.close()
        # Bulk set-up only: 100,000 matches through the store's API one by one would take
        # minutes, and only the re-arming is measured.
        with sqlite3.connect(path) as db:
            db.executemany(
                "INSERT INTO matches (id, guild_id, channel_id, status, players, names, record, setup, "
                "created_at, updated_at) VALUES (?, 1, ?, 'playing', '[1, 2]', '[\"a\", \"b\"]', '{}', '{}', 0, 0)",
                ((n, n) for n in range(1, count + 1)),
            )
            db.executemany(
                "INSERT INTO deadlines (match_id, due_at, kind, key) VALUES (?, ?, 'miss', ?)",
                ((n, 1e9 + n, json.dumps(n)) for n in range(1, count + 1)),
            )
        store = await Store.open(path)
        try:
            scheduler = Scheduler(lambda m, d: asyncio.sleep(0), clock=time.time)
            start = time.perf_counter()
            loaded = await scheduler.load(store, grace=900)
            elapsed = time.perf_counter() - start
            assert loaded == count
            return elapsed
        finally:
            await store.close()


async def main() -> None:
    small, large = await cost_per_fired(1_000), await cost_per_fired(100_000)
    rearm = await rearm_time(100_000)
    print(f"per fired deadline, 1,000 pending: {small * 1e6:.2f} µs")
    print(f"per fired deadline, 100,000 pending: {large * 1e6:.2f} µs")
    print(f"start-up re-arming of 100,000 deadlines: {rearm:.2f} s")
    print(f"ratio: {large / small:.2f}")


if __name__ == "__main__":
    asyncio.run(main())
