package store

import (
	"context"
	"fmt"
	"time"
)

// PauseMock pauses a running mock; a mock may be paused once.
func (s *Store) PauseMock(ctx context.Context, learner string, id int64, at time.Time) error {
	m, err := s.Mock(ctx, learner, id)
	switch {
	case err != nil:
		return err
	case !m.Submitted.IsZero():
		return fmt.Errorf("pause mock %d: %w", id, ErrMockSubmitted)
	case m.PauseUsed:
		return fmt.Errorf("pause mock %d: %w", id, ErrPauseUsed)
	}
	if _, err := s.db.ExecContext(ctx, `UPDATE practice_mocks SET paused_at = ?, pause_used = 1 WHERE id = ? AND learner = ?`,
		formatTime(at), id, learner); err != nil {
		return fmt.Errorf("pause mock: %w", err)
	}
	return nil
}

// ResumeMock ends a mock's pause; resuming a running mock does nothing.
func (s *Store) ResumeMock(ctx context.Context, learner string, id int64, at time.Time) error {
	m, err := s.Mock(ctx, learner, id)
	if err != nil || m.PausedAt.IsZero() {
		return err
	}
	if _, err := s.db.ExecContext(ctx, `UPDATE practice_mocks SET paused_at = '', paused_ns = paused_ns + ? WHERE id = ? AND learner = ?`,
		int64(max(at.Sub(m.PausedAt), 0)), id, learner); err != nil {
		return fmt.Errorf("resume mock: %w", err)
	}
	return nil
}

// SubmitMock saves a mock's answers as practice attempts (one per item, in
// order; a nil entry leaves that item unanswered), links them and marks
// the mock submitted, late or not, in one transaction.
func (s *Store) SubmitMock(ctx context.Context, learner string, id int64, answers []*PracticeAttempt, late bool, at time.Time, next NextBox) error {
	for _, a := range answers {
		if a != nil {
			if err := checkAttempt(*a); err != nil {
				return err
			}
		}
	}
	tx, err := s.db.BeginTx(ctx, nil)
	if err != nil {
		return fmt.Errorf("submit mock: %w", err)
	}
	defer tx.Rollback()
	res, err := tx.ExecContext(ctx, `UPDATE practice_mocks SET submitted_at = ?, late = ?, paused_at = '' WHERE id = ? AND learner = ? AND submitted_at = ''`,
		formatTime(at), late, id, learner)
	if err != nil {
		return fmt.Errorf("submit mock: %w", err)
	}
	if n, _ := res.RowsAffected(); n == 0 {
		return fmt.Errorf("submit mock %d: %w", id, ErrMockSubmitted)
	}
	for i, a := range answers {
		if a == nil {
			continue
		}
		var score any
		if a.Scored {
			score = a.Score
		}
		r, err := tx.ExecContext(ctx, `INSERT INTO practice_attempts (learner, drill, seed, answer, value, correct, score, ticks, at)
			VALUES (?, ?, ?, ?, ?, ?, ?, '', ?)`, learner, a.Drill, int64(a.Seed), a.Answer, a.Value, a.Correct, score, formatTime(at))
		if err != nil {
			return fmt.Errorf("submit mock: answer %d: %w", i, err)
		}
		aid, _ := r.LastInsertId()
		if _, err := tx.ExecContext(ctx, `UPDATE practice_mock_items SET attempt = ? WHERE mock = ? AND position = ?`, aid, id, i); err != nil {
			return fmt.Errorf("submit mock: link %d: %w", i, err)
		}
		if a.Scored {
			if err := moveBox(ctx, tx, learner, a.Drill, a.Score, at, next); err != nil {
				return err
			}
		}
	}
	if err := tx.Commit(); err != nil {
		return fmt.Errorf("submit mock: commit: %w", err)
	}
	return nil
}
