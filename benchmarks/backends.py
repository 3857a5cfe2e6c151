"""SQLite and PostgreSQL side by side: a store of 10,000 matches, one command, 200 at once.

Run: `python benchmarks/backends.py [--quick] [--stored N] [--pg-fast] [--profile]`.

Both databases are filled the same way, then measured in the same run:

1. Filling: 10,000 matches (2,000 with --quick) in various statuses, most of them ended, 300
   being played, each a copy of one of a handful of whole matches the automatic player played
   out beforehand (`skirmbot.demo`), with its commands as rows, its latest state snapshot
   (every 20 commands) and, once ended, its result columns. Most matches go in by batches of
   rows in one transaction each, through the store's own connection
   (`Store.database.transaction()`) and the store's own SQL statements (the public API, one
   transaction and one fsync per match, takes much longer); the last 100 go through
   `Store.create_match`/`Store.save_match`, for the public API's time per match.
2. One command: p50/p95 of a player's command sent through `MatchService.act`, as the cogs
   send it (the save, and the picture after an activation's end, included), each on a random
   match being played; the command is the next one of the match played out beforehand, i.e.
   the automatic player's choice, so every command is legal. Cold: the match is dropped from
   the service's memory first (`LiveMatches.forget`), so the load path (the match row and its
   commands, the snapshot, the commands after it replayed) is measured. Warm: the service
   already holds the live match. The two backends take turns, command by command, so a noisy
   moment hits both alike. "in the store": the time spent inside the Store's methods.
3. 200 matches at once (100 with --quick): each match always has its next command in flight (a
   closed loop: latency is then mostly matches / throughput, Little's law), through one
   MatchService on one Store; then through two MatchServices on two Stores sharing the
   database (as two bot processes would; here both in this process, so they share its CPU),
   each match played by one of them. The matches start out of the services' memory: "ramp" is
   until every one had its first command done; counting starts a little after. Errors by kind:
   anything that reaches the caller ("database is locked" included), Busy (the store's version
   check) apart. Also printed: how long commands wait for a connection (SQLite: the store's
   lock; PostgreSQL: its pool) and hold one, CPU, event-loop stalls and GC pauses.

PostgreSQL is a throwaway server (tests/pg_server.py) started here and stopped at the end. Its
test settings trade durability for speed (fsync off); after the fill they are set back to
PostgreSQL's defaults (fsync, synchronous_commit, full_page_writes on), as durable as the
SQLite store's synchronous=FULL, unless --pg-fast. PostgreSQL gets VACUUM ANALYZE after the
fill (its autovacuum would otherwise run during the measures); SQLite only a WAL checkpoint.

The last line, `ratio: X`, is PostgreSQL's p95 over SQLite's for the cold single command. This
machine is noisy (2 cores, and the PostgreSQL server shares them): compare ratios from one run.
`--profile` runs the cold commands and the closed loop once more on each backend under cProfile
(the event loop's thread only) and prints the top entries.
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import cProfile
import gc
import inspect
import io
import json
import math
import os
import pstats
import random
import statistics
import sys
import tempfile
import time
import traceback
from collections import Counter
from collections.abc import AsyncIterator, Awaitable, Callable, Iterator
from contextlib import AbstractAsyncContextManager
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from _pg import cancel_on_sigterm, durability, pg_server, settle

from skirmbot.collector import settle_collector
from skirmbot.demo import MAX_COMMANDS, new_demo_match
from skirmbot.loopwatch import LoopWatch
from skirmbot.rules.commands import Command
from skirmbot.rules.record import MatchRecord, record_of
from skirmbot.rules.ruleset import DEFAULT_RULESET, Outcome, ruleset
from skirmbot.rules.skirm.state import ENDED
from skirmbot.service import Busy, MatchService, Member, snapshots
from skirmbot.store import MatchResult, SeatResult, Snapshot, Store
from skirmbot.store.sql import Connection, Database
from skirmbot.timers.clock import Clock, TimeControls

PLAYING = 300  # matches being played among the stored ones (the rest: mostly ended)
SHARES = {"setup": 0.01, "deploying": 0.01, "aborted": 0.04}  # of the stored; the rest ends
PUBLIC = 100  # matches stored through the public API, for its time per match
BATCH = 500  # matches per fill transaction
GUILDS = 25
PEOPLE = 4000  # distinct players the stored matches are between
FIRST_CHANNEL = 30_000_000
FIRST_PLAYER = 40_000_000
AT_ONCE = 200
RAMP_LIMIT = 60.0  # seconds the 200 matches' first commands may take before counting
SQLITE, POSTGRESQL = "sqlite", "postgresql"

# The store's own statements (skirmbot.store.database), for the fill's batches.
INSERT_MATCH = (
    "INSERT INTO matches (guild_id, channel_id, status, players, names, record, setup, version, "
    "created_at, updated_at, ruleset, winner, end_reason, ended_at) "
    "VALUES (?, ?, ?, ?, ?, ?, ?, 1, ?, ?, ?, ?, ?, ?)"
)
INSERT_COMMAND = "INSERT INTO match_commands (match_id, seq, command) VALUES (?, ?, ?)"
INSERT_SNAPSHOT = "INSERT INTO match_snapshots (match_id, seq, code, state) VALUES (?, ?, ?, ?)"
INSERT_SEAT = (
    'INSERT INTO match_players (match_id, seat, side, user_id, name, "placing", score) '
    "VALUES (?, ?, ?, ?, ?, ?, ?)"
)
EXAMPLES: dict[str, str] = {}  # the first traceback of each kind of error, printed at the end


def dumps(value: Any) -> str:
    """JSON as the store writes it."""
    return json.dumps(value, ensure_ascii=False)


# --- the matches the stored ones are copies of ---------------------------------------------
@dataclass(frozen=True)
class Template:
    """A whole match the automatic player played out: its record's header and commands, where
    the set-up ends, its state snapshots every SNAPSHOT_EVERY commands, and its outcome."""

    header: dict[str, Any]  # the record without its commands
    commands: list[dict[str, Any]]
    dumped: list[str]  # each command as the store writes it
    parsed: list[Command]
    first_play: int  # the commands before this one are the deployments
    stamp: str  # what its snapshots may only be read back by (snapshots.stamp)
    snapshots: dict[int, bytes]  # commands taken -> the snapshot's state
    outcome: Outcome

    def snapshot_at(self, commands: int) -> int | None:
        """Where the latest snapshot of a match with `commands` commands stands."""
        seq = commands // snapshots.SNAPSHOT_EVERY * snapshots.SNAPSHOT_EVERY
        return seq if seq in self.snapshots else None


def play_template(seed: int) -> Template:
    """Play a whole match between two automatic players (as `skirmbot.demo` does), keeping a
    snapshot every SNAPSHOT_EVERY commands."""
    rules = ruleset(DEFAULT_RULESET)
    match, data = new_demo_match(seed)
    # What a snapshot is stamped with: the record's header, not its commands (nor its players).
    started = MatchRecord(content=data, dice=match.dice.to_json(), ruleset=rules.name)
    state = match.state
    first_play = 0
    kept: dict[int, bytes] = {}
    for _ in range(MAX_COMMANDS):
        if state.phase == ENDED:
            break
        side = state.waiting_for()
        assert side is not None
        match.apply(rules.automatic_command(state, side))
        if rules.set_up_stage(state) is not None:
            first_play = len(match.commands) + 1
        if len(match.commands) % snapshots.SNAPSHOT_EVERY == 0:
            kept[len(match.commands)] = snapshots.take(match, started).state
    outcome = rules.outcome(state)
    assert outcome is not None, "a demo match ends"
    whole = record_of(match, data, ["Player 1", "Player 2"], rules.name)
    assert snapshots.stamp(whole) == snapshots.stamp(started)
    record = whole.to_json()
    commands = record.pop("commands")
    return Template(
        header=record,
        commands=commands,
        dumped=[dumps(command) for command in commands],
        parsed=[rules.parse_command(command) for command in commands],
        first_play=first_play,
        stamp=snapshots.stamp(whole),
        snapshots=kept,
        outcome=outcome,
    )


# --- what is stored ------------------------------------------------------------------------
@dataclass(frozen=True)
class Planned:
    """One stored match: its status, the template it copies and how far, its seats."""

    number: int
    status: str
    template: Template
    commands: int  # the template's first commands that are stored
    guild: int
    players: tuple[int, int]
    created: float

    @property
    def channel(self) -> int:
        return FIRST_CHANNEL + self.number

    @property
    def names(self) -> list[str]:
        return [f"Player {player}" for player in self.players]

    def record(self) -> dict[str, Any]:
        """The record's header as stored (the commands are rows)."""
        header = dict(self.template.header, players=self.names)
        if self.status == "setup":
            content = dict(header["content"])
            content["squads"] = [content["squads"][0], None]
            header["content"] = content
        return header

    def setup(self) -> dict[str, Any]:
        squads = [squad["name"] for squad in self.template.header["content"]["squads"]]
        if self.status == "setup":
            squads[1] = None
        return {"challenged": None, "squads": squads, "clock": Clock(TimeControls()).to_json()}

    @property
    def ended_at(self) -> float | None:
        return self.created + 3 * 86400 if self.status == "ended" else None

    def result(self) -> MatchResult | None:
        if self.ended_at is None:
            return None
        outcome = self.template.outcome
        seats = tuple(
            SeatResult(side, self.players[side], self.names[side], place, outcome.scores[side])
            for side, place in enumerate(outcome.placings)
        )
        return MatchResult(DEFAULT_RULESET, outcome.winner, outcome.reason, self.ended_at, seats)

    def snapshot(self) -> Snapshot | None:
        seq = self.template.snapshot_at(self.commands)
        if seq is None:
            return None
        return Snapshot(seq, self.template.stamp, self.template.snapshots[seq])


