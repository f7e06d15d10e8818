-- Accounts (docs/server.md, "Accounts"): optional; guests keep playing with seat tokens.
CREATE TABLE accounts (
    id TEXT PRIMARY KEY,
    -- The name as shown (clean: NFKC, trimmed, nothing invisible).
    name TEXT NOT NULL,
    -- The name as compared: lower case, so that "Ana" and "ana" are one account.
    name_key TEXT NOT NULL UNIQUE,
    -- argon2id in the PHC string format (salt and parameters included); NULL for an
    -- account that signs in another way only.
    password_hash TEXT,
    -- Unix milliseconds.
    created BIGINT NOT NULL
);

-- Who is signed in where: one row per signed-in browser. Only the SHA-256 (hex) of the
-- cookie's secret is kept, so a leaked database signs nobody in.
CREATE TABLE sessions (
    token_hash TEXT PRIMARY KEY,
    account_id TEXT NOT NULL REFERENCES accounts (id) ON DELETE CASCADE,
    -- Unix milliseconds.
    created BIGINT NOT NULL,
    expires BIGINT NOT NULL
);
CREATE INDEX sessions_by_account ON sessions (account_id);
