"""Restoring matches from our own store: a trusted replay (each command was checked when it was
accepted, so the checks that only refuse are skipped) against a checked one (an import,
`skirmbot verify`), on the same records in the same run (issue 32).

Run: `python benchmarks/restore.py [--matches N]`. Prints, per ruleset, a whole demo record
replayed checked and trusted; a load of 200 Skirm commands (whole records, as a store without
snapshots replays them) both ways; then `skirmbot db copy` of a SQLite store of N finished
Skirm matches, its verification checked and trusted. Timings on this machine are noisy: only the
ratios, both sides measured in this one run, mean anything. The last line, `ratio: X`, is the
200-command load's checked time over its trusted time.
"""

from __future__ import annotations

import argparse
import asyncio
import statistics
import tempfile
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from pathlib import Path

from skirmbot.demo import play_demo
from skirmbot.rules.record import MatchRecord, replay
from skirmbot.rules.ruleset import PACKAGES, PlayedMatch
from skirmbot.store import copy as store_copy
from skirmbot.store.copy import copy_database, open_store

LOAD_COMMANDS = 200
GUILD = 1


def median_seconds(run: Callable[[], object], repeat: int) -> float:
    samples = []
    for _ in range(repeat):
        start = time.perf_counter()
        run()
        samples.append(time.perf_counter() - start)
    return statistics.median(samples)


def both_ways(records: list[MatchRecord], repeat: int) -> tuple[float, float]:
    """Median seconds to replay every record, checked then trusted (interleaved, so the noise
    of the machine falls on both alike)."""
    checked, trusted = [], []
    for _ in range(repeat):
        checked.append(median_seconds(lambda: [replay(r) for r in records], 1))
        trusted.append(median_seconds(lambda: [replay(r, trusted=True) for r in records], 1))
    return statistics.median(checked), statistics.median(trusted)


def per_ruleset() -> None:
    for package in PACKAGES:
        name = package.rsplit(".", 1)[1]
        records = [play_demo(seed, name)[1] for seed in range(2)]
        commands = sum(len(r.commands) for r in records)
        checked, trusted = both_ways(records, 5)
        print(
            f"{name}: {commands} commands: checked {checked * 1000:.1f} ms, trusted "
            f"{trusted * 1000:.1f} ms ({checked / trusted:.2f}x)"
        )


def load_of_200() -> float:
    """Skirm demo records, whole, until they hold 200 commands: checked over trusted."""
    records: list[MatchRecord] = []
    seed = 0
    while sum(len(r.commands) for r in records) < LOAD_COMMANDS:
        records.append(play_demo(seed)[1])
        seed += 1
    commands = sum(len(r.commands) for r in records)
    checked, trusted = both_ways(records, 7)
    print(
        f"load of {commands} Skirm commands ({len(records)} records): checked "
        f"{checked * 1000:.1f} ms, trusted {trusted * 1000:.1f} ms"
    )
    return checked / trusted


@contextmanager
def checked_copy() -> Iterator[None]:
    """`db copy` verifying with checked replays, as it did before it trusted its own records."""
    trusted: Callable[..., PlayedMatch] = getattr(store_copy, "replay")  # noqa: B009

    def checked(record: MatchRecord, upto: int | None = None, **_: object) -> PlayedMatch:
        return trusted(record, upto)

    setattr(store_copy, "replay", checked)  # noqa: B010
    try:
        yield
    finally:
        setattr(store_copy, "replay", trusted)  # noqa: B010


async def fill(path: Path, matches: int) -> None:
    records = [play_demo(seed)[1].to_json() for seed in range(4)]
    store = await open_store(str(path), "source")
    try:
        for number in range(matches):
            await store.create_match(
                GUILD, 1000 + number, [1, 2], ["A", "B"], records[number % 4], status="playing"
            )
    finally:
        await store.close()


def db_copy(matches: int) -> None:
    with tempfile.TemporaryDirectory() as folder:
        source = Path(folder) / "source.db"
        asyncio.run(fill(source, matches))
        lines: list[str] = []
        seconds: dict[str, list[float]] = {}
        for number, way in enumerate(("checked", "trusted", "checked ", "trusted ")):
            destination = Path(folder) / f"copy-{number}.db"
            start = time.perf_counter()
            if way.startswith("checked"):
                with checked_copy():
                    report = asyncio.run(copy_database(str(source), str(destination)))
            else:
                report = asyncio.run(copy_database(str(source), str(destination), lines.append))
            seconds.setdefault(way.strip(), []).append(time.perf_counter() - start)
            assert report.ok, report.problems
        checked, trusted = (min(seconds[way]) for way in ("checked", "trusted"))
        said = next(line for line in lines if line.startswith("verifying"))
        print(
            f"db copy of {matches} matches: checked {checked:.2f} s, trusted {trusted:.2f} s "
            f"({checked / trusted:.2f}x); it says: {said!r}, then 'checked "
            f"{report.replayed:,} records'"
        )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--matches", type=int, default=60, help="matches in the db copy's store")
    args = parser.parse_args()
    per_ruleset()
    db_copy(args.matches)
    print(f"ratio: {load_of_200():.2f}")


if __name__ == "__main__":
    main()
