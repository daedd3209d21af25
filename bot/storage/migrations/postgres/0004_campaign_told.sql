-- 0004_campaign_told.sql (PostgreSQL): what a campaign's thread has been told.
--
-- The PostgreSQL dialect of ../0004_campaign_told.sql: campaigns.told_seq is the seq
-- of the last log entry whose happenings the campaign's thread was sent.

ALTER TABLE campaigns ADD COLUMN told_seq BIGINT NOT NULL DEFAULT 0 CHECK (told_seq >= 0);
