-- 012 (PostgreSQL): a server's own maps (see ../012_server_maps.sql).
CREATE TABLE server_maps (
    guild_id     BIGINT           NOT NULL,
    name_key     TEXT             NOT NULL,
    name         TEXT             NOT NULL,
    data         TEXT             NOT NULL,
    uploader_id  BIGINT           NOT NULL,
    uploaded_at  DOUBLE PRECISION NOT NULL,
    PRIMARY KEY (guild_id, name_key)
);
