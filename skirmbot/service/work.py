"""A match's unit of work: find its row, hold its lock, load it live, apply commands, save.

Every use case that changes a match goes through one: MatchService's own, the turn timers
(`skirmbot.service.timing`), the campaigns, a league.

    async with service.work(channel_id) as work:       # or service.work_on(match_id)
        side = work.seat(member.id)
        events = await work.apply(command)             # on the live match; into the record
        ...
    # Saved here, with the store's version check, when anything changed; nothing is saved
    # when the block raises.

Inside the block `work.row` is the match as stored, read under the match's lock: a second
unit of work on the same match in this process waits for the first to end, then sees what it
saved; another process's is refused at the save by the store's version check (Busy). The live
match is the record replayed through its ruleset, kept in memory per version (`LiveMatches`),
so most requests replay nothing; past the few hundred kept live, matches are kept frozen by their
ruleset and thawed when wanted (`skirmbot.service.kept`); one that is not in memory at all is
rebuilt from its latest snapshot (`skirmbot.service.snapshots`), in a worker thread, so that the
event loop never stalls on a long replay. The save writes the new commands, now and then a snapshot, moves the match's clock
on to what the match waits for now and tells the scheduler its next deadline, in the same
transaction.

A player's unit of work (`work`, by channel) first waits for its turn in the service's
`Admission` (`skirmbot.service.admission`): a few run at once, the others wait in arrival order,
and past the queue's bound one is refused in words (Overloaded, a Busy) before it reads
anything. The turn timers and leagues (`work_on`) are not refused: a deadline that passes must
be acted on, and they are few.
"""

from __future__ import annotations

import asyncio
import json
import time
from collections.abc import Awaitable, Callable
from contextvars import Token
from dataclasses import dataclass, replace
from types import TracebackType
from typing import Any

from skirmbot.rules import commands
from skirmbot.rules.errors import NeedsOrders, RulesError
from skirmbot.rules.events import Event
from skirmbot.rules.record import MatchRecord, replay
from skirmbot.rules.ruleset import DEFAULT_RULESET, PlayedMatch, Ruleset, ruleset
from skirmbot.rules.view import Decision, activation_key
from skirmbot.service import kept, notify, snapshots
from skirmbot.service.admission import Admission, admitted, default_admission
from skirmbot.service.errors import Busy, NotAllowed, ServiceError
from skirmbot.store import Deadline, MatchRow, Store, VersionConflict
from skirmbot.timers.clock import KEYS, Break, Clock, Stops

__all__ = [
    "ABORTED",
    "AUTOMATIC",
    "DEPLOY",
    "DEPLOYING",
    "ENDED_STATUS",
    "INFILTRATE",
    "LIVE_CACHE",
    "PLAYING",
    "SETUP",
    "LiveMatches",
    "MatchWork",
    "Member",
    "NeedsConfirmation",
    "activation_key",
    "clock_stops",
    "deciding",
    "not_playing",
    "ruleset_of",
    "seat",
    "waiting_key",
    "SEATS_DECIDING",
]

AUTOMATIC = 0  # the automatic player's "user id" in a match's players
SETUP, DEPLOYING, PLAYING, ENDED_STATUS, ABORTED = (
    "setup",
    "deploying",
    "playing",
    "ended",
    "aborted",
)
DEPLOY, INFILTRATE = "deploy", "infiltrate"  # the two stages of a deployment
# Live matches kept in memory (more are kept frozen: skirmbot.service.kept).
LIVE_CACHE = kept.LIVE
BUSY = "Someone else changed this match at the same moment; please try again."
NO_MATCH = "There is no match in this channel. Start one with /match new."
WEEKENDS = "weekends_off"  # guild setting: "1" when the server's clocks stop at weekends
# Guild setting: the minutes a player has for a decision in another player's turn (a defender's
# bonus dice) before what a missed deadline sends is sent; far shorter than a turn's clock.
REACTION_MINUTES = "reaction_minutes"
DEFAULT_REACTION_MINUTES = 10


@dataclass(frozen=True, slots=True)
class Member:
    """Who is asking: a Discord member (or a console player)."""

    id: int
    name: str
    moderator: bool = False


