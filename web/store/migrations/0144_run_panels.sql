-- A reopened run shows the panels the learner saw at its end (charts, text,
-- tables), not just its summary row, and keeps the learner's one-line
-- reflection. Rows saved before this migration have no panels (NULL) and
-- list as before.
ALTER TABLE lab_runs ADD COLUMN panels TEXT;
ALTER TABLE lab_runs ADD COLUMN reflection TEXT NOT NULL DEFAULT '';
