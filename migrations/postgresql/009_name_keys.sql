-- 009 (PostgreSQL): names unique by their key, not lower(name) (see ../009_name_keys.sql).
ALTER TABLE squads ADD COLUMN name_key TEXT;
ALTER TABLE leagues ADD COLUMN name_key TEXT;
DROP INDEX squads_owner_name;
DROP INDEX leagues_guild_name;
CREATE UNIQUE INDEX squads_owner_name_key ON squads (owner_id, name_key);
CREATE UNIQUE INDEX leagues_guild_name_key ON leagues (guild_id, name_key);
