"""Time controls and a match's clock (issue 5), as plain data kept in the match's set-up.

Each activation (and the deployment) gets `activation_seconds`; a reminder goes out at
`remind_at` of that time; when the time is up the player misses: with an excuse left the game
moves on by `on_miss` and the excuse is used, with none left the player forfeits.

An extension (/timer extend) scales with the clock: half the time per activation, at least 15
minutes and at most 12 hours (1 hour per activation: 30 minutes; 10 hours: 5 hours; 24 hours
or more: 12 hours). Time controls may name a fixed `extension_seconds` instead.

Three modes (issue 21, docs/rulings.md "Clock modes"): `activation` (the above, the default;
a stored clock without a mode is one), `fischer` (each player has a bank of time that runs while
the match waits for them; after each activation the increment is added, up to the cap) and
`days` (a bank of days per player for the whole match, no increment). With a bank the deployment
still gets `activation_seconds`, and a miss is the bank running out.

The clock stands still while it is stopped (`Stops`): a server's weekends (Saturday 00:00 to
Monday 00:00 UTC) and the vacation of the player it waits for. Deadlines stay absolute moments:
a deadline is pushed by the stopped time that falls before it, when it is set.
"""

from __future__ import annotations

import math
from dataclasses import asdict, dataclass, field
from typing import Any

from skirmbot.store import Deadline
from skirmbot.words import plural

HOUR = 3600
DAY = 24 * HOUR
MIN_ACTIVATION, MAX_ACTIVATION = HOUR, 7 * DAY
ON_MISS = {
    "skip": "the activation ends where it stands",
    "auto": "the automatic player takes the activation",
}
# Deadlines that passed while the bot was down fire this long after it starts again, so nobody
# forfeits for the bot's own downtime.
STARTUP_GRACE = 15 * 60
# An extension: this share of the time per activation, within these bounds.
EXTENSION_SHARE = 0.5
MIN_EXTENSION, MAX_EXTENSION = 15 * 60, 12 * HOUR
# Matches stored before extensions scaled carry the old fixed 12 hours (no command ever chose
# another value): they get the proportional rule too.
LEGACY_EXTENSION = 12 * HOUR
ACTIVATION, FISCHER, DAYS = "activation", "fischer", "days"
MODES = {
    ACTIVATION: "a fixed time per activation",
    FISCHER: "Fischer: a bank, plus an increment after each activation, up to a cap",
    DAYS: "days per player for the whole match",
}
MAX_BANK = 60 * DAY  # the most a bank may start with or be capped at
MAX_INCREMENT = 7 * DAY
MAX_DAYS = 60
# A bank's reminder goes out this long before it runs out (sooner when the time available for
# the activation is short: `remind_at` of it, as the other clocks do).
BANK_REMINDER = DAY
# Between the decision keys of a turn taken by several seats at once, in the clock's key.
KEYS = "+"


def extension_for(activation_seconds: int) -> int:
    """The proportional extension: half the time per activation, from 15 minutes to 12 hours."""
    return int(max(MIN_EXTENSION, min(MAX_EXTENSION, activation_seconds * EXTENSION_SHARE)))


class ControlsError(ValueError):
    """Time controls out of their limits; the message says which and what is allowed."""


