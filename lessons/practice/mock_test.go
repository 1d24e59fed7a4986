package practice

import (
	"math/rand/v2"
	"testing"
	"time"
)

func TestPlanMockFavoursWeakLessons(t *testing.T) {
	lessons := []string{"time-to-first-token", "prefill-vs-decode", "batching", "moderation-and-streaming", "latency-budget",
		"streaming-through-the-stack", "parallel-steps", "levers", "timeouts-and-deadlines", "answering-the-latency-question"}
	weak := map[string]float64{"batching": 0, "levers": 0.1, "parallel-steps": 0.2}
	strength := func(l string) (float64, bool) {
		if s, ok := weak[l]; ok {
			return s, true
		}
		return 1, true
	}
	plan := PlanMock(rand.New(rand.NewPCG(1, 2)), lessons, strength)
	if len(plan.FollowUps) != 3 || len(plan.Estimates) != 4 || plan.Scenario == "" {
		t.Fatalf("plan = %+v, want a scenario, 3 follow-ups, 4 estimates", plan)
	}
	want := []string{"batching", "levers", "parallel-steps"}
	for i, id := range plan.FollowUps {
		var lesson string
		for _, f := range FollowUps() {
			if f.ID == id {
				lesson = f.Lesson
			}
		}
		if lesson != want[i] {
			t.Errorf("follow-up %d from %s, want %s (weakest first)", i, lesson, want[i])
		}
	}
	for _, e := range plan.Estimates[:3] {
		tm, _ := LookupTemplate(e.ID)
		if _, ok := weak[tm.Lesson]; !ok {
			t.Errorf("estimate %s from %s, not a weak lesson", e.ID, tm.Lesson)
		}
	}
}

func TestMockClock(t *testing.T) {
	t0 := time.Date(2026, 1, 1, 9, 0, 0, 0, time.UTC)
	for _, c := range []struct {
		name string
		m    MockClock
		now  time.Time
		want time.Duration
	}{
		{"running", MockClock{Started: t0, Minutes: 35}, t0.Add(5 * time.Minute), 30 * time.Minute},
		{"over", MockClock{Started: t0, Minutes: 1}, t0.Add(2 * time.Minute), -time.Minute},
		{"paused now", MockClock{Started: t0, Minutes: 35, PausedAt: t0.Add(10 * time.Minute)}, t0.Add(time.Hour), 25 * time.Minute},
		{"after a pause", MockClock{Started: t0, Minutes: 35, Paused: 10 * time.Minute}, t0.Add(20 * time.Minute), 25 * time.Minute},
	} {
		if got := c.m.Left(c.now); got != c.want {
			t.Errorf("%s: left %v, want %v", c.name, got, c.want)
		}
	}
}
