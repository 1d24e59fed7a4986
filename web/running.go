package web

import (
	"context"
	"strings"
	"sync"
	"time"

	"github.com/latencylab/latencylab/engine/clock"
)

// runningWork tracks streamed work that a Stop request may cancel, keyed
// by who owns it and what it is (learner and lab and the page's run token,
// learner and conversation). A key may hold several runs.
type runningWork struct {
	clock clock.Clock

	mu      sync.Mutex
	next    uint64
	byKey   map[string]*runSet
	pending map[string]stopRequest // stops that came before their run
}

// runSet is one key's runs by id.
type runSet struct {
	cancels map[uint64]context.CancelCauseFunc
}

// stopRequest is a Stop that found no run yet.
type stopRequest struct {
	cause error
	at    time.Time
}

// pendingStopLife is how long a Stop waits for the run it names: a Stop
// pressed the moment after Run can reach the server before the run does.
const pendingStopLife = time.Minute

func newRunningWork(clk clock.Clock) *runningWork {
	return &runningWork{clock: clock.Or(clk), byKey: map[string]*runSet{}, pending: map[string]stopRequest{}}
}

// add registers cancel under key. It reports how many runs the key held
// before this one, and returns the func that removes it again. A Stop
// already waiting for key cancels the run at once.
func (r *runningWork) add(key string, cancel context.CancelCauseFunc) (before int, remove func()) {
	r.mu.Lock()
	r.next++
	id := r.next
	set := r.byKey[key]
	if set == nil {
		set = &runSet{cancels: map[uint64]context.CancelCauseFunc{}}
		r.byKey[key] = set
	}
	before = len(set.cancels)
	set.cancels[id] = cancel
	stop, stopped := r.pending[key]
	delete(r.pending, key)
	r.mu.Unlock()
	if stopped {
		cancel(stop.cause)
	}
	return before, func() {
		r.mu.Lock()
		defer r.mu.Unlock()
		delete(set.cancels, id)
		if len(set.cancels) == 0 && r.byKey[key] == set {
			delete(r.byKey, key)
		}
	}
}

// cancel stops every run under key with cause and says how many it
// stopped.
func (r *runningWork) cancel(key string, cause error) int {
	return r.cancelWhere(func(k string) bool { return k == key }, cause)
}

// cancelPrefix stops every run whose key starts with prefix.
func (r *runningWork) cancelPrefix(prefix string, cause error) int {
	return r.cancelWhere(func(k string) bool { return strings.HasPrefix(k, prefix) }, cause)
}

// cancelOrRemember stops the runs under key, or, when none has started
// yet, keeps the stop for the run that registers under key next. Use it
// only with keys that name one run (a page's run token), so a stale stop
// cannot reach a later run.
func (r *runningWork) cancelOrRemember(key string, cause error) int {
	if n := r.cancel(key, cause); n > 0 {
		return n
	}
	r.mu.Lock()
	defer r.mu.Unlock()
	now := r.clock.Now()
	for k, p := range r.pending {
		if now.Sub(p.at) > pendingStopLife {
			delete(r.pending, k)
		}
	}
	r.pending[key] = stopRequest{cause: cause, at: now}
	return 0
}

func (r *runningWork) cancelWhere(match func(string) bool, cause error) int {
	r.mu.Lock()
	var cancels []context.CancelCauseFunc
	for k, set := range r.byKey {
		if match(k) {
			for _, c := range set.cancels {
				cancels = append(cancels, c)
			}
		}
	}
	r.mu.Unlock()
	for _, c := range cancels {
		c(cause)
	}
	return len(cancels)
}

// size is how many keys hold runs; tests check nothing leaks.
func (r *runningWork) size() int {
	r.mu.Lock()
	defer r.mu.Unlock()
	return len(r.byKey)
}
