-- 0006_end_told.sql (PostgreSQL): whether a game's thread was told of an end that
-- came without an action (the outbox).
--
-- The PostgreSQL dialect of ../0006_end_told.sql (an integer, 0 or 1, as there, so a
-- copy between the backends moves it as it is).

ALTER TABLE games ADD COLUMN end_told INTEGER NOT NULL DEFAULT 1 CHECK (end_told IN (0, 1));
