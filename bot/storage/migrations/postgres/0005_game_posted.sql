-- 0005_game_posted.sql (PostgreSQL): what a game's thread has been told (the outbox).
--
-- The PostgreSQL dialect of ../0005_game_posted.sql: games.posted_seq is the seq of
-- the last action the game's thread was told; the games of an older database start at
-- their last seq.

ALTER TABLE games ADD COLUMN posted_seq BIGINT NOT NULL DEFAULT 0 CHECK (posted_seq >= 0);

UPDATE games SET posted_seq = last_seq;
