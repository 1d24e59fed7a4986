-- Learners are anonymous: the id is the random value of their cookie.
CREATE TABLE learners (
    id         TEXT PRIMARY KEY,
    created_at TEXT NOT NULL
);

CREATE TABLE lesson_progress (
    learner    TEXT NOT NULL REFERENCES learners(id) ON DELETE CASCADE,
    lesson     TEXT NOT NULL,
    done_at    TEXT NOT NULL,
    PRIMARY KEY (learner, lesson)
);

CREATE TABLE drill_answers (
    learner    TEXT NOT NULL REFERENCES learners(id) ON DELETE CASCADE,
    lesson     TEXT NOT NULL,
    answer     TEXT NOT NULL,
    updated_at TEXT NOT NULL,
    PRIMARY KEY (learner, lesson)
);

CREATE TABLE lab_runs (
    id         INTEGER PRIMARY KEY AUTOINCREMENT,
    learner    TEXT NOT NULL REFERENCES learners(id) ON DELETE CASCADE,
    lab        TEXT NOT NULL,
    params     TEXT NOT NULL,  -- JSON object of knob values
    summary    TEXT NOT NULL,  -- JSON: final stats, status, prediction
    created_at TEXT NOT NULL
);

CREATE INDEX lab_runs_by_learner_lab ON lab_runs (learner, lab, created_at DESC, id DESC);
