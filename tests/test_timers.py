"""Turn timers (issue 5), with a clock moved by hand: nothing here really waits."""

from __future__ import annotations

import asyncio
import re
from pathlib import Path

import pytest
from service_setup import ALICE, BOB, CHANNEL, GUILD, MOD

from skirmbot.rules.skirm import commands
from skirmbot.service import MatchService, Member, ServiceError, timing
from skirmbot.service.replies import MOMENT
from skirmbot.store import Deadline, Store
from skirmbot.timers import scheduler as scheduler_module
from skirmbot.timers.clock import DAY, HOUR, STARTUP_GRACE, Clock, ControlsError, TimeControls
from skirmbot.timers.scheduler import Scheduler
from skirmbot.words import plural, possessive


class FakeClock:
    def __init__(self) -> None:
        self.now = 1_000_000.0

    def __call__(self) -> float:
        return self.now


class Table:
    """A service, a scheduler and a clock, wired as the bot wires them."""

    def __init__(self, store: Store, clock: FakeClock) -> None:
        self.clock = clock
        self.fired: list[object] = []
        self.service = MatchService(store, seed_source=lambda: 77, clock=clock)
        self.scheduler = Scheduler(self._fire, clock=clock)
        self.service.on_deadline = self.scheduler.arm

    async def _fire(self, match_id: int, deadline: Deadline) -> None:
        self.fired.append(await timing.on_deadline(self.service, match_id, deadline))

    async def advance(self, seconds: float) -> list[object]:
        """Move the clock on and fire what came due; the replies that were posted."""
        self.clock.now += seconds
        self.fired = []
        await self.scheduler.fire_due()
        return [reply for reply in self.fired if reply is not None]


async def deploying(table: Table, controls: TimeControls | None = None) -> None:
    service = table.service
    await service.create(
        GUILD,
        CHANNEL,
        ALICE,
        opponent=BOB,
        controls=controls or TimeControls(activation_seconds=10 * HOUR),
    )
    await service.join(CHANNEL, BOB)
    await service.choose_squad(CHANNEL, ALICE, "iron-wardens")
    await service.choose_squad(CHANNEL, BOB, "ash-runners")


async def playing(table: Table, controls: TimeControls | None = None) -> None:
    await deploying(table, controls)
    await table.service.deploy(CHANNEL, ALICE)
    await table.service.deploy(CHANNEL, BOB)


async def waiting_for(table: Table) -> tuple[Member, int]:
    row, match = await table.service.view(CHANNEL)
    assert match is not None and match.state.to_act is not None
    side = match.state.to_act
    return (ALICE if row.players[side] == ALICE.id else BOB), side


# --- the pieces ----------------------------------------------------------------------------
def test_time_controls_have_limits_and_defaults() -> None:
    """Issue 5: 1 hour to 7 days per activation, default 24 hours, reminder at 80%, 2 excuses."""
    default = TimeControls()
    assert (default.activation_seconds, default.remind_at, default.excuses) == (DAY, 0.8, 2)
    with pytest.raises(ControlsError, match="1 hour to 7 days"):
        TimeControls(activation_seconds=600)
    with pytest.raises(ControlsError, match="does one of"):
        TimeControls(on_miss="explode")


def test_a_clock_reminds_at_80_percent_then_misses_and_keeps_time_over_a_pause() -> None:
    clock = Clock(TimeControls(activation_seconds=10 * HOUR))
    clock.follow("t1:a0:s0", 0.0)
    assert clock.next_deadline() == Deadline(8 * HOUR, "remind", "t1:a0:s0")
    clock.reminded = True
    assert clock.next_deadline() == Deadline(10 * HOUR, "miss", "t1:a0:s0")
    clock.follow("t1:a0:s0", 5 * HOUR)  # the same activation keeps its time
    assert clock.deadline == 10 * HOUR
    clock.pause(9 * HOUR)
    assert clock.next_deadline() is None and clock.paused == HOUR
    clock.resume(100 * HOUR)
    assert clock.deadline == 101 * HOUR


