"""A player's deadlines as iCalendar (issue 21): the file `/timer calendar` sends, and the private
feed the web pages serve at `/calendar/{token}.ics` (a secret address per player, shown only to
them; asking for a new one makes the old one stop working).

Each deadline is a short event at the moment the time runs out, with an alarm when the bot's own
reminder goes out; its UID names the match and the activation, so a calendar that reads the feed
again moves the event rather than adding another. League rounds the player still has a game in
are events too, at the round's deadline.
"""

from __future__ import annotations

import datetime as dt
import secrets
import time
from collections.abc import Callable
from dataclasses import dataclass

from icalendar import Alarm, Calendar, Event

from skirmbot.service.links import PageLinks
from skirmbot.service.replies import FileReply, when
from skirmbot.service.timing import waiting_for
from skirmbot.service.work import DEPLOYING
from skirmbot.store import MatchRow, Store
from skirmbot.timers.clock import Clock

PRODUCT = "-//skirmbot//deadlines//EN"
FILE_NAME = "skirm-deadlines.ics"
EVENT_MINUTES = 15  # a deadline is a moment; calendars show it as a short event
LEAGUE_REMINDER = 24 * 3600  # a round's alarm: a day before it ends
TOKEN_BYTES = 24  # the feed's secret: 32 characters of URL-safe base64


@dataclass(frozen=True)
class Due:
    """One deadline of the player's: when the time runs out, and how long before it the
    reminder goes out."""

    uid: str
    at: float
    remind_before: float
    summary: str
    description: str


class Calendars:
    """The deadlines of a player across their matches (in every server) and league rounds."""

    def __init__(
        self,
        store: Store,
        links: PageLinks | None = None,
        clock: Callable[[], float] = time.time,
    ) -> None:
        self.store, self.links, self.now = store, links, clock

    async def deadlines(self, user_id: int) -> list[Due]:
        """Every running deadline the player must meet, soonest first."""
        found = [
            due for row in await self.store.matches_of_player(user_id) for due in _due(row, user_id)
        ]
        found += await self._league_rounds(user_id)
        return sorted(found, key=lambda due: due.at)

    async def _league_rounds(self, user_id: int) -> list[Due]:
        found = []
        for league, number in await self.store.open_league_rounds():
            games = await self.store.league_games(league.id, number.number)
            if any(
                user_id in (g.first, g.second)
                and g.second is not None
                and g.decision is None
                and g.match_ended_at is None
                for g in games
            ):
                found.append(
                    Due(
                        f"skirmbot-league-{league.id}-round-{number.number}@skirmbot",
                        number.deadline,
                        LEAGUE_REMINDER,
                        f"{league.name}: round {number.number} ends",
                        f"Finish your game of round {number.number} of the league {league.name}.",
                    )
                )
        return found

    async def file(self, user_id: int) -> tuple[bytes, list[Due]]:
        """The player's deadlines as an .ics file, and the deadlines in it."""
        found = await self.deadlines(user_id)
        return ical(found, self.now()), found

    async def told(self, user_id: int, renew: bool = False) -> FileReply:
        """/timer calendar: the .ics file, with the next deadline in words and, with web pages
        on, the player's private feed address (`renew`: a new one), for the player only."""
        data, found = await self.file(user_id)
        lines = (
            [f"Your next deadline: {found[0].summary}, {when(found[0].at)}."]
            if found
            else ["No clock runs for you right now: the file has no deadline."]
        )
        address = await self.feed_address(user_id, renew=renew)
        if address is not None:
            lines.append(
                f"Your private calendar feed (every deadline of yours, kept up to date): {address} "
                "Keep it to yourself; /timer calendar new_address:True replaces it."
            )
        return FileReply(FILE_NAME, data, "\n".join(lines), private=True)

    async def feed(self, token: str) -> bytes | None:
        """The feed the token opens (None: no player's, or no longer)."""
        owner = await self.store.calendar_owner(token)
        if owner is None:
            return None
        return ical(await self.deadlines(owner), self.now())

    async def feed_address(self, user_id: int, renew: bool = False) -> str | None:
        """The player's private feed address (made on first asking; `renew`: a new one, the
        old one stops working); None without web pages (SKIRMBOT_WEB_URL)."""
        if self.links is None or self.links.base is None:
            return None
        token = None if renew else await self.store.calendar_token(user_id)
        if token is None:
            token = secrets.token_urlsafe(TOKEN_BYTES)
            await self.store.set_calendar_token(user_id, token)
        return self.links.calendar(token)


def _due(row: MatchRow, user_id: int) -> list[Due]:
    """The match's deadline, when its clock waits for the player."""
    clock = Clock.from_json(row.setup.get("clock"))
    sides = [side for side in waiting_for(row) if row.players[side] == user_id]
    if not sides or clock.paused is not None:
        return []
    side = sides[0]
    opponent = _opponents(row, side)
    what = "deploy" if row.status == DEPLOYING else "activate"
    # The alarm goes off when the bot's own reminder does (it may have moved out of a weekend
    # or a vacation, or after an extension); once sent, at the usual lead.
    pending = not clock.reminded and clock.remind < clock.deadline
    return [
        Due(
            f"skirmbot-match-{row.id}-{clock.key}@skirmbot",
            clock.deadline,
            clock.deadline - clock.remind if pending else clock.lead(),
            f"Skirm: {what} in match #{row.id} vs {opponent}",
            f"Your time to {what} in match #{row.id} against {opponent} runs out. "
            "A missed deadline uses an excused miss; with none left, it forfeits.",
        )
    ]


def _opponents(row: MatchRow, side: int) -> str:
    """The other seats' players, in words: "Bob", "Bob and Eve"."""
    names = [name or "an open seat" for seat, name in enumerate(row.names) if seat != side]
    return names[0] if len(names) == 1 else f"{', '.join(names[:-1])} and {names[-1]}"


def ical(found: list[Due], now: float) -> bytes:
    """The deadlines as an iCalendar file, each with a reminder alarm."""
    calendar = Calendar()
    calendar.add("prodid", PRODUCT)
    calendar.add("version", "2.0")
    calendar.add("x-wr-calname", "Skirm deadlines")
    stamp = _moment(now)
    for due in found:
        event = Event()
        event.add("uid", due.uid)
        event.add("dtstamp", stamp)
        event.add("dtstart", _moment(due.at))
        event.add("dtend", _moment(due.at + EVENT_MINUTES * 60))
        event.add("summary", due.summary)
        event.add("description", due.description)
        alarm = Alarm()
        alarm.add("action", "DISPLAY")
        alarm.add("description", due.summary)
        alarm.add("trigger", -dt.timedelta(seconds=round(due.remind_before)))
        event.add_component(alarm)
        calendar.add_component(event)
    return bytes(calendar.to_ical())


def _moment(timestamp: float) -> dt.datetime:
    return dt.datetime.fromtimestamp(round(timestamp), dt.UTC)
