package store

import (
	"context"
	"fmt"
	"time"
)

// MaxIDLen bounds learner ids and slugs accepted by the store.
const MaxIDLen = 128

// EnsureLearner records a learner id the first time it is seen. Every write
// calls it, so a page view alone never creates a row. The web layer writes
// only for a learner whose cookie came with the request, so a flood of
// cookie-less requests (each with a fresh id) creates none either.
func (s *Store) EnsureLearner(ctx context.Context, id string, at time.Time) error {
	if err := checkID("learner", id); err != nil {
		return err
	}
	if _, err := s.db.ExecContext(ctx, `INSERT OR IGNORE INTO learners (id, created_at) VALUES (?, ?)`,
		id, formatTime(at)); err != nil {
		return fmt.Errorf("ensure learner: %w", err)
	}
	return nil
}

func checkID(what, v string) error {
	if v == "" || len(v) > MaxIDLen {
		return fmt.Errorf("%s id %q: %w: want 1 to %d bytes", what, truncate(v, 40), ErrInvalid, MaxIDLen)
	}
	return nil
}

func truncate(s string, n int) string {
	if len(s) <= n {
		return s
	}
	return s[:n] + "…"
}
