-- Notifications in the site (docs/server.md, "Notifications"): what a person is told by
-- the bell on every page, kept 30 days.
CREATE TABLE notifications (
    id BIGSERIAL PRIMARY KEY,
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

-- Every process hears a person's new notification, and their notifications read, so that
-- the bells of their pages connected to it change at once: "n <recipient>".
CREATE FUNCTION tabletop_notify_notification() RETURNS trigger AS $$
BEGIN
    PERFORM pg_notify('tabletop.' || TG_TABLE_SCHEMA, 'n ' || NEW.recipient);
    RETURN NULL;
END
$$ LANGUAGE plpgsql;

CREATE TRIGGER notifications_notify
    AFTER INSERT OR UPDATE OF read ON notifications
    FOR EACH ROW
    EXECUTE FUNCTION tabletop_notify_notification();
