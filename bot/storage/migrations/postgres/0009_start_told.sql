-- 0009_start_told.sql (PostgreSQL): whether a game's thread was told that the game
-- began (the outbox).
--
-- The PostgreSQL dialect of ../0009_start_told.sql (an integer, 0 or 1, as there, so a
-- copy between the backends moves it as it is).

ALTER TABLE games ADD COLUMN start_told INTEGER NOT NULL DEFAULT 1 CHECK (start_told IN (0, 1));

-- What a restart and the outbox's sweep (every minute) read: the few untold games,
-- not a scan of every game ever played.
CREATE INDEX games_untold ON games (id)
    WHERE posted_seq < last_seq OR end_told = 0 OR start_told = 0;
