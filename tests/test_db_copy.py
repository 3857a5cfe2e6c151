"""`skirmbot db copy`: a community's data from SQLite to PostgreSQL and back
(skirmbot/store/copy.py), against a real PostgreSQL server (tests/pg_server.py)."""

from __future__ import annotations

import contextlib
import pickle
import sqlite3
import uuid
import zlib
from collections.abc import AsyncIterator
from pathlib import Path
from typing import Any

import pg_server
import pytest

from skirmbot.cli import main
from skirmbot.demo import play_demo
from skirmbot.rules.record import MatchRecord
from skirmbot.store import (
    Deadline,
    LeagueLog,
    LeaguePlayerRow,
    LeagueRoundRow,
    MatchResult,
    SeatResult,
    Snapshot,
    Store,
)
from skirmbot.store.copy import (
    CopyRefused,
    CopyReport,
    Table,
    copy_database,
    foreign_key_order,
)

GUILD = 111
ALICE, BOB, CAROL = 1001, 1002, 1003
# Every data table the schema has (the test checks it is every one, so a new table is noticed).
TABLES = [
    "calendar_feeds",
    "deadlines",
    "league_games",
    "league_log",
    "league_players",
    "league_rounds",
    "leagues",
    "match_commands",
    "match_players",
    "match_snapshots",
    "matches",
    "players",
    "server_maps",
    "settings",
    "squad_awards",
    "squads",
    "step_pictures",
    "vacations",
]


@pytest.fixture
async def other_postgres_url(postgres_server: pg_server.Server) -> AsyncIterator[str]:
    """A second fresh, empty database on the session's server (postgres_url is the first)."""
    name = f"skirmbot_copy_{uuid.uuid4().hex[:16]}"
    url = await pg_server.create_database(postgres_server.url, name)
    yield url
    with contextlib.suppress(Exception):
        await pg_server.drop_database(postgres_server.url, name)


# --- a community's data, made through the Store's own methods -------------------------------


async def fill(store: Store) -> dict[str, int]:
    """Players, settings, a finished demo match (commands, a snapshot, its result), a match
    being played (with its deadline), one in setup, a stored squad with an award, a league with
    players, a round, games and its log. The ids of what was made."""
    await store.remember_player(ALICE, "Ålice")
    await store.remember_player(BOB, "Bob")
    await store.remember_player(CAROL, "Carol")
    await store.set_dm_reminders(ALICE, True)
    await store.note_dms_closed(BOB)
    await store.set_setting(GUILD, "timer", "48h")
    await store.set_setting(GUILD + 1, "channel", "skirm-€")
    await store.save_server_map(GUILD, "Mühle", {"name": "Mühle", "rows": []}, ALICE, limit=50)

    ended = await _finished_match(store, channel=10)
    playing = await _playing_match(store, channel=11)
    setup = await store.create_match(
        GUILD, 12, [CAROL, None], ["Carol", "open"], _header(play_demo(4)[1]), {"hidden": [1, 2]}
    )

    squad = await store.save_squad(
        ALICE, GUILD, "Raiders", lambda _: {"name": "Raiders", "units": []}
    )
    await store.save_squad(BOB, GUILD, "Wardens", lambda _: {"name": "Wardens"})
    await store.award_squad(squad.id, ended, {"Scout": ["First Blood"]}, lambda d: {**d, "xp": 3})

    league = await _league(store, ended, squad.id)
    return {"ended": ended, "playing": playing, "setup": setup.id, "league": league}


def _header(record: MatchRecord) -> dict[str, Any]:
    return {**record.to_json(), "commands": []}


async def _finished_match(store: Store, channel: int) -> int:
    match, record = play_demo(3)
    row = await store.create_match(
        GUILD, channel, [ALICE, BOB], ["Ålice", "Bob"], record.to_json(), status="playing"
    )
    row.status = "ended"
    row.result = MatchResult(
        record.ruleset,
        0,
        "Ålice wins on Mission Points.",
        2_000.5,
        (SeatResult(0, ALICE, "Ålice", 1, 7), SeatResult(1, BOB, "Bob", 2, 3)),
    )
    # The live match pickled and compressed, as the service keeps it: bytes of every value.
    state = zlib.compress(pickle.dumps(match, protocol=pickle.HIGHEST_PROTOCOL), 1)
    snapshot = Snapshot(len(record.commands), "rules-code", state)
    saved = await store.save_match(row, deadline=None, snapshot=snapshot)
    return saved.id


