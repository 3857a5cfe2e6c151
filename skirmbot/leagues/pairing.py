"""Pairing a league round: Swiss by weighted matching, round robin by the circle method.

Why networkx and not a hand-written pairer: a greedy Swiss pairer (take the best player, give
them the nearest opponent they have not met, repeat) paints itself into a corner in the last
rounds, when the few players left at the bottom have all met already, and backtracking fixes
that only slowly and with many special cases. Pairing a round without rematches is exactly a
perfect matching in the graph of pairs that have not met, and preferring close opponents makes
it a maximum-weight matching. That is Edmonds' blossom algorithm, which is long and easy to get
subtly wrong; networkx's `max_weight_matching` is a well-kept, well-tested implementation of it
(integer weights keep it exact), so we only choose the weights.
"""

from __future__ import annotations

from collections.abc import Collection, Iterable, Mapping, Sequence
from dataclasses import dataclass

import networkx as nx

from skirmbot.leagues.model import DEFAULT_SCORING, Game, LeagueError, Scoring


@dataclass(frozen=True)
class Pairing:
    """One round's pairings: `pairs` in board order, the higher-ranked player first in each;
    `bye` the player who sits out (scores as a win), if any; `rematches` those of `pairs` whose
    players met before (only when no pairing without rematches exists)."""

    pairs: tuple[tuple[int, int], ...]
    bye: int | None = None
    rematches: tuple[tuple[int, int], ...] = ()

    @property
    def players(self) -> tuple[int, ...]:
        """Everyone in this round, board by board, then the bye."""
        seated = tuple(player for pair in self.pairs for player in pair)
        return seated if self.bye is None else (*seated, self.bye)

    def opponent(self, player: int) -> int | None:
        """`player`'s opponent this round (None for the bye)."""
        for first, second in self.pairs:
            if player == first:
                return second
            if player == second:
                return first
        if player == self.bye:
            return None
        raise LeagueError(f"Player {player} is not in this round.")


_BYE = -1  # the bye's node in the matching graph; players are Discord ids, never negative

# Speed: the blossom algorithm on all pairs of 256 players takes seconds in pure Python, yet good
# opponents are near in rank. So opponents are first sought among the nearest WINDOWS[0] ranks
# either side, then WINDOWS[1]; only if that gives no full pairing without rematches (or no bye
# for a player who has not had one) are all pairs, rematches too, looked at. A league of up to
# 2 * WINDOWS[0] + 1 players always looks at every pair.
WINDOWS = (16, 64)

# Looking one round ahead: how many other pairings may be tried (each is one matching) to find
# one after which the next round can still be paired without rematches.
LOOKAHEAD_TRIES = 64

_Edge = frozenset[int]  # a pair of players, or a player and _BYE


def swiss_round(
    ranked: Sequence[int],
    played: Collection[frozenset[int]],
    had_bye: Collection[int],
    *,
    lookahead: bool = True,
) -> Pairing:
    """Pair a Swiss round.

    `ranked`: the players still in, best first (by score, then rating; the caller ranks them).
    `played`: the pairs who already met. `had_bye`: the players who already had a bye.

    What the pairing respects, most important first:
    1. with an odd count, the bye goes to a player who has not had one (if any has not);
    2. as few rematches as possible: none while a pairing without them exists;
    3. the bye goes to the lowest-ranked such player (a higher one only when the lowest would
       force a rematch);
    4. opponents as close in rank as possible (the sum of squared rank differences is least).

    All four are one maximum-weight perfect matching, with each rule's weight larger than
    everything the rules below it can add up to (see WINDOWS for which pairs are looked at
    first). Then, with `lookahead` (pass False for a season's last round), if that pairing would
    leave the next round no pairing without rematches (in a small league's last rounds: 6 players
    whose unplayed pairs form two triangles), the best pairing found that does leave one is taken
    instead (rules 1 and 2 still hold; 3 and 4 give way). The same input always gives the same
    pairing.
    """
    _check_players(ranked, at_least=2)
    plan = _Plan(list(ranked), {pair for pair in played if len(pair) == 2}, set(had_bye))
    best = plan.solve(frozenset())
    if lookahead and plan.clean(best) and not plan.next_round_possible(best):
        best = plan.look_ahead(best)
    return plan.pairing(best)


