-- 0008_ratings.sql: players' ratings, derived from the finished games.
--
-- Tables: rated_games (the ledger: every finished game, in the order the ratings took
-- it in), ratings_cursor (at most one row: the ratings' version, 0 while absent),
-- ratings (a cache: each player's current rating per system, on one server or
-- globally). Same conventions as 0001.
--
-- The ratings are derived (bot/ratings.py): replaying the ledger's games in seq order
-- from fresh ratings gives the stored numbers, so a corrected result is re-applied by
-- recomputing. Every write to the ratings (a game taken into the ledger with the
-- ratings it changed, or a recomputation replacing them all) is one transaction that
-- bumps ratings_cursor.version from the version its computation read (compare-and-set):
-- two processes catching up at once cannot both take a step, and a game is taken in
-- once (game_id is unique). A finished game not yet in the ledger is what the next
-- catch-up takes in, so a crash between a game's end and its ratings loses nothing.

CREATE TABLE rated_games (
    seq         INTEGER NOT NULL PRIMARY KEY CHECK (seq >= 1),
    game_id     INTEGER NOT NULL UNIQUE REFERENCES games (id),
    created_at  TEXT    NOT NULL
);

CREATE TABLE ratings_cursor (
    id       INTEGER NOT NULL PRIMARY KEY CHECK (id = 1),
    version  INTEGER NOT NULL CHECK (version >= 0)
);

-- One row per (system, scope, player); guild_id 0 is the global scope.
CREATE TABLE ratings (
    system      TEXT    NOT NULL,
    guild_id    INTEGER NOT NULL,
    user_id     INTEGER NOT NULL,
    mu          REAL    NOT NULL,
    sigma       REAL    NOT NULL CHECK (sigma > 0),
    score       REAL    NOT NULL,                  -- the board's order: mu - 3 sigma
    games       INTEGER NOT NULL CHECK (games >= 1),
    wins        INTEGER NOT NULL CHECK (wins >= 0),
    losses      INTEGER NOT NULL CHECK (losses >= 0),
    updated_at  TEXT    NOT NULL,
    PRIMARY KEY (system, guild_id, user_id),
    CHECK (wins + losses <= games)
);

CREATE INDEX ratings_board ON ratings (system, guild_id, score);
CREATE INDEX ratings_user_id ON ratings (user_id);
CREATE INDEX games_finished ON games (finished_at, id) WHERE status = 'finished';
