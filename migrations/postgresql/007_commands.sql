-- 007 (PostgreSQL): a match's commands as rows, state snapshots, deadline claims (see
-- ../007_commands.sql). The records' commands move out of `matches.record` into rows.
CREATE TABLE match_commands (
    match_id  BIGINT  NOT NULL REFERENCES matches (id) ON DELETE CASCADE,
    seq       INTEGER NOT NULL,
    command   TEXT    NOT NULL,
    PRIMARY KEY (match_id, seq)
);

CREATE TABLE match_snapshots (
    match_id  BIGINT  PRIMARY KEY REFERENCES matches (id) ON DELETE CASCADE,
    seq       INTEGER NOT NULL,
    code      TEXT    NOT NULL,
    state     BYTEA   NOT NULL
);

INSERT INTO match_commands (match_id, seq, command)
    SELECT matches.id, c.position - 1, c.command::text
    FROM matches,
         jsonb_array_elements(COALESCE(matches.record::jsonb -> 'commands', '[]'::jsonb))
             WITH ORDINALITY AS c(command, position);

UPDATE matches SET record = (record::jsonb - 'commands')::text;

ALTER TABLE deadlines ADD COLUMN claimed_until DOUBLE PRECISION;
ALTER TABLE deadlines ADD COLUMN claimed_by TEXT;