async def test_the_scheduler_fires_only_current_deadlines_in_order() -> None:
    fake = FakeClock()
    fired: list[tuple[int, str]] = []

    async def handler(match_id: int, deadline: Deadline) -> None:
        fired.append((match_id, deadline.key))
        if match_id == 3:
            raise RuntimeError("a broken handler must not stop the others")

    scheduler = Scheduler(handler, clock=fake)
    scheduler.arm(1, Deadline(fake.now + 50, "miss", "old"))
    scheduler.arm(1, Deadline(fake.now + 30, "miss", "new"))  # replaces the old one
    scheduler.arm(2, Deadline(fake.now + 10, "remind", "b"))
    scheduler.arm(3, Deadline(fake.now + 20, "miss", "c"))
    scheduler.arm(4, Deadline(fake.now + 5, "miss", "d"))
    scheduler.arm(4, None)  # match 4 waits for nothing now
    fake.now += 40
    assert await scheduler.fire_due() == 3
    assert fired == [(2, "b"), (3, "c"), (1, "new")]
    fake.now += 100
    assert await scheduler.fire_due() == 0 and len(scheduler) == 0


# --- through the service -------------------------------------------------------------------
async def test_reminder_then_miss_ends_the_activation_and_uses_an_excuse(store: Store) -> None:
    table = Table(store, FakeClock())
    await playing(table)
    member, side = await waiting_for(table)
    assert await table.advance(7 * HOUR) == []  # before 80%: nothing
    [reminder] = await table.advance(1 * HOUR)
    assert reminder.ping == member.id and "activate a unit, " in reminder.text  # type: ignore[attr-defined]
    assert MOMENT.search(reminder.text)  # type: ignore[attr-defined]
    [miss] = await table.advance(2 * HOUR)
    assert f"{member.name} missed the deadline" in miss.text and "left for" in miss.text  # type: ignore[attr-defined]
    assert miss.picture is not None  # type: ignore[attr-defined]
    row, match = await table.service.view(CHANNEL)
    assert match is not None and match.state.to_act == 1 - side
    clock = Clock.from_json(row.setup["clock"])
    assert clock.excuses_used[side] == 1 and clock.misses[0]["side"] == side


async def test_a_miss_with_no_excuse_left_forfeits_the_match(store: Store) -> None:
    table = Table(store, FakeClock())
    await playing(table, TimeControls(activation_seconds=HOUR, excuses=0))
    member, side = await waiting_for(table)
    replies = await table.advance(2 * HOUR)
    assert any("no excused misses left" in r.text for r in replies)  # type: ignore[attr-defined]
    row = await store.last_match(CHANNEL)
    assert row is not None and row.status == "ended"
    assert row.record["commands"][-1] == {"type": "concede", "side": side, "reason": timing.FORFEIT}


async def test_on_miss_auto_lets_the_automatic_player_take_the_activation(store: Store) -> None:
    table = Table(store, FakeClock())
    await playing(table, TimeControls(activation_seconds=HOUR, on_miss="auto"))
    _, side = await waiting_for(table)
    await table.advance(2 * HOUR)
    row = await store.active_match(CHANNEL)
    assert row is not None
    played = [c for c in row.record["commands"] if c["type"] != "deploy"]
    assert played and all(c["side"] == side for c in played)


async def test_a_missed_deployment_is_done_by_the_bot(store: Store) -> None:
    table = Table(store, FakeClock())
    await deploying(table)
    await table.service.deploy(CHANNEL, ALICE)
    replies = await table.advance(11 * HOUR)
    text = "\n".join(r.text for r in replies)  # type: ignore[attr-defined]
    assert (
        "Bob did not deploy in time: the bot deployed for them" in text
        and "Both squads deploy" in text
    )


async def test_extensions_push_the_deadline_and_are_capped(store: Store) -> None:
    table = Table(store, FakeClock())
    await playing(
        table, TimeControls(activation_seconds=10 * HOUR, extensions=1, extension_seconds=5 * HOUR)
    )
    member, _ = await waiting_for(table)
    other = BOB if member is ALICE else ALICE
    with pytest.raises(ServiceError, match="opponent"):
        await timing.extend(table.service, CHANNEL, other)
    await timing.extend(table.service, CHANNEL, member)
    with pytest.raises(
        ServiceError, match=r"no extensions left \(this match allows 1 extension per"
    ):
        await timing.extend(table.service, CHANNEL, member)
    assert [r for r in await table.advance(11 * HOUR) if "missed" in r.text] == []  # type: ignore[attr-defined]
    assert any("missed" in r.text for r in await table.advance(5 * HOUR))  # type: ignore[attr-defined]