async def _playing_match(store: Store, channel: int) -> int:
    record = play_demo(5)[1].to_json()
    record["commands"] = record["commands"][:12]
    row = await store.create_match(
        GUILD, channel, [BOB, 0], ["Bob", "Automatic player"], record, status="playing"
    )
    await store.set_deadline(row.id, Deadline(9_999.25, "remind", f"{row.id}:12"))
    return row.id


async def _league(store: Store, match_id: int, squad_id: int) -> int:
    league = await store.create_league(
        GUILD, "Spring Cup", "skirm", {"format": "swiss", "rounds": 3}, ALICE, 20, 555,
        LeagueLog(ALICE, "create", "Spring Cup"),
    )  # fmt: skip
    for user, name, squad, stored in (
        (CAROL, "Carol", {"name": "Wolves"}, None),
        (ALICE, "Ålice", None, squad_id),
        (BOB, "Bob", {"name": "Wardens"}, None),
    ):
        league = await store.add_league_player(
            league.id, league.version,
            LeaguePlayerRow(league.id, user, name, "squad", squad, stored, 1, None),
            LeagueLog(user, "join", name),
        )  # fmt: skip
    league = await store.open_league_round(
        league.id, league.version,
        LeagueRoundRow(league.id, 1, "open", "Hold", "Ruined Farm", 1_000.0, 90_000.0),
        [(1, ALICE, BOB), (2, CAROL, None)],
        LeagueLog(None, "round", "1"),
    )  # fmt: skip
    games = await store.league_games(league.id)
    await store.set_league_game_match(games[0].id, match_id, 10)
    league = await store.dispute_league_game(
        league.id, league.version, games[0].id, BOB, "lag", LeagueLog(BOB, "dispute")
    )
    league = await store.decide_league_game(
        league.id, league.version, games[0].id, "draw", (4, 4), ALICE, "replayed",
        LeagueLog(ALICE, "decide", reason="replayed"), settle=True,
    )  # fmt: skip
    return league.id


# --- reading it back -----------------------------------------------------------------------


def sqlite_dump(path: Path) -> dict[str, list[tuple[Any, ...]]]:
    """Every data table's rows in insertion (rowid) order, read with plain sqlite3."""
    with contextlib.closing(sqlite3.connect(path)) as db:
        tables = [
            str(row[0])
            for row in db.execute(
                "SELECT name FROM sqlite_master WHERE type = 'table' "
                "AND name NOT IN ('schema_migrations', 'sqlite_sequence') ORDER BY name"
            )
        ]
        assert tables == TABLES
        return {t: list(db.execute(f'SELECT * FROM "{t}" ORDER BY rowid')) for t in tables}


async def rows_of(store: Store, columns: dict[str, list[str]]) -> dict[str, list[tuple[Any, ...]]]:
    """Each table's `columns`, sorted (either database)."""
    found = {}
    async with store.database.reading() as db:
        for table, names in columns.items():
            rows = await db.fetch(f'SELECT {", ".join(map(quoted, names))} FROM "{table}"')
            found[table] = sorted(
                (tuple(row[i] for i in range(len(names))) for row in rows), key=repr
            )
    return found


async def row_counts(store: Store) -> dict[str, int]:
    counts = {}
    async with store.database.reading() as db:
        for table in TABLES:
            found = await db.fetchone(f'SELECT COUNT(*) FROM "{table}"')
            counts[table] = 0 if found is None else int(found[0])
    return counts


def quoted(name: str) -> str:
    return f'"{name}"'


def sqlite_columns(path: Path) -> dict[str, list[str]]:
    with contextlib.closing(sqlite3.connect(path)) as db:
        return {t: [str(r[1]) for r in db.execute(f'PRAGMA table_info("{t}")')] for t in TABLES}


