"""Standings from a league's results: league points, W/D/L, Mission Points, strength of schedule
and rating, ranked by the league's tiebreak order.

The ranking refines groups of tied players key by key: all listed players start in one group;
each tiebreak, in the configured order, splits every group by its value (higher first). What is
left together after the last key shares one rank (1, 2, 2, 4). Head-to-head is special: it is
worked out among exactly the players of the group it splits (see `_head_to_head`).
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field

from skirmbot.leagues.model import (
    DEFAULT_SCORING,
    TIEBREAKS,
    Game,
    LeagueError,
    Scoring,
    Standing,
    check_tiebreaks,
)


@dataclass
class _Tally:
    wins: int = 0
    draws: int = 0
    losses: int = 0
    byes: int = 0
    points: int = 0
    mp_for: int = 0
    mp_against: int = 0
    opponents: list[int] = field(default_factory=list)  # one entry per game, rematches twice


def standings(
    players: Sequence[int],
    games: Sequence[Game],
    scoring: Scoring = DEFAULT_SCORING,
    tiebreaks: Sequence[str] = TIEBREAKS,
    ratings: Mapping[int, float] | None = None,
) -> list[Standing]:
    """The standings of `players`, best first.

    Every listed player appears (a dropped player too, with the games they played). Games may
    name players who are not listed (a player removed from the league): their points still count
    in their opponents' strength of schedule, but they get no line. Strength of schedule is the
    sum of the league points of the opponents met, once per game played against them (byes count
    nothing). `ratings` are the displayed ratings (0.0 for a player without one). The "wins"
    tiebreak counts byes as wins, as they score.
    """
    order = check_tiebreaks(tiebreaks)
    _check_players(players)
    ratings = ratings or {}
    tallies: dict[int, _Tally] = {player: _Tally() for player in players}
    for game in games:
        for player in game.players:
            tally = tallies.setdefault(player, _Tally())
            opponent = game.opponent(player)
            tally.points += game.points(player, scoring)
            scored, conceded = game.mission_points(player)
            tally.mp_for += scored
            tally.mp_against += conceded
            if opponent is None:
                tally.byes += 1
                continue
            tally.opponents.append(opponent)
            if game.winner == player:
                tally.wins += 1
            elif game.is_draw:
                tally.draws += 1
            else:
                tally.losses += 1
    sos = {
        player: sum(tallies[opponent].points for opponent in tally.opponents)
        for player, tally in tallies.items()
    }

    values: dict[str, Callable[[int], float]] = {
        "points": lambda p: tallies[p].points,
        "mp_difference": lambda p: tallies[p].mp_for - tallies[p].mp_against,
        "strength_of_schedule": lambda p: sos[p],
        "rating": lambda p: ratings.get(p, 0.0),
        "wins": lambda p: tallies[p].wins + tallies[p].byes,
    }
    groups: list[list[int]] = [list(players)]
    for key in order:
        refined: list[list[int]] = []
        for group in groups:
            if len(group) == 1:
                refined.append(group)
            elif key == "head_to_head":
                refined.extend(_head_to_head(group, games, scoring))
            else:
                refined.extend(_split(group, values[key]))
        groups = refined

    table: list[Standing] = []
    for group in groups:
        rank = len(table) + 1
        for player in group:
            tally = tallies[player]
            table.append(
                Standing(
                    player=player,
                    rank=rank,
                    played=tally.wins + tally.draws + tally.losses,
                    wins=tally.wins,
                    draws=tally.draws,
                    losses=tally.losses,
                    byes=tally.byes,
                    points=tally.points,
                    mp_for=tally.mp_for,
                    mp_against=tally.mp_against,
                    strength_of_schedule=sos[player],
                    rating=ratings.get(player, 0.0),
                )
            )
    return table


def standings_after(
    round: int,
    players: Sequence[int],
    games: Sequence[Game],
    scoring: Scoring = DEFAULT_SCORING,
    tiebreaks: Sequence[str] = TIEBREAKS,
    ratings: Mapping[int, float] | None = None,
) -> list[Standing]:
    """The standings counting only the games of rounds 1 to `round` (the ratings are as given:
    pass the ratings of that moment if they should match)."""
    return standings(
        players, [game for game in games if game.round <= round], scoring, tiebreaks, ratings
    )


def _check_players(players: Sequence[int]) -> None:
    seen: set[int] = set()
    for player in players:
        if player in seen:
            raise LeagueError(f"Player {player} is listed twice; list each player once.")
        seen.add(player)


def _split(group: list[int], value: Callable[[int], float]) -> list[list[int]]:
    """`group` split into runs of equal value, highest first; ties keep their order."""
    ordered = sorted(group, key=value, reverse=True)  # stable: ties keep the listed order
    runs: list[list[int]] = []
    for player in ordered:
        if runs and value(runs[-1][0]) == value(player):
            runs[-1].append(player)
        else:
            runs.append([player])
    return runs


def _head_to_head(group: list[int], games: Sequence[Game], scoring: Scoring) -> list[list[int]]:
    """Split players tied so far by the league points they scored in the games among them.

    Applies only when every two of them met (else nobody is separated). A part left tied is
    looked at again among exactly its own players: of A, B and C, with A first, B and C are
    compared on their own game.
    """
    members = set(group)
    between = [
        game
        for game in games
        if game.second is not None and game.first in members and game.second in members
    ]
    met = {frozenset((game.first, game.second)) for game in between}
    if any(frozenset((a, b)) not in met for i, a in enumerate(group) for b in group[i + 1 :]):
        return [group]
    scored = {player: 0 for player in group}
    for game in between:
        for player in game.players:
            scored[player] += game.points(player, scoring)
    parts = _split(group, lambda p: scored[p])
    if len(parts) == 1:
        return parts
    refined: list[list[int]] = []
    for part in parts:
        refined.extend(_head_to_head(part, games, scoring) if len(part) > 1 else [part])
    return refined
