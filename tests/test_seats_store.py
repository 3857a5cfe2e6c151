"""Seats in the store (issue 29): a match of 2 to 4 seats, its finished players kept by seat
with the side each played on (migration 010), and databases from before that upgrade with
their results, league standings and ratings as they were.

Every test runs on SQLite and on the real PostgreSQL server the test run starts."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from conftest import BOTH_BACKENDS
from service_setup import ALICE, BOB, EVE, GUILD

from skirmbot import content
from skirmbot.rules.record import MatchRecord
from skirmbot.service import MatchService, Member
from skirmbot.service.leagues import LeagueService
from skirmbot.service.ratings import RatingService, rate_results
from skirmbot.store import LeagueLog, LeagueRoundRow, MatchResult, SeatResult, Store
from skirmbot.store.migrate import default_source, discover

SEATS_MIGRATION = 10  # 010_seats.sql: match_players keyed by seat
DAN = Member(44, "Dan")
HOME = 700


@pytest.fixture(params=BOTH_BACKENDS)
def backend(request: pytest.FixtureRequest) -> str:
    return str(request.param)


def a_record(players: list[str]) -> dict[str, Any]:
    return MatchRecord(
        content={"map": {"name": "Farm"}, "mission": {"name": "Hold"}, "squads": []},
        dice={"seed": 7},
        players=players,
    ).to_json()


NAMES = ["Alice", "Bob", "Eve", "Dan"]
USERS = [ALICE.id, BOB.id, EVE.id, DAN.id]


@pytest.mark.parametrize("seats", [2, 3, 4])
async def test_a_match_holds_one_player_and_name_per_seat(store: Store, seats: int) -> None:
    players: list[int | None] = [*USERS[: seats - 1], None]
    created = await store.create_match(GUILD, 1, players, NAMES[:seats], a_record(NAMES[:seats]))
    created.players[-1] = USERS[seats - 1]
    saved = await store.save_match(created)
    assert saved.players == USERS[:seats] and saved.names == NAMES[:seats]
    assert await store.matches_of_player(USERS[seats - 1]) == [saved]


@pytest.mark.parametrize(
    ("players", "names"),
    [([ALICE.id], ["Alice"]), (USERS + [55], NAMES + ["Fay"]), (USERS[:3], NAMES[:2])],
)
async def test_a_match_of_one_seat_five_or_names_that_do_not_match_is_refused(
    store: Store, players: list[int | None], names: list[str]
) -> None:
    with pytest.raises(ValueError, match="two to four seats"):
        await store.create_match(GUILD, 1, players, names, a_record(names))
    assert await store.active_matches() == []


async def test_a_result_is_kept_per_seat_with_the_side_each_played_on(store: Store) -> None:
    """Two teams of two (the group rules' way): seats 0 and 2 on side 0, 1 and 3 on side 1."""
    row = await store.create_match(GUILD, 1, list(USERS), NAMES, a_record(NAMES))
    row.status = "ended"
    row.result = MatchResult(
        "skirm", 1, "Side 2 holds the field", 5.0,
        tuple(
            SeatResult(seat % 2, USERS[seat], NAMES[seat], 2 - seat % 2, 3 + seat % 2, seat)
            for seat in (0, 2, 1, 3)
        ),
    )  # fmt: skip
    await store.save_match(row)
    [(_, stored)] = await store.match_results(GUILD)
    assert [(s.seat, s.side, s.user_id, s.placing, s.score) for s in stored.seats] == [
        (0, 0, ALICE.id, 2, 3),
        (1, 1, BOB.id, 1, 4),
        (2, 0, EVE.id, 2, 3),
        (3, 1, DAN.id, 1, 4),
    ]


def test_a_seat_given_no_number_is_numbered_as_its_side() -> None:
    assert SeatResult(1, BOB.id, "Bob", 2, 3).seat == 1
    assert SeatResult(1, BOB.id, "Bob", 2, 3) == SeatResult(1, BOB.id, "Bob", 2, 3, seat=1)


# -- a database from before seats -------------------------------------------------------------


def migrations_before_seats(tmp_path: Path, dialect: str) -> Path:
    """The shipped migrations of `dialect` up to the one before 010, as a folder."""
    folder = tmp_path / f"before-seats-{dialect}"
    folder.mkdir()
    for migration in discover(default_source(dialect)):
        if migration.version < SEATS_MIGRATION:
            (folder / migration.name).write_text(migration.sql, encoding="utf-8")
    return folder


# What skirmbot wrote when a match ended, before migration 010: one row per side.
OLD_RESULT = (
    'INSERT INTO match_players (match_id, side, user_id, name, "placing", score) '
    "VALUES (?, ?, ?, ?, ?, ?)"
)


async def end_as_before(
    store: Store, match_id: int, winner: int | None, scores: tuple[int, int]
) -> None:
    """End a 1 v 1 match and write its result as skirmbot did before migration 010."""
    row = await store.match(match_id)
    assert row is not None
    placings = (1, 1) if winner is None else (1, 2) if winner == 0 else (2, 1)
    async with store.database.transaction() as db:
        await db.execute(
            "UPDATE matches SET status = 'ended', winner = ?, end_reason = 'over', "
            "ended_at = ? WHERE id = ?",
            (winner, 100.0 + match_id, match_id),
        )
        await db.executemany(
            OLD_RESULT,
            [
                (match_id, side, row.players[side], row.names[side], placings[side], scores[side])
                for side in (0, 1)
            ],
        )


async def league_before_seats(store: Store) -> None:
    """A league's first round played on a database at migration 009: Alice beat Bob 5 MP to
    3, Eve and Dan drew 2-2; and a friendly match Eve won against Bob 4-1."""
    matches = MatchService(store, seed_source=lambda: 5, clock=lambda: 50.0)
    leagues = LeagueService(store, matches, clock=lambda: 50.0)
    await leagues.create(GUILD, HOME, ALICE, "Old Guard", "skirm", rounds=1, seed=3)
    for member in (ALICE, BOB, EVE, DAN):
        await leagues.sign_up(GUILD, "Old Guard", member, "iron-wardens")
    league = await store.league(GUILD, "Old Guard")
    assert league is not None
    mission, _ = content.defaults("skirm")
    first = LeagueRoundRow(league.id, 1, "open", mission, content.DEFAULT_MAP, 60.0, 9_000.0)
    pairs = [(1, ALICE.id, BOB.id), (2, EVE.id, DAN.id)]
    await store.open_league_round(league.id, league.version, first, pairs, LeagueLog(None, "r"))
    async with store.database.reading() as db:
        games = [int(r[0]) for r in await db.fetch("SELECT id FROM league_games ORDER BY board")]
    for channel, (game, (a, b)) in enumerate(
        zip(games, [(ALICE, BOB), (EVE, DAN)], strict=True), start=1
    ):
        await matches.create(GUILD, channel, a, opponent=b)
        await matches.join(channel, b)
        row = await store.active_match(channel)
        assert row is not None
        await store.set_league_game_match(game, row.id, channel)
    await matches.create(GUILD, 3, BOB, opponent=EVE)
    await matches.join(3, EVE)
    for match_id, winner, scores in ((1, 0, (5, 3)), (2, None, (2, 2)), (3, 1, (1, 4))):
        await end_as_before(store, match_id, winner, scores)


def seat(side: int, member: Member, placing: int, score: int) -> SeatResult:
    return SeatResult(side, member.id, member.name, placing, score, side)


BEFORE_SEATS = [
    (1, MatchResult("skirm", 0, "over", 101.0, (seat(0, ALICE, 1, 5), seat(1, BOB, 2, 3)))),
    (2, MatchResult("skirm", None, "over", 102.0, (seat(0, EVE, 1, 2), seat(1, DAN, 1, 2)))),
    (3, MatchResult("skirm", 1, "over", 103.0, (seat(0, BOB, 2, 1), seat(1, EVE, 1, 4)))),
]


async def test_a_database_from_before_seats_upgrades_and_reads_the_same(
    store_url: str, tmp_path: Path, backend: str
) -> None:
    async with await Store.open(
        store_url, migrations=migrations_before_seats(tmp_path, backend)
    ) as old:
        assert await old.schema_version() == SEATS_MIGRATION - 1
        await league_before_seats(old)
    async with await Store.open(store_url) as store:
        assert await store.schema_version() >= SEATS_MIGRATION
        assert await store.match_results(GUILD) == BEFORE_SEATS
        league = await store.league(GUILD, "Old Guard")
        assert league is not None
        games = await store.league_games(league.id)
        assert [(g.match_winner, g.match_scores) for g in games] == [(0, (5, 3)), (None, (2, 2))]
        leagues = LeagueService(store, MatchService(store))
        table = (await leagues.standings_of(GUILD, "Old Guard")).standings
        assert [(s.player, s.wins, s.draws, s.losses, s.mp_for, s.mp_against) for s in table] == [
            (ALICE.id, 1, 0, 0, 5, 3),
            (EVE.id, 0, 1, 0, 2, 2),
            (DAN.id, 0, 1, 0, 2, 2),
            (BOB.id, 0, 0, 1, 3, 5),
        ]
        rated = await RatingService(store).ratings(GUILD)
        expected = rate_results(result for _, result in BEFORE_SEATS)
        assert {r.player: r.rating for r in rated} == expected
