-- The seats that belong to an account (docs/server.md, "Accounts"): a signed-in person
-- takes them from any browser, without the seat's token. A seat belongs to one account
-- at most; the seat's token keeps working too.
CREATE TABLE account_seats (
    game_id TEXT NOT NULL REFERENCES games (id),
    seat INTEGER NOT NULL,
    account_id TEXT NOT NULL REFERENCES accounts (id) ON DELETE CASCADE,
    PRIMARY KEY (game_id, seat)
);
CREATE INDEX account_seats_by_account ON account_seats (account_id);