async def test_pause_needs_both_players_keeps_the_time_left_and_blocks_play(store: Store) -> None:
    table = Table(store, FakeClock())
    await playing(table)
    member, _ = await waiting_for(table)
    other = BOB if member is ALICE else ALICE
    await table.advance(3 * HOUR)
    asked = await timing.pause(table.service, CHANNEL, member)
    assert asked.ping == other.id and "/timer pause to agree" in asked.text
    paused = await timing.pause(table.service, CHANNEL, other)
    assert "Either player can /timer resume." in paused.text
    assert await table.advance(30 * DAY) == []  # paused: nothing fires, nobody misses
    with pytest.raises(ServiceError, match="paused; /timer resume goes on"):
        await table.service.act(CHANNEL, member, commands.Delay(0))
    assert "(/timer resume)" in (await timing.timer(table.service, CHANNEL)).text
    await timing.resume(table.service, CHANNEL, other)
    assert [r for r in await table.advance(6 * HOUR) if "missed" in r.text] == []  # type: ignore[attr-defined]
    assert any("missed" in r.text for r in await table.advance(1 * HOUR + 1))  # type: ignore[attr-defined]


async def test_moderators_may_change_a_deadline(store: Store) -> None:
    table = Table(store, FakeClock())
    await playing(table)
    with pytest.raises(ServiceError, match="moderators"):
        await timing.set_deadline(table.service, CHANNEL, ALICE, 1)
    await timing.set_deadline(table.service, CHANNEL, MOD, 1)
    assert any("missed" in r.text for r in await table.advance(HOUR + 1))  # type: ignore[attr-defined]


async def test_after_a_restart_overdue_deadlines_get_a_grace_period(tmp_path: Path) -> None:
    path, clock = tmp_path / "restart.db", FakeClock()
    first = await Store.open(path)
    await playing(Table(first, clock))
    await first.close()
    clock.now += 5 * DAY  # the bot was down far past the deadline
    second = await Store.open(path)
    try:
        table = Table(second, clock)
        assert await table.scheduler.load(second, STARTUP_GRACE) == 1
        assert await table.advance(STARTUP_GRACE - 60) == []  # no instant forfeit at start-up
        replies = await table.advance(120)
        assert replies, "after the grace period the overdue deadline fires"
    finally:
        await second.close()


async def test_a_command_and_its_deadline_at_the_same_moment_cannot_both_win(store: Store) -> None:
    table = Table(store, FakeClock())
    await playing(table)
    member, _ = await waiting_for(table)
    row, match = await table.service.view(CHANNEL)
    assert match is not None and match.state.to_act is not None
    unit = match.state.ready_units(match.state.to_act)[0].id
    deadline = await store.deadline(row.id)
    assert deadline is not None
    miss = Deadline(deadline.due_at, "miss", deadline.key)
    results = await asyncio.gather(
        table.service.act(CHANNEL, member, commands.EndActivation(0, unit)),
        timing.on_deadline(table.service, row.id, miss),
        return_exceptions=True,
    )
    after = await store.active_match(CHANNEL)
    assert after is not None
    ends = [c for c in after.record["commands"] if c["type"] == "end"]
    assert len(ends) == 1, "exactly one of them ended the activation"
    excused = Clock.from_json(after.setup["clock"]).excuses_used
    player_won = not isinstance(results[0], Exception)
    assert (results[1] is None) == player_won and sum(excused) == (0 if player_won else 1)


async def test_the_timer_view_shows_the_clock(store: Store) -> None:
    table = Table(store, FakeClock())
    await playing(table)
    view = await timing.timer(table.service, CHANNEL)
    assert "10 hours per activation" in view.text
    assert re.search("time runs out " + MOMENT.pattern, view.text)
    assert "Alice: 2 excused misses and 2 extensions left" in view.text


async def test_the_run_loop_sleeps_until_the_deadline_and_wakes_for_an_earlier_one() -> None:
    """The one scheduler task: it sleeps until the next deadline, and an earlier deadline armed
    while it sleeps wakes it (a short real wait, bounded by a timeout)."""
    import time

    fired: list[str] = []
    done = asyncio.Event()

    async def handler(match_id: int, deadline: Deadline) -> None:
        fired.append(deadline.key)
        if len(fired) == 2:
            done.set()

    scheduler = Scheduler(handler)
    task = asyncio.create_task(scheduler.run())
    try:
        scheduler.arm(1, Deadline(time.time() + 30, "miss", "late"))
        await asyncio.sleep(0.01)
        scheduler.arm(2, Deadline(time.time() + 0.05, "miss", "soon"))
        scheduler.arm(1, Deadline(time.time() + 0.1, "miss", "moved up"))
        await asyncio.wait_for(done.wait(), timeout=5)
        assert fired == ["soon", "moved up"]
    finally:
        task.cancel()


