"""`skirmbot db copy`: a community's data from one database to another (SQLite to PostgreSQL
when it outgrows one process, and back).

- Both databases are opened with `Store.open`, so both are at the current schema first. The
  source must already exist (a SQLite path that is not a file is refused, never created empty);
  the destination must hold no row in any data table, or nothing is done.
- The tables and their columns are read from the databases' own catalogues (SQLite's
  ``sqlite_master``, PostgreSQL's ``information_schema``), never ``schema_migrations``, and
  copied in foreign-key order, ids included, in pages, in one transaction on the destination:
  the copy is whole or not at all. The source is read in one snapshot, so a bot still writing
  to it does not tear the copy (what it writes afterwards is not copied).
- Values are converted to what each destination column holds (whole numbers, floats, text,
  bytes). A column only one side has must be an identity column (PostgreSQL's
  `league_players.seq`, where SQLite keeps sign-up order in its rowid): from SQLite it is left
  to its identity, the rows being inserted in sign-up order; to SQLite it is dropped, the rows
  being inserted in its order. Into PostgreSQL, every identity moves past the copied values, so
  new rows get fresh ids.
- Afterwards the copy is verified: each table's row count in the destination against the
  source's, and every match past setup in the destination replays from its record.
"""

from __future__ import annotations

import re
import sqlite3
from collections.abc import AsyncIterator, Callable, Sequence
from contextlib import asynccontextmanager, suppress
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from skirmbot.rules.errors import RulesError
from skirmbot.rules.record import MatchRecord, replay
from skirmbot.store.database import Store
from skirmbot.store.errors import StoreError
from skirmbot.store.sql import POSTGRESQL, SQLITE, Connection, Database, database_url

PAGE = 500  # rows read and written at a time
BOOKKEEPING = "schema_migrations"  # each database keeps its own: never copied
_IDENTIFIER = re.compile(r"[A-Za-z_][A-Za-z0-9_]*")


class CopyError(StoreError):
    """The copy failed or could not start; the message says why, in words. The destination is
    as it was, unless the copy was made and only its verification failed (`CopyReport`)."""


class CopyRefused(CopyError):
    """The copy was refused before anything was written: a missing source, a destination that
    is not empty, the same database twice."""


@dataclass(frozen=True)
class Column:
    name: str
    kind: str  # "int", "float", "text", "bytes" or "other" (copied as it is)
    identity: bool  # filled by the database when not given (PostgreSQL identity columns)


@dataclass(frozen=True)
class Table:
    name: str
    columns: tuple[Column, ...]
    order: str  # SQL: the order rows were inserted in (SQLite's rowid; identity or primary key)
    references: frozenset[str]  # the tables its foreign keys point at


@dataclass(frozen=True)
class TablePlan:
    """How one table is copied: the source's columns that go into the destination's."""

    source: Table
    destination: Table
    columns: tuple[Column, ...]  # the destination's columns that are copied (both sides have)

    @property
    def name(self) -> str:
        return self.destination.name


@dataclass
class CopyReport:
    """What was copied (rows per table, in copy order) and what the verification found."""

    copied: list[tuple[str, int]] = field(default_factory=list)
    replayed: int = 0  # match records that replay in the destination
    unreplayable: list[int] = field(default_factory=list)  # the ids of those that do not
    problems: list[str] = field(default_factory=list)  # empty: the copy verified

    @property
    def ok(self) -> bool:
        return not self.problems

    def summary(self) -> list[str]:
        """One line per table: "matches: 2,000 copied"."""
        return [f"{table}: {count:,} copied" for table, count in self.copied]


# --- opening -------------------------------------------------------------------------------


