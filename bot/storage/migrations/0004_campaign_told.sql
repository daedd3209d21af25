-- 0004_campaign_told.sql: what a campaign's thread has been told.
--
-- campaigns.told_seq is the seq of the last log entry whose happenings (what the
-- campaign settled by itself: an Eagles in the Sky Encounter, a day's Evening) the
-- campaign's thread was sent; start-up sends those of the entries after it (a crash
-- between an entry and its post loses nothing). A database from the previous release
-- upgrades in place: its campaigns start at 0 and are brought up to date at start-up.

ALTER TABLE campaigns ADD COLUMN told_seq INTEGER NOT NULL DEFAULT 0 CHECK (told_seq >= 0);
