"""The match unit of work (skirmbot.service.work): what it saves, what it does not, one at a time
per match, and the store's version check."""

from __future__ import annotations

import asyncio

import pytest
from service_setup import ALICE, BOB, CHANNEL, started

from skirmbot.rules import commands
from skirmbot.rules.record import MatchRecord, replay
from skirmbot.service import Busy, MatchService, MatchWork, ServiceError
from skirmbot.store import Store


async def playing(store: Store) -> MatchService:
    service = MatchService(store, seed_source=lambda: 1234)
    await started(service)
    return service


async def end_next(work: MatchWork) -> commands.Command:
    """The command that ends the activation of the next ready unit of the side to act."""
    state = (await work.match()).state
    assert state.to_act is not None
    return commands.EndActivation(state.to_act, state.ready_units(state.to_act)[0].id)


async def test_a_command_applied_inside_is_saved(store: Store) -> None:
    service = await playing(store)
    before = await store.active_match(CHANNEL)
    assert before is not None
    async with service.work(CHANNEL) as work:
        command = await end_next(work)
        events = await work.apply(command)
        assert any(event.kind == "activation_ended" for event in events)
    after = await store.active_match(CHANNEL)
    assert after is not None and after.version == before.version + 1
    assert after.record["commands"] == [*before.record["commands"], command.to_json()]
    _, match = await service.view(CHANNEL)
    assert match is not None
    stored = replay(MatchRecord.from_json(after.record))
    assert match.state.to_act == stored.state.to_act
    assert len(match.log) == len(stored.log), "the live match is the stored record replayed"


async def test_nothing_changed_nothing_saved(store: Store) -> None:
    service = await playing(store)
    before = await store.active_match(CHANNEL)
    async with service.work(CHANNEL) as work:
        await work.match()
        assert not work.changed
    after = await store.active_match(CHANNEL)
    assert before is not None and after is not None and after.version == before.version


async def test_an_exception_inside_saves_nothing(store: Store) -> None:
    service = await playing(store)
    before = await store.active_match(CHANNEL)
    assert before is not None
    _, live = await service.view(CHANNEL)
    assert live is not None
    log_before = len(live.log)
    with pytest.raises(RuntimeError):
        async with service.work(CHANNEL) as work:
            await work.apply(await end_next(work))
            work.row.setup["note"] = "not kept"
            raise RuntimeError("something broke after the command")
    after = await store.active_match(CHANNEL)
    assert after is not None
    assert (after.version, after.record, after.setup) == (
        before.version,
        before.record,
        before.setup,
    )
    _, match = await service.view(CHANNEL)
    assert match is not None and len(match.log) == log_before, "the kept live match is dropped"


async def test_a_refused_command_changes_nothing(store: Store) -> None:
    service = await playing(store)
    before = await store.active_match(CHANNEL)
    assert before is not None
    with pytest.raises(ServiceError):
        async with service.work(CHANNEL) as work:
            await work.apply(commands.Move(0, "Nobody", "A1"))
    after = await store.active_match(CHANNEL)
    assert after is not None and after.version == before.version
    assert after.record == before.record


async def test_a_save_inside_stands_when_the_block_then_raises(store: Store) -> None:
    """`save()` commits at once (a request withdrawn before a refusal)."""
    service = await playing(store)
    with pytest.raises(ServiceError):
        async with service.work(CHANNEL) as work:
            work.row.setup["note"] = "kept"
            await work.save()
            work.row.setup["later"] = "not kept"
            raise ServiceError("refused after the save")
    after = await store.active_match(CHANNEL)
    assert after is not None and after.setup["note"] == "kept" and "later" not in after.setup


async def test_two_works_on_one_match_take_turns(store: Store) -> None:
    service = await playing(store)
    row = await store.active_match(CHANNEL)
    assert row is not None
    start = len(row.record["commands"])
    inside = asyncio.Event()
    seen: list[int] = []

    async def first() -> None:
        async with service.work_on(row.id) as work:
            await work.apply(await end_next(work))
            inside.set()
            await asyncio.sleep(0.05)  # the second asks meanwhile, and waits
            seen.append(len(work.row.record["commands"]))

    async def second() -> None:
        await inside.wait()
        async with service.work(CHANNEL) as work:
            seen.append(len(work.row.record["commands"]))  # the first's command is in
            await work.apply(await end_next(work))

    await asyncio.gather(first(), second())
    assert seen == [start + 1, start + 1]
    assert service.live.lock_users() == {}, "nothing holds the match's lock any more"
    after = await store.match(row.id)
    assert after is not None and len(after.record["commands"]) == start + 2
    assert after.version == row.version + 2


async def test_the_lock_table_keeps_only_the_matches_in_use(store: Store) -> None:
    """A bot that runs for months: each match's lock goes once no unit of work uses it."""
    service = MatchService(store, seed_source=lambda: 1234)
    channels = [CHANNEL + n for n in range(3)]
    for channel in channels:
        await started(service, channel=channel)
        async with service.work(channel) as work:
            assert service.live.lock_users() == {work.id: 1}
            await work.apply(await end_next(work))
    assert service.live.lock_users() == {}


async def test_a_unit_of_work_cancelled_while_it_waits_leaves_no_lock(store: Store) -> None:
    service = await playing(store)
    async with service.work(CHANNEL) as work:
        waiting = asyncio.create_task(service.work_on(work.id).__aenter__())
        while service.live.lock_users()[work.id] < 2:
            await asyncio.sleep(0)  # until the second unit of work waits for the lock
        waiting.cancel()
        with pytest.raises(asyncio.CancelledError):
            await waiting
        assert service.live.lock_users() == {work.id: 1}
    assert service.live.lock_users() == {}


async def test_a_stale_version_is_refused(store: Store) -> None:
    """Another process saved the match meanwhile (the lock is per process; the store's
    version check is not): the work saves nothing and says Busy."""
    service = await playing(store)
    with pytest.raises(Busy):
        async with service.work(CHANNEL) as work:
            await work.apply(await end_next(work))
            elsewhere = await store.match(work.id)
            assert elsewhere is not None
            elsewhere.setup["elsewhere"] = True
            await store.save_match(elsewhere)
    after = await store.active_match(CHANNEL)
    assert after is not None and after.setup.get("elsewhere") is True
    assert after.record["commands"] == elsewhere.record["commands"], "ours was not saved"
    _, match = await service.view(CHANNEL)
    assert match is not None
    assert len(match.log) == len(replay(MatchRecord.from_json(after.record)).log)


async def test_a_match_by_id_that_does_not_exist(store: Store) -> None:
    service = MatchService(store)
    with pytest.raises(ServiceError, match="no match #404"):
        async with service.work_on(404):
            pass


async def test_offering_a_draw_keeps_the_turn_clock_running(store: Store) -> None:
    """(Before the unit of work, a draw offer saved the match without its live state, and the
    clock took it for a match that waits for nobody: the deadline was dropped.)"""
    service = await playing(store)
    armed: list[object] = []
    service.on_deadline = lambda match_id, deadline: armed.append(deadline)
    async with service.work(CHANNEL) as work:
        before = work.clock()
    assert before.key is not None
    row, match = await service.view(CHANNEL)
    assert match is not None and match.state.to_act is not None
    asker = ALICE if row.players[match.state.to_act] == BOB.id else BOB
    await service.offer_draw(CHANNEL, asker)
    async with service.work(CHANNEL) as work:
        after = work.clock()
    assert (after.key, after.deadline) == (before.key, before.deadline)
    assert armed and armed[-1] is not None
