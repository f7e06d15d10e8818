-- Seeks (docs/server.md, "Seeks and quick play"): a person asks for a game with these
-- settings; the server seats compatible seekers at a new table. A seek is matched once:
-- `game_id` is set in the transaction that stores the table, only where it was NULL, so
-- of two processes matching the same seeks at once one stores its table and the other
-- finds the seeks taken (its update waits for the first transaction's row locks, then
-- sees the new value) and stores nothing.
CREATE TABLE seeks (
    id TEXT PRIMARY KEY,
    -- The SHA-256 of the seek's token (its holder watches and cancels it).
    secret_hash TEXT NOT NULL,
    -- The SHA-256 of the seat token the seek's holder will play with (derived from the
    -- seek's token, which the server does not keep).
    seat_hash TEXT NOT NULL,
    -- Who posted it: 'account-ID', or 'address-DIGEST' for a guest.
    owner TEXT NOT NULL,
    -- The signed-in seeker's account; NULL for a guest.
    account_id TEXT REFERENCES accounts (id) ON DELETE CASCADE,
    -- The name the seeker sits at the table with.
    name TEXT NOT NULL,
    -- The account's rating in the game when it posted (NULL: a guest, or not rated yet).
    rating INTEGER,
    game TEXT NOT NULL,
    -- The seek's settings (players, clock, rated, rating range, languages, bot fill).
    spec TEXT NOT NULL,
    -- Unix milliseconds.
    created BIGINT NOT NULL,
    -- The seek is matched only until then; a live connection of its holder moves it on.
    alive_until BIGINT NOT NULL,
    -- The table it was matched to, and its seat there.
    game_id TEXT REFERENCES games (id),
    seat INTEGER
);
CREATE INDEX seeks_open ON seeks (game, created) WHERE game_id IS NULL;
CREATE INDEX seeks_by_owner ON seeks (owner) WHERE game_id IS NULL;

-- Every process hears a new seek (it may complete a table: "k <seek id>") and a seek
-- matched or withdrawn (its holder may be connected to another process: "s <seek id>").
CREATE FUNCTION tabletop_notify_seek() RETURNS trigger AS $$
BEGIN
    IF TG_OP = 'INSERT' THEN
        PERFORM pg_notify('tabletop.' || TG_TABLE_SCHEMA, 'k ' || NEW.id);
    ELSIF TG_OP = 'DELETE' THEN
        PERFORM pg_notify('tabletop.' || TG_TABLE_SCHEMA, 's ' || OLD.id);
    ELSIF NEW.game_id IS DISTINCT FROM OLD.game_id THEN
        PERFORM pg_notify('tabletop.' || TG_TABLE_SCHEMA, 's ' || NEW.id);
    END IF;
    RETURN NULL;
END
$$ LANGUAGE plpgsql;

CREATE TRIGGER seeks_notify
    AFTER INSERT OR UPDATE OR DELETE ON seeks
    FOR EACH ROW
    EXECUTE FUNCTION tabletop_notify_seek();
