package streaming

import (
	"context"
	"fmt"
	"time"

	"github.com/latencylab/latencylab/engine"
	"github.com/latencylab/latencylab/engine/clock"
	"github.com/latencylab/latencylab/engine/live"
	"github.com/latencylab/latencylab/labs"
)

// run sends one request with settings p to the shared engine for the
// chosen model and GPU and plays the handler's part: it either forwards
// each token's text (streaming) or holds the text back until the answer is
// complete (blocking). Every figure is timed by the modelled GPU (each
// event's GPU time), so a busy host that delivers tokens late does not
// bend them; how late they came is kept and, past a few percent, told in
// the final status, with who else shared the GPU. It emits a frame when
// the request is sent, one per token received (the runner coalesces them)
// and a final frame with every stat. A request the engine refuses ends in
// a final frame with Error set and a nil error. run returns an error only
// for failures on the server's side, and ctx.Err() when ctx ends, in which
// case the engine request is aborted and no final frame is emitted.
func (l *Lab) run(ctx context.Context, p params, emit func(labs.Frame)) error {
	s, err := p.settings()
	if err != nil {
		return err
	}
	if s.sideBySide {
		return l.runSideBySide(ctx, s, emit)
	}
	_, id := l.IDs.Next()
	prompt, err := buildPrompt(s.promptTokens, "Session "+id)
	if err != nil {
		emit(labs.Frame{Final: true, Status: "Not run.", Error: err.Error()})
		return nil
	}
	ans := composeAnswer(prompt, s.answerTokens)
	req := engine.Request{ID: id, PromptTokens: prompt.ids, OutputTokens: ans.Tokens, MaxTokens: len(ans.Tokens)}

	le, stop, err := s.host.Engine(ctx, l.Engines, s.profile, emit)
	if err != nil {
		return fmt.Errorf("streaming: %w", err)
	}
	defer stop()
	// The network: the connection and the upload before the engine sees
	// the request, half a round trip for every token on its way back.
	up, down := s.host.Pipeline().Legs()
	aloneTTFT, aloneE2E, aloneOK := labs.Alone(le.Config(), req)
	v := &view{s: s, answerWords: countWords(ans.Text), xmax: axisEstimate(up+aloneE2E+down, aloneOK), network: up + down}
	v.steps, v.stepsOK = labs.NewSteps(le.Config(), len(prompt.ids), len(ans.Tokens))
	m := newMeter(s.streaming)
	text := labs.NewAnswerText(ans.Pieces, ans.Tokens)

	t0 := l.Clock.Now()
	if err := clock.Sleep(ctx, l.Clock, up); err != nil {
		return ctx.Err()
	}
	// Sent once the upload is over on the modelled timeline, however late
	// the host woke: an engine with other tenants on it takes it then.
	events, err := le.Submit(live.WithSentAt(ctx, t0.Add(up)), req)
	if err != nil {
		return labs.SubmitRefused("streaming", err, "Not run.", emit)
	}
	emit(v.frame(m, 0))
	// While the prompt is being read nothing arrives, so the panels are
	// refreshed on a timer to show the wait growing.
	tk := l.Ticker()
	defer tk.Stop()
	tick := tk.C
	var delivery labs.Delivery
	// With a speed cap, token k may not be shown before the first token's
	// GPU time plus k/cap: each token is due at the later of that and its
	// own GPU time. Tokens that reach the handler before they are due wait
	// in held, released on the handler's clock by the pace timer; the
	// meter records them at their due time.
	var held []heldToken
	var firstGPU, gpuDone, lastDue time.Duration // on the reader's timeline: network included
	received := 0
	done := false
	var pace <-chan time.Time
	release := func(at time.Duration) {
		for len(held) > 0 && at >= held[0].due {
			m.token(held[0].due, held[0].text, held[0].thinking)
			lastDue = held[0].due
			held = held[1:]
		}
		pace = nil
		if len(held) > 0 {
			pace = l.Clock.After(held[0].due - at)
		}
	}
	// finish emits the final frame, drawn to the GPU's end of the answer.
	finish := func() error {
		m.finish(max(gpuDone, lastDue))
		v.notes = []string{labs.ThinkingNote(m.thought, m.tokens, m.words > 0), delivery.BusyNote()}
		if aloneOK {
			v.notes = append(v.notes, labs.SharingNote(v.sharing, firstGPU-up-down-aloneTTFT, gpuDone-up-down-aloneE2E))
		}
		emit(v.frame(m, m.complete))
		return nil
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
				return finish()
			}
			emit(v.frame(m, at))
		case ev, ok := <-events:
			if !ok { // the engine closes the stream without a final event on cancel
				return ctx.Err()
			}
			at := l.Clock.Now().Sub(t0)
			delivery.Observe(ev.GPU, at-up)
			reach := up + ev.GPU + down // when the token reaches the reader
			if ev.Done {
				if ev.Err != nil {
					return fmt.Errorf("streaming: request %s: %w", id, ev.Err)
				}
				events, done, gpuDone, v.sharing = nil, true, reach, ev.Sharing
				if down > 0 && len(held) == 0 && at < reach {
					pace = l.Clock.After(reach - at) // the last token is still on its way
					continue
				}
				if len(held) > 0 {
					continue // the pace timer finishes the answer
				}
				return finish()
			}
			if received == 0 {
				firstGPU = reach
			}
			due := reach
			if s.speedCap > 0 {
				due = max(due, firstGPU+time.Duration(received)*time.Second/time.Duration(s.speedCap))
			}
			received++
			held = append(held, heldToken{due: due, text: text.Piece(ev), thinking: ev.Thinking})
			v.server = text.Server
			release(at)
			emit(v.frame(m, at))
		}
	}
}

// heldToken is a token's text waiting for the speed cap, and when it is
// due on the GPU's timeline; a thinking token has no text.
type heldToken struct {
	due      time.Duration
	text     string
	thinking bool
}

// axisEstimate is the chart's initial time axis, in ms: the request's
// end-to-end time alone on an idle engine of the same configuration (see
// labs.Alone), with a little headroom. Load can make the real run longer;
// the chart then widens once. The estimate only sizes the axis.
func axisEstimate(aloneE2E time.Duration, ok bool) float64 {
	if !ok {
		return 1000
	}
	return labs.NiceCeil(labs.Millis(aloneE2E) * 1.15)
}