@dataclass(frozen=True)
class TimeControls:
    activation_seconds: int = DAY
    remind_at: float = 0.8  # of the activation time
    excuses: int = 2  # missed deadlines forgiven per player
    on_miss: str = "skip"
    extensions: int = 2  # requests for more time per player per match
    extension_seconds: int | None = None  # None: in proportion to the clock (extension_for)
    # Issue 21: the mode; with a bank, `activation_seconds` is the time for a deployment.
    mode: str = ACTIVATION
    bank_seconds: int = 0  # each player's bank at the start (days: the days, in seconds)
    increment_seconds: int = 0  # Fischer: added to the bank after each activation
    cap_seconds: int = 0  # Fischer: the most a bank holds after an increment

    def __post_init__(self) -> None:
        if not MIN_ACTIVATION <= self.activation_seconds <= MAX_ACTIVATION:
            raise ControlsError("Time per activation must be from 1 hour to 7 days.")
        if not 0.5 <= self.remind_at <= 0.95:
            raise ControlsError("The reminder goes out between 50% and 95% of the time.")
        if not 0 <= self.excuses <= 10:
            raise ControlsError("Excused misses per player: 0 to 10.")
        if self.on_miss not in ON_MISS:
            raise ControlsError(f"A miss does one of: {', '.join(ON_MISS)}.")
        if not 0 <= self.extensions <= 5 or not (
            self.extension_seconds is None or MIN_EXTENSION <= self.extension_seconds <= 3 * DAY
        ):
            raise ControlsError("Extensions: 0 to 5 per player, each of 15 minutes to 3 days.")
        self._check_mode()

    def _check_mode(self) -> None:
        if self.mode not in MODES:
            raise ControlsError(f"The clock is one of: {', '.join(MODES)}.")
        if self.mode == ACTIVATION:
            if self.bank_seconds or self.increment_seconds or self.cap_seconds:
                raise ControlsError("A clock per activation has no bank, increment or cap.")
        elif self.mode == FISCHER:
            if not HOUR <= self.bank_seconds <= MAX_BANK:
                raise ControlsError("A Fischer bank starts with 1 hour to 60 days.")
            if not 0 <= self.increment_seconds <= MAX_INCREMENT:
                raise ControlsError("A Fischer increment is 0 to 168 hours.")
            if not self.bank_seconds <= self.cap_seconds <= MAX_BANK:
                raise ControlsError(
                    "A Fischer cap is at least the starting bank and at most 60 days."
                )
        elif not (
            DAY <= self.bank_seconds <= MAX_DAYS * DAY
            and self.bank_seconds % DAY == 0
            and not self.increment_seconds
        ):
            raise ControlsError(f"Days per player: 1 to {MAX_DAYS} whole days, no increment.")

    @property
    def banked(self) -> bool:
        """Whether each player has a bank of time (Fischer, days per player)."""
        return self.mode != ACTIVATION

    @property
    def extension(self) -> int:
        """The seconds one extension adds."""
        if self.extension_seconds is not None:
            return self.extension_seconds
        return extension_for(self.activation_seconds)

    def describe(self) -> str:
        if self.mode == FISCHER:
            cap = f", up to {duration(self.cap_seconds)}" if self.cap_seconds else ""
            pace = (
                f"Fischer clock: a bank of {duration(self.bank_seconds)} each, plus "
                f"{duration(self.increment_seconds)} after each activation{cap}; "
                f"{duration(self.activation_seconds)} to deploy"
            )
        elif self.mode == DAYS:
            pace = (
                f"{duration(self.bank_seconds)} per player for the whole match; "
                f"{duration(self.activation_seconds)} to deploy"
            )
        else:
            pace = (
                f"{duration(self.activation_seconds)} per activation, reminder at "
                f"{round(self.remind_at * 100)}%"
            )
        return (
            f"{pace}, "
            f"{plural(self.excuses, 'excused miss')} each (a miss: {ON_MISS[self.on_miss]}; with none left, "
            f"forfeit), {plural(self.extensions, 'extension')} of {duration(self.extension)} each"
        )

    @classmethod
    def from_json(cls, data: dict[str, Any]) -> TimeControls:
        values = dict(data)
        if values.get("extension_seconds") == LEGACY_EXTENSION:
            values["extension_seconds"] = None
        return cls(**values)


def controls_for(
    mode: str,
    hours: int,
    excuses: int,
    on_miss: str,
    *,
    bank_hours: int = 72,
    increment_hours: int = 12,
    cap_hours: int | None = None,
    days: int = 14,
) -> TimeControls:
    """Time controls from what a player chose (`/match new`, the console's --clock): `hours`
    is the time per activation, or with a bank the time to deploy. A Fischer cap left out is
    the starting bank (ControlsError: out of limits)."""
    common: dict[str, Any] = {
        "activation_seconds": hours * HOUR,
        "excuses": excuses,
        "on_miss": on_miss,
    }
    if mode == FISCHER:
        bank = bank_hours * HOUR
        cap = bank if cap_hours is None else cap_hours * HOUR
        return TimeControls(
            mode=FISCHER,
            bank_seconds=bank,
            increment_seconds=increment_hours * HOUR,
            cap_seconds=cap,
            **common,
        )
    if mode == DAYS:
        if not 1 <= days <= MAX_DAYS:
            raise ControlsError(f"Days per player: 1 to {MAX_DAYS} whole days, no increment.")
        return TimeControls(mode=DAYS, bank_seconds=days * DAY, **common)
    return TimeControls(mode=mode, **common)


# --- when the clock stands still --------------------------------------------------------------
WEEK = 7 * DAY
# 1970-01-01, the epoch's first day, was a Thursday: Monday 00:00 UTC of the epoch's week.
EPOCH_MONDAY = -3 * DAY


