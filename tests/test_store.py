"""The store: migrations, WAL, matches with compare-and-swap saves, settings, players.

Every test that takes the `store` (or `db_url`) fixture runs against both backends: SQLite and a
real PostgreSQL server the test run starts itself (tests/pg_server.py; never skipped in CI).
Those about the SQLite file itself (WAL, what a raw connection sees) run on SQLite only."""

from __future__ import annotations

import asyncio
import json
import sqlite3
import subprocess
import sys
import textwrap
from dataclasses import replace
from importlib.resources import files
from pathlib import Path
from typing import Any

import pytest

from skirmbot.rules.record import MatchRecord
from skirmbot.store import (
    ChannelBusy,
    Deadline,
    MatchRow,
    MigrationError,
    Snapshot,
    Store,
    StoreError,
    VersionConflict,
    database,
)
from skirmbot.store.migrate import default_source, discover, migrate, split_statements
from skirmbot.store.sql import database_url
from skirmbot.store.sqlite import SqliteDatabase

GUILD = 111
CHANNEL = 222
ALICE = 1001
BOB = 1002


class Clock:
    """A clock that ticks one second per reading."""

    def __init__(self, start: float = 1_000.0) -> None:
        self.now = start

    def __call__(self) -> float:
        self.now += 1.0
        return self.now


def a_record(commands: int = 0) -> dict[str, Any]:
    record = MatchRecord(
        content={"map": {"name": "Ruined Farm"}, "mission": {"name": "Hold"}, "squads": []},
        dice={"seed": 7},
        commands=[{"type": "pass", "n": n} for n in range(commands)],
        players=["Ålice", "Bob"],
    )
    return record.to_json()


async def new_match(store: Store, channel: int = CHANNEL, **kwargs: Any) -> MatchRow:
    return await store.create_match(
        GUILD, channel, [ALICE, None], ["Ålice", "open seat"], a_record(), **kwargs
    )


def raw(path: Path) -> sqlite3.Connection:
    """A plain sqlite3 connection, to look at the file behind the store's back."""
    return sqlite3.connect(path)


@pytest.fixture
def db_path(tmp_path: Path) -> Path:
    return tmp_path / "skirmbot.db"


@pytest.fixture(params=["sqlite", "postgresql"])
def backend(request: pytest.FixtureRequest) -> str:
    return str(request.param)


SQLITE_ONLY = pytest.mark.parametrize("backend", ["sqlite"])


@pytest.fixture
def db_url(backend: str, db_path: Path, request: pytest.FixtureRequest) -> str:
    """The test's own empty database of the backend: a SQLite file, or a PostgreSQL database."""
    if backend == "postgresql":
        return str(request.getfixturevalue("postgres_url"))
    return str(db_path)


@pytest.fixture
async def store(db_url: str) -> Any:
    async with await Store.open(db_url, clock=Clock()) as opened:
        yield opened


SHIPPED = [migration.name for migration in discover()]
LATEST = len(SHIPPED)  # the shipped migrations are numbered 1, 2, ... without gaps
NEXT = f"{LATEST + 1:03d}"


def migrations_copy(tmp_path: Path, extra: dict[str, str], upto: int | None = None) -> Path:
    """A migrations folder holding the shipped migrations (the first `upto`) plus `extra`."""
    folder = tmp_path / ("migrations" if upto is None else f"migrations-{upto}")
    folder.mkdir()
    for migration in discover()[:upto]:
        (folder / migration.name).write_text(migration.sql, encoding="utf-8")
    for name, sql in extra.items():
        (folder / name).write_text(textwrap.dedent(sql), encoding="utf-8")
    return folder


# -- migrations -----------------------------------------------------------------------------


async def test_fresh_database_gets_every_migration_recorded(db_path: Path) -> None:
    async with await Store.open(db_path, clock=lambda: 42.0) as store:
        assert await store.schema_version() == LATEST
    with raw(db_path) as conn:
        assert conn.execute(
            "SELECT version, name, applied_at FROM schema_migrations ORDER BY version"
        ).fetchall() == [(n, name, 42.0) for n, name in enumerate(SHIPPED, start=1)]
        tables = {
            row[0] for row in conn.execute("SELECT name FROM sqlite_master WHERE type = 'table'")
        }
    assert {"matches", "settings", "players", "schema_migrations"} <= tables


