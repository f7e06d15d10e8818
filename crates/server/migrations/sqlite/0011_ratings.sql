-- People's ratings per game (docs/server.md, "Ratings"): Weng-Lin mean and deviation.
CREATE TABLE ratings (
    account_id TEXT NOT NULL REFERENCES accounts (id) ON DELETE CASCADE,
    game TEXT NOT NULL,
    mu DOUBLE PRECISION NOT NULL,
    sigma DOUBLE PRECISION NOT NULL,
    -- Rated games played: the compare-and-set of every update.
    games BIGINT NOT NULL,
    -- Unix milliseconds.
    updated BIGINT NOT NULL,
    PRIMARY KEY (account_id, game)
);
CREATE INDEX ratings_by_game ON ratings (game);

-- The games whose end was rated: each is rated once, whichever process ends it.
CREATE TABLE rated_games (
    game_id TEXT PRIMARY KEY REFERENCES games (id),
    -- Unix milliseconds.
    at BIGINT NOT NULL
);
