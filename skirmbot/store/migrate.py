"""The schema migration runner.

Schema changes are numbered SQL files, ``NNN_name.sql``, in the top-level ``migrations`` package
(shipped as package data). At start-up every file not yet recorded in ``schema_migrations`` is
applied in numeric order, each in its own transaction together with its bookkeeping row, so an
old database upgrades itself and a crash mid-migration leaves the previous schema intact.

A migration file must not contain transaction control (BEGIN/COMMIT/ROLLBACK) of its own.
"""

from __future__ import annotations

import re
import sqlite3
import time
from collections.abc import Callable
from contextlib import suppress
from dataclasses import dataclass
from importlib.resources import files
from importlib.resources.abc import Traversable

import aiosqlite

MIGRATIONS_PACKAGE = "skirmbot.migrations"
MIGRATION_FILE = re.compile(r"^(\d+)_([A-Za-z0-9_]+)\.sql$")

BOOKKEEPING_TABLE = """
CREATE TABLE IF NOT EXISTS schema_migrations (
    version     INTEGER PRIMARY KEY,
    name        TEXT    NOT NULL,
    applied_at  REAL    NOT NULL
)
"""


class StoreError(Exception):
    """Something went wrong in the store (base class of every store error)."""


class MigrationError(StoreError):
    """The database schema cannot be brought up to date by this version of skirmbot."""


@dataclass(frozen=True)
class Migration:
    version: int
    name: str  # the file name, e.g. "001_initial.sql"
    sql: str

    def statements(self) -> list[str]:
        return split_statements(self.sql)


def default_source() -> Traversable:
    """The ``migrations`` package shipped with skirmbot (works from site-packages too)."""
    return files(MIGRATIONS_PACKAGE)


def discover(source: Traversable | None = None) -> list[Migration]:
    """Every migration in `source` (default: the ``migrations`` package), in numeric order."""
    folder = default_source() if source is None else source
    found: dict[int, Migration] = {}
    for entry in folder.iterdir():
        if not entry.name.endswith(".sql") or not entry.is_file():
            continue
        matched = MIGRATION_FILE.match(entry.name)
        if matched is None:
            raise MigrationError(
                f"Migration file {entry.name!r} is not named NNN_name.sql (digits, underscore, "
                "letters/digits/underscores)."
            )
        version = int(matched.group(1))
        if version < 1:
            raise MigrationError(f"Migration file {entry.name!r}: versions start at 1.")
        if version in found:
            raise MigrationError(
                f"Migrations {found[version].name!r} and {entry.name!r} share version {version}."
            )
        found[version] = Migration(version, entry.name, entry.read_text(encoding="utf-8"))
    return [found[version] for version in sorted(found)]


def split_statements(sql: str) -> list[str]:
    """Split a SQL script into single statements (``;`` inside strings, comments and trigger
    bodies does not split). Python's sqlite3 ``executescript`` would commit any open transaction
    first, so migrations are run statement by statement inside our own transaction instead."""
    statements: list[str] = []
    buffer = ""
    pieces = sql.split(";")
    for index, piece in enumerate(pieces):
        buffer += piece
        if index < len(pieces) - 1:
            buffer += ";"
            if sqlite3.complete_statement(buffer):
                statements.append(buffer.strip())
                buffer = ""
    if buffer.strip():
        # Trailing comments (a no-op), or a last statement without its semicolon.
        statements.append(buffer.strip())
    return statements


async def ensure_bookkeeping(db: aiosqlite.Connection) -> None:
    await db.execute(BOOKKEEPING_TABLE)


async def recorded_versions(db: aiosqlite.Connection) -> list[int]:
    rows = await db.execute_fetchall("SELECT version FROM schema_migrations ORDER BY version")
    return [int(row[0]) for row in rows]


async def schema_version(db: aiosqlite.Connection) -> int:
    """The highest migration recorded in the database (0 for a fresh one)."""
    await ensure_bookkeeping(db)
    async with db.execute("SELECT COALESCE(MAX(version), 0) FROM schema_migrations") as cursor:
        row = await cursor.fetchone()
    return 0 if row is None else int(row[0])


async def migrate(
    db: aiosqlite.Connection,
    source: Traversable | None = None,
    clock: Callable[[], float] = time.time,
) -> list[Migration]:
    """Apply every migration in `source` that `db` has not recorded; return those applied.

    `db` must be in autocommit mode (``isolation_level=None``): the runner opens its own
    transactions. Refuses (MigrationError) a database that records a migration this skirmbot
    does not know, e.g. one written by a newer skirmbot.
    """
    known = discover(source)
    known_versions = {migration.version for migration in known}
    latest = max(known_versions, default=0)
    await ensure_bookkeeping(db)
    recorded = await recorded_versions(db)
    newer = [version for version in recorded if version > latest]
    if newer:
        raise MigrationError(
            f"The database is at schema version {max(newer)}, but this skirmbot only knows "
            f"migrations up to {latest}. It was written by a newer skirmbot: upgrade skirmbot, "
            "or use another database."
        )
    unknown = [version for version in recorded if version not in known_versions]
    if unknown:
        raise MigrationError(
            f"The database records migration(s) {unknown} that this skirmbot does not have; "
            "refusing to touch it."
        )
    applied: list[Migration] = []
    for migration in known:
        if migration.version in recorded:
            continue
        if await _apply(db, migration, clock):
            applied.append(migration)
    return applied


async def _apply(
    db: aiosqlite.Connection, migration: Migration, clock: Callable[[], float]
) -> bool:
    """Apply one migration in one transaction; False if another process applied it first."""
    await db.execute("BEGIN IMMEDIATE")
    try:
        async with db.execute(
            "SELECT 1 FROM schema_migrations WHERE version = ?", (migration.version,)
        ) as cursor:
            if await cursor.fetchone() is not None:
                await db.execute("ROLLBACK")
                return False
        for statement in migration.statements():
            await db.execute(statement)
        await db.execute(
            "INSERT INTO schema_migrations (version, name, applied_at) VALUES (?, ?, ?)",
            (migration.version, migration.name, clock()),
        )
        await db.execute("COMMIT")
    except BaseException as error:
        with suppress(sqlite3.Error):  # SQLite may already have rolled back by itself
            await db.execute("ROLLBACK")
        if isinstance(error, sqlite3.Error):
            raise MigrationError(f"Migration {migration.name} failed: {error}") from error
        raise
    return True


__all__ = [
    "Migration",
    "MigrationError",
    "StoreError",
    "default_source",
    "discover",
    "migrate",
    "schema_version",
    "split_statements",
]
