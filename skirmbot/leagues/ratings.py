"""Player ratings with openskill's Plackett-Luce model (a Bayesian Elo-like rating: each player
has a mean skill `mu` and an uncertainty `sigma`; the displayed rating is the cautious
`ordinal`, mu - 3 sigma, which starts at 0 and rises as a player wins and as the rating settles).

Games are rated one by one in round order (games of one round in the order given; a player plays
once a round, so that order does not matter). A draw is a tie; byes and double losses leave
ratings as they are (nobody beat anybody) and do not count as rated games. The model has no
randomness, so the same games give the same ratings.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass

from openskill.models import PlackettLuce

from skirmbot.leagues.model import Game

MODEL = PlackettLuce()
DEFAULT_MU: float = MODEL.mu
DEFAULT_SIGMA: float = MODEL.sigma


@dataclass(frozen=True)
class PlayerRating:
    """A player's rating: openskill's `mu` and `sigma`, and how many rated games it rests on."""

    mu: float = DEFAULT_MU
    sigma: float = DEFAULT_SIGMA
    games: int = 0

    @property
    def ordinal(self) -> float:
        """The displayed rating: mu - 3 sigma (a newcomer's is 0)."""
        return self.mu - 3 * self.sigma


def rate(
    games: Sequence[Game],
    prior: Mapping[int, tuple[float, float]] | None = None,
) -> dict[int, PlayerRating]:
    """Every player's rating after `games`, starting from `prior` ((mu, sigma) by player;
    openskill's defaults for the others). Players of byes and double losses, and players in
    `prior`, appear too, with their rating unchanged."""
    prior = prior or {}
    ratings: dict[int, PlayerRating] = {
        player: PlayerRating(mu=float(mu), sigma=float(sigma))
        for player, (mu, sigma) in prior.items()
    }
    for game in sorted(games, key=lambda g: g.round):  # stable: a round's games keep their order
        for player in game.players:
            ratings.setdefault(player, PlayerRating())
        if game.second is None or game.double_loss:
            continue
        first, second = ratings[game.first], ratings[game.second]
        if game.winner is None:
            ranks = [1.0, 1.0]
        elif game.winner == game.first:
            ranks = [1.0, 2.0]
        else:
            ranks = [2.0, 1.0]
        [[new_first], [new_second]] = MODEL.rate(
            [
                [MODEL.rating(mu=first.mu, sigma=first.sigma)],
                [MODEL.rating(mu=second.mu, sigma=second.sigma)],
            ],
            ranks=ranks,
        )
        ratings[game.first] = PlayerRating(new_first.mu, new_first.sigma, first.games + 1)
        ratings[game.second] = PlayerRating(new_second.mu, new_second.sigma, second.games + 1)
    return ratings


def ordinals(ratings: Mapping[int, PlayerRating]) -> dict[int, float]:
    """The displayed ratings, as `standings` and `swiss_order` take them."""
    return {player: rating.ordinal for player, rating in ratings.items()}