async def public_view(store: Store, ids: dict[str, int]) -> dict[str, Any]:
    """What the bot reads, through the Store's own methods."""
    matches = [await store.match(ids[key]) for key in ("ended", "playing", "setup")]
    squad = await store.squad(ALICE, "raiders")
    assert squad is not None
    return {
        "matches": [
            (
                m.id,
                m.status,
                m.players,
                m.names,
                m.record,
                m.setup,
                m.version,
                m.ruleset,
                m.snapshot_seq,
                m.created_at,
            )
            for m in matches
            if m is not None
        ],
        "snapshot": await store.snapshot(ids["ended"]),
        "results": await store.match_results(GUILD),
        "deadlines": await store.pending_deadlines(),
        "players": [await store.player(user) for user in (ALICE, BOB, CAROL)],
        "settings": [
            await store.get_setting(GUILD, "timer"),
            await store.get_setting(GUILD + 1, "channel"),
        ],
        "squads": await store.squads_of(ALICE) + await store.squads_of(BOB),
        "server_maps": await store.server_maps(GUILD),
        "awards": await store.squad_awards(squad.id),
        "leagues": await store.leagues(GUILD),
        "league_players": await store.league_players(ids["league"]),
        "rounds": await store.league_rounds(ids["league"]),
        "games": await store.league_games(ids["league"]),
        "log": await store.league_log(ids["league"]),
    }


# --- the copy ------------------------------------------------------------------------------


async def test_sqlite_to_postgresql_and_back_keeps_every_row(
    tmp_path: Path, postgres_url: str
) -> None:
    original, back = tmp_path / "original.db", tmp_path / "back.db"
    async with await Store.open(original) as store:
        ids = await fill(store)
        before = await public_view(store, ids)
        expected_rows = await rows_of(store, sqlite_columns(original))

    report = await copy_database(str(original), postgres_url)
    assert report.ok, report.problems
    assert dict(report.copied) == {table: len(rows) for table, rows in expected_rows.items()}
    roots = (
        "calendar_feeds",
        "leagues",
        "matches",
        "players",
        "server_maps",
        "settings",
        "squads",
        "vacations",
    )
    assert report.copied[0][0] in roots  # a table that refers to no other comes first
    assert report.replayed == 2  # the finished match and the one being played; not the setup one
    async with await Store.open(postgres_url) as pg:
        assert await public_view(pg, ids) == before
        assert await rows_of(pg, sqlite_columns(original)) == expected_rows
        seqs = await _signup_seqs(pg, ids["league"])
        assert seqs == sorted(seqs)  # sign-up order: Carol, Ålice, Bob

    report = await copy_database(postgres_url, f"sqlite:///{back}")
    assert report.ok, report.problems
    assert sqlite_dump(back) == sqlite_dump(original)
    async with await Store.open(back) as store:
        assert await public_view(store, ids) == before


async def _signup_seqs(store: Store, league_id: int) -> list[int]:
    async with store.database.reading() as db:
        rows = await db.fetch(
            "SELECT seq FROM league_players WHERE league_id = ? ORDER BY user_id = ?, user_id = ?",
            (league_id, BOB, ALICE),
        )
    return [int(row[0]) for row in rows]


async def test_new_rows_in_the_copy_get_fresh_ids(tmp_path: Path, postgres_url: str) -> None:
    original = tmp_path / "original.db"
    async with await Store.open(original) as store:
        ids = await fill(store)
    assert (await copy_database(str(original), postgres_url)).ok
    async with await Store.open(postgres_url) as pg:
        match = await pg.create_match(
            GUILD, 99, [ALICE, BOB], ["Ålice", "Bob"], _header(play_demo(1)[1])
        )
        assert match.id == max(ids["ended"], ids["playing"], ids["setup"]) + 1
        league = await pg.create_league(
            GUILD, "Autumn", "skirm", {}, BOB, 21, None, LeagueLog(BOB, "create")
        )
        assert league.id == ids["league"] + 1
        squad = await pg.save_squad(CAROL, GUILD, "Wolves", lambda _: {"name": "Wolves"})
        assert squad.id == 3
        spring = await pg.league_by_id(ids["league"])
        assert spring is not None
        await pg.add_league_player(
            spring.id, spring.version,
            LeaguePlayerRow(spring.id, 2002, "Dora", "squad", {}, None, 2, None),
            LeagueLog(2002, "join"),
        )  # fmt: skip
        players = await pg.league_players(spring.id)
        assert [p.user_id for p in players] == [CAROL, ALICE, BOB, 2002]
        assert len(await pg.league_log(league.id)) == 1


