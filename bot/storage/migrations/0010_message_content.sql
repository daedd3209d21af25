-- 0010_message_content.sql: what a remembered message shows (its text as the bot last
-- sent it).
--
-- A DM's hand or a side's menu is closed once out of date: its buttons go and a line
-- under its text says why, an edit that needs the text. The bot used to fetch the
-- message from Discord first (or remember the text in one process's memory), a second
-- request on most moves and after every restart. The text now comes with the row, so
-- every process closes it in one request. NULL: a row written before this migration
-- (fetched as before).

ALTER TABLE messages ADD COLUMN content TEXT;
