-- A workshop is a room an instructor runs. The code is what learners type
-- to join; the instructor's secret is kept only as a SHA-256 hash (it is
-- 128 random bits, so a plain hash cannot be reversed by guessing).
CREATE TABLE workshops (
    code          TEXT PRIMARY KEY,
    name          TEXT NOT NULL,
    secret_hash   TEXT NOT NULL,
    size_cap      INTEGER NOT NULL,
    pushed_lab    TEXT NOT NULL DEFAULT '',
    pushed_preset TEXT NOT NULL DEFAULT '',
    pushed_at     TEXT NOT NULL DEFAULT '',
    push_seq      INTEGER NOT NULL DEFAULT 0,
    locked_at     TEXT NOT NULL DEFAULT '',   -- predictions closed since; '' while open
    revealed      INTEGER NOT NULL DEFAULT 0, -- learners see the room's results
    load_rps      REAL NOT NULL DEFAULT 0,    -- the load dial: synthetic requests/s
    created_at    TEXT NOT NULL,
    ended_at      TEXT NOT NULL DEFAULT ''
);

CREATE TABLE workshop_members (
    workshop  TEXT NOT NULL REFERENCES workshops(code) ON DELETE CASCADE,
    learner   TEXT NOT NULL REFERENCES learners(id) ON DELETE CASCADE,
    name      TEXT NOT NULL COLLATE NOCASE,
    joined_at TEXT NOT NULL,
    PRIMARY KEY (workshop, learner),
    UNIQUE (workshop, name)
);

-- A run a learner made inside a workshop: the lab_runs row holds the
-- settings and results; this ties it to the room, the preset pushed at the
-- time and how many other requests shared the engine's batch.
CREATE TABLE workshop_runs (
    run         INTEGER PRIMARY KEY REFERENCES lab_runs(id) ON DELETE CASCADE,
    workshop    TEXT NOT NULL REFERENCES workshops(code) ON DELETE CASCADE,
    learner     TEXT NOT NULL,
    preset      TEXT NOT NULL DEFAULT '',
    push_seq    INTEGER NOT NULL DEFAULT 0,
    shared_with INTEGER NOT NULL DEFAULT 0
);

CREATE INDEX workshop_runs_by_workshop ON workshop_runs (workshop, run);
