"""skirmbot's storage layer: the only place with SQL (aiosqlite; schema in migrations/)."""

from skirmbot.store.database import (
    ACTIVE_STATUSES,
    KEEP,
    MATCH_STATUSES,
    ChannelBusy,
    Deadline,
    MatchResult,
    MatchRow,
    SeatResult,
    SquadRow,
    Store,
    VersionConflict,
)
from skirmbot.store.migrate import MigrationError, StoreError

__all__ = [
    "ACTIVE_STATUSES",
    "MATCH_STATUSES",
    "ChannelBusy",
    "Deadline",
    "KEEP",
    "MatchResult",
    "MatchRow",
    "MigrationError",
    "SeatResult",
    "SquadRow",
    "Store",
    "StoreError",
    "VersionConflict",
]