class NeedsConfirmation(ServiceError):
    """The action needs Tactical Orders the player did not offer; `retry` spends them."""

    def __init__(self, message: str, retry: commands.Command) -> None:
        super().__init__(message)
        self.retry = retry


class LiveMatches:
    """What every unit of work on one store shares: one lock per match, the live matches kept
    in memory (each record's replay, per stored version), the clock, and who hears of each
    match's next deadline (the scheduler)."""

    def __init__(
        self,
        store: Store,
        clock: Callable[[], float] = time.time,
        on_deadline: Callable[[int, Deadline | None], None] | None = None,
        size: int = LIVE_CACHE,
        admission: Admission | None = None,
        frozen_bytes: int = kept.FROZEN_BYTES,
    ) -> None:
        self.store = store
        # Who runs now and who waits, for the players' units of work (see the module's text).
        self.admission = admission if admission is not None else default_admission()
        self.now = clock
        self.on_deadline = on_deadline
        self.size = size  # live matches kept; `kept` says how many more are kept frozen
        self._locks: dict[int, _MatchLock] = {}
        self.kept = kept.KeptMatches(size, frozen_bytes)

    # --- units of work -------------------------------------------------------------------
    def work(self, channel_id: int) -> MatchWork:
        """The channel's active match, as a unit of work (ServiceError: there is none)."""

        async def find() -> int:
            match_id = await self.store.active_match_id(channel_id)
            if match_id is None:
                raise ServiceError(NO_MATCH)
            return match_id

        return MatchWork(self, find, admit=True)

    def work_on(self, match_id: int) -> MatchWork:
        """A match by id, as a unit of work (the turn timers and leagues know matches, not
        channels); ServiceError when there is no such match."""

        async def find() -> int:
            if await self.store.match_version(match_id) is None:
                raise ServiceError(f"There is no match #{match_id}.")
            return match_id

        return MatchWork(self, find)

    # --- reading, without a lock -------------------------------------------------------------
    async def find(self, channel_id: int, active_only: bool = True) -> MatchRow:
        """The channel's active match (or, not `active_only`, its last one) as stored now."""
        row = await self.store.active_match(channel_id)
        if row is None and not active_only:
            row = await self.store.last_match(channel_id)
        if row is None:
            raise ServiceError(NO_MATCH)
        return row

    async def match(self, row: MatchRow) -> PlayedMatch:
        """The live match of a stored row: kept in memory per version, else rebuilt from its
        latest snapshot and the commands after it. Do not change it outside a unit of work
        (`MatchWork.apply`)."""
        if row.status == SETUP:  # no squads yet: nothing to replay
            raise ServiceError(not_playing(SETUP, len(row.players)))
        cached = self.kept.get(row.id, row.version)
        if cached is not None:
            self.remember(row, cached)
            return cached
        snapshot = await self.store.snapshot(row.id) if row.snapshot_seq is not None else None
        record = MatchRecord.from_json(row.record)
        match = await asyncio.to_thread(snapshots.restore, snapshot, record)
        self.remember(row, match)
        return match

    def remember(self, row: MatchRow, match: PlayedMatch) -> None:
        """Keep the live match of the stored row, at its version (one that makes room is
        frozen, unless a unit of work holds it: it may have taken commands not saved yet)."""
        self.kept.keep(row.id, row.version, ruleset_of(row), match, self._locks.keys())

    def forget(self, match_id: int) -> None:
        self.kept.forget(match_id)

    # --- the locks ---------------------------------------------------------------------------
    async def hold(self, match_id: int) -> None:
        """Take the match's lock, after the units of work that hold it or wait for it."""
        entry = self._locks.setdefault(match_id, _MatchLock())
        entry.users += 1
        try:
            await entry.lock.acquire()
        except BaseException:  # cancelled while it waited: it no longer uses the lock
            self._let_go(match_id, entry)
            raise

    def release(self, match_id: int) -> None:
        """Give back the match's lock taken with `hold`."""
        entry = self._locks[match_id]
        entry.lock.release()
        self._let_go(match_id, entry)

    def lock_users(self) -> dict[int, int]:
        """Each match in the lock table, with how many units of work hold or wait for its lock.
        Only such matches are in it: a bot that runs for months keeps no lock for each match it
        ever saw."""
        return {match_id: entry.users for match_id, entry in self._locks.items()}

    def _let_go(self, match_id: int, entry: _MatchLock) -> None:
        entry.users -= 1
        if entry.users == 0:
            del self._locks[match_id]


