"""Clock modes (issue 21): per activation, Fischer (bank, increment, cap), days per player; and
clocks standing still at weekends. Rulings: docs/rulings.md, "Clocks for people with lives".
The clock is moved by hand (tests/test_timers.py's Table): nothing here really waits."""

from __future__ import annotations

import datetime as dt
from pathlib import Path

import pytest
from icalendar import Calendar
from service_setup import CHANNEL, GUILD, MOD
from test_console import scripted
from test_timers import FakeClock, Table, playing, waiting_for

from skirmbot.console import ConsoleError, console_clock, run_console
from skirmbot.rules import commands
from skirmbot.service import ServiceError, timing
from skirmbot.store import Deadline, Store
from skirmbot.timers.clock import (
    DAY,
    HOUR,
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
