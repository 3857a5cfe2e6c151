"""Clock modes (issue 21): per activation, Fischer (bank, increment, cap), days per player; and
clocks standing still at weekends. Rulings: docs/rulings.md, "Clocks for people with lives".
The clock is moved by hand (tests/test_timers.py's Table): nothing here really waits."""

from __future__ import annotations

import datetime as dt
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from icalendar import Calendar
from service_setup import ALICE, BOB, CHANNEL, GUILD, MOD
from test_console import scripted
from test_timers import FakeClock, Table, deploying, playing, waiting_for

from skirmbot.console import ConsoleError, console_clock, run_console
from skirmbot.rules import commands
from skirmbot.rules.skirm.costs import MOVE
from skirmbot.rules.skirm.legal import reachable_squares
from skirmbot.service import Member, ServiceError, timing
from skirmbot.store import Deadline, MatchRow, Store
from skirmbot.timers.clock import (
    DAY,
    HOUR,
    WEEK,
    Break,
    Clock,
    ControlsError,
    Stops,
    TimeControls,
    controls_for,
)

FISCHER = controls_for("fischer", 2, 1, "skip", bank_hours=3, increment_hours=1, cap_hours=3)


def utc(*when: int) -> float:
    return dt.datetime(*when, tzinfo=dt.UTC).timestamp()  # type: ignore[misc]


async def end_activation(table: Table) -> int:
    """The player the clock waits for ends an activation at once; their side."""
    member, side = await waiting_for(table)
    _, match = await table.service.view(CHANNEL)
    assert match is not None
    unit = match.state.ready_units(side)[0].id
    await table.service.act(CHANNEL, member, commands.EndActivation(side, unit))
    return side


async def clock_of(store: Store) -> Clock:
    row = await store.active_match(CHANNEL)
    assert row is not None
    return Clock.from_json(row.setup["clock"])


# --- the controls ------------------------------------------------------------------------------
def test_modes_have_limits_in_plain_words() -> None:
    """Ruling "Clock modes": a Fischer bank of 1 hour to 60 days, a cap no smaller than the
    bank; days per player 1 to 60; a clock per activation has no bank."""
    with pytest.raises(ControlsError, match="cap is at least the starting bank"):
        controls_for("fischer", 24, 2, "skip", bank_hours=48, cap_hours=24)
    with pytest.raises(ControlsError, match="Days per player: 1 to 60"):
        controls_for("days", 24, 2, "skip", days=61)
    with pytest.raises(ControlsError, match="no bank"):
        TimeControls(bank_seconds=DAY)
    with pytest.raises(ControlsError, match="The clock is one of"):
        controls_for("blitz", 24, 2, "skip")
    assert FISCHER.cap_seconds == FISCHER.bank_seconds == 3 * HOUR
    assert controls_for("fischer", 24, 2, "skip", bank_hours=10).cap_seconds == 10 * HOUR


def test_a_stored_clock_without_a_mode_reads_as_a_clock_per_activation() -> None:
    """Matches stored before issue 21 keep working unchanged."""
    stored = {
        "controls": {"activation_seconds": 10 * HOUR, "remind_at": 0.8, "excuses": 2,
                     "on_miss": "skip", "extensions": 2, "extension_seconds": None},
        "key": "t1:a0:s0", "deadline": 10 * HOUR, "remind": 8 * HOUR, "reminded": False,
        "paused": None, "pause_request": None, "excuses_used": [0, 0],
        "extensions_used": [0, 0], "misses": [],
    }  # fmt: skip
    clock = Clock.from_json(stored)
    assert clock.controls.mode == "activation" and not clock.controls.banked
    assert clock.next_deadline() == Deadline(8 * HOUR, "remind", "t1:a0:s0")
    assert clock.controls.describe().startswith("10 hours per activation, reminder at 80%")
    clock.follow("t1:a1:s1", 10 * HOUR, 1)
    assert clock.deadline == 20 * HOUR and clock.remind == 18 * HOUR


