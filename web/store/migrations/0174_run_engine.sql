-- Which engine made each lab run: '' for the bundled engine (every run
-- saved before this column), else a label naming the upstream server or the
-- bundled engine modelling it. Additive: saved runs keep their rows.
ALTER TABLE lab_runs ADD COLUMN engine TEXT NOT NULL DEFAULT '';
