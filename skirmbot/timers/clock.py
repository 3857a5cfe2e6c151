"""Time controls and a match's clock (issue 5), as plain data kept in the match's set-up.

Each activation (and the deployment) gets `activation_seconds`; a reminder goes out at
`remind_at` of that time; when the time is up the player misses: with an excuse left the game
moves on by `on_miss` and the excuse is used, with none left the player forfeits.

An extension (/timer extend) scales with the clock: half the time per activation, at least 15
minutes and at most 12 hours (1 hour per activation: 30 minutes; 10 hours: 5 hours; 24 hours
or more: 12 hours). Time controls may name a fixed `extension_seconds` instead.
"""

from __future__ import annotations

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

    @property
    def extension(self) -> int:
        """The seconds one extension adds."""
        if self.extension_seconds is not None:
            return self.extension_seconds
        return extension_for(self.activation_seconds)

    def describe(self) -> str:
        return (
            f"{duration(self.activation_seconds)} per activation, reminder at {round(self.remind_at * 100)}%, "
            f"{plural(self.excuses, 'excused miss')} each (a miss: {ON_MISS[self.on_miss]}; with none left, "
            f"forfeit), {plural(self.extensions, 'extension')} of {duration(self.extension)} each"
        )

    @classmethod
    def from_json(cls, data: dict[str, Any]) -> TimeControls:
        values = dict(data)
        if values.get("extension_seconds") == LEGACY_EXTENSION:
            values["extension_seconds"] = None
        return cls(**values)


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

    def to_json(self) -> dict[str, Any]:
        data = asdict(self)
        data["controls"] = asdict(self.controls)
        return data

    @classmethod
    def from_json(cls, data: dict[str, Any] | None) -> Clock:
        if not data:
            return cls()
        values = dict(data)
        values["controls"] = TimeControls.from_json(values.get("controls", {}))
        return cls(**values)

    def follow(self, key: str | None, now: float) -> None:
        """Start the time for a new activation (a new key); the same key keeps its time."""
        if key == self.key:
            return
        self.key = key
        if key is None or self.paused is not None:
            return
        self.deadline = now + self.controls.activation_seconds
        self.remind = now + self.controls.activation_seconds * self.controls.remind_at
        self.reminded = False

    def next_deadline(self) -> Deadline | None:
        """What the scheduler waits for: the reminder, then the miss; nothing while paused."""
        if self.key is None or self.paused is not None:
            return None
        if not self.reminded and self.remind < self.deadline:
            return Deadline(self.remind, "remind", self.key)
        return Deadline(self.deadline, "miss", self.key)

    def pause(self, now: float) -> None:
        self.paused = max(0.0, self.deadline - now)
        self.pause_request = None

    def resume(self, now: float) -> None:
        """Go on with the time that was left; the reminder keeps its place before the end."""
        assert self.paused is not None
        self.deadline, self.paused = now + self.paused, None
        self._place_reminder(now)

    def extend(self, side: int) -> None:
        self.extensions_used[side] += 1
        self.deadline += self.controls.extension
        self.reminded = False  # remind again before the new end
        self._place_reminder(self.remind)

    def _place_reminder(self, earliest: float) -> None:
        before_end = self.controls.activation_seconds * (1 - self.controls.remind_at)
        self.remind = max(earliest, self.deadline - before_end)


def duration(seconds: float) -> str:
    """3600 -> "1 hour", 90000 -> "1 day 1 hour" (whole hours and minutes)."""
    seconds = int(seconds)
    days, rest = divmod(seconds, DAY)
    hours, rest = divmod(rest, HOUR)
    minutes = rest // 60
    parts = [(days, "day"), (hours, "hour"), (minutes, "minute")]
    words = [f"{n} {unit}{'s' if n != 1 else ''}" for n, unit in parts if n]
    return " ".join(words[:2]) or "less than a minute"
