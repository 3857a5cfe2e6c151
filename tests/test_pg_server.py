"""The throwaway PostgreSQL server and its fixtures (pg_server.py, conftest.py)."""

from __future__ import annotations

import os
import pwd

import asyncpg
import pg_server
import pytest

# The databases test_each_test_gets_a_fresh_empty_database was given, whichever turn runs first.
seen: set[str] = set()


async def test_a_query_runs_on_the_test_database(postgres_url: str) -> None:
    connection = await asyncpg.connect(postgres_url)
    try:
        assert await connection.fetchval("SELECT 6 * 7") == 42
        assert await connection.fetchval("SHOW server_encoding") == "UTF8"
        assert await connection.fetchval("SHOW fsync") == "off"
    finally:
        await connection.close()


@pytest.mark.parametrize("turn", [1, 2])
async def test_each_test_gets_a_fresh_empty_database(postgres_url: str, turn: int) -> None:
    connection = await asyncpg.connect(postgres_url)
    try:
        name = await connection.fetchval("SELECT current_database()")
        tables = await connection.fetch(
            "SELECT table_name FROM information_schema.tables WHERE table_schema = 'public'"
        )
        assert tables == []
        await connection.execute("CREATE TABLE leftover (id integer)")
    finally:
        await connection.close()
    assert name not in seen and name != "postgres"
    seen.add(name)


async def test_the_database_is_dropped_afterwards(postgres_server: pg_server.Server) -> None:
    url = await pg_server.create_database(postgres_server.url, "skirmbot_dropped")
    held = await asyncpg.connect(url)  # an open connection does not stop the drop
    try:
        await pg_server.drop_database(postgres_server.url, "skirmbot_dropped")
    finally:
        await held.close()
    connection = await asyncpg.connect(postgres_server.url)
    try:
        names = await connection.fetch("SELECT datname FROM pg_database")
    finally:
        await connection.close()
    assert "skirmbot_dropped" not in {row["datname"] for row in names}


async def test_the_server_never_runs_as_root(postgres_url: str) -> None:
    connection = await asyncpg.connect(postgres_url)
    try:
        backend = await connection.fetchval("SELECT pg_backend_pid()")
        owner = os.stat(f"/proc/{backend}").st_uid
    finally:
        await connection.close()
    assert owner != 0
    if os.geteuid() == 0:
        assert owner == pwd.getpwnam(pg_server.SERVER_USER).pw_uid


def test_the_server_is_quick_to_start(postgres_server: pg_server.Server) -> None:
    assert postgres_server.url == f"postgresql://postgres@127.0.0.1:{postgres_server.port}/postgres"
    assert postgres_server.start_seconds < 30, postgres_server.start_seconds
