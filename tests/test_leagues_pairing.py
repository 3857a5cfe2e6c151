"""League pairings (issue 13): Swiss by weighted matching, round robin by the circle method."""

from __future__ import annotations

import itertools
import random
from collections import Counter
from collections.abc import Iterator

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from skirmbot.leagues import (
    Game,
    LeagueError,
    Pairing,
    had_byes,
    ordinals,
    played_pairs,
    rate,
    round_robin,
    swiss_order,
    swiss_round,
)


def play(pairing: Pairing, number: int, rng: random.Random) -> list[Game]:
    """Random results for a round (a win either way or a draw, random Mission Points)."""
    games = [
        Game(number, a, b, rng.choice((a, b, None)), (rng.randint(0, 10), rng.randint(0, 10)))
        for a, b in pairing.pairs
    ]
    if pairing.bye is not None:
        games.append(Game(number, pairing.bye, None, pairing.bye))
    return games


def check_seating(pairing: Pairing, ranked: list[int]) -> None:
    """Everyone seated once; higher-ranked first in each pair; boards in rank order."""
    assert sorted(pairing.players) == sorted(ranked)
    rank = {p: i for i, p in enumerate(ranked)}
    assert all(rank[a] < rank[b] for a, b in pairing.pairs)
    assert [rank[a] for a, _ in pairing.pairs] == sorted(rank[a] for a, _ in pairing.pairs)
    assert (pairing.bye is None) == (len(ranked) % 2 == 0)


@pytest.mark.parametrize("seed", range(6))
@pytest.mark.parametrize(("count", "drop_before"), [(12, 3), (12, None), (11, None), (13, 2)])
def test_simulated_swiss_season(seed: int, count: int, drop_before: int | None) -> None:
    """12 players (one of them dropping, so rounds turn odd), 5 rounds, seeded random results:
    no rematch, at most one bye each, byes to the lowest-ranked player without one."""
    rng = random.Random(seed)
    players = [1000 + 7 * i for i in range(count)]
    games: list[Game] = []
    for number in range(1, 6):
        if number == drop_before:
            players.remove(players[rng.randrange(len(players))])
        ranked = swiss_order(players, games, ratings=ordinals(rate(games)))
        played, byes = played_pairs(games), had_byes(games)
        pairing = swiss_round(ranked, played, byes)
        check_seating(pairing, ranked)
        assert pairing.rematches == ()
        assert not any(frozenset(pair) in played for pair in pairing.pairs)
        if pairing.bye is not None:
            assert pairing.bye == [p for p in ranked if p not in byes][-1]
        assert swiss_round(ranked, played, byes) == pairing  # deterministic
        games += play(pairing, number, rng)
    assert max(Counter(g.first for g in games if g.second is None).values(), default=0) <= 1
    assert len(played_pairs(games)) == sum(1 for g in games if g.second is not None)


def test_the_first_round_pairs_neighbours() -> None:
    pairing = swiss_round([5, 4, 3, 2, 1], [], [])
    assert pairing == Pairing(pairs=((5, 4), (3, 2)), bye=1)


def test_bye_goes_to_lowest_ranked_without_one_else_the_lowest() -> None:
    assert swiss_round([1, 2, 3, 4, 5], [], [5]).bye == 4
    assert swiss_round([1, 2, 3, 4, 5], [], [4, 5]).bye == 3
    assert swiss_round([1, 2, 3], [], [1, 2, 3]).bye == 3


def greedy(ranked: list[int], played: set[frozenset[int]]) -> list[tuple[int, int]]:
    """What a greedy pairer does: the best unpaired player takes the nearest one not met."""
    left, pairs = list(ranked), []
    while left:
        first = left.pop(0)
        second = next((p for p in left if frozenset((first, p)) not in played), left[0])
        left.remove(second)
        pairs.append((first, second))
    return pairs


