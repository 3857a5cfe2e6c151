"""Names unique by their key on both databases (issue 28): stored squads and leagues are told
apart by `skirmbot.words.name_key` (NFKC, casefolded, without zero-width characters), which the
store writes, not by SQLite's NOCASE (ASCII only) or PostgreSQL's lower() (no casefolding)."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from conftest import BOTH_BACKENDS

from skirmbot.store import LeagueLog, LeagueNameTaken, Store
from skirmbot.store.migrate import default_source, discover

GUILD = 111
ALICE, BOB = 1001, 1002
# Pairs one database or the other told apart: NOCASE does not fold "ë", lower() does not turn
# "ß" into "ss", and "ǅ" (titlecase) is "ǆ" only casefolded (and "dž" after NFKC).
SAME_NAMES = [("Zoë", "ZOË"), ("straße", "STRASSE"), ("ǅemal", "ǆEMAL"), ("Hal\u200bden", "HALDEN")]
NAME_KEYS = "009_name_keys.sql"


@pytest.fixture(params=BOTH_BACKENDS)
def backend(request: pytest.FixtureRequest) -> str:
    return str(request.param)


def keep(data: dict[str, Any]) -> Any:
    return lambda _: data


@pytest.mark.parametrize(("first", "second"), SAME_NAMES)
async def test_a_squad_saved_under_the_same_name_read_otherwise_replaces_it(
    store: Store, first: str, second: str
) -> None:
    saved = await store.save_squad(ALICE, GUILD, first, keep({"name": "one"}))
    again = await store.save_squad(ALICE, GUILD, second, keep({"name": "two"}))
    assert again.id == saved.id and again.name == second
    assert [(row.name, row.data) for row in await store.squads_of(ALICE)] == [
        (second, {"name": "two"})
    ]
    found = await store.squad(ALICE, first)
    assert found is not None and found.id == saved.id
    other = await store.save_squad(BOB, GUILD, first, keep({"name": "Bob's"}))
    assert other.id != saved.id, "names are unique per owner"
    assert await store.delete_squad(ALICE, first)
    assert await store.squads_of(ALICE) == []


@pytest.mark.parametrize(("first", "second"), SAME_NAMES)
async def test_a_league_name_read_the_same_is_taken(store: Store, first: str, second: str) -> None:
    async def create(name: str, guild: int = GUILD) -> int:
        league = await store.create_league(
            guild, name, "skirm", {}, ALICE, 20, None, LeagueLog(ALICE, "create", name)
        )
        return league.id

    league_id = await create(f"{first} Cup")
    with pytest.raises(LeagueNameTaken):
        await create(f"{second} CUP")
    found = await store.league(GUILD, f"{second} cup")
    assert found is not None and found.id == league_id
    await create(f"{second} Cup", guild=GUILD + 1)  # another server's league


def _migrations_before_name_keys(dialect: str, folder: Path) -> Path:
    """The backend's shipped migrations before the name keys: an old database's schema."""
    folder.mkdir()
    for migration in discover(default_source(dialect)):
        if migration.name == NAME_KEYS:
            break
        (folder / migration.name).write_text(migration.sql, encoding="utf-8")
    return folder


async def _insert(store: Store, table: str, among: int, name: str) -> int:
    """A row as the old release wrote it, without a name key."""
    async with store.database.transaction() as db:
        if table == "squads":
            sql = (
                "INSERT INTO squads (owner_id, guild_id, name, data, created_at, updated_at) "
                "VALUES (?, 1, ?, '{}', 1.0, 1.0) RETURNING id"
            )
        else:
            sql = (
                "INSERT INTO leagues (guild_id, name, ruleset, config, creator_id, channel_id, "
                "created_at) VALUES (?, ?, 'skirm', '{}', 1, 1, 1.0) RETURNING id"
            )
        row = await db.fetchone(sql, (among, name))
    assert row is not None
    return int(row[0])


async def _keys(store: Store, table: str) -> list[tuple[str, str]]:
    async with store.database.reading() as db:
        rows = await db.fetch(f"SELECT name, name_key FROM {table} ORDER BY id")
    return [(str(row[0]), str(row[1])) for row in rows]


async def test_an_old_database_upgrades_with_every_name_keyed(
    store_url: str, backend: str, tmp_path: Path
) -> None:
    """Names the old release told apart on both databases whose keys are one keep both rows:
    the later one's name gains its id, so each is reachable by a name of its own."""
    old = _migrations_before_name_keys(backend, tmp_path / "old")
    async with await Store.open(store_url, migrations=old) as store:
        for owner, name in [(ALICE, "Zoë"), (ALICE, "straße"), (ALICE, "STRASSE"), (BOB, "ZOË")]:
            last = await _insert(store, "squads", owner, name)
        cup = await _insert(store, "leagues", GUILD, "Ǆemal Cup")
    async with await Store.open(store_url) as store:  # the upgrade
        assert await _keys(store, "squads") == [
            ("Zoë", "zoë"),
            ("straße", "strasse"),
            (f"STRASSE (#{last - 1})", f"strasse (#{last - 1})"),
            ("ZOË", "zoë"),
        ]
        assert await _keys(store, "leagues") == [("Ǆemal Cup", "džemal cup")]  # NFKC: "Ǆ" is "DŽ"
        first = await store.squad(ALICE, "STRASSE")
        renamed = await store.squad(ALICE, f"strasse (#{last - 1})")
        assert first is not None and first.name == "straße"
        assert renamed is not None and renamed.id == last - 1
        found = await store.league(GUILD, "ǆEMAL CUP")
        assert found is not None and found.id == cup
        with pytest.raises(LeagueNameTaken):
            await store.create_league(
                GUILD, "ǅemal cup", "skirm", {}, ALICE, 20, None, LeagueLog(ALICE, "create", "")
            )
