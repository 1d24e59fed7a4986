-- A grading model's opinion of an open answer, kept beside the learner's
-- own ticks (never in place of them). verdicts is the JSON the web layer
-- writes; problem is why a grading failed ("" when it did not). A regrade
-- replaces the attempt's previous grading.
CREATE TABLE practice_gradings (
    attempt  INTEGER PRIMARY KEY REFERENCES practice_attempts(id) ON DELETE CASCADE,
    model    TEXT NOT NULL,
    verdicts TEXT NOT NULL DEFAULT '',
    problem  TEXT NOT NULL DEFAULT '',
    at       TEXT NOT NULL
);