class _Plan:
    """One Swiss round's players, history and edge weights."""

    def __init__(self, players: list[int], played: set[frozenset[int]], byes_had: set[int]):
        self.players = players
        self.played = played
        self.byes_had = byes_had
        self.rank = {player: i for i, player in enumerate(players)}
        count = len(players)
        self.odd = count % 2 == 1
        self.needs_fresh_bye = self.odd and any(p not in byes_had for p in players)
        self.size = (count + 1) // 2  # edges in a perfect matching (the bye's included)
        # Weights, from the least important rule up; each tier exceeds all the tiers below it.
        self.closeness_top = count * count  # one pair: closeness_top - (rank difference)^2 >= 1
        self.bye_step = self.size * self.closeness_top + 1  # > any sum of closeness
        self.no_rematch = self.bye_step * (count + 2)  # > any bye position + all closeness
        self.fresh_bye = self.no_rematch * (self.size + 1)  # > all the rematch tier and below

    def weight(self, edge: _Edge) -> int:
        if _BYE in edge:
            (player,) = edge - {_BYE}
            weight = self.no_rematch + self.bye_step * (self.rank[player] + 1)
            return weight + (self.fresh_bye if player not in self.byes_had else 0)
        first, second = sorted(self.rank[player] for player in edge)
        weight = self.closeness_top - (second - first) ** 2
        return weight + (self.no_rematch if edge not in self.played else 0)

    def total(self, matching: frozenset[_Edge]) -> int:
        return sum(self.weight(edge) for edge in matching)

    def solve(self, forbidden: frozenset[_Edge]) -> frozenset[_Edge]:
        """The best matching without the `forbidden` edges: first among near opponents (see
        WINDOWS), then among all pairs, rematches too."""
        count = len(self.players)
        stages: list[int | None] = []
        for window in WINDOWS:
            stages.append(min(window, count - 1))
            if window >= count - 1:
                break  # this window already reaches every pair
        matching: frozenset[_Edge] = frozenset()
        for stage in (*stages, None):
            matching = self._match(forbidden, stage)
            if stage is None or self.clean(matching):
                break
        return matching

    def clean(self, matching: frozenset[_Edge]) -> bool:
        """Whether `matching` seats everyone, without rematches, with a fresh bye if it can."""
        if len(matching) != self.size:
            return False
        if any(_BYE not in edge and edge in self.played for edge in matching):
            return False
        return not self.needs_fresh_bye or any(
            _BYE in edge and not (edge - {_BYE}) <= self.byes_had for edge in matching
        )

    def _match(self, forbidden: frozenset[_Edge], window: int | None) -> frozenset[_Edge]:
        count = len(self.players)
        reach = count if window is None else min(count, window + 1)
        graph: nx.Graph[int] = nx.Graph()
        graph.add_nodes_from(self.players)
        for i, first in enumerate(self.players):
            for j in range(i + 1, min(count, i + reach)):
                edge = frozenset((first, self.players[j]))
                if edge in forbidden or (window is not None and edge in self.played):
                    continue
                graph.add_edge(first, self.players[j], weight=self.weight(edge))
        if self.odd:
            graph.add_node(_BYE)
            for player in self.players:
                edge = frozenset((player, _BYE))
                if edge not in forbidden:
                    graph.add_edge(player, _BYE, weight=self.weight(edge))
        matching = nx.max_weight_matching(graph, maxcardinality=True)
        return frozenset(frozenset(pair) for pair in matching)

    def next_round_possible(self, matching: frozenset[_Edge]) -> bool:
        """Whether, after `matching`, the same players could be paired again without rematches
        (and with a fresh bye if anyone would still lack one)."""
        played = self.played | {edge for edge in matching if _BYE not in edge}
        byes_had = set(self.byes_had)
        for edge in matching:
            if _BYE in edge:
                byes_had |= edge - {_BYE}
        fresh = [p for p in self.players if p not in byes_had]
        graph: nx.Graph[int] = nx.Graph()
        graph.add_nodes_from(self.players)
        for i, first in enumerate(self.players):
            for second in self.players[i + 1 :]:
                if frozenset((first, second)) not in played:
                    graph.add_edge(first, second)
        if self.odd:
            graph.add_edges_from((player, _BYE) for player in (fresh or self.players))
        nodes = graph.number_of_nodes()
        # Dirac: when every node is joined to at least half the others there is a Hamiltonian
        # cycle, so an even count has a perfect matching; this spares large leagues a matching.
        if not self.odd and min(degree for _, degree in graph.degree) * 2 >= nodes:
            return True
        return len(nx.max_weight_matching(graph, maxcardinality=True)) * 2 == nodes

    def look_ahead(self, best: frozenset[_Edge]) -> frozenset[_Edge]:
        """The heaviest clean matching found (by forbidding, breadth first, edges of the ones
        found so far) that leaves the next round pairable; `best` if none is found."""
        found: frozenset[_Edge] | None = None
        frontier: list[tuple[frozenset[_Edge], frozenset[_Edge]]] = [(frozenset(), best)]
        tried: set[frozenset[_Edge]] = set()
        tries = 0
        while frontier and found is None and tries < LOOKAHEAD_TRIES:
            level, frontier = frontier, []
            for forbidden, matching in level:
                for edge in sorted(matching, key=self._edge_order):
                    more = forbidden | {edge}
                    if more in tried or tries >= LOOKAHEAD_TRIES:
                        continue
                    tried.add(more)
                    tries += 1
                    other = self.solve(more)
                    if not self.clean(other):
                        continue
                    if not self.next_round_possible(other):
                        frontier.append((more, other))
                    elif found is None or self.total(other) > self.total(found):
                        found = other
        return best if found is None else found

    def _edge_order(self, edge: _Edge) -> list[int]:
        return sorted(self.rank.get(player, len(self.players)) for player in edge)

    def pairing(self, matching: frozenset[_Edge]) -> Pairing:
        bye: int | None = None
        pairs: list[tuple[int, int]] = []
        for edge in matching:
            if _BYE in edge:
                (bye,) = edge - {_BYE}
                continue
            first, second = sorted(edge, key=self.rank.__getitem__)
            pairs.append((first, second))
        pairs.sort(key=lambda pair: self.rank[pair[0]])
        rematches = tuple(pair for pair in pairs if frozenset(pair) in self.played)
        return Pairing(pairs=tuple(pairs), bye=bye, rematches=rematches)


