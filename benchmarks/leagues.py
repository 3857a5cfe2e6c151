"""League speed (issue 13): pairing a 256-player Swiss round and computing standings.

Run: `python benchmarks/leagues.py`. Plays 4 Swiss rounds of 256 players with seeded random
results, then measures, in one run: pairing round 5 (median of 5), and the standings of 256
players after 5 rounds with the default tiebreaks (median of 20); against a baseline measured in
the same run: sorting 256 tuples of the standings' keys 1000 times. Ends with `ratio: X` (pairing
plus standings over the baseline), the only figure comparable between machines.
"""

from __future__ import annotations

import random
import statistics
import time
from collections.abc import Callable

from skirmbot.leagues import (
    Game,
    had_byes,
    ordinals,
    played_pairs,
    rate,
    standings,
    swiss_order,
    swiss_round,
)

PLAYERS = 256


def median_seconds(run: Callable[[], object], repeat: int) -> float:
    samples = []
    for _ in range(repeat):
        start = time.perf_counter()
        run()
        samples.append(time.perf_counter() - start)
    return statistics.median(samples)


def play(rounds: int, rng: random.Random) -> tuple[list[int], list[Game]]:
    players = [10**17 + 7919 * i for i in range(PLAYERS)]
    games: list[Game] = []
    for number in range(1, rounds + 1):
        ranked = swiss_order(players, games)
        pairing = swiss_round(ranked, played_pairs(games), had_byes(games))
        assert not pairing.rematches
        for a, b in pairing.pairs:
            mp = (rng.randint(0, 12), rng.randint(0, 12))
            games.append(Game(number, a, b, rng.choice((a, b, None)), mp))
    return players, games


def main() -> None:
    rng = random.Random(13)
    players, games = play(4, rng)
    ratings = ordinals(rate(games))
    ranked = swiss_order(players, games, ratings=ratings)
    played, byes = played_pairs(games), had_byes(games)
    pairing_time = median_seconds(lambda: swiss_round(ranked, played, byes), 5)
    pairing = swiss_round(ranked, played, byes)
    print(
        f"Swiss round 5 of {PLAYERS} players: {pairing_time * 1000:.1f} ms median "
        f"({len(pairing.pairs)} boards, {len(pairing.rematches)} rematches)"
    )

    games += [Game(5, a, b, rng.choice((a, b, None))) for a, b in pairing.pairs]
    standings_time = median_seconds(lambda: standings(players, games, ratings=ratings), 20)
    print(
        f"standings of {PLAYERS} players after 5 rounds ({len(games)} games): "
        f"{standings_time * 1000:.2f} ms median"
    )
    rating_time = median_seconds(lambda: rate(games), 5)
    print(f"openskill ratings of those {len(games)} games: {rating_time * 1000:.1f} ms median")

    rows = [(rng.randint(0, 15), rng.randint(-60, 60), rng.randint(0, 60)) for _ in players]
    baseline = median_seconds(lambda: [sorted(rows, reverse=True) for _ in range(1000)], 5)
    print(f"baseline, sorting {PLAYERS} tuples 1000 times: {baseline * 1000:.1f} ms median")
    total = pairing_time + standings_time
    print(f"pairing + standings: {total * 1000:.1f} ms (well under a second: {total < 1.0})")
    print(f"ratio: {total / baseline:.2f}")


if __name__ == "__main__":
    main()
