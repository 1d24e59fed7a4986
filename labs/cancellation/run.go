package cancellation

import (
	"context"
	"fmt"
	"time"

	"github.com/latencylab/latencylab/engine/pipeline"
	"github.com/latencylab/latencylab/labs"
	"github.com/latencylab/latencylab/labs/pipelinelab"
)

// Questions of the two turns.
const (
	question1 = "My card was declined, what can I do?"
	question2 = "Sorry, I had to step away. Could you carry on from where you stopped?"
)

// followUpTokens is the length of turn 2's answer: it only needs to show
// the history it was given.
const followUpTokens = 60

// pipelineConfig is the support pipeline with the lesson's stage times, the
// conversation as history, no cache and no timeouts (they have their own
// lab), and an answer of exactly answer tokens.
func pipelineConfig(tier, session string, retrieval bool, answer int) pipeline.Config {
	cfg := pipeline.DefaultConfig()
	cfg.Context = pipeline.ContextConfig{Parallel: true, HistoryTurns: 10,
		HistoryLatency: pipeline.Latency{Base: 30 * time.Millisecond}}
	if retrieval {
		cfg.Context.TopK = 3
		cfg.Context.RetrievalLatency = pipeline.Latency{Base: 120 * time.Millisecond}
	}
	cfg.Prompt = pipeline.PromptConfig{System: pipelinelab.SystemPrompt(session), HistoryBudget: 1000}
	cfg.Gateway = pipeline.GatewayConfig{Tier: tier, Overhead: pipeline.Latency{Base: 15 * time.Millisecond},
		ExactTokens: answer}
	cfg.Deadline = 0
	return cfg
}

// turnOne is what the first turn left behind.
type turnOne struct {
	res    *pipeline.Result
	client clientView
	gen    []time.Duration // when each generated token's step ended
	cut    time.Duration   // when the reader's stream ended early (stop or error)
	hasCut bool
	after  int // tokens generated after the cut (tokensAfterCut)
}

