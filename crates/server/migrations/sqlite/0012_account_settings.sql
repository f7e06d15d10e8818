-- What a person chose for their account (docs/server.md, "Mail"): the languages they
-- speak (shown on their page), an e-mail address and whether it is told when it is their
-- turn at a turn-based table. Public: the languages; private: the address.
CREATE TABLE account_settings (
    account_id TEXT PRIMARY KEY REFERENCES accounts (id) ON DELETE CASCADE,
    -- Language tags (BCP 47), comma-separated, the one spoken best first; '' for none.
    languages TEXT NOT NULL DEFAULT '',
    email TEXT,
    -- 1: send "it is your turn" mail to `email`.
    turn_mail INTEGER NOT NULL DEFAULT 0,
    -- The secret of the mail's unsubscribe link: it only stops the mail, so it is kept as
    -- it is (each mail names it).
    unsubscribe_key TEXT NOT NULL UNIQUE
);

-- The last "it is your turn" mail per table and person: at most one an hour, whichever
-- server process stored the move.
CREATE TABLE turn_mails (
    game_id TEXT NOT NULL REFERENCES games (id),
    account_id TEXT NOT NULL REFERENCES accounts (id) ON DELETE CASCADE,
    -- Unix milliseconds.
    sent BIGINT NOT NULL,
    PRIMARY KEY (game_id, account_id)
);
