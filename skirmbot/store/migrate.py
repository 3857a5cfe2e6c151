"""The schema migration runner, for both databases.

Schema changes are numbered SQL files, ``NNN_name.sql``, in the top-level ``migrations`` package
(SQLite) and its ``postgresql`` folder (the same changes in PostgreSQL's dialect, same numbers),
shipped as package data. At start-up every file not yet recorded in ``schema_migrations`` is
applied in numeric order, each in its own transaction together with its bookkeeping row, so an
old database of either kind upgrades itself and a crash mid-migration leaves the previous schema
intact. Processes starting at once take turns (SQLite's write lock; a PostgreSQL advisory lock).

A migration file must not contain transaction control (BEGIN/COMMIT/ROLLBACK) of its own. What
SQL cannot do the same on both databases (a key computed in Python) is a step of
``skirmbot.store.backfill``, run after the file's SQL in the same transaction.
"""

from __future__ import annotations

import re
import sqlite3
import time
from collections.abc import Callable
from dataclasses import dataclass
from importlib.resources import files
from importlib.resources.abc import Traversable
from typing import TYPE_CHECKING

import asyncpg

from skirmbot.store.backfill import STEPS
from skirmbot.store.errors import StoreError

if TYPE_CHECKING:
    from skirmbot.store.sql import Connection, Database

MIGRATIONS_PACKAGE = "skirmbot.migrations"
# Each backend's folder of migrations, by dialect name.
MIGRATION_PACKAGES = {
    "sqlite": MIGRATIONS_PACKAGE,
    "postgresql": f"{MIGRATIONS_PACKAGE}.postgresql",
}
# Any number, the same in every process: the PostgreSQL advisory lock migrations take turns on.
MIGRATION_LOCK = 7_150_001
MIGRATION_FILE = re.compile(r"^(\d+)_([A-Za-z0-9_]+)\.sql$")

BOOKKEEPING_TABLE = """
CREATE TABLE IF NOT EXISTS schema_migrations (
    version     INTEGER PRIMARY KEY,
    name        TEXT    NOT NULL,
    applied_at  DOUBLE PRECISION NOT NULL
)
"""


class MigrationError(StoreError):
    """The database schema cannot be brought up to date by this version of skirmbot."""


@dataclass(frozen=True)
class Migration:
    version: int
    name: str  # the file name, e.g. "001_initial.sql"
    sql: str

    def statements(self) -> list[str]:
        return split_statements(self.sql)


def default_source(dialect: str = "sqlite") -> Traversable:
    """The migrations shipped with skirmbot for `dialect` (works from site-packages too)."""
    return files(MIGRATION_PACKAGES[dialect])


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


async def ensure_bookkeeping(db: Connection) -> None:
    await db.execute(BOOKKEEPING_TABLE)


async def recorded_versions(db: Connection) -> list[int]:
    rows = await db.fetch("SELECT version FROM schema_migrations ORDER BY version")
    return [int(row[0]) for row in rows]


async def schema_version(db: Connection) -> int:
    """The highest migration recorded in the database (0 for a fresh one)."""
    await ensure_bookkeeping(db)
    row = await db.fetchone("SELECT COALESCE(MAX(version), 0) FROM schema_migrations")
    return 0 if row is None else int(row[0])


async def migrate(
    database: Database,
    source: Traversable | None = None,
    clock: Callable[[], float] = time.time,
) -> list[Migration]:
    """Apply every migration in `source` (default: the database's dialect's) that the
    database has not recorded; return those applied.

    Refuses (MigrationError) a database that records a migration this skirmbot does not know,
    e.g. one written by a newer skirmbot.
    """
    known = discover(default_source(database.dialect.name) if source is None else source)
    known_versions = {migration.version for migration in known}
    latest = max(known_versions, default=0)
    async with database.transaction() as db:
        await _take_turns(database, db)
        await ensure_bookkeeping(db)
    async with database.reading() as db:
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
        if await _apply(database, migration, clock):
            applied.append(migration)
    return applied


async def _take_turns(database: Database, db: Connection) -> None:
    """Hold the migrations' lock until this transaction ends (PostgreSQL; SQLite's
    ``BEGIN IMMEDIATE`` already is one)."""
    if database.dialect.name == "postgresql":
        await db.execute(f"SELECT pg_advisory_xact_lock({MIGRATION_LOCK})")


async def _apply(database: Database, migration: Migration, clock: Callable[[], float]) -> bool:
    """Apply one migration in one transaction; False if another process applied it first."""
    try:
        async with database.transaction() as db:
            await _take_turns(database, db)
            if await db.fetchone(
                "SELECT 1 FROM schema_migrations WHERE version = ?", (migration.version,)
            ):
                return False
            for statement in migration.statements():
                await db.execute(statement)
            step = STEPS.get(migration.name)
            if step is not None:  # what SQL cannot do, e.g. fill a column computed in Python
                await step(db)
            await db.execute(
                "INSERT INTO schema_migrations (version, name, applied_at) VALUES (?, ?, ?)",
                (migration.version, migration.name, clock()),
            )
    except StoreError:
        raise
    except Exception as error:
        if _is_database_error(error):
            raise MigrationError(f"Migration {migration.name} failed: {error}") from error
        raise
    return True


def _is_database_error(error: Exception) -> bool:
    """Whether a migration statement failed in the database itself (either kind)."""
    return isinstance(error, sqlite3.Error | asyncpg.PostgresError)


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
