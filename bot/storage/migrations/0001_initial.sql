-- 0001_initial.sql: the first schema of Tally-Ho.
--
-- Tables: guild_settings, games, seats, actions (append-only), snapshots, messages.
-- Conventions (kept portable so a PostgreSQL twin of this file stays a transliteration):
--   * Discord ids and seeds are 64-bit integers (BIGINT in PostgreSQL).
--   * JSON columns hold a JSON object as text (JSONB in PostgreSQL).
--   * Timestamps are ISO 8601 strings in UTC with an explicit offset (TIMESTAMPTZ).
--   * games.version is bumped by every write to a game and guards it (optimistic
--     concurrency); games.last_seq is the seq of the last action in the log.
-- Applied in one transaction by bot/storage/migrate.py; it sets PRAGMA user_version.

CREATE TABLE guild_settings (
    guild_id    INTEGER PRIMARY KEY,
    settings    TEXT    NOT NULL DEFAULT '{}' CHECK (json_valid(settings)),
    updated_at  TEXT    NOT NULL
);

CREATE TABLE games (
    id                INTEGER PRIMARY KEY AUTOINCREMENT,
    guild_id          INTEGER NOT NULL,
    channel_id        INTEGER NOT NULL,
    thread_id         INTEGER,
    lobby_message_id  INTEGER,
    host_id           INTEGER NOT NULL,
    system            TEXT    NOT NULL,
    ruleset           TEXT    NOT NULL,
    status            TEXT    NOT NULL DEFAULT 'lobby'
                      CHECK (status IN ('lobby', 'active', 'finished', 'aborted')),
    options           TEXT    NOT NULL DEFAULT '{}' CHECK (json_valid(options)),
    seed              INTEGER NOT NULL,
    version           INTEGER NOT NULL DEFAULT 0 CHECK (version >= 0),
    last_seq          INTEGER NOT NULL DEFAULT 0 CHECK (last_seq >= 0),
    created_at        TEXT    NOT NULL,
    updated_at        TEXT    NOT NULL,
    finished_at       TEXT,
    result            TEXT    CHECK (result IS NULL OR json_valid(result))
);

-- One game = one thread.
CREATE UNIQUE INDEX games_thread_id ON games (thread_id) WHERE thread_id IS NOT NULL;
CREATE INDEX games_guild_status ON games (guild_id, status);
CREATE INDEX games_status ON games (status);

CREATE TABLE seats (
    game_id       INTEGER NOT NULL REFERENCES games (id),
    seat          TEXT    NOT NULL,
    side          TEXT    NOT NULL,
    user_id       INTEGER,
    display_name  TEXT    NOT NULL,
    payload       TEXT    NOT NULL DEFAULT '{}' CHECK (json_valid(payload)),
    joined_at     TEXT    NOT NULL,
    PRIMARY KEY (game_id, seat)
);

-- A user may hold several seats, in one game or many.
CREATE INDEX seats_user_id ON seats (user_id) WHERE user_id IS NOT NULL;

CREATE TABLE actions (
    game_id     INTEGER NOT NULL REFERENCES games (id),
    seq         INTEGER NOT NULL CHECK (seq >= 1),
    seat        TEXT,               -- NULL for system actions (deadlines, setup)
    action      TEXT    NOT NULL,   -- canonical notation
    created_at  TEXT    NOT NULL,
    PRIMARY KEY (game_id, seq)
);

-- The action log is the game: it is append-only, enforced by the database itself.
CREATE TRIGGER actions_no_update BEFORE UPDATE ON actions
BEGIN
    SELECT RAISE(ABORT, 'actions are append-only');
END;

CREATE TRIGGER actions_no_delete BEFORE DELETE ON actions
BEGIN
    SELECT RAISE(ABORT, 'actions are append-only');
END;

-- A cache for fast loads: the state after action `seq` (0 = the initial state).
CREATE TABLE snapshots (
    game_id     INTEGER NOT NULL REFERENCES games (id),
    seq         INTEGER NOT NULL CHECK (seq >= 0),
    state       TEXT    NOT NULL CHECK (json_valid(state)),
    created_at  TEXT    NOT NULL,
    PRIMARY KEY (game_id, seq)
);

-- Messages the bot must find again (e.g. the public "latest move" message whose
-- view is edited or re-registered after a restart), one per (game, kind).
CREATE TABLE messages (
    game_id     INTEGER NOT NULL REFERENCES games (id),
    kind        TEXT    NOT NULL,
    channel_id  INTEGER NOT NULL,
    message_id  INTEGER NOT NULL,
    updated_at  TEXT    NOT NULL,
    PRIMARY KEY (game_id, kind)
);
