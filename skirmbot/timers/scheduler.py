"""The one scheduler: a single task sleeps until the next due deadline (not a task per match).

Deadlines live in the database; here they sit in one-second buckets (a bucket queue): arming
appends to its second's list, a small heap orders the seconds that have any, and firing empties
the due buckets. The cost per fired deadline stays flat however many are pending, where a heap
of every deadline would pay its depth on each one. A replaced deadline is forgotten lazily: an
entry that is no longer its match's current deadline is skipped when its bucket comes due.
The clock is injected and `fire_due` fires what is due now, so tests move time by hand.

With several bot processes on one database (PostgreSQL), each process's scheduler also looks in
the database now and then (`poll`) for deadlines another process armed, and claims a due deadline
in the database before firing it (`StoreClaims`): whichever process claims it fires it, once.
A claim lapses after `CLAIM_LEASE` seconds, so a deadline whose process died mid-fire is picked
up by another at its next poll; a handler that fails gives its claim back, to be tried again.
"""

from __future__ import annotations

import asyncio
import contextlib
import heapq
import logging
import math
import os
import secrets
import socket
import time
from collections.abc import Awaitable, Callable
from typing import Protocol

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
POLL_SECONDS = 15.0  # how often the database is searched for deadlines other processes armed
CLAIM_LEASE = 120.0  # how long a claim holds: longer than any deadline takes to fire


class Claims(Protocol):
    """Who fires a due deadline, when several processes might."""

    async def claim(self, match_id: int, deadline: Deadline) -> bool: ...

    async def release(self, match_id: int) -> None: ...


class StoreClaims:
    """Claims kept in the database (`Store.claim_deadline`), in this process's name."""

    def __init__(self, store: Store, lease: float | None = None) -> None:
        self.store, self.lease = store, CLAIM_LEASE if lease is None else lease
        self.name = f"{socket.gethostname()}:{os.getpid()}:{secrets.token_hex(4)}"

    async def claim(self, match_id: int, deadline: Deadline) -> bool:
        return await self.store.claim_deadline(match_id, deadline, self.name, self.lease)

    async def release(self, match_id: int) -> None:
        await self.store.release_deadline(match_id, self.name)


class Scheduler:
    def __init__(
        self,
        handler: Handler,
        clock: Callable[[], float] = time.time,
        claims: Claims | None = None,
    ) -> None:
        self._handler = handler
        self._clock = clock
        self.claims = claims  # None: this process alone fires deadlines
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

    async def poll(self, store: Store, horizon: float = 2 * POLL_SECONDS) -> int:
        """Arm the deadlines due within `horizon` seconds that this process does not hold
        (another process armed them, or its own firing failed); how many."""
        due = await store.pending_deadlines(due_before=self._clock() + horizon)
        added = 0
        for match_id, deadline in due:
            held = self._current.get(match_id)
            if held is not None and (held.key, held.kind) == (deadline.key, deadline.kind):
                continue  # already armed here (perhaps later, after a start-up's grace)
            self.arm(match_id, deadline)
            added += 1
        return added

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
                if self.claims is not None and not await self._claimed(match_id, deadline):
                    continue  # another process fires it
                try:
                    await self._handler(match_id, deadline)
                except Exception:
                    log.exception("Deadline %s of match %s failed", deadline, match_id)
                    if self.claims is not None:
                        await self._release(match_id)
                total += 1
        return total

    async def _claimed(self, match_id: int, deadline: Deadline) -> bool:
        assert self.claims is not None
        try:
            return await self.claims.claim(match_id, deadline)
        except Exception:  # the database is away: the next poll tries again
            log.exception("Could not claim deadline %s of match %s", deadline, match_id)
            return False

    async def _release(self, match_id: int) -> None:
        assert self.claims is not None
        try:
            await self.claims.release(match_id)
        except Exception:  # it lapses by itself after the lease
            log.exception("Could not give back the claim on match %s's deadline", match_id)

    async def run(self) -> None:
        """Sleep until the next deadline (or an earlier one is armed), fire, repeat."""
        while True:
            self._wake.clear()
            due = self.next_due()
            delay = None if due is None else min(MAX_SLEEP, max(0.0, due - self._clock()))
            with contextlib.suppress(TimeoutError):  # timing out is how it wakes for a deadline
                await asyncio.wait_for(self._wake.wait(), timeout=delay)
            await self.fire_due()
