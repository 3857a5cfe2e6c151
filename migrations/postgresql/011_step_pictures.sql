-- 011 (PostgreSQL): the web pages' step pictures, by content (see ../011_step_pictures.sql).
CREATE TABLE step_pictures (
    key       TEXT             PRIMARY KEY,
    match_id  BIGINT           NOT NULL REFERENCES matches (id) ON DELETE CASCADE,
    made      DOUBLE PRECISION NOT NULL,
    picture   BYTEA            NOT NULL
);
CREATE INDEX step_pictures_by_made ON step_pictures (made);
CREATE INDEX step_pictures_by_match ON step_pictures (match_id);