async def test_shipped_migrations_are_found_through_the_package() -> None:
    names = [migration.name for migration in discover()]
    assert names[0] == "001_initial.sql"
    assert files("skirmbot.migrations").joinpath("001_initial.sql").is_file()


async def test_reopening_applies_nothing_again(db_path: Path) -> None:
    await (await Store.open(db_path, clock=lambda: 1.0)).close()
    async with await Store.open(db_path, clock=lambda: 2.0) as store:
        assert await store.schema_version() == LATEST
        assert await migrate(store.database) == []
    with raw(db_path) as conn:
        assert conn.execute("SELECT version, applied_at FROM schema_migrations").fetchall() == [
            (n, 1.0) for n in range(1, LATEST + 1)
        ]


async def test_an_old_database_upgrades_itself(tmp_path: Path, db_path: Path) -> None:
    only_first = migrations_copy(tmp_path, {}, upto=1)
    async with await Store.open(db_path, migrations=only_first):  # an "old" database...
        pass
    with raw(db_path) as conn:  # ...with a match and a player, as the first release wrote them
        conn.execute(
            "INSERT INTO matches (guild_id, channel_id, status, players, names, record, setup, "
            "version, created_at, updated_at) VALUES (?, ?, 'setup', ?, ?, ?, '{}', 1, 1.0, 1.0)",
            (GUILD, CHANNEL, json.dumps([ALICE, None]), json.dumps(["Ålice", "open seat"]),
             json.dumps(a_record())),
        )  # fmt: skip
        conn.execute(
            "INSERT INTO players (user_id, display_name, updated_at) VALUES (?, 'Ålice', 1.0)",
            (ALICE,),
        )
    folder = migrations_copy(
        tmp_path,
        {
            f"{NEXT}_timers.sql": """
                -- a later schema change; ';' in a comment and in a string must not split it
                ALTER TABLE players ADD COLUMN timezone TEXT NOT NULL DEFAULT 'UTC;';
                CREATE TABLE timers (match_id INTEGER NOT NULL REFERENCES matches (id), due REAL NOT NULL);
                CREATE TRIGGER timers_guard AFTER INSERT ON timers BEGIN
                    SELECT RAISE(ABORT, 'no such match; refused')
                    WHERE NOT EXISTS (SELECT 1 FROM matches WHERE id = NEW.match_id);
                END;
            """
        },
    )
    async with await Store.open(db_path, clock=lambda: 9.0, migrations=folder) as store:
        assert await store.schema_version() == LATEST + 1
        match = await store.match(1)  # the data survived the upgrade
        assert match is not None and match.names == ["Ålice", "open seat"]
        assert match.record == a_record() and match.ruleset == "skirm"
    with raw(db_path) as conn:
        assert conn.execute(
            "SELECT version, name FROM schema_migrations ORDER BY version"
        ).fetchall() == [
            *((n, name) for n, name in enumerate(SHIPPED, start=1)),
            (LATEST + 1, f"{NEXT}_timers.sql"),
        ]
        assert conn.execute("SELECT timezone FROM players").fetchall() == [("UTC;",)]
        conn.execute("INSERT INTO timers VALUES (?, 5.0)", (match.id,))
        with pytest.raises(sqlite3.IntegrityError, match="no such match; refused"):
            conn.execute("INSERT INTO timers VALUES (999, 5.0)")


async def test_migrations_are_applied_in_numeric_order(tmp_path: Path, db_path: Path) -> None:
    folder = migrations_copy(
        tmp_path,
        {
            f"{LATEST + 10:03d}_b.sql": "INSERT INTO log VALUES (10);",
            f"{LATEST + 2}_a.sql": "CREATE TABLE log (n INTEGER);\nINSERT INTO log VALUES (2);",
        },
    )
    async with await Store.open(db_path, migrations=folder) as store:
        assert await store.schema_version() == LATEST + 10
    with raw(db_path) as conn:
        assert conn.execute("SELECT n FROM log ORDER BY rowid").fetchall() == [(2,), (10,)]