async def test_postgresql_to_postgresql(
    tmp_path: Path, postgres_url: str, other_postgres_url: str
) -> None:
    original = tmp_path / "original.db"
    async with await Store.open(original) as store:
        ids = await fill(store)
        before = await public_view(store, ids)
    assert (await copy_database(str(original), postgres_url)).ok
    report = await copy_database(postgres_url, other_postgres_url)
    assert report.ok, report.problems
    columns = sqlite_columns(original)
    columns["league_players"].append("seq")  # PostgreSQL's sign-up order, copied as it is
    async with await Store.open(postgres_url) as first:
        expected = await rows_of(first, columns)
    async with await Store.open(other_postgres_url) as second:
        assert await rows_of(second, columns) == expected
        assert await public_view(second, ids) == before


async def test_an_empty_source_copies_nothing(tmp_path: Path, postgres_url: str) -> None:
    empty = tmp_path / "empty.db"
    await (await Store.open(empty)).close()
    report = await copy_database(str(empty), postgres_url)
    assert report.ok and report.replayed == 0
    assert sorted(report.copied) == [(table, 0) for table in TABLES]


# --- refusals ------------------------------------------------------------------------------


async def test_a_destination_that_is_not_empty_is_refused_and_left_alone(
    tmp_path: Path, postgres_url: str
) -> None:
    original = tmp_path / "original.db"
    async with await Store.open(original) as store:
        await fill(store)
    async with await Store.open(postgres_url) as pg:
        await pg.remember_player(4242, "Already here")
    with pytest.raises(CopyRefused, match=r"not empty: players has rows"):
        await copy_database(str(original), postgres_url)
    async with await Store.open(postgres_url) as pg:
        assert {table: n for table, n in (await row_counts(pg)).items() if n} == {"players": 1}
        match = await pg.create_match(GUILD, 1, [ALICE, BOB], ["A", "B"], _header(play_demo(1)[1]))
        assert match.id == 1  # not past the ids the refused copy would have brought


async def test_a_missing_sqlite_source_is_refused_not_created(
    tmp_path: Path, postgres_url: str
) -> None:
    missing = tmp_path / "nope.db"
    with pytest.raises(CopyRefused, match="there is no SQLite database at .*nope.db"):
        await copy_database(str(missing), postgres_url)
    with pytest.raises(CopyRefused, match="no SQLite database"):
        await copy_database(f"sqlite:///{missing}", postgres_url)
    assert not missing.exists()
    with pytest.raises(CopyRefused, match="is a folder"):
        await copy_database(str(tmp_path), postgres_url)


async def test_the_same_database_twice_is_refused(tmp_path: Path) -> None:
    path = tmp_path / "one.db"
    await (await Store.open(path)).close()
    with pytest.raises(CopyRefused, match="the same database"):
        await copy_database(str(path), f"sqlite:///{path}")


# --- the command line ----------------------------------------------------------------------


async def _filled_sqlite(path: Path) -> dict[str, int]:
    async with await Store.open(path) as store:
        return await fill(store)


def test_the_command_copies_and_says_what(
    tmp_path: Path, postgres_url: str, capsys: pytest.CaptureFixture[str]
) -> None:
    import asyncio

    source = tmp_path / "skirmbot.db"
    asyncio.run(_filled_sqlite(source))
    assert main(["db", "copy", str(source), postgres_url]) == 0
    out = capsys.readouterr().out.splitlines()
    assert "matches: 3 copied" in out and "match_commands: " in "\n".join(out)
    assert out[-1] == (
        "verified: every table's rows are there; checked 2 records, and every match record replays"
    )

    assert main(["db", "copy", str(source), postgres_url]) == 2  # not empty any more
    err = capsys.readouterr().err.strip().splitlines()
    assert len(err) == 1 and err[0].startswith("skirmbot: the destination is not empty: ")