# --- issue 11: extensions scale with the clock; counts and names read right ---------------------
def test_an_extension_is_half_the_time_per_activation_from_15_minutes_to_12_hours() -> None:
    assert TimeControls(activation_seconds=HOUR).extension == 30 * 60
    assert TimeControls(activation_seconds=10 * HOUR).extension == 5 * HOUR
    assert TimeControls(activation_seconds=DAY).extension == 12 * HOUR
    assert TimeControls(activation_seconds=7 * DAY).extension == 12 * HOUR
    assert "2 extensions of 30 minutes each" in TimeControls(activation_seconds=HOUR).describe()
    # A fixed extension may still be given; the limits are 15 minutes to 3 days.
    assert TimeControls(activation_seconds=HOUR, extension_seconds=HOUR).extension == HOUR
    with pytest.raises(ControlsError, match="15 minutes to 3 days"):
        TimeControls(extension_seconds=60)


def test_a_stored_clock_with_the_old_fixed_12_hours_gets_the_proportional_extension() -> None:
    """Matches saved before extensions scaled carry 12 hours whatever their clock."""
    stored = Clock(TimeControls(activation_seconds=HOUR)).to_json()
    stored["controls"]["extension_seconds"] = 12 * HOUR
    assert Clock.from_json(stored).controls.extension == 30 * 60
    assert Clock.from_json(Clock().to_json()).controls.extension == 12 * HOUR


async def test_a_one_hour_clock_gets_a_30_minute_extension(store: Store) -> None:
    table = Table(store, FakeClock())
    await playing(table, TimeControls(activation_seconds=HOUR))
    member, _ = await waiting_for(table)
    row = await store.active_match(CHANNEL)
    assert row is not None
    before = Clock.from_json(row.setup["clock"]).deadline
    extended = await timing.extend(table.service, CHANNEL, member)
    assert f"{member.name} takes 30 minutes more" in extended.text
    assert "(1 extension left)" in extended.text
    row = await store.active_match(CHANNEL)
    assert row is not None and Clock.from_json(row.setup["clock"]).deadline == before + 30 * 60
    assert [r for r in await table.advance(HOUR + 29 * 60) if "missed" in r.text] == []  # type: ignore[attr-defined]
    assert any("missed" in r.text for r in await table.advance(60))  # type: ignore[attr-defined]


def test_plural_and_possessive() -> None:
    assert plural(1, "excused miss") == "1 excused miss"
    assert plural(2, "excused miss") == "2 excused misses"
    assert plural(0, "extension") == "0 extensions"
    assert plural(3, "die", "dice") == "3 dice"
    assert possessive("Iron Wardens") == "Iron Wardens'" and possessive("Ada") == "Ada's"


async def test_counts_of_one_read_as_one(store: Store) -> None:
    """Issue 11: "1 excused misses" -> "1 excused miss"."""
    controls = TimeControls(activation_seconds=10 * HOUR, excuses=1, extensions=1)
    assert "1 excused miss each" in controls.describe()
    assert "1 extension of 5 hours each" in controls.describe()
    table = Table(store, FakeClock())
    await playing(table, controls)
    view = await timing.timer(table.service, CHANNEL)
    assert "Alice: 1 excused miss and 1 extension left." in view.text


async def test_the_run_loop_looks_at_the_clock_again_after_a_while(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """Deadlines are wall-clock times but asyncio sleeps on the monotonic clock (it stands still
    while the machine is suspended): the loop wakes every MAX_SLEEP to look at the clock, so a
    deadline the wall clock reached meanwhile fires then, not a day late."""
    monkeypatch.setattr(scheduler_module, "MAX_SLEEP", 0.02)
    fake = FakeClock()
    fired = asyncio.Event()

    async def handler(match_id: int, deadline: Deadline) -> None:
        fired.set()

    scheduler = Scheduler(handler, clock=fake)
    task = asyncio.create_task(scheduler.run())
    try:
        scheduler.arm(1, Deadline(fake.now + DAY, "miss", "tomorrow"))
        await asyncio.sleep(0.05)
        assert not fired.is_set()
        fake.now += DAY  # the machine slept through the day; nothing was armed meanwhile
        await asyncio.wait_for(fired.wait(), timeout=5)
    finally:
        task.cancel()