def test_a_stored_clock_without_a_side_is_not_stopped_by_the_opponents_vacation() -> None:
    """Ruling "Vacation": only the vacation of the player the clock waits for stops it; a clock
    stored before issue 21 names that player only in its key."""
    stored = Clock(TimeControls(activation_seconds=10 * HOUR)).to_json()
    stored.update(key="t1:a0:s0", deadline=10 * HOUR, remind=8 * HOUR)
    del stored["waiting"], stored["banks"], stored["running"], stored["allotted"]
    clock = Clock.from_json(stored)
    assert clock.waiting == 0
    clock.retime(HOUR, Stops(), Stops(breaks=(Break(1, HOUR, HOUR + 3 * DAY),)))
    assert clock.deadline == 10 * HOUR  # the opponent (side 1) is away: no change
    clock.retime(HOUR, Stops(), Stops(breaks=(Break(0, HOUR, HOUR + 3 * DAY),)))
    assert clock.deadline == 10 * HOUR + 3 * DAY
    deploying = Clock.from_json({**stored, "key": "deploy"})
    assert deploying.waiting is None  # a deployment waits for both


def test_no_reminder_goes_out_while_the_clock_stands_still() -> None:
    """Ruling "Weekends"/"Vacation": a reminder that would fall in a weekend or in the
    player's vacation goes out when their clock runs again."""
    clock = Clock(TimeControls(activation_seconds=10 * HOUR))
    clock.follow("t1:a0:s0", utc(2026, 11, 27, 15), 0, Stops(weekends=True))  # Friday 15:00
    assert clock.deadline == utc(2026, 11, 30, 1)  # 9 hours on Friday, 1 on Monday
    assert clock.next_deadline() == Deadline(utc(2026, 11, 30), "remind", "t1:a0:s0")
    clock.pause(utc(2026, 11, 27, 23), Stops(weekends=True))  # 2 hours left
    clock.resume(utc(2026, 11, 28, 12), Stops(weekends=True))  # resumed on Saturday
    assert clock.deadline == utc(2026, 11, 30, 2) and clock.remind == utc(2026, 11, 30)
    bank = Clock(controls_for("days", 24, 2, "skip", days=3))
    bank.follow("t1:a0:s1", utc(2026, 11, 25, 12), 1, Stops(weekends=True))  # Wednesday noon
    assert bank.deadline == utc(2026, 11, 30, 12)  # 60 hours to Saturday, 12 on Monday
    assert bank.remind == utc(2026, 11, 30)  # 14.4 hours before would be Sunday evening


def test_weekends_turned_off_mid_deadline_bring_it_back() -> None:
    """Ruling "Weekends": a running deadline keeps its running time when the setting changes,
    both ways."""
    clock = Clock(TimeControls(activation_seconds=10 * HOUR))
    friday = utc(2026, 11, 27, 20)
    clock.follow("t1:a0:s0", friday, 0, Stops(weekends=True))
    assert clock.deadline == utc(2026, 11, 30, 6)
    clock.retime(utc(2026, 11, 28, 12), Stops(weekends=True), Stops())  # Saturday noon
    assert clock.deadline == utc(2026, 11, 28, 12) + 6 * HOUR  # 4 hours ran on Friday
    assert clock.remind == clock.deadline - 2 * HOUR


def test_a_fischer_bank_keeps_what_was_left_plus_the_increment_up_to_the_cap() -> None:
    """Ruling "Clock modes": after each activation the increment is added, up to the cap."""
    clock = Clock(controls_for("fischer", 24, 2, "skip", bank_hours=10, increment_hours=2,
                               cap_hours=11))  # fmt: skip
    clock.follow("t1:a0:s0", 0.0, 0)
    assert clock.deadline == 10 * HOUR
    clock.follow("t1:a1:s1", 1 * HOUR, 1)  # side 0 took 1 hour: 9 left + 2, capped at 11
    assert clock.banks == [11 * HOUR, 10 * HOUR] and clock.deadline == 11 * HOUR
    clock.follow("t1:a2:s0", 8 * HOUR, 0)  # side 1 took 7 hours: 3 left + 2
    assert clock.banks == [11 * HOUR, 5 * HOUR] and clock.deadline == 19 * HOUR


