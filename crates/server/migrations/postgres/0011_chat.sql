-- Chat at the table (docs/server.md, "Chat"): stored with the game, in the order of id.
CREATE TABLE chat_messages (
    id BIGSERIAL PRIMARY KEY,
    game_id TEXT NOT NULL REFERENCES games (id),
    -- 'players' (everyone reads it) or 'spectators' (the seats read it once it is over).
    channel TEXT NOT NULL,
    -- The writer's seat; NULL for a spectator.
    seat INTEGER,
    -- What a person mutes: seat-N, account-ID or guest-X.
    author TEXT NOT NULL,
    -- The seat's or account's name; NULL for a spectator who is not signed in.
    name TEXT,
    text TEXT NOT NULL,
    -- Moves stored when it was said.
    seq BIGINT NOT NULL,
    -- Unix milliseconds.
    at BIGINT NOT NULL
);
CREATE INDEX chat_messages_by_game ON chat_messages (game_id, id);

-- Other server processes on the database hear each message as it commits (0002):
-- payload "c <game id> <message id>".
CREATE FUNCTION tabletop_notify_chat() RETURNS trigger AS $$
BEGIN
    PERFORM pg_notify('tabletop.' || TG_TABLE_SCHEMA, 'c ' || NEW.game_id || ' ' || NEW.id);
    RETURN NULL;
END
$$ LANGUAGE plpgsql;

CREATE TRIGGER chat_notify
    AFTER INSERT ON chat_messages
    FOR EACH ROW
    EXECUTE FUNCTION tabletop_notify_chat();
