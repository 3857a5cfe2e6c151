"""A league's plain values: how results score, which tiebreaks exist, one game's result and one
player's line in the standings.

Players are ints (Discord user ids). Nothing here knows Discord, the store or the clock.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass


class LeagueError(ValueError):
    """Bad league input (an unknown tiebreak, a player listed twice, a game that names a winner
    who did not play it). The message is a whole sentence a player or organiser can read."""


@dataclass(frozen=True)
class Scoring:
    """League points for a win, a draw and a loss. A bye scores as a win; a double loss scores
    as a loss for both players."""

    win: int = 3
    draw: int = 1
    loss: int = 0

    def __post_init__(self) -> None:
        if self.win < self.draw or self.draw < self.loss:
            raise LeagueError(
                f"A win must score at least as much as a draw, and a draw at least as much as a "
                f"loss (got win {self.win}, draw {self.draw}, loss {self.loss})."
            )


DEFAULT_SCORING = Scoring()  # 3 for a win (and a bye), 1 for a draw, 0 for a loss

# The known tiebreak keys, in the default order. Each ranks the higher value first.
TIEBREAKS: tuple[str, ...] = (
    "points",
    "mp_difference",
    "strength_of_schedule",
    "rating",
    "wins",
    "head_to_head",
)

TIEBREAK_NAMES: dict[str, str] = {
    "points": "league points",
    "mp_difference": "Mission Point difference",
    "strength_of_schedule": "strength of schedule",
    "rating": "rating",
    "wins": "wins",
    "head_to_head": "head-to-head",
}


def check_tiebreaks(order: Sequence[str]) -> tuple[str, ...]:
    """The tiebreak order as given, checked, with "points" first (added if missing, moved to the
    front if elsewhere). Raises LeagueError for an unknown key or one named twice."""
    if isinstance(order, str):
        raise LeagueError(
            f"The tiebreak order is a list of keys, not one text; the known keys are {_known()}."
        )
    seen: list[str] = []
    for key in order:
        if key not in TIEBREAKS:
            raise LeagueError(f'"{key}" is not a tiebreak; the known tiebreaks are {_known()}.')
        if key in seen:
            raise LeagueError(
                f'The tiebreak "{key}" is named twice; name each at most once (the known '
                f"tiebreaks are {_known()})."
            )
        seen.append(key)
    return ("points", *(key for key in seen if key != "points"))


def _known() -> str:
    return ", ".join(TIEBREAKS)


@dataclass(frozen=True)
class Game:
    """One pairing's result in a round.

    `second=None` is a bye for `first` (scores as a win). `winner=None` without `double_loss`
    is a draw; `double_loss` means both players lose (an unfinished match the organiser closed
    that way). `mp` is the Mission Points (first's, second's).
    """

    round: int
    first: int
    second: int | None
    winner: int | None
    mp: tuple[int, int] = (0, 0)
    double_loss: bool = False

    def __post_init__(self) -> None:
        if self.round < 1:
            raise LeagueError(f"Rounds are numbered from 1 (got round {self.round}).")
        if self.second is not None and self.first == self.second:
            raise LeagueError(f"Player {self.first} cannot play against themselves.")
        if self.second is None:
            if self.double_loss:
                raise LeagueError(f"A bye (player {self.first}) cannot be a double loss.")
            if self.winner not in (None, self.first):
                raise LeagueError(
                    f"A bye for player {self.first} cannot have another winner ({self.winner})."
                )
            return
        if self.winner is not None and self.winner not in (self.first, self.second):
            raise LeagueError(
                f"Player {self.winner} did not play the game between {self.first} and "
                f"{self.second}, so cannot have won it."
            )
        if self.double_loss and self.winner is not None:
            raise LeagueError(
                f"The game between {self.first} and {self.second} cannot be both a double loss "
                f"and won by {self.winner}."
            )

    @property
    def is_bye(self) -> bool:
        return self.second is None

    @property
    def is_draw(self) -> bool:
        return self.second is not None and self.winner is None and not self.double_loss

    @property
    def players(self) -> tuple[int, ...]:
        return (self.first,) if self.second is None else (self.first, self.second)

    def opponent(self, player: int) -> int | None:
        """The other player of this game (None for a bye)."""
        if player == self.first:
            return self.second
        if player == self.second:
            return self.first
        raise LeagueError(f"Player {player} did not play this game.")

    def points(self, player: int, scoring: Scoring) -> int:
        """The league points `player` scored in this game."""
        self.opponent(player)  # checks that they played it
        if self.second is None or self.winner == player:
            return scoring.win
        if self.is_draw:
            return scoring.draw
        return scoring.loss

    def mission_points(self, player: int) -> tuple[int, int]:
        """(scored, conceded) Mission Points for `player`."""
        self.opponent(player)
        return self.mp if player == self.first else (self.mp[1], self.mp[0])


@dataclass(frozen=True)
class Standing:
    """One player's line in the standings. `wins`, `draws` and `losses` count games played at
    the table (a double loss is a loss); `byes` are counted apart but score as wins. `played`
    is wins + draws + losses (byes not included). `rank` is shared (1, 2, 2, 4) only by players
    tied on every configured tiebreak."""

    player: int
    rank: int
    played: int
    wins: int
    draws: int
    losses: int
    byes: int
    points: int
    mp_for: int
    mp_against: int
    strength_of_schedule: int
    rating: float

    @property
    def mp_difference(self) -> int:
        return self.mp_for - self.mp_against
