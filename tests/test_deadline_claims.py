"""Deadlines with several bot processes on one database (issue 14): each process's scheduler
finds what others armed (`poll`), and a due deadline fires exactly once, whichever process is
up; one whose process died mid-fire is fired by another once the claim lapses. Run against both
backends (PostgreSQL: a real server the test run starts)."""

from __future__ import annotations

from collections.abc import AsyncIterator
from pathlib import Path

import pytest

from skirmbot.store import Deadline, Store
from skirmbot.timers.scheduler import CLAIM_LEASE, Scheduler, StoreClaims


class Time:
    def __init__(self) -> None:
        self.now = 1_000.0

    def __call__(self) -> float:
        return self.now


@pytest.fixture(params=["sqlite", "postgresql"])
def url(request: pytest.FixtureRequest, tmp_path: Path) -> str:
    if request.param == "postgresql":
        return str(request.getfixturevalue("postgres_url"))
    return str(tmp_path / "shared.db")


@pytest.fixture
async def two_processes(url: str) -> AsyncIterator[tuple[Time, Store, Store]]:
    """The clock and two stores on one database, as two processes would have them."""
    time = Time()
    first = await Store.open(url, clock=time)
    second = await Store.open(url, clock=time)
    yield time, first, second
    await first.close()
    await second.close()


async def a_match(store: Store, channel: int) -> int:
    row = await store.create_match(1, channel, [10, 20], ["A", "B"], {"commands": []})
    return row.id


def scheduler(store: Store, time: Time, fired: list[tuple[str, int]], name: str) -> Scheduler:
    async def fire(match_id: int, deadline: Deadline) -> None:
        fired.append((name, match_id))
        await store.set_deadline(match_id, None)  # as a fired deadline's save replaces it

    return Scheduler(fire, clock=time, claims=StoreClaims(store))


async def test_a_deadline_armed_by_one_process_fires_once(
    two_processes: tuple[Time, Store, Store],
) -> None:
    time, first, second = two_processes
    fired: list[tuple[str, int]] = []
    a, b = scheduler(first, time, fired, "a"), scheduler(second, time, fired, "b")
    match = await a_match(first, 7)
    await first.set_deadline(match, Deadline(time.now + 10, "miss", "t1:a0:s0"))
    a.arm(match, Deadline(time.now + 10, "miss", "t1:a0:s0"))  # the process that saved it
    assert await b.poll(second) == 1  # the other finds it in the database
    assert await b.poll(second) == 0  # once
    time.now += 11
    assert await a.fire_due() + await b.fire_due() == 1
    assert len(fired) == 1


async def test_a_process_that_dies_mid_fire_loses_nothing(
    two_processes: tuple[Time, Store, Store],
) -> None:
    time, first, second = two_processes
    fired: list[tuple[str, int]] = []
    survivor = scheduler(second, time, fired, "b")
    match = await a_match(first, 8)
    due = Deadline(time.now + 10, "miss", "t1:a0:s0")
    await first.set_deadline(match, due)
    time.now += 11
    assert await StoreClaims(first).claim(match, due)  # the first process claims it... and dies
    await survivor.poll(second)
    assert await survivor.fire_due() == 0 and fired == []  # the claim still holds
    time.now += CLAIM_LEASE + 1
    await survivor.poll(second)  # it is still there: the first never saved the match
    assert await survivor.fire_due() == 1 and fired == [("b", match)]


async def test_a_failing_fire_gives_its_claim_back_to_be_tried_again(
    two_processes: tuple[Time, Store, Store],
) -> None:
    time, first, second = two_processes
    calls: list[int] = []

    async def flaky(match_id: int, deadline: Deadline) -> None:
        calls.append(match_id)
        if len(calls) == 1:
            raise RuntimeError("Discord is away")
        await first.set_deadline(match_id, None)

    process = Scheduler(flaky, clock=time, claims=StoreClaims(first))
    match = await a_match(first, 9)
    await first.set_deadline(match, Deadline(time.now + 1, "remind", "t1:a0:s0"))
    time.now += 2
    await process.poll(first)
    assert await process.fire_due() == 1  # it failed...
    assert await first.deadline(match) is not None  # ...and the deadline is still there
    await process.poll(first)  # the next look finds it again, and its claim was given back
    assert await process.fire_due() == 1 and calls == [match, match]
    assert await first.deadline(match) is None