def check_urls(source: str, destination: str) -> None:
    """CopyRefused for a source or destination that cannot be copied from or to, before either
    is opened: a SQLite source that is not an existing file, a destination that would vanish,
    the same database twice, a URL skirmbot does not speak."""
    try:
        source_kind, source_target = database_url(source)
        destination_kind, destination_target = database_url(destination)
    except ValueError as error:
        raise CopyRefused(str(error)) from None
    if source_kind == SQLITE:
        path = Path(source_target)
        if path.is_dir():
            raise CopyRefused(f"the source {source_target} is a folder, not a SQLite database.")
        if source_target == ":memory:" or not path.is_file():
            raise CopyRefused(
                f"there is no SQLite database at {source_target}: the source must be an "
                "existing file."
            )
    if destination_kind == SQLITE and destination_target == ":memory:":
        raise CopyRefused("the destination :memory: would be gone when the copy ends.")
    if destination_kind == SQLITE and Path(destination_target).is_dir():
        raise CopyRefused(f"the destination {destination_target} is a folder, not a file.")
    if _same(source_kind, source_target, destination_kind, destination_target):
        raise CopyRefused("the source and the destination are the same database.")


def _same(kind: str, target: str, other_kind: str, other_target: str) -> bool:
    if kind != other_kind:
        return False
    if kind == SQLITE:
        return Path(target).resolve() == Path(other_target).resolve()
    return target == other_target


async def open_store(url: str, role: str) -> Store:
    """`Store.open(url)`, its schema brought up to date; a database that cannot be opened is a
    CopyError naming its `role` ("source", "destination")."""
    try:
        return await Store.open(url)
    except StoreError as error:
        raise CopyError(f"the {role}: {error}") from error
    except (OSError, sqlite3.Error) as error:
        raise CopyError(f"cannot open the {role} database: {error}") from error
    except Exception as error:
        if _is_postgres_error(error):
            raise CopyError(f"cannot open the {role} database: {error}") from error
        raise


def _is_postgres_error(error: Exception) -> bool:
    import asyncpg

    return isinstance(error, asyncpg.PostgresError | asyncpg.InterfaceError)


def _quiet(line: str) -> None:
    """The default progress: none."""


async def copy_database(
    source: str, destination: str, progress: Callable[[str], None] = _quiet
) -> CopyReport:
    """Copy everything in the database `source` names into the one `destination` names (both
    SKIRMBOT_DB values) and verify the copy. CopyRefused / CopyError when it cannot be done
    (nothing written); a report with `problems` when the copy was made but does not verify.
    `progress` hears a line per table once the copy is made, then one as verifying begins."""
    check_urls(source, destination)
    source_store = await open_store(source, "source")
    try:
        destination_store = await open_store(destination, "destination")
        try:
            return await copy_stores(source_store, destination_store, progress)
        finally:
            await destination_store.close()
    finally:
        await source_store.close()


async def copy_stores(
    source: Store, destination: Store, progress: Callable[[str], None] = _quiet
) -> CopyReport:
    """Copy every data table of `source` into the empty `destination`, in one transaction;
    then verify the destination."""
    report = CopyReport()
    counts = await copy_tables(source, destination, report)
    for line in report.summary():
        progress(line)
    report.problems += [
        f"{name}: {copied:,} copied, but the source has {counts[name]:,}"
        for name, copied in report.copied
        if copied != counts[name]
    ]
    report.problems += await compare_counts(destination.database, counts)
    replayed, failures = await replay_matches(destination, progress)
    report.replayed = replayed
    report.unreplayable = sorted(failures)
    report.problems += [
        f"match {match_id}'s record does not replay: {why}"
        for match_id, why in sorted(failures.items())
    ]
    return report


async def copy_tables(source: Store, destination: Store, report: CopyReport) -> dict[str, int]:
    """Copy the tables (noting each in `report.copied`) in one transaction on the destination,
    reading the source in one snapshot; the source's row count of each table."""
    async with _snapshot(source.database) as reader:
        plans = await plan_copy(reader, source.dialect, destination.database)
        counts = {plan.name: await count_rows(reader, plan.source.name) for plan in plans}
        async with destination.database.transaction() as writer:
            await refuse_rows(writer, [plan.name for plan in plans])
            for plan in plans:
                report.copied.append((plan.name, await copy_table(reader, writer, plan)))
            if destination.dialect == POSTGRESQL:
                await move_identities(writer, [plan.destination for plan in plans])
    return counts


