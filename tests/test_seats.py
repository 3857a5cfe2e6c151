"""Seats in the service (issue 29): a match of as many players as its ruleset seats, joined
seat by seat, finished with a placing per seat, and rated from the placings.

Skirm and Skirm Lite seat two; a ruleset of 2 to 4 is stood in for here by Skirm with more
seats (`more_seats`: set-up never replays the match) and, for results, by a stub ruleset
whose state is its outcome."""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass
from types import SimpleNamespace

import pytest
from service_setup import ALICE, BOB, CHANNEL, EVE, GUILD

from skirmbot import content
from skirmbot.rules import ruleset as registry
from skirmbot.rules.record import MatchRecord
from skirmbot.rules.ruleset import Outcome, ruleset, seats_of_their_own
from skirmbot.service import MatchService, Member, NotAllowed, ServiceError
from skirmbot.service.matches import AUTOMATIC, _counts, result_of
from skirmbot.service.ratings import RatingService, rate_results
from skirmbot.store import MatchResult, SeatResult, Store

DAN = Member(44, "Dan")


@dataclass(frozen=True)
class FreeForAll:
    """A ruleset of 2 to 4 players each for themselves whose match state is its outcome."""

    name: str = "ffa"
    title: str = "Free For All"
    seats: tuple[int, ...] = (2, 3, 4)

    def sides_of(self, players: int) -> tuple[tuple[int, ...], ...]:
        return seats_of_their_own(players)

    def outcome(self, state: Outcome) -> Outcome:
        return state


@pytest.fixture
def free_for_all(monkeypatch: pytest.MonkeyPatch) -> Iterator[FreeForAll]:
    registry.rulesets()  # the shipped ones first: the registry fills itself once
    stub = FreeForAll()
    monkeypatch.setitem(registry._REGISTRY, stub.name, stub)
    yield stub


@pytest.fixture
def more_seats(monkeypatch: pytest.MonkeyPatch) -> None:
    """Skirm seating 2 to 4 players, for set-up (its matches are never played here)."""
    monkeypatch.setattr(ruleset("skirm"), "seats", (2, 3, 4))


def service_on(store: Store) -> MatchService:
    return MatchService(store, seed_source=lambda: 3, clock=lambda: 1_000.0)


# -- how many players ---------------------------------------------------------------------------


async def test_a_ruleset_is_played_by_as_many_players_as_it_seats(
    store: Store, free_for_all: FreeForAll
) -> None:
    service = service_on(store)
    with pytest.raises(ServiceError) as refused:
        await service.create(GUILD, CHANNEL, ALICE, players=3)
    assert str(refused.value) == (
        "Skirm is played by 2 players; d20 Skirmish by 2 to 4; Free For All by 2 to 4."
    )
    with pytest.raises(ServiceError, match=r"^Skirm Lite is played by 2 players\.$"):
        await service.create(GUILD, CHANNEL, ALICE, players=5, rules="lite")
    assert await store.active_matches() == []


def test_how_many_players_a_ruleset_takes_reads_as_words() -> None:
    assert (_counts((2,)), _counts((2, 3, 4)), _counts((4, 2)), _counts((2, 3))) == (
        "2",
        "2 to 4",
        "2 or 4",
        "2 or 3",
    )


async def test_a_match_of_two_is_told_as_before(store: Store) -> None:
    service = service_on(store)
    created = await service.create(GUILD, CHANNEL, ALICE, players=2)
    assert "Alice plays squad 1; anyone may join as squad 2.\nBoth players: pick" in created.text
    joined = await service.join(CHANNEL, BOB)
    assert joined.text == "Bob joins as squad 2. Both players: pick a squad with /match squad."
    with pytest.raises(ServiceError, match="already has two players"):
        await service.join(CHANNEL, EVE)


# -- joining seat by seat -------------------------------------------------------------------------


async def test_players_take_the_open_seats_in_order(store: Store, more_seats: None) -> None:
    service = service_on(store)
    created = await service.create(GUILD, CHANNEL, ALICE, players=3)
    assert "Alice plays squad 1; anyone may join as squads 2 and 3.\nEvery player: pick" in (
        created.text
    )
    first = await service.join(CHANNEL, BOB)
    assert first.text.startswith("Bob joins as squad 2. 1 seat still open (/match join). ")
    with pytest.raises(ServiceError, match="already have a seat"):
        await service.join(CHANNEL, BOB)
    last = await service.join(CHANNEL, EVE)
    assert last.text == "Eve joins as squad 3. Every player: pick a squad with /match squad."
    with pytest.raises(ServiceError, match="already has three players"):
        await service.join(CHANNEL, DAN)
    row = await store.active_match(CHANNEL)
    assert row is not None
    assert (row.players, row.names) == ([ALICE.id, BOB.id, EVE.id], ["Alice", "Bob", "Eve"])
    assert row.record["players"] == ["Alice", "Bob", "Eve"]
    assert row.setup["squads"] == row.record["content"]["squads"] == [None, None, None]
    status = (await service.status(CHANNEL)).text
    assert status.splitlines()[1:] == [
        "Squad 1: Alice, no squad yet",
        "Squad 2: Bob, no squad yet",
        "Squad 3: Eve, no squad yet",
    ]


