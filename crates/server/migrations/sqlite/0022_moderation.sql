-- Moderation (docs/server.md, "Moderation"): who moderates, the reports people make with
-- the chat they point at kept as it was, every moderator's action (the audit log), and an
-- account's standing (muted or suspended until when, and why).
CREATE TABLE moderators (
    account_id TEXT PRIMARY KEY REFERENCES accounts (id) ON DELETE CASCADE,
    -- Unix milliseconds: since when (`tabletop admin moderator add`).
    since BIGINT NOT NULL
);

-- `state`: open, dismissed, or acted (a moderator acted on it).
CREATE TABLE reports (
    id TEXT PRIMARY KEY,
    reporter TEXT NOT NULL REFERENCES accounts (id) ON DELETE CASCADE,
    reported TEXT NOT NULL REFERENCES accounts (id) ON DELETE CASCADE,
    reason TEXT NOT NULL,
    details TEXT NOT NULL,
    game_id TEXT REFERENCES games (id),
    created BIGINT NOT NULL,
    state TEXT NOT NULL
);
CREATE INDEX reports_by_state ON reports (state, created);
CREATE INDEX reports_by_reporter ON reports (reporter, created);

-- The chat messages a report points at, copied when it is made: the evidence stays as it
-- was whatever happens to the chat later.
CREATE TABLE report_messages (
    report_id TEXT NOT NULL REFERENCES reports (id) ON DELETE CASCADE,
    message_id BIGINT NOT NULL,
    author TEXT NOT NULL,
    name TEXT,
    text TEXT NOT NULL,
    at BIGINT NOT NULL,
    PRIMARY KEY (report_id, message_id)
);

-- The audit log: who did what to whom, when and why. `action`: dismiss, warn, mute or
-- suspend; `until`: when a mute or suspension ends (NULL: a suspension for good, or an
-- action that does not last).
CREATE TABLE moderation_actions (
    id TEXT PRIMARY KEY,
    account_id TEXT NOT NULL REFERENCES accounts (id) ON DELETE CASCADE,
    moderator TEXT NOT NULL,
    moderator_name TEXT NOT NULL,
    action TEXT NOT NULL,
    reason TEXT NOT NULL,
    until BIGINT,
    report_id TEXT,
    created BIGINT NOT NULL
);
CREATE INDEX moderation_actions_by_account ON moderation_actions (account_id, created);
CREATE INDEX moderation_actions_by_time ON moderation_actions (created);

-- An account's standing: its chat muted until, its play suspended until (the largest
-- 64-bit integer: for good), and the moderators' reasons.
ALTER TABLE accounts ADD COLUMN muted_until BIGINT;
ALTER TABLE accounts ADD COLUMN muted_reason TEXT;
ALTER TABLE accounts ADD COLUMN suspended_until BIGINT;
ALTER TABLE accounts ADD COLUMN suspended_reason TEXT;

-- A reported account's recent chat, for the moderators' queue.
CREATE INDEX chat_messages_by_account ON chat_messages (account_id, id);
