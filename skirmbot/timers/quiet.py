"""Quiet hours (issue 34): when a player's reminder may go out, in their own time zone.

A player may name a time zone (an IANA name such as `Europe/Berlin`) and quiet hours in it,
from one local time of day to another (`start` to `end`, minutes after local midnight; across
midnight when `start` is later than `end`, none when they are equal). No reminder goes out
inside them: the one due goes out the moment they end, unless they end at or after the match's
deadline, when it goes out as it was due (docs/rulings.md, "Quiet hours").

Pure functions of plain numbers and a zone name: no store, no Discord. Local wall time is read
with the standard library's `zoneinfo` at each instant, so daylight-saving switches (the gap in
spring, the fold in autumn) and a player moving to another zone between two reminders need no
special case: a reminder is placed by the zone the player has when it is placed.
"""

from __future__ import annotations

import datetime as dt
import math
import zoneinfo
from dataclasses import dataclass
from functools import lru_cache

MINUTE = 60
DAY_MINUTES = 24 * 60
# Quiet hours last less than a day, and no daylight-saving switch moves a clock by more than a
# day (Samoa skipped one whole day in 2011): two days of minutes always find their end.
SEARCH_MINUTES = 2 * DAY_MINUTES
EXAMPLE_ZONES = "for example Europe/Berlin, America/New_York, Asia/Tokyo or UTC"


class ZoneError(ValueError):
    """A time zone name that is not one; the message says so in plain words."""


@lru_cache(maxsize=256)
def zone(name: str) -> zoneinfo.ZoneInfo:
    """The time zone named `name` (ZoneError, in words a player reads, when there is none)."""
    cleaned = name.strip()
    if not cleaned or len(cleaned) > 64 or cleaned.startswith(("/", ".")) or ".." in cleaned:
        raise ZoneError(f"'{name}' is not a time zone; {EXAMPLE_ZONES}.")
    try:
        return zoneinfo.ZoneInfo(cleaned)
    except (zoneinfo.ZoneInfoNotFoundError, ValueError, IsADirectoryError) as error:
        raise ZoneError(f"'{name}' is not a time zone; {EXAMPLE_ZONES}.") from error


@dataclass(frozen=True)
class QuietHours:
    """Quiet hours in a time zone: from `start` to `end`, in minutes after local midnight."""

    zone: str
    start: int
    end: int

    def __post_init__(self) -> None:
        zone(self.zone)  # ZoneError when it names none
        if not (0 <= self.start < DAY_MINUTES and 0 <= self.end < DAY_MINUTES):
            raise ValueError("Quiet hours start and end within a day (0:00 to 23:59).")

    def inside(self, moment: float) -> bool:
        """Whether `moment` (seconds since the epoch) falls in the quiet hours, local time."""
        if self.start == self.end:
            return False
        local = dt.datetime.fromtimestamp(moment, zone(self.zone))
        minute = local.hour * 60 + local.minute
        if self.start < self.end:
            return self.start <= minute < self.end
        return minute >= self.start or minute < self.end  # across midnight

    def end_after(self, moment: float) -> float:
        """The first moment from `moment` on that is outside the quiet hours. Zone offsets
        change on whole minutes, so the local minute (and whether it is quiet) is the same
        through each minute of the epoch: the first quiet-free minute is found a minute at a
        time."""
        if not self.inside(moment):
            return moment
        minute = math.floor(moment / MINUTE) * MINUTE
        for step in range(1, SEARCH_MINUTES + 1):
            if not self.inside(minute + step * MINUTE):
                return float(minute + step * MINUTE)
        return moment  # no end found (not a real zone's rules): as due, never held for ever

    def describe(self) -> str:
        """In words, as "22:00 to 07:00 (Europe/Berlin)"."""
        return f"{_clock(self.start)} to {_clock(self.end)} ({self.zone})"


def _clock(minutes: int) -> str:
    return f"{minutes // 60:02d}:{minutes % 60:02d}"


def send_at(due: float, deadline: float, quiet: QuietHours | None) -> float:
    """When a reminder due at `due`, for a deadline at `deadline`, goes out for a player with
    these quiet hours (None: none): as due outside them; inside them, when they end; but as due
    when they end at or after the deadline (a reminder after the time ran out is no use, and one
    at the very end leaves no time to act: the player's lead is kept instead)."""
    if quiet is None:
        return due
    held = quiet.end_after(due)
    return held if held < deadline else due


def next_local_hour(after: float, name: str, hour: int) -> float:
    """The first moment after `after` at which the local clock in zone `name` shows `hour`:00
    (a player's daily digest). On the spring night that skips the hour, the moment the clock
    jumps past it; on the autumn night that repeats it, its first time."""
    here = zone(name)
    day = dt.datetime.fromtimestamp(after, here).date()
    for offset in range(3):  # today's, tomorrow's, or (across a skipped day) the next
        local = dt.datetime.combine(day + dt.timedelta(days=offset), dt.time(hour), tzinfo=here)
        moment = local.timestamp()  # fold 0: the first of a repeated hour, a gap's far side
        if moment > after:
            return moment
    raise AssertionError("a day holds every hour")  # pragma: no cover
