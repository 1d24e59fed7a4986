package prefilldecode

import (
	"context"
	"errors"
	"fmt"
	"time"

	"github.com/latencylab/latencylab/engine"
	"github.com/latencylab/latencylab/engine/live"
	"github.com/latencylab/latencylab/engine/textmodel"
	"github.com/latencylab/latencylab/labs"
)

// secondAnswer caps the second customer's answer: only its first token
// matters to the comparison, so its decode is kept short.
const secondAnswer = 16

// job is one request the lab sends on the wall clock.
type job struct {
	req    engine.Request
	prompt prompt
}

// run measures the sweep on the virtual clock, then sends the learner's
// request (and, for the prefix-caching comparison, a second customer's) to
// the shared engine on the wall clock, emitting a frame after the sweep, at
// every milestone of the requests and on a timer in between, and a final
// frame with every stat. A built prompt the engine cannot hold ends in a
// final frame with Error set and a nil error. run returns an error only for
// failures on the server's side, and ctx.Err() when ctx ends, in which case
// running requests are aborted and no final frame is emitted.
func (l *Lab) run(ctx context.Context, ps params, emit func(labs.Frame)) error {
	s, err := ps.settings()
	if err != nil {
		return err
	}
	seq, id := l.IDs.Next()
	session, session2 := sessions(seq, l.IDs.Tag(), s.caching)
	emit(labs.Frame{Status: "Building the prompt…"})
	first, err := newJob(s, id, session, 0, s.output)
	if err != nil {
		emit(labs.Frame{Final: true, Status: "Not run.", Error: err.Error()})
		return nil
	}
	second, err := newJob(s, id+"-second", session2, 1, min(s.output, secondAnswer))
	if err != nil {
		emit(labs.Frame{Final: true, Status: "Not run.", Error: err.Error()})
		return nil
	}
	// The settings were checked with the prompt's nominal size; the
	// built prompt is a few tokens off it, so check again.
	for _, j := range []job{first, second} {
		if msg := roomMessage(s, len(j.req.PromptTokens)); msg != "" {
			emit(labs.Frame{Final: true, Status: "Not run: the settings need a change.", Error: msg})
			return nil
		}
	}

	v := &view{s: s, prompt: first.prompt, secondPrompt: second.prompt}
	emit(v.frame("Measuring single requests on the virtual clock: prompt lengths, then answer lengths…"))
	sw, err := runSweep(ctx, s, first.req, s.spec.system)
	if err != nil {
		return labs.RunFailed(ctx, fmt.Errorf("prefilldecode: %w", err), emit)
	}
	v.sweep = &sw
	emit(v.frame(fmt.Sprintf("Sweep done. Sending your %s-token prompt to the shared %s…",
		labs.Thousands(len(first.req.PromptTokens)), s.profile)))

	le, err := l.Engines.For(ctx).Get(s.profile) // a workshop room's engines, if the run is a room's
	if err != nil {
		return fmt.Errorf("prefilldecode: engine for %s: %w", s.profile, err)
	}
	v.first = &measurement{}
	v.whyTTFT, v.whyTPOT = labs.Why(le.Config(), len(first.req.PromptTokens), len(first.req.OutputTokens))
	v.why = formulas(s.engine, le.Config(), v.sweep, len(first.req.PromptTokens), len(first.req.OutputTokens))
	if msg, err := l.measure(ctx, le, first.req, v.first, func() { emit(v.frame(v.firstStatus())) }); err != nil || msg != "" {
		return l.refused(emit, msg, err)
	}
	if m := v.first; m.server != "" {
		v.why[statDecode] = labs.MeasuredDecode(m.server, labs.Millis(m.ttft), labs.Millis(m.complete))
	}
	// The second customer arrives as the first answer completes.
	v.second = &measurement{}
	if msg, err := l.measure(ctx, le, second.req, v.second, func() { emit(v.frame(v.secondStatus())) }); err != nil || msg != "" {
		return l.refused(emit, msg, err)
	}
	if m2 := v.second; m2.server != "" {
		v.why[statSecondTTFT] = labs.MeasuredTTFT(m2.server, labs.Millis(m2.ttft), 0, m2.thinkingFirst)
	} else if f, ok := secondTTFTWhy(le.Config(), len(second.req.PromptTokens), v.second.usage.CachedTokens); ok {
		v.why[statSecondTTFT] = f
	}
	busy := v.first.delivery
	busy.Merge(v.second.delivery)
	v.notes = []string{busy.BusyNote()}
	if ttft, e2e, ok := labs.Alone(le.Config(), first.req); ok {
		v.notes = append(v.notes, labs.SharingNote(v.first.sharing, v.first.ttft-ttft, v.first.complete-e2e))
	}
	f := v.frame(v.finalStatus())
	f.Final = true
	emit(f)
	return nil
}