async def test_a_failing_migration_leaves_the_previous_schema(
    tmp_path: Path, db_path: Path
) -> None:
    await (await Store.open(db_path)).close()
    folder = migrations_copy(
        tmp_path,
        {f"{NEXT}_broken.sql": "CREATE TABLE half (n INTEGER);\nINSERT INTO nowhere VALUES (1);"},
    )
    with pytest.raises(MigrationError, match=f"{NEXT}_broken.sql"):
        await Store.open(db_path, migrations=folder)
    with raw(db_path) as conn:
        assert conn.execute("SELECT MAX(version) FROM schema_migrations").fetchone() == (LATEST,)
        assert conn.execute("SELECT name FROM sqlite_master WHERE name = 'half'").fetchall() == []
    async with await Store.open(db_path) as store:  # still usable by this skirmbot
        assert await store.schema_version() == LATEST


async def test_a_database_from_a_newer_skirmbot_is_refused(db_path: Path) -> None:
    await (await Store.open(db_path)).close()
    with raw(db_path) as conn:
        conn.execute("INSERT INTO schema_migrations VALUES (99, '099_future.sql', 0)")
    with pytest.raises(
        MigrationError, match=rf"schema version 99.*only knows migrations up to {LATEST}"
    ):
        await Store.open(db_path)


def test_badly_named_migration_is_an_error(tmp_path: Path) -> None:
    (tmp_path / "initial.sql").write_text("SELECT 1;")
    with pytest.raises(MigrationError, match="NNN_name.sql"):
        discover(tmp_path)


def test_split_statements_respects_strings_comments_and_triggers() -> None:
    sql = """
        CREATE TABLE t (a TEXT DEFAULT 'x;y'); /* c; c */
        CREATE TRIGGER tr AFTER INSERT ON t BEGIN SELECT 1; SELECT 2; END;
        -- trailing comment; with a semicolon
    """
    statements = split_statements(sql)
    assert len(statements) == 3
    assert statements[1].startswith("/* c; c */") and statements[1].endswith("END;")
    assert statements[2] == "-- trailing comment; with a semicolon"


# -- connection settings --------------------------------------------------------------------


@SQLITE_ONLY
async def test_file_database_uses_wal(store: Store, db_path: Path) -> None:
    assert isinstance(store.database, SqliteDatabase)
    assert await store.database.pragma("journal_mode") == "wal"
    assert await store.database.pragma("foreign_keys") == 1
    with raw(db_path) as conn:  # WAL is persistent: any connection to the file sees it
        assert conn.execute("PRAGMA journal_mode").fetchone() == ("wal",)


async def test_memory_database_works() -> None:
    async with await Store.open(":memory:") as store:
        assert await store.schema_version() == LATEST
        match = await new_match(store)
        assert await store.match(match.id) == match


# -- matches --------------------------------------------------------------------------------


async def test_create_and_read_a_match(store: Store) -> None:
    match = await new_match(store, setup={"hidden": {"alpha": ["B2"]}})
    assert match.version == 1 and match.status == "setup"
    assert match.players == [ALICE, None] and match.names == ["Ålice", "open seat"]
    assert match.record == a_record() and match.setup == {"hidden": {"alpha": ["B2"]}}
    assert match.created_at == match.updated_at
    assert await store.match(match.id) == match
    assert await store.match(match.id + 100) is None
    assert await store.active_match(CHANNEL) == match
    assert await store.active_match(CHANNEL + 1) is None
    other = await new_match(store, channel=CHANNEL + 1, status="playing")
    assert await store.active_matches() == [match, other]
    assert await store.matches_of_player(ALICE) == [match, other]
    assert await store.matches_of_player(BOB) == []


@SQLITE_ONLY
async def test_json_is_stored_readably(store: Store, db_path: Path) -> None:
    match = await new_match(store)
    with raw(db_path) as conn:
        names, players, setup = conn.execute(
            "SELECT names, players, setup FROM matches WHERE id = ?", (match.id,)
        ).fetchone()
    assert names == '["Ålice", "open seat"]'  # ensure_ascii=False
    assert players == f"[{ALICE}, null]" and setup == "{}"