def test_days_per_player_is_one_bank_for_the_whole_match() -> None:
    clock = Clock(controls_for("days", 24, 2, "skip", days=2))
    assert clock.controls.describe().startswith("2 days per player for the whole match")
    clock.follow("t1:a0:s0", 0.0, 0)
    clock.follow("t1:a1:s1", 10 * HOUR, 1)
    clock.follow("t1:a2:s0", 11 * HOUR, 0)
    assert clock.banks[1] == 2 * DAY - HOUR and clock.deadline == 11 * HOUR + 38 * HOUR


def test_a_bank_reminds_a_day_before_it_runs_out_or_at_80_percent_of_a_short_one() -> None:
    long = Clock(controls_for("days", 24, 2, "skip", days=10))
    long.follow("t1:a0:s0", 0.0, 0)
    assert long.next_deadline() == Deadline(9 * DAY, "remind", "t1:a0:s0")
    short = Clock(FISCHER)
    short.follow("t1:a0:s0", 0.0, 0)
    assert short.remind == pytest.approx(0.8 * 3 * HOUR)


def test_a_deployment_with_a_bank_gets_the_time_per_activation_and_charges_no_bank() -> None:
    clock = Clock(FISCHER)
    clock.follow("deploy", 0.0, None)
    assert clock.deadline == 2 * HOUR and clock.running is None
    clock.follow("t1:a0:s0", HOUR, 0)
    assert clock.banks == [3 * HOUR, 3 * HOUR] and clock.deadline == 4 * HOUR


# --- weekends ----------------------------------------------------------------------------------
def test_weekends_stop_the_clock_from_saturday_to_monday_utc() -> None:
    """Ruling "Weekends": Saturday 00:00 to Monday 00:00 UTC; a deadline falling due is pushed
    by the weekend time."""
    weekends = Stops(weekends=True)
    friday_evening = utc(2026, 11, 27, 20)
    assert weekends.end_after(friday_evening, 10 * HOUR) == utc(2026, 11, 30, 6)
    assert weekends.running_between(friday_evening, utc(2026, 11, 30, 6)) == 10 * HOUR
    saturday = utc(2026, 11, 28, 12)
    assert weekends.end_after(saturday, HOUR) == utc(2026, 11, 30, 1)
    assert Stops().end_after(friday_evening, 10 * HOUR) == utc(2026, 11, 28, 6)


def test_a_vacation_stops_only_the_clock_of_the_player_on_it() -> None:
    away = Stops(breaks=(Break(1, 10.0, 110.0),))
    assert away.end_after(0.0, 50.0, side=1) == 150.0
    assert away.end_after(0.0, 50.0, side=0) == 50.0
    assert away.end_after(0.0, 50.0, side=None) == 150.0  # a deployment waits for both
    both = Stops(weekends=True, breaks=(Break(0, utc(2026, 11, 27), utc(2026, 11, 29)),))
    # Friday on vacation, then the weekend: the clock runs again on Monday.
    assert both.end_after(utc(2026, 11, 27), HOUR, side=0) == utc(2026, 11, 30, 1)


# --- through the service -----------------------------------------------------------------------
async def test_a_fischer_match_charges_banks_and_shows_them(store: Store) -> None:
    table = Table(store, FakeClock())
    await playing(table, FISCHER)
    first = (await waiting_for(table))[1]
    await table.advance(HOUR)
    assert await end_activation(table) == first
    clock = await clock_of(store)
    assert clock.banks is not None and clock.banks[first] == 3 * HOUR  # 2 left + 1, capped at 3
    second = (await waiting_for(table))[1]
    await table.advance(2 * HOUR)  # the reminder (at 80% of 3 hours) goes out meanwhile
    await end_activation(table)
    clock = await clock_of(store)
    assert clock.banks is not None and clock.banks[second] == 2 * HOUR  # 1 left + 1
    shown = (await timing.timer(table.service, CHANNEL)).text
    assert "Fischer clock: a bank of 3 hours each, plus 1 hour after each activation" in shown
    assert "a bank of 2 hours, 1 excused miss" in shown