@asynccontextmanager
async def _snapshot(database: Database) -> AsyncIterator[Connection]:
    """A connection that reads the database as it was at one moment, however long the copy
    takes (a read-only transaction, rolled back at the end)."""
    begin = (
        "BEGIN ISOLATION LEVEL REPEATABLE READ READ ONLY"
        if database.dialect.name == POSTGRESQL
        else "BEGIN"
    )
    async with database.reading() as db:
        await db.execute(begin)
        try:
            yield db
        finally:
            with suppress(Exception):  # nothing was written; a broken connection ends it too
                await db.execute("ROLLBACK")


# --- the schema ------------------------------------------------------------------------------


async def plan_copy(
    source: Connection, source_dialect: str, destination: Database
) -> list[TablePlan]:
    """The tables to copy, in foreign-key order (a table after those it refers to), each with
    the columns both sides have. CopyError when the two schemas differ in anything but the
    identity columns one side has."""
    source_tables = {table.name: table for table in await read_schema(source, source_dialect)}
    async with destination.reading() as db:
        destination_tables = {
            table.name: table for table in await read_schema(db, destination.dialect.name)
        }
    if set(source_tables) != set(destination_tables):
        only = sorted(set(source_tables) ^ set(destination_tables))
        raise CopyError(
            f"the two databases' schemas differ: only one of them has table(s) {', '.join(only)}."
        )
    ordered = foreign_key_order(list(destination_tables.values()))
    return [_plan_table(source_tables[table.name], table) for table in ordered]


def _plan_table(source: Table, destination: Table) -> TablePlan:
    source_columns = {column.name: column for column in source.columns}
    destination_columns = {column.name: column for column in destination.columns}
    unmatched = [
        column
        for column in (*source.columns, *destination.columns)
        if (column.name in source_columns) != (column.name in destination_columns)
        and not column.identity
    ]
    if unmatched:
        raise CopyError(
            f"the two databases' schemas differ: only one of them has the column "
            f"{source.name}.{unmatched[0].name}."
        )
    columns = tuple(column for column in destination.columns if column.name in source_columns)
    return TablePlan(source, destination, columns)


async def read_schema(db: Connection, dialect: str) -> list[Table]:
    """The database's data tables (every table but the migrations' bookkeeping), by name."""
    if dialect == POSTGRESQL:
        return await _postgres_schema(db)
    return await _sqlite_schema(db)


async def _sqlite_schema(db: Connection) -> list[Table]:
    names = [
        str(row[0])
        for row in await db.fetch(
            "SELECT name FROM sqlite_master WHERE type = 'table' "
            "AND name NOT LIKE 'sqlite^_%' ESCAPE '^' ORDER BY name"
        )
    ]
    tables = []
    for name in names:
        if name == BOOKKEEPING:
            continue
        quoted = quote(name)
        columns = tuple(
            Column(str(row["name"]), _sqlite_kind(str(row["type"])), identity=False)
            for row in await db.fetch(f"PRAGMA table_info({quoted})")
        )
        references = frozenset(
            str(row["table"]) for row in await db.fetch(f"PRAGMA foreign_key_list({quoted})")
        )
        tables.append(Table(name, columns, "rowid", references))
    return tables


def _sqlite_kind(declared: str) -> str:
    """What a SQLite column holds, by its declared type (SQLite's own affinity rules)."""
    text = declared.upper()
    if "INT" in text:
        return "int"
    if any(word in text for word in ("CHAR", "CLOB", "TEXT")):
        return "text"
    if "BLOB" in text or not text:
        return "bytes"
    if any(word in text for word in ("REAL", "FLOA", "DOUB")):
        return "float"
    return "other"


_POSTGRES_KINDS = {
    "bigint": "int",
    "integer": "int",
    "smallint": "int",
    "double precision": "float",
    "real": "float",
    "text": "text",
    "character varying": "text",
    "character": "text",
    "bytea": "bytes",
}