class _MatchLock:
    """One match's lock and how many units of work hold it or wait for it."""

    __slots__ = ("lock", "users")

    def __init__(self) -> None:
        self.lock = asyncio.Lock()
        self.users = 0


class MatchWork:
    """One request's work on one match, under the match's lock (see the module's text)."""

    def __init__(
        self, matches: LiveMatches, find: Callable[[], Awaitable[int]], *, admit: bool = False
    ) -> None:
        self._matches, self._find = matches, find
        self._admit = admit  # wait for a turn in the service's admission first
        # While this work holds a slot: the admission it holds one in, and its context's note.
        self._slot: tuple[Admission, Token[bool]] | None = None
        self._held: int | None = None  # the id of the match whose lock this work holds
        self._row: MatchRow | None = None
        self._match: PlayedMatch | None = None  # the live match, once loaded
        self._touched = False  # a command changed the live match since it was last saved
        # The row as last read or saved, to tell whether it changed.
        self._stored: tuple[str, list[dict[str, Any]]] = ("", [])

    async def __aenter__(self) -> MatchWork:
        if self._admit and not admitted():  # (within another unit of work: admitted already)
            admission = self._matches.admission
            await admission.enter()
            self._slot = (admission, admission.mark())
        try:
            match_id = await self._find()  # (only its id: the row is read once, under the lock)
            await self._matches.hold(match_id)
        except BaseException:
            self._leave()
            raise
        try:
            row = await self._matches.store.match(match_id)  # what it is now, under the lock
        except BaseException:
            self._matches.release(match_id)
            self._leave()
            raise
        assert row is not None, "a stored match is never deleted"
        self._held, self._row, self._stored = match_id, row, _content(row)
        return self

    async def __aexit__(
        self,
        kind: type[BaseException] | None,
        error: BaseException | None,
        trace: TracebackType | None,
    ) -> None:
        assert self._held is not None
        try:
            if kind is None:
                if self.changed:
                    await self.save()
            elif self._touched:  # the kept live match took commands that were not saved
                self._matches.forget(self.row.id)
        finally:
            self._matches.release(self._held)
            self._leave()

    def _leave(self) -> None:
        """Give back the admission slot this work holds, if any."""
        if self._slot is not None:
            admission, token = self._slot
            self._slot = None
            admission.unmark(token)
            admission.leave()

    # --- the match -------------------------------------------------------------------------
    @property
    def row(self) -> MatchRow:
        """The match as stored when the work began (with this work's changes)."""
        if self._row is None:
            raise RuntimeError("a MatchWork is used inside `async with`")
        return self._row

    @property
    def id(self) -> int:
        return self.row.id

    @property
    def changed(self) -> bool:
        """Whether the row differs from what was last read or saved."""
        text, commands = _content(self.row)
        return text != self._stored[0] or not _same_commands(commands, self._stored[1])

    def seat(self, user_id: int) -> int:
        """The player's side; NotAllowed when they do not play in this match."""
        return seat(self.row, user_id)

    async def match(self) -> PlayedMatch:
        """The live match (ServiceError while squads are still being chosen)."""
        if self._match is None:
            self._match = await self._matches.match(self.row)
        return self._match

    async def in_play(self) -> PlayedMatch | None:
        """The live match while it is being played; None in set-up and deployment."""
        return await self.match() if self.row.status == PLAYING else None

    def scratch(self) -> PlayedMatch:
        """A scratch copy: the record as it stands replayed, to try a command on (a hidden
        deployment); what is done to it is not kept. The stored record replays trusted (each
        command was checked when accepted); the command tried on it is checked in full."""
        return replay(MatchRecord.from_json(self.row.record), trusted=True)

    async def apply(self, command: commands.Command) -> list[Event]:
        """Apply the command to the live match and append it to the record; what happened.
        A command the rules refuse changes nothing and raises ServiceError (NeedsConfirmation:
        it would spend Tactical Orders the player did not offer)."""
        match = await self.match()
        touched, self._touched = self._touched, True
        try:
            events = match.apply(command)
        except NeedsOrders as error:
            self._touched = touched  # an illegal command changes nothing
            retry = replace(command, orders=error.orders)  # type: ignore[call-arg]
            raise NeedsConfirmation(str(error), retry) from error
        except RulesError as error:
            self._touched = touched
            raise ServiceError(str(error)) from error
        self.row.record["commands"].append(command.to_json())
        return events

    def rewrite(self, recorded: list[dict[str, Any]]) -> PlayedMatch:
        """Put these commands in the record instead (undo takes the last back; the hidden
        deployments go in when revealed) and replay it: the new live match."""
        self.row.record["commands"] = recorded
        self._match = replay(MatchRecord.from_json(self.row.record))
        return self._match

    # --- the clock ---------------------------------------------------------------------------
    def now(self) -> float:
        return self._matches.now()

    def clock(self) -> Clock:
        """The match's clock as it stands (a copy: `keep_clock` puts it back)."""
        return Clock.from_json(self.row.setup.get("clock"))

    def keep_clock(self, clock: Clock) -> None:
        self.row.setup["clock"] = clock.to_json()

    async def advance_clock(self) -> Deadline | None:
        """Move the clock on to what the match waits for now; its next deadline. A new
        activation's time is counted without the weekends (when the server stops its clocks
        then) and the vacations of the player it waits for."""
        clock = self.clock()
        before = clock.to_json()
        clock.seat(len(self.row.players))
        match = await self.in_play()
        found = deciding(self.row, match)
        key = waiting_key(self.row, match)
        if key != clock.key:
            clock.follow(key, self.now(), _waiting(key, found), await self.stops())
            self._keep_seats_deciding(key, found)
            # Issue 34 (pnotify): a player's own, longer lead moves the reminder earlier.
            await notify.place_reminder(
                self._matches.store, self.row, clock, self._people(key, found), self.now()
            )
        reactions = {d.key: d.side for d in found if not d.turn}
        if reactions or clock.reactions:
            clock.react(reactions, self.now(), await self.reaction_seconds())
        if clock.to_json() != before:  # a clock read back unchanged is not saved again
            self.keep_clock(clock)
        return clock.next_deadline()

    def _people(self, key: str | None, found: tuple[Decision, ...]) -> list[int]:
        """The people a new key's clock may wait for: its one side's player, else (a
        deployment, several seats at once) every person in the match (issue 34: pnotify)."""
        side = _waiting(key, found)
        players = self.row.players if side is None else [self.row.players[side]]
        return [p for p in players if p is not None and p != AUTOMATIC]

    def _keep_seats_deciding(self, key: str | None, found: tuple[Decision, ...]) -> None:
        """The seats a turn's clock waits for when it waits for several at once (the clock
        keeps one seat only), for `timing.waiting_for` to read from the stored row."""
        sides = sorted({d.side for d in found if d.turn})
        if key is not None and len(sides) > 1:
            self.row.setup[SEATS_DECIDING] = sides
        else:
            self.row.setup.pop(SEATS_DECIDING, None)

    async def reaction_seconds(self) -> float:
        """How long a decision in another player's turn waits (the server's setting)."""
        stored = await self._matches.store.get_setting(self.row.guild_id, REACTION_MINUTES)
        return 60.0 * (DEFAULT_REACTION_MINUTES if stored is None else float(stored))

    async def stops(self) -> Stops:
        """When this match's clock stands still (read from the store when asked)."""
        return await clock_stops(self._matches.store, self.row, self.now())

    # --- saving ----------------------------------------------------------------------------
    async def save(self) -> None:
        """Save the match now, with its clock's next deadline, if nobody saved it since it was
        read (Busy if somebody did). The end of the block saves by itself; this is for
        what must be saved before something else happens (or before a refusal)."""
        row = self.row
        deadline = await self.advance_clock()
        snapshot = None
        if self._match is not None and snapshots.due(len(row.record["commands"]), row.snapshot_seq):
            record = MatchRecord.from_json(row.record)
            snapshot = await asyncio.to_thread(snapshots.take, self._match, record)
        try:
            saved = await self._matches.store.save_match(row, deadline=deadline, snapshot=snapshot)
        except VersionConflict as error:
            self._matches.forget(row.id)
            raise Busy(BUSY) from error
        # It may be saved again: from what is stored now.
        row.version, row.updated_at = saved.version, saved.updated_at
        row.saved_commands, row.snapshot_seq = saved.saved_commands, saved.snapshot_seq
        self._stored, self._touched = _content(row), False
        if self._match is not None:
            self._matches.remember(row, self._match)
        else:
            self._matches.forget(row.id)
        if self._matches.on_deadline is not None:
            self._matches.on_deadline(row.id, deadline)


