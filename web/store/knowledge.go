package store

import (
	"context"
	"database/sql"
	"errors"
	"fmt"

	"github.com/latencylab/latencylab/engine/pipeline"
	"github.com/latencylab/latencylab/web/store/kb"
)

// The store is the pipeline's knowledge base, order service and conversation
// memory.
var (
	_ pipeline.Retriever = (*Store)(nil)
	_ pipeline.Orders    = (*Store)(nil)
	_ pipeline.History   = (*Store)(nil)
	_ pipeline.Messages  = (*Store)(nil)
)

// ErrNotSeeded means the support desk's knowledge base has not been loaded:
// SeedSupportDesk was not called after Open.
var ErrNotSeeded = errors.New("support desk not seeded")

// MaxRetrieve bounds k in Retrieve (the RAG lab's knob goes to 20).
const MaxRetrieve = 50

// bm25Weights ranks a match in an article's title above the same match in
// its text: the title says what the whole article is about. Column order is
// kb_fts(title, text).
const bm25Weights = "4.0, 1.0"

// SeedSupportDesk loads the bundled knowledge base and the demo orders into
// the database. It is idempotent and cheap when nothing changed: each part is
// stored with a version hash, and a part is replaced only when the embedded
// content differs from what the database holds. Call it once after Open.
func (s *Store) SeedSupportDesk(ctx context.Context) error {
	articles, version, err := kb.Load()
	if err != nil {
		return fmt.Errorf("seed support desk: %w", err)
	}
	if err := s.seedPart(ctx, "kb", version, func(tx *sql.Tx) error { return fillKB(ctx, tx, articles) }); err != nil {
		return fmt.Errorf("seed support desk: %w", err)
	}
	orders := demoOrders()
	if err := s.seedPart(ctx, "orders", ordersVersion(orders), func(tx *sql.Tx) error { return fillOrders(ctx, tx, orders) }); err != nil {
		return fmt.Errorf("seed support desk: %w", err)
	}
	return nil
}

// seedPart replaces one part's rows by fill unless the stored version equals
// version. The first statement writes, so the transaction takes SQLite's
// write lock up front (waiting out busy_timeout) and two processes seeding at
// once run one after the other instead of failing on a stale read.
func (s *Store) seedPart(ctx context.Context, part, version string, fill func(*sql.Tx) error) error {
	tx, err := s.db.BeginTx(ctx, nil)
	if err != nil {
		return fmt.Errorf("seed %s: %w", part, err)
	}
	defer tx.Rollback()
	if _, err := tx.ExecContext(ctx, `INSERT INTO support_seed (part, version) VALUES (?, '') ON CONFLICT (part) DO NOTHING`, part); err != nil {
		return fmt.Errorf("seed %s: %w", part, err)
	}
	var have string
	if err := tx.QueryRowContext(ctx, `SELECT version FROM support_seed WHERE part = ?`, part).Scan(&have); err != nil {
		return fmt.Errorf("seed %s: %w", part, err)
	}
	if have == version {
		return nil
	}
	if err := fill(tx); err != nil {
		return fmt.Errorf("seed %s: %w", part, err)
	}
	if _, err := tx.ExecContext(ctx, `UPDATE support_seed SET version = ? WHERE part = ?`, version, part); err != nil {
		return fmt.Errorf("seed %s: %w", part, err)
	}
	if err := tx.Commit(); err != nil {
		return fmt.Errorf("seed %s: commit: %w", part, err)
	}
	return nil
}

