"""Connecting to the database a SKIRMBOT_DB value names: the one module that knows both
backends, so that `skirmbot.store.sql` (what they share) imports neither of them."""

from __future__ import annotations

from skirmbot.store.postgres import PostgresDatabase
from skirmbot.store.sql import POSTGRESQL, Database, database_url
from skirmbot.store.sqlite import SqliteDatabase


async def open_database(value: str) -> Database:
    """The database a SKIRMBOT_DB value names, connected (its schema not yet migrated)."""
    kind, target = database_url(value)
    if kind == POSTGRESQL:
        return await PostgresDatabase.connect(target)
    return await SqliteDatabase.connect(target)


__all__ = ["open_database"]