async def test_an_empty_bank_is_a_miss_and_an_excuse_refills_it(store: Store) -> None:
    """Ruling "Clock modes": the bank running out is a miss like any other; an excused miss
    leaves the bank at least the time to deploy; with no excuse left it forfeits."""
    table = Table(store, FakeClock())
    await playing(table, FISCHER)
    member, side = await waiting_for(table)
    replies = await table.advance(3 * HOUR + 1)
    assert any(f"{member.name} missed the deadline" in r.text for r in replies)  # type: ignore[attr-defined]
    clock = await clock_of(store)
    assert clock.banks is not None and clock.banks[side] == 2 * HOUR  # 0 + 1, then up to 2
    assert clock.excuses_used[side] == 1
    replies = await table.advance(4 * HOUR)  # the other side's bank runs out too
    while (await waiting_for(table))[1] != side:
        await end_activation(table)
    replies = await table.advance(3 * HOUR)
    assert any("no excused misses left" in r.text for r in replies)  # type: ignore[attr-defined]


async def test_weekends_push_a_running_deadline_when_a_moderator_turns_them_on(
    store: Store,
) -> None:
    clock = FakeClock()
    clock.now = utc(2026, 11, 27, 20)  # a Friday evening
    table = Table(store, clock)
    await playing(table, TimeControls(activation_seconds=10 * HOUR))
    with pytest.raises(ServiceError, match="Only moderators"):
        await timing.set_clock_rules(
            table.service, GUILD, (await waiting_for(table))[0], weekends=True
        )
    told = await timing.set_clock_rules(table.service, GUILD, MOD, weekends=True)
    assert "stand still at weekends" in told.text and told.private
    [note] = told.followups
    assert note.channel == CHANNEL and "now stand still at weekends" in note.text
    assert (await clock_of(store)).deadline == utc(2026, 11, 30, 6)
    assert [r for r in await table.advance(DAY) if "missed" in r.text] == []  # type: ignore[attr-defined]
    assert "clocks stand still at weekends" in (await timing.timer(table.service, CHANNEL)).text
    await end_activation(table)  # on Saturday: the next activation's time starts on Monday
    assert (await clock_of(store)).deadline == utc(2026, 11, 30, 10)


# --- the console ---------------------------------------------------------------------------------
async def test_the_console_picks_a_clock_shows_it_writes_the_calendar_and_keeps_a_vacation(
    tmp_path: Path,
) -> None:
    ask, said = scripted(["auto", "auto", "timer", f"calendar {tmp_path / 'me.ics'}",
                          "vacation 2", "vacation 0", "quit"])  # fmt: skip
    assert await run_console(False, tmp_path, ask=ask, say=said.append, seed=3,
                             clock="fischer:48+6") == 0  # fmt: skip
    text = "\n".join(said)
    assert "Fischer clock: a bank of 2 days each, plus 6 hours after each activation" in text
    assert "Player 1: a bank of 2 days, 2 excused misses" in text
    assert "The console keeps no clock running" in text
    assert "You are on vacation for 2 days, back in 2 days" in text and "Welcome back" in text
    calendar = Calendar.from_ical((tmp_path / "me.ics").read_bytes())
    assert len(calendar.walk("VEVENT")) == 1
    with pytest.raises(ConsoleError, match="is not a clock: activation"):
        console_clock("blitz:5")
    with pytest.raises(ConsoleError, match="bank starts with 1 hour to 60 days"):
        console_clock("fischer:0+1")


