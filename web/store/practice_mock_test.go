package store

import (
	"context"
	"errors"
	"testing"
	"time"

	"github.com/latencylab/latencylab/lessons/practice"
)

func TestMockLifecycle(t *testing.T) {
	ctx := context.Background()
	s, _ := openTemp(t)
	ana, bo := learnerN(0), learnerN(1)
	id, err := s.CreateMock(ctx, Mock{Learner: ana, Started: t0, Minutes: 35,
		Items: []MockItem{{Drill: "open/levers"}, {Drill: "estimate/ttft-prompt", Seed: 9}}})
	if err != nil {
		t.Fatal(err)
	}
	if _, err := s.Mock(ctx, bo, id); !errors.Is(err, ErrMockNotFound) {
		t.Errorf("another learner's mock: %v, want ErrMockNotFound", err)
	}
	if err := s.PauseMock(ctx, ana, id, t0.Add(time.Minute)); err != nil {
		t.Fatal(err)
	}
	if err := s.ResumeMock(ctx, ana, id, t0.Add(4*time.Minute)); err != nil {
		t.Fatal(err)
	}
	if err := s.PauseMock(ctx, ana, id, t0.Add(5*time.Minute)); !errors.Is(err, ErrPauseUsed) {
		t.Errorf("second pause: %v, want ErrPauseUsed", err)
	}
	answers := []*PracticeAttempt{nil, {Drill: "estimate/ttft-prompt", Seed: 9, Answer: "1 s", Value: 1, Correct: 1, Score: 1, Scored: true}}
	if err := s.SubmitMock(ctx, ana, id, answers, true, t0.Add(40*time.Minute), practice.Review); err != nil {
		t.Fatal(err)
	}
	if err := s.SubmitMock(ctx, ana, id, answers, false, t0.Add(41*time.Minute), practice.Review); !errors.Is(err, ErrMockSubmitted) {
		t.Errorf("second submit: %v, want ErrMockSubmitted", err)
	}
	m, err := s.Mock(ctx, ana, id)
	if err != nil {
		t.Fatal(err)
	}
	if !m.Late || m.Paused != 3*time.Minute || !m.PauseUsed || m.Items[0].Attempt != nil || m.Items[1].Attempt == nil || m.Items[1].Attempt.Score != 1 {
		t.Errorf("mock = %+v", m)
	}
	if got, _ := s.PracticeAttempts(ctx, ana, "estimate/ttft-prompt", 5); len(got) != 1 {
		t.Errorf("mock answers are not in the history: %v", got)
	}
	if ms, err := s.Mocks(ctx, ana, 10); err != nil || len(ms) != 1 {
		t.Errorf("mocks = %v, %v", ms, err)
	}
}