def plan(stored: int, templates: list[Template], rng: random.Random) -> list[Planned]:
    """The stored matches, statuses shuffled: PLAYING being played, a few in set-up or
    deployment, some aborted, the rest ended."""
    statuses = ["playing"] * PLAYING
    for status, share in SHARES.items():
        statuses += [status] * round(stored * share)
    statuses += ["ended"] * (stored - len(statuses))
    rng.shuffle(statuses)
    now = time.time()
    planned = []
    for number, status in enumerate(statuses):
        template = templates[number % len(templates)]
        total = len(template.commands)
        commands = {
            "setup": 0,
            "deploying": 0,
            "ended": total,
            # Being played: somewhere between the first turn and the last fifth of the match.
            "playing": rng.randint(template.first_play, int(total * 0.8)),
            "aborted": rng.randint(template.first_play, total - 1),
        }[status]
        first, second = rng.sample(range(PEOPLE), 2)
        planned.append(
            Planned(
                number=number,
                status=status,
                template=template,
                commands=commands,
                guild=1 + number % GUILDS,
                players=(FIRST_PLAYER + first, FIRST_PLAYER + second),
                created=now - rng.uniform(3, 365) * 86400,
            )
        )
    return planned


async def fill_in_batches(store: Store, planned: list[Planned]) -> dict[int, int]:
    """Store the matches a batch at a time (one transaction each), with the store's SQL; their
    ids by channel."""
    ids: dict[int, int] = {}
    for start in range(0, len(planned), BATCH):
        batch = planned[start : start + BATCH]
        async with store.database.transaction() as db:
            await db.executemany(
                INSERT_MATCH,
                [
                    (m.guild, m.channel, m.status, dumps(list(m.players)), dumps(m.names),
                     dumps(m.record()), dumps(m.setup()), m.created, m.ended_at or m.created,
                     DEFAULT_RULESET, m.template.outcome.winner if m.ended_at else None,
                     m.template.outcome.reason if m.ended_at else None, m.ended_at)
                    for m in batch
                ],
            )  # fmt: skip
            found = await db.fetch(
                "SELECT id, channel_id FROM matches WHERE channel_id >= ? AND channel_id <= ?",
                (batch[0].channel, batch[-1].channel),
            )
            ids.update({int(row[1]): int(row[0]) for row in found})
            await db.executemany(
                INSERT_COMMAND,
                [
                    (ids[m.channel], seq, m.template.dumped[seq])
                    for m in batch
                    for seq in range(m.commands)
                ],
            )
            kept = [(ids[m.channel], snap) for m in batch if (snap := m.snapshot()) is not None]
            await db.executemany(
                INSERT_SNAPSHOT, [(id_, s.seq, s.code, s.state) for id_, s in kept]
            )
            results = [(ids[m.channel], result) for m in batch if (result := m.result())]
            await db.executemany(
                INSERT_SEAT,
                [
                    (id_, seat.seat, seat.side, seat.user_id, seat.name, seat.placing, seat.score)
                    for id_, result in results
                    for seat in result.seats
                ],
            )
    return ids


