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
        if game.winner is None:
            placings = (1, 1)
        elif game.winner == game.first:
            placings = (1, 2)
        else:
            placings = (2, 1)
        ratings.update(rate_placings(ratings, [[game.first], [game.second]], placings))
    return ratings


def rate_placings(
    ratings: Mapping[int, PlayerRating],
    teams: Sequence[Sequence[int]],
    placings: Sequence[int],
) -> dict[int, PlayerRating]:
    """The new ratings of the players of one match: `teams` are its sides' players, each side
    placed as `placings` says (1 first; equal placings tie). Plackett-Luce rates any number
    of sides by their ranks, so a free-for-all of three rates all three. Each player's rating
    so far comes from `ratings` (a newcomer's default otherwise)."""
    before = [[ratings.get(player, PlayerRating()) for player in team] for team in teams]
    rated = MODEL.rate(
        [[MODEL.rating(mu=found.mu, sigma=found.sigma) for found in team] for team in before],
        ranks=[float(placing) for placing in placings],
    )
    return {
        player: PlayerRating(new.mu, new.sigma, old.games + 1)
        for team, olds, news in zip(teams, before, rated, strict=True)
        for player, old, new in zip(team, olds, news, strict=True)
    }


def ordinals(ratings: Mapping[int, PlayerRating]) -> dict[int, float]:
    """The displayed ratings, as `standings` and `swiss_order` take them."""
    return {player: rating.ordinal for player, rating in ratings.items()}
