-- Notifications in the site (docs/server.md, "Notifications"): what a person is told by
-- the bell on every page, kept 30 days.
CREATE TABLE notifications (
    id INTEGER PRIMARY KEY AUTOINCREMENT,
    -- Whose: 'account-ID'.
    recipient TEXT NOT NULL,
    -- 'your_turn', 'seek_matched' or 'clock_low'.
    kind TEXT NOT NULL,
    -- The table it is about, its game and the person's seat there.
    game_id TEXT,
    game TEXT,
    seat INTEGER,
    -- Unix milliseconds.
    created BIGINT NOT NULL,
    -- 1: read.
    read INTEGER NOT NULL DEFAULT 0
);
CREATE INDEX notifications_by_recipient ON notifications (recipient, id);
CREATE INDEX notifications_by_age ON notifications (created);
