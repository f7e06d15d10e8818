-- A game played on corrected component data (`tabletop serve --data`) names the data by its
-- content: the SHA-256 of the file's text, kept once however many games play on it. The
-- game replays on it whatever data the server is started with later.
CREATE TABLE data_files (
    digest TEXT PRIMARY KEY,              -- SHA-256 of text, hex
    game   TEXT NOT NULL,
    text   TEXT NOT NULL                  -- the data file (TOML)
);
ALTER TABLE games ADD COLUMN data_digest TEXT REFERENCES data_files (digest);