// play streams turn 1 with the client and the meter, waits for the engine
// to be done with it, then runs the follow-up turn on the saved history.
func play(ctx context.Context, run pipelinelab.Run, s settings, emit func(labs.Frame)) error {
	le, err := run.Engines.Get(s.tier.Profile)
	if err != nil {
		return fmt.Errorf("cancellation: engine for %s: %w", s.tier.Name, err)
	}
	base := run.ID
	conv := pipeline.NewMemoryConversations()
	tierOf := func(p pipeline.Provider) []pipeline.Tier {
		return []pipeline.Tier{{Name: s.tier.Name, Provider: p, Model: s.tier.Profile.Model,
			PriceIn: s.tier.PriceIn, PriceOut: s.tier.PriceOut}}
	}
	engineP := pipeline.NewEngineProvider(le)
	up := &upstream{inner: engineP, propagate: s.propagate, own: ctx}
	var p1 pipeline.Provider = up
	if s.failAfter > 0 {
		p1 = &pipeline.FaultyProvider{Inner: up, Faults: pipeline.Faults{FailAfter: s.failAfter}}
	}
	deps := run.Deps(pipeline.Deps{Tiers: tierOf(p1), History: conv, Messages: conv, Retriever: run.Retriever})
	cfg := pipelineConfig(s.tier.Name, base, run.Retriever != nil, s.answer)
	pipe1, err := pipeline.New(cfg, deps)
	if err != nil {
		return fmt.Errorf("cancellation: turn 1 pipeline: %w", err)
	}

	v := &view{s: s, xmax: 2000, onServer: labs.OnServer(ctx)}
	poke := make(chan struct{}, 1)
	traces, unsubscribe := le.Subscribe(4096)
	stopped := make(chan struct{})
	t0 := time.Now()
	meter := newGenMeter(base+"-t1-", le.Start(), t0, poke)
	meterDone := make(chan struct{})
	go func() { meter.consume(traces, stopped); close(meterDone) }()
	defer func() { close(stopped); unsubscribe(); <-meterDone }()

	pctx, disconnect := context.WithCancel(ctx)
	defer disconnect()
	cl := &client{stopAfter: s.stopAfter, disconnect: disconnect, poke: poke}
	emit(v.liveFrame(cl.view(), nil, 0))

	// Turn 1 runs in its own goroutine; this one emits every frame, so
	// emit is never called concurrently and never after Run returns.
	var one turnOne
	engineDone := make(chan error, 1)
	go func() {
		res, err := pipe1.Run(pctx, pipeline.Request{ID: base + "-t1", ConversationID: base,
			Customer: pipelinelab.Customer, Question: question1, Seed: 1}, cl.on)
		if err != nil {
			engineDone <- err
			return
		}
		one.res = res
		cv := cl.view()
		meter.finish(cv.delivered > 0)
		want := 0
		switch {
		case !s.propagate:
			u, err := up.wait(ctx)
			if err != nil {
				engineDone <- err
				return
			}
			want = u.CompletionTokens
		case res.Status == pipeline.StatusComplete:
			want = res.Usage.CompletionTokens
		}
		if v.onServer {
			want = 0 // no step of a server's is counted: wait for none
		}
		engineDone <- meter.settle(ctx, want, quiet)
	}()
	for waiting := true; waiting; {
		select {
		case <-poke:
			if ctx.Err() == nil {
				emit(v.liveFrame(cl.view(), meter.times(), time.Since(t0)))
			}
		case err := <-engineDone:
			if ctx.Err() != nil {
				return ctx.Err()
			}
			if err != nil {
				return fmt.Errorf("cancellation: turn 1: %w", err)
			}
			waiting = false
		}
	}
	if meter.wasDropped() {
		return fmt.Errorf("cancellation: the engine dropped the step trace, so the count is incomplete")
	}
	one.client, one.gen = cl.view(), meter.times()
	one.cut, one.hasCut = cutAt(one.client)
	one.after = tokensAfterCut(one.client, len(one.gen), one.hasCut)
	f := v.liveFrame(one.client, one.gen, time.Since(t0))
	f.Status = "Turn 1 is over and saved. Sending the follow-up question on the same conversation…"
	emit(f)

	// Turn 2: a healthy call whose history is whatever turn 1 saved.
	pipe2, err := pipeline.New(pipelineConfig(s.tier.Name, base, run.Retriever != nil, followUpTokens),
		run.Deps(pipeline.Deps{Tiers: tierOf(engineP), History: conv, Messages: conv, Retriever: run.Retriever}))
	if err != nil {
		return fmt.Errorf("cancellation: turn 2 pipeline: %w", err)
	}
	res2, err := pipe2.Run(ctx, pipeline.Request{ID: base + "-t2", ConversationID: base,
		Customer: pipelinelab.Customer, Question: question2, Seed: 2}, nil)
	if err != nil {
		return fmt.Errorf("cancellation: turn 2: %w", err)
	}
	if ctx.Err() != nil {
		return ctx.Err()
	}
	turns, err := conv.RecentTurns(ctx, base, 10)
	if err != nil {
		return fmt.Errorf("cancellation: read back the conversation: %w", err)
	}
	emit(v.finalFrame(one, res2, turns, conv.Messages(base)))
	return nil
}

// thinking is how many of turn 1's tokens were a reasoning model's
// thinking before its answer.
func (one turnOne) thinking() int {
	if one.res == nil {
		return 0
	}
	return one.res.Summary.ThinkingTokens
}

// tokensAfterCut is what "after you left" (or after the break) counts,
// the one definition the status, the cards and their formulas share:
// every token the engine wrote beyond those the reader got. A token the
// reader got was written before the cut; one the reader never got reached
// nobody. Counting rather than comparing times keeps the step trace's
// clock and the stream's from disagreeing on the token read last.
func tokensAfterCut(c clientView, generated int, hasCut bool) int {
	if !hasCut {
		return 0
	}
	return max(generated-c.delivered, 0)
}

// cutAt is when the reader's stream ended early: when they stopped
// reading, or when the error event reached them.
func cutAt(c clientView) (time.Duration, bool) {
	switch {
	case c.stopped:
		return c.stopAt, true
	case c.errShown != "":
		return c.errAt, true
	}
	return 0, false
}
