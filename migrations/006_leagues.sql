-- 006: community leagues (issue 13): leagues, their players, rounds, games and log.
-- A game's result is not stored here: it is the result of its match (matches.winner and
-- match_players, joined on match_id), unless an organiser decided it (an unfinished match at the
-- deadline, a correction, a settled dispute): the `decision` columns.

CREATE TABLE leagues (
    id              INTEGER PRIMARY KEY,
    guild_id        INTEGER NOT NULL,
    name            TEXT    NOT NULL COLLATE NOCASE,  -- unique per guild, without case
    ruleset         TEXT    NOT NULL,
    config          TEXT    NOT NULL,  -- JSON: format, rounds, round hours, clock, missions, maps, scoring, tiebreaks, ...
    status          TEXT    NOT NULL DEFAULT 'signup'
                    CHECK (status IN ('signup', 'running', 'finished')),
    creator_id      INTEGER NOT NULL,
    channel_id      INTEGER NOT NULL,  -- where the league was created (its announcements)
    organiser_role  INTEGER,           -- a role whose members organise this league too
    version         INTEGER NOT NULL DEFAULT 1,  -- bumped by every change (two organisers racing)
    created_at      REAL    NOT NULL,
    UNIQUE (guild_id, name)
);

-- One row per player per league. `squad` is the squad's data as fielded; a campaign league
-- keeps `squad_id` (a stored squad: its XP and medals carry on between matches) instead.
CREATE TABLE league_players (
    league_id      INTEGER NOT NULL REFERENCES leagues (id) ON DELETE CASCADE,
    user_id        INTEGER NOT NULL,
    name           TEXT    NOT NULL,
    squad_name     TEXT    NOT NULL,
    squad          TEXT,               -- JSON squad data (NULL for a stored squad)
    squad_id       INTEGER REFERENCES squads (id) ON DELETE SET NULL,
    joined_round   INTEGER NOT NULL,   -- the first round they are paired in
    dropped_round  INTEGER,            -- the last round they were in; NULL: still in
    joined_at      REAL    NOT NULL,
    PRIMARY KEY (league_id, user_id)
);
CREATE INDEX league_players_by_user ON league_players (user_id);

CREATE TABLE league_rounds (
    league_id    INTEGER NOT NULL REFERENCES leagues (id) ON DELETE CASCADE,
    number       INTEGER NOT NULL,
    status       TEXT    NOT NULL DEFAULT 'open' CHECK (status IN ('open', 'closed')),
    mission      TEXT    NOT NULL,
    map          TEXT    NOT NULL,
    started_at   REAL    NOT NULL,
    deadline     REAL    NOT NULL,
    closed_at    REAL,
    reminded_at  REAL,   -- the organisers were reminded of undecided games (once)
    PRIMARY KEY (league_id, number)
);
CREATE INDEX league_rounds_open ON league_rounds (deadline) WHERE status = 'open';

-- One row per pairing. `second` NULL: a bye for `first` (scores as a win). `first` sits in
-- the match's seat 0, `second` in seat 1.
CREATE TABLE league_games (
    id             INTEGER PRIMARY KEY,
    league_id      INTEGER NOT NULL,
    round          INTEGER NOT NULL,
    board          INTEGER NOT NULL,
    first          INTEGER NOT NULL,
    second         INTEGER,
    match_id       INTEGER REFERENCES matches (id) ON DELETE SET NULL,
    channel_id     INTEGER,
    -- The organiser's decision, over the match's own result: 'first' or 'second' won, 'draw',
    -- 'double_loss'; with Mission Points, why, who and when.
    decision       TEXT    CHECK (decision IN ('first', 'second', 'draw', 'double_loss')),
    decision_mp    TEXT,   -- JSON [first's, second's], or NULL: the match's (or 0-0)
    decision_reason TEXT,
    decided_by     INTEGER,
    decided_at     REAL,
    disputed_by    INTEGER,
    disputed_at    REAL,
    dispute        TEXT,
    settled_at     REAL,
    FOREIGN KEY (league_id, round) REFERENCES league_rounds (league_id, number) ON DELETE CASCADE,
    UNIQUE (league_id, round, board)
);
CREATE INDEX league_games_by_match ON league_games (match_id);

-- Who did what when, with a reason: sign-ups, drops, rounds, decisions, corrections, disputes.
CREATE TABLE league_log (
    id         INTEGER PRIMARY KEY,
    league_id  INTEGER NOT NULL REFERENCES leagues (id) ON DELETE CASCADE,
    at         REAL    NOT NULL,
    actor      INTEGER,           -- Discord user id; NULL: the bot
    action     TEXT    NOT NULL,
    detail     TEXT    NOT NULL DEFAULT '',
    reason     TEXT    NOT NULL DEFAULT ''
);
CREATE INDEX league_log_by_league ON league_log (league_id, id);
