-- 0010_message_content.sql (PostgreSQL): what a remembered message shows (its text as
-- the bot last sent it).
--
-- The PostgreSQL dialect of ../0010_message_content.sql.

ALTER TABLE messages ADD COLUMN content TEXT;
