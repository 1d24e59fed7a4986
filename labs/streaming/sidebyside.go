package streaming

import (
	"context"
	"fmt"
	"time"

	"github.com/latencylab/latencylab/engine"
	"github.com/latencylab/latencylab/engine/clock"
	"github.com/latencylab/latencylab/engine/live"
	"github.com/latencylab/latencylab/engine/textmodel"
	"github.com/latencylab/latencylab/labs"
)

// player plays one answer of a side-by-side run: it receives the
// engine's tokens and shows them on the meter when they reach the reader
// (the request's way up, the GPU's time, the token's way back), held back
// to the speed cap as run does for a single answer.
type player struct {
	m        *meter
	ans      textmodel.Answer
	text     *labs.AnswerText
	events   <-chan live.Event
	cap      int           // tokens a second; 0: none
	up, down time.Duration // the network's legs (see pipelinelab.Hosting)

	held                       []heldToken
	firstGPU, gpuDone, lastDue time.Duration
	received                   int
	done                       bool
}

// receive takes one token event: it is due at its GPU time, or later when
// the cap holds it back.
func (p *player) receive(ev live.Event) {
	reach := p.up + ev.GPU + p.down
	if p.received == 0 {
		p.firstGPU = reach
	}
	due := reach
	if p.cap > 0 {
		due = max(due, p.firstGPU+time.Duration(p.received)*time.Second/time.Duration(p.cap))
	}
	p.received++
	p.held = append(p.held, heldToken{due: due, text: p.text.Piece(ev), thinking: ev.Thinking})
}

// server names the server that timed the player's answer; "" on the
// bundled engine.
func (p *player) server() string { return p.text.Server }

// release shows every held token due by at.
func (p *player) release(at time.Duration) {
	for len(p.held) > 0 && at >= p.held[0].due {
		p.m.token(p.held[0].due, p.held[0].text, p.held[0].thinking)
		p.lastDue = p.held[0].due
		p.held = p.held[1:]
	}
	if p.done && len(p.held) == 0 && !p.m.done {
		p.m.finish(max(p.gpuDone, p.lastDue))
	}
}

// runSideBySide sends two requests for the same question to the shared
// engine at the same moment: a long answer that is streamed and one half
// as long that is shown only when complete. They share the GPU's batch,
// as two users' requests would, and cross the same network to the same
// hosted engine (other tenants' traffic included) as a single request
// does. Every figure is the GPU's time plus the modelled network; the
// handler's clock only paces what is shown.
func (l *Lab) runSideBySide(ctx context.Context, s settings, emit func(labs.Frame)) error {
	_, id := l.IDs.Next()
	le, stop, err := s.host.Engine(ctx, l.Engines, s.profile, emit)
	if err != nil {
		return fmt.Errorf("streaming: %w", err)
	}
	defer stop()
	up, down := s.host.Pipeline().Legs()
	lengths := [2]int{s.answerTokens, blockedTokens(s.answerTokens)}
	var players [2]*player
	var reqs [2]engine.Request
	for i, kind := range [2]string{"streamed", "blocked"} {
		prompt, err := buildPrompt(s.promptTokens, "Session "+id+" "+kind)
		if err != nil {
			emit(labs.Frame{Final: true, Status: "Not run.", Error: err.Error()})
			return nil
		}
		ans := composeAnswer(prompt, lengths[i])
		reqs[i] = engine.Request{ID: id + "-" + kind, PromptTokens: prompt.ids, OutputTokens: ans.Tokens, MaxTokens: len(ans.Tokens)}
		players[i] = &player{m: newMeter(i == 0), ans: ans, text: labs.NewAnswerText(ans.Pieces, ans.Tokens), cap: s.speedCap, up: up, down: down}
	}
	v := &sideView{s: s, answerWords: countWords(players[0].ans.Text), xmax: sideAxis(le.Config(), reqs, s.speedCap, up+down)}
	t0 := l.Clock.Now()
	if err := clock.Sleep(ctx, l.Clock, up); err != nil { // both requests cross together
		return ctx.Err()
	}
	// Together, so both share their first step however late this
	// goroutine or the engine's runner is scheduled.
	events, err := le.SubmitTogether(ctx, reqs[:]...)
	if err != nil {
		return labs.SubmitRefused("streaming", err, "Not run.", emit)
	}
	for i, p := range players {
		p.events = events[i]
	}
	emit(v.frame(players, 0))
	tk := l.Ticker()
	defer tk.Stop()
	var delivery labs.Delivery
	var pace <-chan time.Time
	for {
		select {
		case <-ctx.Done():
			return ctx.Err()
		case <-tk.C:
			emit(v.frame(players, l.Clock.Now().Sub(t0)))
			continue
		case <-pace:
		case ev, ok := <-players[0].events:
			if err := take(players[0], ev, ok, &delivery, l.Clock.Now().Sub(t0)-up); err != nil {
				return errOr(ctx, err)
			}
		case ev, ok := <-players[1].events:
			if err := take(players[1], ev, ok, &delivery, l.Clock.Now().Sub(t0)-up); err != nil {
				return errOr(ctx, err)
			}
		}
		at := l.Clock.Now().Sub(t0)
		pace = nil
		next, waiting := time.Duration(0), false
		for _, p := range players {
			p.release(at)
			if len(p.held) > 0 && (!waiting || p.held[0].due < next) {
				next, waiting = p.held[0].due, true
			}
		}
		if waiting {
			pace = l.Clock.After(next - at)
		}
		if players[0].m.done && players[1].m.done {
			st := players[0]
			v.notes = []string{labs.ThinkingNote(st.m.thought, st.m.tokens, st.m.words > 0), delivery.BusyNote()}
			emit(v.frame(players, at))
			return nil
		}
		emit(v.frame(players, at))
	}
}

// errClosed marks a stream the engine closed without a final event, which
// it does when the run's context ends.
var errClosed = fmt.Errorf("streaming: the engine closed a stream")

// take hands one event to its player; at is the handler's time since the
// requests reached the engine.
func take(p *player, ev live.Event, ok bool, delivery *labs.Delivery, at time.Duration) error {
	if !ok {
		return errClosed
	}
	delivery.Observe(ev.GPU, at)
	if !ev.Done {
		p.receive(ev)
		return nil
	}
	if ev.Err != nil {
		return fmt.Errorf("streaming: side-by-side request: %w", ev.Err)
	}
	p.events, p.done, p.gpuDone = nil, true, p.up+ev.GPU+p.down
	return nil
}

// errOr is ctx's error when it has ended (a closed stream is then the
// expected end), else err.
func errOr(ctx context.Context, err error) error {
	if ctx.Err() != nil {
		return ctx.Err()
	}
	return err
}

// blockedTokens is the blocked answer's length: half the streamed one's.
func blockedTokens(streamed int) int { return max(1, streamed/2) }

// sideAxis is the chart's initial time axis in ms: the two requests
// together on an idle engine of the same configuration, across network
// (both legs), with the cap's pace if it is slower, and a little
// headroom. It only sizes the axis.
func sideAxis(cfg engine.Config, reqs [2]engine.Request, capTPS int, network time.Duration) float64 {
	res, err := engine.Simulate(cfg, reqs[:], engine.SimOptions{})
	if err != nil {
		return 1000
	}
	end := network + res.Requests[0].E2E()
	if capTPS > 0 {
		end = max(end, res.Requests[0].TTFT()+time.Duration(len(reqs[0].OutputTokens))*time.Second/time.Duration(capTPS))
	}
	return labs.NiceCeil(labs.Millis(end) * 1.15)
}
