-- Practice attempts: every answer to a drill is a new row (history, never
-- overwritten). drill is "estimate/<template>" or "open/<question>". An
-- open answer's score stays NULL until the learner ticks the rubric.
CREATE TABLE practice_attempts (
    id       INTEGER PRIMARY KEY AUTOINCREMENT,
    learner  TEXT NOT NULL REFERENCES learners(id) ON DELETE CASCADE,
    drill    TEXT NOT NULL,
    seed     INTEGER NOT NULL DEFAULT 0,
    answer   TEXT NOT NULL,
    value    REAL NOT NULL DEFAULT 0,  -- the estimate in the drill's base unit
    correct  REAL NOT NULL DEFAULT 0,  -- the computed answer, same unit
    score    REAL,                     -- 0..1; NULL while not yet scored
    ticks    TEXT NOT NULL DEFAULT '', -- rubric points ticked, e.g. "0,2,3"
    at       TEXT NOT NULL
);
CREATE INDEX practice_attempts_by_drill ON practice_attempts (learner, drill, id);

-- The Leitner box each drill sits in for a learner, and when it is due.
CREATE TABLE practice_boxes (
    learner TEXT NOT NULL REFERENCES learners(id) ON DELETE CASCADE,
    drill   TEXT NOT NULL,
    box     INTEGER NOT NULL,
    due_at  TEXT NOT NULL,
    PRIMARY KEY (learner, drill)
);