def test_a_last_round_that_greedy_pairing_gets_stuck_in() -> None:
    ranked = [1, 2, 3, 4, 5, 6]
    played = {frozenset(p) for p in [(1, 3), (2, 4), (5, 6), (1, 4), (2, 6), (3, 5), (4, 6)]}
    played |= {frozenset(p) for p in [(1, 5), (2, 3)]}
    stuck = greedy(ranked, played)
    assert any(frozenset(pair) in played for pair in stuck)  # greedy: 1-2, 3-4, then 5-6 again
    pairing = swiss_round(ranked, played, [])
    assert pairing.rematches == ()
    assert pairing.pairs == ((1, 2), (3, 6), (4, 5))


def test_rematches_only_when_unavoidable_and_named() -> None:
    # 1, 2, 3, 4 have all met: any pairing repeats two games.
    played = [frozenset(p) for p in itertools.combinations([1, 2, 3, 4], 2)]
    pairing = swiss_round([1, 2, 3, 4], played, [])
    assert pairing.pairs == ((1, 2), (3, 4))
    assert pairing.rematches == ((1, 2), (3, 4))
    # One pair left unplayed: it is used, and the other pair is the only rematch.
    pairing = swiss_round([1, 2, 3, 4], played[1:], [])
    assert pairing.pairs == ((1, 2), (3, 4)) and pairing.rematches == ((3, 4),)


# History after two rounds (1-4, 2-5, 3-6; 1-6, 2-3, 4-5): the unplayed pairs form a prism, whose
# closest pairing 1-2, 3-4, 5-6 would leave two triangles, so round 4 could not avoid rematches.
PRISM = [frozenset(p) for p in [(1, 4), (2, 5), (3, 6), (1, 6), (2, 3), (4, 5)]]


def test_looking_one_round_ahead_avoids_a_dead_end() -> None:
    ranked = [1, 2, 3, 4, 5, 6]
    short_sighted = swiss_round(ranked, PRISM, [], lookahead=False)
    assert short_sighted.pairs == ((1, 2), (3, 4), (5, 6))
    after = PRISM + [frozenset(pair) for pair in short_sighted.pairs]
    assert swiss_round(ranked, after, []).rematches != ()
    pairing = swiss_round(ranked, PRISM, [])
    assert pairing.rematches == ()
    after = PRISM + [frozenset(pair) for pair in pairing.pairs]
    assert swiss_round(ranked, after, []).rematches == ()


@settings(max_examples=60, deadline=None)
@given(st.integers(0, 2**32), st.sampled_from([5, 6]))
def test_small_swiss_seasons_meet_everyone_once(seed: int, count: int) -> None:
    """6 players over 5 Swiss rounds play every pair once (5 players: one bye each too)."""
    rng = random.Random(seed)
    players = list(range(1, count + 1))
    rng.shuffle(players)
    games: list[Game] = []
    for number in range(1, 6):
        ranked = swiss_order(players, games, ratings=ordinals(rate(games)))
        pairing = swiss_round(ranked, played_pairs(games), had_byes(games))
        assert pairing.rematches == ()
        games += play(pairing, number, rng)
    assert len(played_pairs(games)) == count * (count - 1) // 2
    if count % 2:
        assert sorted(had_byes(games)) == sorted(players)


def perfect_matchings(nodes: list[int]) -> Iterator[list[tuple[int, int]]]:
    if not nodes:
        yield []
        return
    first, rest = nodes[0], nodes[1:]
    for i, second in enumerate(rest):
        for more in perfect_matchings(rest[:i] + rest[i + 1 :]):
            yield [(first, second), *more]


@st.composite
def histories(draw: st.DrawFn) -> tuple[list[int], set[frozenset[int]], set[int]]:
    count = draw(st.integers(2, 8))
    ids = draw(st.lists(st.integers(0, 10**18), min_size=count, max_size=count, unique=True))
    pairs = [frozenset(p) for p in itertools.combinations(ids, 2)]
    played = draw(st.sets(st.sampled_from(pairs))) if pairs else set()
    byes = draw(st.sets(st.sampled_from(ids)))
    return ids, played, byes


