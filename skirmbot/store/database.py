"""The Store: skirmbot's only door to SQLite (aiosqlite).

- One connection per Store, in autocommit mode; every write is one explicit ``BEGIN IMMEDIATE``
  ... ``COMMIT`` transaction, so a crash at any point leaves either the old or the new state.
- WAL journal (for file databases), foreign keys on, a busy timeout so that several Stores
  (processes or connections) on one file wait for each other instead of failing.
- Matches are saved with a version check (compare-and-swap): ``save_match`` only writes if the
  stored version is still the one the caller loaded, else it raises VersionConflict.
- Calls on one Store are serialised by an asyncio lock, so concurrent tasks never interleave
  statements of one transaction on the shared connection.

JSON columns (players, names, record, setup) are (de)serialised here; callers see Python data.
"""

from __future__ import annotations

import asyncio
import json
import logging
import sqlite3
import time
from collections.abc import AsyncIterator, Callable, Iterable
from contextlib import asynccontextmanager, suppress
from dataclasses import dataclass
from importlib.resources.abc import Traversable
from pathlib import Path
from types import TracebackType
from typing import Any

import aiosqlite

from skirmbot.store.migrate import StoreError, migrate
from skirmbot.store.migrate import schema_version as _schema_version

log = logging.getLogger(__name__)

MATCH_STATUSES = ("setup", "deploying", "playing", "ended", "aborted")
ACTIVE_STATUSES = ("setup", "deploying", "playing")
BUSY_TIMEOUT_MS = 5000

_MATCH_COLUMNS = (
    "id, guild_id, channel_id, status, players, names, record, setup, version, "
    "created_at, updated_at, ruleset, winner, end_reason, ended_at"
)
_ACTIVE = "status IN ('setup', 'deploying', 'playing')"


class ChannelBusy(StoreError):
    """The channel already has an active match (setup, deploying or playing)."""


class VersionConflict(StoreError):
    """Someone saved the match first: the stored version is not the one the caller loaded."""


@dataclass(frozen=True)
class Deadline:
    """A match's next timed event: a reminder or the miss (turn timers, issue 5). `key` names
    the activation it belongs to, so a deadline that outlived its activation is ignored."""

    due_at: float
    kind: str  # "remind" or "miss"
    key: str


class _Keep:
    """save_match's default: leave the match's deadline as it is."""


KEEP = _Keep()


@dataclass(frozen=True)
class SeatResult:
    """One side of a finished match: who sat there, where they placed, their score."""

    side: int
    user_id: int | None  # 0: the automatic player
    name: str
    placing: int  # 1 for the winner; every side 1 in a draw
    score: int


@dataclass(frozen=True)
class MatchResult:
    """A finished match's result, stored as columns and rows (never read from the record)."""

    ruleset: str
    winner: int | None  # the winning side; None: a draw
    reason: str
    ended_at: float
    seats: tuple[SeatResult, ...]


@dataclass
class MatchRow:
    id: int
    guild_id: int
    channel_id: int
    status: str
    players: list[int | None]
    names: list[str]
    record: dict[str, Any]
    setup: dict[str, Any]
    version: int
    created_at: float
    updated_at: float
    # Set by the service in the save that ends the match; the store writes it as columns.
    result: MatchResult | None = None
    ruleset: str = "skirm"  # as the record names it; the column follows the record

    @property
    def active(self) -> bool:
        return self.status in ACTIVE_STATUSES


def _dumps(value: Any) -> str:
    return json.dumps(value, sort_keys=False, ensure_ascii=False)


def _match_from_row(row: sqlite3.Row) -> MatchRow:
    return MatchRow(
        id=int(row["id"]),
        guild_id=int(row["guild_id"]),
        channel_id=int(row["channel_id"]),
        status=str(row["status"]),
        players=json.loads(row["players"]),
        names=json.loads(row["names"]),
        record=json.loads(row["record"]),
        setup=json.loads(row["setup"]),
        version=int(row["version"]),
        created_at=float(row["created_at"]),
        updated_at=float(row["updated_at"]),
        ruleset=str(row["ruleset"]),
    )