async def test_one_active_match_per_channel(store: Store) -> None:
    first = await new_match(store)
    with pytest.raises(ChannelBusy):
        await new_match(store)
    with pytest.raises(ChannelBusy):
        await new_match(store, status="playing")
    ended = await store.save_match(replace(first, status="ended"))
    second = await new_match(store)  # allowed once the old one is over
    assert await store.active_match(CHANNEL) == second
    with pytest.raises(ChannelBusy):  # and the ended one cannot come back to life beside it
        await store.save_match(replace(ended, status="playing"))
    assert await store.match(first.id) == ended
    assert await store.matches_of_player(ALICE) == [second]
    assert await store.matches_of_player(ALICE, active_only=False) == [ended, second]


async def test_invalid_matches_are_rejected(store: Store) -> None:
    with pytest.raises(ValueError, match="status"):
        await new_match(store, status="paused")
    with pytest.raises(ValueError, match="two"):
        await store.create_match(GUILD, CHANNEL, [ALICE], ["Ålice"], a_record())
    assert await store.active_matches() == []


async def test_save_match_bumps_the_version(store: Store) -> None:
    match = await new_match(store)
    match.players[1] = BOB
    match.names[1] = "Bob"
    saved = await store.save_match(replace(match, status="playing", record=a_record(2)))
    assert saved.version == 2 and saved.updated_at > match.updated_at
    assert saved.created_at == match.created_at
    assert saved.players == [ALICE, BOB] and saved.record == a_record(2)
    assert await store.match(match.id) == saved
    assert await store.matches_of_player(BOB) == [saved]
    again = await store.save_match(replace(saved, record=a_record(3)))
    assert again.version == 3
    with pytest.raises(VersionConflict):  # a stale copy cannot overwrite newer data
        await store.save_match(replace(saved, record=a_record(9)))
    assert await store.match(match.id) == again


async def test_saving_a_missing_match_is_an_error(store: Store) -> None:
    match = await new_match(store)
    with pytest.raises(StoreError, match="does not exist"):
        await store.save_match(replace(match, id=match.id + 1))


async def test_two_concurrent_saves_one_wins(db_url: str) -> None:
    async with await Store.open(db_url) as first, await Store.open(db_url) as second:
        match = await new_match(first)
        for round_ in range(5):
            mine = replace(match, record=a_record(2 * round_ + 1))
            theirs = replace(match, record=a_record(2 * round_ + 2))
            results = await asyncio.gather(
                first.save_match(mine), second.save_match(theirs), return_exceptions=True
            )
            winners = [result for result in results if isinstance(result, MatchRow)]
            losers = [result for result in results if isinstance(result, BaseException)]
            assert len(winners) == 1 and len(losers) == 1
            assert isinstance(losers[0], VersionConflict)
            assert winners[0].version == match.version + 1
            for store in (first, second):
                assert await store.match(match.id) == winners[0]
            match = winners[0]


async def test_concurrent_saves_on_one_store_one_wins(store: Store) -> None:
    match = await new_match(store)
    results = await asyncio.gather(
        *(store.save_match(replace(match, record=a_record(n))) for n in range(1, 4)),
        return_exceptions=True,
    )
    winners = [result for result in results if isinstance(result, MatchRow)]
    assert len(winners) == 1
    assert sum(isinstance(result, VersionConflict) for result in results) == 2
    assert await store.match(match.id) == winners[0]


async def test_a_failed_save_leaves_the_old_state(store: Store) -> None:
    match = await new_match(store)
    with pytest.raises(TypeError):
        await store.save_match(replace(match, status="playing", record={"dice": object()}))
    assert await store.match(match.id) == match
    saved = await store.save_match(replace(match, status="playing"))  # still usable
    assert saved.version == 2