def round_robin(players: Sequence[int]) -> list[Pairing]:
    """Every round of a round robin by the circle method: the first player stays put, the others
    turn one place each round. With an odd count a "bye" seat joins the circle, so each player
    has exactly one bye; every two players meet exactly once. The fixed player alternates
    sides so nobody is always listed first."""
    _check_players(players, at_least=2)
    seats: list[int | None] = list(players)
    if len(seats) % 2:
        seats.append(None)
    count = len(seats)
    rounds: list[Pairing] = []
    for number in range(count - 1):
        pairs: list[tuple[int, int]] = []
        bye: int | None = None
        for board in range(count // 2):
            home, away = seats[board], seats[count - 1 - board]
            if board == 0 and number % 2:
                home, away = away, home
            if home is None or away is None:
                bye = away if home is None else home
                continue
            pairs.append((home, away))
        rounds.append(Pairing(pairs=tuple(pairs), bye=bye))
        seats = [seats[0], seats[-1], *seats[1:-1]]
    return rounds


def played_pairs(games: Iterable[Game]) -> frozenset[frozenset[int]]:
    """The pairs of players who met in `games` (byes left out), for `swiss_round`."""
    return frozenset(
        frozenset((game.first, game.second)) for game in games if game.second is not None
    )


def had_byes(games: Iterable[Game]) -> frozenset[int]:
    """The players who had a bye in `games`, for `swiss_round`."""
    return frozenset(game.first for game in games if game.second is None)


def swiss_order(
    players: Sequence[int],
    games: Iterable[Game],
    scoring: Scoring = DEFAULT_SCORING,
    ratings: Mapping[int, float] | None = None,
) -> list[int]:
    """`players` ranked for a Swiss round: by league points, then rating, then as listed."""
    _check_players(players, at_least=0)
    points = dict.fromkeys(players, 0)
    for game in games:
        for player in game.players:
            if player in points:
                points[player] += game.points(player, scoring)
    ratings = ratings or {}
    return sorted(players, key=lambda p: (-points[p], -ratings.get(p, 0.0)))


def _check_players(players: Sequence[int], at_least: int) -> None:
    seen: set[int] = set()
    for player in players:
        if player in seen:
            raise LeagueError(f"Player {player} is listed twice; list each player once.")
        if player < 0:
            raise LeagueError(f"Player ids are Discord user ids, never negative (got {player}).")
        seen.add(player)
    if len(seen) < at_least:
        raise LeagueError(
            f"A round needs at least {at_least} players; there {'is' if len(seen) == 1 else 'are'} "
            f"{len(seen)}."
        )
