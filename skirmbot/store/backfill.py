"""The steps of a migration that SQL cannot do the same way on both databases, run by the
migration runner right after the migration's SQL, in its transaction (`STEPS`, by the
migration's file name)."""

from __future__ import annotations

from collections.abc import Awaitable, Callable
from typing import TYPE_CHECKING

from skirmbot.words import name_key

if TYPE_CHECKING:
    from skirmbot.store.sql import Connection

# The tables whose names are unique by their key, with whose names they are unique among.
NAMED_TABLES = (("squads", "owner_id"), ("leagues", "guild_id"))


async def fill_name_keys(db: Connection) -> None:
    """Every stored squad's and league's name key (009_name_keys). Neither SQLite nor
    PostgreSQL can casefold as Python does, so the keys are computed here. Two names the old
    uniqueness told apart but whose keys are one ("straße" and "STRASSE" on PostgreSQL, "Zoë"
    and "ZOË" on SQLite) keep both rows: the later one's name gains its id, "STRASSE (#12)",
    so each stays reachable by a name of its own."""
    for table, among in NAMED_TABLES:
        rows = await db.fetch(f"SELECT id, {among}, name FROM {table} ORDER BY id")
        taken: set[tuple[int, str]] = set()
        keyed: list[tuple[str, str, int]] = []
        for row in rows:
            name = str(row["name"])
            if (row[among], name_key(name)) in taken:
                name = f"{name} (#{row['id']})"
            taken.add((row[among], name_key(name)))
            keyed.append((name, name_key(name), int(row["id"])))
        await db.executemany(f"UPDATE {table} SET name = ?, name_key = ? WHERE id = ?", keyed)


STEPS: dict[str, Callable[[Connection], Awaitable[None]]] = {
    "009_name_keys.sql": fill_name_keys,
}
