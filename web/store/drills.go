package store

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"strings"
	"time"
	"unicode/utf8"
)

// MaxAnswerLen bounds a drill answer in bytes.
const MaxAnswerLen = 8000

// SaveDrillAnswer stores (or replaces) a learner's answer to a lesson's drill.
func (s *Store) SaveDrillAnswer(ctx context.Context, learner, lesson, answer string, at time.Time) error {
	if err := checkID("lesson", lesson); err != nil {
		return err
	}
	answer = strings.TrimSpace(answer)
	switch {
	case answer == "":
		return fmt.Errorf("drill answer: %w: the answer is empty", ErrInvalid)
	case len(answer) > MaxAnswerLen:
		return fmt.Errorf("drill answer: %w: longer than %d bytes", ErrInvalid, MaxAnswerLen)
	case !utf8.ValidString(answer):
		return fmt.Errorf("drill answer: %w: not valid UTF-8", ErrInvalid)
	}
	if err := s.EnsureLearner(ctx, learner, at); err != nil {
		return err
	}
	if _, err := s.db.ExecContext(ctx, `INSERT INTO drill_answers (learner, lesson, answer, updated_at) VALUES (?, ?, ?, ?)
		ON CONFLICT (learner, lesson) DO UPDATE SET answer = excluded.answer, updated_at = excluded.updated_at`,
		learner, lesson, answer, formatTime(at)); err != nil {
		return fmt.Errorf("save drill answer: %w", err)
	}
	return nil
}

// DrillAnswer returns a learner's saved answer; ok is false when there is none.
func (s *Store) DrillAnswer(ctx context.Context, learner, lesson string) (answer string, ok bool, err error) {
	if learner == "" {
		return "", false, nil
	}
	err = s.db.QueryRowContext(ctx, `SELECT answer FROM drill_answers WHERE learner = ? AND lesson = ?`,
		learner, lesson).Scan(&answer)
	if errors.Is(err, sql.ErrNoRows) {
		return "", false, nil
	}
	if err != nil {
		return "", false, fmt.Errorf("drill answer: %w", err)
	}
	return answer, true, nil
}
