"""The Store: skirmbot's only door to its database, SQLite or PostgreSQL (`skirmbot.store.sql`).

- Every write is one transaction, so a crash at any point leaves either the old or the new state.
- Matches are saved with a version check (compare-and-swap): ``save_match`` only writes if the
  stored version is still the one the caller loaded, else it raises VersionConflict. The check is
  in the database, so it holds between processes too, not only between tasks of one.
- A match's commands are rows appended one by one (`match_commands`); a save writes only the
  commands the match took since it was loaded (and, when an undo rewrote the end of the record,
  replaces that end). `matches.record` keeps the record's header. With the commands, a save may
  keep a snapshot of the live match (`match_snapshots`), so that loading it replays only what
  came after (`skirmbot.service.snapshots`).
- A due deadline is claimed before it fires (`claim_deadline`), so that with several processes
  it fires once, and another process fires it if the claimer dies before it is done.

JSON columns (players, names, record, setup, ...) are (de)serialised here; callers see Python data.
"""

from __future__ import annotations

import json
import logging
import time
from collections.abc import AsyncIterator, Callable, Iterable, Sequence
from contextlib import AbstractAsyncContextManager, asynccontextmanager
from dataclasses import dataclass, field
from importlib.resources.abc import Traversable
from pathlib import Path
from types import TracebackType
from typing import Any

from skirmbot.store.connect import open_database
from skirmbot.store.errors import StoreError
from skirmbot.store.migrate import migrate
from skirmbot.store.migrate import schema_version as _schema_version
from skirmbot.store.sql import (
    Connection,
    Database,
    Row,
    UniqueViolation,
    placeholders,
)
from skirmbot.words import name_key, typed_key

log = logging.getLogger(__name__)

MATCH_STATUSES = ("setup", "deploying", "playing", "ended", "aborted")
ACTIVE_STATUSES = ("setup", "deploying", "playing")
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


# How many players a match may have (its ruleset says which): 2 to 4, or 6 for the group
# rules' two sides of three (issue 30); never 5, which no ruleset seats.
MIN_SEATS, MAX_SEATS = 2, 6
SEAT_COUNTS = (2, 3, 4, 6)


@dataclass(frozen=True)
class SeatResult:
    """One seat of a finished match: who sat there, the side they played on, where they
    placed, their side's score."""

    side: int
    user_id: int | None  # 0: the automatic player
    name: str
    placing: int  # 1 for the winner; every seat 1 in a draw
    score: int
    # Where they sat in `MatchRow.players`; -1: the seat numbered as its side (each seat its
    # own side, as in 1 v 1 and every free-for-all).
    seat: int = -1

    def __post_init__(self) -> None:
        if self.seat < 0:
            object.__setattr__(self, "seat", self.side)


@dataclass(frozen=True)
class MatchResult:
    """A finished match's result, stored as columns and rows (never read from the record)."""

    ruleset: str
    winner: int | None  # the winning side; None: a draw (or no side placed first alone)
    reason: str
    ended_at: float
    seats: tuple[SeatResult, ...]  # by seat


@dataclass
class MatchRow:
    id: int
    guild_id: int
    channel_id: int
    status: str
    # One entry per seat (SEAT_COUNTS): a Discord user id, 0 for the automatic
    # player, None for an open seat; and the name each seat plays under.
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
    # The record's commands as stored when the row was read or saved: a save writes only what
    # differs from them.
    saved_commands: list[dict[str, Any]] = field(default_factory=list, repr=False)
    snapshot_seq: int | None = None  # where the match's latest snapshot stands (None: none)

    @property
    def active(self) -> bool:
        return self.status in ACTIVE_STATUSES


def _dumps(value: Any) -> str:
    return json.dumps(value, sort_keys=False, ensure_ascii=False)


@dataclass(frozen=True)
class Snapshot:
    """The live match after its first `seq` commands, as bytes that only the rules code
    fingerprinted `code` may read back (a cache: see skirmbot.service.snapshots)."""

    seq: int
    code: str
    state: bytes


def _match_from_row(row: Row) -> MatchRow:
    record = json.loads(row["record"])
    record["commands"] = []  # the command rows go in next (Store._attach_commands)
    return MatchRow(
        id=int(row["id"]),
        guild_id=int(row["guild_id"]),
        channel_id=int(row["channel_id"]),
        status=str(row["status"]),
        players=json.loads(row["players"]),
        names=json.loads(row["names"]),
        record=record,
        setup=json.loads(row["setup"]),
        version=int(row["version"]),
        created_at=float(row["created_at"]),
        updated_at=float(row["updated_at"]),
        ruleset=str(row["ruleset"]),
        snapshot_seq=_optional_int(row["snapshot_seq"]),
    )


def _split_record(record: dict[str, Any]) -> tuple[dict[str, Any], list[dict[str, Any]]]:
    """A record's header (stored in `matches.record`) and its commands (stored as rows)."""
    header = {key: value for key, value in record.items() if key != "commands"}
    return header, list(record.get("commands", []))


def _ruleset_of(record: dict[str, Any]) -> str:
    return str(record.get("ruleset", "skirm"))


def _common_start(stored: list[dict[str, Any]], commands: list[dict[str, Any]]) -> int:
    """How many commands at the start of the record are as stored (all of them, unless an
    undo or a revealed deployment rewrote the end)."""
    kept = 0
    for before, now in zip(stored, commands, strict=False):
        if before is not now and before != now:
            break
        kept += 1
    return kept


async def _append_commands(
    db: Connection, match_id: int, first: int, commands: list[dict[str, Any]]
) -> None:
    """Store `commands` as the match's commands from position `first` on."""
    await db.executemany(
        "INSERT INTO match_commands (match_id, seq, command) VALUES (?, ?, ?)",
        [(match_id, first + n, _dumps(command)) for n, command in enumerate(commands)],
    )


def _chunks(values: list[int], size: int) -> Iterable[list[int]]:
    for start in range(0, len(values), size):
        yield values[start : start + size]


def _check_match_fields(status: str, players: list[int | None], names: list[str]) -> None:
    if status not in MATCH_STATUSES:
        raise ValueError(f"Unknown match status {status!r}; expected one of {MATCH_STATUSES}.")
    if len(players) not in SEAT_COUNTS or len(names) != len(players):
        raise ValueError(
            f"A match has two to four seats, or six (2, 3, 4 or 6): give one player and one "
            f"name for each (got {len(players)} players and {len(names)} names)."
        )


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


def _squad_from_row(row: Row) -> SquadRow:
    return SquadRow(
        id=int(row["id"]),
        owner_id=int(row["owner_id"]),
        guild_id=int(row["guild_id"]),
        name=str(row["name"]),
        data=json.loads(row["data"]),
        created_at=float(row["created_at"]),
        updated_at=float(row["updated_at"]),
    )


@dataclass(frozen=True)
class ServerMapRow:
    """A map a server uploaded (`/map upload`): the map file's data as checked."""

    guild_id: int
    key: str  # the name as `words.typed_key` reads it: how it is found
    name: str  # its display name
    data: dict[str, Any]
    uploader_id: int
    uploaded_at: float


_SERVER_MAP_COLUMNS = "guild_id, name_key, name, data, uploader_id, uploaded_at"


def _server_map_from_row(row: Row) -> ServerMapRow:
    return ServerMapRow(
        guild_id=int(row["guild_id"]),
        key=str(row["name_key"]),
        name=str(row["name"]),
        data=json.loads(row["data"]),
        uploader_id=int(row["uploader_id"]),
        uploaded_at=float(row["uploaded_at"]),
    )


class ServerMapTaken(StoreError):
    """The server already keeps a map by that name, and replacing it was not asked for."""