# --- review: pauses, extensions, undo, the automatic player, stale deadlines -------------------
async def test_deploying_while_paused_gives_the_first_activation_its_whole_time_on_resume(
    store: Store,
) -> None:
    """Ruling "Clock modes": the deployment is not charged to a bank, and a pause keeps the time
    the activation had. Both players may deploy while the match is paused: the first
    activation then starts with its whole bank when the match resumes (it used to get what
    was left of the deployment's time, and no bank ran for it)."""
    table = Table(store, FakeClock())
    await deploying(table, FISCHER)
    await table.advance(HOUR)  # one of the deployment's 2 hours gone
    await timing.pause(table.service, CHANNEL, ALICE)
    await timing.pause(table.service, CHANNEL, BOB)
    await table.service.deploy(CHANNEL, ALICE)
    await table.service.deploy(CHANNEL, BOB)
    assert await table.advance(DAY) == []  # still paused: nothing fires
    clock = await clock_of(store)
    assert clock.paused == 3 * HOUR and clock.next_deadline() is None
    await timing.resume(table.service, CHANNEL, ALICE)
    _, side = await waiting_for(table)
    clock = await clock_of(store)
    assert clock.running == side and clock.deadline == table.clock.now + 3 * HOUR
    await table.advance(HOUR)
    await end_activation(table)
    clock = await clock_of(store)
    assert clock.banks is not None and clock.banks[side] == 3 * HOUR  # 2 left + 1, capped


def test_an_activation_that_starts_while_paused_is_held_with_its_bank() -> None:
    clock = Clock(controls_for("days", 24, 2, "skip", days=2))
    clock.follow("t1:a0:s0", 0.0, 0)
    clock.pause(HOUR)
    clock.follow("t1:a1:s1", 5 * HOUR, 1)  # side 0's bank stops at what it had when paused
    assert clock.banks == [2 * DAY - HOUR, 2 * DAY] and clock.paused == 2 * DAY
    clock.resume(10 * HOUR)
    assert clock.deadline == 10 * HOUR + 2 * DAY and clock.running == 1


def test_an_extension_with_little_time_left_does_not_remind_again_at_once() -> None:
    """Ruling "Clock modes" (extensions): the player who just asked for more time is told
    when it runs out; a reminder goes out again only if the new end leaves room for one."""
    clock = Clock(controls_for("days", 24, 2, "skip", days=10))
    clock.follow("t1:a0:s0", 0.0, 0)
    clock.reminded = True  # the reminder went out a day before the end
    clock.extend(0, now=10 * DAY - HOUR)  # 12 hours more with 1 hour left: 13 hours to go
    assert clock.deadline == 10 * DAY + 12 * HOUR
    assert clock.next_deadline() == Deadline(clock.deadline, "miss", "t1:a0:s0")
    roomy = Clock(TimeControls(activation_seconds=10 * HOUR))
    roomy.follow("t1:a0:s0", 0.0, 0)
    roomy.reminded = True
    roomy.extend(0, now=9 * HOUR)  # 5 hours more: the new end is 6 hours away
    assert roomy.next_deadline() == Deadline(13 * HOUR, "remind", "t1:a0:s0")


async def test_an_extension_then_no_second_reminder_straight_away(store: Store) -> None:
    table = Table(store, FakeClock())
    await playing(table, controls_for("days", 24, 2, "skip", days=10))
    member, _ = await waiting_for(table)
    [reminder] = await table.advance(9 * DAY + HOUR)  # a day before the 10 days run out
    assert "⏰" in reminder.text  # type: ignore[attr-defined]
    await table.advance(22 * HOUR)
    await timing.extend(table.service, CHANNEL, member)  # 12 hours more, 13 to go
    assert await table.advance(HOUR) == []  # no second reminder right after asking
    replies = await table.advance(12 * HOUR)
    assert any(f"{member.name} missed the deadline" in r.text for r in replies)  # type: ignore[attr-defined]


async def test_undo_in_a_bank_match_neither_gives_time_back_nor_charges_twice(
    store: Store,
) -> None:
    """Undo takes back an action within the activation in progress: the same activation, so
    its bank keeps running and is charged once, when the activation ends."""
    table = Table(store, FakeClock())
    await playing(table, FISCHER)
    member, side = await waiting_for(table)
    other = BOB if member is ALICE else ALICE
    _, match = await table.service.view(CHANNEL)
    assert match is not None
    unit = match.state.ready_units(side)[0]
    square = sorted(reachable_squares(match.state, unit, MOVE))[0]
    before = await clock_of(store)
    await table.advance(HOUR)
    await table.service.act(CHANNEL, member, commands.Move(side, unit.id, str(square)))
    await table.service.request_undo(CHANNEL, member)
    await table.service.accept_undo(CHANNEL, other)
    after = await clock_of(store)
    assert (after.key, after.deadline, after.banks) == (before.key, before.deadline, before.banks)
    await table.advance(HOUR)
    await table.service.act(CHANNEL, member, commands.EndActivation(side, unit.id))
    charged = await clock_of(store)
    assert charged.banks is not None and charged.banks[side] == 2 * HOUR  # 1 left + 1


