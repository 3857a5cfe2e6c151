"""Quiet hours (issue 34), as properties: over time zones that switch daylight saving and
some that do not, moments near the switches (the spring gap, the autumn fold), and a player who
moves to another zone between two reminders. A reminder never goes out inside the quiet hours
unless they last past the deadline; it goes out at the first moment they allow, never before it
was due, never after the deadline; a zone name that is none is refused in plain words."""

from __future__ import annotations

import datetime as dt

import pytest
from hypothesis import example, given, settings
from hypothesis import strategies as st

from skirmbot.timers.quiet import QuietHours, ZoneError, next_local_hour, send_at, zone

# Zones that switch (north and south of the equator, a half-hour switch, a 45-minute offset)
# and zones that do not.
ZONES = [
    "Europe/Berlin",
    "America/New_York",
    "Australia/Sydney",
    "Australia/Lord_Howe",
    "America/Santiago",
    "Pacific/Chatham",
    "Asia/Kolkata",
    "Asia/Tokyo",
    "UTC",
]
HOUR, DAY = 3600, 86400
# Daylight-saving switches of the zones above (UTC), to start near.
SWITCHES = [
    dt.datetime(2026, 3, 29, 1, 0, tzinfo=dt.UTC).timestamp(),  # Europe: spring forward
    dt.datetime(2026, 10, 25, 1, 0, tzinfo=dt.UTC).timestamp(),  # Europe: fall back
    dt.datetime(2026, 3, 8, 7, 0, tzinfo=dt.UTC).timestamp(),  # New York: spring forward
    dt.datetime(2026, 11, 1, 6, 0, tzinfo=dt.UTC).timestamp(),  # New York: fall back
    dt.datetime(2026, 4, 4, 16, 0, tzinfo=dt.UTC).timestamp(),  # Sydney: fall back
    dt.datetime(2026, 10, 3, 16, 0, tzinfo=dt.UTC).timestamp(),  # Sydney: spring forward
]
START = dt.datetime(2026, 1, 1, tzinfo=dt.UTC).timestamp()

zones = st.sampled_from(ZONES)
minutes_of_day = st.integers(0, 24 * 60 - 1)
near_switch = st.builds(
    lambda switch, offset: switch + offset,
    st.sampled_from(SWITCHES),
    st.integers(-DAY, DAY),
)
moments = st.one_of(near_switch, st.integers(int(START), int(START) + 400 * DAY).map(float))
quiet_hours = st.builds(QuietHours, zones, minutes_of_day, minutes_of_day)
leads = st.integers(60, 3 * DAY)


def local_minute(moment: float, name: str) -> int:
    local = dt.datetime.fromtimestamp(moment, zone(name))
    return local.hour * 60 + local.minute


@settings(max_examples=300, deadline=None)
@given(quiet_hours, moments, leads)
@example(QuietHours("Europe/Berlin", 60, 150), SWITCHES[0] - 30 * 60, DAY)  # ends in the gap
@example(QuietHours("Europe/Berlin", 120, 150), SWITCHES[1] - 30 * 60, DAY)  # in the fold
@example(QuietHours("America/New_York", 22 * 60, 7 * 60), SWITCHES[3] - 2 * HOUR, DAY)
def test_a_reminder_waits_for_the_quiet_hours_to_end_and_never_passes_the_deadline(
    quiet: QuietHours, due: float, lead: int
) -> None:
    deadline = due + lead
    sent = send_at(due, deadline, quiet)
    assert due <= sent < deadline  # never before it was due, never after the deadline
    if sent > due:  # held: it goes out outside the quiet hours, the first moment they allow
        assert not quiet.inside(sent)
        assert quiet.inside(due) and quiet.inside(sent - 1)
        # every minute between due and sent was quiet: it was not held a moment too long
        moment = due
        while moment < sent:
            assert quiet.inside(moment), (moment, sent)
            moment += 60
    elif quiet.inside(due):  # not held although quiet: only when they last to the deadline
        assert quiet.end_after(due) >= deadline


