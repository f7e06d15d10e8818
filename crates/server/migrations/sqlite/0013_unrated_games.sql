-- A finished game of two or more people whose end was looked at and is not rated (hints,
-- a seat played by bots for too long, …) keeps a row with rated = 0: the sweep that
-- rates games whose process stopped before rating them passes it by.
ALTER TABLE rated_games ADD COLUMN rated INTEGER NOT NULL DEFAULT 1;