class ServerMapsFull(StoreError):
    """The server keeps as many maps as it may; one must go before another comes."""


class LeagueNameTaken(StoreError):
    """The guild already has a league of that name (without case)."""


class LeagueMemberTaken(StoreError):
    """The player is already signed up to the league."""


@dataclass
class LeagueRow:
    """A league: its settings (`config`, JSON) and where it stands."""

    id: int
    guild_id: int
    name: str
    ruleset: str
    config: dict[str, Any]
    status: str  # signup, running, finished
    creator_id: int
    channel_id: int
    organiser_role: int | None
    version: int
    created_at: float


@dataclass(frozen=True)
class LeaguePlayerRow:
    league_id: int
    user_id: int
    name: str
    squad_name: str
    squad: dict[str, Any] | None  # the squad's data as fielded; None: a stored squad
    squad_id: int | None  # the stored squad (campaign leagues)
    joined_round: int  # the first round they are paired in
    dropped_round: int | None  # the last round they were in; None: still in
    joined_at: float = 0.0


@dataclass(frozen=True)
class LeagueRoundRow:
    league_id: int
    number: int
    status: str  # open, closed
    mission: str
    map: str
    started_at: float
    deadline: float
    closed_at: float | None = None
    reminded_at: float | None = None


@dataclass(frozen=True)
class LeagueGameRow:
    """A pairing, with the organiser's decision (if any) and its match's result columns."""

    id: int
    league_id: int
    round: int
    board: int
    first: int
    second: int | None  # None: a bye
    match_id: int | None
    channel_id: int | None
    decision: str | None  # first, second, draw, double_loss; None: the match's result
    decision_mp: tuple[int, int] | None
    decision_reason: str | None
    decided_by: int | None
    decided_at: float | None
    disputed_by: int | None
    disputed_at: float | None
    dispute: str | None
    settled_at: float | None
    match_status: str | None
    match_winner: int | None  # the winning side (0: first, 1: second); None: a draw
    match_ended_at: float | None  # None: the match has no result (yet)
    match_scores: tuple[int, int] | None


@dataclass(frozen=True)
class LeagueLog:
    """A line of a league's log to write: who did what, and why."""

    actor: int | None
    action: str
    detail: str = ""
    reason: str = ""


@dataclass(frozen=True)
class LeagueLogRow:
    at: float
    actor: int | None
    action: str
    detail: str
    reason: str


_LEAGUE_COLUMNS = (
    "id, guild_id, name, ruleset, config, status, creator_id, channel_id, organiser_role, "
    "version, created_at"
)
_LEAGUE_PLAYER_COLUMNS = (
    "league_id, user_id, name, squad_name, squad, squad_id, joined_round, dropped_round, joined_at"
)
_ROUND_COLUMNS = (
    "league_id, number, status, mission, map, started_at, deadline, closed_at, reminded_at"
)
_GAME_COLUMNS = (
    "g.id, g.league_id, g.round, g.board, g.first, g.second, g.match_id, g.channel_id, "
    "g.decision, g.decision_mp, g.decision_reason, g.decided_by, g.decided_at, g.disputed_by, "
    "g.disputed_at, g.dispute, g.settled_at"
)


def _league_from_row(row: Row) -> LeagueRow:
    return LeagueRow(
        id=int(row["id"]),
        guild_id=int(row["guild_id"]),
        name=str(row["name"]),
        ruleset=str(row["ruleset"]),
        config=json.loads(row["config"]),
        status=str(row["status"]),
        creator_id=int(row["creator_id"]),
        channel_id=int(row["channel_id"]),
        organiser_role=None if row["organiser_role"] is None else int(row["organiser_role"]),
        version=int(row["version"]),
        created_at=float(row["created_at"]),
    )


def _league_player_from_row(row: Row) -> LeaguePlayerRow:
    return LeaguePlayerRow(
        league_id=int(row["league_id"]),
        user_id=int(row["user_id"]),
        name=str(row["name"]),
        squad_name=str(row["squad_name"]),
        squad=None if row["squad"] is None else json.loads(row["squad"]),
        squad_id=None if row["squad_id"] is None else int(row["squad_id"]),
        joined_round=int(row["joined_round"]),
        dropped_round=None if row["dropped_round"] is None else int(row["dropped_round"]),
        joined_at=float(row["joined_at"]),
    )


def _round_from_row(row: Row) -> LeagueRoundRow:
    return LeagueRoundRow(
        league_id=int(row["league_id"]),
        number=int(row["number"]),
        status=str(row["status"]),
        mission=str(row["mission"]),
        map=str(row["map"]),
        started_at=float(row["started_at"]),
        deadline=float(row["deadline"]),
        closed_at=None if row["closed_at"] is None else float(row["closed_at"]),
        reminded_at=None if row["reminded_at"] is None else float(row["reminded_at"]),
    )


def _optional_int(value: Any) -> int | None:
    return None if value is None else int(value)


def _optional_float(value: Any) -> float | None:
    return None if value is None else float(value)


def _game_from_row(row: Row) -> LeagueGameRow:
    mp = json.loads(row["decision_mp"]) if row["decision_mp"] is not None else None
    ended = _optional_float(row["m_ended_at"])
    scores = (
        (int(row["m_score0"]), int(row["m_score1"]))
        if ended is not None and row["m_score0"] is not None and row["m_score1"] is not None
        else None
    )
    return LeagueGameRow(
        id=int(row["id"]),
        league_id=int(row["league_id"]),
        round=int(row["round"]),
        board=int(row["board"]),
        first=int(row["first"]),
        second=_optional_int(row["second"]),
        match_id=_optional_int(row["match_id"]),
        channel_id=_optional_int(row["channel_id"]),
        decision=None if row["decision"] is None else str(row["decision"]),
        decision_mp=None if mp is None else (int(mp[0]), int(mp[1])),
        decision_reason=None if row["decision_reason"] is None else str(row["decision_reason"]),
        decided_by=_optional_int(row["decided_by"]),
        decided_at=_optional_float(row["decided_at"]),
        disputed_by=_optional_int(row["disputed_by"]),
        disputed_at=_optional_float(row["disputed_at"]),
        dispute=None if row["dispute"] is None else str(row["dispute"]),
        settled_at=_optional_float(row["settled_at"]),
        match_status=None if row["m_status"] is None else str(row["m_status"]),
        match_winner=_optional_int(row["m_winner"]),
        match_ended_at=ended,
        match_scores=scores,
    )


@dataclass(frozen=True)
class VacationRow:
    """A player's vacation in one server (migration 008)."""

    id: int
    guild_id: int
    user_id: int
    starts_at: float
    ends_at: float
    days: int


_VACATION_COLUMNS = "id, guild_id, user_id, starts_at, ends_at, days"


def _vacation_from_row(row: Row) -> VacationRow:
    return VacationRow(
        int(row[0]), int(row[1]), int(row[2]), float(row[3]), float(row[4]), int(row[5])
    )


def _is_channel_busy(error: UniqueViolation) -> bool:
    """The unique index that keeps one active match per channel (SQLite names its column,
    PostgreSQL the index)."""
    return "matches.channel_id" in error.constraint or (
        "matches_one_active_per_channel" in error.constraint
    )


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


@dataclass(frozen=True)
class NotifySettings:
    """A player's reminder settings (issue 34: pnotify), None where they never chose: their
    time zone (an IANA name), quiet hours in it (minutes after local midnight) and how long
    before a deadline they are reminded (seconds; None: when the match's clock says)."""

    time_zone: str | None = None
    quiet_start: int | None = None
    quiet_end: int | None = None
    remind_before: float | None = None
    digest_hour: int | None = None  # local hour of a daily digest instead of reminders
    digest_at: float | None = None  # the last digest sent (or when the hour was chosen)


