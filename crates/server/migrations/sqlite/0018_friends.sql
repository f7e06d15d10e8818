-- Friends (docs/server.md, "Friends"): a request from `asker` to `asked`, and once
-- accepted a friendship of both. One row per pair of people, whichever asked.
CREATE TABLE friendships (
    asker TEXT NOT NULL REFERENCES accounts (id) ON DELETE CASCADE,
    asked TEXT NOT NULL REFERENCES accounts (id) ON DELETE CASCADE,
    -- Unix milliseconds: when it was asked, and accepted (NULL: not answered yet).
    created BIGINT NOT NULL,
    accepted BIGINT,
    PRIMARY KEY (asker, asked),
    CHECK (asker <> asked)
);
CREATE UNIQUE INDEX friendships_pair ON friendships (min(asker, asked), max(asker, asked));
CREATE INDEX friendships_by_asked ON friendships (asked);

-- Who has a page of the site open (the bell's live stream), renewed while it is open; and
-- when each person was last seen (their last page closed).
CREATE TABLE site_presence (
    account_id TEXT NOT NULL,
    process TEXT NOT NULL,
    until BIGINT NOT NULL,
    PRIMARY KEY (account_id, process)
);
CREATE TABLE last_seen (
    account_id TEXT PRIMARY KEY REFERENCES accounts (id) ON DELETE CASCADE,
    at BIGINT NOT NULL
);
