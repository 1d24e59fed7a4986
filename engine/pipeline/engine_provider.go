package pipeline

import (
	"context"
	"errors"
	"fmt"
	"math/rand/v2"
	"sync/atomic"
	"time"

	"github.com/latencylab/latencylab/engine"
	"github.com/latencylab/latencylab/engine/clock"
	"github.com/latencylab/latencylab/engine/live"
	"github.com/latencylab/latencylab/engine/textmodel"
)

// EngineProvider answers with the bundled engine: it tokenizes the prompt,
// composes an answer from the prompt's own context (textmodel.Compose) and
// lets the live engine pace its tokens as the modelled GPU would.
type EngineProvider struct {
	Engine *live.Engine
	// Text is the tokenizer and composer; nil uses the shared model.
	Text *textmodel.Model
	// Clock is the engine's clock (nil: the wall clock). Each chunk is
	// stamped with the time the request was sent on it plus the modelled
	// GPU time of the token, so the stamp does not move when the host
	// reads the stream late or the engine's runner catches up after a
	// stall.
	Clock clock.Clock
	seq   atomic.Uint64
}

// NewEngineProvider wraps a running live engine.
func NewEngineProvider(e *live.Engine) *EngineProvider { return &EngineProvider{Engine: e} }

// Stream submits the request to the engine. Cancelling ctx aborts it there,
// so its KV blocks are freed at the next step.
func (p *EngineProvider) Stream(ctx context.Context, req ProviderRequest) (Stream, error) {
	if p.Engine == nil {
		return nil, errors.New("engine provider: no engine")
	}
	text := p.Text
	if text == nil {
		text = textmodel.Default()
	}
	prompt := text.PromptTokens(req.Messages)
	answer := text.Compose(textmodel.ComposeRequest{
		Messages: req.Messages, MaxTokens: req.MaxTokens, ForcedTokens: req.ExactTokens,
		Seed: req.Seed, Temperature: req.Temperature, OffTopic: req.OffTopic,
	})
	ctx, cancel := context.WithCancel(ctx)
	out := make(chan streamItem, 16)
	s := &chanStream{ctx: ctx, cancel: cancel, ch: out}
	if len(answer.Tokens) == 0 { // a stop string at the very start: nothing to generate
		out <- streamItem{ev: StreamEvent{Done: true, FinishReason: answer.FinishReason,
			Usage: Usage{PromptTokens: len(prompt)}}}
		close(out)
		return s, nil
	}
	// Other providers may share the engine: a random part keeps ids unique.
	id := fmt.Sprintf("%s-%d-%08x", req.ID, p.seq.Add(1), rand.Uint32())
	sent := clock.Or(p.Clock).Now()
	events, err := p.Engine.Submit(ctx, engine.Request{ID: id, PromptTokens: prompt, OutputTokens: answer.Tokens})
	if err != nil {
		cancel()
		return nil, fmt.Errorf("engine provider: submit: %w", err)
	}
	go forwardEngine(ctx, events, answer, sent, out)
	return s, nil
}

// thinkingStandIn is the reasoning text of a thinking token from an
// engine that serves a reasoning model on a real server (live.Event
// Thinking): the events carry no text of the server's, and the gateway
// needs some to route the token to the thinking, as a server's own
// reasoning would be routed.
const thinkingStandIn = "…"

// forwardEngine turns engine token ids back into the composed text pieces,
// each stamped sent plus its modelled GPU time. A thinking token is
// thinking, with no place in the answer.
func forwardEngine(ctx context.Context, events <-chan live.Event, answer textmodel.Answer, sent time.Time, out chan<- streamItem) {
	defer close(out)
	send := func(it streamItem) bool {
		select {
		case out <- it:
			return true
		case <-ctx.Done():
			return false
		}
	}
	thought := 0
	for ev := range events {
		if ev.Done {
			if ev.Err != nil {
				send(streamItem{err: fmt.Errorf("engine: %w", ev.Err)})
				return
			}
			send(streamItem{ev: StreamEvent{Done: true, At: sent.Add(ev.GPU), Since: ev.GPU, FinishReason: answer.FinishReason,
				Usage: Usage{PromptTokens: ev.Usage.PromptTokens, CompletionTokens: ev.Usage.CompletionTokens,
					CachedTokens: ev.Usage.CachedTokens}}})
			return
		}
		item := StreamEvent{Tokens: 1, At: sent.Add(ev.GPU), Since: ev.GPU}
		if ev.Thinking {
			thought++
			item.Reasoning = thinkingStandIn
		} else if k := ev.Index - thought; k >= 0 && k < len(answer.Pieces) {
			item.Text = answer.Pieces[k]
		}
		if !send(streamItem{ev: item}) {
			return
		}
	}
	// The engine closed the channel without a final event: ctx was
	// cancelled and the request aborted. chanStream reports the cause.
}
