package batching

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"sync"
	"time"

	"github.com/latencylab/latencylab/engine"
	"github.com/latencylab/latencylab/engine/live"
	"github.com/latencylab/latencylab/labs"
)

// liveSeed fixes a live run's arrivals and answer lengths, so the same
// knobs give the same workload and policies compare on equal terms.
const liveSeed = 1

// frameEvery is the least engine time between two live frames; the web
// runner coalesces faster frames anyway, and this keeps a fast (fake)
// clock from rebuilding charts for every step.
const frameEvery = 20 * time.Millisecond

// maxLiveDuration caps a live run's modelled length, below the web
// runner's five-minute limit, so a learner is told up front rather than cut
// off.
const maxLiveDuration = 4 * time.Minute

// traceBuffer is how many steps the trace subscription may fall behind
// before the engine drops it.
const traceBuffer = 4096

// liveMsg is one thing that happened to request i: its submission at
// engine time at, or an event from its stream, or a failure to submit.
type liveMsg struct {
	i         int
	submitted bool
	at        time.Duration
	ev        live.Event
	err       error
}

// runLive plays the workload on a live engine in real time: each request
// is submitted when its arrival comes due on the engine's clock, and the
// engine's step trace and token streams feed the charts.
func (l *Lab) runLive(ctx context.Context, s settings, emit func(labs.Frame)) error {
	n := l.seq.Add(1)
	prefix := fmt.Sprintf("%s-%s-%d", Slug, l.tag, n)
	salt := l.salt + n

	le, err := l.engine(ctx, s)
	if err != nil {
		return err
	}
	if !s.shared {
		defer le.Close()
		if l.started != nil {
			l.started(le)
		}
	}
	cfg := le.Config()
	w := buildWorkload(s, arrivalPlan{n: s.requests, burst: s.burst, rate: s.rate, seed: liveSeed}, prefix, salt)
	if s.longPrompt > 0 {
		if w, err = addLongPrompt(w, cfg, s, salt, prefix); err != nil {
			emit(labs.Frame{Final: true, Status: "Not run.", Error: err.Error()})
			return nil
		}
	}
	v, err := newLiveView(s, cfg, w)
	if err != nil {
		emit(labs.Frame{Final: true, Status: "Not run.", Error: err.Error()})
		return nil
	}
	if v.estimate > maxLiveDuration {
		emit(labs.Frame{Final: true, Status: "Not run: too long to watch.", Error: fmt.Sprintf(
			"On an idle GPU this run would take about %s of real time; a live run is kept under %s. "+
				"Send fewer requests, shorter answers or a higher request rate, or use the sweep, which runs on a virtual clock.",
			fmtMS(labs.Millis(v.estimate)), fmtMS(labs.Millis(maxLiveDuration)))})
		return nil
	}

	traces, unsubscribe := le.Subscribe(traceBuffer)
	defer unsubscribe()
	rctx, cancel := context.WithCancel(ctx)
	var wg sync.WaitGroup
	defer wg.Wait() // after cancel (deferred later, so run earlier)
	defer cancel()

	t0 := l.clock.Now().Sub(le.Start())
	ids := make([]string, len(w.reqs))
	for i, r := range w.reqs {
		ids[i] = r.ID
	}
	rec := newRecorder(t0, v.bucket(), ids, w.labels)
	msgs := make(chan liveMsg, 64)
	wg.Go(func() { l.submitAll(rctx, le, t0, w.reqs, msgs, &wg) })

	emit(v.frame(rec, false, v.status(rec)))
	lastFrame := time.Duration(-1)
	for pending := len(w.reqs); pending > 0; {
		select {
		case <-ctx.Done():
			return ctx.Err()
		case tr, ok := <-traces:
			if !ok { // dropped as too slow: carry on without gauges
				traces = nil
				continue
			}
			rec.step(tr)
			if rec.now-lastFrame >= frameEvery {
				lastFrame = rec.now
				emit(v.frame(rec, false, v.status(rec)))
			}
		case m := <-msgs:
			switch {
			case m.err != nil:
				return labs.SubmitRefused("batching", m.err, "Stopped: the engine refused a request.", emit)
			case m.submitted:
				rec.arrive(m.i, m.at)
				if rec.now-lastFrame >= frameEvery { // show the queue grow while the engine waits
					lastFrame = rec.now
					emit(v.frame(rec, false, v.status(rec)))
				}
			case m.ev.Done:
				if m.ev.Err != nil {
					return fmt.Errorf("batching: request %s: %w", ids[m.i], m.ev.Err)
				}
				rec.finish(m.i, m.ev.Timing)
				pending--
			default:
				rec.token(m.i, m.ev.Index, m.ev.Time)
			}
		}
	}
	l.drainTraces(ctx, le, s.shared, traces, rec)
	if ctx.Err() != nil {
		return ctx.Err()
	}
	emit(v.frame(rec, true, v.doneStatus(rec)))
	return nil
}