async def fill_through_api(store: Store, planned: list[Planned]) -> dict[int, int]:
    """Store the matches as the service does: create_match, then save_match for the result
    and the snapshot. Their ids by channel."""
    ids = {}
    for m in planned:
        record = dict(m.record(), commands=m.template.commands[: m.commands])
        row = await store.create_match(
            m.guild, m.channel, list(m.players), m.names, record, m.setup(), m.status
        )
        row.result = m.result()
        snapshot = m.snapshot()
        if row.result is not None or snapshot is not None:
            row = await store.save_match(row, snapshot=snapshot)
        ids[m.channel] = row.id
    return ids


# --- playing -------------------------------------------------------------------------------
@dataclass
class Playing:
    """A stored match being played, and where it stands in its template."""

    channel: int
    match_id: int
    members: tuple[Member, Member]
    template: Template
    position: int  # the template's command to send next

    @property
    def over(self) -> bool:
        return self.position >= len(self.template.commands)

    def next(self) -> tuple[Member, Command]:
        command = self.template.parsed[self.position]
        return self.members[command.side], command


@dataclass
class Tally:
    """Commands done and their latencies (while counting), and every refusal or error."""

    counting: bool = True
    latencies: list[float] = field(default_factory=list)
    store: list[float] = field(default_factory=list)  # time inside the Store, per command
    calls: list[int] = field(default_factory=list)  # Store calls, per command
    errors: Counter[str] = field(default_factory=Counter)
    busy: int = 0

    def error(self, error: Exception) -> None:
        text = str(error).splitlines()[0] if str(error) else ""
        kind = f"{type(error).__name__}: {text[:70]}"
        self.errors[kind] += 1
        EXAMPLES.setdefault(kind, "".join(traceback.format_exception(error)))


