"""Fairness of the shipped squads under the automatic player, per ruleset: seeded automatic
matches of each ruleset's default squads, one per seat, on the default map, with the squads
taking the seats in turn.

Run: `python benchmarks/fairness.py [--matches N] [--first-seed S] [--processes P]
[--ruleset NAME] [--missions all] [--maps all] [--players P]`. Each ruleset played by P players
(2 unless told: Skirm, Skirm Lite and d20 Skirmish; 3 or 4: d20 Skirmish alone, a free-for-all;
`--ruleset` for one) plays N matches on its default mission, or on each of its shipped missions
with `--missions all`, on the mission's map (else the ruleset's default), or on each of the
ruleset's shipped maps with `--maps all`. Match k (0-based) uses dice seed S + k, and its squads
sit k seats round: with two players, in odd-numbered matches the second squad is side 0 (the
side listed first in the match, which deploys first). No pictures are drawn. Each table gives
the wins of each squad (each seat's column: its wins from that seat), the wins of each seat and
the draws (first place shared), and `share:` the share of the decided games won by the squad
that won most of them (even is 1/P; with two players the goal is 0.6 or less). The last line,
`ratio: X`, is the highest share of all the tables. With `--maps all`, before it, a `maps:`
section gives a line per map: the map, then each ruleset that played on it with its share there
and `side`, the share of the seat that won most (of its decided games on that map, all its
missions together). A map's layout shows in `side` (the squads swap seats, so a map that
favours one edge gives that seat more wins); `share` also shows which squad the ground suits.
"""

from __future__ import annotations

import argparse
import sys
import time
from collections import Counter
from multiprocessing import Pool
from typing import Any, NamedTuple

from skirmbot import content
from skirmbot.demo import default_content, new_demo_match, play_out
from skirmbot.rules.ruleset import ruleset, rulesets


class Job(NamedTuple):
    """One automatic match: its ruleset, mission and dice seed, and how many seats round the
    squads sit."""

    rules: str
    mission: str
    seed: int
    turned: int
    players: int = 2
    battle_map: str | None = None  # a shipped map's name; None: the mission's or the default

    @property
    def squads(self) -> tuple[str, ...]:
        """The ruleset's default squads, seat 0 first."""
        return turned(content.defaults(self.rules, self.players)[1], self.turned)


class Played(NamedTuple):
    job: Job
    winner: int | None  # the winning seat; None: a draw (first place shared)
    seconds: float


def play(job: Job) -> Played:
    start = time.perf_counter()
    data = default_content(
        job.battle_map,
        mission_name=job.mission,
        squad_names=job.squads,
        rules=job.rules,
        players=job.players,
    )
    match, _ = new_demo_match(job.seed, data, job.rules, job.players)
    play_out(match, job.rules)
    outcome = ruleset(job.rules).outcome(match.state)
    assert outcome is not None
    return Played(job, outcome.winner, time.perf_counter() - start)


def turned(squads: tuple[str, ...], seats: int) -> tuple[str, ...]:
    """The squads `seats` seats round: the second first after one turn."""
    return squads[seats % len(squads) :] + squads[: seats % len(squads)]


def missions_of(rules: str, every: bool) -> list[str]:
    """The ruleset's default mission, or each of its shipped missions."""
    return content.names("missions", rules) if every else [content.defaults(rules)[0]]


def maps_of(rules: str, every: bool) -> list[str | None]:
    """None (the mission's map, else the ruleset's default), or each of the ruleset's maps."""
    return list(content.names("maps", rules)) if every else [None]


def map_played(rules: str, mission: str, battle_map: str | None) -> str:
    """The map's file name a section is played on."""
    return battle_map or content.default_map(rules, content.raw("missions", mission, rules))


def squad_title(rules: str, name: str) -> str:
    return str(content.raw("squads", name, rules)["name"])


