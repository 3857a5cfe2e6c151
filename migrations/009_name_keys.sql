-- 009: names compared the same way on every database (issue 28). SQLite's NOCASE folds ASCII
-- only and PostgreSQL's lower() all of Unicode, so two squads could coexist on one and not on
-- the other. Each name now has its key (skirmbot.words.name_key: NFKC, casefolded, without
-- zero-width characters), written by the store, and names are unique by their key. The keys
-- of the rows already stored are filled in by skirmbot.store.backfill, in the same transaction.
-- (The old NOCASE uniqueness stays: SQLite cannot drop it without rebuilding the tables, and
-- any two names it holds equal have the same key anyway.)
ALTER TABLE squads ADD COLUMN name_key TEXT;
ALTER TABLE leagues ADD COLUMN name_key TEXT;
CREATE UNIQUE INDEX squads_owner_name_key ON squads (owner_id, name_key);
CREATE UNIQUE INDEX leagues_guild_name_key ON leagues (guild_id, name_key);
