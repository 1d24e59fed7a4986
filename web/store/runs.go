package store

import (
	"context"
	"encoding/json"
	"fmt"
	"time"
	"unicode/utf8"

	"github.com/latencylab/latencylab/labs"
)

// Run is one finished lab run as saved for its learner.
type Run struct {
	ID        int64
	Learner   string
	Lab       string
	Params    labs.Values // validated knob values
	Summary   Summary
	CreatedAt time.Time
	// Panels are what the page showed at the end; nil for runs saved
	// before panels were kept, and not loaded by ListRuns.
	Panels *Panels
	// Reflection is the learner's one line on what surprised them.
	Reflection string
	// Engine names what made the run: "" is the bundled engine the
	// learner picked; otherwise an upstream server, or the bundled engine
	// modelling one beside it (at most MaxEngineRunes).
	Engine string
	// Seq numbers the learner's runs of one lab from 1, oldest first: the
	// "run #3" a learner sees. Set when reading, ignored when saving.
	Seq int
}

// Summary is what a run list shows: the final frame's headline figures, how
// the run ended and the learner's prediction.
type Summary struct {
	Stats      []labs.Stat `json:"stats"`
	Status     string      `json:"status,omitempty"`
	Error      string      `json:"error,omitempty"`
	Prediction *Prediction `json:"prediction,omitempty"`
	// Second is the second guess of a lab that asks for two. Summaries
	// are JSON, so runs saved before it read back with none: no schema
	// change.
	Second *Prediction `json:"second_prediction,omitempty"`
}

// Predictions are the run's guesses, the first then the second.
func (s Summary) Predictions() []Prediction {
	var out []Prediction
	for _, p := range []*Prediction{s.Prediction, s.Second} {
		if p != nil {
			out = append(out, *p)
		}
	}
	return out
}

// Prediction is the guess a learner entered before running.
type Prediction struct {
	Value float64 `json:"value"`
	Unit  string  `json:"unit,omitempty"`
	Stat  string  `json:"stat"` // the Stat key it is compared with
}

// MaxEngineRunes bounds a run's engine label.
const MaxEngineRunes = 300

// MaxListRuns bounds ListRuns.
const MaxListRuns = 100

// SaveRun stores a finished run and returns its id.
func (s *Store) SaveRun(ctx context.Context, r Run) (int64, error) {
	if err := checkID("lab", r.Lab); err != nil {
		return 0, err
	}
	if r.CreatedAt.IsZero() {
		return 0, fmt.Errorf("save run: %w: no time", ErrInvalid)
	}
	params, err := json.Marshal(r.Params)
	if err != nil {
		return 0, fmt.Errorf("save run: %w: params: %v", ErrInvalid, err)
	}
	if r.Params == nil {
		params = []byte("{}")
	}
	summary, err := json.Marshal(r.Summary)
	if err != nil {
		return 0, fmt.Errorf("save run: %w: summary: %v", ErrInvalid, err)
	}
	panels, err := encodePanels(r.Panels)
	if err != nil {
		return 0, fmt.Errorf("save run: %w: %v", ErrInvalid, err)
	}
	reflection, err := cleanReflection(r.Reflection)
	if err != nil {
		return 0, fmt.Errorf("save run: %w", err)
	}
	if utf8.RuneCountInString(r.Engine) > MaxEngineRunes {
		return 0, fmt.Errorf("save run: %w: engine label over %d characters", ErrInvalid, MaxEngineRunes)
	}
	if err := s.EnsureLearner(ctx, r.Learner, r.CreatedAt); err != nil {
		return 0, err
	}
	res, err := s.db.ExecContext(ctx, `INSERT INTO lab_runs (learner, lab, params, summary, created_at, panels, reflection, engine)
		VALUES (?, ?, ?, ?, ?, ?, ?, ?)`,
		r.Learner, r.Lab, string(params), string(summary), formatTime(r.CreatedAt), panels, reflection, r.Engine)
	if err != nil {
		return 0, fmt.Errorf("save run: %w", err)
	}
	id, err := res.LastInsertId()
	if err != nil {
		return 0, fmt.Errorf("save run: %w", err)
	}
	return id, nil
}

// ListRuns returns a learner's latest runs of one lab, newest first.
func (s *Store) ListRuns(ctx context.Context, learner, lab string, limit int) ([]Run, error) {
	if limit < 1 || limit > MaxListRuns {
		return nil, fmt.Errorf("list runs: %w: limit %d not in 1..%d", ErrInvalid, limit, MaxListRuns)
	}
	if learner == "" {
		return nil, nil
	}
	// Seq counts over all the learner's runs of the lab, so it is
	// numbered before the LIMIT cuts the list.
	rows, err := s.db.QueryContext(ctx, `SELECT id, params, summary, created_at, reflection, engine, seq FROM (
		SELECT id, params, summary, created_at, reflection, engine, created_at AS at,
			ROW_NUMBER() OVER (ORDER BY created_at, id) AS seq
		FROM lab_runs WHERE learner = ? AND lab = ?)
		ORDER BY at DESC, id DESC LIMIT ?`, learner, lab, limit)
	if err != nil {
		return nil, fmt.Errorf("list runs: %w", err)
	}
	defer rows.Close()
	var out []Run
	for rows.Next() {
		r := Run{Learner: learner, Lab: lab}
		var params, summary, at string
		if err := rows.Scan(&r.ID, &params, &summary, &at, &r.Reflection, &r.Engine, &r.Seq); err != nil {
			return nil, fmt.Errorf("list runs: %w", err)
		}
		if err := json.Unmarshal([]byte(params), &r.Params); err != nil {
			return nil, fmt.Errorf("list runs: run %d params: %w", r.ID, err)
		}
		if err := json.Unmarshal([]byte(summary), &r.Summary); err != nil {
			return nil, fmt.Errorf("list runs: run %d summary: %w", r.ID, err)
		}
		r.CreatedAt = parseTime(at)
		out = append(out, r)
	}
	if err := rows.Err(); err != nil {
		return nil, fmt.Errorf("list runs: %w", err)
	}
	return out, nil
}
