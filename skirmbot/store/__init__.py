"""skirmbot's storage layer: the only place with SQL (SQLite through aiosqlite, PostgreSQL
through asyncpg; schema in migrations/)."""

from skirmbot.store.database import (
    ACTIVE_STATUSES,
    KEEP,
    MATCH_STATUSES,
    ChannelBusy,
    Deadline,
    LeagueGameRow,
    LeagueLog,
    LeagueLogRow,
    LeagueMemberTaken,
    LeagueNameTaken,
    LeaguePlayerRow,
    LeagueRoundRow,
    LeagueRow,
    MatchResult,
    MatchRow,
    SeatResult,
    Snapshot,
    SquadRow,
    Store,
    VersionConflict,
)
from skirmbot.store.errors import StoreError
from skirmbot.store.migrate import MigrationError

__all__ = [
    "ACTIVE_STATUSES",
    "MATCH_STATUSES",
    "ChannelBusy",
    "Deadline",
    "KEEP",
    "LeagueGameRow",
    "LeagueLog",
    "LeagueLogRow",
    "LeagueMemberTaken",
    "LeagueNameTaken",
    "LeaguePlayerRow",
    "LeagueRoundRow",
    "LeagueRow",
    "MatchResult",
    "MatchRow",
    "MigrationError",
    "SeatResult",
    "Snapshot",
    "SquadRow",
    "Store",
    "StoreError",
    "VersionConflict",
]
