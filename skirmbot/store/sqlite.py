"""SQLite, the embedded default (aiosqlite): one connection, one transaction at a time.

- One connection per Store, in autocommit mode; every write is one explicit ``BEGIN IMMEDIATE``
  ... ``COMMIT`` transaction, so a crash at any point leaves either the old or the new state.
- WAL journal (for file databases), foreign keys on, a busy timeout so that several Stores
  (processes or connections) on one file wait for each other instead of failing.
- Calls are serialised by an asyncio lock, so concurrent tasks never interleave statements of
  one transaction on the shared connection.
"""

from __future__ import annotations

import asyncio
import logging
import sqlite3
from collections.abc import AsyncIterator, Iterable, Sequence
from contextlib import asynccontextmanager, suppress
from typing import Any

import aiosqlite

from skirmbot.store.sql import SQLITE, Connection, Dialect, Row, UniqueViolation

log = logging.getLogger(__name__)

BUSY_TIMEOUT_MS = 5000

DIALECT = Dialect(
    name=SQLITE,
    insertion_order="rowid",
    json_list_holds="EXISTS (SELECT 1 FROM json_each({column}) WHERE json_each.value = ?)",
    stored_squads="json_each(matches.setup, '$.stored_squads') s",
)


class SqliteConnection:
    """The Connection protocol on an aiosqlite connection."""

    def __init__(self, db: aiosqlite.Connection) -> None:
        self.raw = db

    async def execute(self, sql: str, parameters: Sequence[Any] = ()) -> int:
        try:
            cursor = await self.raw.execute(sql, tuple(parameters))
        except sqlite3.IntegrityError as error:
            raise _unique(error) from error
        changed = cursor.rowcount
        await cursor.close()
        return changed

    async def executemany(self, sql: str, rows: Iterable[Sequence[Any]]) -> None:
        try:
            await self.raw.executemany(sql, [tuple(row) for row in rows])
        except sqlite3.IntegrityError as error:
            raise _unique(error) from error

    async def fetch(self, sql: str, parameters: Sequence[Any] = ()) -> list[Row]:
        try:
            return list(await self.raw.execute_fetchall(sql, tuple(parameters)))
        except sqlite3.IntegrityError as error:  # an INSERT ... RETURNING
            raise _unique(error) from error

    async def fetchone(self, sql: str, parameters: Sequence[Any] = ()) -> Row | None:
        rows = await self.fetch(sql, parameters)
        return rows[0] if rows else None


def _unique(error: sqlite3.IntegrityError) -> Exception:
    """A broken UNIQUE or PRIMARY KEY constraint as UniqueViolation; other integrity errors
    (a foreign key, a CHECK) stay what they are."""
    text = str(error)
    if "UNIQUE" in text or "PRIMARY KEY" in text:
        # "UNIQUE constraint failed: matches.channel_id": the columns name the constraint.
        return UniqueViolation(text, text.partition(":")[2].strip())
    return error


class SqliteDatabase:
    """A SQLite file (or ":memory:") as a Database."""

    dialect = DIALECT

    def __init__(self, db: aiosqlite.Connection, path: str) -> None:
        self._connection = SqliteConnection(db)
        self._lock = asyncio.Lock()
        self.url = path

    @classmethod
    async def connect(cls, path: str) -> SqliteDatabase:
        db = await aiosqlite.connect(path, isolation_level=None, timeout=BUSY_TIMEOUT_MS / 1000)
        try:
            db.row_factory = sqlite3.Row
            await db.execute(f"PRAGMA busy_timeout = {BUSY_TIMEOUT_MS}")
            await db.execute("PRAGMA foreign_keys = ON")
            if path != ":memory:":
                async with db.execute("PRAGMA journal_mode = WAL") as cursor:
                    mode = await cursor.fetchone()
                if mode is None or str(mode[0]).lower() != "wal":
                    log.warning("SQLite could not use WAL for %s (journal mode %r)", path, mode)
                # In WAL mode FULL makes every commit durable, not only consistent.
                await db.execute("PRAGMA synchronous = FULL")
        except BaseException:
            await db.close()
            raise
        return cls(db, path)

    @asynccontextmanager
    async def reading(self) -> AsyncIterator[Connection]:
        async with self._lock:
            yield self._connection

    @asynccontextmanager
    async def transaction(self) -> AsyncIterator[Connection]:
        async with self._lock:
            raw = self._connection.raw
            await raw.execute("BEGIN IMMEDIATE")
            try:
                yield self._connection
                await raw.execute("COMMIT")
            except BaseException:
                # (suppressed: SQLite may already have rolled back by itself)
                with suppress(sqlite3.Error):
                    await raw.execute("ROLLBACK")
                raise

    async def pragma(self, name: str) -> Any:
        """A PRAGMA's value (tests check the connection's settings)."""
        async with self.reading() as connection:
            row = await connection.fetchone(f"PRAGMA {name}")
        return None if row is None else row[0]

    async def close(self) -> None:
        async with self._lock:
            await self._connection.raw.close()


__all__ = ["BUSY_TIMEOUT_MS", "DIALECT", "SqliteConnection", "SqliteDatabase"]
