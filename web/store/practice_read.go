package store

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"time"
)

const attemptColumns = `id, learner, drill, seed, answer, value, correct, score, ticks, at`

func scanAttempt(row interface{ Scan(...any) error }) (PracticeAttempt, error) {
	var a PracticeAttempt
	var seed int64
	var score sql.NullFloat64
	var ticks, at string
	if err := row.Scan(&a.ID, &a.Learner, &a.Drill, &seed, &a.Answer, &a.Value, &a.Correct, &score, &ticks, &at); err != nil {
		return a, err
	}
	a.Seed, a.Score, a.Scored, a.Ticks, a.At = uint64(seed), score.Float64, score.Valid, splitTicks(ticks), parseTime(at)
	return a, nil
}

// PracticeAttempts lists a learner's attempts at one drill, newest first
// (all drills when drill is ""), at most limit of them.
func (s *Store) PracticeAttempts(ctx context.Context, learner, drill string, limit int) ([]PracticeAttempt, error) {
	if learner == "" {
		return nil, nil
	}
	rows, err := s.db.QueryContext(ctx, `SELECT `+attemptColumns+` FROM practice_attempts
		WHERE learner = ? AND (? = '' OR drill = ?) ORDER BY id DESC LIMIT ?`, learner, drill, drill, limit)
	if err != nil {
		return nil, fmt.Errorf("practice attempts: %w", err)
	}
	defer rows.Close()
	var out []PracticeAttempt
	for rows.Next() {
		a, err := scanAttempt(rows)
		if err != nil {
			return nil, fmt.Errorf("practice attempts: %w", err)
		}
		out = append(out, a)
	}
	return out, rows.Err()
}

// PracticeAttempt returns one of a learner's attempts by id.
func (s *Store) PracticeAttempt(ctx context.Context, learner string, id int64) (PracticeAttempt, error) {
	a, err := scanAttempt(s.db.QueryRowContext(ctx, `SELECT `+attemptColumns+` FROM practice_attempts WHERE id = ? AND learner = ?`, id, learner))
	if errors.Is(err, sql.ErrNoRows) {
		return a, fmt.Errorf("practice attempt %d: %w", id, ErrAttemptNotFound)
	}
	if err != nil {
		return a, fmt.Errorf("practice attempt: %w", err)
	}
	return a, nil
}

// PracticeStatuses gives, per drill the learner has tried, the last
// scored attempt's score, the number of attempts and the review box.
func (s *Store) PracticeStatuses(ctx context.Context, learner string) (map[string]PracticeStatus, error) {
	out := map[string]PracticeStatus{}
	if learner == "" {
		return out, nil
	}
	rows, err := s.db.QueryContext(ctx, `SELECT a.drill, count(*),
		(SELECT score FROM practice_attempts l WHERE l.learner = a.learner AND l.drill = a.drill AND l.score IS NOT NULL ORDER BY l.id DESC LIMIT 1),
		coalesce(b.box, 0), coalesce(b.due_at, '')
		FROM practice_attempts a LEFT JOIN practice_boxes b ON b.learner = a.learner AND b.drill = a.drill
		WHERE a.learner = ? GROUP BY a.drill`, learner)
	if err != nil {
		return nil, fmt.Errorf("practice statuses: %w", err)
	}
	defer rows.Close()
	for rows.Next() {
		var drill, due string
		var st PracticeStatus
		var last sql.NullFloat64
		if err := rows.Scan(&drill, &st.Attempts, &last, &st.Box, &due); err != nil {
			return nil, fmt.Errorf("practice statuses: %w", err)
		}
		st.LastScore, st.Scored = last.Float64, last.Valid
		if due != "" {
			st.Due = parseTime(due)
		}
		out[drill] = st
	}
	return out, rows.Err()
}

// DuePractice lists the drills whose review is due at now, most overdue first.
func (s *Store) DuePractice(ctx context.Context, learner string, now time.Time) ([]string, error) {
	if learner == "" {
		return nil, nil
	}
	rows, err := s.db.QueryContext(ctx, `SELECT drill FROM practice_boxes WHERE learner = ? AND due_at <= ? ORDER BY due_at, drill`,
		learner, formatTime(now))
	if err != nil {
		return nil, fmt.Errorf("due practice: %w", err)
	}
	defer rows.Close()
	var out []string
	for rows.Next() {
		var d string
		if err := rows.Scan(&d); err != nil {
			return nil, fmt.Errorf("due practice: %w", err)
		}
		out = append(out, d)
	}
	return out, rows.Err()
}
