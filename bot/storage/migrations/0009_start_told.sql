-- 0009_start_told.sql: whether a game's thread was told that the game began (the
-- outbox).
--
-- A game's start adds no action to its log, so posted_seq cannot say whether its
-- thread heard of it: the first prompts, the picture and the seed commitment. A
-- crash between the start's commit and its post left the players unpinged, waiting
-- for a deadline. games.start_told is 0 from the moment the start is committed (in the
-- same UPDATE as the status) until the start's step was posted (any later mark_posted
-- too: a thread is told in order). cogs/outbox.py posts it after a crash. Every game
-- of an older database was told.

ALTER TABLE games ADD COLUMN start_told INTEGER NOT NULL DEFAULT 1 CHECK (start_told IN (0, 1));

-- What a restart and the outbox's sweep (every minute) read: the few untold games,
-- not a scan of every game ever played.
CREATE INDEX games_untold ON games (id)
    WHERE posted_seq < last_seq OR end_told = 0 OR start_told = 0;
