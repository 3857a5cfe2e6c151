"""League logic without Discord, storage or clock: scoring and tiebreaks, standings, Swiss and
round-robin pairings, and openskill ratings. The service and the cogs build on these."""

from skirmbot.leagues.model import (
    DEFAULT_SCORING,
    TIEBREAK_NAMES,
    TIEBREAKS,
    Game,
    LeagueError,
    Scoring,
    Standing,
    check_tiebreaks,
)
from skirmbot.leagues.pairing import (
    Pairing,
    had_byes,
    played_pairs,
    round_robin,
    swiss_order,
    swiss_round,
)
from skirmbot.leagues.ratings import DEFAULT_MU, DEFAULT_SIGMA, PlayerRating, ordinals, rate
from skirmbot.leagues.standings import standings, standings_after

__all__ = [
    "DEFAULT_SCORING",
    "DEFAULT_MU",
    "DEFAULT_SIGMA",
    "TIEBREAKS",
    "TIEBREAK_NAMES",
    "Game",
    "LeagueError",
    "Pairing",
    "PlayerRating",
    "Scoring",
    "Standing",
    "check_tiebreaks",
    "had_byes",
    "ordinals",
    "played_pairs",
    "rate",
    "round_robin",
    "standings",
    "standings_after",
    "swiss_order",
    "swiss_round",
]
