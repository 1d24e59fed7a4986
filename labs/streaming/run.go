package streaming

import (
	"context"
	"fmt"
	"time"

	"github.com/latencylab/latencylab/engine"
	"github.com/latencylab/latencylab/engine/live"
	"github.com/latencylab/latencylab/labs"
)

// run sends one request with settings p to the shared engine for the
// chosen model and GPU and plays the handler's part: it timestamps every
// event on its own clock and either forwards each token's text (streaming)
// or holds the text back until the answer is complete (blocking). It emits
// a frame when the request is sent, one per token received (the runner
// coalesces them) and a final frame with every stat. A request the engine
// refuses ends in a final frame with Error set and a nil error. run returns
// an error only for failures on the server's side, and ctx.Err() when ctx
// ends, in which case the engine request is aborted and no final frame is
// emitted.
func (l *Lab) run(ctx context.Context, p params, emit func(labs.Frame)) error {
	s, err := p.settings()
	if err != nil {
		return err
	}
	_, id := l.IDs.Next()
	prompt, err := buildPrompt(s.promptTokens, "Session "+id)
	if err != nil {
		emit(labs.Frame{Final: true, Status: "Not run.", Error: err.Error()})
		return nil
	}
	ans := composeAnswer(prompt, s.answerTokens)
	req := engine.Request{ID: id, PromptTokens: prompt.ids, OutputTokens: ans.Tokens, MaxTokens: len(ans.Tokens)}

	le, err := l.Engines.For(ctx).Get(s.profile)
	if err != nil {
		return fmt.Errorf("streaming: engine for %s: %w", s.profile, err)
	}
	v := &view{s: s, answerWords: countWords(ans.Text), xmax: axisEstimate(le.Config(), req)}
	m := newMeter(s.streaming)

	t0 := l.Clock.Now()
	events, err := le.Submit(ctx, req)
	if err != nil {
		return labs.SubmitRefused("streaming", err, "Not run.", emit)
	}
	emit(v.frame(m, 0))
	// While the prompt is being read nothing arrives, so the panels are
	// refreshed on a timer to show the wait growing.
	tk := l.Ticker()
	defer tk.Stop()
	tick := tk.C
	// With a speed cap, token i may not reach the handler before the
	// first token's arrival plus i/cap: tokens that come sooner wait in
	// held, released by the pace timer.
	var held []string
	var first time.Duration
	done := false
	var pace <-chan time.Time
	release := func(at time.Duration) {
		for len(held) > 0 && (s.speedCap == 0 || at >= first+time.Duration(m.tokens)*time.Second/time.Duration(s.speedCap)) {
			m.token(at, held[0])
			held = held[1:]
		}
		pace = nil
		if len(held) > 0 {
			pace = l.Clock.After(first + time.Duration(m.tokens)*time.Second/time.Duration(s.speedCap) - at)
		}
	}
	for {
		select {
		case <-ctx.Done():
			return ctx.Err()
		case <-tick:
			if m.tokens > 0 {
				tick = nil
				continue
			}
			emit(v.frame(m, l.Clock.Now().Sub(t0)))
		case <-pace:
			at := l.Clock.Now().Sub(t0)
			release(at)
			if done && len(held) == 0 {
				m.finish(at)
			}
			emit(v.frame(m, at))
			if m.done {
				return nil
			}
		case ev, ok := <-events:
			if !ok { // the engine closes the stream without a final event on cancel
				return ctx.Err()
			}
			at := l.Clock.Now().Sub(t0)
			if ev.Done {
				if ev.Err != nil {
					return fmt.Errorf("streaming: request %s: %w", id, ev.Err)
				}
				events, done = nil, true
				if len(held) > 0 {
					continue // the pace timer finishes the answer
				}
				m.finish(at)
				emit(v.frame(m, at))
				return nil
			}
			if m.tokens == 0 && len(held) == 0 {
				first = at
			}
			held = append(held, piece(ans.Pieces, ans.Tokens, ev))
			release(at)
			emit(v.frame(m, at))
		}
	}
}

// piece is the text of one token event. The engine emits the ids it was
// given in order, so the composed answer's pieces apply; a mismatch (which
// would be an engine bug) falls back to no text rather than wrong text.
func piece(pieces []string, ids []int, ev live.Event) string {
	if ev.Index < 0 || ev.Index >= len(pieces) || ids[ev.Index] != ev.Token {
		return ""
	}
	return pieces[ev.Index]
}

// axisEstimate is the chart's initial time axis, in ms: the same request
// on an idle engine of the same configuration, run on the virtual clock,
// with a little headroom. Load can make the real run longer; the chart then
// widens once. The estimate only sizes the axis; no figure comes from it.
func axisEstimate(cfg engine.Config, req engine.Request) float64 {
	res, err := engine.Simulate(cfg, []engine.Request{req}, engine.SimOptions{})
	if err != nil || len(res.Requests) == 0 {
		return 1000
	}
	r := res.Requests[0]
	return labs.NiceCeil(labs.Millis(r.E2E()) * 1.15)
}
