package engine

import (
	"errors"
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
	// RecordTrace keeps every step's trace in the result.
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

// errStalled guards against a scheduler bug turning into an endless loop.
var errStalled = errors.New("simulate: engine made no progress")

// Simulate runs requests through a fresh engine on the virtual clock: each
// request is added when the clock reaches its Arrival, steps advance the
// clock by their modelled time, and idle gaps are skipped. It is
// deterministic for the same inputs and fails on the first invalid request.
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
	slices.SortStableFunc(order, func(a, b int) int { return int(reqs[a].Arrival - reqs[b].Arrival) })

	res := &SimResult{Requests: make([]RequestResult, len(reqs))}
	bySerial := make([]int, 0, len(reqs)) // serial → input index
	next, inflight, done := 0, 0, 0
	var first time.Duration
	if len(order) > 0 {
		first = reqs[order[0]].Arrival
	}
	// dispatch adds every request that has arrived, up to the concurrency
	// cap; the first `early` of them could have been sent on arrival, the
	// rest waited for a slot that freed at Now.
	dispatch := func(early int) error {
		for next < len(order) && reqs[order[next]].Arrival <= e.Now() {
			if opt.MaxConcurrency > 0 && inflight >= opt.MaxConcurrency {
				return nil
			}
			idx := order[next]
			r := reqs[idx]
			if early <= 0 {
				r.Arrival = e.Now()
			}
			early--
			if err := e.Add(r); err != nil {
				return fmt.Errorf("simulate: %w", err)
			}
			bySerial = append(bySerial, idx)
			rr := &res.Requests[idx]
			rr.ID, rr.Arrival = r.ID, r.Arrival
			rr.TokenTimes = make([]time.Duration, 0, r.targetOutput(cfg.Model.MaxContextLen))
			next++
			inflight++
		}
		return nil
	}
	free := func() int {
		if opt.MaxConcurrency == 0 {
			return len(reqs)
		}
		return opt.MaxConcurrency - inflight
	}
	for done < len(reqs) {
		if err := dispatch(len(reqs)); err != nil {
			return nil, err
		}
		at, ok := e.NextStepAt()
		if !ok || at > e.Now() {
			wake := at
			if next < len(order) && free() > 0 && (!ok || reqs[order[next]].Arrival < at) {
				wake = reqs[order[next]].Arrival
			} else if !ok {
				return nil, errStalled
			}
			e.AdvanceTo(wake)
			continue
		}
		early := free()
		step := e.Step()
		if opt.RecordTrace && len(step.Trace.Batch) > 0 {
			res.Trace = append(res.Trace, step.Trace.Clone())
		}
		for i := range step.Tokens {
			t := &step.Tokens[i]
			rr := &res.Requests[bySerial[t.Serial]]
			rr.TokenTimes = append(rr.TokenTimes, t.Time)
		}
		for i := range step.Finished {
			f := &step.Finished[i]
			rr := &res.Requests[bySerial[f.Serial]]
			rr.Timing, rr.Usage, rr.FinishReason, rr.Preemptions = f.Timing, f.Usage, f.FinishReason, f.Preemptions
			inflight--
			done++
		}
		if opt.afterStep != nil {
			if err := opt.afterStep(e, step); err != nil {
				return nil, fmt.Errorf("simulate: step %d: %w", step.Trace.Index, err)
			}
		}
		if len(step.Trace.Batch) == 0 && len(step.Finished) == 0 {
			return nil, errStalled
		}
		if err := dispatch(early); err != nil {
			return nil, err
		}
	}
	res.Stats = e.Stats()
	res.Duration = e.Now() - first
	return res, nil
}