def test_the_command_refuses_a_missing_source_in_one_line(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    missing = tmp_path / "nope.db"
    assert main(["db", "copy", str(missing), str(tmp_path / "out.db")]) == 2
    err = capsys.readouterr().err.strip().splitlines()
    assert err == [
        f"skirmbot: there is no SQLite database at {missing}: the source must be an existing file."
    ]
    assert not missing.exists() and not (tmp_path / "out.db").exists()
    assert main(["db"]) == 2
    assert main(["db", "copy", "sqlite:///x.db"]) == 2


def test_the_command_names_the_matches_that_do_not_replay(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """The copy is made, but a record that does not replay in it is named, with its match."""
    import asyncio

    source, copied = tmp_path / "skirmbot.db", tmp_path / "copy.db"
    ids = asyncio.run(_filled_sqlite(source))
    illegal = '{"type": "move", "side": 1, "unit": "Nobody", "square": "A1", "orders": 0}'
    with contextlib.closing(sqlite3.connect(source)) as db, db:
        for match_id in (ids["ended"], ids["playing"]):
            db.execute(
                "INSERT INTO match_commands (match_id, seq, command) "
                "SELECT ?, MAX(seq) + 1, ? FROM match_commands WHERE match_id = ?",
                (match_id, illegal, match_id),
            )
    assert main(["db", "copy", str(source), str(copied)]) == 1
    captured = capsys.readouterr()
    assert "matches: 3 copied" in captured.out
    err = captured.err.strip().splitlines()
    assert len(err) == 1
    first, second = sorted((ids["ended"], ids["playing"]))
    assert err[0].startswith(
        f"skirmbot: the copy does not verify: match {first}'s record does not replay: "
    )
    assert "Nobody" in err[0]
    assert err[0].endswith(
        f"(and 1 more problem; the matches that do not replay: {first}, {second})"
    )
    assert sqlite_dump(copied)["match_commands"] == sqlite_dump(source)["match_commands"]


# --- the pieces ----------------------------------------------------------------------------


def test_tables_come_after_those_they_refer_to() -> None:
    def table(name: str, *refers: str) -> Table:
        return Table(name, (), "rowid", frozenset(refers))

    ordered = foreign_key_order(
        [table("c", "b", "c"), table("b", "a"), table("a"), table("d", "a", "c")]
    )
    assert [t.name for t in ordered] == ["a", "b", "c", "d"]


def test_the_summary_counts_in_thousands() -> None:
    report = CopyReport(copied=[("matches", 2_000), ("settings", 3)])
    assert report.summary() == ["matches: 2,000 copied", "settings: 3 copied"]


async def test_names_read_the_same_are_one_squad_on_both_sides_of_a_copy(
    tmp_path: Path, postgres_url: str
) -> None:
    """Issue 28: names are one by their key on both databases, so what one holds the other
    takes (SQLite's NOCASE once kept "Zoë" and "ZOË" as two squads of one player)."""
    original, back = tmp_path / "original.db", tmp_path / "back.db"
    async with await Store.open(original) as store:
        for name in ("Zoë", "ZOË", "straße", "STRASSE"):
            await store.save_squad(ALICE, GUILD, name, lambda _, name=name: {"name": name})
        before = [(row.name, row.data) for row in await store.squads_of(ALICE)]
    assert before == [("STRASSE", {"name": "STRASSE"}), ("ZOË", {"name": "ZOË"})]

    for source, destination in ((str(original), postgres_url), (postgres_url, str(back))):
        report = await copy_database(source, destination)
        assert report.ok, report.problems
        async with await Store.open(destination) as copied:
            assert [(row.name, row.data) for row in await copied.squads_of(ALICE)] == before
            found = await copied.squad(ALICE, "zoë")
            assert found is not None and found.name == "ZOË"
