package store

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"time"
)

// Mock is a mock interview and its items in order.
type Mock struct {
	ID        int64
	Learner   string
	Started   time.Time
	Minutes   int
	PausedAt  time.Time // zero unless paused now
	Paused    time.Duration
	PauseUsed bool
	Submitted time.Time // zero until submitted
	Late      bool
	Items     []MockItem
}

// MockItem is one drill of a mock; Attempt is set once submitted.
type MockItem struct {
	Drill   string
	Seed    uint64
	Attempt *PracticeAttempt
}

// Errors of mock interviews.
var (
	ErrMockNotFound  = errors.New("mock interview not found")
	ErrMockSubmitted = errors.New("mock interview already submitted")
	ErrPauseUsed     = errors.New("the one pause of this mock interview is used")
)

// CreateMock saves a new mock with its items and returns its id.
func (s *Store) CreateMock(ctx context.Context, m Mock) (int64, error) {
	if m.Minutes < 1 || len(m.Items) == 0 {
		return 0, fmt.Errorf("create mock: %w: %d minutes, %d items", ErrInvalid, m.Minutes, len(m.Items))
	}
	if err := s.EnsureLearner(ctx, m.Learner, m.Started); err != nil {
		return 0, err
	}
	tx, err := s.db.BeginTx(ctx, nil)
	if err != nil {
		return 0, fmt.Errorf("create mock: %w", err)
	}
	defer tx.Rollback()
	res, err := tx.ExecContext(ctx, `INSERT INTO practice_mocks (learner, started_at, minutes) VALUES (?, ?, ?)`,
		m.Learner, formatTime(m.Started), m.Minutes)
	if err != nil {
		return 0, fmt.Errorf("create mock: %w", err)
	}
	id, err := res.LastInsertId()
	if err != nil {
		return 0, fmt.Errorf("create mock: %w", err)
	}
	for i, it := range m.Items {
		if _, err := tx.ExecContext(ctx, `INSERT INTO practice_mock_items (mock, position, drill, seed) VALUES (?, ?, ?, ?)`,
			id, i, it.Drill, int64(it.Seed)); err != nil {
			return 0, fmt.Errorf("create mock: item %d: %w", i, err)
		}
	}
	if err := tx.Commit(); err != nil {
		return 0, fmt.Errorf("create mock: commit: %w", err)
	}
	return id, nil
}

// Mock loads one of a learner's mocks with its items and their attempts.
func (s *Store) Mock(ctx context.Context, learner string, id int64) (Mock, error) {
	m := Mock{ID: id, Learner: learner}
	var started, pausedAt, submitted string
	var pausedNS int64
	err := s.db.QueryRowContext(ctx, `SELECT started_at, minutes, paused_at, paused_ns, pause_used, submitted_at, late
		FROM practice_mocks WHERE id = ? AND learner = ?`, id, learner).
		Scan(&started, &m.Minutes, &pausedAt, &pausedNS, &m.PauseUsed, &submitted, &m.Late)
	if errors.Is(err, sql.ErrNoRows) {
		return m, fmt.Errorf("mock %d: %w", id, ErrMockNotFound)
	}
	if err != nil {
		return m, fmt.Errorf("mock: %w", err)
	}
	m.Started, m.Paused = parseTime(started), time.Duration(pausedNS)
	if pausedAt != "" {
		m.PausedAt = parseTime(pausedAt)
	}
	if submitted != "" {
		m.Submitted = parseTime(submitted)
	}
	rows, err := s.db.QueryContext(ctx, `SELECT i.drill, i.seed, i.attempt FROM practice_mock_items i WHERE i.mock = ? ORDER BY i.position`, id)
	if err != nil {
		return m, fmt.Errorf("mock items: %w", err)
	}
	var attemptIDs []sql.NullInt64
	for rows.Next() {
		var it MockItem
		var seed int64
		var att sql.NullInt64
		if err := rows.Scan(&it.Drill, &seed, &att); err != nil {
			rows.Close()
			return m, fmt.Errorf("mock items: %w", err)
		}
		it.Seed = uint64(seed)
		m.Items = append(m.Items, it)
		attemptIDs = append(attemptIDs, att)
	}
	rows.Close()
	if err := rows.Err(); err != nil {
		return m, fmt.Errorf("mock items: %w", err)
	}
	for i, att := range attemptIDs {
		if att.Valid {
			a, err := s.PracticeAttempt(ctx, learner, att.Int64)
			if err != nil {
				return m, err
			}
			m.Items[i].Attempt = &a
		}
	}
	return m, nil
}

// Mocks lists a learner's mocks, oldest first, with items and attempts.
func (s *Store) Mocks(ctx context.Context, learner string, limit int) ([]Mock, error) {
	rows, err := s.db.QueryContext(ctx, `SELECT id FROM (SELECT id FROM practice_mocks WHERE learner = ? ORDER BY id DESC LIMIT ?) ORDER BY id`, learner, limit)
	if err != nil {
		return nil, fmt.Errorf("mocks: %w", err)
	}
	var ids []int64
	for rows.Next() {
		var id int64
		if err := rows.Scan(&id); err != nil {
			rows.Close()
			return nil, fmt.Errorf("mocks: %w", err)
		}
		ids = append(ids, id)
	}
	rows.Close()
	var out []Mock
	for _, id := range ids {
		m, err := s.Mock(ctx, learner, id)
		if err != nil {
			return nil, err
		}
		out = append(out, m)
	}
	return out, nil
}
