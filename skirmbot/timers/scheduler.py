"""The one scheduler: a single task sleeps until the next due deadline (not a task per match).

Deadlines live in the database; here they sit in one-second buckets (a bucket queue): arming
appends to its second's list, a small heap orders the seconds that have any, and firing empties
the due buckets. The cost per fired deadline stays flat however many are pending, where a heap
of every deadline would pay its depth on each one. A replaced deadline is forgotten lazily: an
entry that is no longer its match's current deadline is skipped when its bucket comes due.
The clock is injected and `fire_due` fires what is due now, so tests move time by hand.
"""

from __future__ import annotations

import asyncio
import contextlib
import heapq
import logging
import math
import time
from collections.abc import Awaitable, Callable

from skirmbot.store import Deadline, Store

log = logging.getLogger(__name__)

Handler = Callable[[int, Deadline], Awaitable[None]]
BUCKET_SECONDS = 1.0
MAX_ROUNDS = 10  # a match re-arms at most a couple of due deadlines in a row (remind, miss)
# The longest the loop sleeps before looking at the clock again. Deadlines are wall-clock
# times but asyncio sleeps on the monotonic clock, which stands still while the machine is
# suspended and ignores clock corrections; waking now and then keeps a deadline from firing
# long after it fell due. (The wire tests, whose clock runs faster, make it shorter.)
MAX_SLEEP = 60.0


class Scheduler:
    def __init__(self, handler: Handler, clock: Callable[[], float] = time.time) -> None:
        self._handler = handler
        self._clock = clock
        self._current: dict[int, Deadline] = {}
        self._buckets: dict[int, list[tuple[int, Deadline]]] = {}
        self._seconds: list[int] = []  # heap of the buckets that hold entries
        self._wake = asyncio.Event()

    def __len__(self) -> int:
        return len(self._current)

    def arm(self, match_id: int, deadline: Deadline | None) -> None:
        """The match's deadline is now this one (None: the match waits for nothing)."""
        if deadline is None:
            self._current.pop(match_id, None)
            return
        self._current[match_id] = deadline
        second = self._put(match_id, deadline)
        if self._seconds[0] == second:
            self._wake.set()  # as early as what the loop sleeps for, or earlier

    def _put(self, match_id: int, deadline: Deadline) -> int:
        second = math.floor(deadline.due_at / BUCKET_SECONDS)
        bucket = self._buckets.get(second)
        if bucket is None:
            bucket = self._buckets[second] = []
            heapq.heappush(self._seconds, second)
        bucket.append((match_id, deadline))
        return second

    async def load(self, store: Store, grace: float) -> int:
        """Re-arm every pending deadline after a start; those already past (the bot was down)
        fire `grace` seconds from now instead of at once."""
        soonest = self._clock() + grace
        pending = await store.pending_deadlines()
        for match_id, deadline in pending:
            if deadline.due_at < soonest:
                deadline = Deadline(soonest, deadline.kind, deadline.key)
            self._current[match_id] = deadline
            self._put(match_id, deadline)
        self._wake.set()
        return len(pending)

    def next_due(self) -> float | None:
        """When the earliest current deadline falls (None: nothing pending)."""
        while self._seconds:
            second = self._seconds[0]
            live = [d.due_at for m, d in self._buckets[second] if self._current.get(m) is d]
            if live:
                return min(live)
            heapq.heappop(self._seconds)  # only replaced deadlines were left in it
            del self._buckets[second]
        return None

    def pop_due(self, now: float) -> list[tuple[int, Deadline]]:
        """Take the deadlines due at `now` (each match's current one only), soonest first."""
        due: list[tuple[int, Deadline]] = []
        while self._seconds and self._seconds[0] * BUCKET_SECONDS <= now:
            second = self._seconds[0]
            later = []
            for match_id, deadline in self._buckets[second]:
                if self._current.get(match_id) is not deadline:
                    continue
                if deadline.due_at <= now:
                    del self._current[match_id]
                    due.append((match_id, deadline))
                else:
                    later.append((match_id, deadline))
            if later:  # the rest of this second is still to come
                self._buckets[second] = later
                break
            heapq.heappop(self._seconds)
            del self._buckets[second]
        due.sort(key=lambda entry: entry[1].due_at)
        return due

    async def fire_due(self) -> int:
        """Run the handler for every deadline due now, including those a handler arms already
        due (a reminder, then the miss, after a long gap); a failing handler is logged."""
        total = 0
        for _ in range(MAX_ROUNDS):
            fired = self.pop_due(self._clock())
            if not fired:
                break
            for match_id, deadline in fired:
                try:
                    await self._handler(match_id, deadline)
                except Exception:
                    log.exception("Deadline %s of match %s failed", deadline, match_id)
            total += len(fired)
        return total

    async def run(self) -> None:
        """Sleep until the next deadline (or an earlier one is armed), fire, repeat."""
        while True:
            self._wake.clear()
            due = self.next_due()
            delay = None if due is None else min(MAX_SLEEP, max(0.0, due - self._clock()))
            with contextlib.suppress(TimeoutError):  # timing out is how it wakes for a deadline
                await asyncio.wait_for(self._wake.wait(), timeout=delay)
            await self.fire_due()
