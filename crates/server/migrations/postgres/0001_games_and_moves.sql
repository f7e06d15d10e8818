-- A game is a pure function of (config, seed, actions): the games row holds the first two,
-- the moves rows the third. The in-memory state is a cache rebuilt by replaying them.
CREATE TABLE games (
    id          TEXT PRIMARY KEY,
    game        TEXT NOT NULL,
    config      TEXT NOT NULL,           -- JSON
    seed        BIGINT NOT NULL,         -- u64 stored as its i64 bit pattern
    seed_chosen BIGINT NOT NULL,     -- 1 when the creator picked the seed
    created     BIGINT NOT NULL,         -- unix milliseconds
    status      TEXT NOT NULL CHECK (status IN ('open', 'running', 'over')),
    seats       TEXT NOT NULL,           -- JSON: [{kind, name, bot, token_hash}]
    version     BIGINT NOT NULL DEFAULT 0
);
CREATE INDEX games_by_status ON games (status, created);

-- (game_id, seq) is the primary key: of two racing moves for one position exactly one
-- is stored.
CREATE TABLE moves (
    game_id TEXT NOT NULL REFERENCES games (id),
    seq     BIGINT NOT NULL,
    seat    BIGINT NOT NULL,
    action  TEXT NOT NULL,               -- JSON
    at      BIGINT NOT NULL,             -- unix milliseconds
    PRIMARY KEY (game_id, seq)
);