// sessions are the lines that open the two customers' system prompts. The
// run's number and the lab's tag come first, within the prompt's first KV
// block, so no two runs share even one cached block. With caching the
// second customer's prompt opens exactly like the first (same line, same
// system prompt) and can reuse its cached blocks; without, its line differs
// in the first block, so the engine computes every token, as an engine
// with prefix caching disabled would.
func sessions(seq uint64, tag string, caching bool) (first, second string) {
	first = fmt.Sprintf("Session %d-%s", seq, tag)
	if caching {
		return first, first
	}
	return first, fmt.Sprintf("Session %db-%s", seq, tag)
}

// refused ends a run whose request the engine would not take (msg) or
// that failed (err).
func (l *Lab) refused(emit func(labs.Frame), msg string, err error) error {
	if err != nil {
		return err
	}
	emit(labs.Frame{Final: true, Status: "Not run.", Error: msg})
	return nil
}

// newJob builds one customer's request: the prompt and an answer of
// exactly n tokens composed from it.
func newJob(s settings, id, session string, who customer, n int) (job, error) {
	p, err := buildPrompt(s.spec, session, who)
	if err != nil {
		return job{}, err
	}
	ans := textmodel.Compose(textmodel.ComposeRequest{Messages: p.msgs, MaxTokens: n, ForcedTokens: n})
	return job{prompt: p, req: engine.Request{ID: id, PromptTokens: p.ids, OutputTokens: ans.Tokens, MaxTokens: len(ans.Tokens)}}, nil
}

// measurement is what one request did, timed on the modelled GPU's clock
// from its arrival (live.Event.GPU), so a busy host cannot bend it; only
// elapsed, the live wait shown while nothing arrives, is the handler's.
type measurement struct {
	tokens   int
	ttft     time.Duration // valid when tokens > 0
	last     time.Duration // last token made
	complete time.Duration // valid when done
	elapsed  time.Duration // at the latest refresh
	usage    engine.Usage
	done     bool
	// delivery is how late the handler got the tokens; sharing who else
	// the GPU served meanwhile (valid when done).
	delivery labs.Delivery
	sharing  live.Sharing
	// server names the server that timed the request ("" on the bundled
	// engine); thinkingFirst says its first token was a reasoning
	// model's thinking.
	server        string
	thinkingFirst bool
}

// decode is the time from the first token to the last.
func (m *measurement) decode() time.Duration { return m.complete - m.ttft }

// tpot is (last − first) ÷ (tokens − 1), vLLM's definition; 0 with one token.
func (m *measurement) tpot() time.Duration {
	if m.tokens < 2 {
		return 0
	}
	return m.decode() / time.Duration(m.tokens-1)
}

// measure sends req to le and records its events into m, calling update
// after the first token, on every tick and at the end. It returns a
// message for a request the engine refused, or an error for a failure or
// cancellation.
func (l *Lab) measure(ctx context.Context, le *live.Engine, req engine.Request, m *measurement, update func()) (string, error) {
	t0 := l.Clock.Now()
	events, err := le.Submit(ctx, req)
	if err != nil {
		if errors.Is(err, live.ErrClosed) {
			return "", fmt.Errorf("prefilldecode: submit: %w", err)
		}
		// The engine refused this request (context length, KV capacity):
		// its message is about the learner's settings.
		return err.Error(), nil
	}
	tk := l.Ticker()
	defer tk.Stop()
	tick := tk.C
	for {
		select {
		case <-ctx.Done():
			return "", ctx.Err()
		case <-tick:
			m.elapsed = max(m.elapsed, l.Clock.Now().Sub(t0))
			update()
		case ev, ok := <-events:
			if !ok { // the engine closes the stream without a final event on cancel
				return "", ctx.Err()
			}
			if ev.Done {
				if ev.Err != nil {
					return "", fmt.Errorf("prefilldecode: request %s: %w", req.ID, ev.Err)
				}
				m.complete, m.usage, m.sharing, m.done = ev.GPU, ev.Usage, ev.Sharing, true
				m.elapsed = max(m.elapsed, m.complete)
				update()
				return "", nil
			}
			at := l.Clock.Now().Sub(t0)
			m.delivery.Observe(ev.GPU, at)
			m.server = ev.Server
			m.tokens++
			m.last = ev.GPU
			m.elapsed = max(m.elapsed, at)
			if m.tokens == 1 {
				m.ttft, m.thinkingFirst = ev.GPU, ev.Thinking
				update()
			}
		}
	}
}
