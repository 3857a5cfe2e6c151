"""PostgreSQL (asyncpg), for communities that outgrow one process: a pool of connections that
several bot processes share safely.

- Reads take a pooled connection for the statement; each write is one transaction on one
  pooled connection (READ COMMITTED). Matches and leagues are still written with their version
  check (``UPDATE ... WHERE version = ?``): a second writer's UPDATE waits for the first to
  commit, then finds the version moved on and changes nothing, which the Store reports as
  VersionConflict, as it does on SQLite.
- The Store's SQL is written with ``?`` placeholders; here they become ``$1, $2, ...``.
"""

from __future__ import annotations

import functools
import re
from collections.abc import AsyncIterator, Iterable, Sequence
from contextlib import asynccontextmanager
from typing import Any

import asyncpg

from skirmbot.store.sql import POSTGRESQL, Connection, Dialect, Row, UniqueViolation

POOL_SIZE = 10  # connections per process; every process of a sharded bot has its own pool

DIALECT = Dialect(
    name=POSTGRESQL,
    insertion_order="seq",
    json_list_holds="({column})::jsonb @> to_jsonb(?::bigint)",
    stored_squads=(
        "jsonb_array_elements_text(COALESCE(matches.setup::jsonb -> 'stored_squads', "
        "'[]'::jsonb)) AS s(value)"
    ),
)


@functools.lru_cache(maxsize=1024)
def numbered(sql: str) -> str:
    """The statement with ``?`` placeholders numbered as PostgreSQL wants (``$1``, ``$2``).
    The Store's SQL never has a ``?`` inside a string literal."""
    count = 0

    def number(_: re.Match[str]) -> str:
        nonlocal count
        count += 1
        return f"${count}"

    return re.sub(r"\?", number, sql)


def _changed(status: str) -> int:
    """Rows changed, from asyncpg's command status ("UPDATE 1", "INSERT 0 3", "DELETE 0")."""
    last = status.rsplit(" ", 1)[-1]
    return int(last) if last.isdigit() else 0


class PostgresConnection:
    """The Connection protocol on an asyncpg connection."""

    def __init__(self, raw: Any) -> None:
        self.raw = raw

    async def execute(self, sql: str, parameters: Sequence[Any] = ()) -> int:
        try:
            status = await self.raw.execute(numbered(sql), *parameters)
        except asyncpg.UniqueViolationError as error:
            raise _unique(error) from error
        return _changed(str(status))

    async def executemany(self, sql: str, rows: Iterable[Sequence[Any]]) -> None:
        batch = [tuple(row) for row in rows]
        if not batch:
            return
        try:
            await self.raw.executemany(numbered(sql), batch)
        except asyncpg.UniqueViolationError as error:
            raise _unique(error) from error

    async def fetch(self, sql: str, parameters: Sequence[Any] = ()) -> list[Row]:
        try:
            return list(await self.raw.fetch(numbered(sql), *parameters))
        except asyncpg.UniqueViolationError as error:  # an INSERT ... RETURNING
            raise _unique(error) from error

    async def fetchone(self, sql: str, parameters: Sequence[Any] = ()) -> Row | None:
        rows = await self.fetch(sql, parameters)
        return rows[0] if rows else None


def _unique(error: asyncpg.UniqueViolationError) -> UniqueViolation:
    constraint = str(getattr(error, "constraint_name", "") or "")
    table = str(getattr(error, "table_name", "") or "")
    return UniqueViolation(str(error), f"{table}: {constraint}")


async def _nothing_to_reset(connection: Any) -> None:
    """A pooled connection goes back as it is: the store leaves no session state behind (no
    session advisory locks, cursors, LISTENs or SETs; its one lock is transaction-scoped), so
    asyncpg's default reset query would be a round trip per release for nothing (about three
    per command, measured by benchmarks/backends.py)."""


class PostgresDatabase:
    """A PostgreSQL database as a Database: a pool of asyncpg connections."""

    dialect = DIALECT

    def __init__(self, pool: Any, url: str) -> None:
        self._pool = pool
        self.url = url

    @classmethod
    async def connect(cls, url: str, size: int = POOL_SIZE) -> PostgresDatabase:
        pool = await asyncpg.create_pool(url, min_size=1, max_size=size, reset=_nothing_to_reset)
        return cls(pool, url)

    @asynccontextmanager
    async def reading(self) -> AsyncIterator[Connection]:
        async with self._pool.acquire() as raw:
            yield PostgresConnection(raw)

    @asynccontextmanager
    async def transaction(self) -> AsyncIterator[Connection]:
        async with self._pool.acquire() as raw, raw.transaction():
            yield PostgresConnection(raw)

    async def close(self) -> None:
        await self._pool.close()


__all__ = ["DIALECT", "POOL_SIZE", "PostgresConnection", "PostgresDatabase", "numbered"]
