"""skirmbot's storage layer: the only place with SQL (aiosqlite; schema in migrations/)."""

from skirmbot.store.database import (
    ACTIVE_STATUSES,
    MATCH_STATUSES,
    ChannelBusy,
    MatchRow,
    Store,
    VersionConflict,
)
from skirmbot.store.migrate import MigrationError, StoreError

__all__ = [
    "ACTIVE_STATUSES",
    "MATCH_STATUSES",
    "ChannelBusy",
    "MatchRow",
    "MigrationError",
    "Store",
    "StoreError",
    "VersionConflict",
]
