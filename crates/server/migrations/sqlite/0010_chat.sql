-- Chat at the table (docs/server.md, "Chat"): stored with the game, in the order of id.
CREATE TABLE chat_messages (
    id INTEGER PRIMARY KEY,
    game_id TEXT NOT NULL REFERENCES games (id),
    -- 'players' (everyone reads it) or 'spectators' (the seats read it once it is over).
    channel TEXT NOT NULL,
    -- The writer's seat; NULL for a spectator.
    seat INTEGER,
    -- What a person mutes: seat-N, account-ID or guest-X.
    author TEXT NOT NULL,
    -- The seat's or account's name; NULL for a spectator who is not signed in.
    name TEXT,
    text TEXT NOT NULL,
    -- Moves stored when it was said.
    seq BIGINT NOT NULL,
    -- Unix milliseconds.
    at BIGINT NOT NULL
);
CREATE INDEX chat_messages_by_game ON chat_messages (game_id, id);