async def _postgres_schema(db: Connection) -> list[Table]:
    names = [
        str(row[0])
        for row in await db.fetch(
            "SELECT table_name FROM information_schema.tables "
            "WHERE table_schema = current_schema() AND table_type = 'BASE TABLE' "
            "ORDER BY table_name"
        )
    ]
    references: dict[str, set[str]] = {name: set() for name in names}
    for row in await db.fetch(
        "SELECT c.relname, f.relname FROM pg_constraint k "
        "JOIN pg_class c ON c.oid = k.conrelid JOIN pg_class f ON f.oid = k.confrelid "
        "JOIN pg_namespace n ON n.oid = c.relnamespace "
        "WHERE k.contype = 'f' AND n.nspname = current_schema()"
    ):
        references.setdefault(str(row[0]), set()).add(str(row[1]))
    tables = []
    for name in names:
        if name == BOOKKEEPING:
            continue
        columns = tuple(
            Column(str(row[0]), _POSTGRES_KINDS.get(str(row[1]), "other"), str(row[2]) == "YES")
            for row in await db.fetch(
                "SELECT column_name, data_type, is_identity FROM information_schema.columns "
                "WHERE table_schema = current_schema() AND table_name = ? "
                "ORDER BY ordinal_position",
                (name,),
            )
        )
        key = [column.name for column in columns if column.identity] or [
            str(row[0])
            for row in await db.fetch(
                "SELECT k.column_name FROM information_schema.table_constraints t "
                "JOIN information_schema.key_column_usage k "
                "ON k.constraint_name = t.constraint_name AND k.table_schema = t.table_schema "
                "AND k.table_name = t.table_name "
                "WHERE t.constraint_type = 'PRIMARY KEY' AND t.table_schema = current_schema() "
                "AND t.table_name = ? ORDER BY k.ordinal_position",
                (name,),
            )
        ]
        # Without an identity or a primary key (no table of ours), every column orders the rows.
        order = ", ".join(quote(column) for column in key or [c.name for c in columns])
        tables.append(Table(name, columns, order, frozenset(references[name])))
    return tables


def foreign_key_order(tables: Sequence[Table]) -> list[Table]:
    """The tables with each one after the tables its foreign keys refer to (ties by name)."""
    waiting = {table.name: table for table in tables}
    ordered: list[Table] = []
    while waiting:
        ready = sorted(
            name
            for name, table in waiting.items()
            if not (table.references - {name}) & waiting.keys()
        )
        if not ready:
            raise CopyError(
                f"the tables {', '.join(sorted(waiting))} refer to each other in a circle; "
                "there is no order to copy them in."
            )
        for name in ready:
            ordered.append(waiting.pop(name))
    return ordered


def quote(name: str) -> str:
    """A table's or column's name as a quoted SQL identifier (both databases quote alike)."""
    if not _IDENTIFIER.fullmatch(name):
        raise CopyError(
            f"the schema has a table or column named {name!r}, which skirmbot never makes."
        )
    return f'"{name}"'


# --- copying ---------------------------------------------------------------------------------


async def count_rows(db: Connection, table: str) -> int:
    row = await db.fetchone(f"SELECT COUNT(*) FROM {quote(table)}")
    return 0 if row is None else int(row[0])


async def refuse_rows(db: Connection, tables: Sequence[str]) -> None:
    """CopyRefused if any of the tables has a row: a copy goes only into an empty database."""
    full = [table for table in tables if await db.fetchone(f"SELECT 1 FROM {quote(table)} LIMIT 1")]
    if full:
        raise CopyRefused(
            f"the destination is not empty: {', '.join(full)} "
            f"{'has rows' if len(full) == 1 else 'have rows'}. Copy into a new, empty database."
        )


async def copy_table(source: Connection, destination: Connection, plan: TablePlan) -> int:
    """Copy the table's rows, a page at a time, in the source's insertion order; how many."""
    names = ", ".join(quote(column.name) for column in plan.columns)
    select = (
        f"SELECT {names} FROM {quote(plan.source.name)} ORDER BY {plan.source.order} "
        "LIMIT ? OFFSET ?"
    )
    insert = (
        f"INSERT INTO {quote(plan.name)} ({names}) VALUES ({', '.join('?' for _ in plan.columns)})"
    )
    converters = [_converter(plan.name, column) for column in plan.columns]
    copied = 0
    while True:
        rows = await source.fetch(select, (PAGE, copied))
        if not rows:
            return copied
        batch = [
            tuple(convert(row[index]) for index, convert in enumerate(converters)) for row in rows
        ]
        try:
            await destination.executemany(insert, batch)
        except Exception as error:
            if isinstance(error, StoreError | sqlite3.Error) or _is_postgres_error(error):
                raise CopyError(f"copying {plan.name} failed: {error}") from error
            raise
        copied += len(rows)


