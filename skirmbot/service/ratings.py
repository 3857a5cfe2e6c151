"""Ratings without Discord: openskill (Plackett-Luce) across a server's rated matches.

Read from the matches' result columns (`Store.match_results`), never from their records. A
rated match is a finished match between people: one against the automatic player (or with an
open seat) is not rated. Matches are rated in the order they ended; a draw is a tie; a match
of more than two sides (a free-for-all) is rated by its placings, and a side of several seats
as a team. The displayed rating is the cautious ordinal (mu - 3 sigma), 0 for a newcomer. A
league's own ratings come from its games (`skirmbot.leagues.rate`, see
LeagueService.standings).
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass

from skirmbot.leagues.ratings import PlayerRating, rate_placings
from skirmbot.service.errors import ServiceError
from skirmbot.service.matches import Member, ruleset_name, ruleset_title
from skirmbot.service.replies import Reply, clip
from skirmbot.store import MatchResult, Store

LEADERBOARD_SIZE = 20


@dataclass(frozen=True)
class Rated:
    """One player's rating on a server, with the name they last played under."""

    player: int
    name: str
    rating: PlayerRating


def rate_results(results: Iterable[MatchResult]) -> dict[int, PlayerRating]:
    """Every player's rating after these results, rated in the order given (oldest first)."""
    ratings: dict[int, PlayerRating] = {}
    for result in results:
        sides = _rated_sides(result)
        if sides is not None:
            teams, placings = sides
            ratings.update(rate_placings(ratings, teams, placings))
    return ratings


def _rated_sides(result: MatchResult) -> tuple[list[list[int]], list[int]] | None:
    """Each side's players and its placing, side by side, for a match between people: None
    when a seat was the automatic player's or open, a person sat twice, or one side played."""
    people = [seat.user_id for seat in result.seats]
    if not all(people) or len(set(people)) != len(people):
        return None
    teams: dict[int, list[int]] = {}
    placings: dict[int, int] = {}
    for seat in result.seats:
        assert seat.user_id is not None
        teams.setdefault(seat.side, []).append(seat.user_id)
        placings[seat.side] = seat.placing
    if len(teams) < 2:
        return None
    return list(teams.values()), [placings[side] for side in teams]


class RatingService:
    def __init__(self, store: Store) -> None:
        self.store = store

    async def ratings(self, guild: int, ruleset: str | None = None) -> list[Rated]:
        """The server's rated players (of one ruleset's matches, named as a player may type
        it), best first."""
        rules = ruleset_name(ruleset) if ruleset is not None else None
        results = [result for _, result in await self.store.match_results(guild, rules)]
        names: dict[int, str] = {}
        for result in results:
            for seat in result.seats:
                if seat.user_id:
                    names[seat.user_id] = seat.name
        rated = [
            Rated(player, names.get(player, str(player)), rating)
            for player, rating in rate_results(results).items()
        ]
        return sorted(rated, key=lambda r: (-r.rating.ordinal, r.name.casefold(), r.player))

    async def ordinals(self, guild: int, ruleset: str | None = None) -> dict[int, float]:
        """The displayed rating of every rated player of the server."""
        return {r.player: r.rating.ordinal for r in await self.ratings(guild, ruleset)}

    async def leaderboard(self, guild: int, ruleset: str | None = None) -> Reply:
        """The server's best rated players (of one ruleset), for /rating leaderboard."""
        title = ruleset_title(ruleset) if ruleset is not None else None
        rated = await self.ratings(guild, ruleset)
        if not rated:
            return Reply(
                f"No rated {title + ' ' if title else ''}matches on this server yet: a match "
                "between two players counts once it ends."
            )
        lines = [f"**Rating leaderboard{f' ({title})' if title else ''}**"]
        for place, found in enumerate(rated[:LEADERBOARD_SIZE], start=1):
            lines.append(f"{place}. {found.name}: {_rating(found.rating)}")
        if len(rated) > LEADERBOARD_SIZE:
            lines.append(f"… and {len(rated) - LEADERBOARD_SIZE} more rated players.")
        return Reply(clip("\n".join(lines)))

    async def rating_of(self, guild: int, member: Member, ruleset: str | None = None) -> Reply:
        """A member's rating on the server and their place, for /rating show."""
        rated = await self.ratings(guild, ruleset)
        for place, found in enumerate(rated, start=1):
            if found.player == member.id:
                return Reply(
                    f"{member.name}: {_rating(found.rating)}, "
                    f"{place} of {len(rated)} rated players on this server."
                )
        raise ServiceError(
            f"{member.name} has no rating on this server yet: it comes with their first "
            "finished match against another player."
        )


def _rating(rating: PlayerRating) -> str:
    games = f"{rating.games} rated match{'es' if rating.games != 1 else ''}"
    return f"rating {rating.ordinal:.1f} (skill {rating.mu:.1f} ± {rating.sigma:.1f}, {games})"
