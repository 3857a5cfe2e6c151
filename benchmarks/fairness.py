"""Fairness of the shipped squads under the automatic player: seeded automatic matches on the
default map and mission, with the squads swapping sides every other match.

Run: `python benchmarks/fairness.py [--matches N] [--first-seed S] [--processes P]`. Match k
(0-based) uses dice seed S + k; in odd-numbered matches the second squad is side 0 (the side
listed first in the match, which deploys first). No pictures are drawn. The table gives the wins
of each squad, the wins of each side and the draws; the last line, `ratio: X`, is the share of
the decided games won by the squad that won more of them (0.5 is even; the goal is 0.6 or less).
"""

from __future__ import annotations

import argparse
import sys
import time
from collections import Counter
from multiprocessing import Pool

from skirmbot import content
from skirmbot.demo import default_content, new_demo_match, play_out

SQUADS = content.DEFAULT_SQUADS


def play(job: tuple[int, bool]) -> tuple[int, bool, int | None, str, float]:
    """One automatic match: (seed, swapped, winning side or None, reason, seconds)."""
    seed, swapped = job
    names = (SQUADS[1], SQUADS[0]) if swapped else SQUADS
    start = time.perf_counter()
    match, _ = new_demo_match(seed, default_content(squad_names=names))
    play_out(match)
    result = match.state.result
    assert result is not None
    return seed, swapped, result.winner, result.reason, time.perf_counter() - start


def squad_title(name: str) -> str:
    return content.load_squad(name).name


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0] if __doc__ else None)
    parser.add_argument("--matches", type=int, default=200, help="how many matches (200)")
    parser.add_argument("--first-seed", type=int, default=0, help="the first dice seed (0)")
    parser.add_argument("--processes", type=int, default=2, help="worker processes (2)")
    args = parser.parse_args(argv)
    jobs = [(args.first_seed + k, k % 2 == 1) for k in range(args.matches)]
    start = time.perf_counter()
    if args.processes > 1:
        with Pool(args.processes) as pool:
            results = pool.map(play, jobs, chunksize=1)
    else:
        results = [play(job) for job in jobs]
    wall = time.perf_counter() - start

    squad_wins: Counter[str] = Counter()
    side_wins: Counter[int] = Counter()
    squad_side_wins: Counter[tuple[str, int]] = Counter()
    draws = 0
    for _seed, swapped, winner, _reason, _seconds in results:
        if winner is None:
            draws += 1
            continue
        names = (SQUADS[1], SQUADS[0]) if swapped else SQUADS
        squad_wins[names[winner]] += 1
        side_wins[winner] += 1
        squad_side_wins[(names[winner], winner)] += 1
    decided = len(results) - draws
    titles = {name: squad_title(name) for name in SQUADS}
    width = max(len(title) for title in titles.values())
    print(f"{len(results)} automatic matches, {content.DEFAULT_MISSION} on {content.DEFAULT_MAP}")
    print(f"{'':{width}}  {'wins':>5}  {'as side 0':>9}  {'as side 1':>9}")
    for name in SQUADS:
        print(
            f"{titles[name]:{width}}  {squad_wins[name]:>5}  "
            f"{squad_side_wins[(name, 0)]:>9}  {squad_side_wins[(name, 1)]:>9}"
        )
    print(f"{'side 0':{width}}  {side_wins[0]:>5}")
    print(f"{'side 1':{width}}  {side_wins[1]:>5}")
    print(f"{'draws':{width}}  {draws:>5}")
    seconds = [r[4] for r in results]
    print(
        f"time: {wall:.1f} s in all, {sum(seconds) / max(1, len(seconds)):.2f} s a match "
        f"({args.processes} process{'es' if args.processes != 1 else ''})"
    )
    ratio = max(squad_wins.values(), default=0) / decided if decided else 0.5
    print(f"ratio: {ratio:.3f}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
