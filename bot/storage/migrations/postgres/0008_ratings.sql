-- 0008_ratings.sql (PostgreSQL): players' ratings, derived from the finished games.
--
-- The PostgreSQL dialect of ../0008_ratings.sql: rated_games is the ledger (every
-- finished game in the order the ratings took it in), ratings_cursor the ratings'
-- version (0 while it has no row; every write bumps it from the version its computation read: two processes
-- catching up at once take each step once), ratings the cache of each player's
-- current rating per system and scope (guild_id 0: global).

CREATE TABLE rated_games (
    seq         BIGINT      NOT NULL PRIMARY KEY CHECK (seq >= 1),
    game_id     BIGINT      NOT NULL UNIQUE REFERENCES games (id),
    created_at  TIMESTAMPTZ NOT NULL
);

CREATE TABLE ratings_cursor (
    id       INTEGER NOT NULL PRIMARY KEY CHECK (id = 1),
    version  BIGINT  NOT NULL CHECK (version >= 0)
);

CREATE TABLE ratings (
    system      TEXT             NOT NULL,
    guild_id    BIGINT           NOT NULL,
    user_id     BIGINT           NOT NULL,
    mu          DOUBLE PRECISION NOT NULL,
    sigma       DOUBLE PRECISION NOT NULL CHECK (sigma > 0),
    score       DOUBLE PRECISION NOT NULL,
    games       BIGINT           NOT NULL CHECK (games >= 1),
    wins        BIGINT           NOT NULL CHECK (wins >= 0),
    losses      BIGINT           NOT NULL CHECK (losses >= 0),
    updated_at  TIMESTAMPTZ      NOT NULL,
    PRIMARY KEY (system, guild_id, user_id),
    CHECK (wins + losses <= games)
);

CREATE INDEX ratings_board ON ratings (system, guild_id, score);
CREATE INDEX ratings_user_id ON ratings (user_id);
CREATE INDEX games_finished ON games (finished_at, id) WHERE status = 'finished';
