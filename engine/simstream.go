package engine

import (
	"errors"
	"fmt"
	"time"
)

// StreamResult is what a SimulateStream run returns once every request has
// been reported.
type StreamResult struct {
	// Duration is the time from the first arrival to the last token.
	Duration time.Duration
	Stats    Stats
}

// SimulateStream runs count requests through a fresh engine on the virtual
// clock, as Simulate does, in memory that does not grow with count: request
// builds the k-th request only when the clock nears its arrival (so prompts
// can be generated lazily), and finished reports each request's result as
// it ends, after which its memory is reused. Requests must come in
// nondecreasing Arrival order. finished must not keep r or r.TokenTimes.
//
// The engine holds at most a window of arrived requests waiting: at least
// twice what one step can admit and never fewer than MaxConcurrency, so every
// scheduling decision, and so every result, is the one Simulate makes.
func SimulateStream(cfg Config, count int, request func(k int) (Request, error), opt SimOptions,
	finished func(k int, r *RequestResult) error) (StreamResult, error) {
	e, err := New(cfg)
	if err != nil {
		return StreamResult{}, err
	}
	switch {
	case opt.MaxConcurrency < 0:
		return StreamResult{}, fmt.Errorf("simulate: max concurrency %d must not be negative", opt.MaxConcurrency)
	case opt.RecordTrace:
		return StreamResult{}, errors.New("simulate: a streamed run keeps no trace (use Simulate)")
	case count < 0:
		return StreamResult{}, fmt.Errorf("simulate: request count %d must not be negative", count)
	}
	sim := &simulation{
		e: e, opt: opt, count: count, finished: finished,
		window: max(2*max(cfg.MaxNumSeqs, cfg.BatchSize, 1), opt.MaxConcurrency),
	}
	last := time.Duration(-1)
	sim.request = func(k int) (Request, error) {
		r, err := request(k)
		if err != nil {
			return r, fmt.Errorf("simulate: request %d: %w", k, err)
		}
		if r.Arrival < last {
			return r, fmt.Errorf("simulate: request %s arrives at %v, before the one sent ahead of it (%v): want arrival order", r.ID, r.Arrival, last)
		}
		last = r.Arrival
		if err := e.ValidateRequest(&r); err != nil {
			return r, fmt.Errorf("simulate: %w", err)
		}
		return r, nil
	}
	if err := sim.run(); err != nil {
		return StreamResult{}, err
	}
	return StreamResult{Duration: e.Now() - sim.first, Stats: e.Stats()}, nil
}
