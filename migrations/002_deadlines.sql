-- 002: turn timers. One pending deadline per match: the next reminder or the miss itself.
-- The scheduler loads these at start-up; a deadline whose `key` no longer matches the match's
-- current activation is stale and is ignored when it fires.
CREATE TABLE deadlines (
    match_id  INTEGER PRIMARY KEY REFERENCES matches (id) ON DELETE CASCADE,
    due_at    REAL    NOT NULL,
    kind      TEXT    NOT NULL CHECK (kind IN ('remind', 'miss')),
    key       TEXT    NOT NULL
);

CREATE INDEX deadlines_by_due ON deadlines (due_at);