@dataclass(frozen=True)
class Break:
    """A player's vacation: the clock waiting for `side` stands still from `start` to `end`."""

    side: int
    start: float
    end: float


@dataclass(frozen=True)
class Stops:
    """When a match's clock stands still: the server's weekends (Saturday 00:00 to Monday 00:00
    UTC, when `weekends`) and its players' vacations. A clock waiting for one side stops for
    that side's vacations; a deployment (side None) for either player's."""

    weekends: bool = False
    breaks: tuple[Break, ...] = ()

    def _stops(self, side: int | None) -> list[tuple[float, float]]:
        return [
            (b.start, b.end)
            for b in self.breaks
            if b.end > b.start and (side is None or b.side == side)
        ]

    def _stopped_until(self, moment: float, breaks: list[tuple[float, float]]) -> float | None:
        """The end of the stop `moment` falls in (None: the clock runs at `moment`)."""
        ends = [end for start, end in breaks if start <= moment < end]
        if self.weekends:
            monday = EPOCH_MONDAY + math.floor((moment - EPOCH_MONDAY) / WEEK) * WEEK
            if moment >= monday + 5 * DAY:
                ends.append(monday + WEEK)
        return max(ends) if ends else None

    def _next_stop(self, moment: float, breaks: list[tuple[float, float]]) -> float:
        """When the clock, running at `moment`, stops next (infinity: never)."""
        starts = [start for start, _ in breaks if start > moment]
        if self.weekends:
            monday = EPOCH_MONDAY + math.floor((moment - EPOCH_MONDAY) / WEEK) * WEEK
            starts.append(monday + 5 * DAY)
        return min(starts, default=math.inf)

    def end_after(self, start: float, seconds: float, side: int | None = None) -> float:
        """The moment the clock, started at `start`, has run `seconds`."""
        breaks, moment, left = self._stops(side), start, max(0.0, seconds)
        while True:
            stopped = self._stopped_until(moment, breaks)
            if stopped is not None:
                moment = stopped
                continue
            stop = self._next_stop(moment, breaks)
            if moment + left <= stop:
                return moment + left
            left -= stop - moment
            moment = stop

    def runs_again(self, moment: float, side: int | None = None) -> float:
        """The first moment from `moment` on at which the clock runs (`moment` itself when it
        runs then)."""
        breaks = self._stops(side)
        while (stopped := self._stopped_until(moment, breaks)) is not None:
            moment = stopped
        return moment

    def running_between(self, start: float, end: float, side: int | None = None) -> float:
        """How long the clock runs from `start` to `end`."""
        breaks, moment, total = self._stops(side), start, 0.0
        while moment < end:
            stopped = self._stopped_until(moment, breaks)
            if stopped is not None:
                moment = stopped
                continue
            stop = min(end, self._next_stop(moment, breaks))
            total += stop - moment
            moment = stop
        return total


RUNNING = Stops()  # a clock that never stops


