-- 0007_content_packs.sql: a server's content packs (bot/packs.py, engine/core/packs.py).
--
-- One row per uploaded version of a pack, never changed but for removed_at: a game
-- names the rows it was created with (its options' "packs"), so it replays the same
-- whatever is uploaded or removed later. Uploading a pack of a name the server already
-- has adds version n + 1 and marks version n removed, in one transaction; removing a
-- pack marks its live version removed. A server's live packs are its rows with
-- removed_at NULL (one a name). document is the YAML text as uploaded (UTF-8, at
-- most 64 KiB, checked before it is stored), digest its SHA-256.

CREATE TABLE content_packs (
    id           INTEGER PRIMARY KEY AUTOINCREMENT,
    guild_id     INTEGER NOT NULL,
    name         TEXT    NOT NULL,
    version      INTEGER NOT NULL CHECK (version >= 1),
    file         TEXT    NOT NULL,              -- the uploaded file's name
    digest       TEXT    NOT NULL,
    document     TEXT    NOT NULL,
    uploaded_by  INTEGER NOT NULL,
    created_at   TEXT    NOT NULL,
    removed_at   TEXT,
    UNIQUE (guild_id, name, version)
);

CREATE UNIQUE INDEX content_packs_live ON content_packs (guild_id, name)
    WHERE removed_at IS NULL;
