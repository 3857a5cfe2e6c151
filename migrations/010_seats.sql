-- 010: a match's players by seat (issue 29). A match has 2 to 4 seats (`matches.players` and
-- `matches.names` hold one entry per seat), grouped into sides by its ruleset: 1 v 1 and every
-- free-for-all give each seat its own side, the group rules put several seats on one side. The
-- players of a finished match are one row per seat, with the side the seat played on, its
-- placing and its side's score. Rows written before this version were one per side, and every
-- side then held one seat: the side's number is its seat's.
-- (SQLite cannot change a table's primary key: the table is made again.)
CREATE TABLE match_seats (
    match_id  INTEGER NOT NULL REFERENCES matches (id) ON DELETE CASCADE,
    seat      INTEGER NOT NULL,  -- 0 to 3: where the player sits in `matches.players`
    side      INTEGER NOT NULL,  -- the side the seat played on
    user_id   INTEGER,           -- Discord user id; 0: the automatic player
    name      TEXT    NOT NULL,
    placing   INTEGER NOT NULL,  -- 1 for the winner (every seat placed first alike in a draw)
    score     INTEGER NOT NULL,  -- its side's score (Mission Points in Skirm)
    PRIMARY KEY (match_id, seat)
);
INSERT INTO match_seats (match_id, seat, side, user_id, name, placing, score)
    SELECT match_id, side, side, user_id, name, placing, score FROM match_players;
DROP TABLE match_players;
ALTER TABLE match_seats RENAME TO match_players;
CREATE INDEX match_players_by_user ON match_players (user_id);
