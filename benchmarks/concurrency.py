"""Many matches at once in one bot process, on SQLite and on PostgreSQL: activations per second,
an activation's latency, overload, and memory.

Run: `python benchmarks/concurrency.py [--quick] [--levels 1,10,200,1000]
[--backends sqlite,postgresql] [--pg-fast]`, or `python benchmarks/concurrency.py --profile FILE`
for where the time goes with 200 at once (on the first backend).

First, once: what a live match costs, per ruleset (every package of
`skirmbot.rules.ruleset.PACKAGES`): a demo match (`skirmbot.demo.play_demo`) has half its record
replayed, trusted as the service restores its own records, and the line gives the Python memory
the replayed match holds (tracemalloc, after a collection; a first replay untraced fills the
process's shared caches) and the size of its snapshot (`snapshots.take`), with its commands.

Then one section per backend, in the order of `--backends` (default: SQLite, then PostgreSQL;
`--quick`: SQLite alone unless named), each headed by its name and measured the same way. The
SQLite store is a temporary file; PostgreSQL is a throwaway server (tests/pg_server.py, as
benchmarks/backends.py starts it) stopped at the end, even on an error or Ctrl-C; when it cannot
start here (no binaries), the run says so and goes on without it. Each store is filled with
enough matches for the whole section (about 5,000 in a full run, 2,000 at least) being played:
copies, saved through the Store, of a few matches the automatic player played out beforehand,
each stopped at a random activation of its first two thirds (so their records have different
lengths), between players of their own, in channels of their own. Then it is settled as in
backends.py (benchmarks/_pg.py): SQLite's WAL checkpointed; PostgreSQL vacuumed and analysed,
and its test settings (fsync off) set back to PostgreSQL's durable defaults unless --pg-fast.

One MatchService per section plays them as the bot does: every command is `MatchService.act`
(what the cogs' slash commands and buttons call), and the battlemap picture is drawn after each
activation (`reply_to`). An activation is a unit's commands (move, shoot, melee, the rolls'
accept and re-rolls) up to and including its end. The commands are the automatic player's
choices (the ruleset's `automatic_command`), decided beforehand, so the players' thinking is not
timed and every command is legal. Each level plays matches not played before; where the
level's matches all fit in what the service keeps in memory between commands (its live matches,
and its frozen ones within their bytes: skirmbot.service.kept; `held_in_memory` counts them with
a match of the scripts frozen half way as the measure of one), each plays one activation untimed
first, so they are timed as while they are being played: a match played again is found in
memory, live or frozen (past the live ones, each command thaws its match). Where they do not
fit, nothing is warmed, and each command finds its match wherever the service keeps it then
(from the store, for most): that is what is timed.

At each level of N matches playing at once it measures:

(a) saturated throughput, closed loop: each of the N matches always has its next activation in
    flight (the next begins when the previous ends), so the server is never idle, until each
    has played its share of a fixed number of activations (a time window would not do: N
    matches started together advance nearly in step, each command waiting for the others' at
    the store and in the loop, so a window shorter than N commands' work may see none end).
    Activations per second, and the ratio to the single-match figure (a single match is
    measured first and again after the other levels: the figure is the mean of the two). Its
    latencies are printed but mean little: with N activations always in flight, Little's law
    makes an activation take N / throughput (p95 with 200 matches is about 200 / throughput),
    whatever the server does.
(b) latency under an open-loop load: activations arrive at 60% of the single-match throughput
    in all, spread over the N matches (a Poisson process for each match; an activation that
    arrives while its match's previous one runs waits for it, and the wait counts), and p50 and
    p95 of the time from an activation's arrival to its picture. Below saturation this says how
    the server serves each request. Arrivals stop after the window; an activation not begun a
    quarter of the window after that (or still running then) is counted unserved, with the time
    it had waited as its latency (a lower bound: the percentiles are then marked `>=`).

(c) overload (issue 32): after the levels, the largest level measured (1,000 matches in a full
    run) is offered four times the single-match throughput (open loop, as in (b), over a shorter
    window) twice: first with no bound on the units of work in flight (as the service was before
    its admission), then with the service's first-come-first-served admission, its queue bounded
    to the commands a single match serves in a second (so that this load overflows it; the
    bot's own bound is far larger). A refused command ("The bot is busy") is asked again half a
    second later, as a player would. Each prints how many commands were admitted in their
    arrival order, how many were refused, and p50/p95 of the activations served (arrival to
    picture) with the share answered within Discord's 3 s.

Each level also prints the longest event-loop stall seen (skirmbot.loopwatch): a stall holds up
Discord's gateway heartbeat and every other player's acknowledgement; and the garbage
collector's pauses, whose full collections walk every live object, in whichever thread
allocates when one is due. "CPU" is this process's CPU time (all threads) over wall time: the
PostgreSQL server's is not in it.

Each section ends with its own lines:
- `p95: ...`: the open-loop p95 (b) of its largest level (the issue's target: under 250 ms with
  1,000 matches at once);
- `200 at once: ...`: the single-match throughput over the 200-match one, when 200 is measured
  and is not the largest level;
- `peak RSS by phase: ...`: the peak of each phase of the section (the fill, the closed
  loops, the open loops, the overload without a bound, the overload with the admission), to
  tell which one the section's peak comes from;
- `memory: peak RSS N MB with the service's admission; M MB with the unbounded overload (S MB at
  the start ...)`: the process's peak resident memory while that backend was measured, sampled
  from /proc's VmRSS every 20 ms in a thread: N over every phase but the overload without a
  bound (the service as it runs: the issue's target, at most 500 MB with 1,000 matches), M over
  all of them (the unbounded overload shows the service as it was before its admission: every
  command in flight at once, each holding its live match); the start figure is what the process
  held before: the earlier sections' objects are freed first, but the allocator keeps much of
  their memory, so a later section's peak may overstate its own (`--backends postgresql` alone
  gives PostgreSQL's own);
- `ratio: X`: the single-match throughput over the throughput with the largest level measured
  (1,000 at once in a full run), both closed loop and in the same section (the issue's target:
  at most 1.5, i.e. 1,000 at once at least 0.67x of one match).
The run ends with one line per backend (its largest level's ratio, p95 and peak memory) and a
last line, `ratio: X`, the largest (worst) of the sections' ratios: the target must hold on
every backend.

Each section keeps to about 165 s, its fill included (90 s with --quick): a level that
would take longer than the time left (at the throughput of the level before) is left out, and
said so; the whole run on both backends takes about 6 minutes. This machine is noisy, and
shared (and the PostgreSQL server shares its cores): the load average is printed at the start
and the end; compare ratios from one run, not raw figures.

`--profile FILE [--profile-at N]` runs, instead, the closed loop of 200 (N) matches under
cProfile on the first backend (after one activation each unprofiled, which loads them), writes
the profile to FILE and prints the top costs of the event loop's thread as shares of the wall
time, and beside them the time spent in `asyncio.to_thread` workers (which cProfile does not
see), per function.
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import cProfile
import ctypes
import functools
import gc
import itertools
import math
import os
import pstats
import random
import statistics
import sys
import tempfile
import threading
import time
import tracemalloc
from collections import defaultdict
from collections.abc import AsyncIterator, Callable, Iterator
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import Any, TypeVar

from _pg import cancel_on_sigterm, durability, pg_server, settle

from skirmbot.collector import settle_collector
from skirmbot.demo import default_content, play_demo
from skirmbot.loopwatch import LoopWatch, Stalls
from skirmbot.rules.commands import Command
from skirmbot.rules.record import MatchRecord, replay, start_match
from skirmbot.rules.ruleset import DEFAULT_RULESET, ruleset, rulesets
from skirmbot.rules.skirm.state import ENDED
from skirmbot.service import MatchService, Member, ServiceError, snapshots
from skirmbot.service.admission import Admission, Overloaded
from skirmbot.store import Store
from skirmbot.store.sql import POSTGRESQL, SQLITE
from skirmbot.timers.clock import Clock, TimeControls

STORED = 2000  # matches in the store at the start
TEMPLATES = 8  # distinct matches (dice seeds) the stored ones are copies of
GUILD = 1
FIRST_CHANNEL = 10_000_000
FIRST_PLAYER = 20_000_000
OFFERED = 0.6  # the open loop offers this share of the single-match throughput
ENDS = {"activation_ended", "turn_started", "match_ended"}  # a picture is drawn after these
OVERLOAD = 4.0  # the overload runs offer this multiple of the single-match throughput
RETRY = 0.5  # seconds a player told "the bot is busy" waits before asking again
DISCORD = 3.0  # seconds Discord waits for an interaction's first answer
UNBOUNDED = "no bound"  # the overload run without the admission (how the service was before)
COMPARED = 200  # the level a line of each section also compares with a single match
P95_TARGET = 0.25  # seconds: the open-loop p95 with 1,000 matches at once
SPARE = 500  # matches stored beyond the levels' needs, for those that end and are replaced
BACKENDS = (SQLITE, POSTGRESQL)  # measured in this order unless --backends says otherwise
PG_DATABASE = "skirmbot_concurrency"
SAMPLE_EVERY = 0.02  # seconds between two samples of the process's resident memory
MEMORY_SEED = 3  # the demo match whose replay tells what a live match costs
T = TypeVar("T")


# --- the matches ---------------------------------------------------------------------------
@dataclass
class Script:
    """A match the automatic player played out: its record before the first activation, and
    each activation's commands with the side that sends them."""

    record: dict[str, Any]  # the record as stored once both squads are deployed
    activations: list[list[tuple[int, Command]]]


