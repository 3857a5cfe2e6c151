-- 004 (PostgreSQL): when a direct message to a player was refused (see ../004_delivery.sql).
ALTER TABLE players ADD COLUMN dms_closed_at DOUBLE PRECISION;
