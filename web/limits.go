package web

import (
	"fmt"
	"net/http"
	"sync"
	"time"

	"github.com/latencylab/latencylab/engine/clock"
	"golang.org/x/time/rate"
)

// keyedLimiter is a token bucket per key (a learner or a client address),
// pruned of idle keys so the map stays small.
type keyedLimiter struct {
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

func newKeyedLimiter(perSecond float64, burst int) *keyedLimiter {
	return &keyedLimiter{perSecond: perSecond, burst: burst, buckets: map[string]*bucket{}}
}

// reserve takes one token for key at now. It returns 0 and an undo that
// gives the token back when allowed, and otherwise how long until a token
// is free (taking nothing).
func (l *keyedLimiter) reserve(key string, now time.Time) (wait time.Duration, undo func()) {
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
	b, ok := l.buckets[key]
	if !ok {
		b = &bucket{lim: rate.NewLimiter(rate.Limit(l.perSecond), l.burst)}
		l.buckets[key] = b
	}
	b.seen = now
	r := b.lim.ReserveN(now, 1)
	if !r.OK() {
		return time.Minute, nil
	}
	if d := r.DelayFrom(now); d > 0 {
		r.CancelAt(now)
		return d, nil
	}
	return 0, func() { r.CancelAt(now) }
}

// runLimiter caps concurrent lab runs and chat answers per learner, per
// client address and in total, and estimates when a slot will free up.
type runLimiter struct {
	perLearner, perAddr, total int
	clock                      clock.Clock

	mu        sync.Mutex
	byLearner map[string]int
	byAddr    map[string]int
	active    map[uint64]activeRun
	nextID    uint64
	typical   time.Duration // moving average of finished runs' lengths
}

type activeRun struct {
	learner, addr string
	start         time.Time
}

// limitKind says which cap refused a run.
type limitKind int

const (
	limitLearner limitKind = iota + 1
	limitAddr
	limitTotal
)

// runRefusal is a run refused at a cap, with when to try again.
type runRefusal struct {
	Kind       limitKind
	RetryAfter int // whole seconds, at least 1
}

// typicalRun is the guess before any run has finished.
const typicalRun = 10 * time.Second

func newRunLimiter(perLearner, perAddr, total int, clk clock.Clock) *runLimiter {
	return &runLimiter{perLearner: perLearner, perAddr: perAddr, total: total, clock: clk,
		byLearner: map[string]int{}, byAddr: map[string]int{}, active: map[uint64]activeRun{}, typical: typicalRun}
}

// acquire takes a slot for a run by learner from addr; learner "" (a
// request without a cookie) is held to the address and total caps only.
// Call release exactly once when refused is nil.
func (l *runLimiter) acquire(learner, addr string) (release func(), refused *runRefusal) {
	l.mu.Lock()
	defer l.mu.Unlock()
	now := l.clock.Now()
	switch {
	case learner != "" && l.byLearner[learner] >= l.perLearner:
		return nil, l.refusal(limitLearner, now, func(r activeRun) bool { return r.learner == learner })
	case l.byAddr[addr] >= l.perAddr:
		return nil, l.refusal(limitAddr, now, func(r activeRun) bool { return r.addr == addr })
	case len(l.active) >= l.total:
		return nil, l.refusal(limitTotal, now, func(activeRun) bool { return true })
	}
	l.nextID++
	id := l.nextID
	l.active[id] = activeRun{learner: learner, addr: addr, start: now}
	if learner != "" {
		l.byLearner[learner]++
	}
	l.byAddr[addr]++
	var once sync.Once
	return func() { once.Do(func() { l.release(id) }) }, nil
}

func (l *runLimiter) release(id uint64) {
	l.mu.Lock()
	defer l.mu.Unlock()
	r := l.active[id]
	delete(l.active, id)
	if r.learner != "" {
		if l.byLearner[r.learner]--; l.byLearner[r.learner] <= 0 {
			delete(l.byLearner, r.learner)
		}
	}
	if l.byAddr[r.addr]--; l.byAddr[r.addr] <= 0 {
		delete(l.byAddr, r.addr)
	}
	// An exponential moving average keeps the estimate current as the
	// mix of labs and settings changes over a class.
	l.typical = (3*l.typical + l.clock.Now().Sub(r.start)) / 4
}

// refusal estimates when the soonest of the matching runs ends, from how
// long runs have been taking: between 1 s and a minute.
func (l *runLimiter) refusal(kind limitKind, now time.Time, match func(activeRun) bool) *runRefusal {
	soonest := time.Minute
	for _, r := range l.active {
		if match(r) {
			soonest = min(soonest, l.typical-now.Sub(r.start))
		}
	}
	secs := int((soonest + time.Second - 1) / time.Second)
	return &runRefusal{Kind: kind, RetryAfter: min(max(secs, 1), 60)}
}

// error words the refusal for the learner; mine is the message for the
// learner's own cap, which differs between labs and chat.
func (r *runRefusal) error(mine string) error {
	msg := mine
	switch r.Kind {
	case limitAddr:
		msg = fmt.Sprintf("Too many runs are going from your network right now. Try again in %d s.", r.RetryAfter)
	case limitTotal:
		msg = fmt.Sprintf("The lab is busy, try again in %d s.", r.RetryAfter)
	}
	return &httpError{Status: http.StatusTooManyRequests, Title: "Busy", Message: msg, RetryAfter: r.RetryAfter}
}
