-- The latency breakdown and sources shown under each chat answer, kept so a
-- reloaded conversation shows the same figures the learner saw live. The
-- data is opaque JSON owned by the chat page.
CREATE TABLE chat_figures (
    message_id INTEGER PRIMARY KEY REFERENCES messages(id) ON DELETE CASCADE,
    data       TEXT NOT NULL
);
