-- Tables that survive real life (issue 27):
-- * a table may be cancelled by its creator or expire unfilled: two more statuses;
-- * the creator's token is kept (hashed) to cancel it: `owner`;
-- * the table's own settings (the stand-in bot's strength, later its clock): `settings`;
-- * who plays a seat, and why, is logged: `seat_events`;
-- * a seat may take back a misclick: undo rows among the moves.
-- SQLite cannot change a CHECK constraint in place: the games table is rebuilt as SQLite's
-- documentation says (new table, copy, drop, rename), on the migrations' own connection,
-- where foreign keys are off (SqlStore::open): the moves' references to "games" then name
-- the new table.
CREATE TABLE games_new (
    id          TEXT PRIMARY KEY,
    game        TEXT NOT NULL,
    config      TEXT NOT NULL,
    seed        INTEGER NOT NULL,
    seed_chosen INTEGER NOT NULL,
    created     INTEGER NOT NULL,
    status      TEXT NOT NULL
                CHECK (status IN ('open', 'running', 'over', 'cancelled', 'expired')),
    seats       TEXT NOT NULL,
    version     INTEGER NOT NULL DEFAULT 0,
    data_digest TEXT REFERENCES data_files (digest),
    creator     TEXT,
    owner       TEXT,                     -- SHA-256 of the creator token, hex
    settings    TEXT NOT NULL DEFAULT '{}' -- JSON: TableSettings
);
INSERT INTO games_new (id, game, config, seed, seed_chosen, created, status, seats, version,
                       data_digest, creator)
    SELECT id, game, config, seed, seed_chosen, created, status, seats, version, data_digest,
           creator
    FROM games;
DROP TABLE games;
ALTER TABLE games_new RENAME TO games;
CREATE INDEX games_open_by_creator ON games (creator) WHERE status = 'open';
CREATE INDEX games_newest ON games (created, id);
CREATE INDEX games_by_status ON games (status, created, id);
CREATE INDEX games_by_game ON games (game, status, created, id);

-- n is the games row's version the change made: one event per change, in order.
CREATE TABLE seat_events (
    game_id TEXT NOT NULL REFERENCES games (id),
    n       INTEGER NOT NULL,
    event   TEXT NOT NULL,                -- JSON: SeatEvent
    PRIMARY KEY (game_id, n)
) WITHOUT ROWID;

-- An undo is a row of its own in the moves (moves are never deleted or rewritten): it
-- takes back the move stored at seq `undoes`; its action is null.
ALTER TABLE moves ADD COLUMN undoes INTEGER;
