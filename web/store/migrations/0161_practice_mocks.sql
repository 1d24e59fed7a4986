-- A mock interview: a timed set of drills. Its answers are ordinary
-- practice attempts, linked from its items once submitted; a submission
-- after the time is kept and marked late.
CREATE TABLE practice_mocks (
    id           INTEGER PRIMARY KEY AUTOINCREMENT,
    learner      TEXT NOT NULL REFERENCES learners(id) ON DELETE CASCADE,
    started_at   TEXT NOT NULL,
    minutes      INTEGER NOT NULL,
    paused_at    TEXT NOT NULL DEFAULT '',  -- '' unless paused now
    paused_ns    INTEGER NOT NULL DEFAULT 0, -- finished pauses, total
    pause_used   INTEGER NOT NULL DEFAULT 0,
    submitted_at TEXT NOT NULL DEFAULT '',
    late         INTEGER NOT NULL DEFAULT 0
);
CREATE INDEX practice_mocks_by_learner ON practice_mocks (learner, id);

CREATE TABLE practice_mock_items (
    mock     INTEGER NOT NULL REFERENCES practice_mocks(id) ON DELETE CASCADE,
    position INTEGER NOT NULL,
    drill    TEXT NOT NULL,
    seed     INTEGER NOT NULL DEFAULT 0,
    attempt  INTEGER REFERENCES practice_attempts(id) ON DELETE SET NULL,
    PRIMARY KEY (mock, position)
);