def play_out(seed: int) -> Script:
    """Play a whole match between two automatic players (as `skirmbot.demo` does), keeping
    the commands: the set-up ones go into the record, the others are cut into activations."""
    rules = ruleset(DEFAULT_RULESET)
    record = MatchRecord(content=default_content(), dice={"seed": seed}, ruleset=rules.name)
    match = start_match(record)
    state = match.state
    set_up: list[dict[str, Any]] = []
    activations: list[list[tuple[int, Command]]] = []
    current: list[tuple[int, Command]] = []
    while state.phase != ENDED:
        side = state.waiting_for()
        assert side is not None
        in_set_up = rules.set_up_stage(state) is not None
        command = rules.automatic_command(state, side)
        events = match.apply(command)
        if in_set_up:
            set_up.append(command.to_json())
            continue
        current.append((side, command))
        if any(event.kind in ENDS for event in events):
            activations.append(current)
            current = []
    assert not current, "a match ends with an activation's end"
    record.commands = set_up
    return Script(record.to_json(), activations)


@dataclass
class Playing:
    """One stored match and the activations left to play in it."""

    channel: int
    members: tuple[Member, Member]
    script: Script
    next: int  # the activation to play next

    @property
    def over(self) -> bool:
        return self.next >= len(self.script.activations)


