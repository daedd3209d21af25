-- 0003_campaigns.sql: campaigns, series of linked games ("missions").
--
-- Tables: campaigns (one row per campaign: its sheet, set-up, seed, status, version),
-- campaign_log (append-only: the decisions taken between missions, the missions'
-- outcomes, aborted missions), campaign_members (who plays which side), campaign_follows
-- (spectators). games gains campaign_id and mission: a mission is an ordinary game that
-- points at its campaign. Same conventions as 0001 (64-bit ids, ISO 8601 UTC text
-- timestamps of a fixed width, JSON objects as text checked by json_valid).
--
-- campaigns.version is bumped by every write to the campaign, its members or its log
-- (compare-and-set, like games.version); campaigns.last_seq is the seq of the last log
-- entry, so an append naming the seq it expects cannot be made twice for one step.

CREATE TABLE campaigns (
    id           INTEGER PRIMARY KEY AUTOINCREMENT,
    guild_id     INTEGER NOT NULL,
    channel_id   INTEGER NOT NULL,
    thread_id    INTEGER,
    host_id      INTEGER NOT NULL,
    system       TEXT    NOT NULL,              -- game system id, e.g. 'lockedon'
    campaign     TEXT    NOT NULL,              -- the campaign sheet's id
    status       TEXT    NOT NULL DEFAULT 'recruiting'
                 CHECK (status IN ('recruiting', 'active', 'finished', 'abandoned')),
    setup        TEXT    NOT NULL DEFAULT '{}' CHECK (json_valid(setup)),
    seed         INTEGER NOT NULL,
    version      INTEGER NOT NULL DEFAULT 0 CHECK (version >= 0),
    last_seq     INTEGER NOT NULL DEFAULT 0 CHECK (last_seq >= 0),
    created_at   TEXT    NOT NULL,
    updated_at   TEXT    NOT NULL,
    finished_at  TEXT,
    result       TEXT    CHECK (result IS NULL OR json_valid(result))
);

-- A campaign's home is its thread, or a channel of its own (a server's choice): one
-- live campaign per home; a finished one keeps its home's id (its history).
CREATE UNIQUE INDEX campaigns_live_thread_id ON campaigns (thread_id)
    WHERE thread_id IS NOT NULL AND status IN ('recruiting', 'active');
CREATE INDEX campaigns_thread_id ON campaigns (thread_id) WHERE thread_id IS NOT NULL;
CREATE INDEX campaigns_guild_status ON campaigns (guild_id, status);
CREATE INDEX campaigns_status ON campaigns (status);

CREATE TABLE campaign_log (
    campaign_id  INTEGER NOT NULL REFERENCES campaigns (id),
    seq          INTEGER NOT NULL CHECK (seq >= 1),
    kind         TEXT    NOT NULL CHECK (kind IN ('decision', 'outcome', 'aborted')),
    side         TEXT,                          -- the side concerned, if one
    entry        TEXT    NOT NULL,              -- decision: canonical text; outcome: JSON;
                                                -- aborted: the reason
    game_id      INTEGER REFERENCES games (id), -- the mission game it concerns
    user_id      INTEGER,                       -- who decided; NULL for the bot
    created_at   TEXT    NOT NULL,
    PRIMARY KEY (campaign_id, seq),
    CHECK (kind != 'outcome' OR json_valid(entry))
);

-- The campaign log is the campaign: append-only, like actions.
CREATE TRIGGER campaign_log_no_update BEFORE UPDATE ON campaign_log
BEGIN
    SELECT RAISE(ABORT, 'the campaign log is append-only');
END;

CREATE TRIGGER campaign_log_no_delete BEFORE DELETE ON campaign_log
BEGIN
    SELECT RAISE(ABORT, 'the campaign log is append-only');
END;

-- An entry about a mission names a game of the same campaign.
CREATE TRIGGER campaign_log_game_of_campaign BEFORE INSERT ON campaign_log
WHEN NEW.game_id IS NOT NULL
    AND (SELECT campaign_id FROM games WHERE id = NEW.game_id) IS NOT NEW.campaign_id
BEGIN
    SELECT RAISE(ABORT, 'campaign log entry names a game of another campaign');
END;

CREATE TABLE campaign_members (
    campaign_id   INTEGER NOT NULL REFERENCES campaigns (id),
    user_id       INTEGER NOT NULL,
    side          TEXT    NOT NULL,
    display_name  TEXT    NOT NULL,
    joined_at     TEXT    NOT NULL,
    PRIMARY KEY (campaign_id, user_id)
);

CREATE INDEX campaign_members_user_id ON campaign_members (user_id);

CREATE TABLE campaign_follows (
    campaign_id  INTEGER NOT NULL REFERENCES campaigns (id),
    user_id      INTEGER NOT NULL,
    created_at   TEXT    NOT NULL,
    PRIMARY KEY (campaign_id, user_id)
);

CREATE INDEX campaign_follows_user_id ON campaign_follows (user_id);

-- A mission is a game of a campaign. ADD COLUMN may carry REFERENCES because the
-- default is NULL: every existing game is a stand-alone one.
ALTER TABLE games ADD COLUMN campaign_id INTEGER REFERENCES campaigns (id);
ALTER TABLE games ADD COLUMN mission INTEGER CHECK (mission IS NULL OR mission >= 1);

CREATE INDEX games_campaign_id ON games (campaign_id) WHERE campaign_id IS NOT NULL;
