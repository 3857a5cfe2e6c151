-- 011: the web pages' step pictures, by content (issue 32). Two processes behind one address
-- share the database, so a picture one of them drew is served by the other from here instead
-- of being drawn again. A cache, never the truth: `key` digests the public record the picture
-- is drawn from, the step and the code that draws it, so a picture is never served for
-- anything else; the oldest go when there are too many (skirmbot.service.pages), and a
-- match's go with it.
CREATE TABLE step_pictures (
    key       TEXT    PRIMARY KEY,  -- sha256 hex of (public record, step, drawing code)
    match_id  INTEGER NOT NULL REFERENCES matches (id) ON DELETE CASCADE,
    made      REAL    NOT NULL,     -- UNIX seconds: when it was drawn
    picture   BLOB    NOT NULL      -- the PNG bytes served
);
CREATE INDEX step_pictures_by_made ON step_pictures (made);
CREATE INDEX step_pictures_by_match ON step_pictures (match_id);
