-- Several server processes may share one database. Each keeps the games its connections
-- watch in memory, so each must learn of the moves and seat changes the others store:
-- every committed change notifies the channel "tabletop.<schema>" (one per schema, so
-- that servers on different schemas of one database do not hear each other). A
-- notification is sent when its transaction commits, and only then.
--
-- Payloads: "m <game id> <moves stored>" after moves were stored, "g <game id>" after the
-- games row changed (seats, status).

CREATE FUNCTION tabletop_notify_moves() RETURNS trigger AS $$
BEGIN
    -- One notification per game however many of its moves the statement stored.
    PERFORM pg_notify('tabletop.' || TG_TABLE_SCHEMA, 'm ' || game_id || ' ' || (max(seq) + 1))
    FROM stored_moves
    GROUP BY game_id;
    RETURN NULL;
END
$$ LANGUAGE plpgsql;

CREATE TRIGGER moves_notify
    AFTER INSERT ON moves
    REFERENCING NEW TABLE AS stored_moves
    FOR EACH STATEMENT
    EXECUTE FUNCTION tabletop_notify_moves();

CREATE FUNCTION tabletop_notify_game() RETURNS trigger AS $$
BEGIN
    PERFORM pg_notify('tabletop.' || TG_TABLE_SCHEMA, 'g ' || NEW.id);
    RETURN NULL;
END
$$ LANGUAGE plpgsql;

CREATE TRIGGER games_notify
    AFTER UPDATE ON games
    FOR EACH ROW
    EXECUTE FUNCTION tabletop_notify_game();
