package web

import (
	"sync"
	"time"

	"golang.org/x/time/rate"
)

// learnerLimiter is a token bucket per learner, pruned of idle learners so
// the map stays small.
type learnerLimiter struct {
	mu        sync.Mutex
	perSecond float64
	burst     int
	buckets   map[string]*bucket
	lastPrune time.Time
}

type bucket struct {
	lim  *rate.Limiter
	seen time.Time
}

const idleBucket = 15 * time.Minute

func newLearnerLimiter(perSecond float64, burst int) *learnerLimiter {
	return &learnerLimiter{perSecond: perSecond, burst: burst, buckets: map[string]*bucket{}}
}

// reserve takes one token for learner at now; it returns 0 when allowed and
// otherwise how long until a token is free (taking nothing).
func (l *learnerLimiter) reserve(learner string, now time.Time) time.Duration {
	l.mu.Lock()
	defer l.mu.Unlock()
	if now.Sub(l.lastPrune) > idleBucket {
		for k, b := range l.buckets {
			if now.Sub(b.seen) > idleBucket {
				delete(l.buckets, k)
			}
		}
		l.lastPrune = now
	}
	b, ok := l.buckets[learner]
	if !ok {
		b = &bucket{lim: rate.NewLimiter(rate.Limit(l.perSecond), l.burst)}
		l.buckets[learner] = b
	}
	b.seen = now
	r := b.lim.ReserveN(now, 1)
	if !r.OK() {
		return time.Minute
	}
	if d := r.DelayFrom(now); d > 0 {
		r.CancelAt(now)
		return d
	}
	return 0
}

// runSlots caps concurrent runs per learner.
type runSlots struct {
	mu     sync.Mutex
	max    int
	active map[string]int
}

func newRunSlots(max int) *runSlots { return &runSlots{max: max, active: map[string]int{}} }

// acquire takes a slot; ok is false when the learner is at the cap. Call
// release exactly once when ok.
func (r *runSlots) acquire(learner string) (release func(), ok bool) {
	r.mu.Lock()
	defer r.mu.Unlock()
	if r.active[learner] >= r.max {
		return nil, false
	}
	r.active[learner]++
	var once sync.Once
	return func() {
		once.Do(func() {
			r.mu.Lock()
			defer r.mu.Unlock()
			if r.active[learner]--; r.active[learner] <= 0 {
				delete(r.active, learner)
			}
		})
	}, true
}
