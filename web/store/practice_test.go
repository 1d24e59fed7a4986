package store

import (
	"context"
	"errors"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/latencylab/latencylab/lessons/practice"
)

func TestPracticeHistoryAndReviewBoxes(t *testing.T) {
	ctx := context.Background()
	s, _ := openTemp(t)
	ana, bo := learnerN(0), learnerN(1)
	day := 24 * time.Hour
	save := func(learner, drill string, score float64, scored bool, at time.Time) int64 {
		t.Helper()
		id, err := s.SavePracticeAttempt(ctx, PracticeAttempt{Learner: learner, Drill: drill, Seed: 1 << 63, Answer: "1.2 s",
			Value: 1.2, Correct: 1, Score: score, Scored: scored, At: at}, practice.Review)
		if err != nil {
			t.Fatal(err)
		}
		return id
	}
	save(ana, "estimate/ttft-prompt", 0, true, t0)
	save(ana, "estimate/ttft-prompt", 1, true, t0.Add(time.Minute))
	open := save(ana, "open/batching-0", 0, false, t0)
	save(bo, "estimate/ttft-prompt", 1, true, t0)

	got, err := s.PracticeAttempts(ctx, ana, "estimate/ttft-prompt", 10)
	if err != nil || len(got) != 2 || got[0].Score != 1 || got[1].Score != 0 || got[0].Seed != 1<<63 {
		t.Fatalf("history = %+v, %v; want both attempts, newest first, seed kept", got, err)
	}
	st, err := s.PracticeStatuses(ctx, ana)
	if err != nil {
		t.Fatal(err)
	}
	tests := []struct {
		drill    string
		want     PracticeStatus
		wantDue  time.Time
		hasScore bool
	}{
		// a miss then full marks: box 1 → 2, due three days after the second
		{"estimate/ttft-prompt", PracticeStatus{LastScore: 1, Scored: true, Attempts: 2, Box: 2}, t0.Add(time.Minute + 3*day), true},
		{"open/batching-0", PracticeStatus{Attempts: 1}, time.Time{}, false},
	}
	for _, c := range tests {
		g := st[c.drill]
		if g.Attempts != c.want.Attempts || g.Box != c.want.Box || g.Scored != c.hasScore || g.LastScore != c.want.LastScore || !g.Due.Equal(c.wantDue) {
			t.Errorf("%s: status %+v, want %+v due %v", c.drill, g, c.want, c.wantDue)
		}
	}
	// Ticking the open answer scores it once; ticking again corrects it without moving the box twice.
	if err := s.ScorePracticeAttempt(ctx, ana, open, []int{0, 2}, 0.4, t0, practice.Review); err != nil {
		t.Fatal(err)
	}
	if err := s.ScorePracticeAttempt(ctx, ana, open, []int{0, 1, 2, 3, 4}, 1, t0, practice.Review); err != nil {
		t.Fatal(err)
	}
	a, err := s.PracticeAttempt(ctx, ana, open)
	if err != nil || !slices.Equal(a.Ticks, []int{0, 1, 2, 3, 4}) || a.Score != 1 {
		t.Fatalf("open attempt = %+v, %v", a, err)
	}
	if st, _ := s.PracticeStatuses(ctx, ana); st["open/batching-0"].Box != 1 {
		t.Errorf("box after one scoring = %d, want 1 (partial from new)", st["open/batching-0"].Box)
	}
	if err := s.ScorePracticeAttempt(ctx, bo, open, nil, 1, t0, practice.Review); !errors.Is(err, ErrAttemptNotFound) {
		t.Errorf("scoring another learner's attempt: %v, want ErrAttemptNotFound", err)
	}
	due, err := s.DuePractice(ctx, ana, t0.Add(2*day))
	if err != nil || !slices.Equal(due, []string{"open/batching-0"}) {
		t.Errorf("due after two days = %v, %v; want only the open drill", due, err)
	}
	if due, _ := s.DuePractice(ctx, ana, t0.Add(5*day)); len(due) != 2 {
		t.Errorf("due after five days = %v, want both", due)
	}
}

func TestPracticeBadInput(t *testing.T) {
	ctx := context.Background()
	s, _ := openTemp(t)
	for _, a := range []PracticeAttempt{
		{Learner: learnerN(0), Drill: "", Answer: "x"},
		{Learner: learnerN(0), Drill: "estimate/x", Answer: "  "},
		{Learner: learnerN(0), Drill: "estimate/x", Answer: strings.Repeat("x", MaxAnswerLen+1)},
		{Learner: learnerN(0), Drill: "estimate/x", Answer: "\xff"},
		{Learner: learnerN(0), Drill: "estimate/x", Answer: "1 s", Scored: true, Score: 2},
	} {
		if _, err := s.SavePracticeAttempt(ctx, a, practice.Review); !errors.Is(err, ErrInvalid) {
			t.Errorf("save %+v: %v, want ErrInvalid", a, err)
		}
	}
	if got, _ := s.PracticeAttempts(ctx, learnerN(0), "", 10); len(got) != 0 {
		t.Errorf("bad attempts were saved: %v", got)
	}
}