def _check_match_fields(status: str, players: list[int | None], names: list[str]) -> None:
    if status not in MATCH_STATUSES:
        raise ValueError(f"Unknown match status {status!r}; expected one of {MATCH_STATUSES}.")
    if len(players) != 2 or len(names) != 2:
        raise ValueError("A match has exactly two seats: give two players and two names.")


@dataclass
class SquadRow:
    """A player's stored squad (campaigns): the squad file's data, with its units' XP."""

    id: int
    owner_id: int
    guild_id: int
    name: str
    data: dict[str, Any]
    created_at: float
    updated_at: float


_SQUAD_COLUMNS = "id, owner_id, guild_id, name, data, created_at, updated_at"


def _squad_from_row(row: sqlite3.Row) -> SquadRow:
    return SquadRow(
        id=int(row["id"]),
        owner_id=int(row["owner_id"]),
        guild_id=int(row["guild_id"]),
        name=str(row["name"]),
        data=json.loads(row["data"]),
        created_at=float(row["created_at"]),
        updated_at=float(row["updated_at"]),
    )


def _is_channel_busy(error: sqlite3.IntegrityError) -> bool:
    return "UNIQUE" in str(error) and "matches.channel_id" in str(error)


# Settings that belong to one match, keyed `<kind>:<match id>:<rest>` (the buttons' saved
# "Spend N TO" commands): save_match deletes them when the match ends, and
# Store.sweep_match_settings deletes any left from matches that are no longer active.
MATCH_SETTING_KINDS = ("spend",)


def match_setting_key(kind: str, match_id: int, rest: object) -> str:
    """The settings key of something that belongs to match `match_id` only."""
    if kind not in MATCH_SETTING_KINDS:
        raise ValueError(f"{kind!r} is not one of the match settings {MATCH_SETTING_KINDS}")
    return f"{kind}:{match_id}:{rest}"


def _setting_match(key: str) -> int | None:
    """The match a match setting's key names (None: not a well-formed one)."""
    parts = key.split(":", 2)
    return int(parts[1]) if len(parts) == 3 and parts[1].isdigit() else None