async def test_the_automatic_player_has_no_clock_and_the_bank_waits(store: Store) -> None:
    """The automatic player acts at once: the clock waits for nobody then, and only the human
    player's bank is charged."""
    table = Table(store, FakeClock())
    await table.service.create(GUILD, CHANNEL, ALICE, practice=True, controls=FISCHER)
    await table.service.choose_squad(CHANNEL, ALICE, "iron-wardens")
    await table.service.deploy(CHANNEL, ALICE)
    await table.advance(HOUR)
    _, match = await table.service.view(CHANNEL)
    assert match is not None and match.state.to_act == 0
    await table.service.act(
        CHANNEL, ALICE, commands.EndActivation(0, match.state.ready_units(0)[0].id)
    )
    clock = await clock_of(store)
    assert clock.banks is not None and clock.banks[1] == 3 * HOUR  # never ran
    assert clock.banks[0] == 3 * HOUR  # 2 hours left, + 1, capped at 3
    shown = (await timing.timer(table.service, CHANNEL)).text
    assert shown.count("a bank of") == 2  # the controls' and Alice's, none for the automaton


async def armed(store: Store) -> tuple[Table, Member, MatchRow, Deadline]:
    """A match between Alice and Bob in play, 10 hours an activation: the table, the player the
    clock waits for, the match's row and the deadline armed for them."""
    table = Table(store, FakeClock())
    await playing(table, TimeControls(activation_seconds=10 * HOUR))
    member, _ = await waiting_for(table)
    row = await store.active_match(CHANNEL)
    assert row is not None
    old = await store.deadline(row.id)
    assert old is not None
    return table, member, row, old


async def test_a_deadline_a_moderator_moves_earlier_still_fires(store: Store) -> None:
    """The stale-deadline check drops a deadline moved later, never one moved earlier: the
    moderator's new deadline fires at its time, and the one armed before does not fire again."""
    table, member, row, old = await armed(store)
    await timing.set_deadline(table.service, CHANNEL, MOD, 1)
    [reminder] = await table.advance(1)  # within the last 2 hours: the reminder at once
    assert "⏰" in reminder.text  # type: ignore[attr-defined]
    replies = await table.advance(HOUR)
    assert any(f"{member.name} missed the deadline" in r.text for r in replies)  # type: ignore[attr-defined]
    assert await timing.on_deadline(table.service, row.id, old) is None  # the old one: stale


async def test_a_moderator_cannot_set_the_deadline_of_a_paused_match(store: Store) -> None:
    """Resuming goes on with the time that was left when paused, so a deadline set meanwhile
    would be lost without a word: it is refused until the match resumes."""
    table = Table(store, FakeClock())
    await playing(table, TimeControls(activation_seconds=10 * HOUR))
    await timing.pause(table.service, CHANNEL, ALICE)
    await timing.pause(table.service, CHANNEL, BOB)
    with pytest.raises(ServiceError, match="paused; resume it first"):
        await timing.set_deadline(table.service, CHANNEL, MOD, 1)
    assert (await clock_of(store)).paused == 10 * HOUR


async def test_a_deadline_moved_later_by_a_vacation_does_not_fire_at_the_old_time(
    store: Store,
) -> None:
    """Another process may still hold the deadline armed before a vacation moved it: firing
    it at the old time does nothing; the one armed with the new time does."""
    table, member, row, old = await armed(store)
    await timing.vacation(table.service, GUILD, member, 1)
    table.clock.now = old.due_at
    assert await timing.on_deadline(table.service, row.id, old) is None
    moved = await store.deadline(row.id)
    assert moved is not None and moved.due_at == old.due_at + DAY