def _converter(table: str, column: Column) -> Callable[[Any], Any]:
    """A function that turns a source value into what the destination column holds."""
    convert = _CONVERSIONS.get(column.kind, _as_is)

    def converted(value: Any) -> Any:
        if value is None:
            return None
        try:
            return convert(value)
        except (TypeError, ValueError) as error:
            raise CopyError(
                f"{table}.{column.name} holds {value!r}, which is not {column.kind}: {error}"
            ) from error

    return converted


def _as_int(value: Any) -> int:
    if isinstance(value, float) and not value.is_integer():
        raise ValueError("it has a fraction")
    if isinstance(value, bytes | bytearray | memoryview):
        raise TypeError("it is bytes")
    return int(value)


def _as_float(value: Any) -> float:
    if isinstance(value, bytes | bytearray | memoryview):
        raise TypeError("it is bytes")
    return float(value)


def _as_text(value: Any) -> str:
    if isinstance(value, bytes | bytearray | memoryview):
        return bytes(value).decode("utf-8")
    return value if isinstance(value, str) else str(value)


def _as_bytes(value: Any) -> bytes:
    if isinstance(value, str):
        return value.encode("utf-8")
    return bytes(value)


def _as_is(value: Any) -> Any:
    return value


_CONVERSIONS: dict[str, Callable[[Any], Any]] = {
    "int": _as_int,
    "float": _as_float,
    "text": _as_text,
    "bytes": _as_bytes,
}


async def move_identities(db: Connection, tables: Sequence[Table]) -> None:
    """Move every identity column's sequence (PostgreSQL) past the largest value copied, so
    that the rows the bot makes next get fresh ids."""
    for table in tables:
        for column in table.columns:
            if column.identity:
                await db.execute(
                    "SELECT setval(pg_get_serial_sequence(?, ?), "
                    f"COALESCE(MAX({quote(column.name)}), 0) + 1, false) "
                    f"FROM {quote(table.name)}",
                    (quote(table.name), column.name),
                )


# --- verifying -------------------------------------------------------------------------------


async def compare_counts(database: Database, counts: dict[str, int]) -> list[str]:
    """Each table whose row count in `database` is not the source's."""
    problems = []
    async with database.reading() as db:
        for table, expected in counts.items():
            found = await count_rows(db, table)
            if found != expected:
                problems.append(
                    f"{table} has {found:,} rows in the destination and {expected:,} in the source"
                )
    return problems


async def replay_matches(
    store: Store, progress: Callable[[str], None] = _quiet
) -> tuple[int, dict[int, str]]:
    """How many match records (of the matches past setup) replay in `store`, and why each one
    that does not does not, by match id."""
    async with store.database.reading() as db:
        ids = [
            int(row[0])
            for row in await db.fetch("SELECT id FROM matches WHERE status <> 'setup' ORDER BY id")
        ]
    progress(f"verifying: checking {len(ids):,} match records (each replayed, trusted)")
    replayed, problems = 0, {}
    for match_id in ids:
        problem = await _replay_problem(store, match_id)
        if problem is None:
            replayed += 1
        else:
            problems[match_id] = problem
    return replayed, problems


async def _replay_problem(store: Store, match_id: int) -> str | None:
    """Why the match's record does not replay (None: it does)."""
    row = await store.match(match_id)
    if row is None:
        return "it is gone"
    try:
        # Trusted (skirmbot.rules.record.replay): the records are our own store's, each command
        # checked when it was accepted; what the copy could break, the replay still meets.
        replay(MatchRecord.from_json(row.record), trusted=True)
    except RulesError as error:
        return str(error)
    except (KeyError, TypeError, ValueError, AttributeError, IndexError) as error:
        return f"{type(error).__name__}: {error}"
    return None


__all__ = [
    "PAGE",
    "Column",
    "CopyError",
    "CopyRefused",
    "CopyReport",
    "Table",
    "TablePlan",
    "check_urls",
    "copy_database",
    "copy_stores",
    "copy_tables",
    "foreign_key_order",
    "open_store",
    "plan_copy",
    "read_schema",
]
