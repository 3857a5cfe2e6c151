"""First come, first served under overload: how many players' units of work run at once, and
how many may wait for their turn.

Without a bound every request that arrives starts at once, and they all share the two cores:
under overload each player then waits longer (the last to arrive as long as the first)
instead of the first ones being answered first. `Admission` lets a fixed number of units of
work run at once (sized from the cores: more would only take turns on the same CPUs) and
keeps the others in a queue served in arrival order; a slot that ends goes straight to the
oldest waiter, so nobody who arrives later overtakes it. Past the queue's bound a request is
refused at once, in words, before it has read or changed anything (`Overloaded`): a moment's
wait and a retry serve the player better than a place in a queue they would wait minutes in.

A unit of work opened inside another one (in the same task, or a task it started) is already
admitted: it does not queue behind the requests that wait for its own caller's slot.
"""

from __future__ import annotations

import asyncio
import os
from collections import deque
from contextvars import ContextVar, Token

from skirmbot.service.errors import Busy

__all__ = ["OVERLOADED", "Admission", "Overloaded", "admitted", "default_admission"]

OVERLOADED = "The bot is busy: try again in a moment."
# Units of work that run at once, per core: each awaits the store and worker threads part of
# its time, so a few per core keep the cores busy without making each wait for the others.
RUNNING_PER_CORE = 4
# Requests that may wait, per core: enough for a thousand matches acting at once on two cores
# (the figure), each answered in seconds; more would only wait longer to be served.
WAITING_PER_CORE = 1024

# Whether the running task's context holds a slot already (a unit of work within a unit of work).
_admitted: ContextVar[bool] = ContextVar("skirmbot_admitted", default=False)


class Overloaded(Busy):
    """Too many requests wait already: nothing was done, and a retry in a moment will work."""


def admitted() -> bool:
    """Whether this task already runs inside an admitted unit of work."""
    return _admitted.get()


class Admission:
    """At most `running` units of work at once and `waiting` more in arrival order; see the
    module's text. `refused` and `served` count since it was made (the benchmark's figures)."""

    def __init__(self, running: int, waiting: int) -> None:
        if running < 1 or waiting < 0:
            raise ValueError("an admission runs one unit of work or more, and waits for 0 or more")
        self.running, self.waiting = running, waiting
        self._busy = 0  # slots taken now
        self._queue: deque[asyncio.Future[None]] = deque()
        self.served = 0
        self.refused = 0

    @property
    def in_flight(self) -> int:
        return self._busy

    @property
    def queued(self) -> int:
        return len(self._queue)

    async def enter(self) -> None:
        """Take a slot, after every request that arrived before (Overloaded: the queue is full)."""
        if self._busy < self.running and not self._queue:
            self._take()
            return
        if len(self._queue) >= self.waiting:
            self.refused += 1
            raise Overloaded(OVERLOADED)
        turn: asyncio.Future[None] = asyncio.get_running_loop().create_future()
        self._queue.append(turn)
        try:
            await turn
        except BaseException:
            if turn.done() and not turn.cancelled():
                self.leave()  # handed a slot as it was cancelled: the next waiter has it
            elif turn in self._queue:  # (`leave` may have passed over it already)
                self._queue.remove(turn)
            raise
        self.served += 1

    def leave(self) -> None:
        """Give the slot back: straight to the oldest waiter, so no later arrival overtakes it."""
        while self._queue:
            turn = self._queue.popleft()
            if not turn.done():  # (a cancelled waiter is left out: it takes its own out too)
                turn.set_result(None)  # the slot changes hands: `_busy` stays as it is
                return
        self._busy -= 1

    def _take(self) -> None:
        self._busy += 1
        self.served += 1

    @staticmethod
    def mark() -> Token[bool]:
        """Note in this task's context that it holds a slot; `unmark` takes the note back."""
        return _admitted.set(True)

    @staticmethod
    def unmark(token: Token[bool]) -> None:
        _admitted.reset(token)


def default_admission(cores: int | None = None) -> Admission:
    """The bound for this machine: `RUNNING_PER_CORE` and `WAITING_PER_CORE` per core."""
    count = max(1, cores if cores is not None else (os.cpu_count() or 1))
    return Admission(RUNNING_PER_CORE * count, WAITING_PER_CORE * count)
