package practice

import (
	"cmp"
	"math/rand/v2"
	"slices"
	"time"
)

// DefaultMockMinutes is a mock interview's length unless the learner
// picks another; MaxMockMinutes bounds the choice.
const (
	DefaultMockMinutes = 35
	MaxMockMinutes     = 120
)

// MockPlan is what one mock interview asks: a scenario question (a
// lesson's own drill), three follow-ups and four estimates, the last two
// drawn from the learner's weakest lessons.
type MockPlan struct {
	Scenario  string // lesson slug whose drill opens the interview
	FollowUps []string
	Estimates []MockEstimate
}

// MockEstimate is an estimation template with its drawn seed.
type MockEstimate struct {
	ID   string
	Seed uint64
}

// PlanMock picks a mock's questions. strength gives a lesson's average
// score so far (ok false when never scored, counted as 0.5); weaker
// lessons come first, ties broken by r so two mocks differ.
func PlanMock(r *rand.Rand, lessons []string, strength func(lesson string) (float64, bool)) MockPlan {
	type ranked struct {
		slug  string
		score float64
		tie   float64
	}
	order := make([]ranked, 0, len(lessons))
	for _, l := range lessons {
		s, ok := strength(l)
		if !ok {
			s = 0.5
		}
		order = append(order, ranked{l, s, r.Float64()})
	}
	slices.SortFunc(order, func(a, b ranked) int {
		return cmp.Or(cmp.Compare(a.score, b.score), cmp.Compare(a.tie, b.tie))
	})
	plan := MockPlan{Scenario: lessons[r.IntN(len(lessons))]}
	follow := FollowUps()
	for _, o := range order {
		if len(plan.FollowUps) == 3 {
			break
		}
		var mine []string
		for _, f := range follow {
			if f.Lesson == o.slug {
				mine = append(mine, f.ID)
			}
		}
		if len(mine) > 0 {
			plan.FollowUps = append(plan.FollowUps, mine[r.IntN(len(mine))])
		}
	}
	for _, o := range order {
		if len(plan.Estimates) == 4 {
			break
		}
		var mine []string
		for _, t := range templates {
			if t.Lesson == o.slug {
				mine = append(mine, t.ID)
			}
		}
		if len(mine) > 0 {
			plan.Estimates = append(plan.Estimates, MockEstimate{ID: mine[r.IntN(len(mine))], Seed: r.Uint64N(1_000_000)})
		}
	}
	return plan
}

// MockClock is a mock's timing: it started, may have been paused once,
// and ends Minutes of running time after it started.
type MockClock struct {
	Started  time.Time
	Minutes  int
	PausedAt time.Time     // zero unless paused now
	Paused   time.Duration // total of finished pauses
}

// Left is the running time left at now (negative when over).
func (m MockClock) Left(now time.Time) time.Duration {
	if !m.PausedAt.IsZero() {
		now = m.PausedAt
	}
	return time.Duration(m.Minutes)*time.Minute - (now.Sub(m.Started) - m.Paused)
}
