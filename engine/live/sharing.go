package live

import (
	"time"

	"github.com/latencylab/latencylab/engine"
)

// Sharing says who else a request's steps served. On a shared engine other
// people's requests batch with yours: each step then computes more tokens
// and takes longer, which is what a learner on a busy workshop server pays.
// It is reported on a request's final event.
type Sharing struct {
	// Steps is the number of engine steps that computed any of the
	// request; SharedSteps of them also computed other requests.
	Steps, SharedSteps int
	// MaxBatch and MeanBatch are the most and the mean number of
	// sequences in the request's steps (itself included).
	MaxBatch  int
	MeanBatch float64
	// Others counts the distinct other requests that shared at least one
	// of its steps. A request that first ran while this one was preempted
	// and later shared a step with it is not counted: preemption is rare
	// and the figure is for a note, not a bill.
	Others int
	// SharedTime is the modelled time of the shared steps.
	SharedTime time.Duration
}

// shareTally is the runner's running count behind a stream's Sharing.
type shareTally struct {
	Sharing
	scheduled  bool // has been in a step
	batchTotal int  // sum of batch sizes over Steps
}

// tallySharing adds one step's batch to the tally of every stream in it.
// It is O(batch): a request first seen in this step meets everyone in the
// batch; one seen before meets only the step's newcomers, since everyone
// else was already in a step with it.
func (e *Engine) tallySharing(batch []engine.BatchEntry, dur time.Duration) {
	n := len(batch)
	newcomers := 0
	e.batchStreams = e.batchStreams[:0]
	for _, b := range batch {
		if st, ok := e.streams[b.ID]; ok {
			e.batchStreams = append(e.batchStreams, st)
			if !st.share.scheduled {
				newcomers++
			}
		} else if e.newToBatch(b.ID) {
			newcomers++
		}
	}
	for _, st := range e.batchStreams {
		t := &st.share
		if t.scheduled {
			t.Others += newcomers
		} else {
			t.scheduled = true
			t.Others += n - 1
		}
		t.Steps++
		t.batchTotal += n
		t.MaxBatch = max(t.MaxBatch, n)
		if n > 1 {
			t.SharedSteps++
			t.SharedTime += dur
		}
	}
}

// sharing is the finished tally.
func (t *shareTally) sharing() Sharing {
	s := t.Sharing
	if s.Steps > 0 {
		s.MeanBatch = float64(t.batchTotal) / float64(s.Steps)
	}
	return s
}
