-- Tables that survive real life (issue 27):
-- * a table may be cancelled by its creator or expire unfilled: two more statuses;
-- * the creator's token is kept (hashed) to cancel it: `owner`;
-- * the table's own settings (the stand-in bot's strength, later its clock): `settings`;
-- * who plays a seat, and why, is logged: `seat_events`;
-- * a seat may take back a misclick: undo rows among the moves.
ALTER TABLE games DROP CONSTRAINT games_status_check;
ALTER TABLE games ADD CONSTRAINT games_status_check
    CHECK (status IN ('open', 'running', 'over', 'cancelled', 'expired'));
ALTER TABLE games ADD COLUMN owner TEXT;
ALTER TABLE games ADD COLUMN settings TEXT NOT NULL DEFAULT '{}';

-- n is the games row's version the change made: one event per change, in order.
CREATE TABLE seat_events (
    game_id TEXT NOT NULL REFERENCES games (id),
    n       BIGINT NOT NULL,
    event   TEXT NOT NULL,
    PRIMARY KEY (game_id, n)
);

-- An undo is a row of its own in the moves (moves are never deleted or rewritten): it
-- takes back the move stored at seq `undoes`; its action is null.
ALTER TABLE moves ADD COLUMN undoes BIGINT;