// engine is a new live engine with the run's policy, or the shared one
// (a workshop room's, when the run is a room's).
func (l *Lab) engine(ctx context.Context, s settings) (*live.Engine, error) {
	if s.shared {
		if l.engines == nil {
			return nil, errors.New("batching: no shared engine pool configured")
		}
		le, err := l.engines.For(ctx).Get(s.profile)
		if err != nil {
			return nil, fmt.Errorf("batching: shared engine for %s: %w", s.profile, err)
		}
		return le, nil
	}
	le, err := live.New(live.Config{Engine: s.engine, Clock: l.clock})
	if err != nil {
		return nil, fmt.Errorf("batching: start engine for %s: %w", s.profile, err)
	}
	return le, nil
}

// submitAll submits each request when its arrival comes due (engine time
// t0 + Arrival) and forwards its events to msgs until ctx ends.
func (l *Lab) submitAll(ctx context.Context, le *live.Engine, t0 time.Duration, reqs []engine.Request, msgs chan<- liveMsg, wg *sync.WaitGroup) {
	order := make([]int, len(reqs))
	for i := range order {
		order[i] = i
	}
	slices.SortStableFunc(order, func(a, b int) int { return int(reqs[a].Arrival - reqs[b].Arrival) })
	if l.arrived != nil {
		defer l.arrived()
	}
	send := func(m liveMsg) bool {
		select {
		case msgs <- m:
			return true
		case <-ctx.Done():
			return false
		}
	}
	for _, i := range order {
		if d := le.Start().Add(t0 + reqs[i].Arrival).Sub(l.clock.Now()); d > 0 {
			select {
			case <-l.clock.After(d):
			case <-ctx.Done():
				return
			}
		}
		at := l.clock.Now().Sub(le.Start())
		ch, err := le.Submit(ctx, reqs[i])
		if err != nil {
			send(liveMsg{i: i, err: err})
			return
		}
		if !send(liveMsg{i: i, submitted: true, at: at}) {
			return
		}
		wg.Go(func() {
			for ev := range ch {
				if !send(liveMsg{i: i, ev: ev}) {
					return
				}
			}
		})
	}
}

// drainTraces collects the steps still in flight once every request has
// finished: the engine publishes a step's trace just after delivering its
// tokens. A dedicated engine is closed, which ends the subscription after
// the last trace; on the shared engine it waits (briefly) for the step
// that produced the run's last token.
func (l *Lab) drainTraces(ctx context.Context, le *live.Engine, shared bool, traces <-chan engine.StepTrace, rec *recorder) {
	if traces == nil {
		return
	}
	if !shared {
		le.Close()
		for tr := range traces {
			rec.step(tr)
		}
		return
	}
	var last time.Duration
	for _, q := range rec.reqs {
		last = max(last, q.end)
	}
	timeout := l.clock.After(250 * time.Millisecond)
	for {
		select {
		case tr, ok := <-traces:
			if !ok {
				return
			}
			rec.step(tr)
			if rec.rel(tr.End()) >= last {
				return
			}
		case <-timeout:
			return
		case <-ctx.Done():
			return
		}
	}
}
