-- 003: campaigns. Players' stored squads and the XP each finished match gave them.

-- A player's stored squad: the squad file's data, each unit's `xp` (earned from medals, never
-- typed in) and `spoils_taken` included. Names are per owner, compared without case.
CREATE TABLE squads (
    id          INTEGER PRIMARY KEY,
    owner_id    INTEGER NOT NULL,  -- Discord user id of the player who saved it
    guild_id    INTEGER NOT NULL,  -- the server it was saved in
    name        TEXT    NOT NULL COLLATE NOCASE,
    data        TEXT    NOT NULL,  -- JSON: the squad file's data
    created_at  REAL    NOT NULL,
    updated_at  REAL    NOT NULL,
    UNIQUE (owner_id, name)
);

-- One row per stored squad and match it was awarded XP for: a match gives XP once.
CREATE TABLE squad_awards (
    squad_id    INTEGER NOT NULL REFERENCES squads (id) ON DELETE CASCADE,
    match_id    INTEGER NOT NULL REFERENCES matches (id) ON DELETE CASCADE,
    medals      TEXT    NOT NULL,  -- JSON: unit name -> list of medal names
    awarded_at  REAL    NOT NULL,
    PRIMARY KEY (squad_id, match_id)
);
