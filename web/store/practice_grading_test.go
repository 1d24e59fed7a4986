package store

import (
	"context"
	"errors"
	"testing"
	"time"

	"github.com/latencylab/latencylab/lessons/practice"
)

func TestPracticeGradingKeptWithAttempt(t *testing.T) {
	ctx := context.Background()
	s, _ := openTemp(t)
	ana, bo := learnerN(0), learnerN(1)
	id, err := s.SavePracticeAttempt(ctx, PracticeAttempt{Learner: ana, Drill: "open/ttft", Answer: "stream it", At: t0}, practice.Review)
	if err != nil {
		t.Fatal(err)
	}
	if _, found, err := s.PracticeGradingOf(ctx, ana, id); found || err != nil {
		t.Fatalf("before grading: found=%v err=%v, want none", found, err)
	}
	first := PracticeGrading{Attempt: id, Model: "m1", Verdicts: `{"verdicts":[]}`, At: t0}
	failed := PracticeGrading{Attempt: id, Model: "m2", Problem: "the grader did not answer", At: t0.Add(time.Minute)}
	keptWithProblem := PracticeGrading{Attempt: id, Model: "m1", Verdicts: first.Verdicts, Problem: failed.Problem, At: failed.At}
	second := PracticeGrading{Attempt: id, Model: "m3", Verdicts: `{"verdicts":[{"point":0}]}`, At: t0.Add(2 * time.Minute)}
	tests := []struct {
		name    string
		learner string
		g       PracticeGrading
		wantErr error
		want    PracticeGrading
	}{
		{"first grading", ana, first, nil, first},
		{"a failure keeps the verdicts", ana, failed, nil, keptWithProblem},
		{"a success replaces all", ana, second, nil, second},
		{"someone else's attempt", bo, PracticeGrading{Attempt: id, Model: "x", At: t0}, ErrAttemptNotFound, second},
		{"unknown attempt", ana, PracticeGrading{Attempt: id + 99, Model: "x", At: t0}, ErrAttemptNotFound, second},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if err := s.SavePracticeGrading(ctx, tt.learner, tt.g); !errors.Is(err, tt.wantErr) {
				t.Fatalf("save: %v, want %v", err, tt.wantErr)
			}
			got, found, err := s.PracticeGradingOf(ctx, ana, id)
			if err != nil || !found || got.Model != tt.want.Model || got.Verdicts != tt.want.Verdicts ||
				got.Problem != tt.want.Problem || !got.At.Equal(tt.want.At) {
				t.Fatalf("kept %+v (found %v, %v), want %+v", got, found, err, tt.want)
			}
			if _, found, _ := s.PracticeGradingOf(ctx, bo, id); found {
				t.Fatal("another learner can read the grading")
			}
		})
	}
}
