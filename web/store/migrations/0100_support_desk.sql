-- The support desk behind /chat and the pipeline labs: a knowledge base
-- searched with FTS5 (BM25), demo orders, and stored conversations.
-- Numbered 0100 so the web store's own migrations (0002, 0003, ...) never
-- collide with it. Rows of kb_* and orders are written by SeedSupportDesk
-- from embedded content, not here: SQL cannot read the embedded Markdown.

-- Which content version each seeded part holds, so a changed knowledge base
-- or order list is re-seeded and an unchanged one is left alone.
CREATE TABLE support_seed (
    part    TEXT PRIMARY KEY,   -- "kb" or "orders"
    version TEXT NOT NULL       -- hash of the content that was seeded
);

CREATE TABLE kb_articles (
    id    INTEGER PRIMARY KEY,
    slug  TEXT NOT NULL UNIQUE,
    title TEXT NOT NULL
);

CREATE TABLE kb_chunks (
    id      INTEGER PRIMARY KEY,
    article INTEGER NOT NULL REFERENCES kb_articles(id) ON DELETE CASCADE,
    seq     INTEGER NOT NULL,   -- position of the chunk within its article
    text    TEXT NOT NULL,
    UNIQUE (article, seq)
);

-- The search index: rowid = kb_chunks.id. It keeps its own copy of the title
-- and text (a few hundred short rows), so ranking needs no join and the
-- Porter stemmer lets "refunds" find "refund".
CREATE VIRTUAL TABLE kb_fts USING fts5(title, text, tokenize = 'porter unicode61');

CREATE TABLE orders (
    id         TEXT PRIMARY KEY,  -- e.g. NW-10452
    customer   TEXT NOT NULL,
    status     TEXT NOT NULL,
    items      TEXT NOT NULL,
    total      TEXT NOT NULL,
    placed_at  TEXT NOT NULL,
    shipped_at TEXT NOT NULL DEFAULT '',  -- '' until shipped
    carrier    TEXT NOT NULL DEFAULT '',
    tracking   TEXT NOT NULL DEFAULT ''
);

CREATE INDEX orders_by_customer ON orders (customer, placed_at DESC, id DESC);

CREATE TABLE conversations (
    id         TEXT PRIMARY KEY,  -- random, unguessable
    learner    TEXT NOT NULL REFERENCES learners(id) ON DELETE CASCADE,
    created_at TEXT NOT NULL
);

CREATE INDEX conversations_by_learner ON conversations (learner, created_at DESC);

CREATE TABLE messages (
    id            INTEGER PRIMARY KEY AUTOINCREMENT,
    conversation  TEXT NOT NULL REFERENCES conversations(id) ON DELETE CASCADE,
    role          TEXT NOT NULL,
    content       TEXT NOT NULL,
    status        TEXT NOT NULL,
    prompt_tokens INTEGER NOT NULL DEFAULT 0,
    output_tokens INTEGER NOT NULL DEFAULT 0,
    tier          TEXT NOT NULL DEFAULT '',
    created_at    TEXT NOT NULL
);

CREATE INDEX messages_by_conversation ON messages (conversation, id);