@settings(max_examples=300, deadline=None)
@given(histories())
def test_swiss_finds_a_pairing_without_rematches_whenever_one_exists(
    history: tuple[list[int], set[frozenset[int]], set[int]],
) -> None:
    """Against brute force over every pairing (n <= 8): a fresh bye when anyone lacks one, no
    rematch when a pairing without one exists; and (not looking ahead) the bye as low as
    possible and the least sum of squared rank differences."""
    ranked, played, byes = history
    rank = {p: i for i, p in enumerate(ranked)}
    fresh = [p for p in ranked if p not in byes]
    candidates: list[int | None] = [None]
    if len(ranked) % 2:
        candidates = list(fresh or ranked)
    options = []  # (bye, pairs) without rematches
    for bye in candidates:
        for pairs in perfect_matchings([p for p in ranked if p != bye]):
            if not any(frozenset(pair) in played for pair in pairs):
                options.append((bye, pairs))

    for lookahead in (True, False):
        pairing = swiss_round(ranked, played, byes, lookahead=lookahead)
        check_seating(pairing, ranked)
        assert pairing.rematches == tuple(p for p in pairing.pairs if frozenset(p) in played)
        if len(ranked) % 2 and fresh:
            assert pairing.bye in fresh
        if options:
            assert pairing.rematches == ()
    if options:
        pairing = swiss_round(ranked, played, byes, lookahead=False)
        lowest = max((bye for bye, _ in options), key=lambda b: -1 if b is None else rank[b])
        assert pairing.bye == lowest

        def spread(pairs: list[tuple[int, int]] | tuple[tuple[int, int], ...]) -> int:
            return sum((rank[a] - rank[b]) ** 2 for a, b in pairs)

        assert spread(pairing.pairs) == min(spread(p) for b, p in options if b == lowest)


@pytest.mark.parametrize("count", [2, 3, 5, 6, 8, 9])
def test_round_robin(count: int) -> None:
    players = [10 * i + 3 for i in range(count)]
    rounds = round_robin(players)
    assert len(rounds) == (count if count % 2 else count - 1)
    met = Counter(frozenset(pair) for r in rounds for pair in r.pairs)
    assert set(met) == {frozenset(p) for p in itertools.combinations(players, 2)}
    assert set(met.values()) == {1}
    for pairing in rounds:
        assert sorted(pairing.players) == sorted(players)
        assert pairing.rematches == ()
    byes = [r.bye for r in rounds if r.bye is not None]
    assert sorted(byes) == (sorted(players) if count % 2 else [])
    assert round_robin(players) == rounds


def test_round_robin_of_six_and_five_by_the_circle() -> None:
    assert round_robin([1, 2, 3, 4, 5, 6])[0].pairs == ((1, 6), (2, 5), (3, 4))
    assert round_robin([1, 2, 3, 4, 5, 6])[1].pairs == ((5, 1), (6, 4), (2, 3))
    assert [r.bye for r in round_robin([1, 2, 3, 4, 5])] == [1, 4, 2, 5, 3]


def test_bad_input_in_plain_words() -> None:
    with pytest.raises(LeagueError, match="listed twice"):
        swiss_round([1, 2, 1], [], [])
    with pytest.raises(LeagueError, match="at least 2 players"):
        swiss_round([1], [], [])
    with pytest.raises(LeagueError, match="at least 2 players"):
        round_robin([])
    with pytest.raises(LeagueError, match="listed twice"):
        round_robin([4, 4])


def test_pairing_helpers() -> None:
    games = [Game(1, 1, 2, 1), Game(1, 3, None, 3)]
    assert played_pairs(games) == {frozenset((1, 2))}
    assert had_byes(games) == {3}
    assert swiss_order([1, 2, 3, 4], games, ratings={4: 2.0}) == [1, 3, 4, 2]
    pairing = swiss_round([1, 2, 3], [], [])
    assert pairing.opponent(1) == 2 and pairing.opponent(3) is None
    with pytest.raises(LeagueError, match="not in this round"):
        pairing.opponent(9)
