"""Notifications on a player's terms (issue 34): `/timer notify` and when a reminder goes out.

A player chooses, for all their matches: reminders by direct message or in the match's channel
(what `/timer reminders` chose before, and still does), how long before a deadline they are
reminded, and quiet hours in their own time zone (skirmbot.timers.quiet). A player who never
chose is reminded exactly as before.

The match's clock fires one reminder moment (`Clock.remind`). When it fires, each player it
waits for is reminded now, or held: a later moment of their own (a shorter lead), or the end of
their quiet hours. The clock then waits for the earliest held moment, and the set-up notes who
was already reminded for this activation and deadline (`HELD`), so nobody is reminded twice and
an extension (a new deadline) reminds everyone again.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any, Protocol

from skirmbot.service.errors import ServiceError
from skirmbot.service.replies import Reply
from skirmbot.store import MatchRow, Store
from skirmbot.store.database import NotifySettings
from skirmbot.timers.clock import HOUR, Clock, duration
from skirmbot.timers.quiet import QuietHours, ZoneError, next_local_hour, send_at, zone


class ClockedWork(Protocol):
    """What holding a reminder needs of a match's unit of work (skirmbot.service.work, which
    places reminders through this module: named by what it does, not imported back)."""

    @property
    def row(self) -> MatchRow: ...

    def now(self) -> float: ...

    def keep_clock(self, clock: Clock) -> None: ...


class Person(Protocol):
    """Who sets their reminders (a service Member)."""

    @property
    def id(self) -> int: ...

    @property
    def name(self) -> str: ...


# Set-up key: {"key", "deadline", "sent": [user ids reminded already], "own": the match's own
# reminder moment, when a player's longer lead moved the clock's earlier}.
HELD = "notify_held"
MIN_BEFORE, MAX_BEFORE = 0.25, 72.0  # hours before a deadline a player may ask for


def quiet_hours(settings: NotifySettings) -> QuietHours | None:
    """The player's quiet hours, if they chose some (and a zone, which they need)."""
    start, end, name = settings.quiet_start, settings.quiet_end, settings.time_zone
    if start is None or end is None or name is None or start == end:
        return None
    try:
        return QuietHours(name, start, end)
    except ValueError:  # a zone this machine no longer knows: remind as the match says
        return None


def reminder_moment(
    settings: NotifySettings, clock: Clock, now: float, own: float | None = None
) -> float:
    """When this player's reminder for the clock's deadline goes out, the match's reminder
    firing `now`: their own lead (none: the match's own moment `own`, now when not known), not
    before now, then past their quiet hours unless those last to the deadline."""
    due = now if own is None else max(now, own)
    if settings.remind_before is not None:
        due = max(now, clock.deadline - settings.remind_before)
    return send_at(due, clock.deadline, quiet_hours(settings))


async def due_now(
    store: Store, work: ClockedWork, clock: Clock, players: Sequence[int]
) -> set[int]:
    """Of `players` (people the clock waits for), those to remind now. The others are held:
    the clock's reminder moves to the earliest of their moments (it is kept, with who was
    reminded already); with nobody held, the reminder is done."""
    row, now = work.row, work.now()
    note: dict[str, Any] = row.setup.get(HELD) or {}
    same = note.get("key") == clock.key and note.get("deadline") == clock.deadline
    sent: set[int] = set(note.get("sent", [])) if same else set()
    own: float | None = note.get("own") if same else None
    ready: set[int] = set()
    later: list[float] = []
    for player in dict.fromkeys(players):
        if player in sent:
            continue
        settings = await store.notify_settings(player)
        if covered(settings, clock.deadline, now):
            sent.add(player)  # their digest tells them first
            continue
        moment = reminder_moment(settings, clock, now, own)
        if moment <= now:
            ready.add(player)
        else:
            later.append(moment)
    if later:
        clock.reminded, clock.remind = False, min(later)
        row.setup[HELD] = _note(clock, sorted(sent | ready), own)
    else:
        clock.reminded = True
        row.setup.pop(HELD, None)
    work.keep_clock(clock)
    return ready


def covered(settings: NotifySettings, deadline: float, now: float) -> bool:
    """Whether a player's daily digest takes the place of a reminder now: they chose one and
    it comes before the deadline."""
    if settings.digest_hour is None or settings.time_zone is None:
        return False
    return next_local_hour(now, settings.time_zone, settings.digest_hour) < deadline


def _note(clock: Clock, sent: list[int], own: float | None) -> dict[str, Any]:
    note: dict[str, Any] = {"key": clock.key, "deadline": clock.deadline, "sent": sent}
    if own is not None:
        note["own"] = own
    return note


