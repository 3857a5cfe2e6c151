-- 002 (PostgreSQL): turn timers, one pending deadline per match (see ../002_deadlines.sql).
CREATE TABLE deadlines (
    match_id  BIGINT  PRIMARY KEY REFERENCES matches (id) ON DELETE CASCADE,
    due_at    DOUBLE PRECISION NOT NULL,
    kind      TEXT    NOT NULL CHECK (kind IN ('remind', 'miss')),
    key       TEXT    NOT NULL
);

CREATE INDEX deadlines_by_due ON deadlines (due_at);
