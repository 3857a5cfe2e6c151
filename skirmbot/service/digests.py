"""A player's daily digest (issue 34): one direct message a day, at the local hour they chose
with /timer notify, listing every match waiting on them, with its deadline (Discord's timestamp
markup: each reads it in their own time) and a link to where it is played. It takes the place of
their reminders, except for a deadline that falls before the next digest (see
`notify.covered`): the digest never makes a player miss a deadline.

The bot looks now and then (`due`); each digest is claimed in the store before it is sent, so
with several processes it goes out once.
"""

from __future__ import annotations

from dataclasses import dataclass

from skirmbot.service.matches import MatchService
from skirmbot.service.replies import channel, when
from skirmbot.service.timing import waiting_for
from skirmbot.store import MatchRow
from skirmbot.store.database import NotifySettings
from skirmbot.timers.clock import Clock
from skirmbot.timers.quiet import next_local_hour


@dataclass(frozen=True)
class Digest:
    """A digest to send: to whom, and its text (with the service's placeholders)."""

    user_id: int
    text: str


def next_digest(settings: NotifySettings, after: float) -> float | None:
    """When the player's next digest goes out after `after` (None: they chose none)."""
    if settings.digest_hour is None or settings.time_zone is None:
        return None
    return next_local_hour(after, settings.time_zone, settings.digest_hour)


def waiting_lines(user_id: int, rows: list[MatchRow]) -> list[str]:
    """A line for each match that waits on the player, the soonest deadline first."""
    waiting: list[tuple[float, str]] = []
    for row in rows:
        seats = [s for s in waiting_for(row) if row.players[s] == user_id]
        if not seats:
            continue
        deadline = Clock.from_json(row.setup.get("clock")).deadline
        line = f"• Match #{row.id} in {channel(row.channel_id)}: time runs out {when(deadline)}."
        waiting.append((deadline, line))
    return [line for _, line in sorted(waiting)]


async def due(service: MatchService) -> list[Digest]:
    """The digests due now, each claimed (sent once), for players with something waiting on
    them; a player with nothing waiting gets none that day (nothing to wake them for)."""
    store, now = service.store, service.now()
    found: list[Digest] = []
    for user_id, settings in await store.digest_players():
        last = settings.digest_at
        moment = next_digest(settings, now if last is None else last)
        if moment is None or moment > now or not await store.claim_digest(user_id, last, now):
            continue
        lines = waiting_lines(user_id, await store.matches_of_player(user_id))
        if lines:
            head = f"🗓️ Your daily digest: {len(lines)} waiting on you."
            found.append(Digest(user_id, "\n".join([head, *lines])))
    return found
