"""The infantry rules' speed: a whole match between automatic players (their thinking, the
engine and the arcs' chances step by step), against replaying the same record (the engine
alone), measured in the same run.

Run: `python benchmarks/infantry.py [--seeds N]`. Timings on this machine are noisy; the last
line, `ratio: X`, is a whole automatic match's time over its replay's, so only that ratio is
comparable between runs (how much the automatic player costs over the rules themselves).
"""

from __future__ import annotations

import argparse
import statistics
import time

from skirmbot.demo import play_demo
from skirmbot.rules.record import MatchRecord, replay

RULES = "infantry"


def timed_play(seed: int) -> tuple[float, MatchRecord]:
    start = time.perf_counter()
    _, record = play_demo(seed, rules=RULES)
    return time.perf_counter() - start, record


def timed_replay(record: MatchRecord) -> float:
    start = time.perf_counter()
    replay(record)
    return time.perf_counter() - start


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seeds", type=int, default=5, help="matches to play (default 5)")
    seeds = range(1, parser.parse_args().seeds + 1)
    played, replayed, commands = [], [], 0
    for seed in seeds:
        seconds, record = timed_play(seed)
        played.append(seconds)
        replayed.append(timed_replay(record))
        commands += len(record.commands)
    play, base = statistics.median(played), statistics.median(replayed)
    print(f"matches: {len(seeds)}, commands: {commands}")
    print(f"whole automatic match (median): {play * 1000:.0f} ms")
    print(f"baseline, replaying its record (median): {base * 1000:.0f} ms")
    print(f"ratio: {play / base:.2f}")


if __name__ == "__main__":
    main()
