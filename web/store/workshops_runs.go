package store

import (
	"context"
	"encoding/json"
	"fmt"
)

// WorkshopRun is a lab run made inside a workshop, with the member's name.
type WorkshopRun struct {
	Run
	Name       string // the member's display name
	Preset     string // the preset pushed when the run was made
	PushSeq    int64  // the round it belongs to
	SharedWith int    // other requests in the engine's batch during the run
}

// SaveWorkshopRun ties a saved run to a workshop round.
func (s *Store) SaveWorkshopRun(ctx context.Context, code string, runID int64, learner, preset string, pushSeq int64, sharedWith int) error {
	if _, err := s.db.ExecContext(ctx, `INSERT INTO workshop_runs (run, workshop, learner, preset, push_seq, shared_with)
		VALUES (?, ?, ?, ?, ?, ?)`, runID, code, learner, preset, pushSeq, sharedWith); err != nil {
		return fmt.Errorf("save workshop run: %w", err)
	}
	return nil
}

// WorkshopRunsFilter picks runs: Round > 0 keeps one round; Limit > 0
// keeps the newest Limit (returned newest first), else all, oldest first.
type WorkshopRunsFilter struct {
	Round int64
	Limit int
}

// WorkshopRuns lists a workshop's runs.
func (s *Store) WorkshopRuns(ctx context.Context, code string, f WorkshopRunsFilter) ([]WorkshopRun, error) {
	q := `SELECT r.id, r.learner, r.lab, r.params, r.summary, r.created_at, coalesce(m.name, ''), w.preset, w.push_seq, w.shared_with
		FROM workshop_runs w JOIN lab_runs r ON r.id = w.run
		LEFT JOIN workshop_members m ON m.workshop = w.workshop AND m.learner = w.learner
		WHERE w.workshop = ?`
	args := []any{code}
	if f.Round > 0 {
		q += ` AND w.push_seq = ?`
		args = append(args, f.Round)
	}
	if f.Limit > 0 {
		q += ` ORDER BY r.id DESC LIMIT ?`
		args = append(args, f.Limit)
	} else {
		q += ` ORDER BY r.id`
	}
	rows, err := s.db.QueryContext(ctx, q, args...)
	if err != nil {
		return nil, fmt.Errorf("workshop runs: %w", err)
	}
	defer rows.Close()
	var out []WorkshopRun
	for rows.Next() {
		var r WorkshopRun
		var params, summary, at string
		if err := rows.Scan(&r.ID, &r.Learner, &r.Lab, &params, &summary, &at, &r.Name, &r.Preset, &r.PushSeq, &r.SharedWith); err != nil {
			return nil, fmt.Errorf("workshop runs: %w", err)
		}
		if err := json.Unmarshal([]byte(params), &r.Params); err != nil {
			return nil, fmt.Errorf("workshop runs: run %d params: %w", r.ID, err)
		}
		if err := json.Unmarshal([]byte(summary), &r.Summary); err != nil {
			return nil, fmt.Errorf("workshop runs: run %d summary: %w", r.ID, err)
		}
		r.CreatedAt = parseTime(at)
		out = append(out, r)
	}
	return out, rows.Err()
}