async def send(service: MatchService, playing: Playing, tally: Tally) -> bool:
    """Send the match's next command as its player would; whether it was done."""
    member, command = playing.next()
    try:
        await service.act(playing.channel, member, command)
    except Busy:
        tally.busy += 1
        return False
    except Exception as error:  # every error that reaches a cog counts
        tally.error(error)
        await resync(service.store, playing)
        return False
    playing.position += 1
    return True


async def resync(store: Store, playing: Playing) -> None:
    """After an error: go on from what is stored (or drop the match)."""
    try:
        row = await store.match(playing.match_id)
    except Exception:  # the store fails too: leave the match
        row = None
    if row is None or row.status != "playing":
        playing.position = len(playing.template.commands)
    else:
        playing.position = len(row.record["commands"])


class StoreTimer:
    """Time spent inside a Store's public methods (outermost calls only), while on."""

    def __init__(self, store: Store) -> None:
        self.store = store
        self.seconds = 0.0
        self.calls = 0
        self._depth = 0
        self._names = [
            name
            for name in dir(Store)
            if not name.startswith("_") and inspect.iscoroutinefunction(getattr(Store, name))
        ]

    def _timed(self, method: Callable[..., Awaitable[Any]]) -> Callable[..., Awaitable[Any]]:
        async def timed(*args: Any, **kwargs: Any) -> Any:
            if self._depth:
                return await method(*args, **kwargs)
            self._depth += 1
            began = time.perf_counter()
            try:
                return await method(*args, **kwargs)
            finally:
                self._depth -= 1
                self.seconds += time.perf_counter() - began
                self.calls += 1

        return timed

    @contextlib.contextmanager
    def on(self) -> Iterator[StoreTimer]:
        for name in self._names:
            setattr(self.store, name, self._timed(getattr(self.store, name)))
        try:
            yield self
        finally:
            for name in self._names:
                delattr(self.store, name)

    def reset(self) -> None:
        self.seconds, self.calls = 0.0, 0


class ConnectionWatch:
    """How long the Stores wait for a connection (SQLite: the store's lock, and for a write
    the file's write lock; PostgreSQL: a connection of the pool, and BEGIN) and then hold it,
    while `counting`. Wraps the databases' `reading` and `transaction` (unwrapped at the end)."""

    def __init__(self, databases: list[Database]) -> None:
        self.databases = databases
        self.counting = False
        self.waits: list[float] = []
        self.holds: list[float] = []

    def _timed(
        self, opened: Callable[[], AbstractAsyncContextManager[Connection]]
    ) -> Callable[[], AbstractAsyncContextManager[Connection]]:
        @contextlib.asynccontextmanager
        async def timed() -> AsyncIterator[Connection]:
            began = time.perf_counter()
            async with opened() as connection:
                got = time.perf_counter()
                try:
                    yield connection
                finally:
                    if self.counting:
                        self.waits.append(got - began)
                        self.holds.append(time.perf_counter() - got)

        return timed

    def __enter__(self) -> ConnectionWatch:
        for database in self.databases:
            for name in ("reading", "transaction"):
                setattr(database, name, self._timed(getattr(database, name)))
        return self

    def __exit__(self, *exc: object) -> None:
        for database in self.databases:
            for name in ("reading", "transaction"):
                delattr(database, name)


