-- Clocks (issue 27): when a game started (its seats all taken). Its clocks run from then
-- on; every bank and deadline follows from it, the steps' times and the seat events'.
ALTER TABLE games ADD COLUMN started INTEGER;

-- The server process that runs a running game's bots and clocks: it renews its lease
-- while it lives, and another process takes the game over once the lease has lapsed.
CREATE TABLE table_leases (
    game_id TEXT PRIMARY KEY REFERENCES games (id),
    owner   TEXT NOT NULL,   -- the process's random id
    until   INTEGER NOT NULL -- Unix milliseconds
);
