-- 008: clocks for people with lives (issue 21): players' vacations and private calendar feeds.
-- The clock modes need no schema: a match's clock is JSON in `matches.setup`. The servers'
-- vacation allowance and weekends are settings (`settings`).

-- A player's vacation in one server: their clocks in that server's matches stand still from
-- `starts_at` to `ends_at`. Ended early, `ends_at` moves to that moment and `days` to the
-- whole days used; `days` counts against the year's allowance of the year it began in (UTC).
CREATE TABLE vacations (
    id         INTEGER PRIMARY KEY,
    guild_id   INTEGER NOT NULL,
    user_id    INTEGER NOT NULL,
    starts_at  REAL    NOT NULL,
    ends_at    REAL    NOT NULL,
    days       INTEGER NOT NULL
);
CREATE INDEX vacations_by_player ON vacations (user_id, ends_at);

-- A player's private calendar feed (/timer calendar): the secret token in its address. A new
-- one replaces the old, whose address stops working.
CREATE TABLE calendar_feeds (
    user_id     INTEGER PRIMARY KEY,
    token       TEXT    NOT NULL UNIQUE,
    created_at  REAL    NOT NULL
);