class GcPauses:
    """The garbage collector's pauses (it holds the GIL: every thread, the event loop's too,
    stops), while `counting`."""

    def __init__(self) -> None:
        self.counting = False
        self.longest = 0.0
        self.total = 0.0
        self._began = 0.0

    def _note(self, phase: str, info: dict[str, int]) -> None:
        if phase == "start":
            self._began = time.perf_counter()
        elif self.counting:
            pause = time.perf_counter() - self._began
            self.longest = max(self.longest, pause)
            self.total += pause

    def __enter__(self) -> GcPauses:
        gc.callbacks.append(self._note)
        return self

    def __exit__(self, *exc: object) -> None:
        gc.callbacks.remove(self._note)


def server_seconds(pid: int | None) -> float:
    """CPU seconds used so far by the PostgreSQL server (the postmaster `pid` and its
    children, from /proc); 0 without a server."""
    if pid is None:
        return 0.0
    ticks = 0
    for stat in Path("/proc").glob("[0-9]*/stat"):
        try:
            fields = stat.read_text().rsplit(")", 1)[1].split()
        except OSError:  # the process ended meanwhile
            continue
        # After the name: state, ppid, ... utime and stime are the 12th and 13th.
        if int(stat.parent.name) == pid or int(fields[1]) == pid:
            ticks += int(fields[11]) + int(fields[12])
    return ticks / os.sysconf("SC_CLK_TCK")


@dataclass
class Backend:
    """One database: its store and service, and its matches being played."""

    name: str
    url: str
    store: Store
    service: MatchService
    playing: list[Playing]
    rng: random.Random
    server_pid: int | None = None  # PostgreSQL's postmaster
    figures: dict[str, str] = field(default_factory=dict)
    p95_cold: float = 0.0

    def pick(self) -> Playing:
        live = [playing for playing in self.playing if not playing.over]
        return self.rng.choice(live)


async def single_commands(backends: list[Backend], count: int, cold: bool) -> list[Tally]:
    """`count` commands on each backend, the backends taking turns, each on a random match
    being played: cold (the live match forgotten first) or warm (loaded first, untimed)."""
    tallies = [Tally() for _ in backends]
    timers = [StoreTimer(backend.store) for backend in backends]
    with contextlib.ExitStack() as stack:
        for timer in timers:
            stack.enter_context(timer.on())
        for _ in range(count):
            for backend, tally, timer in zip(backends, tallies, timers, strict=True):
                playing = backend.pick()
                if cold:
                    backend.service.live.forget(playing.match_id)
                else:
                    await backend.service.view(playing.channel)
                timer.reset()
                began = time.perf_counter()
                if await send(backend.service, playing, tally):
                    tally.latencies.append(time.perf_counter() - began)
                    tally.store.append(timer.seconds)
                    tally.calls.append(timer.calls)
    return tallies


@dataclass
class Loop:
    """A closed loop's figures (over the counted seconds, but `ramp`)."""

    tally: Tally
    ramp: float  # until every match had its first command done (all of them cold)
    seconds: float
    cpu: float  # this process's CPU time over the wall time
    server_cpu: float  # the PostgreSQL server's
    stall: float  # the event loop's longest stall
    connections: ConnectionWatch
    gc: GcPauses

    @property
    def rate(self) -> float:
        return len(self.tally.latencies) / self.seconds


