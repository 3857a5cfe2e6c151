"""One way to speak SQL to either database: the Store's view of SQLite and PostgreSQL.

The Store writes its SQL once, with ``?`` placeholders, and runs it through a `Connection`; a
`Database` hands out connections for reading and for one write transaction at a time. The two
backends (`skirmbot.store.sqlite`, `skirmbot.store.postgres`, picked by `skirmbot.store.connect`)
differ only where the databases do: placeholders, how a transaction is held, what a broken
unique constraint looks like, and the few SQL fragments in `Dialect` (JSON lists, insertion
order). Everything else is the same SQL, so the same Store code and the same test suite run on
both.

`SKIRMBOT_DB` names the database as a URL (`database_url`): a file path or ``sqlite:///path``
(the embedded default) or ``postgresql://user:password@host:port/name``.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from contextlib import AbstractAsyncContextManager
from dataclasses import dataclass
from typing import Any, Protocol

from skirmbot.store.errors import StoreError

SQLITE, POSTGRESQL = "sqlite", "postgresql"


class Row(Protocol):
    """A result row: by column name or position (sqlite3.Row and asyncpg.Record both are)."""

    def __getitem__(self, key: int | str, /) -> Any: ...


class UniqueViolation(StoreError):
    """A write broke a unique constraint; `constraint` names it (as well as the database says)."""

    def __init__(self, message: str, constraint: str) -> None:
        super().__init__(message)
        self.constraint = constraint


class Connection(Protocol):
    """One connection, inside `Database.reading()` or `Database.transaction()`."""

    async def execute(self, sql: str, parameters: Sequence[Any] = ()) -> int:
        """Run one statement; how many rows it changed."""
        ...

    async def executemany(self, sql: str, rows: Iterable[Sequence[Any]]) -> None: ...

    async def fetch(self, sql: str, parameters: Sequence[Any] = ()) -> list[Row]: ...

    async def fetchone(self, sql: str, parameters: Sequence[Any] = ()) -> Row | None: ...


@dataclass(frozen=True)
class Dialect:
    """The SQL fragments that must differ between the two databases."""

    name: str
    # The order rows were inserted in, for a table without an id column of its own.
    insertion_order: str
    # A condition: the JSON list in `column` holds the integer parameter (one `?`).
    json_list_holds: str
    # A table expression of the integers in `stored_squads` of a match's `setup` JSON, as `s(value)`.
    stored_squads: str


class Database(Protocol):
    """A database the Store can use: connections, its dialect, and closing it."""

    dialect: Dialect
    url: str

    def reading(self) -> AbstractAsyncContextManager[Connection]:
        """A connection to read with (no transaction held beyond each statement)."""
        ...

    def transaction(self) -> AbstractAsyncContextManager[Connection]:
        """One write transaction: committed if the block succeeds, rolled back otherwise."""
        ...

    async def close(self) -> None: ...


def database_url(value: str) -> tuple[str, str]:
    """(kind, target) of a SKIRMBOT_DB value: ("sqlite", path) or ("postgresql", url).
    ValueError, in words, for a URL of a database skirmbot does not speak."""
    text = value.strip()
    if text.startswith(("postgresql://", "postgres://")):
        return POSTGRESQL, text
    if text.startswith("sqlite://"):
        path = text.removeprefix("sqlite://")
        # sqlite:///relative.db and sqlite:////absolute/path.db, as SQLAlchemy writes them.
        path = path.removeprefix("/") if path.startswith("/") else path
        if not path:
            raise ValueError("sqlite:/// needs a file name, such as sqlite:///skirmbot.db.")
        return SQLITE, path
    if "://" in text:
        scheme = text.split("://", 1)[0]
        raise ValueError(
            f"skirmbot keeps its data in SQLite or PostgreSQL, not {scheme!r}: give a file path, "
            "sqlite:///file.db or postgresql://user:password@host/name."
        )
    if not text:
        raise ValueError("the database is empty: give a file path or a postgresql:// URL.")
    return SQLITE, text


def placeholders(count: int) -> str:
    """``?, ?, ?`` for an IN list of `count` values."""
    return ", ".join("?" for _ in range(count))


__all__ = [
    "POSTGRESQL",
    "SQLITE",
    "Connection",
    "Database",
    "Dialect",
    "Row",
    "UniqueViolation",
    "database_url",
    "placeholders",
]
