-- Presence shared by the server processes on one database (docs/server.md, "Presence
-- across processes"): each process keeps here, for each human seat some tab of which is
-- connected to it, whether one of them is shown (online) or all are hidden (away); no row:
-- no tab of the seat there. A process renews its rows' `until` three times a lease's life;
-- the rows of a process that died lapse and are removed by the next renewal elsewhere.
-- Unlogged: a crash of the database loses presence, which the live processes write again
-- as it changes, and nothing else.
CREATE UNLOGGED TABLE presence (
    game_id TEXT NOT NULL,
    seat INTEGER NOT NULL,
    -- The process's random id.
    process TEXT NOT NULL,
    -- 1: away, 2: online.
    state SMALLINT NOT NULL,
    -- Unix milliseconds: the row counts until then.
    until BIGINT NOT NULL,
    PRIMARY KEY (game_id, seat, process)
);
CREATE INDEX presence_by_process ON presence (process);
CREATE INDEX presence_by_until ON presence (until);

-- Every process hears a seat's presence change in another ("p <game id>"); a renewal,
-- which changes only `until`, is not heard.
CREATE FUNCTION tabletop_notify_presence() RETURNS trigger AS $$
BEGIN
    IF TG_OP = 'DELETE' THEN
        PERFORM pg_notify('tabletop.' || TG_TABLE_SCHEMA, 'p ' || OLD.game_id);
    ELSIF TG_OP = 'INSERT' OR NEW.state IS DISTINCT FROM OLD.state THEN
        PERFORM pg_notify('tabletop.' || TG_TABLE_SCHEMA, 'p ' || NEW.game_id);
    END IF;
    RETURN NULL;
END
$$ LANGUAGE plpgsql;

CREATE TRIGGER presence_notify
    AFTER INSERT OR UPDATE OR DELETE ON presence
    FOR EACH ROW
    EXECUTE FUNCTION tabletop_notify_presence();
