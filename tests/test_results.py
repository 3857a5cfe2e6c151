"""A finished match's result is stored as columns and rows (issue 13: standings and ratings
never replay records), in the same save that ends it."""

from __future__ import annotations

import sqlite3
from pathlib import Path

from service_setup import ALICE, BOB, CHANNEL, GUILD, end_activations, started

from skirmbot.service import MatchService
from skirmbot.store import Store


async def test_a_concession_stores_the_winner_placings_and_scores(store: Store) -> None:
    service = MatchService(store, seed_source=lambda: 3, clock=lambda: 1_000.0)
    await started(service)
    assert await store.match_results() == []  # nothing while it goes on
    await service.concede(CHANNEL, BOB)
    [(match_id, result)] = await store.match_results(guild_id=GUILD)
    assert (result.ruleset, result.winner, result.ended_at) == ("skirm", 0, 1_000.0)
    assert "conceded" in result.reason
    assert [(s.side, s.user_id, s.name, s.placing) for s in result.seats] == [
        (0, ALICE.id, "Alice", 1),
        (1, BOB.id, "Bob", 2),
    ]
    row = await store.match(match_id)
    assert row is not None and row.status == "ended"


async def test_a_match_played_to_its_end_stores_its_mission_points(store: Store) -> None:
    service = MatchService(store, seed_source=lambda: 4)
    await started(service)
    await end_activations(service)
    [(_, result)] = await store.match_results()
    scores = [seat.score for seat in result.seats]
    placings = [seat.placing for seat in result.seats]
    if result.winner is None:
        assert placings == [1, 1] and scores[0] == scores[1]
    else:
        assert placings[result.winner] == 1 and scores[result.winner] > scores[1 - result.winner]


async def test_an_agreed_draw_places_both_first_and_results_filter_by_ruleset(store: Store) -> None:
    service = MatchService(store, seed_source=lambda: 3)
    await started(service)
    await service.offer_draw(CHANNEL, ALICE)
    await service.accept_draw(CHANNEL, BOB)
    [(_, result)] = await store.match_results(ruleset="skirm")
    assert result.winner is None and [s.placing for s in result.seats] == [1, 1]
    assert await store.match_results(ruleset="lite") == []
    assert await store.match_results(guild_id=GUILD + 1) == []


async def test_a_skirm_lite_match_stores_its_ruleset(store: Store) -> None:
    service = MatchService(store, seed_source=lambda: 3)
    await service.create(GUILD, CHANNEL, ALICE, opponent=BOB, rules="lite")
    await service.join(CHANNEL, BOB)
    await service.choose_squad(CHANNEL, ALICE, "vigil-wardens")
    await service.choose_squad(CHANNEL, BOB, "ash-stalkers")
    await service.deploy(CHANNEL, ALICE)
    await service.deploy(CHANNEL, BOB)
    await service.concede(CHANNEL, ALICE)
    [(_, result)] = await store.match_results(ruleset="lite")
    assert result.winner == 1 and result.seats[1].user_id == BOB.id


async def test_a_match_that_ended_before_results_were_columns_gets_its_result(
    store: Store, tmp_path: Path
) -> None:
    """Migration 005: matches ended before it have no result columns; the bot fills them in
    from their records when it starts, once."""
    service = MatchService(store, seed_source=lambda: 3)
    await started(service)
    await service.concede(CHANNEL, BOB)
    [(match_id, stored)] = await store.match_results()
    with sqlite3.connect(tmp_path / "skirm.db") as db:  # as a match ended before migration 005
        db.execute("UPDATE matches SET winner = NULL, end_reason = NULL, ended_at = NULL")
        db.execute("DELETE FROM match_players")
    assert await store.match_results() == []
    assert await service.complete_results() == [match_id]
    [(_, filled)] = await store.match_results()
    assert (filled.winner, filled.seats, filled.reason) == (
        stored.winner,
        stored.seats,
        stored.reason,
    )
    assert await service.complete_results() == []  # once
