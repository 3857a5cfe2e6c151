"""Rules engine speed: commands per second in automatic play, replaying a whole 4-turn record,
and listing a unit's reachable squares and legal targets.

Run: `python benchmarks/engine.py`. Timings on this machine are noisy; the last line compares a
replay with a baseline measured in the same run (parsing the same record's JSON text), so only
that ratio is comparable between runs.
"""

from __future__ import annotations

import statistics
import time
from collections.abc import Callable

from skirmbot.demo import play_demo
from skirmbot.rules.record import MatchRecord, replay
from skirmbot.rules.skirm import autoplayer
from skirmbot.rules.skirm.cards import RANGED
from skirmbot.rules.skirm.costs import DASH, MOVE
from skirmbot.rules.skirm.legal import attack_targets, reachable_squares, usable_weapons
from skirmbot.rules.skirm.state import ENDED


def median_seconds(run: Callable[[], object], repeat: int) -> float:
    samples = []
    for _ in range(repeat):
        start = time.perf_counter()
        run()
        samples.append(time.perf_counter() - start)
    return statistics.median(samples)


def automatic_play(seeds: range) -> tuple[int, float, float]:
    """Commands, seconds inside Match.apply, and seconds in all (the players' thinking too)."""
    from skirmbot.demo import new_demo_match

    commands = 0
    applying = 0.0
    start_all = time.perf_counter()
    for seed in seeds:
        match, _ = new_demo_match(seed)
        state = match.state
        while state.phase != ENDED:
            side = state.waiting_for()
            assert side is not None
            command = autoplayer.choose(state, side)
            start = time.perf_counter()
            match.apply(command)
            applying += time.perf_counter() - start
            commands += 1
    return commands, applying, time.perf_counter() - start_all


def main() -> None:
    commands, applying, total = automatic_play(range(10))
    print(f"automatic play: {commands} commands in 10 matches")
    print(f"  applying commands: {commands / applying:,.0f} commands/s")
    print(f"  with the automatic players' choices: {commands / total:,.0f} commands/s")

    records = [play_demo(seed)[1] for seed in range(5)]
    texts = [record.dumps() for record in records]
    replay_time = statistics.median(median_seconds(lambda r=r: replay(r), 5) for r in records)  # type: ignore[misc]
    parse_time = statistics.median(
        median_seconds(lambda t=t: MatchRecord.loads(t), 20) for t in texts
    )  # type: ignore[misc]
    print(
        f"replay of a whole 4-turn record: {replay_time * 1000:.2f} ms median ({statistics.mean(len(r.commands) for r in records):.0f} commands)"
    )

    match = replay(records[0], upto=20)
    state = match.state
    unit = next(u for u in state.on_map())
    weapon = (
        usable_weapons(unit, RANGED)[0] if usable_weapons(unit, RANGED) else unit.card.weapons[0]
    )
    listing = median_seconds(
        lambda: (reachable_squares(state, unit, MOVE), reachable_squares(state, unit, DASH)), 50
    )
    targets = median_seconds(lambda: attack_targets(state, unit, weapon.kind, weapon), 50)
    print(f"reachable squares (Move + Dash) of one unit: {listing * 1000:.3f} ms median")
    print(f"legal targets of one weapon: {targets * 1000:.3f} ms median")
    print(f"baseline, parsing the same record's JSON: {parse_time * 1000:.3f} ms median")
    print(f"ratio: {replay_time / parse_time:.1f}")


if __name__ == "__main__":
    main()