def _content(row: MatchRow) -> tuple[str, list[dict[str, Any]]]:
    """What a save writes, to tell whether anything changed: the row without its commands as
    text, and the commands (compared one by one: most are the very objects read)."""
    header = {key: value for key, value in row.record.items() if key != "commands"}
    text = json.dumps([row.status, row.players, row.names, header, row.setup], default=str)
    return text, list(row.record["commands"])


def _same_commands(now: list[dict[str, Any]], before: list[dict[str, Any]]) -> bool:
    return len(now) == len(before) and all(
        a is b or a == b for a, b in zip(now, before, strict=True)
    )


def seat(row: MatchRow, user_id: int) -> int:
    """The player's side in the match; NotAllowed when they do not play in it."""
    if user_id not in row.players:
        names = " and ".join(name for name in row.names if name) or "its players"
        raise NotAllowed(
            f"Only {names} play in this match; watch along, or start your own in another channel."
        )
    return row.players.index(user_id)


def ruleset_of(row: MatchRow) -> Ruleset:
    """The ruleset a stored match plays, as its record names it."""
    return ruleset(str(row.record.get("ruleset", DEFAULT_RULESET)))


def deciding(row: MatchRow, match: PlayedMatch | None) -> tuple[Decision, ...]:
    """The decisions people must take now in the match being played (its ruleset's
    `deciding`, the automatic player's left out: it never waits)."""
    if row.status != PLAYING or match is None:
        return ()
    found = ruleset_of(row).deciding(match.state)
    return tuple(d for d in found if row.players[d.side] != AUTOMATIC)


