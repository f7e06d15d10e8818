-- Guests' seats, by browser (docs/server.md, "Notifications"): a guest's page names the
-- seats it holds (their tokens checked), so that their notifications (their turn, their
-- clock) reach that browser's bell. The browser as `browser-DIGEST` (the SHA-256 of its
-- id); the latest browser to name a seat keeps it.
CREATE TABLE browser_seats (
    game_id TEXT NOT NULL REFERENCES games (id),
    seat INTEGER NOT NULL,
    browser TEXT NOT NULL,
    -- Unix milliseconds.
    named BIGINT NOT NULL,
    PRIMARY KEY (game_id, seat)
);