class Store:
    """Matches, their records, players and per-guild settings, kept safely in SQLite."""

    def __init__(self, db: aiosqlite.Connection, clock: Callable[[], float]) -> None:
        # Use Store.open(): it configures the connection and applies the migrations.
        self._db = db
        self._clock = clock
        self._lock = asyncio.Lock()
        self._closed = False

    # -- life cycle ---------------------------------------------------------------------------

    @classmethod
    async def open(
        cls,
        path: str | Path,
        clock: Callable[[], float] = time.time,
        *,
        migrations: Traversable | None = None,
    ) -> Store:
        """Open (creating if needed) the database at `path` (":memory:" allowed) and bring its
        schema up to date. `migrations` overrides the migrations folder (tests)."""
        db = await aiosqlite.connect(path, isolation_level=None, timeout=BUSY_TIMEOUT_MS / 1000)
        try:
            db.row_factory = sqlite3.Row
            await db.execute(f"PRAGMA busy_timeout = {BUSY_TIMEOUT_MS}")
            await db.execute("PRAGMA foreign_keys = ON")
            if str(path) != ":memory:":
                async with db.execute("PRAGMA journal_mode = WAL") as cursor:
                    mode = await cursor.fetchone()
                if mode is None or str(mode[0]).lower() != "wal":
                    log.warning("SQLite could not use WAL for %s (journal mode %r)", path, mode)
                # In WAL mode FULL makes every commit durable, not only consistent.
                await db.execute("PRAGMA synchronous = FULL")
            await migrate(db, migrations, clock)
        except BaseException:
            await db.close()
            raise
        return cls(db, clock)

    async def close(self) -> None:
        if not self._closed:
            self._closed = True
            async with self._lock:
                await self._db.close()

    async def __aenter__(self) -> Store:
        return self

    async def __aexit__(
        self,
        exc_type: type[BaseException] | None,
        exc: BaseException | None,
        traceback: TracebackType | None,
    ) -> None:
        await self.close()

    @asynccontextmanager
    async def _reading(self) -> AsyncIterator[aiosqlite.Connection]:
        async with self._lock:
            yield self._db

    @asynccontextmanager
    async def _transaction(self) -> AsyncIterator[aiosqlite.Connection]:
        """One write transaction: committed if the block succeeds, rolled back otherwise."""
        async with self._lock:
            await self._db.execute("BEGIN IMMEDIATE")
            try:
                yield self._db
                await self._db.execute("COMMIT")
            except BaseException:
                # (suppressed: SQLite may already have rolled back by itself)
                with suppress(sqlite3.Error):
                    await self._db.execute("ROLLBACK")
                raise

    async def _fetch_matches(
        self, db: aiosqlite.Connection, where: str, parameters: Iterable[Any] = ()
    ) -> list[MatchRow]:
        rows = await db.execute_fetchall(
            f"SELECT {_MATCH_COLUMNS} FROM matches WHERE {where} ORDER BY id", tuple(parameters)
        )
        return [_match_from_row(row) for row in rows]

    # -- matches ------------------------------------------------------------------------------

    async def create_match(
        self,
        guild_id: int,
        channel_id: int,
        players: list[int | None],
        names: list[str],
        record: dict[str, Any],
        setup: dict[str, Any] | None = None,
        status: str = "setup",
    ) -> MatchRow:
        """A new match (version 1); ChannelBusy if the channel already has an active match."""
        _check_match_fields(status, players, names)
        values = (_dumps(players), _dumps(names), _dumps(record), _dumps(setup or {}))
        now = self._clock()
        try:
            async with self._transaction() as db:
                if status in ACTIVE_STATUSES and await self._fetch_matches(
                    db, f"channel_id = ? AND {_ACTIVE}", (channel_id,)
                ):
                    raise ChannelBusy(f"Channel {channel_id} already has an active match.")
                cursor = await db.execute(
                    "INSERT INTO matches (guild_id, channel_id, status, players, names, record, "
                    "setup, version, created_at, updated_at) "
                    "VALUES (?, ?, ?, ?, ?, ?, ?, 1, ?, ?)",
                    (guild_id, channel_id, status, *values, now, now),
                )
                match_id = cursor.lastrowid
                await cursor.close()
                rows = await self._fetch_matches(db, "id = ?", (match_id,))
        except sqlite3.IntegrityError as error:
            if _is_channel_busy(error):
                raise ChannelBusy(f"Channel {channel_id} already has an active match.") from error
            raise
        return rows[0]

    async def match(self, match_id: int) -> MatchRow | None:
        async with self._reading() as db:
            rows = await self._fetch_matches(db, "id = ?", (match_id,))
        return rows[0] if rows else None

    async def active_match(self, channel_id: int) -> MatchRow | None:
        async with self._reading() as db:
            rows = await self._fetch_matches(db, f"channel_id = ? AND {_ACTIVE}", (channel_id,))
        return rows[0] if rows else None

    async def last_match(self, channel_id: int) -> MatchRow | None:
        """The channel's most recent match, active or not (for exporting a finished one)."""
        async with self._reading() as db:
            rows = await self._fetch_matches(db, "channel_id = ?", (channel_id,))
        return rows[-1] if rows else None

    async def active_matches(self) -> list[MatchRow]:
        """Every match in setup, deploying or playing, by id."""
        async with self._reading() as db:
            return await self._fetch_matches(db, _ACTIVE)

    async def matches_of_player(self, user_id: int, active_only: bool = True) -> list[MatchRow]:
        """Matches in which `user_id` holds a seat (only active ones by default), by id."""
        where = "EXISTS (SELECT 1 FROM json_each(matches.players) WHERE json_each.value = ?)"
        if active_only:
            where += f" AND {_ACTIVE}"
        async with self._reading() as db:
            return await self._fetch_matches(db, where, (user_id,))

    async def save_match(self, row: MatchRow, deadline: Deadline | None | _Keep = KEEP) -> MatchRow:
        """Write `row`'s status, players, names, record and setup in one transaction, if the
        stored version is still `row.version` (compare-and-swap); return the stored row, with
        its version bumped. VersionConflict if someone saved first; ChannelBusy if reactivating
        the match would give its channel two active matches. `row` itself is not changed."""
        _check_match_fields(row.status, row.players, row.names)
        values = (_dumps(row.players), _dumps(row.names), _dumps(row.record), _dumps(row.setup))
        now = self._clock()
        try:
            async with self._transaction() as db:
                cursor = await db.execute(
                    "UPDATE matches SET status = ?, players = ?, names = ?, record = ?, "
                    "setup = ?, version = version + 1, updated_at = ? "
                    "WHERE id = ? AND version = ?",
                    (row.status, *values, now, row.id, row.version),
                )
                changed = cursor.rowcount
                await cursor.close()
                stored = await self._fetch_matches(db, "id = ?", (row.id,))
                if changed == 1 and not isinstance(deadline, _Keep):
                    # The deadline changes with the match, in the same transaction.
                    await self._write_deadline(db, row.id, deadline)
                if changed == 1 and row.status not in ACTIVE_STATUSES:
                    await self._delete_match_settings(db, row.id)  # the match is over
                if changed == 1:
                    await self._write_result(db, row)
                if changed != 1:
                    if not stored:
                        raise StoreError(f"Match {row.id} does not exist.")
                    raise VersionConflict(
                        f"Match {row.id} was saved by someone else first (stored version "
                        f"{stored[0].version}, expected {row.version})."
                    )
        except sqlite3.IntegrityError as error:
            if _is_channel_busy(error):
                raise ChannelBusy(
                    f"Channel {row.channel_id} already has another active match."
                ) from error
            raise
        return stored[0]

    async def _write_result(self, db: aiosqlite.Connection, row: MatchRow) -> None:
        """The match's ruleset, and its result once it has one, as columns and rows, in the
        transaction of the save that ends it."""
        ruleset = str(row.record.get("ruleset", "skirm"))
        await db.execute("UPDATE matches SET ruleset = ? WHERE id = ?", (ruleset, row.id))
        result = row.result
        if result is None:
            return
        await db.execute(
            "UPDATE matches SET ruleset = ?, winner = ?, end_reason = ?, ended_at = ? "
            "WHERE id = ?",
            (result.ruleset, result.winner, result.reason, result.ended_at, row.id),
        )
        await db.execute("DELETE FROM match_players WHERE match_id = ?", (row.id,))
        await db.executemany(
            "INSERT INTO match_players (match_id, side, user_id, name, placing, score) "
            "VALUES (?, ?, ?, ?, ?, ?)",
            [(row.id, s.side, s.user_id, s.name, s.placing, s.score) for s in result.seats],
        )

    async def match_results(
        self, guild_id: int | None = None, ruleset: str | None = None
    ) -> list[tuple[int, MatchResult]]:
        """Finished matches' results (a server's, a ruleset's), oldest first, by match id:
        read from the result columns, never from the records."""
        where: list[str] = ["m.ended_at IS NOT NULL"]
        parameters: list[int | str] = []
        if guild_id is not None:
            where.append("m.guild_id = ?")
            parameters.append(guild_id)
        if ruleset is not None:
            where.append("m.ruleset = ?")
            parameters.append(ruleset)
        async with self._reading() as db:
            cursor = await db.execute(
                "SELECT m.id, m.ruleset, m.winner, m.end_reason, m.ended_at, "
                "p.side, p.user_id, p.name, p.placing, p.score "
                "FROM matches m JOIN match_players p ON p.match_id = m.id "
                f"WHERE {' AND '.join(where)} ORDER BY m.ended_at, m.id, p.side",
                tuple(parameters),
            )
            rows = list(await cursor.fetchall())
            await cursor.close()
        results: dict[int, MatchResult] = {}
        for r in rows:
            seat = SeatResult(int(r[5]), r[6], str(r[7]), int(r[8]), int(r[9]))
            found = results.get(int(r[0]))
            seats = (*found.seats, seat) if found else (seat,)
            results[int(r[0])] = MatchResult(str(r[1]), r[2], str(r[3]), float(r[4]), seats)
        return list(results.items())

    # -- deadlines ----------------------------------------------------------------------------

    async def _write_deadline(
        self, db: aiosqlite.Connection, match_id: int, deadline: Deadline | None
    ) -> None:
        if deadline is None:
            await db.execute("DELETE FROM deadlines WHERE match_id = ?", (match_id,))
        else:
            await db.execute(
                "INSERT OR REPLACE INTO deadlines (match_id, due_at, kind, key) VALUES (?, ?, ?, ?)",
                (match_id, deadline.due_at, deadline.kind, deadline.key),
            )

    async def set_deadline(self, match_id: int, deadline: Deadline | None) -> None:
        """Replace (or with None, drop) a match's deadline without touching the match."""
        async with self._transaction() as db:
            await self._write_deadline(db, match_id, deadline)

    async def deadline(self, match_id: int) -> Deadline | None:
        async with self._reading() as db:
            rows = list(
                await db.execute_fetchall(
                    "SELECT due_at, kind, key FROM deadlines WHERE match_id = ?", (match_id,)
                )
            )
        return Deadline(float(rows[0][0]), str(rows[0][1]), str(rows[0][2])) if rows else None

    async def pending_deadlines(self) -> list[tuple[int, Deadline]]:
        """Every pending deadline, soonest first (the scheduler re-arms them at start-up)."""
        async with self._reading() as db:
            rows = await db.execute_fetchall(
                "SELECT match_id, due_at, kind, key FROM deadlines ORDER BY due_at, match_id"
            )
        return [(int(r[0]), Deadline(float(r[1]), str(r[2]), str(r[3]))) for r in rows]

    # -- settings -----------------------------------------------------------------------------

    async def get_setting(self, guild_id: int, key: str) -> str | None:
        async with (
            self._reading() as db,
            db.execute(
                "SELECT value FROM settings WHERE guild_id = ? AND key = ?", (guild_id, key)
            ) as cursor,
        ):
            row = await cursor.fetchone()
        return None if row is None else str(row[0])

    async def _delete_match_settings(self, db: aiosqlite.Connection, match_id: int) -> None:
        for kind in MATCH_SETTING_KINDS:
            await db.execute(
                "DELETE FROM settings WHERE key LIKE ?", (match_setting_key(kind, match_id, "%"),)
            )

    async def sweep_match_settings(self) -> int:
        """Delete the match settings (MATCH_SETTING_KINDS) of every match that is no longer
        active: left from before matches cleaned up after themselves, or from a crash. Run
        at start-up; returns how many went."""
        kinds = " OR ".join("key LIKE ?" for _ in MATCH_SETTING_KINDS)
        async with self._transaction() as db:
            found = await db.execute_fetchall(
                f"SELECT guild_id, key FROM settings WHERE {kinds}",
                tuple(f"{kind}:%" for kind in MATCH_SETTING_KINDS),
            )
            active = {
                int(r[0])
                for r in await db.execute_fetchall(f"SELECT id FROM matches WHERE {_ACTIVE}")
            }
            stale = [
                (int(r[0]), str(r[1])) for r in found if _setting_match(str(r[1])) not in active
            ]
            await db.executemany("DELETE FROM settings WHERE guild_id = ? AND key = ?", stale)
        return len(stale)

    async def set_setting(self, guild_id: int, key: str, value: str | None) -> None:
        """Set a guild's setting; None deletes it."""
        async with self._transaction() as db:
            if value is None:
                await db.execute(
                    "DELETE FROM settings WHERE guild_id = ? AND key = ?", (guild_id, key)
                )
            else:
                await db.execute(
                    "INSERT INTO settings (guild_id, key, value) VALUES (?, ?, ?) "
                    "ON CONFLICT (guild_id, key) DO UPDATE SET value = excluded.value",
                    (guild_id, key, value),
                )

    # -- players ------------------------------------------------------------------------------

    async def remember_player(self, user_id: int, display_name: str) -> None:
        """Record (or refresh) a Discord user's display name; keeps their preferences."""
        async with self._transaction() as db:
            await db.execute(
                "INSERT INTO players (user_id, display_name, updated_at) VALUES (?, ?, ?) "
                "ON CONFLICT (user_id) DO UPDATE SET display_name = excluded.display_name, "
                "updated_at = excluded.updated_at",
                (user_id, display_name, self._clock()),
            )

    async def player(self, user_id: int) -> dict[str, Any] | None:
        """{"user_id", "display_name", "dm_reminders" (bool), "dms_closed" (bool: a direct
        message to them was refused since they last chose), "updated_at"}, or None."""
        async with (
            self._reading() as db,
            db.execute(
                "SELECT user_id, display_name, dm_reminders, dms_closed_at, updated_at "
                "FROM players WHERE user_id = ?",
                (user_id,),
            ) as cursor,
        ):
            row = await cursor.fetchone()
        if row is None:
            return None
        return {
            "user_id": int(row["user_id"]),
            "display_name": str(row["display_name"]),
            "dm_reminders": bool(row["dm_reminders"]),
            "dms_closed": row["dms_closed_at"] is not None,
            "updated_at": float(row["updated_at"]),
        }

    async def set_dm_reminders(self, user_id: int, on: bool) -> None:
        """Turn DM reminders on or off for a player already remembered (StoreError if not);
        choosing again forgets that their direct messages were closed."""
        async with self._transaction() as db:
            cursor = await db.execute(
                "UPDATE players SET dm_reminders = ?, dms_closed_at = NULL, updated_at = ? "
                "WHERE user_id = ?",
                (int(on), self._clock(), user_id),
            )
            changed = cursor.rowcount
            await cursor.close()
            if changed != 1:
                raise StoreError(f"Player {user_id} is not known; remember_player() them first.")

    async def note_dms_closed(self, user_id: int) -> None:
        """Discord refused a direct message to the player (their DMs are closed to the bot):
        their reminders go to the match's channel until they choose again. A player the store
        does not know is left alone."""
        async with self._transaction() as db:
            await db.execute(
                "UPDATE players SET dms_closed_at = ? WHERE user_id = ?", (self._clock(), user_id)
            )

    # -- stored squads (campaigns) -------------------------------------------------------------

    async def _fetch_squads(
        self, db: aiosqlite.Connection, where: str, parameters: Iterable[Any] = ()
    ) -> list[SquadRow]:
        rows = await db.execute_fetchall(
            f"SELECT {_SQUAD_COLUMNS} FROM squads WHERE {where} ORDER BY name, id",
            tuple(parameters),
        )
        return [_squad_from_row(row) for row in rows]

    async def save_squad(
        self,
        owner_id: int,
        guild_id: int,
        name: str,
        make: Callable[[dict[str, Any] | None], dict[str, Any]],
    ) -> SquadRow:
        """Store `owner_id`'s squad `name` (names compared without case), new or replacing the
        stored one. `make` gets the stored data (None for a new squad) and returns the data to
        store; it runs inside the write transaction, so no award can slip in between, and if it
        raises nothing is saved."""
        now = self._clock()
        async with self._transaction() as db:
            found = await self._fetch_squads(db, "owner_id = ? AND name = ?", (owner_id, name))
            data = _dumps(make(found[0].data if found else None))
            if found:
                await db.execute(
                    "UPDATE squads SET guild_id = ?, name = ?, data = ?, updated_at = ? "
                    "WHERE id = ?",
                    (guild_id, name, data, now, found[0].id),
                )
                squad_id = found[0].id
            else:
                cursor = await db.execute(
                    "INSERT INTO squads (owner_id, guild_id, name, data, created_at, updated_at) "
                    "VALUES (?, ?, ?, ?, ?, ?)",
                    (owner_id, guild_id, name, data, now, now),
                )
                assert cursor.lastrowid is not None
                squad_id = cursor.lastrowid
                await cursor.close()
            stored = await self._fetch_squads(db, "id = ?", (squad_id,))
        return stored[0]

    async def squad(self, owner_id: int, name: str) -> SquadRow | None:
        """`owner_id`'s stored squad called `name` (without case), or None."""
        async with self._reading() as db:
            rows = await self._fetch_squads(db, "owner_id = ? AND name = ?", (owner_id, name))
        return rows[0] if rows else None

    async def squad_by_id(self, squad_id: int) -> SquadRow | None:
        async with self._reading() as db:
            rows = await self._fetch_squads(db, "id = ?", (squad_id,))
        return rows[0] if rows else None

    async def squads_of(self, owner_id: int) -> list[SquadRow]:
        """Every squad `owner_id` has stored, by name."""
        async with self._reading() as db:
            return await self._fetch_squads(db, "owner_id = ?", (owner_id,))

    async def delete_squad(self, owner_id: int, name: str) -> bool:
        """Forget a stored squad (and its awards); False if there was none by that name."""
        async with self._transaction() as db:
            cursor = await db.execute(
                "DELETE FROM squads WHERE owner_id = ? AND name = ?", (owner_id, name)
            )
            deleted = cursor.rowcount
            await cursor.close()
        return deleted == 1

    async def award_squad(
        self,
        squad_id: int,
        match_id: int,
        medals: dict[str, list[str]],
        change: Callable[[dict[str, Any]], dict[str, Any]],
    ) -> SquadRow | None:
        """Give a stored squad its XP for a match, once: `change` gets the stored data and
        returns it with the XP added (inside the write transaction), and the award is recorded
        with `medals` (unit name -> medal names). None, and nothing changed, if the squad was
        already awarded for that match or no longer exists."""
        async with self._transaction() as db:
            found = await self._fetch_squads(db, "id = ?", (squad_id,))
            async with db.execute(
                "SELECT 1 FROM squad_awards WHERE squad_id = ? AND match_id = ?",
                (squad_id, match_id),
            ) as cursor:
                done = await cursor.fetchone() is not None
            if not found or done:
                return None
            now = self._clock()
            await db.execute(
                "UPDATE squads SET data = ?, updated_at = ? WHERE id = ?",
                (_dumps(change(found[0].data)), now, squad_id),
            )
            await db.execute(
                "INSERT INTO squad_awards (squad_id, match_id, medals, awarded_at) "
                "VALUES (?, ?, ?, ?)",
                (squad_id, match_id, _dumps(medals), now),
            )
            stored = await self._fetch_squads(db, "id = ?", (squad_id,))
        return stored[0]

    async def squad_awards(self, squad_id: int) -> list[tuple[int, dict[str, list[str]]]]:
        """The matches a stored squad was awarded XP for, in order, with each unit's medals."""
        async with self._reading() as db:
            rows = await db.execute_fetchall(
                "SELECT match_id, medals FROM squad_awards WHERE squad_id = ? "
                "ORDER BY awarded_at, match_id",
                (squad_id,),
            )
        return [(int(row[0]), json.loads(row[1])) for row in rows]

    # -- schema -------------------------------------------------------------------------------

    async def schema_version(self) -> int:
        """The highest migration applied to this database."""
        async with self._reading() as db:
            return await _schema_version(db)


__all__ = [
    "ACTIVE_STATUSES",
    "MATCH_STATUSES",
    "ChannelBusy",
    "MatchRow",
    "SquadRow",
    "Store",
    "StoreError",
    "VersionConflict",
]
