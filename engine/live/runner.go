package live

import (
	"time"

	"github.com/latencylab/latencylab/engine"
)

// run owns the engine: it applies submits and aborts, steps, sleeps until
// the modelled end of each step and then delivers its tokens.
func (e *Engine) run() {
	defer close(e.done)
	for {
		if !e.apply() {
			e.shutdown()
			return
		}
		if e.standsStill() {
			<-e.wake
			continue
		}
		e.admitBackground()
		at, ok := e.eng.NextStepAt()
		if !ok || at > e.eng.Now() {
			// Idle, or a static batch is filling: wait for the next step or
			// background arrival, but wake on submits.
			if !e.idle(at, ok) {
				continue
			}
		}
		res := e.eng.Step()
		e.waitUntil(res.Trace.End(), false)
		e.deliver(res)
		// Correct drift: fell too far behind the model (a stall)? Resync.
		if lag := e.clock.Now().Sub(e.start) - e.eng.Now(); lag > e.maxLag {
			e.eng.AdvanceTo(e.eng.Now() + lag)
			e.stalled += lag
		}
	}
}

// idle waits until the engine has work at engine time stepAt (when
// stepping) or the next background request arrives, whichever is first,
// and reports whether a step is due now. A submit ends the wait early.
func (e *Engine) idle(stepAt time.Duration, stepping bool) bool {
	wake, bg := e.nextBackground()
	if !bg && !stepping {
		<-e.wake
		return false
	}
	if !bg || (stepping && stepAt <= wake) {
		wake, bg = stepAt, false
	}
	if !e.waitUntil(wake, true) {
		return false
	}
	e.eng.AdvanceTo(wake)
	return !bg // a background arrival: admit it, then look again
}

// waitUntil sleeps until engine time t. With interruptible it returns
// false early when a command arrives.
func (e *Engine) waitUntil(t time.Duration, interruptible bool) bool {
	d := e.start.Add(t).Sub(e.clock.Now())
	if d <= 0 {
		return true
	}
	if !interruptible {
		<-e.clock.After(d)
		return true
	}
	select {
	case <-e.clock.After(d):
		return true
	case <-e.wake:
		e.poke() // leave the wake-up for the main loop
		return false
	}
}

// apply hands queued submits and aborts to the engine; false once closed.
func (e *Engine) apply() bool {
	e.mu.Lock()
	cmds := e.pending
	e.pending = nil
	closed := e.closed
	e.mu.Unlock()
	if closed {
		return false
	}
	if len(cmds) == 0 {
		return true
	}
	standing := e.standsStill()
	for _, c := range cmds {
		if c.anchor != nil {
			e.anchor(c.at, *c.anchor)
		}
	}
	if standing {
		e.catchUpTo(cmds)
	} else if !e.eng.HasWork() {
		// Idle: bring the engine clock up to the latest submit, not to
		// now. A runner that woke late (a busy host) then catches up on
		// the steps it owes instead of counting its own lateness as the
		// GPU's queueing; a wake-up later than MaxLag is resynced after
		// the first step, as any stall is.
		e.eng.AdvanceTo(max(e.eng.Now(), latestSubmit(cmds).Sub(e.start)))
		e.admitBackground() // the traffic that came first queues first
	}
	for _, c := range cmds {
		if c.anchor != nil {
			continue
		}
		if c.submit == nil {
			e.eng.Abort(c.id)
			continue
		}
		req := c.submit.req
		// A request submitted mid-step arrived before the engine clock's
		// current value (the step's end); an idle engine was just advanced.
		req.Arrival = min(e.arrival(c, standing), e.eng.Now())
		c.submit.arrivalGPU = req.Arrival - e.stalled
		if err := e.eng.Add(req); err != nil {
			e.mu.Lock()
			delete(e.streams, c.id)
			e.mu.Unlock()
			c.submit.push(Event{Done: true, Err: err})
			continue
		}
		e.callers++
	}
	e.updateStats()
	return true
}

// latestSubmit is when the last submit among cmds was called; the zero
// time when there is none (only aborts).
func latestSubmit(cmds []command) time.Time {
	var t time.Time
	for _, c := range cmds {
		if c.submit != nil && c.at.After(t) {
			t = c.at
		}
	}
	return t
}

// deliver routes a step's tokens and finishes to their streams.
func (e *Engine) deliver(res *engine.StepResult) {
	observed := e.cfg.Observer != nil
	var done []RequestStats
	var watched []watchedEnd
	e.mu.Lock()
	e.tallySharing(res.Trace.Batch, res.Trace.Duration)
	for _, t := range res.Tokens {
		if st, ok := e.streams[t.ID]; ok {
			st.push(Event{Token: t.Token, Index: t.Index, Time: t.Time, At: e.start.Add(t.Time), GPU: e.gpuTime(st, t.Time)})
			if observed {
				st.recordToken(t.Index, t.Time)
			}
		}
	}
	type ending struct {
		st *stream
		ev Event
	}
	var ends []ending
	for _, f := range res.Finished {
		if st, ok := e.streams[f.ID]; ok {
			e.callers--
			sh := st.share.sharing()
			ends = append(ends, ending{st, Event{Done: true, Index: f.Usage.CompletionTokens, Time: f.Timing.End,
				At: e.start.Add(f.Timing.End), GPU: e.gpuTime(st, f.Timing.End), FinishReason: f.FinishReason,
				Usage: f.Usage, Timing: f.Timing, Sharing: sh}})
			delete(e.streams, f.ID)
			stats := RequestStats{Source: st.source, FinishReason: f.FinishReason, Usage: f.Usage, Timing: f.Timing, Sharing: sh}
			if st.watcher != nil {
				watched = append(watched, watchedEnd{st.watcher, stats})
			}
			if observed && f.FinishReason != engine.FinishAbort {
				stats.TokenGaps = st.gaps
				done = append(done, stats)
			}
		} else if e.isBackground(f.ID) {
			e.backgroundFinished(f.ID)
		}
	}
	e.mu.Unlock()
	// Observe before the final events go out, so a caller who has seen its
	// request end also finds it in the metrics.
	e.notify(done)
	for _, w := range watched {
		w.watcher.RequestFinished(w.stats)
	}
	for _, end := range ends {
		end.st.push(end.ev)
	}
	if len(res.Trace.Batch) > 0 {
		e.publishTrace(&res.Trace)
	}
	e.updateStats()
}

// watchedEnd is a finished request for its watcher (see WithWatcher).
type watchedEnd struct {
	watcher Observer
	stats   RequestStats
}

// gpuTime is engine time t as modelled GPU time since st arrived: the
// stalls skipped so far are not GPU time.
func (e *Engine) gpuTime(st *stream, t time.Duration) time.Duration {
	return max(t-e.stalled-st.arrivalGPU, 0)
}

func (e *Engine) updateStats() {
	st := e.eng.Stats()
	e.mu.Lock()
	e.stats = st
	e.mu.Unlock()
}

// shutdown ends every open stream and subscriber.
func (e *Engine) shutdown() {
	e.mu.Lock()
	defer e.mu.Unlock()
	for id, st := range e.streams {
		st.push(Event{Done: true, Err: ErrClosed})
		delete(e.streams, id)
	}
	for sub := range e.subs {
		e.dropLocked(sub)
	}
}
