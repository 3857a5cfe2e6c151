"""League ratings with openskill (issue 13)."""

from __future__ import annotations

import random

import pytest

from skirmbot.leagues import DEFAULT_MU, DEFAULT_SIGMA, Game, PlayerRating, ordinals, rate


def test_a_winner_rises_above_the_loser() -> None:
    ratings = rate([Game(1, 1, 2, 2)])
    assert ratings[2].ordinal > ratings[1].ordinal
    assert ratings[2].mu > DEFAULT_MU > ratings[1].mu
    assert ratings[1].games == ratings[2].games == 1
    assert ratings[2].ordinal > PlayerRating().ordinal == pytest.approx(0.0, abs=1e-9)


def test_a_draw_between_equals_leaves_them_equal() -> None:
    ratings = rate([Game(1, 1, 2, None)])
    assert ratings[1] == ratings[2]
    assert ratings[1].mu == pytest.approx(DEFAULT_MU)
    assert ratings[1].sigma < DEFAULT_SIGMA  # more is known of them now


def test_byes_and_double_losses_change_nothing() -> None:
    ratings = rate([Game(1, 1, None, 1), Game(1, 2, 3, None, double_loss=True)])
    assert ratings == {1: PlayerRating(), 2: PlayerRating(), 3: PlayerRating()}


def test_prior_ratings_carry_on() -> None:
    prior = {1: (30.0, 4.0), 2: (20.0, 4.0), 9: (25.0, 2.0)}
    ratings = rate([Game(1, 1, 2, 1)], prior)
    assert ratings[1].mu > 30.0 and ratings[2].mu < 20.0
    assert ratings[9] == PlayerRating(25.0, 2.0, 0)
    # An upset moves the ratings more than the expected result.
    upset = rate([Game(1, 1, 2, 2)], prior)
    assert 30.0 - upset[1].mu > ratings[1].mu - 30.0


def test_the_same_games_give_the_same_ratings() -> None:
    rng = random.Random(4)
    games = [
        Game(number, a, b, rng.choice((a, b, None)))
        for number in range(1, 6)
        for a, b in [(1, 2), (3, 4), (5, 6)]
    ]
    first = rate(games)
    assert rate(list(games)) == first
    # Rounds are rated in order whatever order the games come in.
    assert rate(sorted(games, key=lambda g: -g.round)) == first
    assert ordinals(first) == {p: r.ordinal for p, r in first.items()}
    assert ordinals(first)[1] == pytest.approx(first[1].mu - 3 * first[1].sigma)
