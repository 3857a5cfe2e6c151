-- 013 (PostgreSQL): notifications on a player's terms (see ../013_notify.sql).
ALTER TABLE players ADD COLUMN time_zone TEXT;
ALTER TABLE players ADD COLUMN quiet_start INTEGER;
ALTER TABLE players ADD COLUMN quiet_end INTEGER;
ALTER TABLE players ADD COLUMN remind_before DOUBLE PRECISION;
ALTER TABLE players ADD COLUMN digest_hour INTEGER;
ALTER TABLE players ADD COLUMN digest_at DOUBLE PRECISION;
