"""Ratings from the matches' result columns: openskill across a server's rated matches."""

from __future__ import annotations

import pytest
from conftest import BOTH_BACKENDS
from service_setup import ALICE, BOB, EVE, GUILD

from skirmbot.service import MatchService, Member, ServiceError
from skirmbot.service.ratings import RatingService
from skirmbot.store import Store


@pytest.fixture(params=BOTH_BACKENDS)
def backend(request: pytest.FixtureRequest) -> str:
    """Every test here runs on SQLite and on PostgreSQL (issue 14)."""
    return str(request.param)


async def played(service: MatchService, channel: int, winner: Member, loser: Member) -> None:
    await service.create(GUILD, channel, winner, opponent=loser)
    await service.join(channel, loser)
    await service.choose_squad(channel, winner, "iron-wardens")
    await service.choose_squad(channel, loser, "ash-runners")
    await service.concede(channel, loser)


async def test_the_leaderboard_ranks_by_rating_from_the_result_columns(store: Store) -> None:
    service = MatchService(store, seed_source=lambda: 3)
    await played(service, 1, ALICE, BOB)
    await played(service, 2, ALICE, EVE)
    await played(service, 3, BOB, EVE)
    await service.create(GUILD, 4, ALICE, practice=True)  # against the bot: not rated
    await service.choose_squad(4, ALICE, "iron-wardens")
    await service.concede(4, ALICE)
    ratings = RatingService(store)
    rated = await ratings.ratings(GUILD)
    assert [r.player for r in rated] == [ALICE.id, BOB.id, EVE.id]
    assert [r.rating.games for r in rated] == [2, 2, 2]
    board = await ratings.leaderboard(GUILD)
    assert board.text.index("Alice") < board.text.index("Bob") < board.text.index("Eve")
    mine = await ratings.rating_of(GUILD, ALICE)
    assert "1 of 3" in mine.text
    assert await ratings.ratings(GUILD, "lite") == []
    assert await ratings.ratings(GUILD + 1) == []
    with pytest.raises(ServiceError, match="no rating"):
        await ratings.rating_of(GUILD, Member(77, "Nobody"))