async def closed_loop(
    services: list[MatchService],
    matches: list[Playing],
    at_once: int,
    warm: float,
    seconds: float,
    server_pid: int | None = None,
) -> Loop:
    """`at_once` matches, each always with its next command in flight, match i played by
    services[i % len(services)]; counted for `seconds`, from `warm` seconds after every match
    had its first command done (they start out of the services' memory). A match that ends is
    replaced by another from `matches`."""
    spare = [playing for playing in matches if not playing.over]
    tally = Tally(counting=False)
    stop, ramped = asyncio.Event(), asyncio.Event()
    waiting = [at_once]  # matches whose first command is not done yet

    def take() -> Playing | None:
        while spare:
            playing = spare.pop()
            if not playing.over:
                return playing
        return None

    def started() -> None:
        waiting[0] -= 1
        if waiting[0] == 0:
            ramped.set()

    async def play(index: int) -> None:
        service = services[index % len(services)]
        playing = take()
        first = True
        while playing is not None and not stop.is_set():
            counting = tally.counting
            began = time.perf_counter()
            done = await send(service, playing, tally)
            if done and counting and tally.counting:
                tally.latencies.append(time.perf_counter() - began)
            if first:
                first = False
                started()
            if playing.over:
                playing = take()
        if first:
            started()

    connections = ConnectionWatch([service.store.database for service in services])
    with connections, GcPauses() as pauses:
        async with LoopWatch() as watch:
            began = time.perf_counter()
            tasks = [asyncio.create_task(play(index)) for index in range(at_once)]
            with contextlib.suppress(TimeoutError):
                await asyncio.wait_for(ramped.wait(), RAMP_LIMIT)
            ramp = time.perf_counter() - began
            await asyncio.sleep(warm)
            watch.reset()
            cpu, server = time.process_time(), server_seconds(server_pid)
            began = time.perf_counter()
            tally.counting = connections.counting = pauses.counting = True
            await asyncio.sleep(seconds)
            tally.counting = connections.counting = pauses.counting = False
            measured = time.perf_counter() - began
            cpu = (time.process_time() - cpu) / measured
            server = (server_seconds(server_pid) - server) / measured
            stall = watch.longest
            stop.set()
            await asyncio.gather(*tasks)
    return Loop(tally, ramp, measured, cpu, server, stall, connections, pauses)


# --- figures -------------------------------------------------------------------------------
def quantile(samples: list[float], fraction: float) -> float:
    """The nearest-rank quantile (0 with no samples)."""
    if not samples:
        return 0.0
    ordered = sorted(samples)
    return ordered[max(0, math.ceil(fraction * len(ordered)) - 1)]


def ms(seconds: float) -> str:
    return f"{seconds * 1000:,.1f}" if seconds < 0.1 else f"{seconds * 1000:,.0f}"


def errors_of(tally: Tally) -> str:
    found = [f"{count} {kind}" for kind, count in tally.errors.most_common()]
    return "; ".join(found) if found else "none"


@dataclass
class Plan:
    stored: int
    templates: int
    commands: int  # single commands, cold and warm each, per backend
    at_once: int
    warm: float
    seconds: float


def plan_of(args: argparse.Namespace) -> Plan:
    if args.quick:
        chosen = Plan(2000, templates=3, commands=40, at_once=100, warm=0.5, seconds=4.0)
    else:
        chosen = Plan(10_000, templates=6, commands=200, at_once=AT_ONCE, warm=2.0, seconds=12.0)
    if args.stored:
        chosen.stored = args.stored
    if chosen.stored < PLAYING + PUBLIC + 10:
        raise SystemExit(f"--stored must be at least {PLAYING + PUBLIC + 10}")
    return chosen


# --- the run -------------------------------------------------------------------------------
async def database_size(backend: Backend) -> str:
    if backend.name == SQLITE:
        path = Path(backend.url)
        size = sum(p.stat().st_size for p in path.parent.glob(path.name + "*"))
    else:
        async with backend.store.database.reading() as db:
            row = await db.fetchone("SELECT pg_database_size(current_database())")
        size = int(row[0]) if row is not None else 0
    return f"{size / 2**20:,.0f} MB"


async def fill(
    name: str,
    url: str,
    planned: list[Planned],
    server: pg_server.Server | None,
    fast_pg: bool,
) -> Backend:
    """Open the store, fill it, settle it; the backend, with its fill's figures."""
    store = await Store.open(url)
    try:
        began = time.perf_counter()
        ids = await fill_in_batches(store, planned[:-PUBLIC])
        batches = time.perf_counter() - began
        began = time.perf_counter()
        ids.update(await fill_through_api(store, planned[-PUBLIC:]))
        public = (time.perf_counter() - began) / PUBLIC
        await settle(store, durable=not fast_pg)
    except BaseException:
        await store.close()
        raise
    playing = [
        Playing(
            channel=m.channel,
            match_id=ids[m.channel],
            members=(Member(m.players[0], m.names[0]), Member(m.players[1], m.names[1])),
            template=m.template,
            position=m.commands,
        )
        for m in planned
        if m.status == "playing"
    ]
    backend = Backend(name, url, store, MatchService(store), playing, random.Random(11))
    backend.server_pid = server.pid if server is not None else None
    total = batches + public * PUBLIC
    backend.figures["fill"] = f"{total:.1f} s"
    backend.figures["fill_public"] = (
        f"{ms(public)} ms/match (x{len(planned):,}: {public * len(planned):,.0f} s)"
    )
    backend.figures["size"] = await database_size(backend)
    print(
        f"{name}: {len(planned):,} matches stored in {total:.1f} s ({batches:.1f} s in batches "
        f"of {BATCH}; the last {PUBLIC} through create_match/save_match: {ms(public)} ms each, "
        f"{public * len(planned):,.0f} s for all {len(planned):,} that way); "
        f"{backend.figures['size']}",
        flush=True,
    )
    return backend


