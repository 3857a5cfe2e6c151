"""What the service answers: plain data the Discord cogs and the console turn into messages."""

from __future__ import annotations

from dataclasses import dataclass, field

from skirmbot.rules.events import Event

# Events too fine-grained for a channel summary (the costs show in the activation's own lines).
QUIET_EVENTS = {"cost_paid"}


@dataclass
class Reply:
    """One message for the channel (or, when `private`, only for the player who asked)."""

    text: str
    picture: bytes | None = None  # the battlemap PNG, posted when an activation ends
    picture_name: str = "battlemap.png"
    ping: int | None = None  # the Discord user whose turn it is now (0: the automatic player)
    private: bool = False
    dm: bool = False  # a reminder the pinged player asked to get by direct message
    choices: list[str] = field(
        default_factory=list
    )  # buttons to offer: "end", "accept", "reroll:2", ...
    followups: list[Reply] = field(default_factory=list)  # more messages after this one, in order
    match_over: bool = False

    def all(self) -> list[Reply]:
        """This reply and its followups, flattened in posting order."""
        replies = [self]
        for followup in self.followups:
            replies += followup.all()
        return replies


def describe(events: list[Event]) -> str:
    """The events as lines a player reads, every die shown."""
    return "\n".join(event.text for event in events if event.kind not in QUIET_EVENTS)


def clip(text: str, limit: int = 1900) -> str:
    """Discord messages hold 2000 characters: keep the end (the latest events) when too long."""
    if len(text) <= limit:
        return text
    lines = text.splitlines()
    kept: list[str] = []
    size = 0
    for line in reversed(lines):
        if size + len(line) + 1 > limit - 40:
            break
        kept.insert(0, line)
        size += len(line) + 1
    return f"… ({len(lines) - len(kept)} earlier lines in /match log)\n" + "\n".join(kept)
