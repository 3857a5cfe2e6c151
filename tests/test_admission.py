"""First come, first served under overload: the service's admission of units of work."""

from __future__ import annotations

import asyncio
from collections.abc import Callable

import pytest
from service_setup import ALICE, CHANNEL, end_one, started

from skirmbot.rules import commands
from skirmbot.service import MatchService, ServiceError
from skirmbot.service.admission import OVERLOADED, Admission, Overloaded, default_admission
from skirmbot.store import Store


async def settle() -> None:
    """Let every task that can run run until it waits again."""
    for _ in range(10):
        await asyncio.sleep(0)


async def until(condition: Callable[[], bool]) -> None:
    """Wait (a bounded number of short sleeps) until `condition` holds: a unit of work reads
    the store in a thread before it reaches the queue, so a few yields are not always enough."""
    for _ in range(1000):
        if condition():
            return
        await asyncio.sleep(0.01)
    assert condition()


async def slow_work(admission: Admission, name: str, log: list[str], gate: asyncio.Event) -> None:
    """A unit of work that notes when it starts and runs until the gate opens."""
    await admission.enter()
    try:
        log.append(name)
        await gate.wait()
    finally:
        admission.leave()


async def test_waiters_are_served_in_arrival_order() -> None:
    admission = Admission(running=2, waiting=20)
    log: list[str] = []
    gate = asyncio.Event()
    names = [f"r{number}" for number in range(12)]
    tasks = []
    for name in names:  # each arrives after the one before has queued
        tasks.append(asyncio.create_task(slow_work(admission, name, log, gate)))
        await settle()
    assert log == names[:2] and admission.queued == 10
    gate.set()
    await asyncio.gather(*tasks)
    assert log == names
    assert admission.in_flight == 0 and admission.queued == 0 and admission.served == 12


async def test_a_freed_slot_goes_to_the_oldest_waiter_not_a_newcomer() -> None:
    admission = Admission(running=1, waiting=5)
    log: list[str] = []
    first, second = asyncio.Event(), asyncio.Event()
    running = asyncio.create_task(slow_work(admission, "first", log, first))
    await settle()
    waiting = asyncio.create_task(slow_work(admission, "waiter", log, second))
    await settle()
    first.set()
    await running
    # The slot is the waiter's from the moment it is given back: a newcomer queues behind it.
    late = asyncio.create_task(slow_work(admission, "late", log, second))
    second.set()
    await asyncio.gather(waiting, late)
    assert log == ["first", "waiter", "late"]


async def test_past_the_bound_a_request_is_refused_in_words() -> None:
    admission = Admission(running=1, waiting=2)
    log: list[str] = []
    gate = asyncio.Event()
    tasks = [asyncio.create_task(slow_work(admission, f"r{n}", log, gate)) for n in range(3)]
    await settle()
    with pytest.raises(Overloaded, match="The bot is busy: try again in a moment"):
        await admission.enter()
    assert admission.refused == 1 and admission.queued == 2
    gate.set()
    await asyncio.gather(*tasks)
    assert log == ["r0", "r1", "r2"] and admission.in_flight == 0


async def test_a_cancelled_waiter_gives_up_its_place() -> None:
    admission = Admission(running=1, waiting=5)
    log: list[str] = []
    gate = asyncio.Event()
    running = asyncio.create_task(slow_work(admission, "first", log, gate))
    await settle()
    gone = asyncio.create_task(slow_work(admission, "gone", log, gate))
    kept = asyncio.create_task(slow_work(admission, "kept", log, gate))
    await settle()
    gone.cancel()
    await settle()
    assert admission.queued == 1
    gate.set()
    await asyncio.gather(running, kept)
    assert gone.cancelled() and log == ["first", "kept"]
    assert admission.in_flight == 0 and admission.queued == 0


async def test_a_waiter_cancelled_as_it_is_handed_the_slot_passes_it_on() -> None:
    admission = Admission(running=1, waiting=5)
    log: list[str] = []
    gate = asyncio.Event()
    await admission.enter()  # the slot, held here
    handed = asyncio.create_task(slow_work(admission, "handed", log, gate))
    after = asyncio.create_task(slow_work(admission, "after", log, gate))
    await settle()
    admission.leave()  # the slot goes to `handed`...
    handed.cancel()  # ...which is cancelled before it runs: `after` must get it
    gate.set()
    await asyncio.gather(handed, after, return_exceptions=True)
    assert log == ["after"] and admission.in_flight == 0


def test_the_default_bound_follows_the_cores() -> None:
    two, eight = default_admission(2), default_admission(8)
    assert eight.running == 4 * two.running and eight.waiting == 4 * two.waiting
    assert two.waiting >= 1000, "a thousand matches acting at once on two cores all wait"


# --- in the service -----------------------------------------------------------------------------
def crowded(store: Store) -> MatchService:
    service = MatchService(store, seed_source=lambda: 1234)
    service.live.admission = Admission(running=1, waiting=1)
    return service


async def test_the_service_refuses_past_the_bound_and_changes_nothing(store: Store) -> None:
    service = crowded(store)
    await started(service)
    before = await store.match_version((await service.live.find(CHANNEL)).id)
    gate = asyncio.Event()

    async def holder() -> None:
        async with service.work(CHANNEL):  # a long unit of work, holding the one slot
            await gate.wait()

    held = asyncio.create_task(holder())
    await until(lambda: service.live.admission.in_flight == 1)
    queued = asyncio.create_task(end_one(service))  # waits in the queue's one place
    await until(lambda: service.live.admission.queued == 1)
    row, match = await service.view(CHANNEL)  # reading is not a unit of work: not queued
    assert match is not None and match.state.to_act is not None
    side = match.state.to_act
    unit = match.state.ready_units(side)[0].id
    with pytest.raises(ServiceError, match=OVERLOADED):
        await service.act(CHANNEL, ALICE, commands.EndActivation(side, unit))
    assert await store.match_version(row.id) == before, "the refusal changed nothing"
    gate.set()
    await held
    await queued  # the one that waited is served once the slot is free
    assert await store.match_version(row.id) != before
    assert service.live.admission.in_flight == 0


async def test_a_unit_of_work_within_one_does_not_queue_behind_itself(store: Store) -> None:
    service = MatchService(store, seed_source=lambda: 1234)
    service.live.admission = Admission(running=1, waiting=0)
    await started(service)
    await started(service, channel=CHANNEL + 1)
    # The second opens inside the first: it would wait forever for the first one's slot.
    async with service.work(CHANNEL) as outer, service.work(CHANNEL + 1) as inner:
        assert inner.id != outer.id
    assert service.live.admission.in_flight == 0


async def test_a_failed_unit_of_work_gives_its_slot_back(store: Store) -> None:
    service = crowded(store)
    with pytest.raises(ServiceError, match="no match"):
        async with service.work(CHANNEL):
            pass
    assert service.live.admission.in_flight == 0


async def test_the_timers_work_is_never_refused(store: Store) -> None:
    service = MatchService(store, seed_source=lambda: 1234)
    service.live.admission = Admission(running=1, waiting=0)
    await started(service)
    match_id = (await service.live.find(CHANNEL)).id
    await service.live.admission.enter()  # every slot taken, no room to wait
    async with service.work_on(match_id) as work:  # a deadline is acted on all the same
        assert work.id == match_id
    service.live.admission.leave()
