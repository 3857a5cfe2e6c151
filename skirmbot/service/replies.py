"""What the service answers: plain data the Discord cogs and the console turn into messages."""

from __future__ import annotations

import re
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field

from skirmbot.rules.events import Event
from skirmbot.words import plural

# The longest text a reply carries: messages are read in chat, which takes 2,000 characters
# (cogs/text.py); some room is left for the pings put in front and the placeholders written out.
MESSAGE_LIMIT = 1900

# A person and a moment in a reply's text are neutral placeholders, written out by each front
# end its own way: the Discord cogs as a mention and a timestamp every reader sees in their own
# time zone (cogs/text.py), the console as a name and "in 3 hours" (skirmbot/console.py). They
# are framed by STX and ETX, control characters no player can type (Discord names and squad
# files refuse them), which no text function here takes for a space or a line break.
PERSON = re.compile("\x02@(\\d+)\x03")
MOMENT = re.compile("\x02t(-?\\d+)\x03")
PLACE = re.compile("\x02#(\\d+)\x03")


def person(user_id: int) -> str:
    """A person in a reply, by their user id (Discord: a mention; the console: their name)."""
    return f"\x02@{int(user_id)}\x03"


def when(timestamp: float) -> str:
    """A moment in a reply, in seconds since the epoch, told relative to now ("in 3 hours")."""
    return f"\x02t{int(timestamp)}\x03"


def channel(channel_id: int) -> str:
    """A channel or thread in a reply, by its id (Discord: a link to it; the console: "#id")."""
    return f"\x02#{int(channel_id)}\x03"


def written(
    text: str,
    people: Callable[[int], str],
    moments: Callable[[int], str],
    places: Callable[[int], str] = lambda channel_id: f"#{channel_id}",
) -> str:
    """The text with each `person` written by `people`, each `when` by `moments` and each
    `channel` by `places`."""
    text = PERSON.sub(lambda found: people(int(found.group(1))), text)
    text = PLACE.sub(lambda found: places(int(found.group(1))), text)
    return MOMENT.sub(lambda found: moments(int(found.group(1))), text)


# Events too fine-grained for a channel summary (the costs show in the activation's own lines).
QUIET_EVENTS = {"cost_paid"}


@dataclass
class Reply:
    """One message for the channel (or, when `private`, only for the player who asked)."""

    text: str
    picture: bytes | None = None  # the battlemap PNG, posted when an activation ends
    picture_name: str = "battlemap.png"
    # An animation posted as a second file after the picture: the catch-up GIF of what happened
    # since the pinged player last acted (skirmbot.service.recap).
    animation: bytes | None = None
    animation_name: str = "recap.gif"
    # What each picture shows, in words, for those who cannot see it (Discord's attachment
    # description, which screen readers read): plain text, no placeholders.
    picture_alt: str = ""
    animation_alt: str = ""
    ping: int | None = None  # the Discord user whose turn it is now (0: the automatic player)
    pings: list[int] = field(default_factory=list)  # more users to notify (the end: both players)
    private: bool = False
    dm: bool = False  # a reminder the pinged player asked to get by direct message
    choices: list[str] = field(
        default_factory=list
    )  # buttons to offer: "end", "accept", "reroll:2", ...
    followups: list[Reply] = field(default_factory=list)  # more messages after this one, in order
    match_over: bool = False
    # Posted in this channel (a league match's thread) rather than where the player asked.
    channel: int | None = None

    def notify(self) -> list[int]:
        """The users this message notifies, once each: `ping`, then `pings` (never the
        automatic player, 0)."""
        return [user for user in dict.fromkeys([self.ping, *self.pings]) if user]

    def all(self) -> list[Reply]:
        """This reply and its followups, flattened in posting order."""
        replies = [self]
        for followup in self.followups:
            replies += followup.all()
        return replies


@dataclass
class FileReply:
    """A file to post with the message that goes with it: a match record (for the channel once
    the match is over, only for the asker before: its dice are the faces rolled so far), a
    player's calendar of deadlines."""

    name: str
    data: bytes
    text: str
    private: bool = False


def describe(events: list[Event]) -> str:
    """The events as lines a player reads, every die shown."""
    return "\n".join(event.text for event in events if event.kind not in QUIET_EVENTS)


def clip(text: str, limit: int = MESSAGE_LIMIT, more: str = "/match log") -> str:
    """Discord messages hold 2000 characters: keep the end (the latest events) when too long,
    saying where the earlier lines are (`more`)."""
    if len(text) <= limit:
        return text
    lines = text.splitlines()
    kept: list[str] = []
    size = 0
    for line in reversed(lines):
        if size + len(line) + 1 > limit - 30 - len(more):
            break
        kept.insert(0, line)
        size += len(line) + 1
    earlier = plural(len(lines) - len(kept), "earlier line")
    return f"… ({earlier} in {more})\n" + "\n".join(kept)


def end_heading(match_id: int, result: str, seats: Sequence[tuple[str, str]]) -> str:
    """The result of a match and who played it: `seats` are (player, squad) pairs."""
    players = " · ".join(f"{player} ({squad})" for player, squad in seats)
    return f"🏁 **Match #{match_id} is over.** {result}\n{players}"


def the_end(heading: str, last: str, medals: str | None, limit: int = MESSAGE_LIMIT) -> list[str]:
    """The end of a match: the result message (the heading, then the medals, which the caller
    fits in what room the heading leaves), after what happened last. One message when all of
    it fits, else two: what happened last (its latest lines), then the result."""
    result = f"{heading}\n\n{medals}" if medals else heading
    if not last.strip():
        return [result]
    if len(last) + 2 + len(result) <= limit:
        return [f"{last}\n\n{result}"]
    return [clip(last, limit, more="the record: /match export"), result]
