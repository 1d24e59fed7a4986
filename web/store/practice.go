package store

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"math"
	"strconv"
	"strings"
	"time"
	"unicode/utf8"
)

// PracticeAttempt is one answer to a drill. Open answers are saved before
// they are scored; Scored says whether Score holds a value.
type PracticeAttempt struct {
	ID      int64
	Learner string
	Drill   string // "estimate/<template>" or "open/<question>"
	Seed    uint64
	Answer  string
	Value   float64 // the learner's estimate, in the drill's base unit
	Correct float64 // the computed answer, same unit
	Score   float64
	Scored  bool
	Ticks   []int // rubric points ticked
	At      time.Time
}

// NextBox is the spaced-review rule: from a drill's box (0 when new) and an
// attempt's score, the new box and when the drill is next due.
type NextBox func(box int, score float64, at time.Time) (int, time.Time)

// PracticeStatus is where a learner stands on one drill.
type PracticeStatus struct {
	LastScore float64
	Scored    bool
	Attempts  int
	Box       int
	Due       time.Time
}

func checkAttempt(a PracticeAttempt) error {
	if err := checkID("drill", a.Drill); err != nil {
		return err
	}
	switch {
	case strings.TrimSpace(a.Answer) == "":
		return fmt.Errorf("practice attempt: %w: the answer is empty", ErrInvalid)
	case len(a.Answer) > MaxAnswerLen:
		return fmt.Errorf("practice attempt: %w: longer than %d bytes", ErrInvalid, MaxAnswerLen)
	case !utf8.ValidString(a.Answer):
		return fmt.Errorf("practice attempt: %w: not valid UTF-8", ErrInvalid)
	case math.IsNaN(a.Value) || math.IsInf(a.Value, 0) || math.IsNaN(a.Correct) || math.IsInf(a.Correct, 0):
		return fmt.Errorf("practice attempt: %w: a value is not finite", ErrInvalid)
	case a.Scored && (a.Score < 0 || a.Score > 1):
		return fmt.Errorf("practice attempt: %w: score %v outside 0..1", ErrInvalid, a.Score)
	}
	return nil
}

// SavePracticeAttempt adds an attempt (never replacing an earlier one) and,
// when it is scored, moves the drill's review box by next, in one
// transaction. It returns the attempt's id.
func (s *Store) SavePracticeAttempt(ctx context.Context, a PracticeAttempt, next NextBox) (int64, error) {
	if err := checkAttempt(a); err != nil {
		return 0, err
	}
	if err := s.EnsureLearner(ctx, a.Learner, a.At); err != nil {
		return 0, err
	}
	tx, err := s.db.BeginTx(ctx, nil)
	if err != nil {
		return 0, fmt.Errorf("save practice attempt: %w", err)
	}
	defer tx.Rollback()
	var score any
	if a.Scored {
		score = a.Score
	}
	res, err := tx.ExecContext(ctx, `INSERT INTO practice_attempts (learner, drill, seed, answer, value, correct, score, ticks, at)
		VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)`, a.Learner, a.Drill, int64(a.Seed), strings.TrimSpace(a.Answer),
		a.Value, a.Correct, score, joinTicks(a.Ticks), formatTime(a.At))
	if err != nil {
		return 0, fmt.Errorf("save practice attempt: %w", err)
	}
	id, err := res.LastInsertId()
	if err != nil {
		return 0, fmt.Errorf("save practice attempt: %w", err)
	}
	if a.Scored {
		if err := moveBox(ctx, tx, a.Learner, a.Drill, a.Score, a.At, next); err != nil {
			return 0, err
		}
	}
	if err := tx.Commit(); err != nil {
		return 0, fmt.Errorf("save practice attempt: commit: %w", err)
	}
	return id, nil
}

// ErrAttemptNotFound is returned for an attempt id the learner does not own.
var ErrAttemptNotFound = errors.New("practice attempt not found")

// ScorePracticeAttempt records the rubric points a learner ticked on one of
// their open answers and its score. Only the first scoring moves the review
// box; ticking again corrects the ticks without counting twice.
func (s *Store) ScorePracticeAttempt(ctx context.Context, learner string, id int64, ticks []int, score float64, at time.Time, next NextBox) error {
	if score < 0 || score > 1 || math.IsNaN(score) {
		return fmt.Errorf("score practice attempt: %w: score %v outside 0..1", ErrInvalid, score)
	}
	tx, err := s.db.BeginTx(ctx, nil)
	if err != nil {
		return fmt.Errorf("score practice attempt: %w", err)
	}
	defer tx.Rollback()
	var drill string
	var was sql.NullFloat64
	err = tx.QueryRowContext(ctx, `SELECT drill, score FROM practice_attempts WHERE id = ? AND learner = ?`, id, learner).Scan(&drill, &was)
	if errors.Is(err, sql.ErrNoRows) {
		return fmt.Errorf("score practice attempt %d: %w", id, ErrAttemptNotFound)
	}
	if err != nil {
		return fmt.Errorf("score practice attempt: %w", err)
	}
	if _, err := tx.ExecContext(ctx, `UPDATE practice_attempts SET score = ?, ticks = ? WHERE id = ?`, score, joinTicks(ticks), id); err != nil {
		return fmt.Errorf("score practice attempt: %w", err)
	}
	if !was.Valid {
		if err := moveBox(ctx, tx, learner, drill, score, at, next); err != nil {
			return err
		}
	}
	if err := tx.Commit(); err != nil {
		return fmt.Errorf("score practice attempt: commit: %w", err)
	}
	return nil
}

func moveBox(ctx context.Context, tx *sql.Tx, learner, drill string, score float64, at time.Time, next NextBox) error {
	var box int
	err := tx.QueryRowContext(ctx, `SELECT box FROM practice_boxes WHERE learner = ? AND drill = ?`, learner, drill).Scan(&box)
	if err != nil && !errors.Is(err, sql.ErrNoRows) {
		return fmt.Errorf("review box: %w", err)
	}
	box, due := next(box, score, at)
	if _, err := tx.ExecContext(ctx, `INSERT INTO practice_boxes (learner, drill, box, due_at) VALUES (?, ?, ?, ?)
		ON CONFLICT (learner, drill) DO UPDATE SET box = excluded.box, due_at = excluded.due_at`,
		learner, drill, box, formatTime(due)); err != nil {
		return fmt.Errorf("review box: %w", err)
	}
	return nil
}

func joinTicks(ticks []int) string {
	parts := make([]string, len(ticks))
	for i, t := range ticks {
		parts[i] = strconv.Itoa(t)
	}
	return strings.Join(parts, ",")
}

func splitTicks(s string) []int {
	var out []int
	for _, p := range strings.Split(s, ",") {
		if n, err := strconv.Atoi(p); err == nil {
			out = append(out, n)
		}
	}
	return out
}
