-- Safety among strangers (issue 55).
--
-- Look-alike names: each account's name as look-alikes compare (Unicode TS #39's
-- confusable skeleton of its lower case, `names::name_skeleton`), which no two accounts
-- share. Accounts made before this have none until the server fills it in at start
-- (`SqlStore::fill_name_skeletons`); one whose skeleton another account has already keeps
-- none (both names stay as they were made).
ALTER TABLE accounts ADD COLUMN name_skeleton TEXT;
CREATE UNIQUE INDEX accounts_by_name_skeleton ON accounts (name_skeleton);

-- The messages a table's chat channel holds, counted as they are stored: a message is
-- stored only by the statement that raises its channel's count below the cap, so that
-- concurrent messages, from any process, never overshoot it (counting the rows first did:
-- 2,059 of a 2,000 cap).
CREATE TABLE chat_counts (
    game_id TEXT NOT NULL REFERENCES games (id),
    channel TEXT NOT NULL,
    messages INTEGER NOT NULL,
    PRIMARY KEY (game_id, channel)
);
INSERT INTO chat_counts (game_id, channel, messages)
    SELECT game_id, channel, COUNT(*) FROM chat_messages GROUP BY game_id, channel;
