-- 0006_end_told.sql: whether a game's thread was told of an end that came without an
-- action (the outbox).
--
-- A resignation, a forfeit or an abort ends a started game without adding an action
-- to its log, so posted_seq cannot say whether its thread heard of it. games.end_told
-- is 0 from the moment such an end is committed (in the same UPDATE as the status)
-- until its line and the after-action report were posted (cogs/outbox.py posts them
-- after a crash). Every game of an older database was told.

ALTER TABLE games ADD COLUMN end_told INTEGER NOT NULL DEFAULT 1 CHECK (end_told IN (0, 1));
