package store

import (
	"context"
	"errors"
	"strings"
	"testing"
	"time"
)

// Runs keep which engine made them; rows saved before the column read as
// the bundled engine (""), and an over-long label is refused.
func TestRunEngineRoundTrip(t *testing.T) {
	ctx := context.Background()
	s, _ := openTemp(t)
	if err := s.EnsureLearner(ctx, "alice", t0); err != nil {
		t.Fatal(err)
	}
	// A row as saved before migration 0174 names no engine.
	res, err := s.db.ExecContext(ctx, `INSERT INTO lab_runs (learner, lab, params, summary, created_at) VALUES (?, ?, ?, ?, ?)`,
		"alice", "streaming", `{}`, `{}`, formatTime(t0))
	if err != nil {
		t.Fatal(err)
	}
	oldID, _ := res.LastInsertId()
	for _, tc := range []struct {
		name, engine string
		err          bool
	}{
		{"old row", "", false},
		{"the server", "the server at http://gpu:8000/v1 (llama)", false},
		{"the model of it", "bundled engine modelling llama-3.1-8b on h100-sxm (bf16)", false},
		{"too long", strings.Repeat("x", MaxEngineRunes+1), true},
	} {
		t.Run(tc.name, func(t *testing.T) {
			id := oldID
			if tc.name != "old row" {
				id, err = s.SaveRun(ctx, Run{Learner: "alice", Lab: "streaming", CreatedAt: t0.Add(time.Second), Engine: tc.engine})
				if tc.err {
					if !errors.Is(err, ErrInvalid) {
						t.Fatalf("err %v, want ErrInvalid", err)
					}
					return
				}
				if err != nil {
					t.Fatal(err)
				}
			}
			r, err := s.GetRun(ctx, "alice", id)
			if err != nil || r.Engine != tc.engine {
				t.Fatalf("engine %q, %v; want %q", r.Engine, err, tc.engine)
			}
			list, err := s.ListRuns(ctx, "alice", "streaming", MaxListRuns)
			if err != nil || list[0].Engine != tc.engine {
				t.Errorf("newest listed engine %q, %v; want %q", list[0].Engine, err, tc.engine)
			}
		})
	}
}