# The setup's entry for the seats a turn's clock waits for, when it waits for several at once.
SEATS_DECIDING = "seats_deciding"


def waiting_key(row: MatchRow, match: PlayedMatch | None) -> str | None:
    """What the match's clock waits for now, as a key: a deployment, or the decisions of a
    turn (one side's activation: its ruleset's key for it). None: nothing a person must do in
    a turn (set-up, the automatic player's turn, the end); reactions have windows of their own."""
    if row.status == DEPLOYING:
        return str(row.setup.get("stage", DEPLOY))
    keys = [d.key for d in deciding(row, match) if d.turn]
    return KEYS.join(keys) if keys else None


def _waiting(key: str | None, found: tuple[Decision, ...]) -> int | None:
    """The one side a turn's clock waits for (None: a deployment, or several seats at once, whose
    clock stands still for any of their vacations)."""
    sides = {d.side for d in found if d.turn}
    return sides.pop() if key is not None and len(sides) == 1 else None


async def clock_stops(store: Store, row: MatchRow, now: float) -> Stops:
    """When the match's clock stands still from `now` on: its server's weekends (if it stops
    its clocks then) and its players' vacations in that server."""
    weekends = await store.get_setting(row.guild_id, WEEKENDS) == "1"
    people = [p for p in row.players if p]
    found = await store.vacations(row.guild_id, people, now) if people else []
    breaks = tuple(
        Break(side, v.starts_at, v.ends_at)
        for v in found
        for side, user in enumerate(row.players)
        if user == v.user_id
    )
    return Stops(weekends, breaks)


def not_playing(status: str, seats: int = 2) -> str:
    """Why a match in `status` (of `seats` players) cannot take a player's action."""
    every = (
        ("both players pick", "both squads deploy")
        if seats == 2
        else ("every player picks", "every squad deploys")
    )
    return {
        SETUP: f"The match has not started: {every[0]} a squad first (/match squad).",
        DEPLOYING: f"The match has not started: {every[1]} first (/deploy).",
        ENDED_STATUS: "This match is over. /match export gives its record.",
        ABORTED: "This match was aborted.",
    }.get(status, "The match is not being played.")
