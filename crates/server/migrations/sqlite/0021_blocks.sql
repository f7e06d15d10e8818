-- Blocks (docs/server.md, "Blocks"): `blocker` keeps `blocked` away. Neither sits at a
-- table the other sits at, nor is matched with the other; the blocked account's friend
-- requests never reach the blocker; the chat of each is hidden from the other.
CREATE TABLE blocks (
    blocker TEXT NOT NULL REFERENCES accounts (id) ON DELETE CASCADE,
    blocked TEXT NOT NULL REFERENCES accounts (id) ON DELETE CASCADE,
    -- Unix milliseconds.
    created BIGINT NOT NULL,
    PRIMARY KEY (blocker, blocked),
    CHECK (blocker <> blocked)
);
CREATE INDEX blocks_by_blocked ON blocks (blocked);

-- The account a chat message was written from (signed in), whose blocks hide it; NULL: a
-- guest's, or written before this was kept.
ALTER TABLE chat_messages ADD COLUMN account_id TEXT;