async def loops(backend: Backend, chosen: Plan, stores: int) -> Loop:
    """The closed loop with `stores` Stores (and a MatchService on each)."""
    extra = [await Store.open(backend.url) for _ in range(stores - 1)]
    try:
        services = [MatchService(store) for store in [backend.store, *extra]]
        matches = [playing for playing in backend.playing if not playing.over]
        backend.rng.shuffle(matches)
        loop = await closed_loop(
            services, matches, chosen.at_once, chosen.warm, chosen.seconds, backend.server_pid
        )
    finally:
        for store in extra:
            await store.close()
    tally, watch = loop.tally, loop.connections
    server = f", the server {loop.server_cpu:.0%}" if backend.server_pid is not None else ""
    print(
        f"{backend.name}, {chosen.at_once} at once, {stores} store{'s' if stores > 1 else ''}: "
        f"first commands of all {chosen.at_once} (cold) done in {loop.ramp:.1f} s; then "
        f"{loop.rate:.1f} commands/s, p50 {ms(quantile(tally.latencies, 0.5))} ms, "
        f"p95 {ms(quantile(tally.latencies, 0.95))} ms; Busy {tally.busy}; errors: "
        f"{errors_of(tally)}\n"
        f"    waiting for a connection p50 {ms(quantile(watch.waits, 0.5))} ms, "
        f"p95 {ms(quantile(watch.waits, 0.95))} ms, holding it p50 "
        f"{ms(quantile(watch.holds, 0.5))} ms, p95 {ms(quantile(watch.holds, 0.95))} ms "
        f"({len(watch.waits) / max(1, len(tally.latencies)):.1f} a command); CPU: this process "
        f"{loop.cpu:.0%} of a core{server}; event loop stalls up to {ms(loop.stall)} ms, "
        f"GC pauses up to {ms(loop.gc.longest)} ms ({loop.gc.total / loop.seconds:.0%} of the "
        "time)",
        flush=True,
    )
    return loop


def report_single(backends: list[Backend], tallies: list[Tally], label: str) -> None:
    for backend, tally in zip(backends, tallies, strict=True):
        p50, p95 = quantile(tally.latencies, 0.5), quantile(tally.latencies, 0.95)
        s50, s95 = quantile(tally.store, 0.5), quantile(tally.store, 0.95)
        calls = statistics.mean(tally.calls) if tally.calls else 0
        backend.figures[label] = f"{ms(p50)} / {ms(p95)} ms"
        backend.figures[f"{label} store"] = f"{ms(s50)} / {ms(s95)} ms"
        if label == "cold":
            backend.p95_cold = p95
        trouble = tally.errors or tally.busy
        errors = f"; Busy {tally.busy}; errors: {errors_of(tally)}" if trouble else ""
        print(
            f"{backend.name}, one command, {label}: p50 {ms(p50)} ms, p95 {ms(p95)} ms, "
            f"max {ms(max(tally.latencies, default=0))} ms ({len(tally.latencies)} commands); "
            f"in the store p50 {ms(s50)} ms, p95 {ms(s95)} ms, {calls:.1f} calls "
            f"a command{errors}",
            flush=True,
        )


def loop_figure(loop: Loop) -> str:
    tally = loop.tally
    return (
        f"{loop.rate:.0f} cmd/s, p95 {ms(quantile(tally.latencies, 0.95))} ms, "
        f"{sum(tally.errors.values())} err, {tally.busy} Busy"
    )


def table(backends: list[Backend], at_once: int) -> None:
    rows = [
        ("fill", "fill"),
        ("  public API", "fill_public"),
        ("database size", "size"),
        ("command cold p50/p95", "cold"),
        ("  in the store", "cold store"),
        ("command warm p50/p95", "warm"),
        ("  in the store", "warm store"),
        (f"{at_once} at once, 1 store", "loop1"),
        ("  ramp (all cold)", "ramp1"),
        (f"{at_once} at once, 2 stores", "loop2"),
        ("  ramp (all cold)", "ramp2"),
    ]
    width = max(12, *(len(b.figures.get(key, "")) for _, key in rows for b in backends))
    print()
    print(f"{'':24}" + "".join(f"{backend.name:<{width + 2}}" for backend in backends))
    for label, key in rows:
        print(f"{label:<24}" + "".join(f"{b.figures.get(key, '-'):<{width + 2}}" for b in backends))


