package engine

import (
	"cmp"
	"fmt"
	"slices"
	"time"
)

// SimOptions shape a Simulate run.
type SimOptions struct {
	// MaxConcurrency caps requests in flight, like vllm bench serve's
	// --max-concurrency: a request arriving when the cap is reached is sent
	// when one finishes, and its Arrival becomes that time. 0 means no cap.
	MaxConcurrency int
	// RecordTrace keeps every step's trace in the result (Simulate only).
	RecordTrace bool

	// afterStep lets in-package tests check invariants after every step.
	afterStep func(*Engine, *StepResult) error
}

// RequestResult is one simulated request's outcome.
type RequestResult struct {
	ID string
	Timing
	// TokenTimes is every output token's engine time, in order.
	TokenTimes   []time.Duration
	Usage        Usage
	FinishReason string
	Preemptions  int
}

// TTFT is the time from arrival to the first token.
func (r *RequestResult) TTFT() time.Duration { return r.FirstToken - r.Arrival }

// E2E is the time from arrival to the last token.
func (r *RequestResult) E2E() time.Duration { return r.End - r.Arrival }

// SimResult is a whole run on the virtual clock.
type SimResult struct {
	Requests []RequestResult // in input order
	Trace    []StepTrace     // when SimOptions.RecordTrace
	// Duration is the time from the first arrival to the last token.
	Duration time.Duration
	Stats    Stats
}

// Simulate runs requests through a fresh engine on the virtual clock: each
// request is added when the clock reaches its Arrival, steps advance the
// clock by their modelled time, and idle gaps are skipped. It is
// deterministic for the same inputs and fails on the first invalid request.
// It keeps every request's result; SimulateStream runs in flat memory.
func Simulate(cfg Config, reqs []Request, opt SimOptions) (*SimResult, error) {
	e, err := New(cfg)
	if err != nil {
		return nil, err
	}
	if opt.MaxConcurrency < 0 {
		return nil, fmt.Errorf("simulate: max concurrency %d must not be negative", opt.MaxConcurrency)
	}
	for i := range reqs {
		if err := e.ValidateRequest(&reqs[i]); err != nil {
			return nil, fmt.Errorf("simulate: %w", err)
		}
	}
	order := make([]int, len(reqs))
	for i := range order {
		order[i] = i
	}
	slices.SortStableFunc(order, func(a, b int) int { return cmp.Compare(reqs[a].Arrival, reqs[b].Arrival) })
	res := &SimResult{Requests: make([]RequestResult, len(reqs))}
	sim := &simulation{
		e: e, opt: opt, count: len(reqs),
		request: func(k int) (Request, error) { return reqs[order[k]], nil },
		finished: func(k int, rr *RequestResult) error {
			res.Requests[order[k]] = *rr
			rr.TokenTimes = nil // the result now owns the slice
			return nil
		},
	}
	if err := sim.run(); err != nil {
		return nil, err
	}
	res.Trace = sim.trace
	res.Stats = e.Stats()
	res.Duration = e.Now() - sim.first
	return res, nil
}
