-- The creator of a game waiting for players, so that one client address cannot fill the
-- lobby (`tabletop serve --open-tables-per-address`): the SHA-256 (hex) of the client's
-- address key (an IPv4 address, or an IPv6 address's /64 prefix), not the address. Kept
-- only while the game is open: every change of status away from 'open' erases it.
ALTER TABLE games ADD COLUMN creator TEXT;
CREATE INDEX games_open_by_creator ON games (creator) WHERE status = 'open';
