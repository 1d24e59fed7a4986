package engine

import (
	"cmp"
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
	sim := newSimulation(e, reqs, opt)
	for sim.done < len(reqs) {
		if err := sim.sendArrived(sim.freeSlots()); err != nil {
			return nil, err
		}
		at, ok := e.NextStepAt()
		if !ok || at > e.Now() {
			if err := sim.skipIdle(at, ok); err != nil {
				return nil, err
			}
			continue
		}
		freeBefore := sim.freeSlots()
		if err := sim.collect(e.Step()); err != nil {
			return nil, err
		}
		// Requests that arrived during the step are sent at its end; only
		// those that found a slot free when they arrived keep their Arrival.
		if err := sim.sendArrived(freeBefore); err != nil {
			return nil, err
		}
	}
	sim.res.Stats = e.Stats()
	sim.res.Duration = e.Now() - sim.firstArrival()
	return sim.res, nil
}

// simulation is the client side of a Simulate run: it sends requests in
// arrival order within the concurrency cap and collects what steps return.
type simulation struct {
	e    *Engine
	reqs []Request
	opt  SimOptions
	res  *SimResult

	order    []int // input indices by arrival; order[next] is sent next
	next     int
	inflight int   // sent and not finished
	done     int   // finished
	bySerial []int // engine serial → input index
}

func newSimulation(e *Engine, reqs []Request, opt SimOptions) *simulation {
	order := make([]int, len(reqs))
	for i := range order {
		order[i] = i
	}
	slices.SortStableFunc(order, func(a, b int) int { return cmp.Compare(reqs[a].Arrival, reqs[b].Arrival) })
	return &simulation{
		e: e, reqs: reqs, opt: opt, order: order,
		res:      &SimResult{Requests: make([]RequestResult, len(reqs))},
		bySerial: make([]int, 0, len(reqs)),
	}
}

// firstArrival is when the earliest request arrived (0 with none).
func (sim *simulation) firstArrival() time.Duration {
	if len(sim.order) == 0 {
		return 0
	}
	return sim.reqs[sim.order[0]].Arrival
}

// freeSlots is how many more requests the concurrency cap lets in.
func (sim *simulation) freeSlots() int {
	if sim.opt.MaxConcurrency == 0 {
		return len(sim.reqs)
	}
	return sim.opt.MaxConcurrency - sim.inflight
}

// sendArrived adds every request that has arrived by Now while the cap
// allows. The first onTime of them keep their Arrival (a slot was free when
// they arrived); the rest waited for a slot that freed at Now, which becomes
// their Arrival, as vllm bench serve measures a held-back request.
func (sim *simulation) sendArrived(onTime int) error {
	now := sim.e.Now()
	for sim.next < len(sim.order) && sim.reqs[sim.order[sim.next]].Arrival <= now && sim.freeSlots() > 0 {
		idx := sim.order[sim.next]
		r := sim.reqs[idx]
		if onTime <= 0 {
			r.Arrival = now
		}
		onTime--
		if err := sim.e.Add(r); err != nil {
			return fmt.Errorf("simulate: %w", err)
		}
		sim.bySerial = append(sim.bySerial, idx)
		rr := &sim.res.Requests[idx]
		rr.ID, rr.Arrival = r.ID, r.Arrival
		rr.TokenTimes = make([]time.Duration, 0, r.targetOutput(sim.e.cfg.Model.MaxContextLen))
		sim.next++
		sim.inflight++
	}
	return nil
}

// skipIdle moves the clock over a gap with nothing to step: to the next
// arrival that may be sent, or to when the engine can next step (a static
// batch's wait ending), whichever comes first.
func (sim *simulation) skipIdle(stepAt time.Duration, canStep bool) error {
	wake := stepAt
	if sim.next < len(sim.order) && sim.freeSlots() > 0 {
		if arrival := sim.reqs[sim.order[sim.next]].Arrival; !canStep || arrival < stepAt {
			wake = arrival
		}
	} else if !canStep {
		return errStalled
	}
	sim.e.AdvanceTo(wake)
	return nil
}

// collect records one step's trace, tokens and finished requests.
func (sim *simulation) collect(step *StepResult) error {
	if sim.opt.RecordTrace && len(step.Trace.Batch) > 0 {
		sim.res.Trace = append(sim.res.Trace, step.Trace.Clone())
	}
	for i := range step.Tokens {
		t := &step.Tokens[i]
		rr := &sim.res.Requests[sim.bySerial[t.Serial]]
		rr.TokenTimes = append(rr.TokenTimes, t.Time)
	}
	for i := range step.Finished {
		f := &step.Finished[i]
		rr := &sim.res.Requests[sim.bySerial[f.Serial]]
		rr.Timing, rr.Usage, rr.FinishReason, rr.Preemptions = f.Timing, f.Usage, f.FinishReason, f.Preemptions
		sim.inflight--
		sim.done++
	}
	if sim.opt.afterStep != nil {
		if err := sim.opt.afterStep(sim.e, step); err != nil {
			return fmt.Errorf("simulate: step %d: %w", step.Trace.Index, err)
		}
	}
	if len(step.Trace.Batch) == 0 && len(step.Finished) == 0 {
		return errStalled
	}
	return nil
}