@settings(max_examples=200, deadline=None)
@given(quiet_hours, moments)
def test_quiet_hours_end_within_a_day_and_on_the_minute_they_name_or_after_a_gap(
    quiet: QuietHours, due: float
) -> None:
    end = quiet.end_after(due)
    if not quiet.inside(due):
        assert end == due
        return
    assert due < end <= due + DAY + HOUR  # a switch moves the end by at most an hour or so
    assert not quiet.inside(end)
    reached = local_minute(end, quiet.zone)
    before = local_minute(end - 60, quiet.zone)
    # They end when the local clock reaches their end, or jumps past it (the spring gap).
    assert reached == quiet.end or (before < quiet.end < reached) or quiet.start == quiet.end


@settings(max_examples=200, deadline=None)
@given(zones, zones, minutes_of_day, minutes_of_day, moments, leads, leads)
def test_a_zone_change_between_two_reminders_places_the_second_by_the_new_zone(
    old: str, new: str, start: int, end: int, first: float, gap: int, lead: int
) -> None:
    """A player who moves (or travels) between two reminders: the second is placed by the
    zone they have when it is placed, exactly as if they had always had it."""
    before, after = QuietHours(old, start, end), QuietHours(new, start, end)
    once = send_at(first, first + lead, before)
    second = once + gap
    again = send_at(second, second + lead, after)
    assert again == send_at(second, second + lead, QuietHours(new, start, end))
    assert second <= again < second + lead
    if again > second:
        assert not after.inside(again)
    assert once >= first and not (once > first and before.inside(once))


@given(moments, leads)
def test_no_quiet_hours_or_empty_ones_send_as_due(due: float, lead: int) -> None:
    assert send_at(due, due + lead, None) == due
    assert send_at(due, due + lead, QuietHours("Europe/Berlin", 600, 600)) == due


def test_the_gap_and_the_fold_in_berlin() -> None:
    """Quiet until 02:30 on the night the clocks go from 02:00 to 03:00: they end at 03:00,
    the gap's far side. Quiet until 02:30 on the night 03:00 goes back to 02:00: they end at
    the first 02:30, and the reminder is not held through the hour repeated."""
    berlin = zone("Europe/Berlin")
    spring = QuietHours("Europe/Berlin", 60, 150)
    due = dt.datetime(2026, 3, 29, 1, 15, tzinfo=berlin).timestamp()
    sent = dt.datetime.fromtimestamp(send_at(due, due + DAY, spring), berlin)
    assert (sent.hour, sent.minute, sent.utcoffset()) == (3, 0, dt.timedelta(hours=2))
    autumn = QuietHours("Europe/Berlin", 60, 150)
    due = dt.datetime(2026, 10, 25, 1, 15, tzinfo=berlin).timestamp()
    sent = dt.datetime.fromtimestamp(send_at(due, due + DAY, autumn), berlin)
    assert (sent.hour, sent.minute, sent.fold) == (2, 30, 0)
    # Quiet hours that end after the deadline: the reminder goes out as due.
    night = QuietHours("UTC", 22 * 60, 7 * 60)
    at_midnight = dt.datetime(2026, 5, 1, tzinfo=dt.UTC).timestamp()
    assert send_at(at_midnight, at_midnight + 3 * HOUR, night) == at_midnight
    assert send_at(at_midnight, at_midnight + 8 * HOUR, night) == at_midnight + 7 * HOUR


@pytest.mark.parametrize("name", ["Europe/Berln", "", "Mars/Olympus", "../etc/passwd", "/UTC"])
def test_a_zone_that_is_none_is_refused_in_plain_words(name: str) -> None:
    with pytest.raises(ZoneError) as refused:
        zone(name)
    assert f"'{name}' is not a time zone; for example Europe/Berlin" in str(refused.value)


@settings(max_examples=200, deadline=None)
@given(zones, moments, st.integers(0, 23))
def test_a_daily_digest_comes_at_the_players_hour_once_a_day(
    name: str, after: float, hour: int
) -> None:
    """The next digest: after `after`, within a day (and the hour a switch may add), at the
    hour asked for, local time, or just past it when the clocks skip it; the one after it
    comes a day later, give or take the switch's hour."""
    first = next_local_hour(after, name, hour)
    assert after < first <= after + DAY + HOUR
    local = dt.datetime.fromtimestamp(first, zone(name))
    before = dt.datetime.fromtimestamp(first - 1, zone(name))
    assert (local.hour, local.minute) == (hour, 0) or before.hour < hour < local.hour + 1
    second = next_local_hour(first, name, hour)
    assert DAY - HOUR <= second - first <= DAY + HOUR
