-- 010 (PostgreSQL): a finished match's players by seat, with the side each seat played on (see
-- ../010_seats.sql). Rows written before were one per side, each side one seat.
ALTER TABLE match_players ADD COLUMN seat INTEGER;
UPDATE match_players SET seat = side;
ALTER TABLE match_players ALTER COLUMN seat SET NOT NULL;
ALTER TABLE match_players DROP CONSTRAINT match_players_pkey;
ALTER TABLE match_players ADD PRIMARY KEY (match_id, seat);
