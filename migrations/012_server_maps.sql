-- 012: a server's own maps (issue 33). A moderator uploads a map file; the server's matches and
-- leagues may then be played on it. A match copies the map's data into its record when it is
-- made, so removing or replacing a map here never changes a match: only new matches see it.
-- Names are per server, compared as a person types them (`words.typed_key`: "Old Mill",
-- "old-mill" and "OLD  MILL" are one name).
CREATE TABLE server_maps (
    guild_id     INTEGER NOT NULL,  -- Discord id of the server that keeps it
    name_key     TEXT    NOT NULL,  -- the name as typed_key reads it: how it is found
    name         TEXT    NOT NULL,  -- the display name, as the file has it
    data         TEXT    NOT NULL,  -- JSON: the map file's data, as checked on upload
    uploader_id  INTEGER NOT NULL,  -- Discord id of who uploaded it (last)
    uploaded_at  REAL    NOT NULL,  -- UNIX seconds
    PRIMARY KEY (guild_id, name_key)
);
