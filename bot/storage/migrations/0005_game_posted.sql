-- 0005_game_posted.sql: what a game's thread has been told (the outbox).
--
-- games.posted_seq is the seq of the last action whose narration, picture and pings
-- Discord accepted in the game's thread. The actions after it are the outbox: the bot
-- posts them at start-up and after a failed send (cogs/outbox.py), so a crash between
-- a move and its post loses nothing. It only ever rises, and writing it does not bump
-- the game's version. The games of an older database were posted: they start at
-- their last seq.

ALTER TABLE games ADD COLUMN posted_seq INTEGER NOT NULL DEFAULT 0 CHECK (posted_seq >= 0);

UPDATE games SET posted_seq = last_seq;