async def test_a_crash_after_the_update_rolls_it_back(
    store: Store, db_url: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    match = await new_match(store)

    def crash(row: object) -> MatchRow:
        raise RuntimeError("crash between UPDATE and COMMIT")

    monkeypatch.setattr(database, "_match_from_row", crash)
    with pytest.raises(RuntimeError, match="crash between"):
        await store.save_match(replace(match, status="playing", record=a_record(5)))
    monkeypatch.undo()
    assert await store.match(match.id) == match
    async with await Store.open(db_url) as other:  # nobody else sees a half-saved match either
        assert await other.match(match.id) == match
    assert (await store.save_match(replace(match, record=a_record(1)))).version == 2


async def test_a_killed_process_mid_save_leaves_the_old_state(store: Store, db_url: str) -> None:
    match = await new_match(store)
    script = textwrap.dedent(
        f"""
        import asyncio, os
        from dataclasses import replace
        from skirmbot.store import Store, database

        def die(row):  # the process dies after the UPDATE, before COMMIT
            os._exit(3)

        async def main():
            store = await Store.open({db_url!r})
            match = await store.match({match.id})
            database._match_from_row = die
            await store.save_match(replace(match, status="playing", record={{"x": 1}}))

        asyncio.run(main())
        """
    )
    done = subprocess.run([sys.executable, "-c", script], capture_output=True, timeout=60)
    assert done.returncode == 3, done.stderr.decode()
    assert await store.match(match.id) == match
    async with await Store.open(db_url) as reopened:
        assert await reopened.match(match.id) == match


# -- settings and players -------------------------------------------------------------------


async def test_settings(store: Store) -> None:
    assert await store.get_setting(GUILD, "turn_timer") is None
    await store.set_setting(GUILD, "turn_timer", "24h")
    await store.set_setting(GUILD + 1, "turn_timer", "12h")
    assert await store.get_setting(GUILD, "turn_timer") == "24h"
    await store.set_setting(GUILD, "turn_timer", "48h")
    assert await store.get_setting(GUILD, "turn_timer") == "48h"
    await store.set_setting(GUILD, "turn_timer", None)
    assert await store.get_setting(GUILD, "turn_timer") is None
    assert await store.get_setting(GUILD + 1, "turn_timer") == "12h"
    await store.set_setting(GUILD, "missing", None)  # deleting nothing is fine


async def test_players(db_url: str) -> None:
    async with await Store.open(db_url, clock=Clock(100.0)) as store:
        assert await store.player(ALICE) is None
        with pytest.raises(StoreError, match="not known"):
            await store.set_dm_reminders(ALICE, True)
        await store.remember_player(ALICE, "Alice")
        first = await store.player(ALICE)
        assert first is not None
        assert first["display_name"] == "Alice" and first["dm_reminders"] is False
        await store.set_dm_reminders(ALICE, True)
        await store.remember_player(ALICE, "Ålice the Bold")  # a new name keeps preferences
        player = await store.player(ALICE)
        assert player is not None
        assert player["user_id"] == ALICE and player["display_name"] == "Ålice the Bold"
        assert player["dm_reminders"] is True and player["updated_at"] > first["updated_at"]
        await store.set_dm_reminders(ALICE, False)
        assert (await store.player(ALICE) or {})["dm_reminders"] is False


async def test_closing_twice_is_harmless(db_url: str) -> None:
    store = await Store.open(db_url)
    await store.close()
    await store.close()


async def test_last_match_finds_a_finished_match_of_the_channel(store: Store) -> None:
    """Exporting the record of a match that has ended (issue 4: export the match record)."""
    assert await store.last_match(7) is None
    first = await store.create_match(1, 7, [1, 2], ["A", "B"], {"n": 1})
    first.status = "ended"
    await store.save_match(first)
    second = await store.create_match(1, 7, [1, 2], ["A", "B"], {"n": 2}, status="ended")
    found = await store.last_match(7)
    assert found is not None and found.id == second.id
    assert found.record == {"n": 2, "commands": []}  # a record always comes with its commands


async def test_a_deadline_is_saved_with_its_match_or_not_at_all(store: Store) -> None:
    """Turn timers (issue 5): the deadline changes in the match's own transaction."""
    match = await new_match(store)
    assert await store.deadline(match.id) is None
    saved = await store.save_match(match, deadline=Deadline(100.0, "remind", "t1:a0"))
    assert await store.deadline(match.id) == Deadline(100.0, "remind", "t1:a0")
    with pytest.raises(VersionConflict):
        await store.save_match(match, deadline=Deadline(5.0, "miss", "stale"))  # old version
    assert await store.deadline(match.id) == Deadline(100.0, "remind", "t1:a0")
    saved = await store.save_match(saved)  # KEEP: the deadline stays
    assert await store.pending_deadlines() == [(match.id, Deadline(100.0, "remind", "t1:a0"))]
    await store.save_match(saved, deadline=None)
    assert await store.pending_deadlines() == []


# -- commands as rows, snapshots (issue 14) --------------------------------------------------


async def command_rows(store: Store, match_id: int) -> list[tuple[int, dict[str, Any]]]:
    async with store.database.reading() as db:
        rows = await db.fetch(
            "SELECT seq, command FROM match_commands WHERE match_id = ? ORDER BY seq", (match_id,)
        )
    return [(int(row[0]), json.loads(row[1])) for row in rows]


async def test_a_save_appends_only_the_new_commands(store: Store) -> None:
    match = await store.create_match(GUILD, CHANNEL, [ALICE, BOB], ["A", "B"], a_record(2))
    assert await command_rows(store, match.id) == [(0, {"type": "pass", "n": 0}),
                                                   (1, {"type": "pass", "n": 1})]  # fmt: skip
    async with store.database.reading() as db:  # the header keeps no commands
        header = await db.fetchone("SELECT record FROM matches WHERE id = ?", (match.id,))
    assert header is not None and "commands" not in json.loads(header[0])
    match.record["commands"].append({"type": "pass", "n": 2})
    saved = await store.save_match(match)
    assert saved.record == a_record(3) and await store.match(match.id) == saved
    assert [seq for seq, _ in await command_rows(store, match.id)] == [0, 1, 2]


async def test_an_undo_replaces_the_end_of_the_record(store: Store) -> None:
    match = await store.create_match(GUILD, CHANNEL, [ALICE, BOB], ["A", "B"], a_record(4))
    shorter = replace(match, record={**match.record, "commands": match.record["commands"][:2]})
    saved = await store.save_match(shorter)
    assert await command_rows(store, match.id) == [(n, {"type": "pass", "n": n}) for n in (0, 1)]
    rewritten = [*saved.record["commands"], {"type": "end", "n": 9}]
    again = await store.save_match(replace(saved, record={**saved.record, "commands": rewritten}))
    assert (await store.match(match.id)) == again
    assert [c for _, c in await command_rows(store, match.id)][-1] == {"type": "end", "n": 9}


async def test_a_snapshot_is_kept_with_its_save_and_dropped_when_an_undo_passes_it(
    store: Store,
) -> None:
    match = await store.create_match(GUILD, CHANNEL, [ALICE, BOB], ["A", "B"], a_record(6))
    assert match.snapshot_seq is None and await store.snapshot(match.id) is None
    saved = await store.save_match(match, snapshot=Snapshot(5, "code", b"\x00state"))
    assert saved.snapshot_seq == 5
    assert await store.snapshot(match.id) == Snapshot(5, "code", b"\x00state")
    kept = await store.save_match(
        replace(saved, record={**saved.record, "commands": saved.record["commands"][:5]})
    )
    assert kept.snapshot_seq == 5  # after its 5 commands: still the match's
    gone = await store.save_match(
        replace(kept, record={**kept.record, "commands": kept.record["commands"][:4]})
    )
    assert gone.snapshot_seq is None and await store.snapshot(match.id) is None


# -- deadlines with several processes (issue 14) ---------------------------------------------


async def test_a_due_deadline_is_claimed_once_until_its_claim_lapses(db_url: str) -> None:
    now = [100.0]
    async with (
        await Store.open(db_url, clock=lambda: now[0]) as first,
        await Store.open(db_url, clock=lambda: now[0]) as second,
    ):
        match = await new_match(first)
        due = Deadline(90.0, "miss", "t1:a0:s0")
        await first.set_deadline(match.id, due)
        claims = await asyncio.gather(
            first.claim_deadline(match.id, due, "process-a", lease=60.0),
            second.claim_deadline(match.id, due, "process-b", lease=60.0),
        )
        assert sorted(claims) == [False, True]  # one process fires it
        assert not await first.claim_deadline(match.id, Deadline(90.0, "miss", "old"), "c", 60.0)
        now[0] = 161.0  # the claimer died mid-fire: its claim lapses, another takes it over
        assert await second.claim_deadline(match.id, due, "process-b", lease=60.0)
        await second.release_deadline(match.id, "process-b")  # it failed: try again later
        assert await first.claim_deadline(match.id, due, "process-a", lease=60.0)
        later = Deadline(500.0, "remind", "t1:a1:s1")
        await first.save_match(match, deadline=later)  # firing saves the next deadline...
        assert await second.claim_deadline(match.id, later, "process-b", lease=60.0)  # unclaimed


async def test_pending_deadlines_due_before_a_time(store: Store) -> None:
    first, second = await new_match(store), await new_match(store, channel=CHANNEL + 1)
    await store.set_deadline(first.id, Deadline(50.0, "remind", "a"))
    await store.set_deadline(second.id, Deadline(150.0, "miss", "b"))
    assert await store.pending_deadlines(due_before=100.0) == [
        (first.id, Deadline(50.0, "remind", "a"))
    ]
    assert len(await store.pending_deadlines()) == 2


# -- upgrades and PostgreSQL's migrations (issue 14) ----------------------------------------


async def test_the_upgrade_moves_old_records_commands_into_rows(
    tmp_path: Path, db_path: Path
) -> None:
    before = migrations_copy(tmp_path, {}, upto=6)
    async with await Store.open(db_path, migrations=before):
        pass
    with raw(db_path) as conn:  # a match as version 006 kept it: the whole record in one column
        conn.execute(
            "INSERT INTO matches (guild_id, channel_id, status, players, names, record, setup, "
            "version, created_at, updated_at) VALUES (?, ?, 'playing', ?, ?, ?, '{}', 4, 1.0, 1.0)",
            (GUILD, CHANNEL, json.dumps([ALICE, BOB]), json.dumps(["Ålice", "Bob"]),
             json.dumps(a_record(3))),
        )  # fmt: skip
    async with await Store.open(db_path) as store:
        match = await store.match(1)
        assert match is not None and match.record == a_record(3) and match.version == 4
        assert [seq for seq, _ in await command_rows(store, 1)] == [0, 1, 2]


async def test_postgresql_gets_its_own_dialects_migrations(postgres_url: str) -> None:
    stores = await asyncio.gather(*(Store.open(postgres_url) for _ in range(3)))  # all at once
    try:
        assert stores[0].dialect == "postgresql"
        async with stores[0].database.reading() as db:
            names = [str(r[0]) for r in await db.fetch("SELECT name FROM schema_migrations")]
        assert sorted(names) == SHIPPED == [m.name for m in discover(default_source("postgresql"))]
        assert await migrate(stores[1].database) == []
    finally:
        for store in stores:
            await store.close()


def test_both_dialects_have_the_same_migrations() -> None:
    sqlite = [m.name for m in discover(default_source("sqlite"))]
    assert sqlite == [m.name for m in discover(default_source("postgresql"))]


async def test_a_database_url_names_its_backend(tmp_path: Path) -> None:
    assert database_url("skirm.db") == ("sqlite", "skirm.db")
    assert database_url("sqlite:///data/skirm.db") == ("sqlite", "data/skirm.db")
    assert database_url("sqlite:////var/lib/skirm.db") == ("sqlite", "/var/lib/skirm.db")
    assert database_url("postgresql://bot@db/skirm") == ("postgresql", "postgresql://bot@db/skirm")
    with pytest.raises(ValueError, match="SQLite or PostgreSQL, not 'mysql'"):
        database_url("mysql://bot@db/skirm")
    async with await Store.open(f"sqlite:///{tmp_path / 'url.db'}") as store:
        assert store.dialect == "sqlite" and (tmp_path / "url.db").is_file()


async def test_a_match_that_ends_keeps_no_snapshot(store: Store) -> None:
    match = await store.create_match(GUILD, CHANNEL, [ALICE, BOB], ["A", "B"], a_record(6))
    saved = await store.save_match(match, snapshot=Snapshot(5, "code", b"state"))
    assert saved.snapshot_seq == 5
    ended = await store.save_match(replace(saved, status="ended"), snapshot=Snapshot(6, "c", b"s"))
    assert ended.snapshot_seq is None and await store.snapshot(match.id) is None