def report(
    rules: str,
    mission: str,
    results: list[Played],
    players: int = 2,
    battle_map: str | None = None,
) -> float:
    """Print one ruleset's table on one mission and map; the share of the decided games won
    by the squad that won most of them."""
    squads = content.defaults(rules, players)[1]
    seats = range(players)
    squad_wins: Counter[str] = Counter()
    side_wins: Counter[int] = Counter()
    squad_side_wins: Counter[tuple[str, int]] = Counter()
    draws = 0
    for played in results:
        if played.winner is None:
            draws += 1
            continue
        winner = played.job.squads[played.winner]
        squad_wins[winner] += 1
        side_wins[played.winner] += 1
        squad_side_wins[(winner, played.winner)] += 1
    titles = {name: squad_title(rules, name) for name in squads}
    width = max(len(title) for title in titles.values())
    print(
        f"{ruleset(rules).title}: {len(results)} automatic matches, "
        f"{mission} on {map_played(rules, mission, battle_map)}"
    )
    print(f"{'':{width}}  {'wins':>5}" + "".join(f"  {f'as side {n}':>9}" for n in seats))
    for name in dict.fromkeys(squads):
        by_seat = "".join(f"  {squad_side_wins[(name, n)]:>9}" for n in seats)
        print(f"{titles[name]:{width}}  {squad_wins[name]:>5}{by_seat}")
    for n in seats:
        print(f"{f'side {n}':{width}}  {side_wins[n]:>5}")
    print(f"{'draws':{width}}  {draws:>5}")
    share = share_of(results)
    print(f"share: {share:.3f}")
    return share


def share_of(results: list[Played]) -> float:
    """The share of the decided games won by the squad that won most of them (0.5 when none
    was decided: nothing leans either way)."""
    return _most_of(Counter(p.job.squads[p.winner] for p in results if p.winner is not None))


def side_share_of(results: list[Played]) -> float:
    """The share of the decided games won by the seat that won most of them."""
    return _most_of(Counter(p.winner for p in results if p.winner is not None))


def _most_of(wins: Counter[Any]) -> float:
    decided = sum(wins.values())
    return max(wins.values()) / decided if decided else 0.5


def report_maps(results: list[Played]) -> list[float]:
    """Print the `maps:` section, a line per map with each ruleset's share and side share on
    it; the shares."""
    by_map: dict[str, dict[str, list[Played]]] = {}
    for played in results:
        job = played.job
        where = by_map.setdefault(map_played(job.rules, job.mission, job.battle_map), {})
        where.setdefault(job.rules, []).append(played)
    print("maps:")
    shares = []
    width = max(len(name) for name in by_map)
    for name, per_rules in sorted(by_map.items()):
        line = []
        for rules, games in per_rules.items():
            shares.append(share_of(games))
            line.append(f"{rules} {shares[-1]:.3f} side {side_share_of(games):.3f}")
        print(f"{name:{width}}  " + "  ".join(line))
    print()
    return shares


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0] if __doc__ else None)
    parser.add_argument("--matches", type=int, default=200, help="matches a mission (200)")
    parser.add_argument("--first-seed", type=int, default=0, help="the first dice seed (0)")
    parser.add_argument("--processes", type=int, default=2, help="worker processes (2)")
    parser.add_argument("--ruleset", choices=sorted(rulesets()), help="one ruleset only")
    parser.add_argument(
        "--missions", choices=["default", "all"], default="default",
        help="each ruleset's default mission, or all its shipped ones",
    )  # fmt: skip
    parser.add_argument(
        "--maps", choices=["default", "all"], default="default",
        help="each ruleset's default map, or all its shipped ones (a line per map)",
    )  # fmt: skip
    parser.add_argument(
        "--players",
        type=int,
        default=2,
        help="seats a match (2); rulesets not so played are left out",
    )
    args = parser.parse_args(argv)
    sections = [
        (rules, mission, battle_map)
        for rules in ([args.ruleset] if args.ruleset else list(rulesets()))
        if args.players in ruleset(rules).seats
        for mission in missions_of(rules, args.missions == "all")
        for battle_map in maps_of(rules, args.maps == "all")
    ]
    if not sections:
        parser.error(f"no ruleset chosen is played by {args.players} players")
    jobs = [
        Job(rules, mission, args.first_seed + k, k % args.players, args.players, battle_map)
        for rules, mission, battle_map in sections
        for k in range(args.matches)
    ]
    start = time.perf_counter()
    if args.processes > 1:
        with Pool(args.processes) as pool:
            results = pool.map(play, jobs, chunksize=1)
    else:
        results = [play(job) for job in jobs]
    wall = time.perf_counter() - start

    shares = []
    for rules, mission, battle_map in sections:
        section = [
            p
            for p in results
            if (p.job.rules, p.job.mission, p.job.battle_map) == (rules, mission, battle_map)
        ]
        shares.append(report(rules, mission, section, args.players, battle_map))
        print()
    if args.maps == "all":
        shares += report_maps(results)
    seconds = [played.seconds for played in results]
    print(
        f"time: {wall:.1f} s in all, {sum(seconds) / max(1, len(seconds)):.2f} s a match "
        f"({args.processes} process{'es' if args.processes != 1 else ''})"
    )
    print(f"ratio: {max(shares):.3f}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
