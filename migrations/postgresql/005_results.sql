-- 005 (PostgreSQL): a finished match's result as columns (see ../005_results.sql).
ALTER TABLE matches ADD COLUMN ruleset TEXT NOT NULL DEFAULT 'skirm';
ALTER TABLE matches ADD COLUMN winner INTEGER;
ALTER TABLE matches ADD COLUMN end_reason TEXT;
ALTER TABLE matches ADD COLUMN ended_at DOUBLE PRECISION;

CREATE TABLE match_players (
    match_id  BIGINT  NOT NULL REFERENCES matches (id) ON DELETE CASCADE,
    side      INTEGER NOT NULL,
    user_id   BIGINT,
    name      TEXT    NOT NULL,
    "placing" INTEGER NOT NULL,  -- quoted: a reserved word in PostgreSQL
    score     INTEGER NOT NULL,
    PRIMARY KEY (match_id, side)
);
CREATE INDEX match_players_by_user ON match_players (user_id);
CREATE INDEX matches_by_end ON matches (ended_at) WHERE ended_at IS NOT NULL;
