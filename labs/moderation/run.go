package moderation

import (
	"context"
	"fmt"
	"sync"
	"time"

	"github.com/latencylab/latencylab/engine"
	"github.com/latencylab/latencylab/engine/clock"
	"github.com/latencylab/latencylab/engine/live"
	mod "github.com/latencylab/latencylab/engine/moderation"
	"github.com/latencylab/latencylab/labs"
)

// job is one moderated request: its filter, its meter and the request it
// sends to the engine.
type job struct {
	policy mod.Policy
	req    request
	id     string
	meter  *meter
	// engineErr is a failure reported by the engine mid-stream (it
	// closed); written by the generator goroutine before it closes the
	// token channel, read after the stage returns.
	engineErr error
	// delivery is how late the engine's tokens reached the handler and
	// who shared the GPU, for the final status's notes.
	delivery delivery
	// up and down are the network to a hosted provider: the connection
	// and upload before the engine sees the request, and each token's way
	// back (both 0 with the GPU next door).
	up, down time.Duration
	// text is the answer's text as the engine's tokens arrive, set by
	// the generator before its first token; its count of thinking tokens
	// (a reasoning model on a server) is read after the stage returns.
	text *labs.AnswerText
}

// engineRequest is the request the job sends to the engine.
func (j *job) engineRequest() engine.Request {
	ans := j.req.answer
	return engine.Request{ID: j.id, PromptTokens: j.req.prompt, OutputTokens: ans.Tokens, MaxTokens: len(ans.Tokens)}
}

// newJob builds the request for one policy. Each job gets its own session
// line, so its prompt shares no cached prefix with any other run.
func (l *Lab) newJob(s settings, p mod.Policy) *job {
	_, id := l.IDs.Next()
	up, down := s.host.Pipeline().Legs()
	m := newMeter(p)
	m.network = up + down
	return &job{policy: p, id: id, req: buildRequestOf(scenarios[s.scenario], "Session "+id, s.answer), meter: m,
		up: up, down: down}
}

// generate returns the stage's generator: it submits the request to the
// engine with the stage's ctx (cancelling it aborts the request and frees
// its KV blocks) and forwards each token's text stamped with its modelled
// time: the network up, the GPU's own stamp, the network down.
func (j *job) generate(le *live.Engine, clk clock.Clock) mod.GenerateTimed {
	return func(ctx context.Context) (<-chan mod.Token, error) {
		ans := j.req.answer
		modelled := clk.Now().Add(j.up) // the upload's end, however late the host wakes from it
		if err := clock.Sleep(ctx, clk, j.up); err != nil {
			return nil, err
		}
		sent := clk.Now()
		events, err := le.Submit(live.WithSentAt(ctx, modelled), j.engineRequest())
		if err != nil {
			return nil, err
		}
		out := make(chan mod.Token)
		j.text = labs.NewAnswerText(ans.Pieces, ans.Tokens)
		go func() {
			defer close(out)
			for ev := range events {
				j.delivery.observe(ev)
				if ev.Done {
					j.engineErr = ev.Err
					return
				}
				p := j.text.Piece(ev)
				if ev.Thinking {
					// Moderation reads the answer only, as a gateway
					// withholds thinking from an output check: the
					// lab's tokens start at the answer (see thinkingNote).
					continue
				}
				// The token crosses the network: it reaches the stage half
				// a round trip after the GPU made it.
				if j.down > 0 && clock.Sleep(ctx, clk, sent.Add(ev.GPU+j.down).Sub(clk.Now())) != nil {
					return
				}
				select {
				case out <- mod.Token{Text: p, At: j.up + ev.GPU + j.down}:
				case <-ctx.Done():
					return
				}
			}
		}()
		return out, nil
	}
}

// stage runs one job through moderation on the modelled timeline, calling
// after (under the run's lock) for every event; the meter takes each
// event's modelled time, the busy note how late the handler saw it.
func (l *Lab) stage(ctx context.Context, s settings, j *job, le *live.Engine, checker *mod.Checker, t0 time.Time, mu *sync.Mutex, after func()) error {
	st := mod.Stage{Checker: checker, Filter: s.filter(j.policy), CheckPrompt: s.promptCheck}
	sum, err := st.RunTimed(ctx, scenarios[s.scenario].question, j.generate(le, l.Clock), func(ev mod.Event) {
		mu.Lock()
		j.meter.event(ev, ev.Model)
		j.delivery.late(ev, ev.At.Sub(t0))
		after()
		mu.Unlock()
	})
	if err == nil && j.engineErr != nil {
		err = fmt.Errorf("moderation lab: request %s: %w", j.id, j.engineErr)
	}
	mu.Lock()
	if err == nil {
		if j.text != nil {
			j.meter.thought = j.text.Thought
		}
		j.meter.end(sum.End, checker)
	}
	mu.Unlock()
	return err
}

// single runs one policy and emits a frame per event.
func (l *Lab) single(ctx context.Context, s settings, le *live.Engine, checker *mod.Checker, emit func(labs.Frame)) error {
	j := l.newJob(s, s.policy)
	v := &view{s: s, answer: len(j.req.answer.Tokens), xmax: axisEstimate(le.Config(), j.req, s)}

	var mu sync.Mutex
	t0 := l.Clock.Now()
	emit(v.frame(j.meter, 0))
	stopTick := l.ticker(&mu, func() {
		if !j.meter.done {
			emit(v.frame(j.meter, l.Clock.Now().Sub(t0)))
		}
	})
	err := l.stage(ctx, s, j, le, checker, t0, &mu, func() {
		emit(v.frame(j.meter, l.Clock.Now().Sub(t0)))
	})
	stopTick()
	if err != nil {
		return labs.RunFailed(ctx, err, emit)
	}
	v.notes = singleNotes(j, le.Config())
	emit(v.frame(j.meter, j.meter.genEnd))
	return nil
}

// ticker calls f under mu every tick until the returned stop is called;
// stop waits for the ticker to exit, so f never runs after it.
func (l *Lab) ticker(mu *sync.Mutex, f func()) (stop func()) {
	if l.Tick <= 0 {
		return func() {}
	}
	done := make(chan struct{})
	var wg sync.WaitGroup
	wg.Go(func() {
		t := l.Ticker()
		defer t.Stop()
		for {
			select {
			case <-done:
				return
			case <-t.C:
				mu.Lock()
				f()
				mu.Unlock()
			}
		}
	})
	return func() { close(done); wg.Wait() }
}

// axisEstimate is the chart's initial time axis, in ms: the request on an
// idle engine of the same configuration on the virtual clock, plus the
// moderation waits a blocking policy adds, with headroom. It only sizes
// the axis; no figure comes from it.
func axisEstimate(cfg engine.Config, req request, s settings) float64 {
	r := engine.Request{ID: "axis", PromptTokens: req.prompt, OutputTokens: req.answer.Tokens, MaxTokens: len(req.answer.Tokens)}
	res, err := engine.Simulate(cfg, []engine.Request{r}, engine.SimOptions{})
	if err != nil || len(res.Requests) == 0 {
		return 1000
	}
	return labs.NiceCeil((labs.Millis(res.Requests[0].E2E()) + 3*labs.Millis(s.latency)) * 1.2)
}
