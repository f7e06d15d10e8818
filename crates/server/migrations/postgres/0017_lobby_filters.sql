-- The lobby filters tables by their clock's kind, whether they may be rated and their
-- number of players (issue 54): columns of their own, set once when a table is created
-- (none of them changes afterwards), so that a filtered page is read with a condition
-- on a column rather than by parsing every row's JSON. Older rows take theirs from the
-- JSON here.
ALTER TABLE games ADD COLUMN clock_kind TEXT NOT NULL DEFAULT 'none'
    CHECK (clock_kind IN ('none', 'realtime', 'turn_based'));
-- 0: never rated (a hints or casual table); 1: rated once it ends with two people or more.
ALTER TABLE games ADD COLUMN may_be_rated BIGINT NOT NULL DEFAULT 1;
ALTER TABLE games ADD COLUMN players BIGINT NOT NULL DEFAULT 0;
UPDATE games SET
    clock_kind = COALESCE(settings::jsonb -> 'clock' ->> 'kind', 'none'),
    may_be_rated = CASE
        WHEN COALESCE((settings::jsonb ->> 'hints')::boolean, FALSE)
          OR COALESCE((settings::jsonb ->> 'casual')::boolean, FALSE) THEN 0
        ELSE 1 END,
    players = jsonb_array_length(seats::jsonb);