class Matches:
    """The stored matches not played yet, handed out one by one (new ones are stored when they
    run out)."""

    def __init__(self, store: Store, scripts: list[Script], rng: random.Random) -> None:
        self.store, self.scripts, self.rng = store, scripts, rng
        self.fresh: list[Playing] = []
        self.stored = 0

    async def add(self) -> Playing:
        """Store one more match: a copy of a script stopped at a random activation of its first
        two thirds, between two new players, in a channel of its own."""
        number = self.stored
        self.stored += 1
        script = self.scripts[number % len(self.scripts)]
        start = self.rng.randrange(0, 2 * len(script.activations) // 3)
        members = (
            Member(FIRST_PLAYER + 2 * number, f"Player {2 * number}"),
            Member(FIRST_PLAYER + 2 * number + 1, f"Player {2 * number + 1}"),
        )
        record = dict(script.record)
        record["players"] = [member.name for member in members]
        record["commands"] = list(script.record["commands"]) + [
            command.to_json() for done in script.activations[:start] for _, command in done
        ]
        setup = {
            "challenged": None,
            "squads": [squad["name"] for squad in record["content"]["squads"]],
            "clock": Clock(TimeControls()).to_json(),
        }
        channel = FIRST_CHANNEL + number
        await self.store.create_match(
            GUILD,
            channel,
            [member.id for member in members],
            [member.name for member in members],
            record,
            setup,
            status="playing",
        )
        return Playing(channel, members, script, start)

    async def fill(self, count: int) -> None:
        for _ in range(count):
            self.fresh.append(await self.add())
        self.fresh.reverse()  # handed out in the order stored

    async def take(self, count: int) -> list[Playing]:
        return [self.fresh.pop() if self.fresh else await self.add() for _ in range(count)]


# --- the garbage collector ---------------------------------------------------------------
class Collections:
    """The garbage collector's pauses while open (a full collection walks every object in
    the heap, in the event loop's thread when that is where it triggers)."""

    def __init__(self) -> None:
        self.pauses: list[tuple[int, float]] = []  # (generation, seconds)
        self._start = 0.0

    def _hear(self, phase: str, info: dict[str, Any]) -> None:
        if phase == "start":
            self._start = time.perf_counter()
        else:
            self.pauses.append((int(info["generation"]), time.perf_counter() - self._start))

    def __enter__(self) -> Collections:
        gc.callbacks.append(self._hear)
        return self

    def __exit__(self, *_: object) -> None:
        gc.callbacks.remove(self._hear)

    def describe(self) -> str:
        full = [seconds for generation, seconds in self.pauses if generation == 2]
        return (
            f"GC: {len(self.pauses)} collections, {ms(sum(s for _, s in self.pauses))} in all; "
            f"{len(full)} full, longest {ms(max(full, default=0))}"
        )


# --- playing -------------------------------------------------------------------------------
@dataclass
class Tally:
    """What the matches did while counted: commands done (each as its share of its
    activation), activations done with their latencies, refusals."""

    counting: bool = False
    activations: float = 0.0  # the sum of 1/k over the commands done of k-command activations
    latencies: list[float] = field(default_factory=list)  # of the activations done
    unserved: list[float] = field(default_factory=list)  # the waits of those never begun
    errors: list[str] = field(default_factory=list)
    busy: int = 0  # commands refused by the service's admission ("The bot is busy"), retried


async def activation(
    service: MatchService, playing: Playing, tally: Tally, stop: asyncio.Event | None = None
) -> bool:
    """Play the match's next activation as its players would, command by command; whether it
    was played to its end (not when `stop` is set before, or a command was refused)."""
    commands = playing.script.activations[playing.next]
    playing.next += 1
    for number, (side, command) in enumerate(commands, start=1):
        if stop is not None and stop.is_set():
            playing.next = len(playing.script.activations)  # left in the middle: not played on
            return False
        try:
            reply = await busy_retried(service, playing, side, command, tally, stop)
        except ServiceError as error:  # a script out of step with its match: leave it
            tally.errors.append(f"match in channel {playing.channel}: {error}")
            playing.next = len(playing.script.activations)
            return False
        if tally.counting:
            tally.activations += 1 / len(commands)
        if number == len(commands) and reply.picture is None and not reply.match_over:
            tally.errors.append(f"no picture after an activation in {playing.channel}")
    return True


async def busy_retried(
    service: MatchService,
    playing: Playing,
    side: int,
    command: Command,
    tally: Tally,
    stop: asyncio.Event | None,
) -> Any:
    """`service.act`, asked again `RETRY` seconds after each "the bot is busy" (which changed
    nothing), as a player would, until served or `stop` is set."""
    while True:
        try:
            return await service.act(playing.channel, playing.members[side], command)
        except Overloaded:
            tally.busy += 1
            if stop is not None and stop.is_set():
                raise
            await asyncio.sleep(RETRY)


@dataclass
class Level:
    """One level's figures."""

    matches: int
    seconds: float  # counted
    tally: Tally
    stalls: Stalls
    cpu: float  # the process's CPU seconds (all threads) over wall seconds
    collections: Collections

    @property
    def rate(self) -> float:
        return self.tally.activations / self.seconds

    def latency(self, fraction: float) -> float:
        return quantile(self.tally.latencies + self.tally.unserved, fraction)


@contextlib.asynccontextmanager
async def watched() -> AsyncIterator[Callable[[Tally, int], Level]]:
    """Watch the loop, the collector and the CPU while open; the Level of what was done is
    made by the function yielded, called before the block ends."""
    began, cpu = time.perf_counter(), time.process_time()
    async with LoopWatch() as watch:
        with Collections() as collections:

            def level(tally: Tally, count: int) -> Level:
                wall = time.perf_counter() - began
                used = (time.process_time() - cpu) / wall
                return Level(count, wall, tally, watch.stalls(), used, collections)

            yield level


async def closed_loop(
    service: MatchService,
    matches: Matches,
    playing: list[Playing],
    each: int,
    warm: int,
    timing: Callable[[], None] | None = None,
) -> Level:
    """The matches `playing` at once, each always with its next activation in flight, until
    each has played `each` activations (timed, after `warm` each untimed); a match that ends
    is replaced, in `playing` too, by one not played yet. `timing` is called when the timed
    part begins."""
    tally = Tally()

    async def play(match: Playing, activations: int) -> Playing:
        for _ in range(activations):
            if match.over:
                match = (await matches.take(1))[0]
            started = time.perf_counter()
            if await activation(service, match, tally) and tally.counting:
                tally.latencies.append(time.perf_counter() - started)
        return match

    if warm:
        playing[:] = await asyncio.gather(*(play(match, warm) for match in playing))
    tally.counting = True
    async with watched() as level:
        if timing is not None:
            timing()
        playing[:] = await asyncio.gather(*(play(match, each) for match in playing))
        return level(tally, len(playing))


async def open_loop(
    service: MatchService, matches: Matches, playing: list[Playing], rate: float, seconds: float
) -> Level:
    """Activations arriving at `rate` per second in all, spread evenly over the matches
    `playing` (a Poisson process each), for `seconds`; each activation's latency is from its
    arrival. An activation not begun a quarter of `seconds` after the last arrival is
    unserved, and one in flight then is stopped at its next command (unserved too)."""
    tally = Tally(counting=True)
    each = rate / len(playing)
    rng = random.Random(len(playing))
    stop = asyncio.Event()

    async def play(match: Playing) -> None:
        due = began + rng.expovariate(each)
        while due < end:
            if not stop.is_set():
                if due > time.perf_counter():
                    await asyncio.sleep(due - time.perf_counter())
                if match.over:
                    match = (await matches.take(1))[0]
                if await activation(service, match, tally, stop):
                    tally.latencies.append(time.perf_counter() - due)
                    due += rng.expovariate(each)
                    continue
            tally.unserved.append(time.perf_counter() - due)
            due += rng.expovariate(each)

    async def cut_off() -> None:
        await asyncio.sleep(1.25 * seconds)
        stop.set()

    async with watched() as level:
        began = time.perf_counter()
        end = began + seconds
        cutting = asyncio.create_task(cut_off())
        await asyncio.gather(*(play(match) for match in playing))
        cutting.cancel()
        return level(tally, len(playing))


@contextlib.contextmanager
def arrival_order(admission: Admission) -> Iterator[list[int]]:
    """While open: each admitted command's arrival number, in the order admitted (arrival
    numbered at the call to `enter`)."""
    admitted: list[int] = []
    arrivals = itertools.count()
    enter = admission.enter

    async def numbered() -> None:
        ticket = next(arrivals)
        await enter()
        admitted.append(ticket)

    admission.enter = numbered  # type: ignore[method-assign]
    try:
        yield admitted
    finally:
        del admission.enter


def in_order(admitted: list[int]) -> int:
    """How many were admitted after every earlier arrival that was admitted too."""
    latest, count = -1, 0
    for ticket in admitted:
        if ticket > latest:
            count += 1
            latest = ticket
    return count


async def overloaded(
    service: MatchService,
    matches: Matches,
    playing: list[Playing],
    rate: float,
    seconds: float,
    admission: Admission,
) -> tuple[Level, list[int]]:
    """The open loop at `rate`, the service's admission being `admission` for the while."""
    kept, service.live.admission = service.live.admission, admission
    try:
        with arrival_order(admission) as admitted:
            level = await open_loop(service, matches, playing, rate, seconds)
    finally:
        service.live.admission = kept
    return level, admitted


def show_overload(label: str, level: Level, offered: float, admitted: list[int]) -> None:
    tally = level.tally
    served = tally.latencies
    within = sum(1 for latency in served if latency <= DISCORD) / max(1, len(served))
    print(
        f"overload,    {level.matches:>4} at once, {label}: {offered:5.1f} activations/s "
        f"offered; {in_order(admitted)} of {len(admitted)} commands admitted in arrival order; "
        f"{tally.busy} refused ('busy', asked again); {len(served)} activations served, p50 "
        f"{ms(quantile(served, 0.5))}, p95 {ms(quantile(served, 0.95))}, {within:.0%} within "
        f"{DISCORD:.0f} s; {len(tally.unserved)} unserved; CPU {level.cpu:.0%}",
        flush=True,
    )


async def overload_levels(
    service: MatchService,
    matches: Matches,
    count: int,
    single: float,
    seconds: float,
    kept: int,
    memory: PeakMemory,
) -> None:
    """(c) in the module's text, with `count` matches: the same overload without a bound, then
    with the admission; each a phase of `memory`."""
    offered = OVERLOAD * single
    commands = statistics.mean(
        len(done) for script in matches.scripts for done in script.activations
    )
    default = service.live.admission
    waiting = max(1, round(single * commands))  # a second of one match's commands
    runs = [
        (f"{UNBOUNDED} (as before)", Admission(running=1_000_000, waiting=0)),
        (f"admission {default.running} + {waiting} waiting", Admission(default.running, waiting)),
    ]
    for label, admission in runs:
        playing = await matches.take(count)
        if count <= kept:  # in memory, as while played; more are not warmed (as in (b))
            await closed_loop(service, matches, playing, 0, 1)
        level, admitted = await overloaded(service, matches, playing, offered, seconds, admission)
        show_overload(label, level, offered, admitted)
        memory.phase(f"overload, {label.split(' (')[0]}")


# --- memory --------------------------------------------------------------------------------
def held_in_memory(service: MatchService, scripts: list[Script]) -> tuple[int, str]:
    """How many matches the service keeps in memory between commands, and how: its live
    matches, and as many frozen as fit in its frozen matches' bytes, a script's match frozen
    half way as the measure of one (a service without frozen matches: its live ones)."""
    live = service.live
    kept = getattr(live, "kept", None)
    if kept is None:
        return int(getattr(live, "size", 0)), "live"
    script = scripts[0]
    half = script.activations[: len(script.activations) // 2]
    record = dict(script.record)
    record["commands"] = list(record["commands"]) + [
        command.to_json() for done in half for _, command in done
    ]
    match = replay(MatchRecord.from_json(record), trusted=True)
    size = len(ruleset(DEFAULT_RULESET).freeze(match))
    frozen = kept.frozen_bytes // size
    how = f"{kept.live:,} live, {frozen:,} frozen of {size / 1024:.0f} KiB in {kept.frozen_bytes >> 20} MB"
    return kept.live + frozen, how


def resident() -> int:
    """This process's resident memory now, in bytes (VmRSS in /proc/self/status; 0 where there
    is no such file)."""
    try:
        with open("/proc/self/status", "rb") as status:
            for line in status:
                if line.startswith(b"VmRSS:"):
                    return int(line.split()[1]) * 1024  # given in kB
    except OSError:
        pass
    return 0


class PeakMemory:
    """The peak of this process's resident memory while open, sampled every `SAMPLE_EVERY`
    seconds by a thread of its own. Not `resource.getrusage`'s ru_maxrss: that is the peak
    since the process began, and never goes down, so it cannot tell the second backend's
    section from the first's. A peak shorter than a sample's interval may be missed (the
    thread also waits for the GIL), so the figure is a lower bound, close at this interval."""

    def __init__(self) -> None:
        self.start = self.peak = 0
        self.phases: list[tuple[str, int]] = []  # (what was done, its peak), in order
        self._phase = 0  # the peak since the last `phase`
        self._lock = threading.Lock()  # the sampler and `phase` both update the peaks
        self._done = threading.Event()
        self._thread = threading.Thread(target=self._sample, name="peak-memory", daemon=True)

    def _note(self) -> None:
        now = resident()
        with self._lock:
            self.peak, self._phase = max(self.peak, now), max(self._phase, now)

    def _sample(self) -> None:
        while not self._done.wait(SAMPLE_EVERY):
            self._note()

    def phase(self, done: str) -> None:
        """Close a phase of the section: `done`'s peak is the peak since the previous one."""
        self._note()
        with self._lock:
            self.phases.append((done, self._phase))
            self._phase = resident()

    def __enter__(self) -> PeakMemory:
        self.start = self.peak = self._phase = resident()
        self._thread.start()
        return self

    def __exit__(self, *_: object) -> None:
        self._done.set()
        self._thread.join()
        self._note()

    @property
    def served(self) -> int:
        """The peak as the service runs: every phase but the unbounded overload (which shows how
        the service was before its admission)."""
        return max((peak for done, peak in self.phases if UNBOUNDED not in done), default=0)

    def describe(self) -> str:
        if not self.start:
            return "memory: unknown (no /proc/self/status on this system)"
        served = self.served
        return (
            f"memory: peak RSS {mb(served)} with the service's admission; {mb(self.peak)} with the "
            f"unbounded overload ({mb(self.start)} at the start of the backend's section)"
        )

    def by_phase(self) -> str:
        peaks = ", ".join(f"{done} {mb(peak)}" for done, peak in self.phases)
        return f"peak RSS by phase: {peaks}" if self.start and peaks else ""


def release_memory() -> None:
    """Free what earlier sections left, so that a section's start figure is its own: unfrozen
    first (`settle_collector` froze what was alive after the previous fill, cycles included,
    which the collector never frees while frozen), collected, then glibc's free memory handed
    back to the system (`malloc_trim`; elsewhere, nothing more)."""
    gc.unfreeze()
    gc.collect()
    with contextlib.suppress(OSError, AttributeError):
        ctypes.CDLL(None).malloc_trim(0)


def live_match_cost(name: str) -> tuple[int, int, int]:
    """What a live match of the ruleset `name` holds, as (bytes in memory, bytes of its
    snapshot, commands taken): a demo match's record replayed half way, trusted (as the service
    restores a record of its own store)."""
    _, record = play_demo(MEMORY_SEED, name)
    half = len(record.commands) // 2
    # Once untraced first: what a first replay caches (content, maps, tables) is the process's,
    # shared by every match, not this match's.
    replay(record, half, trusted=True)
    gc.collect()
    tracemalloc.start()
    try:
        before = tracemalloc.get_traced_memory()[0]
        match = replay(record, half, trusted=True)
        gc.collect()  # what the replay made and dropped is not held
        held = tracemalloc.get_traced_memory()[0] - before
    finally:
        tracemalloc.stop()
    return held, len(snapshots.take(match, record).state), len(match.commands)


def show_live_match_costs() -> None:
    """One line per ruleset: what a live match costs in memory, and as a snapshot."""
    print(
        "what a live match holds: a demo match replayed half way, its Python memory traced "
        "(tracemalloc, after a collection), and its snapshot's size:"
    )
    for name in rulesets():  # every package of PACKAGES, in its order
        held, snapshot, commands = live_match_cost(name)
        print(
            f"live match, {name}: {held / 1024:,.0f} KiB in memory, {snapshot / 1024:,.0f} KiB "
            f"as a snapshot ({commands} commands)",
            flush=True,
        )


# --- the figures ---------------------------------------------------------------------------
def quantile(samples: list[float], fraction: float) -> float:
    """The nearest-rank quantile (0 with no samples)."""
    if not samples:
        return 0.0
    ordered = sorted(samples)
    return ordered[max(0, math.ceil(fraction * len(ordered)) - 1)]


def load() -> str:
    return " ".join(f"{figure:.1f}" for figure in os.getloadavg())


def ms(seconds: float) -> str:
    return f"{seconds * 1000:,.0f} ms"


def mb(size: int) -> str:
    return f"{size / 2**20:,.0f} MB"


def stalled(stalls: Stalls) -> str:
    return f"loop stalls: longest {ms(stalls.longest)}, p99 {ms(stalls.p99)}"


def refused(tally: Tally) -> str:
    if not tally.errors:
        return ""
    return f"; {len(tally.errors)} refused, e.g. {tally.errors[0]}"


def show_closed(level: Level, single: float, label: str = "") -> None:
    print(
        f"closed loop, {level.matches:>4} at once{label}: {level.rate:6.1f} activations/s "
        f"(x{level.rate / single:.2f} of 1 match; {len(level.tally.latencies)} activations in "
        f"{level.seconds:.1f} s, p50 {ms(level.latency(0.5))}, p95 {ms(level.latency(0.95))}); "
        f"CPU {level.cpu:.0%}; {stalled(level.stalls)}; {level.collections.describe()}"
        f"{refused(level.tally)}",
        flush=True,
    )


def show_open(level: Level, offered: float) -> None:
    tally = level.tally
    mark = ">=" if tally.unserved else ""
    unserved = f", {len(tally.unserved)} unserved" if tally.unserved else ""
    print(
        f"open loop,   {level.matches:>4} at once: {offered:5.1f} activations/s offered; "
        f"latency p50 {mark}{ms(level.latency(0.5))}, p95 {mark}{ms(level.latency(0.95))}, "
        f"max {mark}{ms(max(tally.latencies + tally.unserved, default=0))} "
        f"({len(tally.latencies)} served{unserved} in {level.seconds:.0f} s); CPU "
        f"{level.cpu:.0%}; {stalled(level.stalls)}; {level.collections.describe()}"
        f"{refused(tally)}",
        flush=True,
    )


@dataclass
class Plan:
    levels: list[int]
    closed: float  # seconds of work the closed loop aims at, at each level
    opened: float  # seconds of arrivals in the open loop at each level
    overload: float  # seconds of arrivals in each of the two overload runs
    budget: float  # seconds each backend's section aims to stay within

    @property
    def stored(self) -> int:
        """Matches to store before measuring: every level plays fresh ones twice (closed and
        open loop), the overload runs the largest level twice, and matches that end are
        replaced; stored beforehand, since on PostgreSQL the fill is fast (fsync off) and the
        matches stored later would be stored durably, in the middle of the measures."""
        return max(STORED, 2 * sum(self.levels) + 2 * max(self.levels) + SPARE)


def plan_of(args: argparse.Namespace) -> Plan:
    if args.quick:
        plan = Plan([1, 10, COMPARED], closed=4.0, opened=6.0, overload=4.0, budget=90.0)
    else:
        plan = Plan([1, 10, COMPARED, 1000], closed=6.0, opened=10.0, overload=6.0, budget=165.0)
    if args.levels:
        plan.levels = sorted({int(level) for level in args.levels.split(",")} | {1})
    return plan


def backends_of(args: argparse.Namespace) -> list[str]:
    """The backends to measure, in order: --backends, else both (SQLite alone with --quick)."""
    if args.backends:
        names = [name.strip().lower() for name in args.backends.split(",") if name.strip()]
    else:
        names = [SQLITE] if args.quick else list(BACKENDS)
    unknown = sorted(set(names) - set(BACKENDS))
    if unknown:
        raise ValueError(f"unknown backend {', '.join(unknown)}: choose among {BACKENDS}")
    return list(dict.fromkeys(names))  # each once, in the order given


@dataclass
class Figures:
    """One backend's closed-loop levels and open-loop runs, by matches at once."""

    closed: dict[int, Level]
    opened: dict[int, Level]
    planned: int  # the largest level planned (the budget may leave it out)

    @property
    def single(self) -> float:
        return self.closed[1].rate

    @property
    def largest(self) -> int:
        return max(self.closed)

    @property
    def ratio(self) -> float:
        """The issue's figure: single-match throughput over the largest level's."""
        return self.single / self.closed[self.largest].rate


@dataclass
class Section:
    """What a backend's section ends with, for the run's last lines."""

    name: str
    figures: Figures
    memory: PeakMemory


async def measure(
    args: argparse.Namespace, names: list[str], servers: list[pg_server.Server]
) -> int:
    """The whole run: the matches played out, what a live match costs, then each backend's
    section; `servers` gets every PostgreSQL server started, for the caller to stop."""
    cancel_on_sigterm()
    plan = plan_of(args)
    started = time.perf_counter()
    print(f"load average {load()} on {os.cpu_count()} CPUs (the figures share them)")
    print(f"backends: {', '.join(names)}; levels {', '.join(map(str, plan.levels))}")
    scripts = [play_out(seed) for seed in range(TEMPLATES)]
    sizes = [len(script.activations) for script in scripts]
    lengths = [len(done) for script in scripts for done in script.activations]
    print(
        f"{TEMPLATES} matches played out by the automatic player beforehand: {min(sizes)} to "
        f"{max(sizes)} activations, {statistics.mean(lengths):.1f} commands an activation "
        f"({time.perf_counter() - started:.1f} s)"
    )
    if not args.profile:
        show_live_match_costs()
    sections: list[Section] = []
    for name in names[:1] if args.profile else names:
        section = await backend_section(name, scripts, plan, args, servers)
        if section is not None:
            sections.append(section)
    print(f"\nwhole run: {time.perf_counter() - started:.0f} s; load average {load()}")
    for section in sections:
        show_summary(section)
    if sections:
        print(f"ratio: {max(section.figures.ratio for section in sections):.2f}")
    return 0


async def backend_section(
    name: str,
    scripts: list[Script],
    plan: Plan,
    args: argparse.Namespace,
    servers: list[pg_server.Server],
) -> Section | None:
    """One backend's section: its store made and filled, the levels, the open loops and the
    overload measured on it, and its closing lines; None when PostgreSQL cannot start here (said
    so) or when profiling."""
    print(f"\n=== {name} ===", flush=True)
    if name == SQLITE:
        with tempfile.TemporaryDirectory() as folder:
            return await measured_on(
                name, str(Path(folder) / "concurrency.db"), scripts, plan, args
            )
    server = start_postgres()
    if server is None:
        return None
    servers.append(server)
    try:
        url = await pg_server.create_database(server.url, PG_DATABASE)
        return await measured_on(name, url, scripts, plan, args)
    finally:
        server.stop()


def start_postgres() -> pg_server.Server | None:
    """A throwaway PostgreSQL server (tests/pg_server.py), or None, said why, when there is
    none to be had here (no binaries, or it will not start)."""
    try:
        server = pg_server.start()
    except pg_server.ServerError as error:
        reason = str(error).splitlines()[0]
        print(f"PostgreSQL cannot start here ({reason}): left out, the other backends go on")
        return None
    print(f"a throwaway PostgreSQL server, started in {server.start_seconds:.1f} s")
    return server


async def measured_on(
    name: str, url: str, scripts: list[Script], plan: Plan, args: argparse.Namespace
) -> Section | None:
    """Everything measured on the store at `url`, while its peak memory is sampled; the
    section's closing lines printed."""
    release_memory()  # what the previous section left, before this one's memory is counted
    with PeakMemory() as memory:
        store = await Store.open(url)
        try:
            figures = await on_store(store, scripts, plan, args, memory)
        finally:
            await store.close()
    if figures is None:
        return None
    section = Section(name, figures, memory)
    show_closing(section)
    return section


async def on_store(
    store: Store,
    scripts: list[Script],
    plan: Plan,
    args: argparse.Namespace,
    memory: PeakMemory,
) -> Figures | None:
    """Fill the store, then (a), (b) and (c) of the module's text on it (None: profiled); each
    a phase of `memory`."""
    began = time.perf_counter()
    matches = Matches(store, scripts, random.Random(7))
    await matches.fill(plan.stored)
    await settle(store, durable=not args.pg_fast)  # PostgreSQL: vacuumed, durable again
    print(
        f"{plan.stored:,} matches stored and settled in {time.perf_counter() - began:.1f} s; "
        f"{await durability(store)}",
        flush=True,
    )
    service = MatchService(store)
    if not args.default_gc:  # as the bot does once it has started
        settle_collector()
    print(f"garbage collector thresholds {gc.get_threshold()}")
    kept, how = held_in_memory(service, scripts)
    print(f"the service keeps {kept:,} matches in memory between commands ({how})")
    if args.profile:
        await profiled(service, matches, args.profile_at, kept, Path(args.profile))
        return None
    memory.phase("fill")
    levels = await closed_levels(service, matches, plan, kept, began)
    memory.phase("closed loops")
    single = levels[1].rate
    opened: dict[int, Level] = {}
    for count in plan.levels:
        if count in levels:
            playing = await matches.take(count)
            if count <= kept:  # in memory, as they would be while played
                await closed_loop(service, matches, playing, 0, 1)
            offered = OFFERED * single
            opened[count] = await open_loop(service, matches, playing, offered, plan.opened)
            show_open(opened[count], offered)
    memory.phase("open loops")
    await overload_levels(service, matches, max(levels), single, plan.overload, kept, memory)
    print(f"{matches.stored:,} matches stored in the end")
    return Figures(levels, opened, max(plan.levels))


def show_closing(section: Section) -> None:
    """A section's last lines: the open-loop p95 and the 200-match comparison, then its peak
    memory and its `ratio:` line (the largest level's)."""
    figures, largest = section.figures, section.figures.largest
    level = figures.opened[largest]
    mark = ">=" if level.tally.unserved else ""
    print(
        f"p95: {mark}{ms(level.latency(0.95))}, open loop, {largest:,} at once, "
        f"{OFFERED:.0%} of one match's throughput offered (target: under {ms(P95_TARGET)})"
    )
    if COMPARED in figures.closed and largest != COMPARED:
        compared = figures.single / figures.closed[COMPARED].rate
        print(f"{COMPARED} at once: single-match throughput / {COMPARED}'s = {compared:.2f}")
    if phases := section.memory.by_phase():
        print(phases)
    print(section.memory.describe())
    if largest != figures.planned:
        print(f"(no {figures.planned}-match level in this section: the ratio is against {largest})")
    print(f"ratio: {figures.ratio:.2f}", flush=True)


def show_summary(section: Section) -> None:
    figures = section.figures
    level = figures.opened[figures.largest]
    mark = ">=" if level.tally.unserved else ""
    print(
        f"{section.name}: {figures.largest:,} at once x{1 / figures.ratio:.2f} of one match "
        f"(ratio {figures.ratio:.2f}), open-loop p95 {mark}{ms(level.latency(0.95))}, "
        f"peak RSS {mb(section.memory.served)} ({mb(section.memory.peak)} unbounded)"
    )


async def closed_levels(
    service: MatchService, matches: Matches, plan: Plan, kept: int, started: float
) -> dict[int, Level]:
    """The closed loop at every level that fits in the time budget, a single match first and
    last (levels[1]: the two together)."""
    one = await matches.take(1)
    warm = await closed_loop(service, matches, one, 20, 0)  # loads it; tells how fast it goes
    each = max(20, round(plan.closed * warm.rate))
    first = await closed_loop(service, matches, one, each, 0)
    show_closed(first, first.rate)
    levels, previous = {1: first}, first.rate
    for count in plan.levels[1:]:
        warming = 1 if count <= kept else 0  # more than kept: loaded from the store all along
        timed = max(1, round(plan.closed * previous / count))
        # The open loops of the levels so far and this one, and the two overload runs after.
        opened = (len(levels) + 1) * (1.25 * plan.opened + 2) + 2 * (1.25 * plan.overload + 2)
        left = plan.budget - (time.perf_counter() - started) - opened - plan.closed
        guess = (warming + timed) * count / previous
        if guess > left:
            print(
                f"closed loop, {count:>4} at once: left out, it would take about {guess:.0f} s "
                f"at {previous:.1f} activations/s, over the section's budget"
            )
            break
        playing = await matches.take(count)
        levels[count] = await closed_loop(service, matches, playing, timed, warming)
        show_closed(levels[count], first.rate)
        previous = levels[count].rate
    again = await closed_loop(service, matches, await matches.take(1), each, 1)
    show_closed(again, first.rate, ", again")
    single = (first.rate + again.rate) / 2
    print(f"single-match throughput: {single:.1f} activations/s (the mean of the two)")
    levels[1] = replace(first, tally=replace(first.tally, activations=single * first.seconds))
    return levels


# --- profiling -------------------------------------------------------------------------------
@contextlib.contextmanager
def thread_time() -> Iterator[dict[str, list[tuple[float, float]]]]:
    """While open: the wall and CPU seconds every function run through `asyncio.to_thread`
    took, by its name (the loop's profiler does not see those threads; the wall time includes
    waiting for the GIL, the CPU time does not)."""
    spent: dict[str, list[tuple[float, float]]] = defaultdict(list)
    original = asyncio.to_thread
    lock = threading.Lock()

    def timed(function: Callable[..., T], name: str) -> Callable[..., T]:
        @functools.wraps(function)
        def run(*args: Any, **kwargs: Any) -> T:
            wall, cpu = time.perf_counter(), time.thread_time()
            try:
                return function(*args, **kwargs)
            finally:
                took = (time.perf_counter() - wall, time.thread_time() - cpu)
                with lock:
                    spent[name].append(took)

        return run

    async def to_thread(function: Callable[..., T], /, *args: Any, **kwargs: Any) -> T:
        name = getattr(function, "__qualname__", repr(function))
        return await original(timed(function, name), *args, **kwargs)

    asyncio.to_thread = to_thread
    try:
        yield spent
    finally:
        asyncio.to_thread = original


async def profiled(
    service: MatchService, matches: Matches, count: int, kept: int, out: Path
) -> None:
    """The closed loop of `count` matches under cProfile (after one activation each
    unprofiled, which loads the matches), and the top costs."""
    playing = await matches.take(count)
    warm = await closed_loop(service, matches, playing, 1, 0)  # loads them; how fast it goes
    each = min(5, max(1, round(10 * warm.rate / count)))  # about 10 s unprofiled
    print(f"unprofiled first, {count} at once, one activation each: {warm.rate:.1f}/s")
    profile = cProfile.Profile()
    with thread_time() as spent:

        def timing() -> None:
            spent.clear()
            profile.enable()

        level = await closed_loop(service, matches, playing, each, 0, timing)
        profile.disable()
    wall = level.seconds
    profile.dump_stats(out)
    print(
        f"profiled closed loop, {count} at once ({wall:.0f} s, cProfile slows it): "
        f"{level.rate:.1f} activations/s; profile in {out}"
    )
    print(f"{level.collections.describe()} (inside whichever functions allocated)")
    print(f"{stalled(level.stalls)}")
    stats: dict[tuple[str, int, str], tuple[int, int, float, float, object]]
    stats = pstats.Stats(profile).stats  # type: ignore[attr-defined]

    def where(key: tuple[str, int, str]) -> str:
        path, line, name = key
        short = path.split("/site-packages/")[-1].split("/skirmbot/")[-1]
        return f"{name} ({short}:{line})"

    print("event loop thread, by time inside (share of the wall time; a coroutine's calls")
    print("count each time it resumes):")
    for key, (_, calls, inside, _, _) in sorted(stats.items(), key=lambda i: -i[1][2])[:25]:
        print(f"  {inside / wall:6.1%} {inside:7.2f} s {calls:>9} calls  {where(key)}")
    print("event loop thread, by time inside and below (share of the wall time):")
    skirmbot = [item for item in stats.items() if "skirmbot" in item[0][0]]
    for key, (_, calls, _, below, _) in sorted(skirmbot, key=lambda i: -i[1][3])[:40]:
        print(f"  {below / wall:6.1%} {below:7.2f} s {calls:>9} calls  {where(key)}")
    print("worker threads (asyncio.to_thread), by function: CPU seconds (share of the wall time),")
    print("and wall seconds, waiting for the GIL included:")
    for name, times in sorted(spent.items(), key=lambda i: -sum(cpu for _, cpu in i[1])):
        cpu = sum(used for _, used in times)
        waited = sum(took for took, _ in times)
        print(
            f"  {cpu / wall:6.1%} {cpu:7.2f} s CPU, {waited:7.2f} s wall, {len(times):>6} calls  "
            f"{name} (mean {ms(cpu / len(times))} CPU, {ms(waited / len(times))} wall)"
        )


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0] if __doc__ else None)
    parser.add_argument(
        "--quick",
        action="store_true",
        help="shorter windows, levels up to 200, SQLite only unless --backends names more",
    )
    parser.add_argument("--levels", help="matches at once, comma-separated (1,10,200,1000)")
    parser.add_argument(
        "--backends",
        help="stores to measure on, in this order, comma-separated (sqlite,postgresql; "
        "--quick: sqlite); PostgreSQL is a throwaway server started here",
    )
    parser.add_argument(
        "--pg-fast",
        action="store_true",
        help="keep the PostgreSQL test server's fsync=off settings after the fill",
    )
    parser.add_argument(
        "--profile",
        help="instead: profile the 200-match closed loop on the first backend, into this file",
    )
    parser.add_argument(
        "--profile-at", type=int, default=COMPARED, help="matches at once when profiling (200)"
    )
    parser.add_argument(
        "--default-gc", action="store_true", help="CPython's collector settings, not the bot's"
    )
    args = parser.parse_args(argv)
    try:
        names = backends_of(args)
    except ValueError as error:
        parser.error(str(error))
    servers: list[pg_server.Server] = []
    try:
        return asyncio.run(measure(args, names, servers))
    except (KeyboardInterrupt, asyncio.CancelledError):  # Ctrl-C, or SIGTERM
        stopped = ": the PostgreSQL server is stopped" if servers else ""
        print(f"interrupted{stopped}", file=sys.stderr)
        return 130
    finally:
        for server in servers:  # stopped already unless interrupted; stopping twice is safe
            server.stop()


if __name__ == "__main__":
    sys.exit(main())
