-- The lobby lists games newest first, by (created, id), a page at a time from a cursor
-- on that pair, optionally of one game and of one status: each shape of the query reads
-- its page from an index in order rather than sorting every game (thousands of open
-- tables would otherwise be sorted on every look at the lobby).
DROP INDEX games_by_status;
CREATE INDEX games_newest ON games (created, id);
CREATE INDEX games_by_status ON games (status, created, id);
CREATE INDEX games_by_game ON games (game, status, created, id);
