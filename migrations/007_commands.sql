-- 007: a match's commands as rows, appended one by one, and state snapshots (issue 14).
-- Saving a match no longer rewrites its whole record: `matches.record` keeps the record's
-- header (format, version, ruleset, players, content, dice) and each accepted command is a row
-- of its own. Loading a match replays from its latest snapshot, never the whole game.

CREATE TABLE match_commands (
    match_id  INTEGER NOT NULL REFERENCES matches (id) ON DELETE CASCADE,
    seq       INTEGER NOT NULL,  -- its place in the record, from 0
    command   TEXT    NOT NULL,  -- JSON: the command as the record holds it
    PRIMARY KEY (match_id, seq)
);

-- The live match after its first `seq` commands, as the rules code that made it left it. A
-- cache, never the truth: a snapshot made by other rules code (`code`) is ignored and the match
-- replayed from its commands instead. One per match: the latest.
CREATE TABLE match_snapshots (
    match_id  INTEGER PRIMARY KEY REFERENCES matches (id) ON DELETE CASCADE,
    seq       INTEGER NOT NULL,
    code      TEXT    NOT NULL,  -- the fingerprint of the rules code that made it
    state     BLOB    NOT NULL
);

INSERT INTO match_commands (match_id, seq, command)
    SELECT matches.id, CAST(c.key AS INTEGER), c.value
    FROM matches, json_each(matches.record, '$.commands') AS c;

UPDATE matches SET record = json_remove(record, '$.commands');

-- Deadlines with several bot processes: a process claims a due deadline before firing it; the
-- claim lapses if that process dies mid-fire, and another fires it.
ALTER TABLE deadlines ADD COLUMN claimed_until REAL;
ALTER TABLE deadlines ADD COLUMN claimed_by TEXT;