# --- property: the running time of Stops ----------------------------------------------------------
MONDAY = utc(2026, 11, 30)
moments = st.floats(min_value=MONDAY - 3 * WEEK, max_value=MONDAY + 3 * WEEK)
spans = st.floats(min_value=0, max_value=3 * WEEK)


@st.composite
def some_stops(draw: st.DrawFn) -> Stops:
    breaks = []
    for _ in range(draw(st.integers(0, 4))):
        start = draw(moments)
        breaks.append(Break(draw(st.integers(0, 1)), start, start + draw(spans)))
    return Stops(draw(st.booleans()), tuple(breaks))


@settings(max_examples=300, deadline=None)
@given(some_stops(), moments, spans, st.sampled_from([0, 1, None]))
def test_end_after_and_running_between_agree(
    stops: Stops, start: float, seconds: float, side: int | None
) -> None:
    """Ruling "Weekends"/"Vacation": the clock runs `seconds` from `start` to `end_after`,
    never in less wall time than that, and never at a weekend or in the side's vacation."""
    end = stops.end_after(start, seconds, side)
    assert end >= start + seconds - 1e-6
    assert stops.running_between(start, end, side) == pytest.approx(seconds, abs=1e-3)
    if seconds > 1:  # the last moment before the end is running time
        last = end - 1e-3
        assert stops.running_between(last, end, side) == pytest.approx(1e-3, abs=1e-4)
        if stops.weekends:
            weekday = dt.datetime.fromtimestamp(last, dt.UTC).weekday()
            assert weekday < 5, "a deadline never comes due at a weekend"
        for away in stops.breaks:
            if side is None or away.side == side:
                assert not away.start <= last < away.end


@settings(max_examples=200, deadline=None)
@given(some_stops(), moments, spans, spans, st.sampled_from([0, 1, None]))
def test_running_time_adds_up(
    stops: Stops, start: float, first: float, second: float, side: int | None
) -> None:
    middle, end = start + first, start + first + second
    whole = stops.running_between(start, end, side)
    parts = stops.running_between(start, middle, side) + stops.running_between(middle, end, side)
    assert whole == pytest.approx(parts, abs=1e-3) and 0 <= whole <= end - start + 1e-6
    if stops.weekends:  # two days of every week stand still
        assert Stops(True).running_between(MONDAY, MONDAY + WEEK) == 5 * DAY


@settings(max_examples=200, deadline=None)
@given(some_stops(), moments, st.sampled_from([0, 1, None]), st.booleans())
def test_a_reminder_is_never_in_the_past_after_the_end_or_while_the_clock_stands_still(
    stops: Stops, now: float, side: int | None, banked: bool
) -> None:
    controls = FISCHER if banked else TimeControls(activation_seconds=10 * HOUR)
    clock = Clock(controls)
    clock.follow("deploy" if side is None else f"t1:a0:s{side}", now, side, stops)
    assert now <= clock.remind <= clock.deadline
    assert clock.remind == clock.deadline or stops.runs_again(clock.remind, side) == clock.remind


def test_an_extension_and_a_pause_carry_into_the_bank() -> None:
    """Ruling "Clock modes": an extension adds to the running deadline, so to the bank; a pause
    keeps the time the bank had, and the bank is charged once, when the activation ends."""
    clock = Clock(controls_for("fischer", 2, 2, "skip", bank_hours=10, increment_hours=1,
                               cap_hours=20))  # fmt: skip
    clock.follow("t1:a0:s0", 0.0, 0)
    clock.extend(0, now=HOUR)  # 1 hour more (half of the 2 hours to deploy)
    assert clock.deadline == 11 * HOUR
    clock.pause(2 * HOUR)
    assert clock.paused == 9 * HOUR and clock.bank_left(0, 50 * HOUR) == 9 * HOUR
    clock.resume(50 * HOUR)
    assert clock.deadline == 59 * HOUR
    clock.follow("t1:a1:s1", 53 * HOUR, 1)  # 3 more hours used: 6 left, + 1
    assert clock.banks == [7 * HOUR, 10 * HOUR]
