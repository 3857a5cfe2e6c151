-- 001: the initial schema: matches, per-guild settings, players.
-- Applied by skirmbot.store.migrate inside one transaction together with its bookkeeping row;
-- a migration must not contain BEGIN/COMMIT of its own.

-- One row per match. `record` is the whole match record (MatchRecord.to_json()): replaying it
-- rebuilds the match. `version` is bumped by every save (compare-and-swap on write).
CREATE TABLE matches (
    id          INTEGER PRIMARY KEY,
    guild_id    INTEGER NOT NULL,
    channel_id  INTEGER NOT NULL,
    status      TEXT    NOT NULL
                CHECK (status IN ('setup', 'deploying', 'playing', 'ended', 'aborted')),
    players     TEXT    NOT NULL,  -- JSON list of two: Discord user id, 0 for the automatic player, null for an open seat
    names       TEXT    NOT NULL,  -- JSON list of two display names
    record      TEXT    NOT NULL,  -- JSON: the match record
    setup       TEXT    NOT NULL DEFAULT '{}',  -- JSON: private set-up data such as hidden deployments
    version     INTEGER NOT NULL DEFAULT 1,
    created_at  REAL    NOT NULL,
    updated_at  REAL    NOT NULL
);

-- A channel has at most one active match.
CREATE UNIQUE INDEX matches_one_active_per_channel
    ON matches (channel_id)
    WHERE status IN ('setup', 'deploying', 'playing');

CREATE INDEX matches_by_status ON matches (status);

-- Per-guild settings, as text.
CREATE TABLE settings (
    guild_id  INTEGER NOT NULL,
    key       TEXT    NOT NULL,
    value     TEXT    NOT NULL,
    PRIMARY KEY (guild_id, key)
);

-- Discord users the bot has met.
CREATE TABLE players (
    user_id       INTEGER PRIMARY KEY,
    display_name  TEXT    NOT NULL,
    dm_reminders  INTEGER NOT NULL DEFAULT 0,
    updated_at    REAL    NOT NULL
);
