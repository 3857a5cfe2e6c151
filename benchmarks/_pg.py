"""What the benchmarks that measure on PostgreSQL share: its throwaway server, and settling a
freshly filled store as a database in use would be.

The server is tests/pg_server.py's (a fresh cluster in a temp directory, tuned for speed: fsync
off). A benchmark fills its store with those settings, then `settle` sets them back to
PostgreSQL's defaults (fsync, synchronous_commit, full_page_writes on: as durable as the SQLite
store's synchronous=FULL), unless asked to keep them fast, and vacuums and analyses the tables
(autovacuum would otherwise do it in the middle of the measures); a SQLite store only gets its
WAL checkpointed.
"""

from __future__ import annotations

import asyncio
import signal
import sys
from pathlib import Path

from skirmbot.store import Store
from skirmbot.store.sql import SQLITE, Connection

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "tests"))
import pg_server  # noqa: E402  (tests/pg_server.py: the throwaway PostgreSQL server)

DURABLE = {"fsync": "on", "synchronous_commit": "on", "full_page_writes": "on"}
RELOAD_CHECKS, RELOAD_PAUSE = 100, 0.05  # at most 5 s for a reload to be read
SQLITE_SYNC = {0: "OFF", 1: "NORMAL", 2: "FULL", 3: "EXTRA"}  # PRAGMA synchronous's numbers


async def settle(store: Store, *, durable: bool = True) -> None:
    """Settle a freshly filled store: SQLite's WAL checkpointed; PostgreSQL vacuumed, analysed
    and checkpointed, then set back to durable defaults when `durable`."""
    async with store.database.reading() as db:
        if store.database.dialect.name == SQLITE:
            await db.execute("PRAGMA wal_checkpoint(TRUNCATE)")
            return
        # VACUUM cannot run inside a transaction: `reading()` holds none beyond the statement.
        await db.execute("VACUUM ANALYZE")
        await db.execute("CHECKPOINT")
        if durable:
            for setting, value in DURABLE.items():
                await db.execute(f"ALTER SYSTEM SET {setting} = {value}")
            await db.execute("SELECT pg_reload_conf()")
            await _reloaded(db)


async def _reloaded(db: Connection) -> None:
    """Wait until the server's processes have read the durable settings back: a reload is a
    signal they act on at their next statement, not before `pg_reload_conf()` returns."""
    for _ in range(RELOAD_CHECKS):
        rows = [await db.fetchone(f"SHOW {setting}") for setting in DURABLE]
        if all(row is not None and row[0] == "on" for row in rows):
            return
        await asyncio.sleep(RELOAD_PAUSE)


async def durability(store: Store) -> str:
    """The store's durability settings as it reports them, e.g. `fsync=on, ...`."""
    found = []
    async with store.database.reading() as db:
        if store.database.dialect.name == SQLITE:
            mode = await db.fetchone("PRAGMA journal_mode")
            sync = await db.fetchone("PRAGMA synchronous")
            level = SQLITE_SYNC.get(int(sync[0]) if sync else -1)
            found = [f"journal_mode={mode[0] if mode else '?'}", f"synchronous={level or '?'}"]
        else:
            for setting in DURABLE:
                row = await db.fetchone(f"SHOW {setting}")
                found.append(f"{setting}={row[0] if row else '?'}")
    return ", ".join(found)


def cancel_on_sigterm() -> None:
    """From inside the running main task: SIGTERM cancels it, as `asyncio.run` does on Ctrl-C,
    so that the `finally` blocks on the way out stop the server and remove its files. Not a
    plain signal handler raising KeyboardInterrupt: that can land in asyncpg's compiled protocol
    code while it reads from the server, and the process then crashes (a segfault, seen here)
    before anything is stopped."""
    task = asyncio.current_task()
    if task is not None:
        asyncio.get_running_loop().add_signal_handler(signal.SIGTERM, task.cancel)


__all__ = ["DURABLE", "cancel_on_sigterm", "durability", "pg_server", "settle"]
