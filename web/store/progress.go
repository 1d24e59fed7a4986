package store

import (
	"context"
	"fmt"
	"time"
)

// SetLessonDone marks a lesson done (or not done) for a learner.
func (s *Store) SetLessonDone(ctx context.Context, learner, lesson string, done bool, at time.Time) error {
	if err := checkID("lesson", lesson); err != nil {
		return err
	}
	if err := s.EnsureLearner(ctx, learner, at); err != nil {
		return err
	}
	var err error
	if done {
		_, err = s.db.ExecContext(ctx, `INSERT INTO lesson_progress (learner, lesson, done_at) VALUES (?, ?, ?)
			ON CONFLICT (learner, lesson) DO NOTHING`, learner, lesson, formatTime(at))
	} else {
		_, err = s.db.ExecContext(ctx, `DELETE FROM lesson_progress WHERE learner = ? AND lesson = ?`, learner, lesson)
	}
	if err != nil {
		return fmt.Errorf("set lesson %s done=%t: %w", lesson, done, err)
	}
	return nil
}

// DoneLessons returns the slugs of the lessons a learner has marked done,
// with when. An unknown learner has none.
func (s *Store) DoneLessons(ctx context.Context, learner string) (map[string]time.Time, error) {
	out := map[string]time.Time{}
	if learner == "" {
		return out, nil
	}
	rows, err := s.db.QueryContext(ctx, `SELECT lesson, done_at FROM lesson_progress WHERE learner = ?`, learner)
	if err != nil {
		return nil, fmt.Errorf("done lessons: %w", err)
	}
	defer rows.Close()
	for rows.Next() {
		var slug, at string
		if err := rows.Scan(&slug, &at); err != nil {
			return nil, fmt.Errorf("done lessons: %w", err)
		}
		out[slug] = parseTime(at)
	}
	if err := rows.Err(); err != nil {
		return nil, fmt.Errorf("done lessons: %w", err)
	}
	return out, nil
}
