package web

import (
	"context"
	"sync"
)

// runningWork tracks streamed work that a Stop request may cancel, keyed
// by who owns it and what it is (learner and lab, learner and
// conversation). A key may hold several runs: a learner can run one lab
// twice at once.
type runningWork struct {
	mu    sync.Mutex
	next  uint64
	byKey map[string]*runSet
}

// runSet is one key's runs by id.
type runSet struct {
	cancels map[uint64]context.CancelCauseFunc
}

func newRunningWork() *runningWork { return &runningWork{byKey: map[string]*runSet{}} }

// add registers cancel under key. It reports how many runs the key held
// before this one, and returns the func that removes it again.
func (r *runningWork) add(key string, cancel context.CancelCauseFunc) (before int, remove func()) {
	r.mu.Lock()
	defer r.mu.Unlock()
	r.next++
	id := r.next
	set := r.byKey[key]
	if set == nil {
		set = &runSet{cancels: map[uint64]context.CancelCauseFunc{}}
		r.byKey[key] = set
	}
	before = len(set.cancels)
	set.cancels[id] = cancel
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
	r.mu.Lock()
	var cancels []context.CancelCauseFunc
	if set := r.byKey[key]; set != nil {
		for _, c := range set.cancels {
			cancels = append(cancels, c)
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
