package store

import (
	"context"
	"database/sql"
	"encoding/json"
	"errors"
	"fmt"
	"strings"
	"unicode"
	"unicode/utf8"
)

// ErrRunNotFound is returned for a run id that does not exist or belongs to
// another learner; the two are not told apart, so ids reveal nothing.
var ErrRunNotFound = errors.New("run not found")

// MaxReflectionRunes bounds a reflection: one line, tweet-sized.
const MaxReflectionRunes = 280

// GetRun returns one of learner's runs with its panels, or ErrRunNotFound.
func (s *Store) GetRun(ctx context.Context, learner string, id int64) (Run, error) {
	r := Run{ID: id, Learner: learner}
	var params, summary, at string
	var panels sql.NullString
	err := s.db.QueryRowContext(ctx, `SELECT lab, params, summary, created_at, panels, reflection, engine,
		(SELECT count(*) FROM lab_runs o WHERE o.learner = r.learner AND o.lab = r.lab
			AND (o.created_at < r.created_at OR (o.created_at = r.created_at AND o.id <= r.id)))
		FROM lab_runs r WHERE id = ? AND learner = ?`, id, learner).
		Scan(&r.Lab, &params, &summary, &at, &panels, &r.Reflection, &r.Engine, &r.Seq)
	if errors.Is(err, sql.ErrNoRows) {
		return Run{}, fmt.Errorf("get run %d: %w", id, ErrRunNotFound)
	}
	if err != nil {
		return Run{}, fmt.Errorf("get run %d: %w", id, err)
	}
	if err := json.Unmarshal([]byte(params), &r.Params); err != nil {
		return Run{}, fmt.Errorf("get run %d: params: %w", id, err)
	}
	if err := json.Unmarshal([]byte(summary), &r.Summary); err != nil {
		return Run{}, fmt.Errorf("get run %d: summary: %w", id, err)
	}
	if panels.Valid && panels.String != "" {
		r.Panels = &Panels{}
		if err := json.Unmarshal([]byte(panels.String), r.Panels); err != nil {
			return Run{}, fmt.Errorf("get run %d: panels: %w", id, err)
		}
	}
	r.CreatedAt = parseTime(at)
	return r, nil
}

// SetReflection saves (or, when text is blank, removes) the reflection on
// one of learner's runs. It returns ErrRunNotFound for another learner's
// run and ErrInvalid for text over MaxReflectionRunes or with control
// characters.
func (s *Store) SetReflection(ctx context.Context, learner string, id int64, text string) error {
	clean, err := cleanReflection(text)
	if err != nil {
		return fmt.Errorf("set reflection: %w", err)
	}
	res, err := s.db.ExecContext(ctx, `UPDATE lab_runs SET reflection = ? WHERE id = ? AND learner = ?`, clean, id, learner)
	if err != nil {
		return fmt.Errorf("set reflection: %w", err)
	}
	n, err := res.RowsAffected()
	if err != nil {
		return fmt.Errorf("set reflection: %w", err)
	}
	if n == 0 {
		return fmt.Errorf("set reflection on run %d: %w", id, ErrRunNotFound)
	}
	return nil
}

// cleanReflection trims text, folds line breaks and runs of spaces into
// one space (it is shown as one line) and checks it is valid UTF-8 within
// MaxReflectionRunes.
func cleanReflection(text string) (string, error) {
	text = strings.Join(strings.Fields(text), " ")
	switch {
	case !utf8.ValidString(text):
		return "", fmt.Errorf("%w: reflection is not valid text", ErrInvalid)
	case utf8.RuneCountInString(text) > MaxReflectionRunes:
		return "", fmt.Errorf("%w: reflection over %d characters", ErrInvalid, MaxReflectionRunes)
	case strings.ContainsFunc(text, unicode.IsControl):
		return "", fmt.Errorf("%w: reflection has control characters", ErrInvalid)
	}
	return text, nil
}