async def place_reminder(
    store: Store, row: MatchRow, clock: Clock, players: Sequence[int], now: float
) -> None:
    """A new activation's clock: its reminder moves earlier for a player who asked to be
    reminded longer before a deadline than the match's clock does (never before now). The
    match's own moment is noted, for the players who keep it."""
    if clock.key is None or clock.reminded or clock.paused is not None:
        return
    earliest = clock.remind
    for player in dict.fromkeys(players):
        before = (await store.notify_settings(player)).remind_before
        if before is not None:
            earliest = min(earliest, max(now, clock.deadline - before))
    if earliest < clock.remind:
        row.setup[HELD] = _note(clock, [], clock.remind)
        clock.remind = earliest


# --- /timer notify ----------------------------------------------------------------------------


def _chosen(
    settings: NotifySettings,
    before_hours: float | None,
    time_zone: str | None,
    quiet_from: int | None,
    quiet_until: int | None,
    digest_hour: int | None = None,
    now: float = 0.0,
) -> NotifySettings:
    """The settings with what the player chose now (ServiceError, changing nothing, when a
    choice is out of bounds)."""
    name = settings.time_zone
    if time_zone is not None:
        try:
            name = zone(time_zone).key
        except ZoneError as error:
            raise ServiceError(str(error)) from None
    before = settings.remind_before
    if before_hours is not None:
        if before_hours != 0 and not MIN_BEFORE <= before_hours <= MAX_BEFORE:
            raise ServiceError(
                f"Give how long before a deadline as {MIN_BEFORE} to {MAX_BEFORE:g} hours "
                "(0: when the match's clock says)."
            )
        before = None if before_hours == 0 else before_hours * HOUR
    start, end = settings.quiet_start, settings.quiet_end
    if (quiet_from is None) != (quiet_until is None):
        raise ServiceError(
            "Give both ends of your quiet hours, for example quiet_from:22 quiet_until:7 "
            "(the same hour for both: no quiet hours)."
        )
    if quiet_from is not None and quiet_until is not None:
        if not (0 <= quiet_from <= 23 and 0 <= quiet_until <= 23):
            raise ServiceError("Quiet hours start and end on a whole hour, 0 to 23.")
        start, end = (
            (None, None) if quiet_from == quiet_until else (quiet_from * 60, quiet_until * 60)
        )
    if start is not None and name is None:
        raise ServiceError(
            "Quiet hours are in your own time: give your time zone too, for example "
            "time_zone:Europe/Berlin."
        )
    digest, since = settings.digest_hour, settings.digest_at
    if digest_hour is not None:
        if not -1 <= digest_hour <= 23:
            raise ServiceError("A daily digest comes at a whole hour, 0 to 23 (-1: no digest).")
        digest = None if digest_hour == -1 else digest_hour
        if digest != settings.digest_hour:
            since = None if digest is None else now  # the first one at the next such hour
    if digest is not None and name is None:
        raise ServiceError(
            "A daily digest comes at an hour of your own day: give your time zone too, for "
            "example time_zone:Europe/Berlin."
        )
    return NotifySettings(name, start, end, before, digest, since)


def describe(settings: NotifySettings, by_dm: bool) -> str:
    """The player's reminder settings, in words."""
    where = "by direct message" if by_dm else "in the match's channel"
    before = settings.remind_before
    when_ = (
        "when the match's clock says (its share of the time)"
        if before is None
        else f"{duration(before)} before a deadline"
    )
    quiet = quiet_hours(settings)
    lines = [f"Your reminders come {where}, {when_}."]
    if quiet is not None:
        lines.append(
            f"Quiet hours: {quiet.describe()}. A reminder due then goes out when they end, "
            "unless they end after the deadline: then it goes out as due."
        )
    else:
        lines.append("No quiet hours.")
    if settings.digest_hour is not None:
        lines.append(
            f"A daily digest by direct message at {settings.digest_hour:02d}:00 your time lists "
            "what waits on you, instead of a reminder each (a deadline before the next digest "
            "still gets its reminder)."
        )
    if settings.time_zone is not None:
        lines.append(f"Your time zone: {settings.time_zone}.")
    return " ".join(lines)


async def set_notify(
    store: Store,
    member: Person,
    by_dm: bool | None = None,
    before_hours: float | None = None,
    time_zone: str | None = None,
    quiet_from: int | None = None,
    quiet_until: int | None = None,
    digest_hour: int | None = None,
    now: float = 0.0,
) -> Reply:
    """`/timer notify`: change what the player gave, keep the rest, and say what they have
    now (privately). With nothing given it only says."""
    await store.remember_player(member.id, member.name)
    settings = await store.notify_settings(member.id)
    chosen = _chosen(settings, before_hours, time_zone, quiet_from, quiet_until, digest_hour, now)
    if chosen != settings:
        await store.set_notify_settings(member.id, chosen)
    if by_dm is not None:  # as /timer reminders: choosing forgets that DMs were closed
        await store.set_dm_reminders(member.id, by_dm)
    known = await store.player(member.id)
    wants_dm = known is not None and bool(known.get("dm_reminders"))
    return Reply(describe(chosen, wants_dm), private=True)
