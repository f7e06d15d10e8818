-- `/healthz` and the start-up check write this row: a database that answers reads but
-- refuses writes (a read-only file, a full disk, a stuck writer) is not healthy.
CREATE TABLE health (
    id      INTEGER PRIMARY KEY,
    checked BIGINT NOT NULL               -- Unix milliseconds of the last check
);