_NOTIFY_COLUMNS = "time_zone, quiet_start, quiet_end, remind_before, digest_hour, digest_at"


def _notify_from_row(row: Row) -> NotifySettings:
    def number(name: str) -> float | None:
        return None if row[name] is None else float(row[name])

    def whole(name: str) -> int | None:
        return None if row[name] is None else int(row[name])

    return NotifySettings(
        time_zone=None if row["time_zone"] is None else str(row["time_zone"]),
        quiet_start=whole("quiet_start"),
        quiet_end=whole("quiet_end"),
        remind_before=number("remind_before"),
        digest_hour=whole("digest_hour"),
        digest_at=number("digest_at"),
    )


class Store:
    """Matches, their records, players, squads, leagues and per-guild settings, kept safely in
    SQLite or PostgreSQL."""

    def __init__(self, database: Database, clock: Callable[[], float]) -> None:
        # Use Store.open(): it connects to the database and applies the migrations.
        self._database = database
        self._clock = clock
        self._closed = False

    # -- life cycle ---------------------------------------------------------------------------

    @classmethod
    async def open(
        cls,
        url: str | Path,
        clock: Callable[[], float] = time.time,
        *,
        migrations: Traversable | None = None,
    ) -> Store:
        """Open the database `url` names (a file path, ":memory:", ``sqlite:///file`` or
        ``postgresql://...``; a SQLite file is created if needed) and bring its schema up to
        date. `migrations` overrides the migrations folder (tests)."""
        database = await open_database(str(url))
        try:
            await migrate(database, migrations, clock)
        except BaseException:
            await database.close()
            raise
        return cls(database, clock)

    @property
    def database(self) -> Database:
        return self._database

    @property
    def dialect(self) -> str:
        """ "sqlite" or "postgresql"."""
        return self._database.dialect.name

    async def close(self) -> None:
        if not self._closed:
            self._closed = True
            await self._database.close()

    async def __aenter__(self) -> Store:
        return self

    async def __aexit__(
        self,
        exc_type: type[BaseException] | None,
        exc: BaseException | None,
        traceback: TracebackType | None,
    ) -> None:
        await self.close()

    def _reading(self) -> AbstractAsyncContextManager[Connection]:
        return self._database.reading()

    def _transaction(self) -> AbstractAsyncContextManager[Connection]:
        """One write transaction: committed if the block succeeds, rolled back otherwise."""
        return self._database.transaction()

    async def _fetch_matches(
        self,
        db: Connection,
        where: str,
        parameters: Iterable[Any] = (),
        *,
        last: bool = False,
        commands: bool = True,
    ) -> list[MatchRow]:
        """The matches `where` selects, by id (`last`: only the one with the highest id), each
        with its commands (unless the caller has them) and its latest snapshot's position."""
        order = "ORDER BY id DESC LIMIT 1" if last else "ORDER BY id"
        rows = await db.fetch(
            f"SELECT {_MATCH_COLUMNS}, "
            "(SELECT seq FROM match_snapshots s WHERE s.match_id = matches.id) AS snapshot_seq "
            f"FROM matches WHERE {where} {order}",
            tuple(parameters),
        )
        found = [_match_from_row(row) for row in rows]
        if commands:
            await self._attach_commands(db, found)
        return found

    async def _attach_commands(self, db: Connection, matches: list[MatchRow]) -> None:
        """Put each match's command rows into its record, in order."""
        texts: dict[int, list[str]] = {row.id: [] for row in matches}
        for ids in _chunks(list(texts), 500):
            for command in await db.fetch(
                "SELECT match_id, command FROM match_commands "
                f"WHERE match_id IN ({placeholders(len(ids))}) ORDER BY match_id, seq",
                ids,
            ):
                texts[int(command[0])].append(str(command[1]))
        for row in matches:
            # One JSON list to decode, not a call per command (a long match has hundreds).
            row.record["commands"] = json.loads("[" + ",".join(texts[row.id]) + "]")
            row.saved_commands = list(row.record["commands"])

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
        header, commands = _split_record(record)
        values = (_dumps(players), _dumps(names), _dumps(header), _dumps(setup or {}))
        now = self._clock()
        try:
            async with self._transaction() as db:
                if status in ACTIVE_STATUSES and await db.fetchone(
                    f"SELECT id FROM matches WHERE channel_id = ? AND {_ACTIVE}", (channel_id,)
                ):
                    raise ChannelBusy(f"Channel {channel_id} already has an active match.")
                created = await db.fetchone(
                    "INSERT INTO matches (guild_id, channel_id, status, players, names, record, "
                    "setup, version, created_at, updated_at, ruleset) "
                    "VALUES (?, ?, ?, ?, ?, ?, ?, 1, ?, ?, ?) RETURNING id",
                    (guild_id, channel_id, status, *values, now, now, _ruleset_of(record)),
                )
                assert created is not None
                match_id = int(created[0])
                await _append_commands(db, match_id, 0, commands)
                rows = await self._fetch_matches(db, "id = ?", (match_id,))
        except UniqueViolation as error:
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

    async def active_match_id(self, channel_id: int) -> int | None:
        """The id of the channel's active match, without reading the match."""
        async with self._reading() as db:
            found = await db.fetchone(
                f"SELECT id FROM matches WHERE channel_id = ? AND {_ACTIVE}", (channel_id,)
            )
        return None if found is None else int(found[0])

    async def match_version(self, match_id: int) -> int | None:
        """The match's stored version (None: no such match), without reading the match."""
        async with self._reading() as db:
            found = await db.fetchone("SELECT version FROM matches WHERE id = ?", (match_id,))
        return None if found is None else int(found[0])

    async def last_match(self, channel_id: int) -> MatchRow | None:
        """The channel's most recent match, active or not (for exporting a finished one)."""
        async with self._reading() as db:
            rows = await self._fetch_matches(db, "channel_id = ?", (channel_id,), last=True)
        return rows[-1] if rows else None

    async def active_matches(self) -> list[MatchRow]:
        """Every match in setup, deploying or playing, by id."""
        async with self._reading() as db:
            return await self._fetch_matches(db, _ACTIVE)

    async def matches_of_player(self, user_id: int, active_only: bool = True) -> list[MatchRow]:
        """Matches in which `user_id` holds a seat (only active ones by default), by id."""
        where = self._database.dialect.json_list_holds.format(column="matches.players")
        if active_only:
            where += f" AND {_ACTIVE}"
        async with self._reading() as db:
            return await self._fetch_matches(db, where, (user_id,))

    async def save_match(
        self,
        row: MatchRow,
        deadline: Deadline | None | _Keep = KEEP,
        snapshot: Snapshot | None = None,
    ) -> MatchRow:
        """Write `row`'s status, players, names, record and setup in one transaction, if the
        stored version is still `row.version` (compare-and-swap); return the stored row, with
        its version bumped. Only the commands taken since `row` was loaded are written (an
        undo's rewritten end replaces the old one). `snapshot`, if given, is kept as the match's
        latest. VersionConflict if someone saved first; ChannelBusy if reactivating the match
        would give its channel two active matches. `row` itself is not changed."""
        _check_match_fields(row.status, row.players, row.names)
        header, commands = _split_record(row.record)
        values = (_dumps(row.players), _dumps(row.names), _dumps(header), _dumps(row.setup))
        kept = _common_start(row.saved_commands, commands)
        now = self._clock()
        try:
            async with self._transaction() as db:
                changed = await db.execute(
                    "UPDATE matches SET status = ?, players = ?, names = ?, record = ?, "
                    "setup = ?, version = version + 1, updated_at = ? "
                    "WHERE id = ? AND version = ?",
                    (row.status, *values, now, row.id, row.version),
                )
                if changed != 1:
                    found = await db.fetchone("SELECT version FROM matches WHERE id = ?", (row.id,))
                    if found is None:
                        raise StoreError(f"Match {row.id} does not exist.")
                    raise VersionConflict(
                        f"Match {row.id} was saved by someone else first (stored version "
                        f"{found[0]}, expected {row.version})."
                    )
                await self._write_commands(db, row, kept, commands, snapshot)
                if not isinstance(deadline, _Keep):
                    # The deadline changes with the match, in the same transaction.
                    await self._write_deadline(db, row.id, deadline)
                if row.status not in ACTIVE_STATUSES:  # the match is over
                    await self._delete_match_settings(db, row.id)
                    # Nobody plays it again: loading it to look at it may replay it whole.
                    await db.execute("DELETE FROM match_snapshots WHERE match_id = ?", (row.id,))
                await self._write_result(db, row)
                stored = await self._fetch_matches(db, "id = ?", (row.id,), commands=False)
                stored[0].record["commands"] = commands  # as just written
                stored[0].saved_commands = list(commands)
        except UniqueViolation as error:
            if _is_channel_busy(error):
                raise ChannelBusy(
                    f"Channel {row.channel_id} already has another active match."
                ) from error
            raise
        return stored[0]

    async def _write_commands(
        self,
        db: Connection,
        row: MatchRow,
        kept: int,
        commands: list[dict[str, Any]],
        snapshot: Snapshot | None,
    ) -> None:
        """Append the commands after the first `kept` (deleting any stored after them: an
        undo), drop a snapshot that no longer matches the record, keep the new one."""
        if kept < len(row.saved_commands):
            await db.execute(
                "DELETE FROM match_commands WHERE match_id = ? AND seq >= ?", (row.id, kept)
            )
            await db.execute(
                "DELETE FROM match_snapshots WHERE match_id = ? AND seq > ?", (row.id, kept)
            )
        await _append_commands(db, row.id, kept, commands[kept:])
        if snapshot is not None and snapshot.seq <= len(commands):
            await db.execute(
                "INSERT INTO match_snapshots (match_id, seq, code, state) VALUES (?, ?, ?, ?) "
                "ON CONFLICT (match_id) DO UPDATE SET seq = excluded.seq, code = excluded.code, "
                "state = excluded.state",
                (row.id, snapshot.seq, snapshot.code, snapshot.state),
            )

    async def snapshot(self, match_id: int) -> Snapshot | None:
        """The match's latest snapshot, or None."""
        async with self._reading() as db:
            found = await db.fetchone(
                "SELECT seq, code, state FROM match_snapshots WHERE match_id = ?", (match_id,)
            )
        return None if found is None else Snapshot(int(found[0]), str(found[1]), bytes(found[2]))

    # -- the web's step pictures (a cache both processes behind one address share) ------------

    async def step_picture(self, key: str) -> bytes | None:
        """The PNG kept under `key` (see skirmbot.service.pages), or None."""
        async with self._reading() as db:
            found = await db.fetchone("SELECT picture FROM step_pictures WHERE key = ?", (key,))
        return None if found is None else bytes(found[0])

    async def keep_step_picture(self, key: str, match_id: int, picture: bytes, kept: int) -> None:
        """Keep a step picture of match `match_id` under `key` (a picture already kept under it
        stays: the key says what it shows), then drop the oldest past the `kept` newest. Nothing
        is kept for a match deleted meanwhile."""
        async with self._transaction() as db:
            await db.execute(
                "INSERT INTO step_pictures (key, match_id, made, picture) "
                "SELECT ?, ?, ?, ? WHERE EXISTS (SELECT 1 FROM matches WHERE id = ?) "
                "ON CONFLICT (key) DO NOTHING",
                (key, match_id, self._clock(), picture, match_id),
            )
            await db.execute(
                "DELETE FROM step_pictures WHERE made < (SELECT made FROM step_pictures "
                "ORDER BY made DESC LIMIT 1 OFFSET ?)",
                (kept - 1,),
            )

    async def _write_result(self, db: Connection, row: MatchRow) -> None:
        """The match's ruleset, and its result once it has one, as columns and rows, in the
        transaction of the save that ends it."""
        if _ruleset_of(row.record) != row.ruleset:  # (the column is set when it is created)
            await db.execute(
                "UPDATE matches SET ruleset = ? WHERE id = ?", (_ruleset_of(row.record), row.id)
            )
        result = row.result
        if result is None:
            return
        await db.execute(
            "UPDATE matches SET ruleset = ?, winner = ?, end_reason = ?, ended_at = ? WHERE id = ?",
            (result.ruleset, result.winner, result.reason, result.ended_at, row.id),
        )
        await db.execute("DELETE FROM match_players WHERE match_id = ?", (row.id,))
        await db.executemany(
            'INSERT INTO match_players (match_id, seat, side, user_id, name, "placing", score) '
            "VALUES (?, ?, ?, ?, ?, ?, ?)",
            [(row.id, s.seat, s.side, s.user_id, s.name, s.placing, s.score) for s in result.seats],
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
            rows = await db.fetch(
                "SELECT m.id, m.ruleset, m.winner, m.end_reason, m.ended_at, "
                'p.side, p.user_id, p.name, p."placing", p.score, p.seat '
                "FROM matches m JOIN match_players p ON p.match_id = m.id "
                f"WHERE {' AND '.join(where)} ORDER BY m.ended_at, m.id, p.seat",
                tuple(parameters),
            )
        results: dict[int, MatchResult] = {}
        for r in rows:
            seat = SeatResult(
                int(r[5]), _optional_int(r[6]), str(r[7]), int(r[8]), int(r[9]), int(r[10])
            )
            found = results.get(int(r[0]))
            seats = (*found.seats, seat) if found else (seat,)
            results[int(r[0])] = MatchResult(
                str(r[1]), _optional_int(r[2]), str(r[3]), float(r[4]), seats
            )
        return list(results.items())

    # -- deadlines ----------------------------------------------------------------------------

    async def _write_deadline(
        self, db: Connection, match_id: int, deadline: Deadline | None
    ) -> None:
        """Replace the match's deadline (a new one is unclaimed) or drop it."""
        if deadline is None:
            await db.execute("DELETE FROM deadlines WHERE match_id = ?", (match_id,))
        else:
            await db.execute(
                "INSERT INTO deadlines (match_id, due_at, kind, key) VALUES (?, ?, ?, ?) "
                "ON CONFLICT (match_id) DO UPDATE SET due_at = excluded.due_at, "
                "kind = excluded.kind, key = excluded.key, claimed_until = NULL, "
                "claimed_by = NULL",
                (match_id, deadline.due_at, deadline.kind, deadline.key),
            )

    async def set_deadline(self, match_id: int, deadline: Deadline | None) -> None:
        """Replace (or with None, drop) a match's deadline without touching the match."""
        async with self._transaction() as db:
            await self._write_deadline(db, match_id, deadline)

    async def deadline(self, match_id: int) -> Deadline | None:
        async with self._reading() as db:
            found = await db.fetchone(
                "SELECT due_at, kind, key FROM deadlines WHERE match_id = ?", (match_id,)
            )
        return None if found is None else Deadline(float(found[0]), str(found[1]), str(found[2]))

    async def pending_deadlines(
        self, due_before: float | None = None
    ) -> list[tuple[int, Deadline]]:
        """Every pending deadline (those due before `due_before`), soonest first: the scheduler
        re-arms them at start-up, and looks for what other processes armed."""
        where, parameters = ("", ()) if due_before is None else ("WHERE due_at < ?", (due_before,))
        async with self._reading() as db:
            rows = await db.fetch(
                f"SELECT match_id, due_at, kind, key FROM deadlines {where} "
                "ORDER BY due_at, match_id",
                parameters,
            )
        return [(int(r[0]), Deadline(float(r[1]), str(r[2]), str(r[3]))) for r in rows]

    async def claim_deadline(
        self, match_id: int, deadline: Deadline, claimer: str, lease: float
    ) -> bool:
        """Claim the match's deadline to fire it: True for one claimer only, while the
        deadline is still this one (its activation and kind: a deadline re-armed later after a
        restart is the same one) and nobody else's claim holds. A claim lapses after `lease`
        seconds (its process died mid-fire), and another process may claim it then. Firing ends
        by saving the match with its next deadline, which replaces the claimed one."""
        now = self._clock()
        async with self._transaction() as db:
            changed = await db.execute(
                "UPDATE deadlines SET claimed_by = ?, claimed_until = ? "
                "WHERE match_id = ? AND key = ? AND kind = ? "
                "AND (claimed_until IS NULL OR claimed_until < ?)",
                (claimer, now + lease, match_id, deadline.key, deadline.kind, now),
            )
        return changed == 1

    async def release_deadline(self, match_id: int, claimer: str) -> None:
        """Give up a claim that did not fire the deadline (it failed): it may be tried again."""
        async with self._transaction() as db:
            await db.execute(
                "UPDATE deadlines SET claimed_by = NULL, claimed_until = NULL "
                "WHERE match_id = ? AND claimed_by = ?",
                (match_id, claimer),
            )

    # -- settings -----------------------------------------------------------------------------

    async def get_setting(self, guild_id: int, key: str) -> str | None:
        async with self._reading() as db:
            row = await db.fetchone(
                "SELECT value FROM settings WHERE guild_id = ? AND key = ?", (guild_id, key)
            )
        return None if row is None else str(row[0])

    async def _delete_match_settings(self, db: Connection, match_id: int) -> None:
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
            found = await db.fetch(
                f"SELECT guild_id, key FROM settings WHERE {kinds}",
                tuple(f"{kind}:%" for kind in MATCH_SETTING_KINDS),
            )
            active = {int(r[0]) for r in await db.fetch(f"SELECT id FROM matches WHERE {_ACTIVE}")}
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
        async with self._reading() as db:
            row = await db.fetchone(
                "SELECT user_id, display_name, dm_reminders, dms_closed_at, updated_at "
                "FROM players WHERE user_id = ?",
                (user_id,),
            )
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
            changed = await db.execute(
                "UPDATE players SET dm_reminders = ?, dms_closed_at = NULL, updated_at = ? "
                "WHERE user_id = ?",
                (int(on), self._clock(), user_id),
            )
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

    # -- notifications on a player's terms (issue 34: pnotify) --------------------------------
    async def notify_settings(self, user_id: int) -> NotifySettings:
        """The player's reminder settings (/timer notify): all None for a player who never
        chose (or whom the store does not know): reminded as the match says."""
        async with self._reading() as db:
            row = await db.fetchone(
                f"SELECT {_NOTIFY_COLUMNS} FROM players WHERE user_id = ?", (user_id,)
            )
        return NotifySettings() if row is None else _notify_from_row(row)

    async def digest_players(self) -> list[tuple[int, NotifySettings]]:
        """The players who chose a daily digest (and a time zone), by user id."""
        async with self._reading() as db:
            rows = await db.fetch(
                f"SELECT user_id, {_NOTIFY_COLUMNS} FROM players "
                "WHERE digest_hour IS NOT NULL AND time_zone IS NOT NULL ORDER BY user_id",
                (),
            )
        return [(int(row["user_id"]), _notify_from_row(row)) for row in rows]

    async def claim_digest(self, user_id: int, last: float | None, now: float) -> bool:
        """Note a digest sent to the player at `now`, if the last one is still `last` (False:
        another process sent it meanwhile): each digest goes out once."""
        async with self._transaction() as db:
            if last is None:
                changed = await db.execute(
                    "UPDATE players SET digest_at = ? WHERE user_id = ? AND digest_at IS NULL",
                    (now, user_id),
                )
            else:
                changed = await db.execute(
                    "UPDATE players SET digest_at = ? WHERE user_id = ? AND digest_at = ?",
                    (now, user_id, last),
                )
        return changed == 1

    async def set_notify_settings(self, user_id: int, settings: NotifySettings) -> None:
        """Keep a remembered player's reminder settings, all of them at once (StoreError if
        the player is not known)."""
        async with self._transaction() as db:
            changed = await db.execute(
                "UPDATE players SET time_zone = ?, quiet_start = ?, quiet_end = ?, "
                "remind_before = ?, digest_hour = ?, digest_at = ?, updated_at = ? "
                "WHERE user_id = ?",
                (
                    settings.time_zone,
                    settings.quiet_start,
                    settings.quiet_end,
                    settings.remind_before,
                    settings.digest_hour,
                    settings.digest_at,
                    self._clock(),
                    user_id,
                ),
            )
            if changed != 1:
                raise StoreError(f"Player {user_id} is not known; remember_player() them first.")

    # -- clocks: vacations and calendar feeds (issue 21) ---------------------------------------

    async def vacations(
        self, guild_id: int, user_ids: Iterable[int], ending_after: float
    ) -> list[VacationRow]:
        """The players' vacations in the guild that end after `ending_after`, by start."""
        users = sorted({int(u) for u in user_ids if u})
        if not users:
            return []
        marks = ", ".join("?" for _ in users)
        async with self._reading() as db:
            rows = await db.fetch(
                f"SELECT {_VACATION_COLUMNS} FROM vacations WHERE user_id IN ({marks}) "
                "AND guild_id = ? AND ends_at > ? ORDER BY starts_at, id",
                (*users, guild_id, ending_after),
            )
        return [_vacation_from_row(r) for r in rows]

    async def vacation_days_used(
        self, guild_id: int, user_id: int, since: float, until: float
    ) -> int:
        """The whole vacation days the player took in the guild in vacations that began from
        `since` to before `until` (a year's allowance)."""
        async with self._reading() as db:
            row = await db.fetchone(
                "SELECT COALESCE(SUM(days), 0) FROM vacations WHERE guild_id = ? AND user_id = ? "
                "AND starts_at >= ? AND starts_at < ?",
                (guild_id, user_id, since, until),
            )
        return 0 if row is None else int(row[0])

    async def add_vacation(
        self, guild_id: int, user_id: int, starts_at: float, ends_at: float, days: int
    ) -> VacationRow:
        async with self._transaction() as db:
            row = await db.fetchone(
                "INSERT INTO vacations (guild_id, user_id, starts_at, ends_at, days) "
                f"VALUES (?, ?, ?, ?, ?) RETURNING {_VACATION_COLUMNS}",
                (guild_id, user_id, starts_at, ends_at, days),
            )
        assert row is not None
        return _vacation_from_row(row)

    async def end_vacation(self, vacation_id: int, ends_at: float, days: int) -> None:
        """End a vacation early: at `ends_at`, counting `days` whole days."""
        async with self._transaction() as db:
            await db.execute(
                "UPDATE vacations SET ends_at = ?, days = ? WHERE id = ?",
                (ends_at, days, vacation_id),
            )

    async def calendar_token(self, user_id: int) -> str | None:
        """The secret token of the player's calendar feed, if they asked for one."""
        async with self._reading() as db:
            row = await db.fetchone(
                "SELECT token FROM calendar_feeds WHERE user_id = ?", (user_id,)
            )
        return None if row is None else str(row[0])

    async def set_calendar_token(self, user_id: int, token: str) -> None:
        """Give the player a calendar feed with this token; an older one stops working."""
        async with self._transaction() as db:
            await db.execute(
                "INSERT INTO calendar_feeds (user_id, token, created_at) VALUES (?, ?, ?) "
                "ON CONFLICT (user_id) DO UPDATE SET token = excluded.token, "
                "created_at = excluded.created_at",
                (user_id, token, self._clock()),
            )

    async def calendar_owner(self, token: str) -> int | None:
        """Whose calendar feed the token opens (None: nobody's, or no longer)."""
        async with self._reading() as db:
            row = await db.fetchone("SELECT user_id FROM calendar_feeds WHERE token = ?", (token,))
        return None if row is None else int(row[0])

    # -- stored squads (campaigns) -------------------------------------------------------------

    async def _fetch_squads(
        self, db: Connection, where: str, parameters: Iterable[Any] = ()
    ) -> list[SquadRow]:
        rows = await db.fetch(
            f"SELECT {_SQUAD_COLUMNS} FROM squads WHERE {where} ORDER BY name_key, id",
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
        """Store `owner_id`'s squad `name` (names compared by their key, `name_key`), new or replacing the
        stored one. `make` gets the stored data (None for a new squad) and returns the data to
        store; it runs inside the write transaction, so no award can slip in between, and if it
        raises nothing is saved."""
        now = self._clock()
        async with self._transaction() as db:
            key = name_key(name)
            found = await self._fetch_squads(db, "owner_id = ? AND name_key = ?", (owner_id, key))
            data = _dumps(make(found[0].data if found else None))
            if found:
                await db.execute(
                    "UPDATE squads SET guild_id = ?, name = ?, name_key = ?, data = ?, "
                    "updated_at = ? WHERE id = ?",
                    (guild_id, name, key, data, now, found[0].id),
                )
                squad_id = found[0].id
            else:
                created = await db.fetchone(
                    "INSERT INTO squads (owner_id, guild_id, name, name_key, data, created_at, "
                    "updated_at) VALUES (?, ?, ?, ?, ?, ?, ?) RETURNING id",
                    (owner_id, guild_id, name, key, data, now, now),
                )
                assert created is not None
                squad_id = int(created[0])
            stored = await self._fetch_squads(db, "id = ?", (squad_id,))
        return stored[0]

    async def squad(self, owner_id: int, name: str) -> SquadRow | None:
        """`owner_id`'s stored squad called `name` (compared by its key), or None."""
        async with self._reading() as db:
            rows = await self._fetch_squads(
                db, "owner_id = ? AND name_key = ?", (owner_id, name_key(name))
            )
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
            deleted = await db.execute(
                "DELETE FROM squads WHERE owner_id = ? AND name_key = ?", (owner_id, name_key(name))
            )
        return deleted == 1

    # --- a server's own maps (issue 33) ---------------------------------------------------------
    async def save_server_map(
        self,
        guild_id: int,
        name: str,
        data: dict[str, Any],
        uploader_id: int,
        *,
        replace: bool = False,
        limit: int,
    ) -> ServerMapRow:
        """Keep the server's map `name` (compared by `typed_key`). One by that name already kept
        is replaced only with `replace`, else ServerMapTaken; a new one past `limit` maps is
        ServerMapsFull. Counted and written in one transaction, so two uploads at once cannot
        pass the limit together."""
        key = typed_key(name)
        now = self._clock()
        async with self._transaction() as db:
            found = await db.fetchone(
                "SELECT 1 FROM server_maps WHERE guild_id = ? AND name_key = ?", (guild_id, key)
            )
            if found is not None and not replace:
                raise ServerMapTaken(f"Server {guild_id} already keeps a map called {name}.")
            if found is None:
                counted = await db.fetchone(
                    "SELECT COUNT(*) FROM server_maps WHERE guild_id = ?", (guild_id,)
                )
                if counted is not None and int(counted[0]) >= limit:
                    raise ServerMapsFull(f"Server {guild_id} keeps {limit} maps already.")
                try:
                    await db.execute(
                        f"INSERT INTO server_maps ({_SERVER_MAP_COLUMNS}) VALUES (?, ?, ?, ?, ?, ?)",
                        (guild_id, key, name, _dumps(data), uploader_id, now),
                    )
                except UniqueViolation as error:  # the same name uploaded at the same moment
                    raise ServerMapTaken(
                        f"Server {guild_id} already keeps a map called {name}."
                    ) from error
            else:
                await db.execute(
                    "UPDATE server_maps SET name = ?, data = ?, uploader_id = ?, uploaded_at = ? "
                    "WHERE guild_id = ? AND name_key = ?",
                    (name, _dumps(data), uploader_id, now, guild_id, key),
                )
        return ServerMapRow(guild_id, key, name, json.loads(_dumps(data)), uploader_id, now)

    async def server_map(self, guild_id: int, name: str) -> ServerMapRow | None:
        """The server's map called `name` (as typed: compared by `typed_key`), or None."""
        async with self._reading() as db:
            row = await db.fetchone(
                f"SELECT {_SERVER_MAP_COLUMNS} FROM server_maps WHERE guild_id = ? AND name_key = ?",
                (guild_id, typed_key(name)),
            )
        return None if row is None else _server_map_from_row(row)

    async def server_maps(self, guild_id: int) -> list[ServerMapRow]:
        """Every map the server keeps, by name."""
        async with self._reading() as db:
            rows = await db.fetch(
                f"SELECT {_SERVER_MAP_COLUMNS} FROM server_maps WHERE guild_id = ? "
                "ORDER BY name_key",
                (guild_id,),
            )
        return [_server_map_from_row(row) for row in rows]

    async def delete_server_map(self, guild_id: int, name: str) -> bool:
        """Forget the server's map called `name`; False if it kept none by that name."""
        async with self._transaction() as db:
            deleted = await db.execute(
                "DELETE FROM server_maps WHERE guild_id = ? AND name_key = ?",
                (guild_id, typed_key(name)),
            )
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
            done = (
                await db.fetchone(
                    "SELECT 1 FROM squad_awards WHERE squad_id = ? AND match_id = ?",
                    (squad_id, match_id),
                )
                is not None
            )
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
            rows = await db.fetch(
                "SELECT match_id, medals FROM squad_awards WHERE squad_id = ? "
                "ORDER BY awarded_at, match_id",
                (squad_id,),
            )
        return [(int(row[0]), json.loads(row[1])) for row in rows]

    # -- leagues (issue 13) ---------------------------------------------------------------------
    # Every change to a league is one transaction that checks and bumps the league's version
    # (two organisers racing: the second gets VersionConflict) and writes its log line.

    async def create_league(
        self,
        guild_id: int,
        name: str,
        ruleset: str,
        config: dict[str, Any],
        creator_id: int,
        channel_id: int,
        organiser_role: int | None,
        log: LeagueLog,
    ) -> LeagueRow:
        """A new league in signup (version 1); LeagueNameTaken if the guild has one of that
        name (without case)."""
        now = self._clock()
        try:
            async with self._transaction() as db:
                created = await db.fetchone(
                    "INSERT INTO leagues (guild_id, name, name_key, ruleset, config, status, "
                    "creator_id, channel_id, organiser_role, version, created_at) "
                    "VALUES (?, ?, ?, ?, ?, 'signup', ?, ?, ?, 1, ?) RETURNING id",
                    (guild_id, name, name_key(name), ruleset, _dumps(config), creator_id,
                     channel_id, organiser_role, now),
                )  # fmt: skip
                assert created is not None
                league_id = int(created[0])
                await self._write_league_log(db, league_id, log)
                found = await self._fetch_leagues(db, "id = ?", (league_id,))
        except UniqueViolation as error:
            if "leagues" in error.constraint:
                raise LeagueNameTaken(f"Guild {guild_id} already has a league {name!r}.") from error
            raise
        return found[0]

    async def league(self, guild_id: int, name: str) -> LeagueRow | None:
        """The guild's league called `name` (compared by its key), or None."""
        async with self._reading() as db:
            rows = await self._fetch_leagues(
                db, "guild_id = ? AND name_key = ?", (guild_id, name_key(name))
            )
        return rows[0] if rows else None

    async def league_by_id(self, league_id: int) -> LeagueRow | None:
        async with self._reading() as db:
            rows = await self._fetch_leagues(db, "id = ?", (league_id,))
        return rows[0] if rows else None

    async def leagues(self, guild_id: int) -> list[LeagueRow]:
        """Every league of the guild, oldest first."""
        async with self._reading() as db:
            return await self._fetch_leagues(db, "guild_id = ?", (guild_id,))

    async def league_players(self, league_id: int) -> list[LeaguePlayerRow]:
        """The league's players in sign-up order (dropped ones too)."""
        async with self._reading() as db:
            rows = await db.fetch(
                f"SELECT {_LEAGUE_PLAYER_COLUMNS} FROM league_players WHERE league_id = ? "
                f"ORDER BY joined_at, {self._database.dialect.insertion_order}",
                (league_id,),
            )
        return [_league_player_from_row(row) for row in rows]

    async def league_rounds(self, league_id: int) -> list[LeagueRoundRow]:
        async with self._reading() as db:
            rows = await db.fetch(
                f"SELECT {_ROUND_COLUMNS} FROM league_rounds WHERE league_id = ? ORDER BY number",
                (league_id,),
            )
        return [_round_from_row(row) for row in rows]

    async def open_league_rounds(self) -> list[tuple[LeagueRow, LeagueRoundRow]]:
        """Every open round of every league, with its league (the bot's timer loop)."""
        async with self._reading() as db:
            rows = await db.fetch(
                f"SELECT {_ROUND_COLUMNS} FROM league_rounds WHERE status = 'open' "
                "ORDER BY deadline, league_id"
            )
            rounds = [_round_from_row(row) for row in rows]
            found = []
            for number in rounds:
                leagues = await self._fetch_leagues(db, "id = ?", (number.league_id,))
                found.append((leagues[0], number))
        return found

    async def league_games(self, league_id: int, round: int | None = None) -> list[LeagueGameRow]:
        """The league's games (one round's), by round and board, each with its match's result
        columns: its status, the winning side, when it ended, both seats' scores (a league
        game is 1 v 1: `first` in seat 0, `second` in seat 1)."""
        where, parameters = "g.league_id = ?", [league_id]
        if round is not None:
            where += " AND g.round = ?"
            parameters.append(round)
        async with self._reading() as db:
            rows = await db.fetch(
                f"SELECT {_GAME_COLUMNS}, m.status AS m_status, m.winner AS m_winner, "
                "m.ended_at AS m_ended_at, "
                "(SELECT score FROM match_players p WHERE p.match_id = m.id AND p.seat = 0) "
                "AS m_score0, "
                "(SELECT score FROM match_players p WHERE p.match_id = m.id AND p.seat = 1) "
                "AS m_score1 "
                "FROM league_games g LEFT JOIN matches m ON m.id = g.match_id "
                f"WHERE {where} ORDER BY g.round, g.board",
                tuple(parameters),
            )
        return [_game_from_row(row) for row in rows]

    async def league_log(self, league_id: int) -> list[LeagueLogRow]:
        async with self._reading() as db:
            rows = await db.fetch(
                "SELECT at, actor, action, detail, reason FROM league_log WHERE league_id = ? "
                "ORDER BY id",
                (league_id,),
            )
        return [LeagueLogRow(float(r[0]), r[1], str(r[2]), str(r[3]), str(r[4])) for r in rows]

    async def add_league_player(
        self, league_id: int, version: int, player: LeaguePlayerRow, log: LeagueLog
    ) -> LeagueRow:
        """Sign a player up (LeagueMemberTaken if they already are)."""
        try:
            async with self._league_change(league_id, version, log) as db:
                await db.execute(
                    f"INSERT INTO league_players ({_LEAGUE_PLAYER_COLUMNS}) "
                    "VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)",
                    (league_id, player.user_id, player.name, player.squad_name,
                     None if player.squad is None else _dumps(player.squad), player.squad_id,
                     player.joined_round, player.dropped_round, self._clock()),
                )  # fmt: skip
        except UniqueViolation as error:
            raise LeagueMemberTaken(f"Player {player.user_id} is already signed up.") from error
        return await self._league_now(league_id)

    async def drop_league_player(
        self,
        league_id: int,
        version: int,
        user_id: int,
        dropped_round: int | None,
        log: LeagueLog,
        decision: tuple[int, str] | None = None,
    ) -> LeagueRow:
        """A player drops out after `dropped_round` (None: before any round: the sign-up goes);
        `decision`: (game id, decision) for their open game that has no match result."""
        async with self._league_change(league_id, version, log) as db:
            if decision is not None:
                await db.execute(
                    "UPDATE league_games SET decision = ?, decision_reason = 'dropped out', "
                    "decided_by = ?, decided_at = ? WHERE id = ? AND league_id = ?",
                    (decision[1], user_id, self._clock(), decision[0], league_id),
                )
            if dropped_round is None:
                await db.execute(
                    "DELETE FROM league_players WHERE league_id = ? AND user_id = ?",
                    (league_id, user_id),
                )
            else:
                await db.execute(
                    "UPDATE league_players SET dropped_round = ? WHERE league_id = ? AND user_id = ?",
                    (dropped_round, league_id, user_id),
                )
        return await self._league_now(league_id)

    async def open_league_round(
        self,
        league_id: int,
        version: int,
        number: LeagueRoundRow,
        games: Sequence[tuple[int, int, int | None]],
        log: LeagueLog,
        config: dict[str, Any] | None = None,
    ) -> LeagueRow:
        """Open round `number` with its games (board, first, second or None for a bye); the
        league is running from then on (and its config replaced, when given: the round robin's
        schedule, fixed at the first round)."""
        async with self._league_change(league_id, version, log) as db:
            await db.execute(
                "INSERT INTO league_rounds (league_id, number, status, mission, map, started_at, "
                "deadline) VALUES (?, ?, 'open', ?, ?, ?, ?)",
                (league_id, number.number, number.mission, number.map, number.started_at,
                 number.deadline),
            )  # fmt: skip
            await db.executemany(
                "INSERT INTO league_games (league_id, round, board, first, second) "
                "VALUES (?, ?, ?, ?, ?)",
                [(league_id, number.number, board, a, b) for board, a, b in games],
            )
            await db.execute("UPDATE leagues SET status = 'running' WHERE id = ?", (league_id,))
            if config is not None:
                await db.execute(
                    "UPDATE leagues SET config = ? WHERE id = ?", (_dumps(config), league_id)
                )
        return await self._league_now(league_id)

    async def set_league_game_match(self, game_id: int, match_id: int, channel_id: int) -> None:
        """The match (and its channel) a game is played in, once it is opened."""
        async with self._transaction() as db:
            await db.execute(
                "UPDATE league_games SET match_id = ?, channel_id = ? WHERE id = ?",
                (match_id, channel_id, game_id),
            )

    async def decide_league_game(
        self,
        league_id: int,
        version: int,
        game_id: int,
        decision: str,
        mp: tuple[int, int] | None,
        by: int,
        reason: str,
        log: LeagueLog,
        *,
        settle: bool = False,
    ) -> LeagueRow:
        """The organiser's result for a game (over its match's); `settle` closes its dispute."""
        async with self._league_change(league_id, version, log) as db:
            await db.execute(
                "UPDATE league_games SET decision = ?, decision_mp = ?, decision_reason = ?, "
                "decided_by = ?, decided_at = ? WHERE id = ? AND league_id = ?",
                (decision, None if mp is None else _dumps(list(mp)), reason, by, self._clock(),
                 game_id, league_id),
            )  # fmt: skip
            if settle:
                await self._settle(db, game_id)
        return await self._league_now(league_id)

    async def settle_league_dispute(
        self, league_id: int, version: int, game_id: int, log: LeagueLog
    ) -> LeagueRow:
        """The organiser let the result stand: the dispute is settled."""
        async with self._league_change(league_id, version, log) as db:
            await self._settle(db, game_id)
        return await self._league_now(league_id)

    async def _settle(self, db: Connection, game_id: int) -> None:
        await db.execute(
            "UPDATE league_games SET settled_at = ? WHERE id = ?", (self._clock(), game_id)
        )

    async def dispute_league_game(
        self, league_id: int, version: int, game_id: int, by: int, text: str, log: LeagueLog
    ) -> LeagueRow:
        async with self._league_change(league_id, version, log) as db:
            await db.execute(
                "UPDATE league_games SET disputed_by = ?, disputed_at = ?, dispute = ?, "
                "settled_at = NULL WHERE id = ? AND league_id = ?",
                (by, self._clock(), text, game_id, league_id),
            )
        return await self._league_now(league_id)

    async def close_league_round(
        self,
        league_id: int,
        version: int,
        number: int,
        finished: bool,
        log: LeagueLog,
        decisions: Sequence[tuple[int, str]] = (),
        by: int | None = None,
        reason: str = "",
    ) -> LeagueRow:
        """Close round `number`, with the organiser's `decisions` ((game id, decision)) for
        its unfinished games; `finished`: it was the season's last, the league is over."""
        async with self._league_change(league_id, version, log) as db:
            now = self._clock()
            await db.executemany(
                "UPDATE league_games SET decision = ?, decision_reason = ?, decided_by = ?, "
                "decided_at = ? WHERE id = ? AND league_id = ?",
                [(decision, reason, by, now, game, league_id) for game, decision in decisions],
            )
            await db.execute(
                "UPDATE league_rounds SET status = 'closed', closed_at = ? "
                "WHERE league_id = ? AND number = ?",
                (self._clock(), league_id, number),
            )
            if finished:
                await db.execute(
                    "UPDATE leagues SET status = 'finished' WHERE id = ?", (league_id,)
                )
        return await self._league_now(league_id)

    async def mark_round_reminded(self, league_id: int, number: int) -> bool:
        """Note that the organisers were reminded of the round's undecided games: True the
        first time only (whichever process asks first), so the reminder goes out once."""
        async with self._transaction() as db:
            changed = await db.execute(
                "UPDATE league_rounds SET reminded_at = ? "
                "WHERE league_id = ? AND number = ? AND reminded_at IS NULL",
                (self._clock(), league_id, number),
            )
        return changed == 1

    async def log_league(self, league_id: int, version: int, log: LeagueLog) -> LeagueRow:
        """A change that is only its log line (the organiser role set), version-checked."""
        async with self._league_change(league_id, version, log):
            pass
        return await self._league_now(league_id)

    async def set_league_role(
        self, league_id: int, version: int, role: int | None, log: LeagueLog
    ) -> LeagueRow:
        async with self._league_change(league_id, version, log) as db:
            await db.execute(
                "UPDATE leagues SET organiser_role = ? WHERE id = ?", (role, league_id)
            )
        return await self._league_now(league_id)

    @asynccontextmanager
    async def _league_change(
        self, league_id: int, version: int, log: LeagueLog
    ) -> AsyncIterator[Connection]:
        """One transaction on a league: its version checked and bumped, its log line written."""
        async with self._transaction() as db:
            changed = await db.execute(
                "UPDATE leagues SET version = version + 1 WHERE id = ? AND version = ?",
                (league_id, version),
            )
            if changed != 1:
                if not await self._fetch_leagues(db, "id = ?", (league_id,)):
                    raise StoreError(f"League {league_id} does not exist.")
                raise VersionConflict(f"League {league_id} was changed by someone else first.")
            await self._write_league_log(db, league_id, log)
            yield db

    async def _write_league_log(self, db: Connection, league_id: int, log: LeagueLog) -> None:
        await db.execute(
            "INSERT INTO league_log (league_id, at, actor, action, detail, reason) "
            "VALUES (?, ?, ?, ?, ?, ?)",
            (league_id, self._clock(), log.actor, log.action, log.detail, log.reason),
        )

    async def _league_now(self, league_id: int) -> LeagueRow:
        found = await self.league_by_id(league_id)
        assert found is not None, "a league is never deleted"
        return found

    async def _fetch_leagues(
        self, db: Connection, where: str, parameters: Iterable[Any] = ()
    ) -> list[LeagueRow]:
        rows = await db.fetch(
            f"SELECT {_LEAGUE_COLUMNS} FROM leagues WHERE {where} ORDER BY id", tuple(parameters)
        )
        return [_league_from_row(row) for row in rows]

    # -- substitutes (issue 34) -------------------------------------------------------------------

    async def league_of_match(self, match_id: int) -> LeagueRow | None:
        """The league whose game the match is (its organisers may hand its seats on, and its
        rules say what a missed deadline does), or None for a match outside any league."""
        async with self._reading() as db:
            found = await self._fetch_leagues(
                db, "id IN (SELECT league_id FROM league_games WHERE match_id = ?)", (match_id,)
            )
        return found[0] if found else None

    # -- campaigns: awards a crash left undone ---------------------------------------------------

    async def unawarded_matches(self) -> list[MatchRow]:
        """Ended matches that fielded a stored squad which was not awarded its XP for them
        (the process stopped between the save that ended the match and the award)."""
        where = (
            f"status = 'ended' AND EXISTS (SELECT 1 FROM {self._database.dialect.stored_squads} "
            "JOIN squads q ON q.id = CAST(s.value AS BIGINT) WHERE NOT EXISTS "
            "(SELECT 1 FROM squad_awards a WHERE a.squad_id = q.id AND a.match_id = matches.id))"
        )
        async with self._reading() as db:
            return await self._fetch_matches(db, where)

    async def ended_without_result(self) -> list[MatchRow]:
        """Ended matches whose result is not in the result columns yet (they ended before
        migration 005), oldest first."""
        async with self._reading() as db:
            return await self._fetch_matches(db, "status = 'ended' AND ended_at IS NULL")

    async def write_result(self, row: MatchRow) -> None:
        """Store `row.result` as its match's result columns and rows, leaving the rest of the
        match (and its version) as it is: a result worked out again from its record."""
        async with self._transaction() as db:
            await self._write_result(db, row)

    # -- schema -------------------------------------------------------------------------------

    async def schema_version(self) -> int:
        """The highest migration applied to this database."""
        async with self._reading() as db:
            return await _schema_version(db)


__all__ = [
    "ACTIVE_STATUSES",
    "MATCH_STATUSES",
    "MAX_SEATS",
    "MIN_SEATS",
    "ChannelBusy",
    "LeagueGameRow",
    "LeagueLog",
    "LeagueLogRow",
    "LeagueMemberTaken",
    "LeagueNameTaken",
    "LeaguePlayerRow",
    "LeagueRoundRow",
    "LeagueRow",
    "MatchRow",
    "NotifySettings",
    "SquadRow",
    "Store",
    "StoreError",
    "VersionConflict",
]