@dataclass
class Clock:
    """One match's clock: what it waits for now, and what each player has used up."""

    controls: TimeControls = field(default_factory=TimeControls)
    key: str | None = None  # the activation the deadline belongs to
    deadline: float = 0.0
    remind: float = 0.0
    reminded: bool = False
    paused: float | None = None  # the time that was left when the match was paused
    pause_request: int | None = None  # the side that asked to pause
    excuses_used: list[int] = field(default_factory=lambda: [0, 0])
    extensions_used: list[int] = field(default_factory=lambda: [0, 0])
    misses: list[dict[str, Any]] = field(default_factory=list)
    # Issue 21: the side the current key waits for (None: a deployment); with a bank, each
    # player's bank while it is not running, the side whose bank runs now, and the time that
    # activation had when it began.
    waiting: int | None = None
    banks: list[float] | None = None
    running: int | None = None
    allotted: float = 0.0
    # Decisions in another seat's turn (a defender's bonus dice in the d20 rules), each with
    # its own short window beside the turn's clock: {"side", "key", "opened", "deadline",
    # "pinged"}. They use no excuse and stop for no weekend or vacation: the match never stalls.
    reactions: list[dict[str, Any]] = field(default_factory=list)
    # With more than two players: the sides that agreed to `pause_request` so far.
    pause_agreed: list[int] = field(default_factory=list)

    def __post_init__(self) -> None:
        if self.banks is None:
            self.banks = [float(self.controls.bank_seconds)] * 2

    def to_json(self) -> dict[str, Any]:
        data = asdict(self)
        data["controls"] = asdict(self.controls)
        for later in ("reactions", "pause_agreed"):  # a clock stored before them reads the same
            if not data[later]:
                del data[later]
        return data

    def seat(self, seats: int) -> None:
        """Keep each player's counts for a match of `seats` players (a clock is made, and was
        stored before seats, for two)."""
        assert self.banks is not None
        self.excuses_used += [0] * (seats - len(self.excuses_used))
        self.extensions_used += [0] * (seats - len(self.extensions_used))
        self.banks += [float(self.controls.bank_seconds)] * (seats - len(self.banks))

    @classmethod
    def from_json(cls, data: dict[str, Any] | None) -> Clock:
        if not data:
            return cls()
        values = dict(data)
        values["controls"] = TimeControls.from_json(values.get("controls", {}))
        key = values.get("key")
        named = key.rsplit(":s", 1)[-1] if isinstance(key, str) and KEYS not in key else ""
        if values.get("waiting") is None and named.isdigit():
            # Stored before issue 21 kept no side: an activation's key names it ("t1:a0:s1"),
            # so an opponent's vacation does not stop this player's clock. (A key that waits
            # for several seats at once names more than one, and waits for no one side.)
            values["waiting"] = int(named)
        return cls(**values)

    def follow(
        self, key: str | None, now: float, side: int | None = None, stops: Stops = RUNNING
    ) -> None:
        """Start the time for a new activation (a new key) of `side` (None: a deployment); the
        same key keeps its time. With a bank, the bank that ran is charged first. While the
        match is paused (both players may still deploy then) the new activation's whole time is
        held until it resumes, rather than what the one before had left. A key that waits for
        some of the decisions the current one waits for (a side's turn taken by several seats,
        one of which ended its part) is no new activation: its time runs on."""
        if key == self.key:
            return
        if self._narrows(key):  # a seat of a side's turn is done: the others' time runs on
            self.key, self.waiting = key, side
            return
        self.charge(now, stops)
        self.key, self.waiting = key, side
        if key is None:
            return
        assert self.banks is not None
        banked = self.controls.banked and side is not None
        available = float(self.controls.activation_seconds)
        if banked and side is not None:
            available = self.banks[side]
        self.running = side if banked else None
        self.allotted = available
        self.reminded = False
        if self.paused is not None:
            self.paused = available
            return
        self.deadline = stops.end_after(now, available, side)
        self._place_reminder(now, stops)

    def _narrows(self, key: str | None) -> bool:
        """Whether `key` waits for some, not all, of the decisions the current key waits for
        (each seat's decision key, joined by "+": `service.work.waiting_key`)."""
        if key is None or self.key is None:
            return False
        return set(key.split(KEYS)) < set(self.key.split(KEYS))

    def charge(self, now: float, stops: Stops = RUNNING) -> None:
        """The running bank stops: it keeps the time that was left, plus the increment (up to
        the cap). Nothing when no bank runs."""
        side = self.running
        if side is None:
            return
        assert self.banks is not None
        left = (
            stops.running_between(now, self.deadline, side) if self.paused is None else self.paused
        )
        bank = left + self.controls.increment_seconds
        if self.controls.cap_seconds:
            bank = min(bank, max(left, float(self.controls.cap_seconds)))
        self.banks[side], self.running = bank, None

    def refill(self, side: int, now: float, stops: Stops = RUNNING) -> None:
        """An excused miss with a bank: the empty bank is charged, then holds at least the
        time to deploy (`activation_seconds`), so the next activation is not missed at once."""
        assert self.banks is not None
        self.charge(now, stops)
        self.banks[side] = max(self.banks[side], float(self.controls.activation_seconds))

    def bank_left(self, side: int, now: float, stops: Stops = RUNNING) -> float:
        """What `side`'s bank holds now (running or not)."""
        assert self.banks is not None
        if self.running != side:
            return self.banks[side]
        if self.paused is not None:
            return self.paused
        return stops.running_between(now, self.deadline, side)

    def retime(self, now: float, before: Stops, after: Stops) -> None:
        """The stops changed (a vacation began or ended): the deadline keeps the running time
        it had left, counted under the new stops."""
        if self.key is None or self.paused is not None:
            return
        left = before.running_between(now, self.deadline, self.waiting)
        self.deadline = after.end_after(now, left, self.waiting)
        if not self.reminded:
            self._place_reminder(now, after)

    def next_deadline(self) -> Deadline | None:
        """What the scheduler waits for: the reminder, then the miss, of the turn's clock or
        of a reaction's window (its ping at once, then its end), whichever comes first;
        nothing while paused."""
        if self.paused is not None:
            return None
        due = [self._reaction_deadline(reaction) for reaction in self.reactions]
        turn = self.turn_deadline()
        if turn is not None:
            due.append(turn)
        return min(due, key=lambda deadline: deadline.due_at, default=None)

    def turn_deadline(self) -> Deadline | None:
        """The turn's own next deadline (its key's): the reminder, then the miss."""
        if self.key is None:
            return None
        if not self.reminded and self.remind < self.deadline:
            return Deadline(self.remind, "remind", self.key)
        return Deadline(self.deadline, "miss", self.key)

    # --- reactions: decisions outside the turn's own clock ------------------------------------
    def react(self, wanted: dict[str, int], now: float, seconds: float) -> None:
        """The reactions the match waits for now ({key: side}): a new one's window opens
        `seconds` from `now`, one still wanted keeps its time, one no longer wanted closes."""
        kept = [r for r in self.reactions if r["key"] in wanted]
        known = {r["key"] for r in kept}
        for key, side in wanted.items():
            if key not in known:
                kept.append(
                    {
                        "side": side,
                        "key": key,
                        "opened": now,
                        "deadline": now + seconds,
                        "pinged": False,
                    }
                )
        self.reactions = kept

    def reaction(self, key: str) -> dict[str, Any] | None:
        """The open reaction under `key`, if any."""
        return next((r for r in self.reactions if r["key"] == key), None)

    def close_reaction(self, key: str) -> None:
        self.reactions = [r for r in self.reactions if r["key"] != key]

    @staticmethod
    def _reaction_deadline(reaction: dict[str, Any]) -> Deadline:
        if not reaction["pinged"]:
            return Deadline(reaction["opened"], "remind", reaction["key"])
        return Deadline(reaction["deadline"], "miss", reaction["key"])

    def pause(self, now: float, stops: Stops = RUNNING) -> None:
        self.paused = stops.running_between(now, max(now, self.deadline), self.waiting)
        self.pause_request = None
        self.pause_agreed = []

    def resume(self, now: float, stops: Stops = RUNNING) -> None:
        """Go on with the time that was left; the reminder keeps its place before the end."""
        assert self.paused is not None
        self.deadline = stops.end_after(now, self.paused, self.waiting)
        self.paused = None
        self._place_reminder(now, stops)

    def extend(self, side: int, stops: Stops = RUNNING, now: float | None = None) -> None:
        """More time: the deadline moves by the extension (in running time). A reminder
        already sent goes out again before the new end, unless that moment has passed
        (`now`): the player who just asked knows when the time now runs out."""
        self.extensions_used[side] += 1
        self.deadline = stops.end_after(self.deadline, self.controls.extension, self.waiting)
        earliest = self.remind if now is None else max(now, self.remind)
        if self.reminded and now is not None and self.deadline - self.lead() <= now:
            return  # a reminder now would only repeat the extension's reply
        self.reminded = False  # remind again before the new end
        self._place_reminder(earliest, stops)

    def lead(self) -> float:
        """How long before the end the reminder goes out: `remind_at` of the time per
        activation; with a bank, a day before it runs out (less for a short activation)."""
        share = 1 - self.controls.remind_at
        if self.running is None:
            return self.controls.activation_seconds * share
        return min(float(BANK_REMINDER), self.allotted * share)

    def _place_reminder(self, earliest: float, stops: Stops = RUNNING) -> None:
        """The reminder goes out `lead` before the end, never before `earliest`, and never
        while the clock stands still for the player (a weekend, their vacation): then it goes
        out when the clock runs again."""
        remind = max(earliest, self.deadline - self.lead())
        self.remind = min(self.deadline, stops.runs_again(remind, self.waiting))


def duration(seconds: float) -> str:
    """3600 -> "1 hour", 90000 -> "1 day 1 hour" (whole hours and minutes)."""
    seconds = int(seconds)
    days, rest = divmod(seconds, DAY)
    hours, rest = divmod(rest, HOUR)
    minutes = rest // 60
    parts = [(days, "day"), (hours, "hour"), (minutes, "minute")]
    words = [f"{n} {unit}{'s' if n != 1 else ''}" for n, unit in parts if n]
    return " ".join(words[:2]) or "less than a minute"
