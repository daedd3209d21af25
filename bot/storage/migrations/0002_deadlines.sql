-- 0002_deadlines.sql: deadlines, reminders and the play-by-post settings around them.
--
-- Tables: deadlines (one row per pending decision), seat_clocks (per-seat counters:
-- missed deadlines in a row, time bank, vacation), user_settings, game_settings,
-- follows (spectators). Same conventions as 0001 (ISO 8601 UTC text timestamps with a
-- fixed width, so they compare as text; JSON objects as text).
--
-- A deadline row's life (bot/scheduler.py):
--   open       fired_at, done_at, cancelled_at all NULL; next_at is the next wake-up
--              (the next unsent reminder, else expires_at);
--   claimed    fired_at set (attempts >= 1), done_at NULL: its default action is being
--              applied; a restart applies it again (the action's own transaction
--              closes the row, so it is applied once);
--   done       done_at set: the default action was applied (or found unnecessary);
--   cancelled  cancelled_at set: the decision was taken or vanished before expiry.

CREATE TABLE deadlines (
    id                INTEGER PRIMARY KEY AUTOINCREMENT,
    game_id           INTEGER NOT NULL REFERENCES games (id),
    seat              TEXT    NOT NULL,
    kind              TEXT    NOT NULL,              -- the engine's Pending.kind
    decision_key      TEXT    NOT NULL,              -- e.g. '12:play': version it became pending
    user_id           INTEGER,                       -- who held the seat then
    created_at        TEXT    NOT NULL,              -- when the decision became pending
    duration_seconds  INTEGER NOT NULL CHECK (duration_seconds > 0),  -- active time given
    bank_seconds      INTEGER NOT NULL DEFAULT 0 CHECK (bank_seconds >= 0),  -- bank at creation
    due_at            TEXT    NOT NULL,              -- active time runs out; bank starts
    expires_at        TEXT    NOT NULL,              -- bank runs out: default action
    reminder_ats      TEXT    NOT NULL DEFAULT '[]' CHECK (json_valid(reminder_ats)),
    reminders_sent    INTEGER NOT NULL DEFAULT 0 CHECK (reminders_sent >= 0),
    next_at           TEXT    NOT NULL,              -- next wake-up while open
    fired_at          TEXT,                          -- claimed for the default action
    attempts          INTEGER NOT NULL DEFAULT 0 CHECK (attempts >= 0),
    done_at           TEXT,
    cancelled_at      TEXT,
    updated_at        TEXT    NOT NULL,
    UNIQUE (game_id, seat, decision_key),
    CHECK (reminders_sent <= json_array_length(reminder_ats)),  -- never more than planned
    CHECK (done_at IS NULL OR fired_at IS NOT NULL),
    CHECK (cancelled_at IS NULL OR done_at IS NULL)
);

-- What a start-up reloads and what the scheduler polls: the live rows only.
CREATE INDEX deadlines_live_next_at ON deadlines (next_at)
    WHERE done_at IS NULL AND cancelled_at IS NULL;
CREATE INDEX deadlines_live_game ON deadlines (game_id)
    WHERE done_at IS NULL AND cancelled_at IS NULL;

CREATE TABLE seat_clocks (
    game_id            INTEGER NOT NULL REFERENCES games (id),
    seat               TEXT    NOT NULL,
    missed_in_a_row    INTEGER NOT NULL DEFAULT 0 CHECK (missed_in_a_row >= 0),
    missed_total       INTEGER NOT NULL DEFAULT 0 CHECK (missed_total >= 0),
    time_bank_seconds  INTEGER NOT NULL DEFAULT 0 CHECK (time_bank_seconds >= 0),
    vacation_from      TEXT,
    vacation_until     TEXT,
    updated_at         TEXT    NOT NULL,
    PRIMARY KEY (game_id, seat),
    CHECK ((vacation_from IS NULL) = (vacation_until IS NULL))
);

CREATE TABLE user_settings (
    user_id     INTEGER PRIMARY KEY,
    settings    TEXT    NOT NULL DEFAULT '{}' CHECK (json_valid(settings)),
    updated_at  TEXT    NOT NULL
);

CREATE TABLE game_settings (
    game_id     INTEGER PRIMARY KEY REFERENCES games (id),
    settings    TEXT    NOT NULL DEFAULT '{}' CHECK (json_valid(settings)),
    updated_at  TEXT    NOT NULL
);

CREATE TABLE follows (
    game_id     INTEGER NOT NULL REFERENCES games (id),
    user_id     INTEGER NOT NULL,
    created_at  TEXT    NOT NULL,
    PRIMARY KEY (game_id, user_id)
);

CREATE INDEX follows_user_id ON follows (user_id);
