-- Notifications in the site (docs/server.md, "Notifications"): what a person is told by
-- the bell on every page, kept 30 days.
CREATE TABLE notifications (
    id INTEGER PRIMARY KEY AUTOINCREMENT,
    -- Whose: 'account-ID', or a guest's 'browser-DIGEST'.
    recipient TEXT NOT NULL,
    -- 'your_turn', 'seek_matched', 'clock_low', 'invitation' or 'friend_request'.
    kind TEXT NOT NULL,
    -- The name of the person it comes from (an invitation, a friend request).
    from_name TEXT,
    -- The table it is about, its game and the person's seat there (an invitation: the
    -- seat kept for them).
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
