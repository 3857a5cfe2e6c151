-- 013: notifications on a player's terms (issue 34). Each is NULL until the player chooses:
-- a player who never used /timer notify is reminded as before.
ALTER TABLE players ADD COLUMN time_zone TEXT;        -- IANA name, e.g. Europe/Berlin
ALTER TABLE players ADD COLUMN quiet_start INTEGER;   -- minutes after local midnight
ALTER TABLE players ADD COLUMN quiet_end INTEGER;     -- minutes after local midnight
ALTER TABLE players ADD COLUMN remind_before REAL;    -- seconds before a deadline
ALTER TABLE players ADD COLUMN digest_hour INTEGER;   -- local hour of the daily digest
ALTER TABLE players ADD COLUMN digest_at REAL;        -- the last digest (or when chosen)
