package engine

import (
	"errors"
	"fmt"
	"time"
)

// errStalled guards against a scheduler bug turning into an endless loop.
var errStalled = errors.New("simulate: engine made no progress")

// simulation is the client side of a Simulate or SimulateStream run: it
// sends requests in arrival order within the concurrency cap and the
// waiting window, and collects what steps return into reusable slots.
type simulation struct {
	e        *Engine
	opt      SimOptions
	count    int
	request  func(k int) (Request, error)         // the k-th request by arrival
	finished func(k int, rr *RequestResult) error // rr's memory is reused after
	window   int                                  // most requests waiting in the engine; 0: no limit

	pending    Request // the next request, built early to know its arrival
	hasPending bool
	first      time.Duration // the first request's arrival
	next       int           // requests sent
	inflight   int           // sent and not finished
	done       int           // finished
	trace      []StepTrace

	bySerial []int32 // engine serial → slot
	slots    []RequestResult
	slotK    []int   // slot → request number k
	free     []int32 // slots not in use
}

// run drives the engine until every request has finished.
func (sim *simulation) run() error {
	e := sim.e
	for sim.done < sim.count {
		if err := sim.sendArrived(sim.freeSlots()); err != nil {
			return err
		}
		at, ok := e.NextStepAt()
		if !ok || at > e.Now() {
			if err := sim.skipIdle(at, ok); err != nil {
				return err
			}
			continue
		}
		freeBefore := sim.freeSlots()
		if err := sim.collect(e.Step()); err != nil {
			return err
		}
		// Requests that arrived during the step are sent at its end; only
		// those that found a slot free when they arrived keep their Arrival.
		if err := sim.sendArrived(freeBefore); err != nil {
			return err
		}
	}
	return nil
}

// peek returns the next request to send, building it on first sight.
func (sim *simulation) peek() (*Request, bool, error) {
	if !sim.hasPending {
		if sim.next >= sim.count {
			return nil, false, nil
		}
		r, err := sim.request(sim.next)
		if err != nil {
			return nil, false, err
		}
		if sim.next == 0 {
			sim.first = r.Arrival
		}
		sim.pending, sim.hasPending = r, true
	}
	return &sim.pending, true, nil
}

// freeSlots is how many more requests the concurrency cap lets in.
func (sim *simulation) freeSlots() int {
	if sim.opt.MaxConcurrency == 0 {
		return sim.count
	}
	return sim.opt.MaxConcurrency - sim.inflight
}

// canSend says whether the concurrency cap and the waiting window leave
// room for one more request.
func (sim *simulation) canSend() bool {
	return sim.freeSlots() > 0 && (sim.window == 0 || sim.e.waiting.len() < sim.window)
}

// sendArrived adds every request that has arrived by Now while the cap and
// the window allow. The first onTime of them keep their Arrival (a slot was
// free when they arrived); the rest waited for a slot that freed at Now,
// which becomes their Arrival, as vllm bench serve measures a held-back
// request.
func (sim *simulation) sendArrived(onTime int) error {
	now := sim.e.Now()
	for sim.canSend() {
		p, ok, err := sim.peek()
		if err != nil {
			return err
		}
		if !ok || p.Arrival > now {
			return nil
		}
		r := *p
		sim.pending, sim.hasPending = Request{}, false // drop the prompt ids
		if onTime <= 0 {
			r.Arrival = now
		}
		onTime--
		if err := sim.e.Add(r); err != nil {
			return fmt.Errorf("simulate: %w", err)
		}
		rr := sim.takeSlot(sim.next)
		rr.ID, rr.Arrival = r.ID, r.Arrival
		if want := r.targetOutput(sim.e.cfg.Model.MaxContextLen); cap(rr.TokenTimes) < want {
			rr.TokenTimes = make([]time.Duration, 0, want)
		}
		sim.next++
		sim.inflight++
	}
	return nil
}

// takeSlot gives request k a cleared result slot, reusing a free one, and
// maps the engine serial just assigned to it.
func (sim *simulation) takeSlot(k int) *RequestResult {
	var i int32
	if n := len(sim.free); n > 0 {
		i, sim.free = sim.free[n-1], sim.free[:n-1]
		sim.slotK[i] = k
	} else {
		i = int32(len(sim.slots))
		sim.slots = append(sim.slots, RequestResult{})
		sim.slotK = append(sim.slotK, k)
	}
	sim.bySerial = append(sim.bySerial, i)
	rr := &sim.slots[i]
	*rr = RequestResult{TokenTimes: rr.TokenTimes[:0]}
	return rr
}

// skipIdle moves the clock over a gap with nothing to step: to the next
// arrival that may be sent, or to when the engine can next step (a static
// batch's wait ending), whichever comes first.
func (sim *simulation) skipIdle(stepAt time.Duration, canStep bool) error {
	wake := stepAt
	p, ok, err := sim.peek()
	if err != nil {
		return err
	}
	if ok && sim.canSend() {
		if !canStep || p.Arrival < stepAt {
			wake = p.Arrival
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
		sim.trace = append(sim.trace, step.Trace.Clone())
	}
	for i := range step.Tokens {
		t := &step.Tokens[i]
		rr := &sim.slots[sim.bySerial[t.Serial]]
		rr.TokenTimes = append(rr.TokenTimes, t.Time)
	}
	for i := range step.Finished {
		f := &step.Finished[i]
		slot := sim.bySerial[f.Serial]
		rr := &sim.slots[slot]
		rr.Timing, rr.Usage, rr.FinishReason, rr.Preemptions = f.Timing, f.Usage, f.FinishReason, f.Preemptions
		if err := sim.finished(sim.slotK[slot], rr); err != nil {
			return err
		}
		sim.free = append(sim.free, slot)
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
