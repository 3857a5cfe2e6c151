-- 005: a finished match's result as columns (issue 13), so standings and ratings never replay
-- records. Written in the same transaction as the save that ends the match. Matches that ended
-- before this version get theirs when the bot starts (MatchService.complete_results).
ALTER TABLE matches ADD COLUMN ruleset TEXT NOT NULL DEFAULT 'skirm';
ALTER TABLE matches ADD COLUMN winner INTEGER;     -- the winning side (0, 1, ...); NULL: a draw, or not over
ALTER TABLE matches ADD COLUMN end_reason TEXT;    -- in words; NULL until the match ends
ALTER TABLE matches ADD COLUMN ended_at REAL;

-- The players of a finished match, one row per side: who sat there, where they placed, their
-- score. A match of more than two sides (the d20 rules) has more rows, nothing else changes.
CREATE TABLE match_players (
    match_id  INTEGER NOT NULL REFERENCES matches (id) ON DELETE CASCADE,
    side      INTEGER NOT NULL,
    user_id   INTEGER,           -- Discord user id; 0: the automatic player
    name      TEXT    NOT NULL,
    placing   INTEGER NOT NULL,  -- 1 for the winner (both 1 in a draw)
    score     INTEGER NOT NULL,  -- Mission Points in Skirm
    PRIMARY KEY (match_id, side)
);
CREATE INDEX match_players_by_user ON match_players (user_id);
CREATE INDEX matches_by_end ON matches (ended_at) WHERE ended_at IS NOT NULL;