func fillKB(ctx context.Context, tx *sql.Tx, articles []kb.Article) error {
	for _, q := range []string{`DELETE FROM kb_fts`, `DELETE FROM kb_chunks`, `DELETE FROM kb_articles`} {
		if _, err := tx.ExecContext(ctx, q); err != nil {
			return fmt.Errorf("clear knowledge base: %w", err)
		}
	}
	insArticle, err := tx.PrepareContext(ctx, `INSERT INTO kb_articles (slug, title) VALUES (?, ?)`)
	if err != nil {
		return fmt.Errorf("prepare knowledge base insert: %w", err)
	}
	defer insArticle.Close()
	insChunk, err := tx.PrepareContext(ctx, `INSERT INTO kb_chunks (article, seq, text) VALUES (?, ?, ?)`)
	if err != nil {
		return fmt.Errorf("prepare knowledge base insert: %w", err)
	}
	defer insChunk.Close()
	insFTS, err := tx.PrepareContext(ctx, `INSERT INTO kb_fts (rowid, title, text) VALUES (?, ?, ?)`)
	if err != nil {
		return fmt.Errorf("prepare knowledge base insert: %w", err)
	}
	defer insFTS.Close()
	for _, a := range articles {
		res, err := insArticle.ExecContext(ctx, a.Slug, a.Title)
		if err != nil {
			return fmt.Errorf("article %s: %w", a.Slug, err)
		}
		articleID, err := res.LastInsertId()
		if err != nil {
			return fmt.Errorf("article %s: %w", a.Slug, err)
		}
		for i, c := range a.Chunks {
			res, err := insChunk.ExecContext(ctx, articleID, i, c)
			if err != nil {
				return fmt.Errorf("article %s chunk %d: %w", a.Slug, i, err)
			}
			chunkID, err := res.LastInsertId()
			if err != nil {
				return fmt.Errorf("article %s chunk %d: %w", a.Slug, i, err)
			}
			if _, err := insFTS.ExecContext(ctx, chunkID, a.Title, c); err != nil {
				return fmt.Errorf("index %s chunk %d: %w", a.Slug, i, err)
			}
		}
	}
	return nil
}

// Retrieve returns the k knowledge-base passages that best match query,
// best first, scored by BM25 (negated, so higher is better). The query is
// free user text: it is reduced to a safe OR of its search words (see
// kb.MatchExpr), so no input can produce an FTS5 syntax error. k is clamped
// to 0..MaxRetrieve; a query with no search words returns no chunks.
func (s *Store) Retrieve(ctx context.Context, query string, k int) ([]pipeline.Chunk, error) {
	if err := ctx.Err(); err != nil {
		return nil, fmt.Errorf("retrieve: %w", err)
	}
	k = min(max(k, 0), MaxRetrieve)
	expr := kb.MatchExpr(query)
	if k == 0 || expr == "" {
		return nil, nil
	}
	rows, err := s.db.QueryContext(ctx, `SELECT rowid, title, text, -bm25(kb_fts, `+bm25Weights+`) AS score
		FROM kb_fts WHERE kb_fts MATCH ? ORDER BY score DESC, rowid LIMIT ?`, expr, k)
	if err != nil {
		return nil, fmt.Errorf("retrieve: %w", err)
	}
	defer rows.Close()
	out := make([]pipeline.Chunk, 0, k)
	for rows.Next() {
		var c pipeline.Chunk
		if err := rows.Scan(&c.ID, &c.Article, &c.Text, &c.Score); err != nil {
			return nil, fmt.Errorf("retrieve: %w", err)
		}
		out = append(out, c)
	}
	if err := rows.Err(); err != nil {
		return nil, fmt.Errorf("retrieve: %w", err)
	}
	if len(out) == 0 {
		// An empty result is normal for an off-topic question, but an
		// unseeded knowledge base would look the same; say which it is.
		if _, err := s.seeded(ctx, "kb"); err != nil {
			return nil, fmt.Errorf("retrieve: %w", err)
		}
	}
	return out, nil
}

// seeded returns the version of a seeded part, or ErrNotSeeded.
func (s *Store) seeded(ctx context.Context, part string) (string, error) {
	var v string
	err := s.db.QueryRowContext(ctx, `SELECT version FROM support_seed WHERE part = ?`, part).Scan(&v)
	if errors.Is(err, sql.ErrNoRows) || (err == nil && v == "") {
		return "", ErrNotSeeded
	}
	return v, err
}

// KBStats describes the seeded knowledge base, for the RAG lab and /healthz.
type KBStats struct {
	Version  string // content hash of the seeded articles
	Articles int
	Chunks   int
}

// KnowledgeBaseStats counts the seeded articles and chunks.
func (s *Store) KnowledgeBaseStats(ctx context.Context) (KBStats, error) {
	v, err := s.seeded(ctx, "kb")
	if err != nil {
		return KBStats{}, fmt.Errorf("knowledge base stats: %w", err)
	}
	st := KBStats{Version: v}
	if err := s.db.QueryRowContext(ctx, `SELECT (SELECT count(*) FROM kb_articles), (SELECT count(*) FROM kb_chunks)`).
		Scan(&st.Articles, &st.Chunks); err != nil {
		return KBStats{}, fmt.Errorf("knowledge base stats: %w", err)
	}
	return st, nil
}
