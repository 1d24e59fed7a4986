package store

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"time"
)

// PracticeGrading is a grading model's opinion of one open attempt.
type PracticeGrading struct {
	Attempt  int64
	Model    string
	Verdicts string // JSON written and read by the web layer; "" until one succeeds
	Problem  string // why the latest grading failed; "" when it did not
	At       time.Time
}

// SavePracticeGrading keeps a grading with a learner's attempt, replacing
// an earlier one, except that a failed grading (no verdicts) keeps the
// verdicts of an earlier success beside its problem, so a grader that is
// down cannot wipe an opinion already given. ErrAttemptNotFound when the
// attempt is not theirs.
func (s *Store) SavePracticeGrading(ctx context.Context, learner string, g PracticeGrading) error {
	if len(g.Verdicts)+len(g.Problem)+len(g.Model) > 4*MaxAnswerLen {
		return fmt.Errorf("save grading: %w: too long", ErrInvalid)
	}
	res, err := s.db.ExecContext(ctx, `INSERT INTO practice_gradings (attempt, model, verdicts, problem, at)
		SELECT id, ?, ?, ?, ? FROM practice_attempts WHERE id = ? AND learner = ?
		ON CONFLICT (attempt) DO UPDATE SET problem = excluded.problem, at = excluded.at,
			model = CASE WHEN excluded.verdicts = '' THEN model ELSE excluded.model END,
			verdicts = CASE WHEN excluded.verdicts = '' THEN verdicts ELSE excluded.verdicts END`,
		g.Model, g.Verdicts, g.Problem, formatTime(g.At), g.Attempt, learner)
	if err != nil {
		return fmt.Errorf("save grading of attempt %d: %w", g.Attempt, err)
	}
	if n, _ := res.RowsAffected(); n == 0 {
		return fmt.Errorf("save grading of attempt %d: %w", g.Attempt, ErrAttemptNotFound)
	}
	return nil
}

// PracticeGradingOf returns the grading kept with a learner's attempt;
// found is false when the attempt has none (or is not theirs).
func (s *Store) PracticeGradingOf(ctx context.Context, learner string, attempt int64) (g PracticeGrading, found bool, err error) {
	var at string
	err = s.db.QueryRowContext(ctx, `SELECT g.attempt, g.model, g.verdicts, g.problem, g.at
		FROM practice_gradings g JOIN practice_attempts a ON a.id = g.attempt
		WHERE g.attempt = ? AND a.learner = ?`, attempt, learner).Scan(&g.Attempt, &g.Model, &g.Verdicts, &g.Problem, &at)
	if errors.Is(err, sql.ErrNoRows) {
		return g, false, nil
	}
	if err != nil {
		return g, false, fmt.Errorf("grading of attempt %d: %w", attempt, err)
	}
	g.At = parseTime(at)
	return g, true, nil
}