async def test_a_challenged_player_keeps_their_seat_and_the_others_are_open(
    store: Store, more_seats: None
) -> None:
    service = service_on(store)
    created = await service.create(GUILD, CHANNEL, ALICE, opponent=BOB, players=4)
    assert "may join as squad 2 (/match join), anyone as squads 3 and 4." in created.text
    assert (await service.join(CHANNEL, EVE)).text.startswith("Eve joins as squad 3.")
    assert (await service.join(CHANNEL, DAN)).text.startswith("Dan joins as squad 4.")
    with pytest.raises(NotAllowed, match="a challenge to"):
        await service.join(CHANNEL, Member(55, "Fay"))
    assert (await service.join(CHANNEL, BOB)).text.startswith("Bob joins as squad 2.")
    status = (await service.status(CHANNEL)).text
    assert "(open seat" not in status and "Squad 4: Dan" in status


async def test_practice_seats_the_automatic_player_in_every_other_seat(
    store: Store, more_seats: None
) -> None:
    service = service_on(store)
    created = await service.create(GUILD, CHANNEL, ALICE, practice=True, players=3)
    assert "the automatic player plays squads 2 and 3" in created.text
    row = await store.active_match(CHANNEL)
    assert row is not None and row.players == [ALICE.id, AUTOMATIC, AUTOMATIC]
    _, (_, second) = content.defaults("skirm")
    chosen = row.setup["squads"]
    assert chosen[0] is None and chosen[1] == second and chosen[2] in content.names("squads")
    squads = row.record["content"]["squads"]
    assert squads == [None, *(content.raw("squads", name, "skirm") for name in chosen[1:])]


# -- results and ratings --------------------------------------------------------------------------


async def a_finished_free_for_all(store: Store, outcome: Outcome) -> int:
    """Alice, Bob and Eve's free-for-all, ended with `outcome` and saved with its result."""
    names = ["Alice", "Bob", "Eve"]
    record = MatchRecord(content={"squads": []}, dice={"seed": 1}, players=names, ruleset="ffa")
    row = await store.create_match(
        GUILD, CHANNEL, [ALICE.id, BOB.id, EVE.id], names, record.to_json()
    )
    row.status = "ended"
    row.result = result_of(row, SimpleNamespace(state=outcome), 2_000.0)
    await store.save_match(row)
    return row.id


async def test_a_free_for_all_ends_with_a_placing_per_seat(
    store: Store, free_for_all: FreeForAll
) -> None:
    outcome = Outcome((2, 3, 1), (4, 0, 7), "Eve holds the field")
    match_id = await a_finished_free_for_all(store, outcome)
    [(found, result)] = await store.match_results(GUILD, "ffa")
    assert (found, result.winner, result.reason) == (match_id, 2, "Eve holds the field")
    assert [(s.seat, s.side, s.user_id, s.placing, s.score) for s in result.seats] == [
        (0, 0, ALICE.id, 2, 4),
        (1, 1, BOB.id, 3, 0),
        (2, 2, EVE.id, 1, 7),
    ]


async def test_a_free_for_all_of_three_rates_all_three_by_their_placings(
    store: Store, free_for_all: FreeForAll
) -> None:
    await a_finished_free_for_all(store, Outcome((2, 3, 1), (4, 0, 7), "Eve wins"))
    rated = await RatingService(store).ratings(GUILD)
    assert [r.player for r in rated] == [EVE.id, ALICE.id, BOB.id]
    assert [r.rating.games for r in rated] == [1, 1, 1]


def team_match(placings: tuple[int, int], automatic: bool = False) -> MatchResult:
    """Alice and Eve (seats 0 and 2, side 0) against Bob and Dan (seats 1 and 3, side 1)."""
    people = [ALICE, BOB, EVE, DAN]
    return MatchResult(
        "teams", None, "over", 1.0,
        tuple(
            SeatResult(seat % 2, AUTOMATIC if automatic and seat == 3 else member.id,
                       member.name, placings[seat % 2], 0, seat)
            for seat, member in enumerate(people)
        ),
    )  # fmt: skip


def test_a_side_of_several_seats_is_rated_as_a_team() -> None:
    ratings = rate_results([team_match((2, 1))])
    assert ratings[BOB.id] == ratings[DAN.id] and ratings[ALICE.id] == ratings[EVE.id]
    assert ratings[BOB.id].ordinal > ratings[ALICE.id].ordinal
    assert {rating.games for rating in ratings.values()} == {1}


def test_a_match_with_the_automatic_player_in_any_seat_is_not_rated() -> None:
    assert rate_results([team_match((1, 2), automatic=True)]) == {}


def test_a_draw_rates_like_the_two_player_draw_it_always_was() -> None:
    draw = MatchResult(
        "skirm", None, "draw", 1.0,
        (SeatResult(0, ALICE.id, "Alice", 1, 2), SeatResult(1, BOB.id, "Bob", 1, 2)),
    )  # fmt: skip
    ratings = rate_results([draw])
    assert ratings[ALICE.id].mu == pytest.approx(ratings[BOB.id].mu)