async def profiled(backends: list[Backend], chosen: Plan) -> None:
    """The cold commands and the closed loop once more on each backend, under cProfile."""
    for backend in backends:
        for what in ("cold commands", f"{chosen.at_once} at once"):
            profile = cProfile.Profile()
            profile.enable()
            if what == "cold commands":
                await single_commands([backend], chosen.commands, cold=True)
            else:
                matches = [playing for playing in backend.playing if not playing.over]
                await closed_loop(
                    [MatchService(backend.store)],
                    matches,
                    chosen.at_once,
                    chosen.warm,
                    chosen.seconds,
                )
            profile.disable()
            text = io.StringIO()
            stats = pstats.Stats(profile, stream=text)
            stats.sort_stats("tottime").print_stats(25)
            stats.sort_stats("cumulative").print_stats(40)
            print(f"--- profile: {backend.name}, {what} ---")
            print(text.getvalue())


async def measure(args: argparse.Namespace, server: pg_server.Server, folder: Path) -> int:
    cancel_on_sigterm()
    chosen = plan_of(args)
    started = time.perf_counter()
    templates = [play_template(seed) for seed in range(chosen.templates)]
    lengths = [len(template.commands) for template in templates]
    sizes = [len(state) for template in templates for state in template.snapshots.values()]
    print(
        f"{len(templates)} matches played out by the automatic player: "
        f"{min(lengths)}-{max(lengths)} commands, snapshots of "
        f"{statistics.mean(sizes) / 1024:.0f} KB ({time.perf_counter() - started:.1f} s)",
        flush=True,
    )
    planned = plan(chosen.stored, templates, random.Random(5))
    statuses = Counter(m.status for m in planned)
    print("stored: " + ", ".join(f"{count:,} {status}" for status, count in statuses.items()))
    pg_url = await pg_server.create_database(server.url, "skirmbot_bench")
    async with contextlib.AsyncExitStack() as stack:
        backends = []
        for name, url in ((SQLITE, str(folder / "backends.db")), (POSTGRESQL, pg_url)):
            own = server if name == POSTGRESQL else None
            backend = await fill(name, url, planned, own, args.pg_fast)
            stack.push_async_callback(backend.store.close)
            backends.append(backend)
        for backend in backends:
            print(f"{backend.name}: {await durability(backend.store)}")
        settle_collector()  # as the bot does once it has started
        for label, cold in (("cold", True), ("warm", False)):
            report_single(backends, await single_commands(backends, chosen.commands, cold), label)
        for backend in backends:
            for stores in (1, 2):
                loop = await loops(backend, chosen, stores)
                backend.figures[f"loop{stores}"] = loop_figure(loop)
                backend.figures[f"ramp{stores}"] = f"{loop.ramp:.1f} s"
        if args.profile:
            await profiled(backends, chosen)
        table(backends, chosen.at_once)
    for kind, text in list(EXAMPLES.items())[:3]:
        print(f"\nfirst {kind}:\n{text.rstrip()}")
    print(f"whole run: {time.perf_counter() - started:.0f} s")
    sqlite, postgres = backends
    print(f"ratio: {postgres.p95_cold / sqlite.p95_cold:.2f}")
    return 0


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0] if __doc__ else None)
    parser.add_argument("--quick", action="store_true", help="2,000 matches, 100 at once")
    parser.add_argument("--stored", type=int, help="matches to store (10,000; 2,000 quick)")
    parser.add_argument(
        "--pg-fast", action="store_true", help="keep the test server's fsync=off settings"
    )
    parser.add_argument("--profile", action="store_true", help="profile, and print the top")
    args = parser.parse_args(argv)
    server = pg_server.start()
    try:
        with tempfile.TemporaryDirectory(prefix="skirmbot-backends-") as folder:
            return asyncio.run(measure(args, server, Path(folder)))
    except (KeyboardInterrupt, asyncio.CancelledError):  # Ctrl-C, or SIGTERM
        print("interrupted: the PostgreSQL server is stopped", file=sys.stderr)
        return 130
    finally:
        server.stop()


if __name__ == "__main__":
    sys.exit(main())
